#pragma once

#include "core/workload/activations.h"
#include "core/model/catalog.h"
#include "core/model/layout.h"
#include "core/model/limits.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"

#include <QList>

#include <array>
#include <cstdint>
#include <optional>

namespace napkin {

/// What the framework holds besides the model state and activations, on one GPU. Each figure
/// is named with its source; the CUDA context is MemoryBreakdown::reserved.
struct FrameworkOverheads {
    /// ZeRO-3 / FSDP: the largest unit (one block) gathered whole for its forward and backward,
    /// parameters and gradients: DeepSpeed's estimate_zero3_model_states_mem_needs charges
    /// largest_layer_memory = 4 bytes x largest_layer_params (2-byte weights + 2-byte grads);
    /// Napkin uses the recipe's weight + grad bytes.
    double zero3Gathered = 0;
    /// ZeRO-3 / FSDP: the next block's parameters, all-gathered ahead of use (PyTorch FSDP's
    /// default backward_prefetch = BACKWARD_PRE holds one more unit).
    double zero3Prefetch = 0;
    /// The caching allocator's margin: Scenario::allocatorMargin x everything else the model needs.
    double allocatorMargin = 0;
    double total() const { return zero3Gathered + zero3Prefetch + allocatorMargin; }
};

/// How many ZeRO stages there are (limits::minZeroStage to maxZeroStage): every per-stage array and
/// loop uses this.
constexpr int kZeroStages = limits::maxZeroStage - limits::minZeroStage + 1;

/// Bytes one GPU holds, by component (the source document's dictionary).
struct MemoryBreakdown {
    double params = 0;
    double grads = 0;
    double optimizerAndMasterWeights = 0;
    /// Mixture-of-Experts: the routed experts' weights, gradients and optimizer state on this
    /// GPU (experts / EP, ZeRO over DP x CP / EP); params, grads and optimizer are the rest.
    double experts = 0;
    double activations = 0;
    double overheads = 0;  ///< FrameworkOverheads::total()
    double reserved = 0;   ///< CUDA context and kernels (Scenario::reservedBytes)
    /// Offload: what this GPU's share keeps in its host's CPU memory instead (optimizer state and
    /// gradients, and the parameters under "params"); not part of total(), which is the GPU's.
    double cpu = 0;
    /// Parameters, gradients and optimizer state (the experts' too): what ZeRO shards.
    double modelState() const { return params + grads + optimizerAndMasterWeights + experts; }
    double total() const { return modelState() + activations + overheads + reserved; }
};

/// One pipeline stage on one of its GPUs.
/// One pipeline rank's GPU: its stage, or under DualPipe its two (rankStages), summed.
struct StageMemory {
    std::int64_t stage = 0;
    std::int64_t layers = 0;           ///< transformer blocks on the stage
    double params = 0;                 ///< parameters on one of its GPUs (after TP, before ZeRO)
    double expertParams = 0;           ///< of params, the routed experts' (after EP)
    double inFlightMicroBatches = 0;   ///< micro-batches whose activations it holds at its peak
    MemoryBreakdown bytes;             ///< at the chosen ZeRO stage
    FrameworkOverheads overheads;
};

struct MemoryReport {
    Recipe recipe;
    int zeroStage = 0;
    std::int64_t gpus = 1;
    Layout layout;
    double capacity = 0;      ///< bytes on one GPU (catalog)
    /// The worst stage's GPU at the chosen ZeRO stage: the stage with the largest total.
    MemoryBreakdown perGpu;
    std::int64_t worstStage = 0;
    QList<StageMemory> perStage;
    /// The worst stage at each ZeRO stage (its activations and overheads as at that stage).
    std::array<MemoryBreakdown, kZeroStages> byZeroStage;
    ActivationBreakdown activations;  ///< one micro-batch on one GPU of the layout (all layers)
    bool fits = false;
    /// Offload: the CPU memory one node's GPUs fill (the worst stage's cpu x GPUs per node).
    double cpuPerNode = 0;
    /// Largest micro-batch whose worst stage fits at the chosen ZeRO stage; 0 when even the
    /// model state does not fit; nullopt when activations are excluded.
    std::optional<std::int64_t> maxMicroBatch;
};

/// Model-state bytes per GPU at a ZeRO stage (Rajbhandari et al. 2019, Figure 1):
/// stage 1 shards optimizer state, 2 also gradients, 3 also parameters, over `gpus`.
MemoryBreakdown modelStateBytes(double params, const Recipe &recipe, int zeroStage, double gpus);

/// Parameters on one GPU of each pipeline stage, summed over the workload's ops (Shoeybi et
/// al. 2019, Section 3: column-parallel QKV and MLP-input weights and biases / tp,
/// row-parallel output weights / tp with their biases whole, norms whole): its blocks; stage
/// 0 the token table (vocabulary-parallel, / tp) and any learned position table (whole); the
/// last stage the final norm and the LM head (/ tp), or, when tied and pp > 1, its own copy
/// of the token table (Megatron-LM keeps one for the head). A direct parameter count sits on
/// one stage.
QList<double> stageParams(const Scenario &s, const Layout &layout);

MemoryReport computeMemory(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu);

/// Of each stage's parameters on one GPU, the routed experts' (0 for a dense model), from the
/// one-block sums (empty for a dense model: read it with value()), or as the memory report
/// counted them.
QList<double> stageExpertParams(const Scenario &s, const Layout &l, const WorkloadSums &sums);
QList<double> stageExpertParams(const MemoryReport &m);

/// The worst stage's total bytes per GPU, for the planner: only candidateRanks() are computed.
double worstStageBytes(const Scenario &s, const Recipe &recipe, const Layout &layout);
/// The same from the one-block sums at the scenario's micro-batch (blockSums()), for callers
/// that reuse them.
double worstStageBytes(const Scenario &s, const Recipe &recipe, const Layout &layout, const WorkloadSums &sums);
/// The parameters on one GPU of each stage, as a memory report already counted them.
QList<double> stageParams(const MemoryReport &m);
/// stageParams() from the one-block sums.
QList<double> stageParams(const Scenario &s, const Layout &layout, const WorkloadSums &sums);

} // namespace napkin
