#include "app/calibratetext.h"

#include "core/io/scenariojson.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QJsonArray>
#include <QTextStream>

namespace napkin {

namespace {

QString pad(const QString &s, int width)
{
    return s.leftJustified(width);
}

QString signedPercent(double estimate, double measured)
{
    const double e = estimate / measured - 1;
    return QStringLiteral("%1%2%").arg(e >= 0 ? QStringLiteral("+") : QString()).arg(e * 100, 0, 'f', 1);
}

/// The run's report without any calibration: its efficiencies and peak memory.
std::optional<Report> plainReport(const MeasuredRun &run, const Catalog &catalog)
{
    Scenario s = run.scenario;
    s.calibration.reset();
    const auto r = computeReport(s, catalog);
    return r.ok() ? std::optional<Report>(*r) : std::nullopt;
}

} // namespace

QString calibrationText(const Calibration &c, const QList<MeasuredRun> &runs, const Catalog &catalog, ByteUnit unit)
{
    QString out;
    QTextStream t(&out);
    t << "Calibration: " << c.note << " (" << c.date << ")\n";
    t << "  " << pad(QStringLiteral("run"), 34) << pad(QStringLiteral("measured"), 12) << pad(QStringLiteral("before"), 22)
      << "after\n";
    for (qsizetype i = 0; i < c.runs.size(); ++i) {
        const CalibrationRun &run = c.runs[i];
        t << "  " << pad(run.label.left(33), 34) << pad(fmt::duration(run.measuredStepSeconds), 12)
          << pad(QStringLiteral("%1 (%2)").arg(fmt::duration(run.estimatedBeforeSeconds),
                                               signedPercent(run.estimatedBeforeSeconds, run.measuredStepSeconds)), 22)
          << fmt::duration(run.estimatedAfterSeconds) << " (" << signedPercent(run.estimatedAfterSeconds, run.measuredStepSeconds)
          << ")\n";
    }
    t << "  factors          compute ×" << QString::number(c.compute, 'f', 3) << "   memory traffic ×"
      << QString::number(c.memory, 'f', 3) << "   communication ×" << QString::number(c.comm, 'f', 3) << '\n';
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const auto r = plainReport(runs[i], catalog);
        if (!r)
            continue;
        if (i == 0)
            t << "  implies          matmul efficiency " << fmt::percent(r->step.matmulEfficiency / c.compute) << " (was "
              << fmt::percent(r->step.matmulEfficiency) << "), memory efficiency "
              << fmt::percent(r->step.memoryEfficiency / c.memory) << " (was " << fmt::percent(r->step.memoryEfficiency)
              << ") on " << r->gpu.name << '\n';
        // A run that ran fit its GPUs; where the estimate says it cannot, the scenario or the
        // memory model is not that run, and the factors fitted to it say so little.
        if (!r->memory.fits)
            t << "  does not fit     " << c.runs[i].label.left(33) << ": estimated " << fmt::bytes(r->memory.perGpu.total(), unit)
              << " per GPU, more than the " << fmt::bytes(r->memory.capacity, unit)
              << " it has: check the run's layout, batch and recompute\n";
        if (runs[i].peakBytes)
            t << "  peak memory      " << c.runs[i].label.left(33) << ": measured " << fmt::bytes(*runs[i].peakBytes, unit)
              << ", estimated " << fmt::bytes(r->memory.perGpu.total(), unit) << " ("
              << signedPercent(r->memory.perGpu.total(), *runs[i].peakBytes) << ")\n";
    }
    return out;
}

QJsonObject calibrationReportJson(const Calibration &c, const QList<MeasuredRun> &runs, const Catalog &catalog)
{
    QJsonArray rows;
    for (qsizetype i = 0; i < c.runs.size(); ++i) {
        const CalibrationRun &run = c.runs[i];
        QJsonObject row{{QStringLiteral("label"), run.label},
                        {QStringLiteral("measured_step_seconds"), run.measuredStepSeconds},
                        {QStringLiteral("estimated_before_seconds"), run.estimatedBeforeSeconds},
                        {QStringLiteral("estimated_after_seconds"), run.estimatedAfterSeconds},
                        {QStringLiteral("error_before"), run.estimatedBeforeSeconds / run.measuredStepSeconds - 1},
                        {QStringLiteral("error_after"), run.estimatedAfterSeconds / run.measuredStepSeconds - 1}};
        const auto r = i < runs.size() ? plainReport(runs[i], catalog) : std::nullopt;
        if (r)
            row.insert(QStringLiteral("fits"), r->memory.fits);
        if (i < runs.size() && runs[i].peakBytes) {
            row.insert(QStringLiteral("measured_peak_bytes"), *runs[i].peakBytes);
            if (r)
                row.insert(QStringLiteral("estimated_peak_bytes"), r->memory.perGpu.total());
        }
        rows.append(row);
    }
    return {{QStringLiteral("calibration"), calibrationToJson(c)}, {QStringLiteral("runs"), rows}};
}

} // namespace napkin
