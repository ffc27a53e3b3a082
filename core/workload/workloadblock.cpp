// One transformer block's ops for buildWorkload: attention, its output and residuals, the MLP
// or Mixture-of-Experts. The embedding, head, recompute and optimizer sides are in workload.cpp.
#include "core/workload/workloadbuilder.h"

#include <algorithm>

namespace napkin {

void WorkloadBuilder::attentionProjections()
{
    ops.region = Region::Block;
    // Full recompute keeps only each block's input, here on its first norm.
    ops.module = RecomputeModule::Norm;
    ops.elementwise(llama ? "RMSNorm (attention)" : "LayerNorm (attention)", OpKind::Normalization, L,
                    replicatedTokens * d, normFlops, 1, 1, normParamBytes,
                    {full ? whole(B * sb * d) : normSaved, normParams});
    ops.module = RecomputeModule::None;
    if (in.kvLoraRank > 0) {
        latentAttentionProjections();
    } else {
        // Transformer Engine's LayerNormLinear: the norm measures its output's amax.
        ops.amaxFusedInput = true;
        ops.matmul("QKV projection", L, T, d, (qw + 2 * kv) / tp,
                   {inputSaved, d * (qw + 2 * kv) / tp + (biased ? (qw + 2 * kv) / tp : 0)});  // MLA has none
        ops.amaxFusedInput = false;
    }
    if (in.qkNorm) {
        // Qwen3: an RMSNorm over each head's queries and keys, a head_dim weight each,
        // replicated on every TP rank; it keeps its inputs, as the block norms do.
        const double headDim = qw / in.heads;
        ops.elementwise("RMSNorm (Q, K)", OpKind::Normalization, L, T * (qw + kv) / tp, kRmsNormFlops, 1, 1,
                        2 * headDim * w, {full ? 0 : split(B * sb * (qw + kv)), 2 * headDim});
    }
    if (llama) {
        // Rotary position embedding (Su et al. 2021, eq. 34): each query and key element becomes
        // x cos + rotate(x) sin, 3 FLOPs, read and written once; its backward rotates the
        // gradients the other way. The cos/sin tables are small and shared, and nothing else is
        // kept. MLA rotates only its decoupled RoPE part: each head's share of the queries
        // (split by TP) and the one shared RoPE key (whole on every TP rank).
        // MLA's RoPE belongs to its up projections' module (mla_up_proj reruns both).
        const double rotated = in.kvLoraRank > 0 ? T * in.heads * in.qkRopeDim / tp + replicatedTokens * in.qkRopeDim
                                                 : T * (qw + kv) / tp;
        ops.module = in.kvLoraRank > 0 ? RecomputeModule::MlaUpProjection : RecomputeModule::None;
        ops.elementwise("RoPE (Q, K)", OpKind::Elementwise, L, rotated, kRopeFlops, 1, 1);
        ops.module = RecomputeModule::None;
    }
}

void WorkloadBuilder::latentAttentionProjections()
{
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
        ops.module = RecomputeModule::MlaUpProjection;
        ops.matmul("Q up projection", L, T, qr, qw / tp, {full ? 0 : whole(B * sb * qr), qr * qw / tp});
        ops.module = RecomputeModule::None;
    } else {
        // Without a Q latent, mla_up_proj reruns the whole Q projection from the norm's output.
        ops.module = RecomputeModule::MlaUpProjection;
        ops.matmul("Q projection", L, T, d, qw / tp, {inputSaved, d * qw / tp});
        ops.module = RecomputeModule::None;
    }
    ops.matmul("KV down projection", L, replicatedTokens, d, kvr + rope, {0, d * (kvr + rope)});
    ops.elementwise("RMSNorm (KV latent)", OpKind::Normalization, L, replicatedTokens * kvr, kRmsNormFlops, 1, 1,
                    kvr * w, {latentNorm(kvr, rope), kvr});
    ops.module = RecomputeModule::MlaUpProjection;
    ops.matmul("KV up projection", L, T, kvr, (in.keyNopeWidth + vw) / tp,
               {full ? 0 : whole(B * sb * kvr), kvr * (in.keyNopeWidth + vw) / tp});
    ops.module = RecomputeModule::None;
}

