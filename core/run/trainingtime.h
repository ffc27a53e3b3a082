#pragma once

#include "core/model/catalog.h"
#include "core/workload/flops.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"
#include "core/run/steptime.h"

namespace napkin {

/// Where the price of a GPU-hour came from.
enum class PriceOrigin { Scenario, Catalog, None };

/// The price a run is costed at: the scenario's when set, else the GPU's catalog price.
struct PriceChoice {
    std::optional<double> usdPerGpuHour;  ///< nullopt: neither the scenario nor the catalog has one
    PriceOrigin origin = PriceOrigin::None;
    QString source;  ///< the catalog's provider and URL (catalog prices only)
    QString date;    ///< the day the catalog price was read (catalog prices only)
};

PriceChoice choosePrice(const Scenario &s, const GpuSpec &gpu);
/// The GPU's catalog price, or PriceOrigin::None.
PriceChoice catalogPrice(const GpuSpec &gpu);
/// "Lambda on-demand, https://..., seen 2026-09-20", "set by the user" or "no price".
QString priceOriginText(const PriceChoice &price);

/// Wall-clock, GPU time, cost and energy of the whole run.
struct TimeReport {
    FlopsBasis basis = FlopsBasis::Detailed;
    double trainingFlops = 0;       ///< model FLOPs: the basis figure
    double recomputeFlops = 0;      ///< forward matmuls recomputation runs again (FlopsReport::recompute)
    double hardwareFlops = 0;       ///< trainingFlops + recomputeFlops
    double peakFlopsPerS = 0;       ///< one GPU, the recipe's GEMM dtype (dense): fp8 under FP8
    QString peakDtype;              ///< the dtype whose peak was used
    UtilizationBasis utilizationBasis = UtilizationBasis::Hfu;  ///< which one the user set
    double utilizationFraction = 0; ///< as set: HFU or MFU, per utilizationBasis
    double mfuFraction = 0;         ///< implied: trainingFlops / (seconds x GPUs x peak)
    double hfuFraction = 0;         ///< implied: hardwareFlops / (seconds x GPUs x peak)
    std::int64_t gpus = 1;
    /// Which step time the run's time uses: the set utilisation, or the bottom-up estimate.
    TimeBasis timeBasis = TimeBasis::Utilization;
    double steps = 0;               ///< optimizer steps: tokens / (global batch x seq_len)
    /// Under the utilisation basis: FLOPs of the set basis / (GPUs x peak x utilisation).
    /// Under the estimated basis: steps x the estimated step time.
    double seconds = 0;
    double secondsUtilization = 0;  ///< the run's time on each basis
    double secondsEstimated = 0;
    double gpuHours = 0;
    double gpuYears = 0;            ///< 365-day years
    PriceChoice price;              ///< the price per GPU-hour used, and where it came from
    std::optional<double> costUsd;  ///< GPU-hours x price; nullopt when there is no price
    double energyKwh = 0;           ///< GPUs x TDP x seconds; board power only, no cooling/PUE
};

/// Narayanan et al. 2021 eq. 4 in its general form: time = training FLOPs / (n x X), with the
/// achieved per-GPU throughput X = peak x utilisation. Under HFU the FLOPs are the hardware
/// FLOPs (recomputation included, as eq. 4's 8TP counts it); under MFU the model FLOPs.
/// The GPU must have a peak for the recipe's dtype (GpuSpec::peakFor; computeReport refuses
/// a scenario whose GPU has none).
TimeReport computeTime(const Scenario &s, const FlopsReport &flops, const Recipe &recipe,
                       const GpuSpec &gpu, const StepTimeReport &estimate);

} // namespace napkin
