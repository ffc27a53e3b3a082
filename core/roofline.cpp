#include "roofline.h"

#include "flops.h"
#include "modelshape.h"

#include <algorithm>

namespace napkin {

QString opKindName(OpKind kind)
{
    switch (kind) {
    case OpKind::Matmul: return QStringLiteral("matmul");
    case OpKind::Attention: return QStringLiteral("attention");
    case OpKind::Normalization: return QStringLiteral("normalization");
    case OpKind::Elementwise: return QStringLiteral("elementwise");
    case OpKind::Loss: return QStringLiteral("loss");
    case OpKind::Optimizer: return QStringLiteral("optimizer");
    }
    return {};
}

QString phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return QStringLiteral("forward");
    case Phase::Backward: return QStringLiteral("backward");
    case Phase::Optimizer: return QStringLiteral("optimizer");
    }
    return {};
}

double attainable(double peakFlopsPerS, double bandwidthBytesPerS, double intensity)
{
    return std::min(peakFlopsPerS, bandwidthBytesPerS * intensity);
}

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

class OpList final
{
public:
    OpList(double layers, const Recipe &r) : m_layers(layers), m_recipe(r) {}

    void add(const QString &name, Phase phase, OpKind kind, double count, double flops, double bytes)
    {
        RooflineOp op;
        op.name = name;
        op.phase = phase;
        op.kind = kind;
        op.count = count;
        op.flops = flops;
        op.bytes = bytes;
        m_ops.append(op);
    }

    /// Forward (M x K)(K x N): activations in, weights, activations out; and its backward,
    /// dX = dY W^T and dW = X^T dY, each the same 2MKN.
    void matmul(const QString &name, double count, double m, double k, double n)
    {
        const double a = m_recipe.activationBytes;
        const double w = m_recipe.weightBytes;
        const double g = m_recipe.gradBytes;
        add(name, Phase::Forward, OpKind::Matmul, count, 2 * m * k * n, m * k * a + k * n * w + m * n * a);
        add(name, Phase::Backward, OpKind::Matmul, count, 2 * 2 * m * k * n,
            (m * n * a + k * n * w + m * k * a)      // dX: read dY and W, write dX
                + (m * k * a + m * n * a + k * n * g));  // dW: read X and dY, write dW
    }

    /// Elementwise kernel over `elements`, reading `reads` and writing `writes` tensors of that size.
    void elementwise(const QString &name, OpKind kind, double count, double elements, double flopsPerElement,
                     double reads, double writes, double extraBytes = 0)
    {
        const double a = m_recipe.activationBytes;
        add(name, Phase::Forward, kind, count, flopsPerElement * elements, (reads + writes) * elements * a + extraBytes);
        // Backward reads the saved input and the incoming grad for each forward read and writes a grad for each.
        add(name, Phase::Backward, kind, count, 2 * flopsPerElement * elements,
            (2 * reads + writes) * elements * a + extraBytes);
    }

    QList<RooflineOp> take() { return std::move(m_ops); }
    double layers() const { return m_layers; }

private:
    double m_layers;
    const Recipe &m_recipe;
    QList<RooflineOp> m_ops;
};

} // namespace

