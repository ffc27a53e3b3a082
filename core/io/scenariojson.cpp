#include "core/io/scenariojson.h"

#include "core/model/fields.h"
#include "core/model/recipe.h"
#include "core/io/safefile.h"
#include "core/model/shapefix.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

constexpr int kFormatVersion = 1;

bool refuse(Refusal *error, const QString &field, const QString &problem)
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
             Refusal *error)
{
    const double d = v.toDouble();
    if (!v.isDouble() || std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        return refuse(error, key, integerRangeProblem(lo, hi, describe(v)));
    *out = static_cast<std::int64_t>(d);
    return true;
}

} // namespace

QJsonObject scenarioToJson(const Scenario &s)
{
    QJsonObject o{{QStringLiteral("napkin_scenario"), kFormatVersion}};
    for (const ScenarioField &f : scenarioFields())
        o.insert(QLatin1String(f.key), f.get(s));
    if (s.baseline)
        o.insert(QStringLiteral("baseline"), scenarioToJson(*s.baseline.scenario));
    return o;
}

std::optional<Scenario> scenarioFromJson(const QJsonObject &o, const Scenario &base, Refusal *error)
{
    Scenario s = base;
    ModelShape &m = s.model;
    // The two keys that are not scenario fields: the format version and the pinned baseline.
    const auto readVersion = [&](const QJsonValue &v, const QString &k) {
        std::int64_t version = 0;
        return readInt(v, k, kFormatVersion, kFormatVersion, &version, error);
    };
    const auto readBaseline = [&](const QJsonValue &v, const QString &k) {
        if (v.isNull()) {
            s.baseline.scenario.reset();
            return true;
        }
        if (!v.isObject())
            return refuse(error, k, QStringLiteral("must be a scenario object or null"));
        if (v.toObject().contains(QStringLiteral("baseline")))
            return refuse(error, k, QStringLiteral("must not hold a baseline of its own"));
        // The pinned scenario is complete in itself: it starts from the defaults.
        Refusal inner;
        const auto pinned = scenarioFromJson(v.toObject(), Scenario{}, &inner);
        if (!pinned)
            return refuse(error, k + QLatin1Char('.') + inner.field, inner.problem);
        s.baseline.scenario = std::make_shared<const Scenario>(*pinned);
        return true;
    };
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("napkin_scenario")) {
            if (!readVersion(it.value(), it.key()))
                return std::nullopt;
            continue;
        }
        if (it.key() == QLatin1String("baseline")) {
            if (!readBaseline(it.value(), it.key()))
                return std::nullopt;
            continue;
        }
        const ScenarioField *field = findScenarioField(it.key());
        if (!field) {
            refuse(error, printable(it.key()), QStringLiteral("is not a scenario field"));
            return std::nullopt;
        }
        if (const auto problem = checkValue(*field, it.value())) {
            refuse(error, it.key(), *problem);
            return std::nullopt;
        }
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
        Refusal e;
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

std::optional<Scenario> readScenarioFile(const QString &path, const Scenario &base, Refusal *error)
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
