#pragma once

#include "core/report/planner.h"
#include "core/report/report.h"

#include <QJsonObject>

namespace napkin {

/// `napkin report --json`: every figure in base units (bytes, FLOPs, FLOP/s, seconds).
QJsonObject reportToJson(const Report &r);

/// `napkin plan --json`: {"layouts": [...]} best first, each with the layout keys of the
/// report's "layout" plus zero, batch, recompute, fits, worst_stage_bytes,
/// step_seconds, estimated_mfu and reason; and the scenario's own layout as "current".
QJsonObject planToJson(const PlanReport &plan);

} // namespace napkin
