#include "core/model/scenario.h"

namespace napkin {

bool PinnedBaseline::operator==(const PinnedBaseline &other) const
{
    if (!scenario || !other.scenario)
        return !scenario && !other.scenario;
    return scenario == other.scenario || *scenario == *other.scenario;
}

QString enumName(std::span<const EnumEntry> table, int value)
{
    for (const EnumEntry &e : table)
        if (e.value == value)
            return QLatin1String(e.name);
    return {};
}

std::optional<int> enumValue(std::span<const EnumEntry> table, const QString &name)
{
    for (const EnumEntry &e : table)
        if (name == QLatin1String(e.name))
            return e.value;
    return std::nullopt;
}

QStringList enumNames(std::span<const EnumEntry> table)
{
    QStringList out;
    for (const EnumEntry &e : table)
        out << QLatin1String(e.name);
    return out;
}

namespace {

template <typename E>
std::optional<E> fromName(std::span<const EnumEntry> table, const QString &name)
{
    const std::optional<int> v = enumValue(table, name);
    return v ? std::optional<E>(static_cast<E>(*v)) : std::nullopt;
}

} // namespace

QString archName(Arch arch)
{
    return enumName(kArchNames, static_cast<int>(arch));
}

std::optional<Arch> archFromName(const QString &name)
{
    return fromName<Arch>(kArchNames, name);
}

QString modeName(Mode mode)
{
    return enumName(kModeNames, static_cast<int>(mode));
}

std::optional<Mode> modeFromName(const QString &name)
{
    return fromName<Mode>(kModeNames, name);
}

QString numberFormatName(NumberFormat f)
{
    return enumName(kWeightDtypeNames, static_cast<int>(f));
}

std::optional<NumberFormat> numberFormatFromName(const QString &name)
{
    return fromName<NumberFormat>(kWeightDtypeNames, name);
}

QString offloadName(Offload offload)
{
    return enumName(kOffloadNames, static_cast<int>(offload));
}

std::optional<Offload> offloadFromName(const QString &name)
{
    return fromName<Offload>(kOffloadNames, name);
}

QString recomputeName(Recompute recompute)
{
    return enumName(kRecomputeNames, static_cast<int>(recompute));
}

bool selectiveRecomputeWorthWeighing(const Scenario &s)
{
    return (s.recomputeCoreAttention && !s.flashAttention) || s.recomputeNorms
           || (s.recomputeMoeActivation && s.model.experts > 0)
           || (s.recomputeMlaUpProjection && s.model.kvLoraRank > 0);
}

QString recomputeText(const Scenario &s)
{
    if (s.recompute != Recompute::Selective)
        return recomputeName(s.recompute);
    QStringList modules;
    if (s.recomputeCoreAttention)
        modules << QStringLiteral("core_attn");
    if (s.recomputeNorms)
        modules << QStringLiteral("layernorm");
    if (s.recomputeMoeActivation && s.model.experts > 0)
        modules << QStringLiteral("moe_act");
    if (s.recomputeMlaUpProjection && s.model.kvLoraRank > 0)
        modules << QStringLiteral("mla_up_proj");
    return QStringLiteral("%1 (%2)").arg(recomputeName(s.recompute),
                                         modules.isEmpty() ? QStringLiteral("nothing") : modules.join(QStringLiteral(", ")));
}

std::optional<Recompute> recomputeFromName(const QString &name)
{
    return fromName<Recompute>(kRecomputeNames, name);
}

QString activationModelName(ActivationModel model)
{
    return enumName(kActivationModelNames, static_cast<int>(model));
}

std::optional<ActivationModel> activationModelFromName(const QString &name)
{
    return fromName<ActivationModel>(kActivationModelNames, name);
}

QString flopsBasisName(FlopsBasis basis)
{
    return enumName(kFlopsBasisNames, static_cast<int>(basis));
}

std::optional<FlopsBasis> flopsBasisFromName(const QString &name)
{
    return fromName<FlopsBasis>(kFlopsBasisNames, name);
}

QString utilizationBasisName(UtilizationBasis basis)
{
    return enumName(kUtilizationBasisNames, static_cast<int>(basis));
}

std::optional<UtilizationBasis> utilizationBasisFromName(const QString &name)
{
    return fromName<UtilizationBasis>(kUtilizationBasisNames, name);
}

QString timeBasisName(TimeBasis basis)
{
    return enumName(kTimeBasisNames, static_cast<int>(basis));
}

std::optional<TimeBasis> timeBasisFromName(const QString &name)
{
    return fromName<TimeBasis>(kTimeBasisNames, name);
}

} // namespace napkin
