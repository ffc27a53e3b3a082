#include "trainingtime.h"

namespace napkin {

TimeReport computeTime(const Scenario &s, const FlopsReport &flops, const Recipe &recipe,
                       const GpuSpec &gpu)
{
    TimeReport t;
    t.basis = s.flopsBasis;
    t.trainingFlops = s.flopsBasis == FlopsBasis::SixND ? flops.training6nd : flops.trainingChosenDetailed();
    // Under 6ND too the recomputed work is the detailed forward matmuls: 6ND has no per-op split.
    t.recomputeFlops = flops.recompute;
    t.hardwareFlops = t.trainingFlops + t.recomputeFlops;
    t.peakFlopsPerS = gpu.peakFor(recipe.computeDtype, &t.peakDtype);
    t.utilizationBasis = s.utilizationBasis;
    t.utilizationFraction = s.mfuFraction;
    t.gpus = s.gpus;
    const double gpus = static_cast<double>(s.gpus);
    const bool hfu = s.utilizationBasis == UtilizationBasis::Hfu;
    t.seconds = (hfu ? t.hardwareFlops : t.trainingFlops) / (gpus * t.peakFlopsPerS * s.mfuFraction);
    // Chowdhery et al. 2022, App. B: each utilisation is its FLOPs per second over the peak.
    t.mfuFraction = hfu ? s.mfuFraction * t.trainingFlops / t.hardwareFlops : s.mfuFraction;
    t.hfuFraction = hfu ? s.mfuFraction : s.mfuFraction * t.hardwareFlops / t.trainingFlops;
    t.gpuHours = gpus * t.seconds / 3600;
    t.gpuYears = t.gpuHours / (365 * 24);
    t.costUsd = t.gpuHours * s.pricePerGpuHourUsd;
    t.energyKwh = gpus * gpu.tdpWatts * t.seconds / 3.6e6;
    return t;
}

} // namespace napkin
