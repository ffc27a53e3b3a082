#pragma once

#include "catalog.h"
#include "report.h"

#include <QList>
#include <QString>

namespace napkin {

/// Wall-clock time of a report's run on one catalog GPU: same count, MFU and FLOPs.
struct GpuTime {
    QString gpuId;
    QString shortName;  ///< the catalog's label for charts ("H100 SXM")
    double seconds = 0;
};

/// The run's time on every GPU in the catalog, in catalog order: training FLOPs over
/// (GPUs x that GPU's peak for the recipe's dtype x MFU), as computeTime() does for the chosen one.
QList<GpuTime> timeOnEveryGpu(const Report &report, const Catalog &catalog);

/// The catalog name without the vendor prefix: "H100 SXM5 80GB" for "NVIDIA H100 SXM5 80GB".
QString nameWithoutVendor(const GpuSpec &gpu);

} // namespace napkin
