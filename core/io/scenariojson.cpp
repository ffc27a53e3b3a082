#include "core/io/scenariojson.h"

#include "core/model/fields.h"
#include "core/model/limits.h"
#include "core/model/recipe.h"
#include "core/io/safefile.h"
#include "core/model/shapefix.h"

#include <QDir>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

constexpr int kFormatVersion = 1;

std::optional<Refusal> checkInteger(const QJsonValue &v, const QString &key, std::int64_t lo, std::int64_t hi)
{
    const double d = v.toDouble();
    if (!v.isDouble() || std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        return Refusal{key, integerRangeProblem(lo, hi, describeValue(v))};
    return std::nullopt;
}

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

QJsonObject calibrationObject(const Calibration &c)
{
    QJsonArray runs;
    for (const CalibrationRun &r : c.runs)
        runs.append(QJsonObject{{QStringLiteral("label"), r.label},
                                {QStringLiteral("measured_step_seconds"), r.measuredStepSeconds},
                                {QStringLiteral("measured_peak_bytes"), optionalNumber(r.measuredPeakBytes)},
                                {QStringLiteral("estimated_before_seconds"), r.estimatedBeforeSeconds},
                                {QStringLiteral("estimated_after_seconds"), r.estimatedAfterSeconds}});
    return {{QStringLiteral("compute"), c.compute}, {QStringLiteral("memory"), c.memory}, {QStringLiteral("comm"), c.comm},
            {QStringLiteral("runs"), runs},         {QStringLiteral("date"), c.date},     {QStringLiteral("note"), c.note}};
}

/// A positive finite number in (0, hi], or the refusal naming `key`.
std::optional<Refusal> checkPositive(const QJsonValue &v, const QString &key, double lo, double hi)
{
    const double d = v.toDouble();
    if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi)
        return Refusal{key, QStringLiteral("must be a number from %1 to %2 (got %3)").arg(lo).arg(hi).arg(describeValue(v))};
    return std::nullopt;
}

Result<Calibration> calibrationFromJson(const QJsonValue &v, const QString &key)
{
    if (!v.isObject())
        return Refusal{key, QStringLiteral("must be an object with compute, memory and comm factors, or null")};
    const QJsonObject o = v.toObject();
    Calibration c;
    for (const auto &[name, factor] : {std::pair{"compute", &c.compute}, {"memory", &c.memory}, {"comm", &c.comm}}) {
        const QString k = key + QLatin1Char('.') + QLatin1String(name);
        if (auto refused = checkPositive(o.value(QLatin1String(name)), k, limits::minCalibrationFactor,
                                         limits::maxCalibrationFactor))
            return *refused;
        *factor = o.value(QLatin1String(name)).toDouble();
    }
    const QJsonArray runs = o.value(QStringLiteral("runs")).toArray();
    if (runs.size() > limits::maxCalibrationRuns)
        return Refusal{key + QStringLiteral(".runs"), QStringLiteral("must hold at most %1 runs").arg(limits::maxCalibrationRuns)};
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QJsonObject r = runs[i].toObject();
        const QString k = QStringLiteral("%1.runs[%2]").arg(key).arg(i);
        CalibrationRun run;
        run.label = r.value(QStringLiteral("label")).toString();
        for (const auto &[name, seconds] : {std::pair{"measured_step_seconds", &run.measuredStepSeconds},
                                            {"estimated_before_seconds", &run.estimatedBeforeSeconds},
                                            {"estimated_after_seconds", &run.estimatedAfterSeconds}}) {
            if (auto refused = checkPositive(r.value(QLatin1String(name)), k + QLatin1Char('.') + QLatin1String(name), 1e-9, 1e9))
                return *refused;
            *seconds = r.value(QLatin1String(name)).toDouble();
        }
        const QJsonValue peak = r.value(QStringLiteral("measured_peak_bytes"));
        if (!peak.isNull() && !peak.isUndefined()) {
            if (auto refused = checkPositive(peak, k + QStringLiteral(".measured_peak_bytes"), 1, 1e15))
                return *refused;
            run.measuredPeakBytes = peak.toDouble();
        }
        c.runs.append(run);
    }
    c.date = o.value(QStringLiteral("date")).toString();
    c.note = o.value(QStringLiteral("note")).toString();
    return c;
}

} // namespace

QJsonObject calibrationToJson(const Calibration &c)
{
    return calibrationObject(c);
}

QJsonObject scenarioToJson(const Scenario &s)
{
    QJsonObject o{{QStringLiteral("napkin_scenario"), kFormatVersion}};
    for (const ScenarioField &f : scenarioFields())
        o.insert(QLatin1String(f.key), f.get(s));
    if (s.baseline)
        o.insert(QStringLiteral("baseline"), scenarioToJson(*s.baseline.scenario));
    if (s.calibration)
        o.insert(QStringLiteral("calibration"), calibrationToJson(*s.calibration));
    return o;
}

