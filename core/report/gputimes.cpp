#include "core/report/gputimes.h"

#include "core/report/report.h"
#include "core/run/trainingtime.h"

namespace napkin {

QList<GpuTime> timeOnEveryGpu(const Report &report, const Catalog &catalog)
{
    QList<GpuTime> out;
    out.reserve(catalog.gpus.size());
    const double needed = report.memory.perGpu.total();
    for (const GpuSpec &gpu : catalog.gpus) {
        GpuTime g;
        g.gpuId = gpu.id;
        g.shortName = gpu.shortName;
        g.memoryBytes = gpu.memoryBytes;
        g.neededBytes = needed;
        g.fits = needed <= gpu.memoryBytes;  // memory.cpp: fits = perGpu.total() <= capacity
        const Recipe &recipe = report.memory.recipe;
        // Both of the recipe's peaks, or no time (under FP8 without an fp8 peak the GEMMs' rate is
        // unknown); the GEMMs' is the one utilisation is quoted against (TimeReport::peakFlopsPerS).
        auto peak = gpu.peakFor(recipe.matmulDtype(), &g.peakDtype);
        if (!gpu.peakFor(recipe.computeDtype)) {
            peak.reset();
            g.missingDtype = recipe.computeDtype;
        } else if (!peak) {
            g.missingDtype = recipe.matmulDtype();
        }
        if (peak) {
            // FLOPs do not depend on the GPU, so only the time step is repeated.
            // Another GPU runs on its own default links unless the scenario names the network.
            const Interconnect *up = catalog.findInterconnect(gpu.scaleUpId);
            const Interconnect *net = gpu.id == report.gpu.id ? &report.scaleOut : catalog.findInterconnect(gpu.scaleOutId);
            const StepTimeReport step = gpu.id == report.gpu.id || !up || !net
                                            ? report.step
                                            : estimateStepTimeOn(report.scenario, report.memory.recipe, gpu, *up, *net,
                                                                 report.flops, stageParams(report.memory),
                                                                 stageExpertParams(report.memory));
            const TimeReport t = computeTime(report.scenario, report.flops, report.memory.recipe, gpu, step);
            g.hasPeak = true;
            g.peakFlopsPerS = *peak;
            g.seconds = t.seconds;
            g.price = gpu.id == report.gpu.id ? report.time.price : catalogPrice(gpu);
            if (g.price.usdPerGpuHour)
                g.costUsd = t.gpuHours * *g.price.usdPerGpuHour;
        }
        out.append(g);
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
