// Benchmark: one full evaluation of the core (all four ZeRO stages, every roofline op) for a
// range of scenarios, as the window does on every slider tick. Prints p50/p99/mean.
#include "core/model/catalog.h"
#include "core/report/gputimes.h"
#include "core/report/planner.h"
#include "core/report/report.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace napkin;

int main()
{
    const auto catalog = loadBuiltinCatalog();
    if (!catalog.ok()) {
        std::fprintf(stderr, "catalog: %s\n", qPrintable(catalog.refusalMessage()));
        return 1;
    }
    constexpr int kRuns = 20000;
    std::vector<double> ns;
    ns.reserve(kRuns);
    double sink = 0;
    QElapsedTimer timer;
    for (int i = 0; i < kRuns; ++i) {
        const ModelPreset &p = catalog->presets[i % catalog->presets.size()];
        Scenario s;
        s.model = p.shape;
        s.seqLen = std::min<std::int64_t>(512 + (i % 7) * 256, p.shape.maxPositions);
        s.microBatch = 1 + i % 32;
        s.gpuId = catalog->gpus[i % catalog->gpus.size()].id;
        s.zeroStage = i % 4;
        s.flashAttention = i % 2;
        timer.start();
        const auto r = computeReport(s, *catalog);
        ns.push_back(static_cast<double>(timer.nsecsElapsed()));
        if (!r.ok()) {
            std::fprintf(stderr, "refused: %s\n", qPrintable(r.refusalMessage()));
            return 1;
        }
        sink += r->roofline.stepSeconds;
    }
    const auto summary = [](const char *what, std::vector<double> &v, double checksum) {
        std::sort(v.begin(), v.end());
        double total = 0;
        for (double x : v)
            total += x;
        const std::size_t n = v.size();
        std::printf("%s\n", what);
        std::printf("runs %zu  p50 %.1f us  p99 %.1f us  mean %.1f us  max %.1f us  (checksum %.3g)\n", n,
                    v[n / 2] / 1e3, v[n * 99 / 100] / 1e3, total / static_cast<double>(n) / 1e3, v.back() / 1e3, checksum);
    };
    summary("core computeReport, data parallel (validate + params + FLOPs + memory x4 ZeRO stages + step time + roofline ops)",
            ns, sink);

    // Parallel layouts: Llama 3.1 405B on 16,384 H100s at sequence 8192 (Dubey et al. 2024,
    // Table 4), moving through TP, PP, VPP, CP as a slider would.
    const ModelPreset *big = catalog->findPreset(QStringLiteral("llama3.1-405b"));
    const ModelPreset *seventy = catalog->findPreset(QStringLiteral("llama3-70b"));
    Scenario base;
    base.presetId = big->id;
    base.model = big->shape;
    base.seqLen = 8192;
    base.microBatch = 1;
    base.globalBatch = 2048;
    base.gpus = 16384;
    base.flashAttention = true;
    base.sequenceParallel = true;
    base.recipeId = QStringLiteral("bf16-mixed-adamw-fp32-grads");
    base.zeroStage = 1;
    const std::int64_t layouts[][4] = {{8, 16, 1, 1}, {8, 16, 2, 1}, {4, 32, 1, 1}, {8, 8, 1, 2}, {8, 16, 1, 4}, {2, 64, 1, 1}};
    std::vector<double> parallel;
    double parallelSink = 0;
    constexpr int kParallelRuns = 3000;
    for (int i = 0; i < kParallelRuns; ++i) {
        Scenario s = base;
        const auto &l = layouts[i % 6];
        s.tp = l[0];
        s.pp = l[1];
        s.vpp = l[2];
        s.cp = l[3];
        timer.start();
        const auto r = computeReport(s, *catalog);
        parallel.push_back(static_cast<double>(timer.nsecsElapsed()));
        if (!r.ok()) {
            std::fprintf(stderr, "refused: %s\n", qPrintable(r.refusalMessage()));
            return 1;
        }
        parallelSink += r->step.stepSeconds;
    }
    summary("core computeReport, Llama 3.1 405B on 16,384 H100s, six TP/PP/VPP/CP layouts", parallel, parallelSink);

    // The planner, as the window reruns it on a slider change.
    const auto plan = [&](const char *what, const Scenario &s, int runs) {
        const auto r = computeReport(s, *catalog);
        if (!r.ok()) {
            std::fprintf(stderr, "refused: %s\n", qPrintable(r.refusalMessage()));
            return false;
        }
        std::vector<double> t;
        double checksum = 0;
        std::int64_t evaluated = 0;
        for (int i = 0; i < runs; ++i) {
            timer.start();
            const PlanReport p = planLayouts(s, r->gpu, r->memory.recipe, r->scaleUp, r->scaleOut, PlanOptions{});
            t.push_back(static_cast<double>(timer.nsecsElapsed()));
            checksum += p.layouts.first().stepSeconds;
            evaluated = p.evaluated;
        }
        std::printf("(%lld layouts evaluated per run)\n", static_cast<long long>(evaluated));
        summary(what, t, checksum);
        return true;
    };
    base.tp = 8;
    base.pp = 16;
    if (!plan("planner: Llama 3.1 405B, 16,384 H100s, seq 8192, global batch 2048 (target: under 100 ms)", base, 30))
        return 1;
    Scenario small = base;
    small.presetId = seventy->id;
    small.model = seventy->shape;
    small.gpus = 64;
    small.globalBatch = 128;
    small.tp = 8;
    small.pp = 4;
    if (!plan("planner: Llama 3 70B, 64 H100s, seq 8192, global batch 128", small, 100))
        return 1;

    // Serving, as the window recomputes on a concurrency change: the report (its curve and
    // roofline included) and the every-GPU chart's serving figures on each catalog GPU.
    Scenario serving;
    serving.mode = Mode::Inference;
    serving.presetId = seventy->id;
    serving.model = seventy->shape;
    serving.gpus = 2;
    serving.tp = 2;
    serving.weightDtype = NumberFormat::Fp8;
    std::vector<double> report, everyGpu;
    double servedChecksum = 0;
    for (int i = 0; i < 400; ++i) {
        serving.concurrency = 1 + (i * 7) % 283;
        timer.start();
        const auto r = computeReport(serving, *catalog);
        report.push_back(static_cast<double>(timer.nsecsElapsed()));
        if (!r.ok()) {
            std::fprintf(stderr, "refused: %s\n", qPrintable(r.refusalMessage()));
            return 1;
        }
        timer.start();
        const QList<GpuServing> all = servingOnEveryGpu(*r, *catalog);
        everyGpu.push_back(static_cast<double>(timer.nsecsElapsed()));
        servedChecksum += r->inference->tpotSeconds + static_cast<double>(all.size());
    }
    summary("serving: Llama 3 70B fp8 on 2 H100s (TP 2), concurrency 1..283: computeReport", report, servedChecksum);
    summary("serving: the same, servingOnEveryGpu (each catalog GPU's figures)", everyGpu, servedChecksum);
    return 0;
}
