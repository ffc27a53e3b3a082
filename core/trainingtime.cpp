#include "trainingtime.h"

namespace napkin {

TimeReport computeTime(const Scenario &s, const FlopsReport &flops, const Recipe &recipe,
                       const GpuSpec &gpu)
{
    TimeReport t;
    t.basis = s.flopsBasis;
    t.trainingFlops = s.flopsBasis == FlopsBasis::SixND ? flops.training6nd : flops.trainingChosenDetailed();
    t.peakFlopsPerS = gpu.peakFor(recipe.computeDtype, &t.peakDtype);
    t.mfuFraction = s.mfuFraction;
    t.gpus = s.gpus;
    const double gpus = static_cast<double>(s.gpus);
    t.seconds = t.trainingFlops / (gpus * t.peakFlopsPerS * s.mfuFraction);
    t.gpuHours = gpus * t.seconds / 3600;
    t.gpuYears = t.gpuHours / (365 * 24);
    t.costUsd = t.gpuHours * s.pricePerGpuHourUsd;
    t.energyKwh = gpus * gpu.tdpWatts * t.seconds / 3.6e6;
    return t;
}

} // namespace napkin
