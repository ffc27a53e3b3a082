#pragma once

// Checks on a computed report shared by the extreme-range test and the fuzz harness: every
// figure finite, the text report free of inf/nan, and the scenario surviving a save and load.
#include "core/report/report.h"
#include "core/io/reportjson.h"
#include "app/reporttext.h"
#include "core/io/scenariojson.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>

#include <cmath>

namespace napkin::checks {

/// The JSON path of the first non-finite number in `v`, or an empty string.
inline QString firstNonFinite(const QJsonValue &v, const QString &path = QStringLiteral("$"))
{
    if (v.isDouble())
        return std::isfinite(v.toDouble()) ? QString() : path;
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (QString p = firstNonFinite(it.value(), path + QLatin1Char('.') + it.key()); !p.isEmpty())
                return p;
    }
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (QString p = firstNonFinite(a.at(i), path + QStringLiteral("[%1]").arg(i)); !p.isEmpty())
                return p;
    }
    return {};
}

/// What is wrong with a report (empty when nothing): a non-finite figure in its JSON, "inf" or
/// "nan" in its text, or a scenario that does not come back from its own JSON unchanged.
inline QString reportProblem(const Report &report, const Catalog &catalog)
{
    if (const QString p = firstNonFinite(reportToJson(report)); !p.isEmpty())
        return QStringLiteral("non-finite figure at ") + p;
    for (ByteUnit unit : {ByteUnit::GB, ByteUnit::GiB}) {
        const QString text = reportText(report, catalog, unit);
        for (const char *word : {"inf", "nan", "NaN", "Inf"})
            if (text.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(QLatin1String(word)))))
                return QStringLiteral("text report shows '%1'").arg(QLatin1String(word));
    }
    const auto back = scenarioFromJson(scenarioToJson(report.scenario), Scenario{});
    if (!back.ok())
        return QStringLiteral("its own JSON is refused: ") + back.refusalMessage();
    if (!(*back == report.scenario))
        return QStringLiteral("the scenario changes on a JSON round trip");
    return {};
}

} // namespace napkin::checks
