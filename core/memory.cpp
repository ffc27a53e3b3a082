#include "memory.h"

#include "modelshape.h"

#include <cmath>

namespace napkin {

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
        r.byZeroStage[stage].reserved = s.reservedBytes;
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
