#pragma once

#include "catalog.h"
#include "report.h"

#include <QList>
#include <QString>

namespace napkin::ui {

/// Wall-clock time of the report's run on one catalog GPU, same count, MFU and FLOPs.
struct GpuTime {
    QString gpuId;
    QString name;
    double seconds = 0;
};

/// The run's time on every GPU in the catalog, in catalog order.
QList<GpuTime> timeOnEveryGpu(const Report &report, const Catalog &catalog);

/// A short label for a chart axis: the catalog name without the vendor prefix.
QString shortGpuName(const GpuSpec &gpu);

} // namespace napkin::ui
