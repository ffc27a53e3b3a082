#include "core/workload/flops.h"

#include "core/model/layout.h"
#include "core/model/modelshape.h"

#include <algorithm>

namespace napkin {

ForwardMatmulFlops forwardMatmulFlops(const ModelShape &m, double seqLen, bool causal)
{
    const double s = seqLen;
    const double d = static_cast<double>(m.dModel);
    const double kv = static_cast<double>(kvWidth(m));
    const double q = static_cast<double>(queryWidth(m));
    const double ff = static_cast<double>(m.dFf);
    const double L = static_cast<double>(m.layers);
    // Causal halving counts s(s+1)/2 of the s^2 score entries; the convention most
    // published MFU figures use is the full s^2 (Narayanan et al. 2021, Chowdhery et al. 2022).
    // Windowed blocks score s x w (attentionPairs), the work a windowed kernel does.
    const double pairs = attentionPairs(m, s, causal);
    ForwardMatmulFlops f;
    const AttentionWidths a = attentionWidths(m);
    f.qkv = L * 2 * s * d * (q + 2 * kv);
    if (m.mla()) {
        // Multi-head latent attention: every projection into and out of the two latents
        // (their norms' weights aside), as the parameters count them.
        const double qr = static_cast<double>(m.qLoraRank);
        const double kvr = static_cast<double>(m.kvLoraRank);
        const double rope = static_cast<double>(m.qkRopeDim);
        const double kUp = static_cast<double>(m.heads * headWidth(m));
        const double query = qr > 0 ? d * qr + qr * static_cast<double>(a.q) : d * static_cast<double>(a.q);
        f.qkv = L * 2 * s * (query + d * (kvr + rope) + kvr * (kUp + static_cast<double>(a.v)));
        f.latentUp = L * 2 * s * ((qr > 0 ? qr : d) * static_cast<double>(a.q) + kvr * (kUp + static_cast<double>(a.v)));
    }
    f.attentionScores = 2 * pairs * static_cast<double>(a.q);   // heads x (s x d_qk)(d_qk x s), every block
    f.attentionValues = 2 * pairs * static_cast<double>(a.out); // heads x (s x s)(s x d_v)
    f.outputProjection = L * 2 * s * static_cast<double>(a.out) * d;
    // gpt2: up and down (2 matmuls of d x d_ff); llama SwiGLU: gate, up and down (3).
    const double projections = m.arch == Arch::Llama ? 3 : 2;
    f.mlp = L * projections * 2 * s * d * ff;
    if (m.moe()) {
        // The router (d x experts) and, per token, its top-k routed experts and the shared
        // ones: the model's FLOPs, without the capacity factor's padding slots.
        // The first dense_layers blocks keep their dense MLP (DeepSeek-V3).
        const double through = static_cast<double>(m.expertsPerToken + m.sharedExperts);
        const double dense = static_cast<double>(std::min(m.denseLayers, m.layers));
        f.mlp = (L - dense) * (2 * s * d * static_cast<double>(m.experts)
                               + through * projections * 2 * s * d * static_cast<double>(expertWidth(m)))
                + dense * projections * 2 * s * d * ff;
    }
    f.lmHead = 2 * s * d * static_cast<double>(m.vocab);
    return f;
}

double FlopsReport::trainingChosenDetailed() const
{
    return causal ? trainingDetailedCausal : trainingDetailed;
}

FlopsReport computeFlops(const Scenario &s)
{
    FlopsReport r;
    const double n = static_cast<double>(scenarioParams(s).activeNonEmbedding);
    const double seq = static_cast<double>(s.seqLen);
    // Kaplan et al. 2020, Section 2.1: C = 6 N per training token (2N forward + 4N backward),
    // N the non-embedding parameters a token runs through: for Mixture-of-Experts the active
    // ones (the router, top-k and shared experts), as DeepSeek-V3 activates 37B of its 671B per token (DeepSeek-AI 2024).
    r.perToken6nd = 6 * n;
    r.training6nd = r.perToken6nd * s.tokens;

    const ForwardMatmulFlops full = forwardMatmulFlops(s.model, seq, false);
    const ForwardMatmulFlops half = forwardMatmulFlops(s.model, seq, true);
    // Backward = 2 x forward (dL/dX and dL/dW are each a matmul the size of the forward one).
    r.trainingDetailed = 3 * full.total() / seq * s.tokens;
    r.trainingDetailedCausal = 3 * half.total() / seq * s.tokens;
    r.causal = s.causalHalving;
    r.forwardPerSequence = s.causalHalving ? half : full;
    r.perTokenDetailed = 3 * r.forwardPerSequence.total() / seq;
    // The global batch: micro-batch x DP x micro-batches (batch x gpus with one micro-batch
    // per data-parallel GPU and no model parallelism).
    const std::int64_t dp = s.gpus / (s.tp * s.pp * s.cp);
    r.tokensPerStep = static_cast<double>(s.globalBatch.value_or(s.microBatch * dp)) * seq;
    r.perStepDetailed = r.perTokenDetailed * r.tokensPerStep;
    const ForwardMatmulFlops &f = r.forwardPerSequence;
    double recomputed = 0;  // per sequence
    // Narayanan et al. 2021, eq. 3: full recompute is 96Bslh^2(1 + s/6h + V/16lh), one more
    // forward of every block but not of the LM head (checkpoints wrap the blocks).
    if (s.recompute == Recompute::Full)
        recomputed = f.total() - f.lmHead;
    // Korthikanti et al. 2022, Appendix A text: selective adds one forward QK^T and one
    // attention over V (2Bs^2h each). Their eq. 8 writes 1 + s/3h, three times that; we follow
    // the text. Megatron-Core reruns the attention core so under FlashAttention too (its
    // checkpointed core attention), and its mla_up_proj module the latent up projections; its
    // other modules (norms, the experts' activation) run no matmul.
    else if (s.recompute == Recompute::Selective) {
        if (s.recomputeCoreAttention)
            recomputed += f.attentionScores + f.attentionValues;
        if (s.recomputeMlaUpProjection)
            recomputed += f.latentUp;
    }
    r.recompute = recomputed / seq * s.tokens;
    r.trainingHardware = r.trainingChosenDetailed() + r.recompute;
    r.attentionShare = (f.attentionScores + f.attentionValues) / f.total();
    if (s.model.mtpDepth > 0 && !s.paramsOverride) {
        // DeepSeek-V3 Section 2.2: each module projects [norm(h); norm(emb)] (2d -> d), runs one
        // block and the shared head on every token.
        ModelShape one = s.model;
        one.layers = 1;
        one.denseLayers = 0;
        const ForwardMatmulFlops block = forwardMatmulFlops(one, seq, s.causalHalving);
        const double d = static_cast<double>(s.model.dModel);
        const double perSequence = block.total() + 2 * seq * 2 * d * d;  // block + head + projection
        r.perTokenMtp = static_cast<double>(s.model.mtpDepth) * 3 * perSequence / seq;
        r.trainingMtp = r.perTokenMtp * s.tokens;
    }
    return r;
}

} // namespace napkin
