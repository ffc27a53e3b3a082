#pragma once

#include "catalog.h"
#include "flops.h"
#include "recipe.h"
#include "scenario.h"

namespace napkin {

/// Wall-clock, GPU time, cost and energy of the whole run.
struct TimeReport {
    FlopsBasis basis = FlopsBasis::Detailed;
    double trainingFlops = 0;       ///< the basis figure
    double peakFlopsPerS = 0;       ///< one GPU, recipe's compute dtype (dense)
    QString peakDtype;              ///< the dtype whose peak was used
    double mfuFraction = 0;
    std::int64_t gpus = 1;
    double seconds = 0;             ///< FLOPs / (GPUs x peak x MFU)
    double gpuHours = 0;
    double gpuYears = 0;            ///< 365-day years
    double costUsd = 0;             ///< GPU-hours x price
    double energyKwh = 0;           ///< GPUs x TDP x seconds; board power only, no cooling/PUE
};

/// Narayanan et al. 2021 eq. 4 in its general form: time = training FLOPs / (n x X), with the
/// achieved per-GPU throughput X = peak x MFU.
TimeReport computeTime(const Scenario &s, const FlopsReport &flops, const Recipe &recipe,
                       const GpuSpec &gpu);

} // namespace napkin
