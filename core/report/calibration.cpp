#include "core/report/calibration.h"

#include "core/model/limits.h"
#include "core/report/report.h"

#include <array>
#include <cmath>

namespace napkin {

namespace {

using Factors = std::array<double, 3>;  // log of compute, memory, communication

/// The ridge on the log factors: small beside any real misfit (a 1% error is 1e-4 in squared
/// log), large enough that a factor no run depends on stays at exactly 1.
constexpr double kRidge = 1e-6;

/// A run the fit meets within 1% of its measured step is explained.
constexpr double kExplained = 0.01;

Scenario withFactors(Scenario s, const Factors &x)
{
    Calibration c;
    c.compute = std::exp(x[0]);
    c.memory = std::exp(x[1]);
    c.comm = std::exp(x[2]);
    s.calibration = c;
    return s;
}

/// Solves the 3x3 system a x = b (a symmetric positive definite) by Gaussian elimination.
Factors solve(std::array<Factors, 3> a, Factors b)
{
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j) {
            const double f = a[j][i] / a[i][i];
            for (int k = i; k < 3; ++k)
                a[j][k] -= f * a[i][k];
            b[j] -= f * b[i];
        }
    Factors x{};
    for (int i = 2; i >= 0; --i) {
        double sum = b[i];
        for (int k = i + 1; k < 3; ++k)
            sum -= a[i][k] * x[k];
        x[i] = sum / a[i][i];
    }
    return x;
}

} // namespace