Result<Scenario> scenarioFromJson(const QJsonObject &o, const Scenario &base)
{
    Scenario s = base;
    ModelShape &m = s.model;
    // The one key that is not a scenario field besides the format version: the pinned baseline.
    const auto readBaseline = [&](const QJsonValue &v, const QString &k) -> std::optional<Refusal> {
        if (v.isNull()) {
            s.baseline.scenario.reset();
            return std::nullopt;
        }
        if (!v.isObject())
            return Refusal{k, QStringLiteral("must be a scenario object or null")};
        if (v.toObject().contains(QStringLiteral("baseline")))
            return Refusal{k, QStringLiteral("must not hold a baseline of its own")};
        // The pinned scenario is complete in itself: it starts from the defaults.
        const auto pinned = scenarioFromJson(v.toObject(), Scenario{});
        if (!pinned.ok())
            return Refusal{k + QLatin1Char('.') + pinned.refusal().field, pinned.refusal().problem};
        s.baseline.scenario = std::make_shared<const Scenario>(*pinned);
        return std::nullopt;
    };
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("napkin_scenario")) {
            if (auto refused = checkInteger(it.value(), it.key(), kFormatVersion, kFormatVersion))
                return *refused;
            continue;
        }
        if (it.key() == QLatin1String("baseline")) {
            if (auto refused = readBaseline(it.value(), it.key()))
                return *refused;
            continue;
        }
        if (it.key() == QLatin1String("calibration")) {
            if (it.value().isNull()) {
                s.calibration.reset();
                continue;
            }
            auto calibration = calibrationFromJson(it.value(), it.key());
            if (!calibration.ok())
                return calibration.refusal();
            s.calibration = *calibration;
            continue;
        }
        const ScenarioField *field = findScenarioField(it.key());
        if (!field)
            return Refusal{printable(it.key()), QStringLiteral("is not a scenario field")};
        if (auto refused = checkValue(*field, it.value()))
            return *refused;
        field->set(s, it.value());
    }
    ShapeFieldsGiven given;
    given.arch = o.contains(QStringLiteral("arch"));
    given.dModel = o.contains(QStringLiteral("d_model"));
    given.heads = o.contains(QStringLiteral("heads"));
    given.kvHeads = o.contains(QStringLiteral("kv_heads"));
    given.dFf = o.contains(QStringLiteral("d_ff"));
    given.tied = o.contains(QStringLiteral("tied"));
    m = deriveDependentFields(m, given);
    if (auto refused = validateScenario(s))
        return *refused;
    return s;
}

LenientScenario scenarioFromJsonLenient(const QJsonObject &o, const Catalog &catalog)
{
    const Scenario defaults;
    QStringList replaced;
    QJsonObject rest = o;
    const auto drop = [&](const QString &key, const QString &why) {
        replaced.append(why);
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
        const auto s = scenarioFromJson(rest, defaults);
        if (s.ok())
            return {*s, replaced};
        const Refusal &e = s.refusal();
        if (e.field.startsWith(QLatin1String("baseline")) && rest.contains(QStringLiteral("baseline"))) {
            drop(QStringLiteral("baseline"), QStringLiteral("%1 %2: the pinned baseline is dropped").arg(e.field, e.problem));
            continue;
        }
        if (!rest.contains(e.field))
            break;
        drop(e.field, QStringLiteral("%1 %2: using the default").arg(e.field, e.problem));
    }
    replaced.append(QStringLiteral("the saved scenario is inconsistent: using the defaults"));
    return {defaults, replaced};
}

std::optional<QString> duplicateJsonKey(const QByteArray &json)
{
    // One set of keys per open object; an array holds none.
    QList<std::optional<QSet<QByteArray>>> open;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '{') {
            open.append(QSet<QByteArray>());
        } else if (c == '[') {
            open.append(std::nullopt);
        } else if ((c == '}' || c == ']') && !open.isEmpty()) {
            open.removeLast();
        } else if (c == '"') {
            qsizetype end = i + 1;
            while (end < json.size() && json[end] != '"')
                end += json[end] == '\\' ? 2 : 1;
            const QByteArray text = json.mid(i + 1, end - i - 1);
            qsizetype next = end + 1;
            while (next < json.size() && QChar::isSpace(json[next]))
                ++next;
            const bool isKey = next < json.size() && json[next] == ':';
            if (isKey && !open.isEmpty() && open.last()) {
                if (open.last()->contains(text))
                    return QString::fromUtf8(text);
                open.last()->insert(text);
            }
            i = end;
        }
    }
    return std::nullopt;
}

Result<Scenario> readScenarioFile(const QString &path, const Scenario &base)
{
    const QString field = QStringLiteral("scenario file");
    const QString shown = printable(QDir::toNativeSeparators(path));
    const auto bytes = readSmallRegularFile(path, kMaxScenarioFileBytes);
    if (!bytes.ok())
        return Refusal{field, bytes.refusal().message()};
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return Refusal{field, QStringLiteral("%1 is not a JSON object (%2 at offset %3)")
                                  .arg(shown, pe.error != QJsonParseError::NoError ? pe.errorString()
                                                                                   : QStringLiteral("top level"))
                                  .arg(pe.offset)};
    if (const auto twice = duplicateJsonKey(*bytes))
        return Refusal{printable(*twice), QStringLiteral("appears twice in one object of the file: give it once")};
    return scenarioFromJson(doc.object(), base);
}

std::optional<Refusal> writeScenarioFile(const QString &path, const Scenario &s)
{
    return writeFileAtomically(path, QJsonDocument(scenarioToJson(s)).toJson(QJsonDocument::Indented));
}

} // namespace napkin
