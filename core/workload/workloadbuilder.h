#pragma once

// What buildWorkload's parts share: the per-element FLOP counts, the kernel-counting primitives
// and the quantities every region's formulas use. Only core/workload/workload.cpp and
// core/workload/workloadblock.cpp include it.
#include "core/workload/workload.h"

#include <cstddef>
#include <vector>

namespace napkin {

// FLOPs per element of the non-matmul kernels. Napkin's own counts, stated here because no
// paper standardises them: LayerNorm mean 1 + variance 3 + normalise 2 + affine 2 = 8;
// RMSNorm square-and-sum 2 + scale 1 + weight 1 = 4; softmax max, subtract, exp, sum,
// divide = 5; GELU tanh form (Hendrycks & Gimpel 2016) 8; RoPE two products and a sum = 3;
// SwiGLU silu 4 + product 1 = 5; cross-entropy max, subtract, exp, sum, log = 5; dropout
// compare and scale = 2; the embedding
// lookup one per element (the position add for gpt2, the gather for llama). Backward kernels
// cost twice their forward.
constexpr double kLayerNormFlops = 8;
constexpr double kRmsNormFlops = 4;
constexpr double kSoftmaxFlops = 5;
constexpr double kGeluFlops = 8;
constexpr double kSwigluFlops = 5;
constexpr double kCrossEntropyFlops = 5;
constexpr double kDropoutFlops = 2;
constexpr double kEmbeddingFlops = 1;
constexpr double kRopeFlops = 3;
constexpr double kFp32 = 4;
constexpr double kInt64 = 8;
constexpr double kMask = 1;  // a dropout mask: one byte per element

/// What one forward op keeps and owns (its backward copy carries neither).
struct Keeps {
    double saved = 0;
    double params = 0;
};

/// Appends ops to `out` (cleared first), counting a kernel's FLOPs and bytes from its shape.
/// Inline: the planner builds workloads thousands of times per slider move.
class OpBuilder final
{
public:
    OpBuilder(const WorkloadInput &in, std::vector<WorkloadOp> &out) : m_in(in), m_out(out) { m_out.clear(); }

    Region region = Region::Block;

    bool expert = false;  ///< the ops added now are a routed expert's
    bool fusedAttention = false;  ///< the ops added now are FlashAttention kernels
    bool highPrecision = false;   ///< the GEMMs added now stay in the compute dtype (WorkloadOp::highPrecision)
    RecomputeModule module = RecomputeModule::None;  ///< the ops added now belong to it
    /// Under FP8 current scaling, the GEMMs added now take an input (or, backward, an incoming
    /// gradient) whose amax the kernel that produced it measured: Transformer Engine's fused
    /// norm (LayerNormLinear, LayerNormMLP) and activation paths (quantize_with_amax).
    bool amaxFusedInput = false;
    bool amaxFusedGrad = false;
    double attentionHeadDim = 0;  ///< with fusedAttention: WorkloadOp::attentionHeadDim
    double attentionLength = 0;   ///< with fusedAttention: WorkloadOp::attentionLength

    void add(const char *name, Phase phase, OpKind kind, double count, double flops, double matmulFlops, double bytes,
             Keeps keeps = {})
    {
        if (count <= 0)
            return;
        m_out.push_back(WorkloadOp{name, phase, kind, region, count, flops, matmulFlops, bytes, keeps.saved,
                                   keeps.params, expert, fusedAttention});
        if (fusedAttention) {
            m_out.back().attentionHeadDim = attentionHeadDim;
            m_out.back().attentionLength = attentionLength;
        }
        m_out.back().highPrecision = highPrecision;
        m_out.back().module = module;
    }

