#pragma once

#include "core/model/recipe.h"
#include "core/model/scenario.h"

#include <vector>

namespace napkin {

enum class OpKind { Matmul, Attention, Normalization, Elementwise, Loss, Optimizer };
constexpr int kOpKinds = 6;
static_assert(static_cast<int>(OpKind::Optimizer) + 1 == kOpKinds);

/// When an op runs: in a training step, the forward pass, the backward pass, the forward work
/// that recomputation runs again before the backward, the optimizer update; in serving, the
/// prompt's forward (prefill) and one generated token's (decode).
enum class Phase { Forward, Backward, Recompute, Optimizer, Prefill, Decode };
constexpr int kPhases = 6;
static_assert(static_cast<int>(Phase::Decode) + 1 == kPhases);

/// Where an op sits in the model: in every block, before the blocks (first stage), after
/// them (last stage), or once per step.
enum class Region { Block, Embedding, Head, Step };

/// The module an op belongs to for selective recompute (Megatron-Core's --recompute-modules):
/// the backward reruns the forward ops of the modules chosen (Scenario::recomputeNorms and
/// the others). None: no module selective recompute names.
enum class RecomputeModule : unsigned char { None, CoreAttention, Norm, MoeActivation, MlaUpProjection };

/// One kernel of one micro-batch on one GPU of a pipeline stage. FLOPs, bytes, saved bytes and
/// parameters are per occurrence; `count` is how many times it runs per micro-batch (e.g.
/// once per layer). The forward op carries what the kernel keeps for backward and the
/// parameters it owns; its backward and recompute copies carry neither.
struct WorkloadOp {
    const char *name = "";
    Phase phase = Phase::Forward;
    OpKind kind = OpKind::Matmul;
    Region region = Region::Block;
    double count = 1;
    double flops = 0;        ///< every FLOP the kernel runs
    double matmulFlops = 0;  ///< the matmul FLOPs in it (2mkn); for a recompute op, those it reruns
    double bytes = 0;        ///< HBM bytes read and written, each operand once
    double savedBytes = 0;   ///< activation bytes kept for backward on this GPU (the scenario's model)
    double params = 0;       ///< parameters this GPU holds for it
    bool expert = false;     ///< a routed expert's: split by EP, its state sharded over the expert DP ranks
    bool fusedAttention = false;  ///< a FlashAttention kernel (its own measured efficiency, StepMachine)
    RecomputeModule module = RecomputeModule::None;  ///< what selective recompute calls it
    /// A GEMM an FP8 recipe leaves in the compute dtype: the LM head (Megatron-Core's output
    /// layer is a plain ColumnParallelLinear outside Transformer Engine's FP8 autocast, which
    /// wraps the transformer block) and the MoE router (a plain linear). It runs at the compute
    /// dtype's peak and measured efficiency, with no FP8 casts, and serving never quantizes it.
    bool highPrecision = false;
    /// Runs at the recipe's GEMM dtype (its peak, measured efficiency and roof): a GEMM the
    /// recipe does not leave in the compute dtype.
    bool runsAtGemmDtype() const { return kind == OpKind::Matmul && !highPrecision; }
    /// Launches per occurrence: a prefill split into chunks runs each kernel once per chunk.
    double launches = 1;
    /// A FlashAttention kernel's shape, which its measured speed depends on (AttentionTable):
    /// the width of one head's queries and keys, and the queries each kernel runs over (the
    /// sequence, or a CP rank's share of it); 0: not a FlashAttention kernel.
    double attentionHeadDim = 0;
    double attentionLength = 0;
};

/// What the workload builder needs, in plain numbers, so that the planner can call it
/// thousands of times per slider move.
struct WorkloadInput {
    bool llama = false;
    double layers = 1;        ///< blocks on the stage
    bool firstStage = true;   ///< holds the embedding
    bool lastStage = true;    ///< holds the final norm, LM head and loss
    double microBatch = 1;
    double seqLen = 1;        ///< the whole sequence; CP ranks take seqLen / cp of the queries
    double dModel = 1, kvWidth = 1, dFf = 1, heads = 1, vocab = 1;
    double queryWidth = 1;    ///< heads x head_dim (d_model unless head_dim is set apart)
    /// Over all heads: keys (what QK^T contracts with the queries' queryWidth), values, and the
    /// attention output (kvWidth, kvWidth, queryWidth unless multi-head latent attention).
    double keyWidth = 1, valueWidth = 1, outWidth = 1;
    /// Multi-head latent attention (kvLoraRank > 0): the latents' widths, the RoPE key's width,
    /// and the up-projected keys' no-RoPE width (heads x head_dim).
    double qLoraRank = 0, kvLoraRank = 0, qkRopeDim = 0, keyNopeWidth = 0;
    bool qkNorm = false;      ///< RMSNorm on each head's queries and keys (Qwen3)
    bool linearBias = false;  ///< llama family: biases on every linear layer of a block (gpt-oss)
    bool attentionSinks = false;  ///< a learned sink logit per head (gpt-oss)
    double tp = 1, cp = 1;
    bool sp = false;
    // Mixture-of-Experts: experts = 0 is a dense MLP of d_ff.
    double experts = 0, expertsPerToken = 1, sharedExperts = 0, expertDff = 1;
    double ep = 1, capacityFactor = 1;
    double etp = 1;  ///< expert tensor-parallel ranks (Layout::etp)
    double denseLayers = 0;   ///< of `layers`, the blocks that keep a dense MLP of d_ff
    bool routerBias = false;
    bool flash = false, causal = false;
    /// Query-key pairs per head and sequence in one block, averaged over the model's blocks
    /// (attentionPairs / layers); 0: s^2, or s(s+1)/2 when causal.
    double pairsPerBlock = 0;
    Recompute recompute = Recompute::None;
    /// Under selective recompute, the modules it reruns (Scenario::recomputeCoreAttention and
    /// the others); all false otherwise.
    bool recomputeCoreAttention = false, recomputeNorms = false, recomputeMoeActivation = false,
         recomputeMlaUpProjection = false;
    double activationBytes = 2, weightBytes = 2, gradBytes = 2, optimizerBytes = 12;
    /// The linear layers' GEMMs run in FP8 (Transformer Engine): each brings the kernels that
    /// cast its inputs (OpBuilder::fp8Casts).
    bool fp8Gemms = false;
    /// Under fp8Gemms, Scenario::fp8Scaling is current: each cast first measures its tensor's amax.
    bool fp8CurrentScaling = false;
    /// The loss kernel over the logits (Scenario::crossEntropy): its passes and what it keeps.
    CrossEntropy crossEntropy = CrossEntropy::Fused;
    double optimizerFlopsPerParam = 15;
    double optimizerParams = 0;  ///< parameters this GPU updates (after TP, PP and ZeRO)
    /// Gradient accumulation outside the GEMMs (Scenario::gradAccumulationFusion off): the
    /// share of micro-batches that add their weight gradients to the earlier ones', (m - 1) / m
    /// of a step's m; 0: none (fused, or one micro-batch).
    double unfusedAccumulations = 0;
    // What the saved-activation and parameter counts need.
    bool includeActivations = true;
    ActivationModel activationModel = ActivationModel::Korthikanti;
    bool dropout = false;
    double maxPositions = 0;     ///< gpt2's learned position table
    bool tied = true;
    bool headHasOwnTable = false;  ///< untied, or tied but on another stage than the embedding
    /// Multi-token prediction modules on the last stage (DeepSeek-V3): each two norms, a 2d x d
    /// projection, one more block, the head's norm and the shared head with its loss.
    double mtpDepth = 0;
};

/// WorkloadInput::unfusedAccumulations of a scenario: (m - 1) / m of its m micro-batches per
/// step when gradient accumulation is not fused (training only), else 0.
double unfusedAccumulations(const Scenario &s);

WorkloadInput workloadInput(const Scenario &s, double activationBytes, double weightBytes, double gradBytes,
                            double optimizerBytes, double optimizerFlopsPerParam);

/// workloadInput with the recipe's byte sizes, optimizer FLOPs and GEMM dtype (FP8 GEMMs
/// bring their cast kernels, OpBuilder::fp8Casts).
WorkloadInput recipeWorkloadInput(const Scenario &s, const Recipe &recipe);

/// Appends the ops of one micro-batch on one GPU of a stage to `out` (cleared first):
/// the blocks (shapes / tp, tokens / cp, norms and residuals / tp only with SP), the
/// embedding-side and head-side ops where the stage has them, the recomputed forward ops,
/// and the optimizer step over this GPU's shard.
void buildWorkload(const WorkloadInput &in, std::vector<WorkloadOp> &out);

/// Activation bytes and parameters of one micro-batch on one GPU, by region, from the ops.
struct WorkloadSums {
    double savedPerBlock = 0;
    double savedEmbedding = 0;
    double savedHead = 0;
    double paramsPerBlock = 0;
    double expertParamsPerBlock = 0;  ///< of paramsPerBlock, the routed experts' on this GPU
    // Mixture-of-Experts with dense_layers: one dense block (else equal to the above).
    double savedPerDenseBlock = 0;
    double paramsPerDenseBlock = 0;
    double paramsEmbedding = 0;
    double paramsHead = 0;   ///< with the multi-token prediction modules, which sit beside the head
    double expertParamsHead = 0;  ///< of paramsHead, the MTP blocks' routed experts on this GPU
};

/// Sums the ops of a one-block workload (layers = 1, first and last stage).
WorkloadSums sumWorkload(const std::vector<WorkloadOp> &ops);

/// The forward FLOPs recomputation runs again, per micro-batch on one GPU, and the model's
/// matmul FLOPs (forward + backward), as sums over the ops.
double recomputeFlops(const std::vector<WorkloadOp> &ops);
double modelMatmulFlops(const std::vector<WorkloadOp> &ops);

} // namespace napkin
