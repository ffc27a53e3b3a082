#include "core/workload/workload.h"

#include "core/model/modelshape.h"

#include <algorithm>

namespace napkin {

namespace {

// FLOPs per element of the non-matmul kernels. Napkin's own counts, stated here because no
// paper standardises them: LayerNorm mean 1 + variance 3 + normalise 2 + affine 2 = 8;
// RMSNorm square-and-sum 2 + scale 1 + weight 1 = 4; softmax max, subtract, exp, sum,
// divide = 5; GELU tanh form (Hendrycks & Gimpel 2016) 8; SwiGLU silu 4 + product 1 = 5;
// cross-entropy max, subtract, exp, sum, log = 5; dropout compare and scale = 2; the embedding
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
constexpr double kFp32 = 4;
constexpr double kInt64 = 8;
constexpr double kMask = 1;  // a dropout mask: one byte per element

/// What one forward op keeps and owns (its backward copy carries neither).
struct Keeps {
    double saved = 0;
    double params = 0;
};

class Builder final
{
public:
    Builder(const WorkloadInput &in, std::vector<WorkloadOp> &out) : m_in(in), m_out(out) { m_out.clear(); }

    Region region = Region::Block;

    bool expert = false;  ///< the ops added now are a routed expert's

    void add(const char *name, Phase phase, OpKind kind, double count, double flops, double matmulFlops, double bytes,
             Keeps keeps = {})
    {
        if (count > 0)
            m_out.push_back(WorkloadOp{name, phase, kind, region, count, flops, matmulFlops, bytes, keeps.saved,
                                       keeps.params, expert});
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
    const AttentionWidths widths = attentionWidths(m);
    in.queryWidth = static_cast<double>(widths.q);
    in.keyWidth = static_cast<double>(widths.k);
    in.valueWidth = static_cast<double>(widths.v);
    in.outWidth = static_cast<double>(widths.out);
    if (m.mla()) {
        in.qLoraRank = static_cast<double>(m.qLoraRank);
        in.kvLoraRank = static_cast<double>(m.kvLoraRank);
        in.qkRopeDim = static_cast<double>(m.qkRopeDim);
        in.keyNopeWidth = static_cast<double>(m.heads * headWidth(m));
    }
    in.qkNorm = m.qkNorm;
    in.linearBias = m.arch == Arch::Llama && m.linearBias;
    in.attentionSinks = m.attentionSinks;
    in.dFf = static_cast<double>(m.dFf);
    in.heads = static_cast<double>(m.heads);
    in.vocab = static_cast<double>(m.vocab);
    in.tp = static_cast<double>(s.tp);
    in.cp = static_cast<double>(s.cp);
    in.sp = s.sequenceParallel && s.tp > 1;
    if (m.moe()) {
        in.experts = static_cast<double>(m.experts);
        in.expertsPerToken = static_cast<double>(m.expertsPerToken);
        in.sharedExperts = static_cast<double>(m.sharedExperts);
        in.expertDff = static_cast<double>(expertWidth(m));
        in.ep = static_cast<double>(s.ep);
        in.capacityFactor = s.capacityFactor;
        in.denseLayers = static_cast<double>(std::min(m.denseLayers, m.layers));
        in.routerBias = m.routerBias;
    }
    in.flash = s.flashAttention;
    in.causal = s.causalHalving;
    if (m.slidingWindow > 0)
        in.pairsPerBlock = attentionPairs(m, static_cast<double>(s.seqLen), s.causalHalving) / static_cast<double>(m.layers);
    in.recompute = s.recompute;
    in.activationBytes = activationBytes;
    in.weightBytes = weightBytes;
    in.gradBytes = gradBytes;
    in.optimizerBytes = optimizerBytes;
    in.optimizerFlopsPerParam = optimizerFlopsPerParam;
    in.includeActivations = s.includeActivations;
    in.activationModel = s.activationModel;
    in.dropout = s.dropout;
    in.maxPositions = static_cast<double>(m.maxPositions);
    in.tied = m.tied;
    in.headHasOwnTable = !m.tied || s.pp > 1;
    in.mtpDepth = s.paramsOverride ? 0 : static_cast<double>(m.mtpDepth);
    return in;
}

void buildWorkload(const WorkloadInput &in, std::vector<WorkloadOp> &out)
{
    Builder ops(in, out);
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
    // only with SP (Table 2's rows), every tensor / cp.
    const double B = a;
    const double F = kFp32;
    const bool keep = in.includeActivations;
    const bool pytorch = in.activationModel == ActivationModel::PyTorch;
    const bool full = in.recompute == Recompute::Full;
    const bool scoresKept = in.recompute == Recompute::None;
    const double drop = in.dropout ? 1 : 0;
    const double rep = in.sp ? tp : 1;
    const auto whole = [&](double bytes) { return keep ? bytes / rep / in.cp : 0; };
    const auto split = [&](double bytes) { return keep ? bytes / tp / in.cp : 0; };
    const double allScores = in.heads * sq * sb;  // a s^2 b: score entries are stored whole, not halved
    // A norm's own saved tensors: LayerNorm keeps its input and fp32 mean and rstd (CUDA kernel);
    // RMSNorm as Meta writes it keeps x.float(), rsqrt(mean(x^2)) and the normalised tensor.
    const double pytorchNorm = llama ? F * sb * d + F * sb + B * sb * d : B * sb * d + 2 * F * sb;
    const double normSaved = full ? 0 : whole(pytorch ? pytorchNorm : B * sb * d);
    const double inputSaved = full ? 0 : whole(B * sb * d);  // a projection's whole input

    ops.region = Region::Embedding;
    if (in.firstStage) {
        // Token ids (int64) and the embedding dropout mask; the RoPE cos/sin tables that every
        // block shares (reference LLaMA). Parameters: the vocabulary-parallel token table and
        // gpt2's whole position table.
        double saved = kInt64 * sb + drop * sb * d;
        if (pytorch && llama && !full) {
            // One table pair of the rotated width: the head (or, under latent attention, its RoPE part).
            const double ropeWidth = in.kvLoraRank > 0 ? in.qkRopeDim : in.queryWidth / in.heads;
            saved += 2 * sq * ropeWidth * B;
        }
        const double params = V * d / tp + (gpt2 ? in.maxPositions * d : 0);
        ops.add("embedding lookup", Phase::Forward, OpKind::Elementwise, 1, kEmbeddingFlops * replicatedTokens * d, 0,
                kInt64 * T + replicatedTokens * d * (w * (gpt2 ? 2 : 1) + a), {whole(saved), params});
        ops.add("embedding lookup", Phase::Backward, OpKind::Elementwise, 1, kEmbeddingFlops * replicatedTokens * d, 0,
                replicatedTokens * d * (a + 2 * in.gradBytes));
    }

    ops.region = Region::Block;
    const std::size_t layerOpsBegin = out.size();
    // Full recompute keeps only each block's input, here on its first norm.
    ops.elementwise(llama ? "RMSNorm (attention)" : "LayerNorm (attention)", OpKind::Normalization, L,
                    replicatedTokens * d, normFlops, 1, 1, normParamBytes,
                    {full ? whole(B * sb * d) : normSaved, normParams});
    // qw, kw, vw, ow: the queries', keys', values' and output's widths over all heads (d_model
    // for Q and the output unless head_dim is set apart; multi-head latent attention below).
    const double qw = in.queryWidth;
    const double kw = in.keyWidth;
    const double vw = in.valueWidth;
    const double ow = in.outWidth;
    if (in.kvLoraRank > 0) {
        // DeepSeek-V2/V3 (HF DeepseekV3Attention; Megatron-LM's MLA): the down projections into
        // the latents run whole on every TP rank, each latent has its RMSNorm, and the up
        // projections are split by heads (/ tp). Each matmul keeps its input.
        const double qr = in.qLoraRank;
        const double kvr = in.kvLoraRank;
        const double rope = in.qkRopeDim;
        // Each latent's RMSNorm keeps what a block norm keeps (pytorchNorm at the latent's width).
        // The KV latent is a split of the down projection's output: in fp32, x.float() is that
        // split, whose storage holds the RoPE key too (tests/validation/ACTIVATION_MODEL.md).
        const auto latentNorm = [&](double width, double storageExtra) {
            if (full)
                return 0.0;
            return whole(pytorch ? F * sb * (width + (B == F ? storageExtra : 0)) + F * sb + B * sb * width : B * sb * width);
        };
        if (qr > 0) {
            ops.matmul("Q down projection", L, replicatedTokens, d, qr, {inputSaved, d * qr});
            ops.elementwise("RMSNorm (Q latent)", OpKind::Normalization, L, replicatedTokens * qr, kRmsNormFlops, 1, 1,
                            qr * w, {latentNorm(qr, 0), qr});
            ops.matmul("Q up projection", L, T, qr, qw / tp, {full ? 0 : whole(B * sb * qr), qr * qw / tp});
        } else {
            ops.matmul("Q projection", L, T, d, qw / tp, {inputSaved, d * qw / tp});
        }
        ops.matmul("KV down projection", L, replicatedTokens, d, kvr + rope, {0, d * (kvr + rope)});
        ops.elementwise("RMSNorm (KV latent)", OpKind::Normalization, L, replicatedTokens * kvr, kRmsNormFlops, 1, 1,
                        kvr * w, {latentNorm(kvr, rope), kvr});
        ops.matmul("KV up projection", L, T, kvr, (in.keyNopeWidth + vw) / tp,
                   {full ? 0 : whole(B * sb * kvr), kvr * (in.keyNopeWidth + vw) / tp});
    } else {
        ops.matmul("QKV projection", L, T, d, (qw + 2 * kv) / tp,
                   {inputSaved, d * (qw + 2 * kv) / tp + (biased ? (qw + 2 * kv) / tp : 0)});  // MLA has none
    }
    if (in.qkNorm) {
        // Qwen3: an RMSNorm over each head's queries and keys, a head_dim weight each,
        // replicated on every TP rank; it keeps its inputs, as the block norms do.
        const double headDim = qw / in.heads;
        ops.elementwise("RMSNorm (Q, K)", OpKind::Normalization, L, T * (qw + kv) / tp, kRmsNormFlops, 1, 1,
                        2 * headDim * w, {full ? 0 : split(B * sb * (qw + kv)), 2 * headDim});
    }
    // Q and K for QK^T, V for attention over V: at their own widths (Korthikanti, with grouped
    // K/V), or expanded to every query head (the reference decoders).
    const double qkSaved = full ? 0 : split(pytorch ? 2 * B * sb * qw : B * sb * (qw + kw));
    const double vSaved = full ? 0 : split(pytorch ? B * sb * ow : B * sb * vw);
    if (in.flash) {
        // Dao et al. 2022: scores, softmax and PV fused; reads Q, K, V once, writes O and the
        // fp32 log-sum-exp, which it keeps. The backward recomputes QK^T (forward 4, backward 10
        // matmul terms). Its dropout mask is regenerated, never stored.
        const double io = (T * (qw + kw + vw) * a + T * ow * a) / tp;
        const double lse = b * headsHere * (sq / in.cp) * kFp32;
        const double model = 2 * b * scoreEntries * (qw + ow) / tp;
        const double lseSaved = scoresKept ? split(F * in.heads * sb) : 0;
        ops.add("FlashAttention", Phase::Forward, OpKind::Attention, L, model + kSoftmaxFlops * scores, model, io + lse,
                {qkSaved + vSaved + lseSaved, 0});
        ops.add("FlashAttention", Phase::Backward, OpKind::Attention, L,
                2.5 * model + 2 * kSoftmaxFlops * scores, 2 * model, 2 * io + T * ow * a / tp + lse);
    } else {
        // Batched per head: (s x d_head)(d_head x s) and (s x s)(s x d_head), scores written
        // to HBM at the activation dtype.
        const double qk = 2 * b * scoreEntries * qw / tp;
        const double pv = 2 * b * scoreEntries * ow / tp;
        const double q = T * qw * a / tp;
        const double k = T * kw * a / tp;
        const double v = T * vw * a / tp;
        const double o = T * ow * a / tp;
        ops.add("attention scores QK^T", Phase::Forward, OpKind::Attention, L, qk, qk, q + k + scores * a, {qkSaved, 0});
        ops.add("attention scores QK^T", Phase::Backward, OpKind::Attention, L, 2 * qk, 2 * qk,
                scores * a + 2 * (q + k) + q + k);
        // The softmax output (the reference LLaMA's in fp32, and its cast when no dropout follows).
        double softmaxSaved = B * allScores;
        if (pytorch && llama)
            softmaxSaved = (in.dropout ? F : (B == F ? F : F + B)) * allScores;
        ops.elementwise("softmax", OpKind::Attention, L, scores, kSoftmaxFlops, 1, 1, 0,
                        {scoresKept ? split(softmaxSaved) : 0, 0});
        if (in.dropout) {
            // The attention-probability mask (1 byte) and the dropped probabilities.
            ops.elementwise("attention dropout", OpKind::Attention, L, scores, kDropoutFlops, 1, 1, 0,
                            {scoresKept ? split((kMask + B) * allScores) : 0, 0});
        }
        ops.add("attention x V", Phase::Forward, OpKind::Attention, L, pv, pv, scores * a + v + o, {vSaved, 0});
        ops.add("attention x V", Phase::Backward, OpKind::Attention, L, 2 * pv, 2 * pv, 2 * scores * a + 2 * v + 2 * o);
    }
    // The output projection's weight carries the heads' sink logits too (gpt-oss: one per head).
    const double outBias = gpt2 || (in.linearBias && in.kvLoraRank <= 0) ? d : 0;
    ops.matmul("output projection", L, T, ow / tp, d,
               {full ? 0 : split(B * sb * ow), ow * d / tp + outBias + (in.attentionSinks ? in.heads / tp : 0)});
    const double maskSaved = full ? 0 : whole(kMask * sb * d);
    if (in.dropout)
        ops.elementwise("residual dropout", OpKind::Elementwise, 2 * L, replicatedTokens * d, kDropoutFlops, 1, 1, 0,
                        {maskSaved, 0});
    ops.elementwise("residual add", OpKind::Elementwise, 2 * L, replicatedTokens * d, 1, 2, 1);
    ops.elementwise(llama ? "RMSNorm (MLP)" : "LayerNorm (MLP)", OpKind::Normalization, L, replicatedTokens * d,
                    normFlops, 1, 1, normParamBytes, {normSaved, normParams});
    // One MLP over `tokensHere` tokens of this GPU (`tokensAll` over the micro-batch, for the
    // saved tensors) and `width` hidden units: gpt2's up, GELU and down with biases, or llama's
    // fused gate-and-up, SwiGLU and down. `groups` weight sets of it sit on this GPU (experts).
    const auto mlp = [&](const char *up, const char *act, const char *down, double count, double tokensHere,
                         double tokensAll, double width, double groups, double inSaved) {
        const double ffSaved = full ? 0 : split(B * tokensAll * width);  // one width-wide tensor
        const double bias = biased ? 1 : 0;
        if (llama) {
            ops.groupedMatmul(up, count, groups, tokensHere, d, 2 * width / tp,
                              {inSaved, groups * 2 * (d + bias) * width / tp});
            // The fused gate-and-up output (2 d_ff wide); the reference keeps gate, SiLU and up apart.
            ops.elementwise(act, OpKind::Elementwise, count, tokensHere * width / tp, kSwigluFlops, 2, 1, 0,
                            {(pytorch ? 3 : 2) * ffSaved, 0});
        } else {
            ops.groupedMatmul(up, count, groups, tokensHere, d, width / tp, {inSaved, groups * (d * width + width) / tp});
            ops.elementwise(act, OpKind::Elementwise, count, tokensHere * width / tp, kGeluFlops, 1, 1, 0, {ffSaved, 0});
        }
        ops.groupedMatmul(down, count, groups, tokensHere, width / tp, d, {ffSaved, groups * (width * d / tp + bias * d)});
    };
    if (in.experts > 0) {
        // Mixture-of-Experts (Shazeer et al. 2017; Fedus et al. 2021). The router, replicated on
        // every TP rank, scores each token against every expert (its fp32 probabilities kept for
        // the backward); each token goes to its top-k. With balanced routing the ep ranks of an
        // expert group receive T x k tokens each, padded to the capacity factor's slots, and run
        // them through their experts / ep experts (each split / tp, as Megatron-LM's expert TP
        // equal to TP does). Shared experts run on every token like a dense MLP.
        // The first dense_layers blocks keep a dense MLP (DeepSeek-V3); the rest are MoE blocks.
        const double denseL = std::min(in.denseLayers, L);
        const double moeL = L - denseL;
        ops.matmul("router", moeL, replicatedTokens, d, in.experts,
                   {inputSaved, d * in.experts + (in.routerBias ? in.experts : 0) + (in.linearBias ? in.experts : 0)});
        // The fp32 router probabilities; the reference also keeps top-k's int64 indices.
        const double routedRows = sb * in.expertsPerToken * in.capacityFactor;  // over the micro-batch
        ops.elementwise("top-k routing", OpKind::Elementwise, moeL, replicatedTokens * in.experts, kSoftmaxFlops, 1, 1, 0,
                        {full ? 0 : whole(F * sb * in.experts + (pytorch ? kInt64 * sb * in.expertsPerToken : 0)), 0});
        // Expert rows per token: its top-k, padded to the capacity factor.
        const double perToken = in.expertsPerToken * in.capacityFactor;
        ops.expert = true;
        mlp("experts up", "experts activation", "experts down", moeL, T * perToken, sb * perToken, in.expertDff,
            in.experts / in.ep, full ? 0 : whole(B * sb * perToken * d));
        ops.expert = false;
        // Combine: each routed row's output times its routing weight, added back into its token.
        // The reference keeps, per row, nonzero's int64 (token, slot) pair, the down output and the
        // cast weight (for the multiply) and the weighted output (index_add's backward names it).
        ops.elementwise("experts combine", OpKind::Elementwise, moeL, T * perToken * d, 2, 2, 1, 0,
                        {full || !pytorch ? 0 : whole(routedRows * (2 * kInt64 + 2 * B * d + B)), 0});
        if (in.sharedExperts > 0)
            mlp("shared experts up", "shared experts activation", "shared experts down", moeL, T, sb,
                in.sharedExperts * in.expertDff, 1, 0);  // they read the norm's output, kept once above
        if (denseL > 0)
            mlp(llama ? "dense MLP gate + up" : "dense MLP up", llama ? "dense SwiGLU" : "dense GELU", "dense MLP down",
                denseL, T, sb, ff, 1, inputSaved);
    } else if (llama) {
        mlp("MLP gate + up", "SwiGLU", "MLP down", L, T, sb, ff, 1, inputSaved);
    } else {
        mlp("MLP up", "GELU", "MLP down", L, T, sb, ff, 1, inputSaved);
    }
    const std::size_t layerOpsEnd = out.size();

    ops.region = Region::Head;
    if (in.lastStage) {
        // The final norm's and the LM head's inputs (Korthikanti Section 4.3: 2sbh each; the
        // reference keeps the norm's own tensors too), the fp32 logits or their log-softmax, and
        // the reference's int64 targets and nll_loss's total weight.
        ops.elementwise(llama ? "RMSNorm (final)" : "LayerNorm (final)", OpKind::Normalization, 1,
                        replicatedTokens * d, normFlops, 1, 1, normParamBytes,
                        {whole(pytorch ? pytorchNorm : B * sb * d), normParams});
        ops.matmul("LM head", 1, T, d, V / tp, {whole(B * sb * d), in.headHasOwnTable ? V * d / tp : 0});
        ops.elementwise("cross-entropy loss", OpKind::Loss, 1, T * V / tp, kCrossEntropyFlops, 1, 1, 0,
                        {split(F * sb * V) + (pytorch ? whole(kInt64 * sb + F) : 0), 0});
    }

    // Narayanan et al. 2021, eq. 3: full recompute runs every block's forward again (not the
    // LM head: checkpoints wrap the blocks). Korthikanti et al. 2022, Appendix A: selective
    // reruns QK^T, the softmax and attention over V; FlashAttention already keeps no scores.
    ops.region = Region::Block;
    for (std::size_t i = layerOpsBegin; i < layerOpsEnd; ++i) {
        const WorkloadOp op = out[i];  // a copy: push_back may reallocate
        if (op.phase != Phase::Forward)
            continue;
        const bool attentionCore = op.kind == OpKind::Attention && !in.flash;
        if (full || (in.recompute == Recompute::Selective && attentionCore))
            ops.add(op.name, Phase::Recompute, op.kind, op.count, op.flops, op.matmulFlops, op.bytes);
    }

    if (in.lastStage && in.mtpDepth > 0) {
        // DeepSeek-V3 Section 2.2 (HF layer 61): each multi-token prediction module normalises the
        // next tokens' embeddings and the hidden states (enorm, hnorm), projects their 2d-wide
        // concatenation to d (eh_proj), runs one more block (built below as the model's own,
        // recompute included) and the shared head after its own norm, with a loss of its own.
        // Beside the head on the last stage, as Megatron-LM places it.
        ops.region = Region::Head;
        const double depth = in.mtpDepth;
        ops.elementwise("MTP norms (enorm, hnorm)", OpKind::Normalization, 2 * depth, replicatedTokens * d, normFlops, 1,
                        1, normParamBytes, {normSaved, normParams});
        ops.matmul("MTP projection (eh_proj)", depth, T, 2 * d, d / tp, {whole(2 * B * sb * d), 2 * d * d / tp});
        ops.elementwise("MTP head norm", OpKind::Normalization, depth, replicatedTokens * d, normFlops, 1, 1,
                        normParamBytes, {normSaved, normParams});
        ops.matmul("MTP head (shared)", depth, T, d, V / tp, {whole(B * sb * d), 0});
        ops.elementwise("MTP loss", OpKind::Loss, depth, T * V / tp, kCrossEntropyFlops, 1, 1, 0,
                        {split(F * sb * V) + (pytorch ? whole(kInt64 * sb + F) : 0), 0});
        WorkloadInput block = in;
        block.layers = depth;
        block.denseLayers = 0;  // the model's last kind of block (DeepSeek-V3: a MoE block)
        block.firstStage = false;
        block.lastStage = false;
        block.optimizerParams = 0;
        block.mtpDepth = 0;
        thread_local std::vector<WorkloadOp> blockOps;
        buildWorkload(block, blockOps);
        for (WorkloadOp op : blockOps) {
            if (op.region != Region::Block)
                continue;  // its empty optimizer step
            op.region = Region::Head;
            out.push_back(op);
        }
    }

    // One optimizer update over this GPU's shard: reads and writes the optimizer state, reads
    // the grad, writes the compute copy of the weights.
    ops.region = Region::Step;
    const double p = in.optimizerParams;
    ops.add(in.optimizerFlopsPerParam == 15 ? "AdamW step" : "SGD step", Phase::Optimizer, OpKind::Optimizer, 1,
            p * in.optimizerFlopsPerParam, 0, p * (2 * in.optimizerBytes + in.gradBytes + w));
}

WorkloadSums sumWorkload(const std::vector<WorkloadOp> &ops)
{
    WorkloadSums sums;
    for (const WorkloadOp &op : ops) {
        if (op.phase != Phase::Forward)
            continue;
        switch (op.region) {
        case Region::Block:
            sums.savedPerBlock += op.count * op.savedBytes;
            sums.paramsPerBlock += op.count * op.params;
            if (op.expert)
                sums.expertParamsPerBlock += op.count * op.params;
            break;
        case Region::Embedding:
            sums.savedEmbedding += op.count * op.savedBytes;
            sums.paramsEmbedding += op.count * op.params;
            break;
        case Region::Head:
            sums.savedHead += op.count * op.savedBytes;
            sums.paramsHead += op.count * op.params;
            if (op.expert)
                sums.expertParamsHead += op.count * op.params;
            break;
        case Region::Step: break;
        }
    }
    return sums;
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
