#pragma once

#include "activations.h"
#include "catalog.h"
#include "recipe.h"
#include "scenario.h"

#include <array>
#include <cstdint>
#include <optional>

namespace napkin {

/// Bytes one GPU holds, by component (the source document's dictionary).
struct MemoryBreakdown {
    double params = 0;
    double grads = 0;
    double optimizerAndMasterWeights = 0;
    double activations = 0;
    double reserved = 0;  ///< CUDA context and kernels (Scenario::reservedBytes)
    /// Parameters, gradients and optimizer state: what ZeRO shards.
    double modelState() const { return params + grads + optimizerAndMasterWeights; }
    double total() const { return modelState() + activations + reserved; }
};

struct MemoryReport {
    Recipe recipe;
    int zeroStage = 0;
    std::int64_t gpus = 1;
    double capacity = 0;      ///< bytes on one GPU (catalog)
    MemoryBreakdown perGpu;   ///< at the chosen ZeRO stage
    std::array<MemoryBreakdown, 4> byZeroStage;
    ActivationBreakdown activations;  ///< at the chosen micro-batch (zero when excluded)
    bool fits = false;
    /// Largest micro-batch whose total fits at the chosen stage; 0 when even the model state
    /// does not fit; nullopt when activations are excluded (memory does not grow with batch).
    std::optional<std::int64_t> maxMicroBatch;
};

/// Model-state bytes per GPU at a ZeRO stage (Rajbhandari et al. 2019, Figure 1):
/// stage 1 shards optimizer state, 2 also gradients, 3 also parameters, over `gpus`.
MemoryBreakdown modelStateBytes(double params, const Recipe &recipe, int zeroStage, double gpus);

MemoryReport computeMemory(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu);

} // namespace napkin
