#pragma once

#include "core/model/layout.h"
#include "core/report/planner.h"
#include "core/report/suggestion.h"
#include "core/text/units.h"

#include <QString>

#include <cstdint>

namespace napkin {

/// How a run is split across its GPUs, in the one spelling every text uses (the report, the
/// step's explanation, the planner): "tp 8 · pp 16 (vpp 2) · cp 2 · dp 64", then " · ep 8"
/// when the experts are split and " · SP" with sequence parallelism; "pp 16 (DualPipe)" under
/// that schedule.
QString splitText(std::int64_t tp, std::int64_t pp, std::int64_t vpp, std::int64_t cp, std::int64_t dp,
                  std::int64_t ep, bool sp, bool dualPipe = false);
QString splitText(const Layout &l);

/// The GPU of pipeline rank `rank`: "stage 3", or under DualPipe, whose ranks hold two stages,
/// "rank 0 (stages 0 and 7)".
QString pipelineRankText(const Layout &l, std::int64_t rank);

/// A planned layout's split: "tp 2 · pp 4 (vpp 5) · cp 2 · dp 4 · SP", with " · etp 1" where the
/// experts fold EP over TP.
QString plannedSplitText(const PlannedLayout &p);
/// A planner row: the split, then the ZeRO stage, micro-batch and recompute,
/// "tp 8 · pp 16 · cp 1 · dp 128 · SP · ZeRO 1 · b 1 · selective".
QString plannedLayoutText(const PlannedLayout &p);

/// A planned layout in words, for sentences (the planner's table keeps plannedLayoutText's
/// codes): "tp 2 · pp 4 (vpp 5) · cp 2 · dp 4 · SP · ZeRO 2 · micro-batch 1 · no recompute".
QString plannedLayoutWords(const PlannedLayout &p);

/// What a planned layout changes of a scenario's own, in words: the split dimensions that
/// differ (dp follows from them), then the ZeRO stage, micro-batch and recompute, as "ZeRO 2 ·
/// micro-batch 4" or "tp 2 · pp 4 (vpp 7) · SP · micro-batch 1 · full recompute". The whole
/// layout (plannedLayoutText) where nothing differs. `most` > 0 keeps the first `most` parts and
/// ends with " · …" where there are more (a banner too narrow for them all).
QString plannedChangeText(const PlannedLayout &p, const Scenario &s, int most = 0);

/// What makes the run of `from` fit, for the report's "Fits with:" line and the window's
/// tooltips: what the planner's layout changes, then that layout whole, "ZeRO 2 · micro-batch 4
/// (tp 1 · pp 1 · cp 1 · dp 8 · ZeRO 2 · micro-batch 4 · no recompute: 60.5 GB on the worst
/// stage, step 669 ms); or only ZeRO 3 (76.8 GB, step 669 ms)". "no layout of these GPUs and
/// this global batch fits, and no single change does" when there is neither.
QString fitSuggestionText(const FitSuggestion &f, const Scenario &from, ByteUnit unit);

} // namespace napkin
