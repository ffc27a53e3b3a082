#pragma once

#include "core/model/scenario.h"
#include "core/model/refusal.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace napkin {

/// How one run is cut across its GPUs: the scenario's tp, pp, vpp and cp, the DP they leave,
/// and how the global batch becomes micro-batches (Narayanan et al. 2021, Section 2).
struct Layout {
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    std::int64_t vpp = 1;
    std::int64_t cp = 1;
    std::int64_t dp = 1;            ///< gpus / (tp x pp x cp)
    std::int64_t ep = 1;            ///< expert-parallel ranks
    std::int64_t etp = 1;           ///< expert tensor-parallel ranks (the scenario's, else tp)
    bool sp = false;
    std::int64_t microBatch = 1;    ///< sequences per micro-batch
    std::int64_t globalBatch = 1;   ///< sequences per optimizer step, all replicas
    /// Micro-batches each pipeline runs per step, global / (micro-batch x dp): Narayanan et
    /// al.'s m, and the gradient-accumulation steps when pp = 1.
    std::int64_t microBatches = 1;
    std::int64_t gpusPerNode = 8;
    /// DualPipe (Scenario::ppSchedule, with pp > 1): rank i holds stages i and pp - 1 - i
    /// (rankStages), micro-batches enter from both ends.
    bool dualPipe = false;
    /// Ranks ZeRO and the distributed optimizer shard over: DP x CP, as Megatron-LM's
    /// distributed optimizer does (its data-parallel group with context parallelism).
    std::int64_t shardGroup() const { return dp * cp; }
    /// Ranks ZeRO shards the routed experts' state over: of the TP x CP x DP ranks the expert
    /// layers fold over, those that hold the same expert shard, tp x cp x dp / (ep x etp)
    /// (Megatron-Core's expert data-parallel group; dp x cp / ep when etp = tp).
    std::int64_t expertShardGroup() const { return tp * dp * cp / (ep * etp); }
    std::int64_t gpus() const { return tp * pp * cp * dp; }
    bool operator==(const Layout &) const = default;
};

/// The layout of a scenario already checked by validateLayout(); `defaultGpusPerNode` is
/// the GPU's catalog node size, used when the scenario sets none.
Layout deriveLayout(const Scenario &s, std::int64_t defaultGpusPerNode);

/// Whether the scenario runs DualPipe: its schedule, a pipeline to run it on, and training
/// (serving runs no schedule of micro-batches).
bool runsDualPipe(const Scenario &s);
/// DualPipe's micro-batch rule (deepseek-ai/DualPipe, dualpipe.py: "num_chunks % 2 == 0 and
/// num_chunks >= num_ranks * 2"): an even number per step, at least 2 x pp, half entering from
/// each end.
bool dualPipeTakes(std::int64_t pp, std::int64_t microBatches);

/// The rules a layout must follow (after each field's range), each refusal naming its field and the rule:
/// tp divides heads and kv_heads; pp <= layers; vpp > 1 needs pp > 1, at least vpp layers
/// on every stage (chunks as even as the count allows; Llama 3 405B's 126 layers on 16 stages
/// are uneven) and micro-batches divisible by pp; 2 x cp divides seq_len; tp x pp x cp divides
/// gpus; the global batch is a multiple of batch x dp; a direct parameter count allows no
/// tp or pp (it has no layers to split).
std::optional<Refusal> validateLayout(const Scenario &s);

/// What validateLayout() asks of the fields the window's sliders set, so that a slider can
/// offer only values it accepts. The fewest layers: pp x vpp, a layer in every virtual stage.
std::int64_t fewestLayers(const Scenario &s);
/// Sequence lengths are multiples of this: 2 x cp, the load-balanced causal split's chunks
/// (1 without context parallelism).
std::int64_t seqLenMultiple(const Scenario &s);
/// Whether micro-batches of `microBatch` sequences make up the global batch (when one is set)
/// on every data-parallel replica, and under interleaving a multiple of pp of them per step.
bool microBatchFits(const Scenario &s, std::int64_t microBatch);

/// The scenario with the simplest layout: every GPU a data-parallel replica of one
/// micro-batch (tp, pp, vpp, cp and ep 1, no SP, no global batch of its own), the lowest ZeRO
/// stage its offload allows or its own. What the planner and a budget start from when the
/// scenario's own layout cannot be taken.
Scenario withSimplestLayout(Scenario s);

/// The lowest ZeRO stage an offload runs at: ZeRO-Offload partitions the optimizer state it
/// moves (stage 1), ZeRO-Infinity fetches the parameters per layer (stage 3; Rajbhandari et
/// al. 2021, Section 5).
int lowestZeroStage(Offload offload);

/// Transformer layers on each pipeline stage. Uneven splits give the L mod pp extra layers to
/// stages 1, 2, ...: never to stage 0, which already holds the embedding and the most
/// micro-batches in flight.
std::vector<std::int64_t> stageLayers(std::int64_t layers, std::int64_t pp);
/// Of each stage's layers, how many are among the model's first `dense` blocks (the dense
/// blocks of a Mixture-of-Experts model such as DeepSeek-V3 sit on the first stages).
std::vector<std::int64_t> stageDenseLayers(std::int64_t layers, std::int64_t pp, std::int64_t dense);

/// The stages that can be the slowest or hold the most memory, without repeats: 0, 1 and the
/// last. In-flight micro-batches fall with the stage index, extra layers go to stages 1, 2,
/// ..., the embedding sits on the first stage and the head on the last, so every other stage
/// repeats stage 1 or has less.
std::vector<std::int64_t> candidateStages(std::int64_t pp);

/// The pipeline ranks that can be the slowest or hold the most memory: candidateStages(), or
/// under DualPipe ranks 0, 1 and pp/2 - 1 (ranks pp/2 and above mirror those below).
std::vector<std::int64_t> candidateRanks(const Layout &layout);

/// The pipeline stages pipeline rank `rank` holds: itself, and under DualPipe stage
/// pp - 1 - rank too (DeepSeek-V3, Section 3.2.1; deepseek-ai/DualPipe: "2x" parameters per
/// device), so that rank 0 holds the embedding's stage and the head's.
std::vector<std::int64_t> rankStages(const Layout &layout, std::int64_t rank);

/// Micro-batches whose activations stage `stage` holds at its peak, in units of the whole
/// stage's layers. 1F1B: min(pp - stage, m) (Narayanan et al. 2021, Section 2.2.1).
/// DualPipe: (pp + 1) / 2 of each of a rank's two stages, pp + 1 stage-chunks in all
/// (DeepSeek-V3, Table 2: activations "PP + 1" per device against 1F1B's "PP").
/// Interleaved: the stage's warm-up of (pp - stage - 1) x 2 + (vpp - 1) x pp model chunks
/// plus one (Megatron-LM's interleaved schedule), at most m x vpp, each chunk 1/vpp of the
/// stage: stage 0 holds pp x (1 + (pp - 1)/(pp x vpp)) (Korthikanti et al. 2022, Section 4.2.3).
double inFlightMicroBatches(const Layout &layout, std::int64_t stage);

/// The pipeline bubble as a fraction of ideal compute time, (pp - 1) / (m x vpp)
/// (Narayanan et al. 2021, Section 2.2.2 for interleaved 1F1B; vpp = 1 gives 1F1B's).
/// DualPipe's depends on the chunks' times, not only on the layout: estimateStepTime.
double bubbleFraction(const Layout &layout);

} // namespace napkin
