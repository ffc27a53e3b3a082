#pragma once

#include "core/model/catalog.h"
#include "core/run/conventions.h"
#include "core/workload/flops.h"
#include "core/run/inference.h"
#include "core/run/memory.h"
#include "core/model/modelshape.h"
#include "core/model/recipe.h"
#include "core/run/roofline.h"
#include "core/model/scenario.h"
#include "core/run/steptime.h"
#include "core/run/trainingtime.h"
#include "core/model/validation.h"

#include <memory>
#include <optional>

namespace napkin {

/// Everything Napkin shows, computed from one Scenario.
struct Report {
    Scenario scenario;
    GpuSpec gpu;
    ParamBreakdown params;
    FlopsReport flops;
    MemoryReport memory;
    Layout layout;
    Interconnect scaleUp;   ///< the links the step-time estimate used
    Interconnect scaleOut;
    StepTimeReport step;    ///< the bottom-up step time
    TimeReport time;
    /// Training: the step's ops. Inference: one request's prefill and one decode step's ops.
    RooflineReport roofline;
    ConventionsReport conventions;
    /// Serving the model (mode inference); absent in training mode.
    std::optional<InferenceReport> inference;
    /// The source document's illustrative intensity: training FLOPs (6ND) / the
    /// unsharded memory total (its `arithmetic_intensity(flops, mem["total"])`).
    double illustrativeIntensity = 0;
    /// The pinned scenario's report (scenario.baseline), for ghosts and differences.
    std::shared_ptr<const Report> baseline;
};

/// Computes the report for a scenario already checked by validateScenario(), with the links
/// resolved against the catalog.
Report computeReport(const Scenario &s, const GpuSpec &gpu, const Recipe &recipe, const Interconnect &scaleUp,
                     const Interconnect &scaleOut);

/// The parameters each GPU of every stage updates: its stage's, / DP x CP under ZeRO >= 1
/// (the routed experts', `stageExpertParams` of them, / DP x CP / EP).
QList<double> optimizerParams(const Scenario &s, const Layout &layout, const QList<double> &stageParams,
                              const QList<double> &stageExpertParams);

/// The bottom-up step time of the scenario on `gpu` with these links; `stageParams` as the
/// memory report counted them (stageParams(const MemoryReport &), stageExpertParams(const
/// MemoryReport &); they do not depend on the GPU).
StepTimeReport estimateStepTimeOn(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu,
                                  const Interconnect &scaleUp, const Interconnect &scaleOut, const FlopsReport &flops,
                                  const QList<double> &stageParams, const QList<double> &stageExpertParams);

/// Validates the scenario and resolves its GPU and recipe ids against the catalog first.
Result<Report> computeReport(const Scenario &s, const Catalog &catalog);

/// Whether `gpu` lists a peak for each of the recipe's dtypes (its compute dtype and, under FP8,
/// its GEMMs'), by GpuSpec::peakFor()'s rule: what a time on that GPU needs.
bool hasRecipePeaks(const GpuSpec &gpu, const Recipe &recipe);

} // namespace napkin
