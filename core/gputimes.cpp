#include "gputimes.h"

#include "trainingtime.h"

namespace napkin {

QList<GpuTime> timeOnEveryGpu(const Report &report, const Catalog &catalog)
{
    QList<GpuTime> out;
    out.reserve(catalog.gpus.size());
    for (const GpuSpec &gpu : catalog.gpus) {
        // FLOPs do not depend on the GPU, so only the time step is repeated.
        const TimeReport t = computeTime(report.scenario, report.flops, report.memory.recipe, gpu);
        out.append({gpu.id, gpu.shortName, t.seconds});
    }
    return out;
}

QString nameWithoutVendor(const GpuSpec &gpu)
{
    QString name = gpu.name;
    if (!gpu.vendor.isEmpty() && name.startsWith(gpu.vendor + QLatin1Char(' ')))
        name = name.mid(gpu.vendor.size() + 1);
    return name;
}

} // namespace napkin
