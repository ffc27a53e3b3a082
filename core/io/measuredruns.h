#pragma once

#include "core/model/refusal.h"
#include "core/report/calibration.h"

#include <QList>
#include <QString>

namespace napkin {

/// Reads the measured runs `napkin calibrate --measured FILE` fits to: a JSON array, or an
/// object whose "runs" is one, of {"label", "scenario": {...scenario file keys...},
/// "step_seconds", "peak_bytes" (optional)}. Each scenario is read over `base` (the command
/// line's scenario), so that what the runs share is said once. Refusals name the run and key
/// ("runs[2].step_seconds").
Result<QList<MeasuredRun>> readMeasuredRuns(const QString &path, const Scenario &base);

} // namespace napkin
