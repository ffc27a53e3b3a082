#pragma once

#include "core/model/layout.h"
#include "core/report/planner.h"

#include <QString>

#include <cstdint>

namespace napkin {

/// How a run is split across its GPUs, in the one spelling every text uses (the report, the
/// step's explanation, the planner): "tp 8 · pp 16 (vpp 2) · cp 2 · dp 64", then " · ep 8"
/// when the experts are split and " · SP" with sequence parallelism.
QString splitText(std::int64_t tp, std::int64_t pp, std::int64_t vpp, std::int64_t cp, std::int64_t dp,
                  std::int64_t ep, bool sp);
QString splitText(const Layout &l);

/// A planner row: the split, then the ZeRO stage, micro-batch and recompute,
/// "tp 8 · pp 16 · cp 1 · dp 128 · SP · ZeRO 1 · b 1 · selective".
QString plannedLayoutText(const PlannedLayout &p);

} // namespace napkin
