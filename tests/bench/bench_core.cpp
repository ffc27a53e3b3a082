// Benchmark: one full evaluation of the core (all four ZeRO stages, every roofline op) for a
// range of scenarios, as the window does on every slider tick. Prints p50/p99/mean.
#include "catalog.h"
#include "report.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace napkin;

int main()
{
    QString error;
    const auto catalog = loadBuiltinCatalog(&error);
    if (!catalog) {
        std::fprintf(stderr, "catalog: %s\n", qPrintable(error));
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
        ValidationError e;
        timer.start();
        const auto r = computeReport(s, *catalog, &e);
        ns.push_back(static_cast<double>(timer.nsecsElapsed()));
        if (!r) {
            std::fprintf(stderr, "refused: %s\n", qPrintable(e.message()));
            return 1;
        }
        sink += r->roofline.stepSeconds;
    }
    std::sort(ns.begin(), ns.end());
    double total = 0;
    for (double v : ns)
        total += v;
    std::printf("core computeReport (validate + params + FLOPs + memory x4 ZeRO stages + time + roofline ops)\n");
    std::printf("runs %d  p50 %.1f us  p99 %.1f us  mean %.1f us  max %.1f us  (checksum %.3g)\n", kRuns,
                ns[kRuns / 2] / 1e3, ns[kRuns * 99 / 100] / 1e3, total / kRuns / 1e3, ns.back() / 1e3, sink);
    return 0;
}
