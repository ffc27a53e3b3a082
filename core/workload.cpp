#include "workload.h"

#include "modelshape.h"

namespace napkin {

namespace {

// FLOPs per element of the non-matmul kernels. Napkin's own counts, stated here because no
// paper standardises them: LayerNorm mean 1 + variance 3 + normalise 2 + affine 2 = 8;
// RMSNorm square-and-sum 2 + scale 1 + weight 1 = 4; softmax max, subtract, exp, sum,
// divide = 5; GELU tanh form (Hendrycks & Gimpel 2016) 8; SwiGLU silu 4 + product 1 = 5;
// cross-entropy max, subtract, exp, sum, log = 5. Backward kernels cost twice their forward.
constexpr double kLayerNormFlops = 8;
constexpr double kRmsNormFlops = 4;
constexpr double kSoftmaxFlops = 5;
constexpr double kGeluFlops = 8;
constexpr double kSwigluFlops = 5;
constexpr double kCrossEntropyFlops = 5;
constexpr double kFp32 = 4;

class Builder final
{
public:
    Builder(const WorkloadInput &in, std::vector<WorkloadOp> &out) : m_in(in), m_out(out) { m_out.clear(); }

    void add(const char *name, Phase phase, OpKind kind, double count, double flops, double matmulFlops, double bytes)
    {
        if (count > 0)
            m_out.push_back(WorkloadOp{name, phase, kind, count, flops, matmulFlops, bytes});
    }

    /// Forward (M x K)(K x N): activations in, weights, activations out; and its backward,
    /// dX = dY W^T and dW = X^T dY, each the same 2MKN.
    void matmul(const char *name, double count, double m, double k, double n)
    {
        const double a = m_in.activationBytes;
        const double w = m_in.weightBytes;
        const double g = m_in.gradBytes;
        const double f = 2 * m * k * n;
        add(name, Phase::Forward, OpKind::Matmul, count, f, f, m * k * a + k * n * w + m * n * a);
        add(name, Phase::Backward, OpKind::Matmul, count, 2 * f, 2 * f,
            (m * n * a + k * n * w + m * k * a)          // dX: read dY and W, write dX
                + (m * k * a + m * n * a + k * n * g));  // dW: read X and dY, write dW
    }

