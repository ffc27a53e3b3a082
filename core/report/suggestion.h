#pragma once

#include "core/report/planner.h"
#include "core/report/report.h"

#include <QString>

#include <optional>

namespace napkin {

/// One field changed and nothing else: FlashAttention on, a higher ZeRO stage or more recompute.
struct SingleChange {
    QString what;          ///< "FlashAttention on", "ZeRO 3", "recompute full"
    Scenario scenario;     ///< the run with that change
    double worstStageBytes = 0;
    double stepSeconds = 0;  ///< the bottom-up step (StepTimeReport::stepSeconds)
};

/// What makes a run that does not fit fit, on the same GPUs and global batch.
struct FitSuggestion {
    /// The planner's best fitting layout (nullopt: none of its layouts fits).
    std::optional<PlannedLayout> layout;
    /// The run with that layout: what Apply sets, as one undo step.
    Scenario layoutScenario;
    /// Of the single changes that fit, the one whose step is fastest (nullopt: none fits alone).
    std::optional<SingleChange> lightest;
};

/// nullopt when the report's run fits; else the planner's best layout and the lightest single
/// change, each with its worst stage's memory and its step. The scenario must be the one the
/// report was computed from (validated, links resolved).
std::optional<FitSuggestion> suggestFit(const Report &r);

} // namespace napkin