RooflineReport computeRoofline(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu)
{
    RooflineReport r;
    r.gpuId = gpu.id;
    r.peakFlopsPerS = gpu.peakFor(recipe.computeDtype, &r.peakDtype).value_or(0);  // computeReport refuses none
    r.bandwidthBytesPerS = gpu.memoryBandwidthBytesPerS;
    r.ridgeIntensity = r.peakFlopsPerS / r.bandwidthBytesPerS;

    const ModelShape &m = s.model;
    const bool llama = m.arch == Arch::Llama;
    const double L = static_cast<double>(m.layers);
    const double b = static_cast<double>(s.microBatch);
    const double sq = static_cast<double>(s.seqLen);
    const double T = b * sq;  // tokens in one micro-batch
    const double d = static_cast<double>(m.dModel);
    const double kv = static_cast<double>(kvWidth(m));
    const double ff = static_cast<double>(m.dFf);
    const double heads = static_cast<double>(m.heads);
    const double V = static_cast<double>(m.vocab);
    const double a = recipe.activationBytes;
    const double w = recipe.weightBytes;
    const double scoreEntries = s.causalHalving ? sq * (sq + 1) / 2 : sq * sq;
    const double scores = b * heads * scoreEntries;  // elements of the materialised score matrix
    const double normFlops = llama ? kRmsNormFlops : kLayerNormFlops;
    const double normParamBytes = (llama ? 1 : 2) * d * w;

    OpList ops(L, recipe);
    ops.elementwise(llama ? QStringLiteral("RMSNorm (attention)") : QStringLiteral("LayerNorm (attention)"),
                    OpKind::Normalization, L, T * d, normFlops, 1, 1, normParamBytes);
    ops.matmul(QStringLiteral("QKV projection"), L, T, d, d + 2 * kv);
    if (s.flashAttention) {
        // Dao et al. 2022: scores, softmax and PV fused; reads Q, K, V once, writes O and the
        // fp32 log-sum-exp. The backward recomputes QK^T (forward 4, backward 10 matmul terms).
        const double io = T * (d + 2 * kv) * a + T * d * a;
        const double lse = b * heads * sq * kFp32;
        const double fwd = 4 * b * scoreEntries * d + kSoftmaxFlops * scores;
        ops.add(QStringLiteral("FlashAttention"), Phase::Forward, OpKind::Attention, L, fwd, io + lse);
        ops.add(QStringLiteral("FlashAttention"), Phase::Backward, OpKind::Attention, L,
                10 * b * scoreEntries * d + 2 * kSoftmaxFlops * scores, 2 * io + T * d * a + lse);
    } else {
        // Batched per head: (s x d_head)(d_head x s) and (s x s)(s x d_head), scores written
        // to HBM at the activation dtype.
        ops.add(QStringLiteral("attention scores QK^T"), Phase::Forward, OpKind::Attention, L,
                2 * b * scoreEntries * d, T * d * a + T * kv * a + scores * a);
        ops.add(QStringLiteral("attention scores QK^T"), Phase::Backward, OpKind::Attention, L,
                4 * b * scoreEntries * d, scores * a + 2 * (T * d * a + T * kv * a) + T * d * a + T * kv * a);
        ops.elementwise(QStringLiteral("softmax"), OpKind::Attention, L, scores, kSoftmaxFlops, 1, 1);
        ops.add(QStringLiteral("attention x V"), Phase::Forward, OpKind::Attention, L,
                2 * b * scoreEntries * d, scores * a + T * kv * a + T * d * a);
        ops.add(QStringLiteral("attention x V"), Phase::Backward, OpKind::Attention, L,
                4 * b * scoreEntries * d, 2 * scores * a + 2 * T * kv * a + 2 * T * d * a);
    }
    ops.matmul(QStringLiteral("output projection"), L, T, d, d);
    ops.elementwise(QStringLiteral("residual add"), OpKind::Elementwise, 2 * L, T * d, 1, 2, 1);
    ops.elementwise(llama ? QStringLiteral("RMSNorm (MLP)") : QStringLiteral("LayerNorm (MLP)"),
                    OpKind::Normalization, L, T * d, normFlops, 1, 1, normParamBytes);
    if (llama) {
        ops.matmul(QStringLiteral("MLP gate + up"), L, T, d, 2 * ff);
        ops.elementwise(QStringLiteral("SwiGLU"), OpKind::Elementwise, L, T * ff, kSwigluFlops, 2, 1);
    } else {
        ops.matmul(QStringLiteral("MLP up"), L, T, d, ff);
        ops.elementwise(QStringLiteral("GELU"), OpKind::Elementwise, L, T * ff, kGeluFlops, 1, 1);
    }
    ops.matmul(QStringLiteral("MLP down"), L, T, ff, d);
    ops.elementwise(llama ? QStringLiteral("RMSNorm (final)") : QStringLiteral("LayerNorm (final)"),
                    OpKind::Normalization, 1, T * d, normFlops, 1, 1, normParamBytes);
    ops.matmul(QStringLiteral("LM head"), 1, T, d, V);
    ops.elementwise(QStringLiteral("cross-entropy loss"), OpKind::Loss, 1, T * V, kCrossEntropyFlops, 1, 1);

    // One optimizer update over this GPU's shard (ZeRO stage >= 1 partitions it): reads and
    // writes the optimizer state, reads the grad, writes the compute copy of the weights.
    const double params = static_cast<double>(scenarioParams(s).total)
                          / (s.zeroStage >= 1 ? static_cast<double>(s.gpus) : 1);
    ops.add(recipe.optimizerFlopsPerParam == 15 ? QStringLiteral("AdamW step") : QStringLiteral("SGD step"),
            Phase::Optimizer, OpKind::Optimizer, 1, params * recipe.optimizerFlopsPerParam,
            params * (2 * recipe.optimizerBytes + recipe.gradBytes + w));

    r.ops = ops.take();
    for (RooflineOp &op : r.ops) {
        op.intensity = op.flops / op.bytes;
        op.attainableFlopsPerS = attainable(r.peakFlopsPerS, r.bandwidthBytesPerS, op.intensity);
        op.computeBound = op.intensity >= r.ridgeIntensity;
        op.seconds = std::max(op.flops / r.peakFlopsPerS, op.bytes / r.bandwidthBytesPerS);
        r.stepSeconds += op.count * op.seconds;
    }
    r.modelFlopsPerStep = 3 * forwardMatmulFlops(m, sq, s.causalHalving).total() * b;
    r.impliedMfu = r.modelFlopsPerStep / (r.stepSeconds * r.peakFlopsPerS);
    return r;
}

} // namespace napkin
