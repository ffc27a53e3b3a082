#pragma once

#include "core/report/report.h"

#include <QString>

#include <optional>

namespace napkin {

/// `s` with itself (without any older baseline) pinned as its baseline.
Scenario withBaselinePinned(const Scenario &s);
/// `s` with no baseline.
Scenario withoutBaseline(const Scenario &s);

/// How the current run differs from the pinned one, as fractions of the pinned figures
/// (+0.37 is 37% more). Memory is the chosen stage's bytes per GPU; time is wall clock.
struct BaselineChange {
    double memory = 0;
    double time = 0;
    std::optional<double> cost;  ///< absent when either run has no price
};

/// Absent when the report has no pinned baseline.
std::optional<BaselineChange> baselineChange(const Report &report);

/// "+37%", "−12%" (a real minus sign), "±0%" below half a per cent.
QString signedPercent(double fraction);

/// "+37% memory, −12% time, +5% cost" (without the cost when it is unknown) (a real minus sign; "±0%" below half a per cent).
QString baselineChangeText(const BaselineChange &change);

} // namespace napkin
