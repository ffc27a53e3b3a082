#include "scenariojson.h"

#include "recipe.h"
#include "safefile.h"
#include "shapefix.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <functional>

namespace napkin {

namespace {

constexpr int kFormatVersion = 1;

bool refuse(ValidationError *error, const QString &field, const QString &problem)
{
    if (error)
        *error = {field, problem};
    return false;
}

QString describe(const QJsonValue &v)
{
    if (v.isString())
        return QLatin1Char('"') + printable(v.toString()) + QLatin1Char('"');
    if (v.isDouble())
        return QString::number(v.toDouble());
    return printable(QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
}

bool readInt(const QJsonValue &v, const QString &key, std::int64_t lo, std::int64_t hi, std::int64_t *out,
             ValidationError *error)
{
    const double d = v.toDouble();
    if (!v.isDouble() || std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        return refuse(error, key, integerRangeProblem(lo, hi, describe(v)));
    *out = static_cast<std::int64_t>(d);
    return true;
}

bool readReal(const QJsonValue &v, const QString &key, double *out, ValidationError *error)
{
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return refuse(error, key, QStringLiteral("must be a number (got %1)").arg(describe(v)));
    *out = v.toDouble();
    return true;
}

bool readBool(const QJsonValue &v, const QString &key, bool *out, ValidationError *error)
{
    if (!v.isBool())
        return refuse(error, key, QStringLiteral("must be true or false (got %1)").arg(describe(v)));
    *out = v.toBool();
    return true;
}

bool readString(const QJsonValue &v, const QString &key, QString *out, ValidationError *error)
{
    if (!v.isString() || v.toString().isEmpty())
        return refuse(error, key, QStringLiteral("must be a non-empty string (got %1)").arg(describe(v)));
    *out = v.toString();
    return true;
}

template <typename Enum>
bool readEnum(const QJsonValue &v, const QString &key, const QString &accepted,
              std::optional<Enum> (*fromName)(const QString &), Enum *out, ValidationError *error)
{
    const auto e = v.isString() ? fromName(v.toString()) : std::nullopt;
    if (!e)
        return refuse(error, key, QStringLiteral("must be one of %1 (got %2)").arg(accepted, describe(v)));
    *out = *e;
    return true;
}

} // namespace

QJsonObject scenarioToJson(const Scenario &s)
{
    const ModelShape &m = s.model;
    QJsonObject o{
        {QStringLiteral("napkin_scenario"), kFormatVersion},
        {QStringLiteral("preset"), s.presetId},
        {QStringLiteral("arch"), archName(m.arch)},
        {QStringLiteral("layers"), static_cast<double>(m.layers)},
        {QStringLiteral("d_model"), static_cast<double>(m.dModel)},
        {QStringLiteral("heads"), static_cast<double>(m.heads)},
        {QStringLiteral("kv_heads"), static_cast<double>(m.kvHeads)},
        {QStringLiteral("d_ff"), static_cast<double>(m.dFf)},
        {QStringLiteral("vocab"), static_cast<double>(m.vocab)},
        {QStringLiteral("max_positions"), static_cast<double>(m.maxPositions)},
        {QStringLiteral("tied"), m.tied},
        {QStringLiteral("params"), s.paramsOverride ? QJsonValue(static_cast<double>(*s.paramsOverride))
                                                    : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("seq_len"), static_cast<double>(s.seqLen)},
        {QStringLiteral("batch"), static_cast<double>(s.microBatch)},
        {QStringLiteral("tokens"), s.tokens},
        {QStringLiteral("gpu"), s.gpuId},
        {QStringLiteral("gpus"), static_cast<double>(s.gpus)},
        {QStringLiteral("zero"), s.zeroStage},
        {QStringLiteral("recipe"), s.recipeId},
        {QStringLiteral("recompute"), recomputeName(s.recompute)},
        {QStringLiteral("flash"), s.flashAttention},
        {QStringLiteral("activations"), s.includeActivations},
        {QStringLiteral("activation_model"), activationModelName(s.activationModel)},
        {QStringLiteral("dropout"), s.dropout},
        {QStringLiteral("causal"), s.causalHalving},
        {QStringLiteral("flops_basis"), flopsBasisName(s.flopsBasis)},
        {QStringLiteral("mfu"), s.mfuFraction},
        {QStringLiteral("utilization_basis"), utilizationBasisName(s.utilizationBasis)},
        // null: the chosen GPU's catalog price, which follows the GPU.
        {QStringLiteral("price"), s.pricePerGpuHourUsd ? QJsonValue(*s.pricePerGpuHourUsd) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("reserved_bytes"), s.reservedBytes},
        {QStringLiteral("allocator_margin"), s.allocatorMargin},
        {QStringLiteral("tp"), static_cast<double>(s.tp)},
        {QStringLiteral("sp"), s.sequenceParallel},
        {QStringLiteral("pp"), static_cast<double>(s.pp)},
        {QStringLiteral("vpp"), static_cast<double>(s.vpp)},
        {QStringLiteral("cp"), static_cast<double>(s.cp)},
        // null: one micro-batch per data-parallel rank; the GPU's node; the GPU's network.
        {QStringLiteral("global_batch"), s.globalBatch ? QJsonValue(static_cast<double>(*s.globalBatch)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("gpus_per_node"), s.gpusPerNode ? QJsonValue(static_cast<double>(*s.gpusPerNode)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("interconnect"), s.interconnectId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.interconnectId)},
        {QStringLiteral("efficiency_matmul"), s.efficiencyMatmul ? QJsonValue(*s.efficiencyMatmul) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("efficiency_memory"), s.efficiencyMemory ? QJsonValue(*s.efficiencyMemory) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("time_basis"), timeBasisName(s.timeBasis)},
    };
    if (s.baseline)
        o.insert(QStringLiteral("baseline"), scenarioToJson(*s.baseline.scenario));
    return o;
}

std::optional<Scenario> scenarioFromJson(const QJsonObject &o, const Scenario &base, ValidationError *error)
{
    Scenario s = base;
    ModelShape &m = s.model;
    using Reader = std::function<bool(const QJsonValue &, const QString &)>;
    const auto integer = [error](std::int64_t lo, std::int64_t hi, std::int64_t *out) -> Reader {
        return [=](const QJsonValue &v, const QString &k) { return readInt(v, k, lo, hi, out, error); };
    };
    const auto optionalInteger = [error](std::int64_t lo, std::int64_t hi, std::optional<std::int64_t> *out) -> Reader {
        return [=](const QJsonValue &v, const QString &k) {
            if (v.isNull()) {
                out->reset();
                return true;
            }
            std::int64_t n = 0;
            if (!readInt(v, k, lo, hi, &n, error))
                return false;
            *out = n;
            return true;
        };
    };
    const auto optionalReal = [error](std::optional<double> *out) -> Reader {
        return [=](const QJsonValue &v, const QString &k) {
            if (v.isNull()) {
                out->reset();
                return true;
            }
            double x = 0;
            if (!readReal(v, k, &x, error))
                return false;
            *out = x;
            return true;
        };
    };
    std::int64_t zero = s.zeroStage;
    const QList<std::pair<QString, Reader>> readers = {
        {QStringLiteral("napkin_scenario"), [&](const QJsonValue &v, const QString &k) {
             std::int64_t version = 0;
             return readInt(v, k, kFormatVersion, kFormatVersion, &version, error);
         }},
        {QStringLiteral("preset"), [&](const QJsonValue &v, const QString &k) { return readString(v, k, &s.presetId, error); }},
        {QStringLiteral("arch"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<Arch>(v, k, QStringLiteral("gpt2, llama"), archFromName, &m.arch, error);
         }},
        {QStringLiteral("layers"), integer(1, limits::maxLayers, &m.layers)},
        {QStringLiteral("d_model"), integer(1, limits::maxDModel, &m.dModel)},
        {QStringLiteral("heads"), integer(1, limits::maxHeads, &m.heads)},
        {QStringLiteral("kv_heads"), integer(1, limits::maxHeads, &m.kvHeads)},
        {QStringLiteral("d_ff"), integer(1, limits::maxDFf, &m.dFf)},
        {QStringLiteral("vocab"), integer(1, limits::maxVocab, &m.vocab)},
        {QStringLiteral("max_positions"), integer(1, limits::maxPositions, &m.maxPositions)},
        {QStringLiteral("tied"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &m.tied, error); }},
        {QStringLiteral("params"), [&](const QJsonValue &v, const QString &k) {
             if (v.isNull()) {
                 s.paramsOverride.reset();
                 return true;
             }
             std::int64_t p = 0;
             if (!readInt(v, k, 1, limits::maxParams, &p, error))
                 return false;
             s.paramsOverride = p;
             return true;
         }},
        {QStringLiteral("seq_len"), integer(1, limits::maxSeqLen, &s.seqLen)},
        {QStringLiteral("batch"), integer(1, limits::maxMicroBatch, &s.microBatch)},
        {QStringLiteral("tokens"), [&](const QJsonValue &v, const QString &k) { return readReal(v, k, &s.tokens, error); }},
        {QStringLiteral("gpu"), [&](const QJsonValue &v, const QString &k) { return readString(v, k, &s.gpuId, error); }},
        {QStringLiteral("gpus"), integer(1, limits::maxGpus, &s.gpus)},
        {QStringLiteral("zero"), integer(0, 3, &zero)},
        {QStringLiteral("recipe"), [&](const QJsonValue &v, const QString &k) { return readString(v, k, &s.recipeId, error); }},
        {QStringLiteral("recompute"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<Recompute>(v, k, QStringLiteral("none, selective, full"), recomputeFromName, &s.recompute, error);
         }},
        {QStringLiteral("flash"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &s.flashAttention, error); }},
        {QStringLiteral("activations"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &s.includeActivations, error); }},
        {QStringLiteral("activation_model"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<ActivationModel>(v, k, QStringLiteral("korthikanti, pytorch"), activationModelFromName,
                                              &s.activationModel, error);
         }},
        {QStringLiteral("dropout"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &s.dropout, error); }},
        {QStringLiteral("causal"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &s.causalHalving, error); }},
        {QStringLiteral("flops_basis"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<FlopsBasis>(v, k, QStringLiteral("6nd, detailed"), flopsBasisFromName, &s.flopsBasis, error);
         }},
        {QStringLiteral("mfu"), [&](const QJsonValue &v, const QString &k) { return readReal(v, k, &s.mfuFraction, error); }},
        {QStringLiteral("utilization_basis"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<UtilizationBasis>(v, k, QStringLiteral("hfu, mfu"), utilizationBasisFromName,
                                               &s.utilizationBasis, error);
         }},
        {QStringLiteral("price"), [&](const QJsonValue &v, const QString &k) {
             if (v.isNull()) {
                 s.pricePerGpuHourUsd.reset();
                 return true;
             }
             double price = 0;
             if (!readReal(v, k, &price, error))
                 return false;
             s.pricePerGpuHourUsd = price;
             return true;
         }},
        {QStringLiteral("reserved_bytes"), [&](const QJsonValue &v, const QString &k) { return readReal(v, k, &s.reservedBytes, error); }},
        {QStringLiteral("allocator_margin"), [&](const QJsonValue &v, const QString &k) { return readReal(v, k, &s.allocatorMargin, error); }},
        {QStringLiteral("tp"), integer(1, limits::maxGpus, &s.tp)},
        {QStringLiteral("sp"), [&](const QJsonValue &v, const QString &k) { return readBool(v, k, &s.sequenceParallel, error); }},
        {QStringLiteral("pp"), integer(1, limits::maxGpus, &s.pp)},
        {QStringLiteral("vpp"), integer(1, limits::maxLayers, &s.vpp)},
        {QStringLiteral("cp"), integer(1, limits::maxGpus, &s.cp)},
        {QStringLiteral("global_batch"), optionalInteger(1, limits::maxGlobalBatch, &s.globalBatch)},
        {QStringLiteral("gpus_per_node"), optionalInteger(1, limits::maxGpus, &s.gpusPerNode)},
        {QStringLiteral("interconnect"), [&](const QJsonValue &v, const QString &k) {
             if (v.isNull()) {
                 s.interconnectId.clear();
                 return true;
             }
             return readString(v, k, &s.interconnectId, error);
         }},
        {QStringLiteral("efficiency_matmul"), optionalReal(&s.efficiencyMatmul)},
        {QStringLiteral("efficiency_memory"), optionalReal(&s.efficiencyMemory)},
        {QStringLiteral("time_basis"), [&](const QJsonValue &v, const QString &k) {
             return readEnum<TimeBasis>(v, k, QStringLiteral("mfu, estimated"), timeBasisFromName, &s.timeBasis, error);
         }},
        {QStringLiteral("baseline"), [&](const QJsonValue &v, const QString &k) {
             if (v.isNull()) {
                 s.baseline.scenario.reset();
                 return true;
             }
             if (!v.isObject()) {
                 refuse(error, k, QStringLiteral("must be a scenario object or null"));
                 return false;
             }
             if (v.toObject().contains(QStringLiteral("baseline"))) {
                 refuse(error, k, QStringLiteral("must not hold a baseline of its own"));
                 return false;
             }
             // The pinned scenario is complete in itself: it starts from the defaults.
             ValidationError inner;
             const auto pinned = scenarioFromJson(v.toObject(), Scenario{}, &inner);
             if (!pinned) {
                 refuse(error, k + QLatin1Char('.') + inner.field, inner.problem);
                 return false;
             }
             s.baseline.scenario = std::make_shared<const Scenario>(*pinned);
             return true;
         }},
    };
    for (auto it = o.begin(); it != o.end(); ++it) {
        const auto reader = std::find_if(readers.begin(), readers.end(),
                                         [&](const auto &r) { return r.first == it.key(); });
        if (reader == readers.end()) {
            refuse(error, printable(it.key()), QStringLiteral("is not a scenario field"));
            return std::nullopt;
        }
        if (!reader->second(it.value(), it.key()))
            return std::nullopt;
    }
    s.zeroStage = static_cast<int>(zero);
    ShapeFieldsGiven given;
    given.arch = o.contains(QStringLiteral("arch"));
    given.dModel = o.contains(QStringLiteral("d_model"));
    given.heads = o.contains(QStringLiteral("heads"));
    given.kvHeads = o.contains(QStringLiteral("kv_heads"));
    given.dFf = o.contains(QStringLiteral("d_ff"));
    given.tied = o.contains(QStringLiteral("tied"));
    m = deriveDependentFields(m, given);
    if (auto e = validateScenario(s)) {
        if (error)
            *error = *e;
        return std::nullopt;
    }
    return s;
}

