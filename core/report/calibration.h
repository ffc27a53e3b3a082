#pragma once

#include "core/model/catalog.h"
#include "core/model/refusal.h"
#include "core/model/scenario.h"

#include <QList>
#include <QString>

#include <optional>

namespace napkin {

/// One run the user measured: the scenario it ran, its step time and, if known, its peak memory
/// (torch.cuda.max_memory_allocated or nvidia-smi).
struct MeasuredRun {
    QString label;
    Scenario scenario;
    double stepSeconds = 0;
    std::optional<double> peakBytes;
};

/// Fits the calibration's three factors (compute, memory traffic, communication: Scenario's
/// Calibration) to measured step times: least squares on the log of estimated over measured
/// step, with a small ridge on the log factors so that a direction the runs cannot tell apart
/// stays at 1 (one run gives the smallest change of factors that explains it). Each run's
/// `stepSeconds` is the bottom-up estimate's (StepTimeReport::stepSeconds) counterpart.
/// Refuses, naming the field, a run that does not compute, a measured time <= 0, or a fit that
/// implies a matmul or memory efficiency above 1 or below 1%.
Result<Calibration> calibrate(const QList<MeasuredRun> &runs, const Catalog &catalog, const QString &date);

/// "calibrated on 1 run (2026-12-03): compute ×1.12, memory ×1.00, communication ×1.31".
QString calibrationSummary(const Calibration &c);

} // namespace napkin
