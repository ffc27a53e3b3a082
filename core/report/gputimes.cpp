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

QList<GpuServing> servingOnEveryGpu(const Report &report, const Catalog &catalog)
{
    QList<GpuServing> out;
    if (!report.inference)
        return out;
    out.reserve(catalog.gpus.size());
    const Scenario &s = report.scenario;
    for (const GpuSpec &gpu : catalog.gpus) {
        GpuServing g;
        g.gpuId = gpu.id;
        g.shortName = gpu.shortName;
        g.memoryBytes = gpu.memoryBytes;
        const bool chosen = gpu.id == report.gpu.id;
        const auto take = [&g](const InferenceReport &r) {
            g.served = true;
            g.maxConcurrency = r.maxConcurrency;
            g.outputTokensPerS = r.outputTokensPerS;
            g.tpotSeconds = r.tpotSeconds;
            g.costPerMillionOutputTokensUsd = r.costPerMillionOutputTokensUsd;
        };
        if (chosen) {
            g.price = report.time.price;
            take(*report.inference);
            out.append(g);
            continue;
        }
        g.price = catalogPrice(gpu);
        // Serving runs bf16 activations whatever the weights (inference.cpp): no such peak, no time.
        if (!gpu.peakFor(QStringLiteral("bf16"))) {
            g.hasPeak = false;
            g.reason = QStringLiteral("the catalog lists no bf16 or fp16 peak for it");
            out.append(g);
            continue;
        }
        // The other GPU on its own links unless the scenario names the network, as computeReport() does.
        const Interconnect *up = catalog.findInterconnect(gpu.scaleUpId);
        const Interconnect *net = catalog.findInterconnect(s.interconnectId.isEmpty() ? gpu.scaleOutId : s.interconnectId);
        if (!up || !net) {
            g.reason = QStringLiteral("the catalog names no links for it");
        } else if (s.gpusPerNode && *s.gpusPerNode > up->domainGpus) {
            g.reason = QStringLiteral("gpus_per_node: must be at most %1, the GPUs its %2 connects")
                           .arg(up->domainGpus).arg(up->name);
        } else {
            Scenario other = s;
            other.gpuId = gpu.id;
            other.pricePerGpuHourUsd.reset();  // its catalog price, as the training chart does
            const auto served = computeInference(other, gpu, *up, *net, ServingDetail::Figures);
            if (served.ok())
                take(*served);
            else
                g.reason = served.refusal().message();
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
