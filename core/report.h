#pragma once

#include "catalog.h"
#include "conventions.h"
#include "flops.h"
#include "memory.h"
#include "modelshape.h"
#include "recipe.h"
#include "roofline.h"
#include "scenario.h"
#include "trainingtime.h"
#include "validation.h"

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
    TimeReport time;
    RooflineReport roofline;
    ConventionsReport conventions;
    /// The source document's illustrative intensity: training FLOPs (6ND) / the
    /// unsharded memory total (its `arithmetic_intensity(flops, mem["total"])`).
    double illustrativeIntensity = 0;
    /// The pinned scenario's report (scenario.baseline), for ghosts and differences.
    std::shared_ptr<const Report> baseline;
};

/// Computes the report for a scenario already checked by validateScenario().
Report computeReport(const Scenario &s, const GpuSpec &gpu, const Recipe &recipe);

/// Validates the scenario and resolves its GPU and recipe ids against the catalog first.
std::optional<Report> computeReport(const Scenario &s, const Catalog &catalog, ValidationError *error);

} // namespace napkin
