#include "core/run/trainingtime.h"

namespace napkin {

PriceChoice choosePrice(const Scenario &s, const GpuSpec &gpu)
{
    if (s.pricePerGpuHourUsd)
        return {s.pricePerGpuHourUsd, PriceOrigin::Scenario, {}, {}};
    return catalogPrice(gpu);
}

PriceChoice catalogPrice(const GpuSpec &gpu)
{
    if (gpu.pricePerGpuHourUsd)
        return {gpu.pricePerGpuHourUsd, PriceOrigin::Catalog, gpu.priceSource, gpu.priceDate};
    return {};
}

QString priceOriginText(const PriceChoice &price)
{
    switch (price.origin) {
    case PriceOrigin::Scenario: return QStringLiteral("set by the user");
    case PriceOrigin::Catalog: return QStringLiteral("%1, seen %2").arg(price.source, price.date);
    case PriceOrigin::None: break;
    }
    return QStringLiteral("no price");
}

TimeReport computeTime(const Scenario &s, const FlopsReport &flops, const Recipe &recipe,
                       const GpuSpec &gpu, const StepTimeReport &estimate)
{
    TimeReport t;
    t.basis = s.flopsBasis;
    t.trainingFlops = s.flopsBasis == FlopsBasis::SixND ? flops.training6nd : flops.trainingChosenDetailed();
    // Under 6ND too the recomputed work is the detailed forward matmuls: 6ND has no per-op split.
    t.recomputeFlops = flops.recompute;
    t.hardwareFlops = t.trainingFlops + t.recomputeFlops;
    // The GEMMs' peak: the recipe's compute dtype, or fp8 under FP8 (StepMachine::gemmPeak()).
    t.peakFlopsPerS = gpu.peakFor(recipe.matmulDtype(), &t.peakDtype).value_or(0);
    t.utilizationBasis = s.utilizationBasis;
    t.utilizationFraction = s.utilizationFraction;
    t.gpus = s.gpus;
    const double gpus = static_cast<double>(s.gpus);
    const bool hfu = s.utilizationBasis == UtilizationBasis::Hfu;
    t.secondsUtilization = (hfu ? t.hardwareFlops : t.trainingFlops) / (gpus * t.peakFlopsPerS * s.utilizationFraction);
    t.steps = s.tokens / flops.tokensPerStep;
    t.secondsEstimated = t.steps * estimate.stepSeconds;
    t.timeBasis = s.timeBasis;
    t.seconds = s.timeBasis == TimeBasis::Estimated ? t.secondsEstimated : t.secondsUtilization;
    // Chowdhery et al. 2022, App. B: each utilisation is its FLOPs per second over the peak.
    t.mfuFraction = t.trainingFlops / (t.seconds * gpus * t.peakFlopsPerS);
    t.hfuFraction = t.hardwareFlops / (t.seconds * gpus * t.peakFlopsPerS);
    if (s.timeBasis == TimeBasis::Utilization) {
        // Exactly as set, not through a division and back.
        (hfu ? t.hfuFraction : t.mfuFraction) = s.utilizationFraction;
    }
    t.gpuHours = gpus * t.seconds / 3600;
    t.gpuYears = t.gpuHours / (365 * 24);
    t.price = choosePrice(s, gpu);
    if (t.price.usdPerGpuHour)
        t.costUsd = t.gpuHours * *t.price.usdPerGpuHour;
    t.energyKwh = gpus * gpu.tdpWatts * t.seconds / 3.6e6;
    return t;
}

} // namespace napkin