    /// Forward (M x K)(K x N): activations in, weights, activations out; and its backward,
    /// dX = dY W^T and dW = X^T dY, each the same 2MKN.
    void matmul(const char *name, double count, double m, double k, double n, Keeps keeps)
    {
        const double a = m_in.activationBytes;
        const double w = m_in.weightBytes;
        const double g = m_in.gradBytes;
        const double f = 2 * m * k * n;
        add(name, Phase::Forward, OpKind::Matmul, count, f, f, m * k * a + k * n * w + m * n * a, keeps);
        add(name, Phase::Backward, OpKind::Matmul, count, 2 * f, 2 * f,
            (m * n * a + k * n * w + m * k * a)          // dX: read dY and W, write dX
                + (m * k * a + m * n * a + k * n * g));  // dW: read X and dY, write dW
        if (count > 0)
            m_out.back().launches = 2;                   // two GEMMs, each launched on its own
        fp8Casts(count, m * k, m * n);
    }

    /// The same for `groups` weight matrices applied to `m` rows in all (a grouped GEMM over
    /// this GPU's experts): the FLOPs of one (m x k)(k x n), the weight bytes of every group.
    /// Few rows per expert make its intensity low (the roofline's point for small batches).
    void groupedMatmul(const char *name, double count, double groups, double m, double k, double n, Keeps keeps)
    {
        const double a = m_in.activationBytes;
        const double w = m_in.weightBytes;
        const double g = m_in.gradBytes;
        const double f = 2 * m * k * n;
        const double weights = groups * k * n;
        add(name, Phase::Forward, OpKind::Matmul, count, f, f, m * k * a + weights * w + m * n * a, keeps);
        add(name, Phase::Backward, OpKind::Matmul, count, 2 * f, 2 * f,
            (m * n * a + weights * w + m * k * a) + (m * k * a + m * n * a + weights * g));
        // Counted as one grouped kernel for dX and another for dW. Transformer Engine's default
        // grouped GEMM runs a cuBLAS GEMM per expert on four streams (nvte_multi_tensor_gemm
        // without NVTE_USE_CUTLASS_GROUPED_GEMM), whose fixed times overlap; not counted apart.
        if (count > 0)
            m_out.back().launches = 2;
        fp8Casts(count, m * k, m * n);
    }

    /// Under FP8 (WorkloadInput::fp8Gemms), the kernels that feed a GEMM of `inputs` input and
    /// `outputs` output elements. Transformer Engine casts each GEMM input to FP8 and, because
    /// Hopper's FP8 GEMMs take only the "TN" layout, writes a transposed copy beside it in the
    /// same kernel: the forward's input X (the copy serves the weight gradient) and the
    /// backward's incoming gradient dY. Each reads the bf16 tensor once and writes two one-byte
    /// copies, with its amax (delayed scaling: the scale comes from earlier steps, no extra
    /// pass). Weights are cast once per step, not per micro-batch, and are left out here.
    /// Sources: Transformer Engine docs, "Performance Considerations: Handling transposes"
    /// (columnwise copies for FP8 on Hopper) and "Performance Optimizations: FP8 weight
    /// caching"; cublasLtMatmul's FP8 requirement "A must be transposed and B non-transposed".
    /// FLOPs: amax compare, scale and convert, 3 per element.
    /// Current scaling (WorkloadInput::fp8CurrentScaling) runs two kernels before each cast
    /// (Transformer Engine, transformer_engine/pytorch/csrc/quantizer.cpp,
    /// Float8CurrentScalingQuantizer::quantize_impl: nvte_compute_amax, then
    /// nvte_compute_scale_from_amax, then nvte_quantize_v2): the amax reads the bf16 tensor once
    /// more, 1 FLOP an element, unless its producer measured it (amaxFusedInput, amaxFusedGrad:
    /// quantize_with_amax), and the scale is a kernel of its own. Under sequence parallelism the
    /// amax is also all-reduced over TP, a 4-byte collective left out.
    void fp8Casts(double count, double inputs, double outputs)
    {
        if (!m_in.fp8Gemms || highPrecision)
            return;
        const double a = m_in.activationBytes;
        add("FP8 cast (input)", Phase::Forward, OpKind::Elementwise, count, 3 * inputs, 0,
            inputs * (a + 2));
        add("FP8 cast (grad)", Phase::Backward, OpKind::Elementwise, count, 3 * outputs, 0,
            outputs * (a + 2));
        if (!m_in.fp8CurrentScaling)
            return;
        amaxPass("FP8 amax + scale (input)", Phase::Forward, count, amaxFusedInput ? 0 : inputs);
        amaxPass("FP8 amax + scale (grad)", Phase::Backward, count, amaxFusedGrad ? 0 : outputs);
    }