void WorkloadBuilder::attentionCore()
{
    ops.region = Region::Block;
    // Selective recompute's attention core (Megatron-Core's core_attn: Attention.
    // _checkpointed_attention_forward) reruns whatever kernels compute it, FlashAttention's too.
    ops.module = RecomputeModule::CoreAttention;
    // Q and K for QK^T, V for attention over V: at their own widths (Korthikanti, with grouped
    // K/V), or expanded to every query head (the reference decoders).
    // Recomputing MLA's up projections drops the queries, keys and values they made.
    const bool qkvDropped = full || (in.recomputeMlaUpProjection && in.kvLoraRank > 0);
    const double qkSaved = qkvDropped ? 0 : split(pytorch ? 2 * B * sb * qw : B * sb * (qw + kw));
    const double vSaved = qkvDropped ? 0 : split(pytorch ? B * sb * ow : B * sb * vw);
    if (in.flash) {
        // Dao et al. 2022: scores, softmax and PV fused; reads Q, K, V once, writes O and the
        // fp32 log-sum-exp, which it keeps. The backward recomputes QK^T (forward 4, backward 10
        // matmul terms). Its dropout mask is regenerated, never stored.
        const double io = (T * (qw + kw + vw) * a + T * ow * a) / tp;
        const double lse = b * headsHere * (sq / in.cp) * kFp32;
        const double model = 2 * b * scoreEntries * (qw + ow) / tp;
        const double lseSaved = scoresKept ? split(F * in.heads * sb) : 0;
        ops.fusedAttention = true;
        // Its shape, for its measured speed: one head's query width, and the queries of one
        // kernel (a CP rank's s / cp, each ring step a block of them against as many keys).
        ops.attentionHeadDim = in.queryWidth / in.heads;
        ops.attentionLength = sq / in.cp;
        ops.add("FlashAttention", Phase::Forward, OpKind::Attention, L, model + kSoftmaxFlops * scores, model, io + lse,
                {qkSaved + vSaved + lseSaved, 0});
        ops.add("FlashAttention", Phase::Backward, OpKind::Attention, L,
                2.5 * model + 2 * kSoftmaxFlops * scores, 2 * model, 2 * io + T * ow * a / tp + lse);
        ops.fusedAttention = false;
        if (in.cp > 1)
            contextParallelMerges();
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
        // Its backward is two GEMMs, dQ = dS K and dK = dS^T Q, and each reads dS.
        ops.add("attention scores QK^T", Phase::Backward, OpKind::Attention, L, 2 * qk, 2 * qk,
                2 * scores * a + 2 * (q + k) + q + k);
        if (L > 0)
            out.back().launches = 2;
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
        // Its backward too: dP = dO V^T and dV = P^T dO.
        ops.add("attention x V", Phase::Backward, OpKind::Attention, L, 2 * pv, 2 * pv, 2 * scores * a + 2 * v + 2 * o);
        if (L > 0)
            out.back().launches = 2;
    }
    ops.module = RecomputeModule::None;
}

void WorkloadBuilder::contextParallelMerges()
{
    // Ring attention as Transformer Engine runs it (AttnFuncWithCPAndKVP2P, transformer_engine/
    // pytorch/attention/dot_product_attention/context_parallel.py): one attention kernel per
    // ring step, forward and backward. Forward, each step's partial output joins the running
    // one by their log-sum-exps (flash_attn_fwd_out_correction_init for the first step, a read
    // and a write; flash_attn_fwd_out_correction for each later one, two reads and a write; a
    // log-sum-exp correction kernel beside each later step). Backward, each step's dQ, dK and
    // dV are added into the running gradients (dq.add_, dk.add_, dv.add_; the first step
    // copies). Under the causal mask a later step covers half the queries (or keys) on the
    // ranks it is above the diagonal for: 3/4 of them on average.
    if (L <= 0)
        return;  // no blocks on this stage: no attention kernels to follow
    const double steps = in.cp;
    const std::size_t attention = out.size();
    out[attention - 2].launches = steps;  // the forward kernel, once per ring step
    out[attention - 1].launches = steps;  // the backward kernel
    const double later = (steps - 1) * (in.causal ? 0.75 : 1.0);
    const double o = T * in.outWidth / tp;
    const double grads = T * (in.queryWidth + in.keyWidth + in.valueWidth) / tp;
    ops.add("CP partial-output merge", Phase::Forward, OpKind::Attention, L, 4 * o * (1 + later), 0,
            o * a * (2 + 3 * later));
    out.back().launches = 2 * steps - 1;
    ops.add("CP partial-gradient sum", Phase::Backward, OpKind::Attention, L, grads * later, 0,
            grads * a * (2 + 3 * later));
    out.back().launches = 3 * steps;
}

