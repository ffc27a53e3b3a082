#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QList>
#include <QString>

#include <optional>

namespace napkin {

/// The report's run on one catalog GPU: same count, utilisation, FLOPs and per-GPU memory.
struct GpuTime {
    QString gpuId;
    QString shortName;  ///< the catalog's label for charts ("H100 SXM")
    /// False when the GPU lists no peak for the recipe's dtype under GpuSpec::peakFor()'s rule:
    /// no time, no cost (never a time from another dtype's peak).
    bool hasPeak = false;
    QString missingDtype;      ///< without a peak: the recipe's dtype the GPU lists none for ("fp8")
    QString peakDtype;         ///< the dtype whose peak was used ("fp16" for a bf16 recipe on a V100)
    double peakFlopsPerS = 0;  ///< that peak, one GPU, dense
    double seconds = 0;        ///< wall clock; 0 without a peak
    double memoryBytes = 0;    ///< the GPU's capacity (catalog)
    double neededBytes = 0;    ///< the run's per-GPU total at the chosen ZeRO stage
    bool fits = false;         ///< neededBytes <= memoryBytes, as MemoryReport::fits decides
    PriceChoice price;           ///< the report's price on its own GPU, the catalog's on the others
    std::optional<double> costUsd;  ///< GPU-hours x price; nullopt without a peak or a price
};

/// The run on every GPU in the catalog, in catalog order: training FLOPs over (GPUs x that
/// GPU's peak for the recipe's dtype x utilisation), as computeTime() does for the chosen one,
/// and whether the per-GPU memory total fits its capacity. Per-GPU memory does not depend on
/// the GPU model (computeMemory() reads only its capacity), so one total serves them all.
QList<GpuTime> timeOnEveryGpu(const Report &report, const Catalog &catalog);

/// Serving the report's scenario (mode inference) on one catalog GPU: same model, layout,
/// GPUs, tokens and concurrency; that GPU's links and catalog price (the report's own price on
/// its own GPU).
struct GpuServing {
    QString gpuId;
    QString shortName;
    bool served = false;           ///< false: refused; `reason` says why
    bool hasPeak = true;           ///< false: the catalog lists no bf16/fp16 peak for it
    QString reason;                ///< core's refusal on that GPU ("concurrency: must be at most 12 ...")
    double memoryBytes = 0;        ///< the GPU's capacity (catalog)
    std::int64_t maxConcurrency = 0;
    double outputTokensPerS = 0;   ///< every replica together
    double tpotSeconds = 0;
    PriceChoice price;
    std::optional<double> costPerMillionOutputTokensUsd;  ///< nullopt: refused or no price
};

/// The report's serving scenario on every GPU in the catalog, in catalog order (empty unless
/// the report is in inference mode). The report's GPU takes its figures from the report; each
/// other runs computeInference() once, so the list costs one serving estimate per GPU.
QList<GpuServing> servingOnEveryGpu(const Report &report, const Catalog &catalog);

/// The catalog name without the vendor prefix: "H100 SXM5 80GB" for "NVIDIA H100 SXM5 80GB".
QString nameWithoutVendor(const GpuSpec &gpu);

} // namespace napkin