    /// Current scaling's kernels before one cast: the amax over `elements` (0: measured by the
    /// producer) and the scale from it, each its own launch.
    void amaxPass(const char *name, Phase phase, double count, double elements)
    {
        const std::size_t before = m_out.size();
        add(name, phase, OpKind::Elementwise, count, elements, 0, elements * m_in.activationBytes);
        if (m_out.size() > before)
            m_out.back().launches = elements > 0 ? 2 : 1;
    }

    /// A permutation of `elements` activations (rows gathered into a new order): each read once
    /// and written once, no FLOPs, nothing kept; its backward is the inverse permutation of the
    /// gradient, the same bytes.
    void permutation(const char *name, double count, double elements)
    {
        const double bytes = 2 * elements * m_in.activationBytes;
        add(name, Phase::Forward, OpKind::Elementwise, count, 0, 0, bytes);
        add(name, Phase::Backward, OpKind::Elementwise, count, 0, 0, bytes);
    }

    /// Elementwise kernel over `elements`, reading `reads` and writing `writes` tensors of that size.
    void elementwise(const char *name, OpKind kind, double count, double elements, double flopsPerElement,
                     double reads, double writes, double extraBytes = 0, Keeps keeps = {})
    {
        const double a = m_in.activationBytes;
        add(name, Phase::Forward, kind, count, flopsPerElement * elements, 0, (reads + writes) * elements * a + extraBytes,
            keeps);
        // Backward reads the saved input and the incoming grad for each forward read and writes a grad for each.
        add(name, Phase::Backward, kind, count, 2 * flopsPerElement * elements, 0,
            (2 * reads + writes) * elements * a + extraBytes);
    }

private:
    const WorkloadInput &m_in;
    std::vector<WorkloadOp> &m_out;
};

/// Builds one stage's ops for buildWorkload, a region per call, in the order buildWorkload
/// calls them (the op order is the order sums add up in). Its members are the symbols of the
/// formulas, named as the formulas (and the papers) name them rather than m_-prefixed, each
/// derived once from the input and from those declared above it.
class WorkloadBuilder final
{
public:
    WorkloadBuilder(const WorkloadInput &input, std::vector<WorkloadOp> &output) : in(input), out(output) {}

    // workload.cpp
    void embedding();
    void head();
    void recompute(std::size_t layerOpsBegin, std::size_t layerOpsEnd);
    void multiTokenPrediction();
    /// The loss over the logits, forward and backward, as Scenario::crossEntropy runs it.
    void crossEntropy(const char *name, double count);
    void optimizerStep();
    void gradientAccumulation();

    // workloadblock.cpp: one block's ops, each `count`ed once per layer.
    void attentionProjections();
    void attentionCore();
    void contextParallelMerges();
    void attentionOutput();
    void blockMlp();

private:
    void latentAttentionProjections();
    void mixtureOfExperts();
    /// `fusedNorm`: a dense MLP behind its own norm (Transformer Engine's LayerNormMLP).
    /// `actRecomputed`: selective recompute reruns the activation, so the down projection's
    /// input is not kept.
    void mlp(const char *up, const char *act, const char *down, double count, double tokensHere, double tokensAll,
             double width, double groups, double inSaved, double widthSplit, bool fusedNorm = false,
             bool actRecomputed = false);