void WorkloadBuilder::attentionOutput()
{
    ops.region = Region::Block;
    // The output projection's weight carries the heads' sink logits too (gpt-oss: one per head).
    const double outBias = gpt2 || (in.linearBias && in.kvLoraRank <= 0) ? d : 0;
    ops.matmul("output projection", L, T, ow / tp, d,
               {full ? 0 : split(B * sb * ow), ow * d / tp + outBias + (in.attentionSinks ? in.heads / tp : 0)});
    const double maskSaved = full ? 0 : whole(kMask * sb * d);
    if (in.dropout)
        ops.elementwise("residual dropout", OpKind::Elementwise, 2 * L, replicatedTokens * d, kDropoutFlops, 1, 1, 0,
                        {maskSaved, 0});
    ops.elementwise("residual add", OpKind::Elementwise, 2 * L, replicatedTokens * d, 1, 2, 1);
}

void WorkloadBuilder::blockMlp()
{
    ops.region = Region::Block;
    ops.module = RecomputeModule::Norm;
    ops.elementwise(llama ? "RMSNorm (MLP)" : "LayerNorm (MLP)", OpKind::Normalization, L, replicatedTokens * d,
                    normFlops, 1, 1, normParamBytes, {normSaved, normParams});
    ops.module = RecomputeModule::None;
    if (in.experts > 0)
        mixtureOfExperts();
    else if (llama)
        mlp("MLP gate + up", "SwiGLU", "MLP down", L, T, sb, ff, 1, inputSaved, in.tp, true);
    else
        mlp("MLP up", "GELU", "MLP down", L, T, sb, ff, 1, inputSaved, in.tp, true);
}

// One MLP over `tokensHere` tokens of this GPU (`tokensAll` over the micro-batch, for the
// saved tensors) and `width` hidden units split over `widthSplit` ranks (TP; ETP for routed
// experts): gpt2's up, GELU and down with biases, or llama's fused gate-and-up, SwiGLU and
// down. `groups` weight sets of it sit on this GPU (experts).
void WorkloadBuilder::mlp(const char *up, const char *act, const char *down, double count, double tokensHere,
                          double tokensAll, double width, double groups, double inSaved, double widthSplit,
                          bool fusedNorm, bool actRecomputed)
{
    // A dense MLP is Transformer Engine's LayerNormMLP: under FP8 current scaling its norm, its
    // activation and the activation's backward measure the amax of what they hand the GEMMs.
    // Megatron-Core's experts take permuted tokens and run their own activation: none fused.
    ops.amaxFusedInput = fusedNorm;
    ops.amaxFusedGrad = fusedNorm;
    const double ffSaved = full ? 0 : split(B * tokensAll * width);  // one width-wide tensor
    const double bias = biased ? 1 : 0;
    if (llama) {
        ops.groupedMatmul(up, count, groups, tokensHere, d, 2 * width / widthSplit,
                          {inSaved, groups * 2 * (d + bias) * width / widthSplit});
        ops.amaxFusedGrad = false;
        // The fused gate-and-up output (2 d_ff wide); the reference keeps gate, SiLU and up apart.
        ops.module = actRecomputed ? RecomputeModule::MoeActivation : RecomputeModule::None;
        ops.elementwise(act, OpKind::Elementwise, count, tokensHere * width / widthSplit, kSwigluFlops, 2, 1, 0,
                        {(pytorch ? 3 : 2) * ffSaved, 0});
    } else {
        ops.groupedMatmul(up, count, groups, tokensHere, d, width / widthSplit, {inSaved, groups * (d * width + width) / widthSplit});
        ops.amaxFusedGrad = false;
        ops.module = actRecomputed ? RecomputeModule::MoeActivation : RecomputeModule::None;
        ops.elementwise(act, OpKind::Elementwise, count, tokensHere * width / widthSplit, kGeluFlops, 1, 1, 0, {ffSaved, 0});
    }
    ops.module = RecomputeModule::None;
    // Its output, the down projection's input, unless the activation is recomputed.
    ops.groupedMatmul(down, count, groups, tokensHere, width / widthSplit, d,
                      {actRecomputed ? 0 : ffSaved, groups * (width * d / widthSplit + bias * d)});
    ops.amaxFusedInput = false;
}

