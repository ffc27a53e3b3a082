#include "core/io/measuredruns.h"

#include "core/io/safefile.h"
#include "core/io/scenariojson.h"
#include "core/model/limits.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace napkin {

Result<QList<MeasuredRun>> readMeasuredRuns(const QString &path, const Scenario &base)
{
    const QString field = QStringLiteral("measured");
    const QString shown = printable(QDir::toNativeSeparators(path));
    const auto bytes = readSmallRegularFile(path, kMaxScenarioFileBytes);
    if (!bytes.ok())
        return Refusal{field, bytes.refusal().message()};
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &pe);
    if (pe.error != QJsonParseError::NoError)
        return Refusal{field, QStringLiteral("%1 is not JSON (%2 at offset %3)").arg(shown, pe.errorString()).arg(pe.offset)};
    if (const auto twice = duplicateJsonKey(*bytes))
        return Refusal{field, QStringLiteral("%1: key \"%2\" appears twice in one object: give it once").arg(shown, printable(*twice))};
    const QJsonArray runs = doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("runs")).toArray();
    if (runs.isEmpty())
        return Refusal{field, QStringLiteral("%1 holds no runs: give a list of {scenario, step_seconds, peak_bytes}").arg(shown)};
    if (runs.size() > limits::maxCalibrationRuns)
        return Refusal{field, QStringLiteral("%1 holds %2 runs; at most %3").arg(shown).arg(runs.size()).arg(limits::maxCalibrationRuns)};
    QList<MeasuredRun> out;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QString at = QStringLiteral("runs[%1]").arg(i);
        if (!runs[i].isObject())
            return Refusal{at, QStringLiteral("must be an object with scenario and step_seconds")};
        const QJsonObject o = runs[i].toObject();
        // A misspelt key ("peak_byte") would drop its figure in silence.
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!QStringList{QStringLiteral("label"), QStringLiteral("scenario"), QStringLiteral("step_seconds"),
                             QStringLiteral("peak_bytes")}
                     .contains(it.key()))
                return Refusal{at + QLatin1Char('.') + printable(it.key()),
                               QStringLiteral("is not a key of a measured run (label, scenario, step_seconds, peak_bytes)")};
        MeasuredRun run;
        run.label = o.value(QStringLiteral("label")).toString(at);
        const auto scenario = scenarioFromJson(o.value(QStringLiteral("scenario")).toObject(), base);
        if (!scenario.ok())
            return Refusal{QStringLiteral("%1.scenario.%2").arg(at, scenario.refusal().field), scenario.refusal().problem};
        run.scenario = *scenario;
        const QJsonValue step = o.value(QStringLiteral("step_seconds"));
        if (!step.isDouble() || !(step.toDouble() > 0) || step.toDouble() > 1e9)
            return Refusal{at + QStringLiteral(".step_seconds"), QStringLiteral("must be a time above 0 and at most 1e9 seconds")};
        run.stepSeconds = step.toDouble();
        const QJsonValue peak = o.value(QStringLiteral("peak_bytes"));
        if (!peak.isUndefined() && !peak.isNull()) {
            if (!peak.isDouble() || !(peak.toDouble() > 0) || peak.toDouble() > 1e15)
                return Refusal{at + QStringLiteral(".peak_bytes"), QStringLiteral("must be a size above 0 and at most 1e15 bytes")};
            run.peakBytes = peak.toDouble();
        }
        out << run;
    }
    return out;
}

} // namespace napkin