    /// Elementwise kernel over `elements`, reading `reads` and writing `writes` tensors of that size.
    void elementwise(const char *name, OpKind kind, double count, double elements, double flopsPerElement,
                     double reads, double writes, double extraBytes = 0)
    {
        const double a = m_in.activationBytes;
        add(name, Phase::Forward, kind, count, flopsPerElement * elements, 0, (reads + writes) * elements * a + extraBytes);
        // Backward reads the saved input and the incoming grad for each forward read and writes a grad for each.
        add(name, Phase::Backward, kind, count, 2 * flopsPerElement * elements, 0,
            (2 * reads + writes) * elements * a + extraBytes);
    }

private:
    const WorkloadInput &m_in;
    std::vector<WorkloadOp> &m_out;
};

} // namespace

WorkloadInput workloadInput(const Scenario &s, double activationBytes, double weightBytes, double gradBytes,
                            double optimizerBytes, double optimizerFlopsPerParam)
{
    const ModelShape &m = s.model;
    WorkloadInput in;
    in.llama = m.arch == Arch::Llama;
    in.layers = static_cast<double>(m.layers);
    in.microBatch = static_cast<double>(s.microBatch);
    in.seqLen = static_cast<double>(s.seqLen);
    in.dModel = static_cast<double>(m.dModel);
    in.kvWidth = static_cast<double>(kvWidth(m));
    in.dFf = static_cast<double>(m.dFf);
    in.heads = static_cast<double>(m.heads);
    in.vocab = static_cast<double>(m.vocab);
    in.tp = static_cast<double>(s.tp);
    in.cp = static_cast<double>(s.cp);
    in.sp = s.sequenceParallel && s.tp > 1;
    in.flash = s.flashAttention;
    in.causal = s.causalHalving;
    in.recompute = s.recompute;
    in.activationBytes = activationBytes;
    in.weightBytes = weightBytes;
    in.gradBytes = gradBytes;
    in.optimizerBytes = optimizerBytes;
    in.optimizerFlopsPerParam = optimizerFlopsPerParam;
    return in;
}

void buildWorkload(const WorkloadInput &in, std::vector<WorkloadOp> &out)
{
    Builder ops(in, out);
    const bool llama = in.llama;
    const double L = in.layers;
    const double b = in.microBatch;
    const double sq = in.seqLen;
    const double T = b * sq / in.cp;  // tokens of one micro-batch on this GPU
    const double d = in.dModel;
    const double kv = in.kvWidth;
    const double ff = in.dFf;
    const double tp = in.tp;
    const double headsHere = in.heads / tp;
    const double a = in.activationBytes;
    const double w = in.weightBytes;
    // Score entries per head and sequence on this GPU: its s / cp queries against every key
    // (causal: the lower triangle, which the load-balanced CP split shares evenly).
    const double scoreEntries = (in.causal ? sq * (sq + 1) / 2 : sq * sq) / in.cp;
    const double scores = b * headsHere * scoreEntries;  // elements of the materialised score matrix
    // Norms, residuals and the loss's inputs run on every TP rank whole, or on s / tp tokens with SP.
    const double replicatedTokens = in.sp ? T / tp : T;
    const double normFlops = llama ? kRmsNormFlops : kLayerNormFlops;
    const double normParamBytes = (llama ? 1 : 2) * d * w;
    const std::size_t layerOpsBegin = out.size();

    ops.elementwise(llama ? "RMSNorm (attention)" : "LayerNorm (attention)", OpKind::Normalization, L,
                    replicatedTokens * d, normFlops, 1, 1, normParamBytes);
    ops.matmul("QKV projection", L, T, d, (d + 2 * kv) / tp);
    if (in.flash) {
        // Dao et al. 2022: scores, softmax and PV fused; reads Q, K, V once, writes O and the
        // fp32 log-sum-exp. The backward recomputes QK^T (forward 4, backward 10 matmul terms).
        const double io = (T * (d + 2 * kv) * a + T * d * a) / tp;
        const double lse = b * headsHere * (sq / in.cp) * kFp32;
        const double model = 4 * b * scoreEntries * d / tp;
        ops.add("FlashAttention", Phase::Forward, OpKind::Attention, L, model + kSoftmaxFlops * scores, model, io + lse);
        ops.add("FlashAttention", Phase::Backward, OpKind::Attention, L,
                2.5 * model + 2 * kSoftmaxFlops * scores, 2 * model, 2 * io + T * d * a / tp + lse);
    } else {
        // Batched per head: (s x d_head)(d_head x s) and (s x s)(s x d_head), scores written
        // to HBM at the activation dtype.
        const double qk = 2 * b * scoreEntries * d / tp;
        const double q = T * d * a / tp;
        const double k = T * kv * a / tp;
        ops.add("attention scores QK^T", Phase::Forward, OpKind::Attention, L, qk, qk, q + k + scores * a);
        ops.add("attention scores QK^T", Phase::Backward, OpKind::Attention, L, 2 * qk, 2 * qk,
                scores * a + 2 * (q + k) + q + k);
        ops.elementwise("softmax", OpKind::Attention, L, scores, kSoftmaxFlops, 1, 1);
        ops.add("attention x V", Phase::Forward, OpKind::Attention, L, qk, qk, scores * a + k + q);
        ops.add("attention x V", Phase::Backward, OpKind::Attention, L, 2 * qk, 2 * qk, 2 * scores * a + 2 * k + 2 * q);
    }
    ops.matmul("output projection", L, T, d / tp, d);
    ops.elementwise("residual add", OpKind::Elementwise, 2 * L, replicatedTokens * d, 1, 2, 1);
    ops.elementwise(llama ? "RMSNorm (MLP)" : "LayerNorm (MLP)", OpKind::Normalization, L, replicatedTokens * d,
                    normFlops, 1, 1, normParamBytes);
    if (llama) {
        ops.matmul("MLP gate + up", L, T, d, 2 * ff / tp);
        ops.elementwise("SwiGLU", OpKind::Elementwise, L, T * ff / tp, kSwigluFlops, 2, 1);
    } else {
        ops.matmul("MLP up", L, T, d, ff / tp);
        ops.elementwise("GELU", OpKind::Elementwise, L, T * ff / tp, kGeluFlops, 1, 1);
    }
    ops.matmul("MLP down", L, T, ff / tp, d);
    const std::size_t layerOpsEnd = out.size();

    if (in.lastStage) {
        ops.elementwise(llama ? "RMSNorm (final)" : "LayerNorm (final)", OpKind::Normalization, 1,
                        replicatedTokens * d, normFlops, 1, 1, normParamBytes);
        ops.matmul("LM head", 1, T, d, in.vocab / tp);
        ops.elementwise("cross-entropy loss", OpKind::Loss, 1, T * in.vocab / tp, kCrossEntropyFlops, 1, 1);
    }

    // Narayanan et al. 2021, eq. 3: full recompute runs every block's forward again (not the
    // LM head: checkpoints wrap the blocks). Korthikanti et al. 2022, Appendix A: selective
    // reruns QK^T, the softmax and attention over V; FlashAttention already keeps no scores.
    for (std::size_t i = layerOpsBegin; i < layerOpsEnd; ++i) {
        const WorkloadOp op = out[i];  // a copy: push_back may reallocate
        if (op.phase != Phase::Forward)
            continue;
        const bool attentionCore = op.kind == OpKind::Attention && !in.flash;
        if (in.recompute == Recompute::Full || (in.recompute == Recompute::Selective && attentionCore))
            ops.add(op.name, Phase::Recompute, op.kind, op.count, op.flops, op.matmulFlops, op.bytes);
    }

    // One optimizer update over this GPU's shard: reads and writes the optimizer state, reads
    // the grad, writes the compute copy of the weights.
    const double p = in.optimizerParams;
    ops.add(in.optimizerFlopsPerParam == 15 ? "AdamW step" : "SGD step", Phase::Optimizer, OpKind::Optimizer, 1,
            p * in.optimizerFlopsPerParam, 0, p * (2 * in.optimizerBytes + in.gradBytes + w));
}

double recomputeFlops(const std::vector<WorkloadOp> &ops)
{
    double sum = 0;
    for (const WorkloadOp &op : ops)
        if (op.phase == Phase::Recompute)
            sum += op.count * op.matmulFlops;
    return sum;
}

double modelMatmulFlops(const std::vector<WorkloadOp> &ops)
{
    double sum = 0;
    for (const WorkloadOp &op : ops)
        if (op.phase == Phase::Forward || op.phase == Phase::Backward)
            sum += op.count * op.matmulFlops;
    return sum;
}

} // namespace napkin
