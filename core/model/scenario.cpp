#include "core/model/scenario.h"

namespace napkin {

bool PinnedBaseline::operator==(const PinnedBaseline &other) const
{
    if (!scenario || !other.scenario)
        return !scenario && !other.scenario;
    return scenario == other.scenario || *scenario == *other.scenario;
}

QString archName(Arch arch)
{
    return arch == Arch::Gpt2 ? QStringLiteral("gpt2") : QStringLiteral("llama");
}

std::optional<Arch> archFromName(const QString &name)
{
    if (name == QLatin1String("gpt2"))
        return Arch::Gpt2;
    if (name == QLatin1String("llama"))
        return Arch::Llama;
    return std::nullopt;
}

QString offloadName(Offload offload)
{
    switch (offload) {
    case Offload::None: return QStringLiteral("none");
    case Offload::Optimizer: return QStringLiteral("optimizer");
    case Offload::Params: return QStringLiteral("params");
    }
    return {};
}

std::optional<Offload> offloadFromName(const QString &name)
{
    for (Offload o : {Offload::None, Offload::Optimizer, Offload::Params})
        if (offloadName(o) == name)
            return o;
    return std::nullopt;
}

QString recomputeName(Recompute recompute)
{
    switch (recompute) {
    case Recompute::None: return QStringLiteral("none");
    case Recompute::Selective: return QStringLiteral("selective");
    case Recompute::Full: return QStringLiteral("full");
    }
    return {};
}

std::optional<Recompute> recomputeFromName(const QString &name)
{
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
        if (recomputeName(r) == name)
            return r;
    return std::nullopt;
}

QString activationModelName(ActivationModel model)
{
    return model == ActivationModel::Korthikanti ? QStringLiteral("korthikanti") : QStringLiteral("pytorch");
}

std::optional<ActivationModel> activationModelFromName(const QString &name)
{
    if (name == QLatin1String("korthikanti"))
        return ActivationModel::Korthikanti;
    if (name == QLatin1String("pytorch"))
        return ActivationModel::PyTorch;
    return std::nullopt;
}

QString flopsBasisName(FlopsBasis basis)
{
    return basis == FlopsBasis::SixND ? QStringLiteral("6nd") : QStringLiteral("detailed");
}

std::optional<FlopsBasis> flopsBasisFromName(const QString &name)
{
    if (name == QLatin1String("6nd"))
        return FlopsBasis::SixND;
    if (name == QLatin1String("detailed"))
        return FlopsBasis::Detailed;
    return std::nullopt;
}

QString utilizationBasisName(UtilizationBasis basis)
{
    return basis == UtilizationBasis::Hfu ? QStringLiteral("hfu") : QStringLiteral("mfu");
}

std::optional<UtilizationBasis> utilizationBasisFromName(const QString &name)
{
    if (name == QLatin1String("hfu"))
        return UtilizationBasis::Hfu;
    if (name == QLatin1String("mfu"))
        return UtilizationBasis::Mfu;
    return std::nullopt;
}

QString timeBasisName(TimeBasis basis)
{
    return basis == TimeBasis::Utilization ? QStringLiteral("mfu") : QStringLiteral("estimated");
}

std::optional<TimeBasis> timeBasisFromName(const QString &name)
{
    if (name == QLatin1String("mfu"))
        return TimeBasis::Utilization;
    if (name == QLatin1String("estimated"))
        return TimeBasis::Estimated;
    return std::nullopt;
}

} // namespace napkin