    /// A tensor of `bytes` over the micro-batch placed on this GPU: one TP keeps whole (/ tp
    /// only with SP), or one TP splits; either / cp.
    double whole(double bytes) const { return keep ? bytes / rep / in.cp : 0; }
    double split(double bytes) const { return keep ? bytes / tp / in.cp : 0; }

    const WorkloadInput &in;
    std::vector<WorkloadOp> &out;
    OpBuilder ops{in, out};

    const bool llama = in.llama;
    const double L = in.layers;
    const double b = in.microBatch;
    const double sq = in.seqLen;
    const double sb = b * sq;         // tokens of one micro-batch, whole sequence
    const double T = sb / in.cp;      // of them on this GPU
    const double d = in.dModel;
    const double kv = in.kvWidth;
    const double ff = in.dFf;
    const double tp = in.tp;
    const double headsHere = in.heads / tp;
    const double V = in.vocab;
    const double a = in.activationBytes;
    const double w = in.weightBytes;
    const bool gpt2 = !llama;
    const bool biased = gpt2 || in.linearBias;  // every linear layer of the block has a bias
    // Score entries per head and sequence on this GPU: its s / cp queries against every key
    // (causal: the lower triangle, which the load-balanced CP split shares evenly).
    // Sliding windows: the model's average over its windowed and full blocks.
    const double scoreEntries = (in.pairsPerBlock > 0 ? in.pairsPerBlock : in.causal ? sq * (sq + 1) / 2 : sq * sq) / in.cp;
    const double scores = b * headsHere * scoreEntries;  // elements of the materialised score matrix
    // Norms, residuals and dropouts run on every TP rank whole, or on s / tp tokens with SP.
    const double replicatedTokens = in.sp ? T / tp : T;
    const double normFlops = llama ? kRmsNormFlops : kLayerNormFlops;
    const double normParams = (llama ? 1 : 2) * d;
    const double normParamBytes = normParams * w;

    // Saved activations (Korthikanti et al. 2022, Table 2 term by term; or what autograd keeps
    // in the reference PyTorch decoders, tests/validation/ACTIVATION_MODEL.md), written for the
    // whole micro-batch and placed on this GPU: a tensor TP splits / tp, one it keeps whole / tp
    // only with SP (Table 2's rows), every tensor / cp (whole() and split() above).
    const double B = a;
    const double F = kFp32;
    const bool keep = in.includeActivations;
    const bool pytorch = in.activationModel == ActivationModel::PyTorch;
    const bool full = in.recompute == Recompute::Full;
    // Selective recompute's attention core drops the scores; so does full recompute.
    const bool scoresKept = !full && !in.recomputeCoreAttention;
    const double drop = in.dropout ? 1 : 0;
    const double rep = in.sp ? tp : 1;
    const double allScores = in.heads * sq * sb;  // a s^2 b: score entries are stored whole, not halved
    // A norm's own saved tensors: LayerNorm keeps its input and fp32 mean and rstd (CUDA kernel);
    // RMSNorm as Meta writes it keeps x.float(), rsqrt(mean(x^2)) and the normalised tensor.
    const double pytorchNorm = llama ? F * sb * d + F * sb + B * sb * d : B * sb * d + 2 * F * sb;
    const double normSaved = full ? 0 : whole(pytorch ? pytorchNorm : B * sb * d);
    // A projection's whole input: a block norm's output, which recomputing the norms drops.
    const double inputSaved = full || in.recomputeNorms ? 0 : whole(B * sb * d);

    // qw, kw, vw, ow: the queries', keys', values' and output's widths over all heads (d_model
    // for Q and the output unless head_dim is set apart; multi-head latent attention in
    // latentAttentionProjections()).
    const double qw = in.queryWidth;
    const double kw = in.keyWidth;
    const double vw = in.valueWidth;
    const double ow = in.outWidth;
};

} // namespace napkin
