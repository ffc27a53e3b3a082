#pragma once

#include "core/report/planner.h"
#include "core/report/report.h"
#include "core/report/suggestion.h"

#include <QJsonObject>

namespace napkin {

/// `napkin report --json`: every figure in base units (bytes, FLOPs, FLOP/s, seconds).
/// With `suggestion` (suggestFit()), memory.suggestion: the planner's best fitting layout,
/// {tp, pp, vpp, cp, ep, dp, zero_stage, micro_batch, recompute, flash, fits,
/// worst_stage_bytes, step_seconds}, and single_change {change, worst_stage_bytes,
/// step_seconds}; null when the run fits or no suggestion was asked for.
QJsonObject reportToJson(const Report &r, const std::optional<FitSuggestion> &suggestion = std::nullopt);

/// A planned layout's split, ZeRO stage, micro-batch, recompute, worst stage and step, as
/// memory.suggestion and the budget's run.layout write it: {tp, pp, vpp, cp, ep, dp,
/// zero_stage, micro_batch, recompute, worst_stage_bytes, step_seconds}.
QJsonObject plannedLayoutJson(const PlannedLayout &p);

/// `napkin plan --json`: {"layouts": [...]} best first, each with the layout keys of the
/// report's "layout" plus zero, batch, recompute, fits, worst_stage_bytes,
/// step_seconds, estimated_mfu and reason; and the scenario's own layout as "current".
QJsonObject planToJson(const PlanReport &plan);

} // namespace napkin
