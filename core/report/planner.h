#pragma once

#include "core/model/catalog.h"
#include "core/model/refusal.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace napkin {

struct PlanOptions {
    int top = 10;                ///< layouts to keep
    bool tpBeyondNode = false;   ///< let TP groups span nodes (slow links; off by default)
};

/// One candidate layout and how it fares.
struct PlannedLayout {
    std::int64_t tp = 1, pp = 1, vpp = 1, cp = 1, dp = 1, ep = 1;
    std::int64_t etp = 1;  ///< expert TP (Layout::etp): tp unless the layout folds EP over TP
    bool sp = false;
    int zeroStage = 0;
    std::int64_t microBatch = 1;
    std::int64_t globalBatch = 0;  ///< sequences per step it was planned at (PlanReport::globalBatch)
    Recompute recompute = Recompute::None;
    bool fits = false;
    double worstStageBytes = 0;
    double stepSeconds = 0;
    double estimatedMfu = 0;
    // The step's parts, for the reason a layout wins.
    double bubbleSeconds = 0;
    double commExposedSeconds = 0;
    double recomputeSeconds = 0;
    QString reason;
};

struct PlanReport {
    QList<PlannedLayout> layouts;   ///< best first: fitting layouts by step time, then the smallest misfits
    std::int64_t evaluated = 0;     ///< candidates whose memory was computed
    std::int64_t fitting = 0;
    std::int64_t globalBatch = 0;   ///< sequences per step every candidate keeps
    /// The scenario's own layout: its rank among the fitting ones (1 = best), or nullopt
    /// when it does not fit.
    std::optional<std::int64_t> currentRank;
    PlannedLayout current;
    /// Why the scenario's own layout is not a layout at all (validateLayout's refusal), or
    /// empty; `current` then holds its fields and does not fit.
    std::optional<Refusal> currentProblem;
};

/// Enumerates layouts for the scenario's model, GPU count and global batch: tp (dividing
/// heads and kv_heads, within the node unless `tpBeyondNode`), pp (any count up to the
/// layers that divides the GPUs left, uneven stages allowed as stageLayers() states), vpp
/// (up to 8, where the layers split evenly), cp (powers of two, 2 x cp dividing the
/// sequence), the DP that remains, ZeRO 0-3, micro-batch (1, 2, 4, 8, 16 and the scenario's,
/// dividing the batch per replica) and recompute; SP is on whenever tp > 1 (same traffic,
/// less memory). Keeps those that fit and ranks them by the estimated step time; equal steps
/// go to the simpler layout (fewer split dimensions, then lower CP, then lower PP), then to the
/// one with more memory to spare.
/// The scenario must pass validation with withSimplestLayout(): its own layout may be invalid
/// (PlanReport::currentProblem says why) or not fit. Its global batch is kept (absent: the
/// current layout's batch x dp, or batch x GPUs when that layout is not one).
PlanReport planLayouts(const Scenario &s, const GpuSpec &gpu, const Recipe &recipe, const Interconnect &scaleUp,
                       const Interconnect &scaleOut, const PlanOptions &options);

/// The scenario with a planned layout's fields applied (what choosing a planner row does).
Scenario withPlannedLayout(Scenario s, const PlannedLayout &p);


} // namespace napkin