Scenario scenarioFromJsonLenient(const QJsonObject &o, const Catalog &catalog, QStringList *replaced)
{
    const Scenario defaults;
    QJsonObject rest = o;
    const auto drop = [&](const QString &key, const QString &why) {
        if (replaced)
            replaced->append(why);
        rest.remove(key);
    };
    const auto idKnown = [&](const QString &key, auto isKnown, const QString &fallback) {
        const QJsonValue v = rest.value(key);
        if (v.isString() && !isKnown(v.toString()))
            drop(key, QStringLiteral("%1 \"%2\" is not in the catalog: using %3").arg(key, printable(v.toString()), fallback));
    };
    idKnown(QStringLiteral("gpu"), [&](const QString &id) { return catalog.findGpu(id) != nullptr; }, defaults.gpuId);
    idKnown(QStringLiteral("recipe"), [](const QString &id) { return findRecipe(id).has_value(); }, defaults.recipeId);
    // Each refusal names one field; drop it and try again with the rest (bounded by the key count).
    for (qsizetype attempts = rest.size() + 1; attempts > 0; --attempts) {
        ValidationError e;
        if (auto s = scenarioFromJson(rest, defaults, &e))
            return *s;
        if (e.field.startsWith(QLatin1String("baseline")) && rest.contains(QStringLiteral("baseline"))) {
            drop(QStringLiteral("baseline"), QStringLiteral("%1 %2: the pinned baseline is dropped").arg(e.field, e.problem));
            continue;
        }
        if (!rest.contains(e.field))
            break;
        drop(e.field, QStringLiteral("%1 %2: using the default").arg(e.field, e.problem));
    }
    if (replaced)
        replaced->append(QStringLiteral("the saved scenario is inconsistent: using the defaults"));
    return defaults;
}

std::optional<Scenario> readScenarioFile(const QString &path, const Scenario &base, ValidationError *error)
{
    const QString field = QStringLiteral("scenario file");
    const QString shown = printable(QDir::toNativeSeparators(path));
    QString why;
    const auto bytes = readSmallRegularFile(path, kMaxScenarioFileBytes, &why);
    if (!bytes) {
        refuse(error, field, printable(why));
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        refuse(error, field, QStringLiteral("%1 is not a JSON object (%2 at offset %3)")
                                 .arg(shown, pe.error != QJsonParseError::NoError ? pe.errorString()
                                                                                  : QStringLiteral("top level"))
                                 .arg(pe.offset));
        return std::nullopt;
    }
    return scenarioFromJson(doc.object(), base, error);
}

bool writeScenarioFile(const QString &path, const Scenario &s, QString *error)
{
    const bool ok = writeFileAtomically(path, QJsonDocument(scenarioToJson(s)).toJson(QJsonDocument::Indented), error);
    if (!ok && error)
        *error = printable(*error);
    return ok;
}

} // namespace napkin