void WorkloadBuilder::mixtureOfExperts()
{
    // Mixture-of-Experts (Shazeer et al. 2017; Fedus et al. 2021). The router, replicated on
    // every TP rank, scores each token against every expert (its fp32 probabilities kept for
    // the backward); each token goes to its top-k. With balanced routing the ep ranks of an
    // expert group receive T x k tokens each, padded to the capacity factor's slots, and run
    // them through their experts / ep experts (each split / etp, Megatron-Core's expert TP,
    // which defaults to TP). Shared experts run on every token like a dense MLP.
    // The first dense_layers blocks keep a dense MLP (DeepSeek-V3); the rest are MoE blocks.
    const double denseL = std::min(in.denseLayers, L);
    const double moeL = L - denseL;
    ops.highPrecision = true;  // a plain linear, outside the FP8 GEMMs (WorkloadOp::highPrecision)
    ops.matmul("router", moeL, replicatedTokens, d, in.experts,
               {inputSaved, d * in.experts + (in.routerBias ? in.experts : 0) + (in.linearBias ? in.experts : 0)});
    ops.highPrecision = false;
    // The fp32 router probabilities; the reference also keeps top-k's int64 indices.
    const double routedRows = sb * in.expertsPerToken * in.capacityFactor;  // over the micro-batch
    ops.elementwise("top-k routing", OpKind::Elementwise, moeL, replicatedTokens * in.experts, kSoftmaxFlops, 1, 1, 0,
                    {full ? 0 : whole(F * sb * in.experts + (pytorch ? kInt64 * sb * in.expertsPerToken : 0)), 0});
    // Expert rows per token: its top-k, padded to the capacity factor.
    const double perToken = in.expertsPerToken * in.capacityFactor;
    // Megatron-Core's all-to-all token dispatcher (megatron/core/transformer/moe/
    // token_dispatcher.py) gathers each token's rows into expert order before sending them
    // ("permutation 1"), and where a rank holds several experts it sorts the received chunks
    // from rank order into expert order and back again before the combine ("permutation 2",
    // sort_chunks_by_idxs): memory-bound copies of every routed row.
    const double localExperts = in.experts / in.ep;
    ops.permutation("token permute (dispatch)", moeL, T * perToken * d);
    if (in.ep > 1 && localExperts > 1)
        ops.permutation("expert chunk sort", 2 * moeL, T * perToken * in.etp / in.tp * d);
    ops.expert = true;
    // Expert TP (etp ranks, tp by default) pools the routed rows of etp TP ranks and splits each
    // expert's width over them: each rank still computes its own tokens' share.
    mlp("experts up", "experts activation", "experts down", moeL, T * perToken * in.etp / in.tp, sb * perToken,
        in.expertDff, in.experts / in.ep, full ? 0 : whole(B * sb * perToken * d), in.etp, false,
        in.recomputeMoeActivation);
    ops.expert = false;
    // Combine: each routed row's output times its routing weight, added back into its token.
    // The reference keeps, per row, nonzero's int64 (token, slot) pair, the down output and the
    // cast weight (for the multiply) and the weighted output (index_add's backward names it).
    ops.elementwise("experts combine", OpKind::Elementwise, moeL, T * perToken * d, 2, 2, 1, 0,
                    {full || !pytorch ? 0 : whole(routedRows * (2 * kInt64 + 2 * B * d + B)), 0});
    if (in.sharedExperts > 0)
        mlp("shared experts up", "shared experts activation", "shared experts down", moeL, T, sb,
            in.sharedExperts * in.expertDff, 1, 0, in.tp);  // they read the norm's output, kept once above
    if (denseL > 0)
        mlp(llama ? "dense MLP gate + up" : "dense MLP up", llama ? "dense SwiGLU" : "dense GELU", "dense MLP down",
            denseL, T, sb, ff, 1, inputSaved, in.tp, true);
}

} // namespace napkin