Result<Calibration> calibrate(const QList<MeasuredRun> &runs, const Catalog &catalog, const QString &date)
{
    if (runs.isEmpty())
        return Refusal{QStringLiteral("measured_step_seconds"), QStringLiteral("needs at least one measured run")};
    if (runs.size() > limits::maxCalibrationRuns)
        return Refusal{QStringLiteral("measured"), QStringLiteral("must hold at most %1 runs").arg(limits::maxCalibrationRuns)};
    const auto runField = [&](qsizetype i, const QString &field) {
        return runs.size() == 1 ? field : QStringLiteral("runs[%1].%2").arg(i).arg(field);
    };
    // Each run's estimate before the fit, which also checks that it computes, and the
    // efficiencies and GPU it ran at, for the check of the fitted factors.
    struct Plain {
        double stepSeconds;
        double matmulEfficiency;
        double memoryEfficiency;
        QString gpuName;
    };
    QList<Plain> before;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const MeasuredRun &run = runs[i];
        if (!(run.stepSeconds > 0) || !std::isfinite(run.stepSeconds))
            return Refusal{runField(i, QStringLiteral("measured_step_seconds")),
                           QStringLiteral("must be a time above 0 seconds (got %1)").arg(run.stepSeconds)};
        if (run.peakBytes && (!(*run.peakBytes > 0) || !std::isfinite(*run.peakBytes)))
            return Refusal{runField(i, QStringLiteral("measured_peak_bytes")),
                           QStringLiteral("must be a size above 0 bytes (got %1)").arg(*run.peakBytes)};
        if (run.scenario.mode != Mode::Training)
            return Refusal{runField(i, QStringLiteral("mode")), QStringLiteral("must be training: a measured step calibrates the training step")};
        Scenario plain = run.scenario;
        plain.calibration.reset();
        const auto r = computeReport(plain, catalog);
        if (!r.ok())
            return Refusal{runField(i, r.refusal().field), r.refusal().problem};
        // No run can have held more than its GPU's memory at its peak.
        if (run.peakBytes && *run.peakBytes > r->gpu.memoryBytes)
            return Refusal{runField(i, QStringLiteral("measured_peak_bytes")),
                           QStringLiteral("must be at most the memory of one %1, %2 bytes (got %3)")
                               .arg(r->gpu.name)
                               .arg(r->gpu.memoryBytes, 0, 'g', 4)
                               .arg(*run.peakBytes, 0, 'g', 4)};
        before << Plain{r->step.stepSeconds, r->step.matmulEfficiency, r->step.memoryEfficiency, r->gpu.name};
    }

    // Levenberg-Marquardt on r_i(x) = log(estimate_i(x) / measured_i), plus the ridge.
    const auto residuals = [&](const Factors &x, QList<double> *estimates) -> std::optional<QList<double>> {
        QList<double> out;
        for (const MeasuredRun &run : runs) {
            const auto r = computeReport(withFactors(run.scenario, x), catalog);
            if (!r.ok())
                return std::nullopt;
            if (estimates)
                estimates->append(r->step.stepSeconds);
            out << std::log(r->step.stepSeconds / run.stepSeconds);
        }
        return out;
    };
    const auto cost = [](const QList<double> &r, const Factors &x) {
        double c = 0;
        for (double v : r)
            c += v * v;
        for (double v : x)
            c += kRidge * v * v;
        return c;
    };
    // Each factor stays where every run's efficiency stays between 1% and 100% of its GPU's
    // peak (compute: matmul efficiency / factor; memory: memory efficiency / factor), within
    // the scenario file's range; communication only within that range.
    Factors lo{}, hi{};
    lo.fill(std::log(limits::minCalibrationFactor));
    hi.fill(std::log(limits::maxCalibrationFactor));
    for (const Plain &p : before) {
        lo[0] = std::max(lo[0], std::log(p.matmulEfficiency));
        hi[0] = std::min(hi[0], std::log(p.matmulEfficiency / limits::minImpliedEfficiency));
        lo[1] = std::max(lo[1], std::log(p.memoryEfficiency));
        hi[1] = std::min(hi[1], std::log(p.memoryEfficiency / limits::minImpliedEfficiency));
    }
    for (int j = 0; j < 2; ++j)
        if (lo[j] > hi[j])  // runs on GPUs too far apart for one factor to keep all in range
            return Refusal{QStringLiteral("measured"),
                           QStringLiteral("no one %1 factor keeps every run's efficiency between 1% and 100%: calibrate "
                                          "each GPU's runs apart")
                               .arg(j == 0 ? QStringLiteral("compute") : QStringLiteral("memory"))};
    Factors x{0, 0, 0};
    for (int j = 0; j < 3; ++j)
        x[j] = std::clamp(0.0, lo[j], hi[j]);
    auto r = residuals(x, nullptr);
    if (!r)
        return Refusal{QStringLiteral("measured_step_seconds"), QStringLiteral("the estimate failed during the fit")};
    double damping = 1e-3;
    for (int iteration = 0; iteration < 60; ++iteration) {
        // The Jacobian by forward differences: the estimate is a sum of max()es, smooth almost everywhere.
        constexpr double h = 1e-5;
        std::array<QList<double>, 3> columns;
        for (int j = 0; j < 3; ++j) {
            Factors xh = x;
            xh[j] += h;
            const auto rh = residuals(xh, nullptr);
            if (!rh)
                return Refusal{QStringLiteral("measured_step_seconds"), QStringLiteral("the estimate failed during the fit")};
            for (qsizetype i = 0; i < r->size(); ++i)
                columns[j] << ((*rh)[i] - (*r)[i]) / h;
        }
        std::array<Factors, 3> a{};
        Factors g{};
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 3; ++k)
                for (qsizetype i = 0; i < r->size(); ++i)
                    a[j][k] += columns[j][i] * columns[k][i];
            for (qsizetype i = 0; i < r->size(); ++i)
                g[j] += columns[j][i] * (*r)[i];
            g[j] += kRidge * x[j];
            a[j][j] += kRidge;
        }
        bool improved = false;
        for (int attempt = 0; attempt < 20 && !improved; ++attempt) {
            std::array<Factors, 3> damped = a;
            for (int j = 0; j < 3; ++j)
                damped[j][j] += damping * (1 + a[j][j]);
            const Factors step = solve(damped, {-g[0], -g[1], -g[2]});
            Factors next = x;
            for (int j = 0; j < 3; ++j)
                next[j] = std::clamp(x[j] + step[j], lo[j], hi[j]);
            const auto rn = residuals(next, nullptr);
            if (rn && cost(*rn, next) < cost(*r, x)) {
                const double gain = cost(*r, x) - cost(*rn, next);
                x = next;
                r = rn;
                damping = std::max(damping / 10, 1e-9);
                improved = true;
                if (gain < 1e-14)
                    iteration = 60;  // converged
            } else {
                damping *= 10;
            }
        }
        if (!improved)
            break;
    }

    Calibration c;
    c.compute = std::exp(x[0]);
    c.memory = std::exp(x[1]);
    c.comm = std::exp(x[2]);
    c.date = date;
    QList<double> after;
    residuals(x, &after);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        // The factors stand for efficiencies, none past a GPU's peak or below 1% of it: the fit
        // stops there, and a run still unexplained at that edge needs an efficiency beyond it.
        const double matmul = before[i].matmulEfficiency / c.compute;
        const double memory = before[i].memoryEfficiency / c.memory;
        const bool unexplained = std::abs(std::log(after[i] / runs[i].stepSeconds)) > kExplained;
        for (const auto &[name, value] : {std::pair{QStringLiteral("matmul"), matmul}, std::pair{QStringLiteral("memory"), memory}}) {
            const bool atTop = value >= 1 - 1e-9;
            const bool atBottom = value <= limits::minImpliedEfficiency * (1 + 1e-9);
            if (unexplained && (atTop || atBottom))
                return Refusal{runField(i, QStringLiteral("measured_step_seconds")),
                               QStringLiteral("implies a %1 efficiency %2 on %3, outside 1% to 100%: check the "
                                              "measured time, the layout and the GPU")
                                   .arg(name, atTop ? QStringLiteral("above 100%") : QStringLiteral("below 1%"),
                                        before[i].gpuName)};
        }
        CalibrationRun out;
        out.label = runs[i].label;
        out.measuredStepSeconds = runs[i].stepSeconds;
        out.measuredPeakBytes = runs[i].peakBytes;
        out.estimatedBeforeSeconds = before[i].stepSeconds;
        out.estimatedAfterSeconds = after[i];
        c.runs << out;
    }
    c.note = QStringLiteral("least squares on the log step time over %1 run%2").arg(runs.size()).arg(runs.size() == 1 ? QString() : QStringLiteral("s"));
    return c;
}

QString calibrationSummary(const Calibration &c)
{
    const qsizetype n = c.runs.size();
    return QStringLiteral("calibrated on %1 run%2%3: compute ×%4, memory ×%5, communication ×%6")
        .arg(n)
        .arg(n == 1 ? QString() : QStringLiteral("s"))
        .arg(c.date.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(c.date))
        .arg(c.compute, 0, 'f', 2)
        .arg(c.memory, 0, 'f', 2)
        .arg(c.comm, 0, 'f', 2);
}

} // namespace napkin
