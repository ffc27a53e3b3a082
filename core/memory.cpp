#include "memory.h"

#include "modelshape.h"

#include <cmath>

namespace napkin {

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    ActivationBreakdown a;
    if (!s.includeActivations)
        return a;
    const double sq = static_cast<double>(s.seqLen);
    const double b = microBatch;
    const double h = static_cast<double>(s.model.dModel);
    const double heads = static_cast<double>(s.model.heads);
    const double v = static_cast<double>(s.model.vocab);
    const double sbh = sq * b * h;
    const double scale = recipe.activationBytes / 2;  // the paper counts 2-byte activations
    double perLayer = 0;
    switch (s.recompute) {
    case Recompute::None:
        // Korthikanti et al. 2022, Table 2 (no parallelism): sbh(34 + 5as/h). The 5as^2b term
        // is the softmax output, its dropout mask and dropout output; FlashAttention
        // (Dao et al. 2022) never materialises them.
        perLayer = s.flashAttention ? sbh * 34 : sbh * (34 + 5 * heads * sq / h);
        break;
    case Recompute::Selective:
        // Korthikanti et al. 2022, Section 5 / Table 2: selective recompute drops the s^2 term.
        perLayer = sbh * 34;
        break;
    case Recompute::Full:
        // Korthikanti et al. 2022, Table 2 "full recompute": only each layer's input, 2sbh.
        perLayer = sbh * 2;
        break;
    }
    a.perLayer = perLayer * scale;
    a.layers = a.perLayer * static_cast<double>(s.model.layers);
    // Korthikanti et al. 2022, Section 4.3: final norm input 2sbh + LM head input 2sbh
    // (scaled to the recipe), cross-entropy on fp32 logits 4sbv (always 4 bytes).
    a.outputLayer = 4 * sbh * scale + 4 * sq * b * v;
    return a;
}

MemoryBreakdown modelStateBytes(double params, const Recipe &recipe, int zeroStage, double gpus)
{
    MemoryBreakdown m;
    m.params = params * recipe.weightBytes / (zeroStage >= 3 ? gpus : 1);
    m.grads = params * recipe.gradBytes / (zeroStage >= 2 ? gpus : 1);
    m.optimizerAndMasterWeights = params * recipe.optimizerBytes / (zeroStage >= 1 ? gpus : 1);
    return m;
}

MemoryReport computeMemory(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu)
{
    MemoryReport r;
    r.recipe = recipe;
    r.zeroStage = s.zeroStage;
    r.gpus = s.gpus;
    r.capacity = gpu.memoryBytes;
    const double params = static_cast<double>(scenarioParams(s).total);
    const double gpus = static_cast<double>(s.gpus);
    r.activations = activationBytes(s, recipe, static_cast<double>(s.microBatch));
    for (int stage = 0; stage < 4; ++stage) {
        r.byZeroStage[stage] = modelStateBytes(params, recipe, stage, gpus);
        r.byZeroStage[stage].activations = r.activations.total();
    }
    r.perGpu = r.byZeroStage[s.zeroStage];
    r.fits = r.perGpu.total() <= r.capacity;

    if (s.includeActivations) {
        // Activation bytes are linear in the micro-batch, so the largest fitting batch is a
        // division, not a search.
        const double perSequence = activationBytes(s, recipe, 1).total();
        const double state = r.perGpu.total() - r.perGpu.activations;
        const double room = r.capacity - state;
        r.maxMicroBatch = room <= 0 ? 0 : static_cast<std::int64_t>(std::floor(room / perSequence));
    }
    return r;
}

} // namespace napkin
