#include "core/model/fields.h"

#include <cmath>

// Checking and describing values against the field table (core/model/fields.cpp holds the table).

namespace napkin {

namespace {

QString number(double x)
{
    return QString::number(x, 'g', 15);
}

} // namespace

QString boundText(double x)
{
    return QString::number(x, 'g', 15).replace(QStringLiteral("e+"), QStringLiteral("e"));
}

QString acceptedText(const ScenarioField &f)
{
    switch (f.kind) {
    case FieldKind::Integer:
        return QStringLiteral("an integer from %1 to %2").arg(static_cast<std::int64_t>(f.lo)).arg(static_cast<std::int64_t>(f.hi));
    case FieldKind::Real:
    case FieldKind::Count:
        return QStringLiteral("a number from %1%2 to %3")
            .arg(f.loExclusive ? QStringLiteral("above ") : QString(), boundText(f.lo), boundText(f.hi));
    case FieldKind::Flag: return QStringLiteral("true or false");
    case FieldKind::Choice: return QStringLiteral("one of %1").arg(choiceNames(f).join(QStringLiteral(", ")));
    case FieldKind::Text: return QStringLiteral("a non-empty string");
    }
    return {};
}

QString defaultText(const ScenarioField &f)
{
    const QJsonValue v = f.get(Scenario{});
    if (v.isNull())
        return QStringLiteral("none");
    if (v.isBool())
        return v.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (v.isString())
        return v.toString();
    return number(v.toDouble());
}

std::optional<Refusal> checkValue(const ScenarioField &f, const QJsonValue &v)
{
    if (v.isNull() && f.nullable)
        return std::nullopt;
    const auto refuse = [&](const QString &problem) { return std::optional<Refusal>(Refusal{QLatin1String(f.key), problem}); };
    const auto notAccepted = [&] { return refuse(QStringLiteral("must be %1 (got %2)").arg(acceptedText(f), describeValue(v))); };
    switch (f.kind) {
    case FieldKind::Integer: {
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < f.lo || d > f.hi)
            return refuse(integerRangeProblem(static_cast<std::int64_t>(f.lo), static_cast<std::int64_t>(f.hi), describeValue(v)));
        return std::nullopt;
    }
    case FieldKind::Real:
    case FieldKind::Count: {
        const double d = v.toDouble();
        const bool ok = v.isDouble() && std::isfinite(d) && (f.loExclusive ? d > f.lo : d >= f.lo) && d <= f.hi;
        return ok ? std::nullopt : notAccepted();
    }
    case FieldKind::Flag: return v.isBool() ? std::nullopt : notAccepted();
    case FieldKind::Choice: return v.isString() && choiceNames(f).contains(v.toString()) ? std::nullopt : notAccepted();
    case FieldKind::Text: return v.isString() && !v.toString().isEmpty() ? std::nullopt : notAccepted();
    }
    return std::nullopt;
}

std::optional<Refusal> checkFields(const Scenario &s, bool shapeOnly)
{
    for (const ScenarioField &f : scenarioFields()) {
        if (shapeOnly && !f.shape)
            continue;
        if (auto refused = checkValue(f, f.get(s)))
            return refused;
    }
    return std::nullopt;
}

} // namespace napkin
