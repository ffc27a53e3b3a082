#include "core/model/modelshape.h"

#include <cmath>

#include <algorithm>

namespace napkin {

std::int64_t headWidth(const ModelShape &m)
{
    return m.headDim > 0 ? m.headDim : m.dModel / m.heads;
}

std::int64_t queryWidth(const ModelShape &m)
{
    return m.heads * headWidth(m);
}

std::int64_t kvWidth(const ModelShape &m)
{
    return m.kvHeads * headWidth(m);
}

std::int64_t expertWidth(const ModelShape &m)
{
    return m.expertDff > 0 ? m.expertDff : m.dFf;
}

AttentionWidths attentionWidths(const ModelShape &m)
{
    if (!m.mla())
        return {queryWidth(m), kvWidth(m), kvWidth(m), queryWidth(m)};
    const std::int64_t v = m.vHeadDim > 0 ? m.vHeadDim : headWidth(m);
    const std::int64_t qk = m.heads * (headWidth(m) + m.qkRopeDim);
    return {qk, qk, m.heads * v, m.heads * v};
}

QStringList shapeSwitches(const ModelShape &m)
{
    QStringList out;
    if (m.headDim > 0 && m.headDim * m.heads != m.dModel)
        out << QStringLiteral("head_dim %1").arg(m.headDim);
    if (m.qkNorm)
        out << QStringLiteral("QK-norm");
    if (m.arch == Arch::Llama && m.linearBias)
        out << QStringLiteral("linear biases");
    if (m.attentionSinks)
        out << QStringLiteral("attention sinks");
    if (m.slidingWindow > 0)
        out << (m.globalEvery > 0 ? QStringLiteral("sliding window %1 (every %2 block full)")
                                        .arg(m.slidingWindow)
                                        .arg(m.globalEvery == 2 ? QStringLiteral("2nd") : QStringLiteral("%1th").arg(m.globalEvery))
                                  : QStringLiteral("sliding window %1 on every block").arg(m.slidingWindow));
    if (m.mla()) {
        const QString q = m.qLoraRank > 0 ? QStringLiteral("q %1, ").arg(m.qLoraRank) : QString();
        out << QStringLiteral("latent attention (%1kv %2, RoPE %3)").arg(q).arg(m.kvLoraRank).arg(m.qkRopeDim);
    }
    if (m.moe() && m.routerBias)
        out << QStringLiteral("router bias");
    if (m.mtpDepth > 0)
        out << QStringLiteral("MTP %1").arg(m.mtpDepth);
    return out;
}

double attentionPairs(const ModelShape &m, double seqLen, bool causal)
{
    const double s = seqLen;
    const double full = causal ? s * (s + 1) / 2 : s * s;
    const double L = static_cast<double>(m.layers);
    const double w = static_cast<double>(m.slidingWindow);
    if (m.slidingWindow <= 0 || w >= s)
        return L * full;
    // Blocks globalEvery, 2 x globalEvery, ... (1-based) keep full attention (HF layer_types).
    const double global = m.globalEvery > 0 ? std::floor(L / static_cast<double>(m.globalEvery)) : 0;
    const double windowed = causal ? w * (w + 1) / 2 + (s - w) * w : s * w;
    return global * full + (L - global) * windowed;
}

namespace {

/// GPT-2's blocks, embedding and final norm (HF GPT2LMHeadModel).
void countGpt2(const ModelShape &m, ParamBreakdown &p)
{
    const std::int64_t d = m.dModel;
    const std::int64_t kv = kvWidth(m);
    const std::int64_t q = queryWidth(m);
    // GPT-2: every Linear/Conv1D carries a bias; LayerNorm has weight and bias.
    p.perLayer.attention = (d * (q + 2 * kv) + (q + 2 * kv)) + (q * d + d);
    p.perLayer.mlp = (d * m.dFf + m.dFf) + (m.dFf * d + d);
    p.denseLayer = p.perLayer;
    if (m.moe()) {
        // GELU experts with their biases, and a router without one.
        const std::int64_t ff = expertWidth(m);
        const std::int64_t expert = (d * ff + ff) + (ff * d + d);
        p.perLayer.router = d * m.experts;
        p.perLayer.routedExperts = m.experts * expert;
        p.perLayer.mlp = p.perLayer.router + p.perLayer.routedExperts + m.sharedExperts * expert;
        p.perLayer.mlpActive = p.perLayer.router + (m.expertsPerToken + m.sharedExperts) * expert;
    }
    p.perLayer.norms = 2 * (2 * d);
    p.finalNorm = 2 * d;
    p.embedding = m.vocab * d + m.maxPositions * d;
}

/// LLaMA-family blocks, embedding and final norm (HF LlamaForCausalLM), with MLA and MoE.
void countLlama(const ModelShape &m, ParamBreakdown &p)
{
    const std::int64_t d = m.dModel;
    const std::int64_t kv = kvWidth(m);
    const std::int64_t q = queryWidth(m);
    // LLaMA (Touvron et al. 2023): rotary positions, no biases, RMSNorm weight only,
    // SwiGLU MLP with gate, up and down projections (Shazeer 2020).
    p.perLayer.attention = d * q + 2 * d * kv + q * d;
    if (m.mla()) {
        // DeepSeek-V2/V3 (HF DeepseekV3Attention): Q through a q_lora_rank latent with its
        // RMSNorm (or one full-rank projection), K/V through a kv_lora_rank latent plus the
        // shared RoPE key, with its RMSNorm, up to every head's K (no-RoPE part) and V.
        const AttentionWidths a = attentionWidths(m);
        const std::int64_t rope = m.qkRopeDim;
        const std::int64_t kUp = m.heads * headWidth(m);
        const std::int64_t query = m.qLoraRank > 0 ? d * m.qLoraRank + m.qLoraRank + m.qLoraRank * a.q : d * a.q;
        p.perLayer.attention = query + d * (m.kvLoraRank + rope) + m.kvLoraRank
                               + m.kvLoraRank * (kUp + a.v) + a.out * d;
    }
    p.perLayer.mlp = 3 * d * m.dFf;
    p.denseLayer = p.perLayer;
    if (m.moe()) {
        const std::int64_t expert = 3 * d * expertWidth(m);
        p.perLayer.router = d * m.experts;
        p.perLayer.routedExperts = m.experts * expert;
        p.perLayer.mlp = p.perLayer.router + p.perLayer.routedExperts + m.sharedExperts * expert;
        p.perLayer.mlpActive = p.perLayer.router + (m.expertsPerToken + m.sharedExperts) * expert;
    }
    p.perLayer.norms = 2 * d;
    p.finalNorm = d;
    p.embedding = m.vocab * d;
}

/// The switches some models add on top: linear biases, attention sinks, a router bias, QK-norm.
void countSwitches(const ModelShape &m, ParamBreakdown &p)
{
    const std::int64_t d = m.dModel;
    const std::int64_t kv = kvWidth(m);
    const std::int64_t q = queryWidth(m);
    if (m.arch == Arch::Llama && m.linearBias) {
        // gpt-oss (HF GptOssForCausalLM): q, k, v and o biases; each MLP's or expert's fused
        // gate-and-up (2 x width) and down (d) biases; the router's, one per expert.
        if (!m.mla())
            p.perLayer.attention += q + 2 * kv + d;
        p.denseLayer.mlp += 2 * m.dFf + d;
        if (m.moe()) {
            const std::int64_t expertBias = 2 * expertWidth(m) + d;
            p.perLayer.router += m.experts;
            p.perLayer.routedExperts += m.experts * expertBias;
            p.perLayer.mlp += m.experts + (m.experts + m.sharedExperts) * expertBias;
            p.perLayer.mlpActive += m.experts + (m.expertsPerToken + m.sharedExperts) * expertBias;
        } else {
            p.perLayer.mlp = p.denseLayer.mlp;
        }
    }
    if (m.attentionSinks)
        p.perLayer.attention += m.heads;  // gpt-oss: self_attn.sinks, one logit per head
    if (m.moe() && m.routerBias) {
        p.perLayer.router += m.experts;  // DeepSeek-V3's e_score_correction_bias
        p.perLayer.mlp += m.experts;
        p.perLayer.mlpActive += m.experts;
    }
    if (m.qkNorm) {
        p.perLayer.norms += 2 * headWidth(m);  // q_norm and k_norm, one head_dim weight each (Qwen3)
    }
}

} // namespace

ParamBreakdown countParams(const ModelShape &m)
{
    const std::int64_t d = m.dModel;
    ParamBreakdown p;
    if (m.arch == Arch::Gpt2)
        countGpt2(m, p);
    else
        countLlama(m, p);
    countSwitches(m, p);
    if (!m.moe())
        p.perLayer.mlpActive = p.perLayer.mlp;
    p.denseLayer.attention = p.perLayer.attention;
    p.denseLayer.norms = p.perLayer.norms;
    p.denseLayer.mlpActive = p.denseLayer.mlp;
    // Mixture-of-Experts keeps a dense MLP in its first dense_layers blocks.
    const std::int64_t dense = m.moe() ? std::min(m.denseLayers, m.layers) : 0;
    const std::int64_t blocks = (m.layers - dense) * p.perLayer.total() + dense * p.denseLayer.total();
    const std::int64_t activeBlocks = (m.layers - dense) * p.perLayer.active() + dense * p.denseLayer.active();
    p.lmHead = m.tied ? 0 : m.vocab * d;
    p.total = p.embedding + blocks + p.finalNorm + p.lmHead;
    p.nonEmbedding = p.total - p.embedding - p.lmHead;
    p.active = p.embedding + activeBlocks + p.finalNorm + p.lmHead;
    // DeepSeek-V3 (HF layer 61): enorm, hnorm, eh_proj 7168 x 14336, a MoE block, shared_head.norm.
    const std::int64_t mtpOwn = 2 * d + 2 * d * d + p.finalNorm;
    p.mtp = m.mtpDepth * (mtpOwn + p.perLayer.total());
    p.mtpActive = m.mtpDepth * (mtpOwn + p.perLayer.active());
    p.activeNonEmbedding = p.active - p.embedding - p.lmHead;
    return p;
}

ParamBreakdown scenarioParams(const Scenario &s)
{
    if (!s.paramsOverride)
        return countParams(s.model);
    ParamBreakdown p = countParams(s.model);
    p.total = *s.paramsOverride;
    p.nonEmbedding = *s.paramsOverride;
    p.active = *s.paramsOverride;
    p.activeNonEmbedding = *s.paramsOverride;
    p.embedding = 0;
    p.lmHead = 0;
    return p;
}

} // namespace napkin
