#pragma once

// The closed forms the workload's saved bytes are checked against (tst_activations): Korthikanti
// et al. 2022, Table 2 and Section 4.3, generalised to d_ff, SwiGLU, grouped K/V and dropout;
// and the reference PyTorch decoders' count (tests/validation/ACTIVATION_MODEL.md). Split the
// way tensor parallelism splits them: `replicated` terms every TP rank keeps whole unless SP
// splits them too, `split` terms TP divides. Napkin itself counts from the ops (workload.cpp).
#include "core/workload/activations.h"
#include "core/model/layout.h"

namespace napkin::closedform {

struct ActivationTerms {
    double layerReplicated = 0;
    double layerSplit = 0;
    double embeddingReplicated = 0;
    double headReplicated = 0;
    double headSplit = 0;
};

inline constexpr double kFp32 = 4;
inline constexpr double kInt64 = 8;

inline ActivationTerms korthikantiActivationTerms(const Scenario &s, const Recipe &recipe, double microBatch)
{
    const ModelShape &m = s.model;
    const double sq = static_cast<double>(s.seqLen);
    const double b = microBatch;
    const double sb = sq * b;
    const double h = static_cast<double>(m.dModel);
    const double kv = static_cast<double>(m.kvHeads * (m.dModel / m.heads));
    const double f = static_cast<double>(m.dFf);
    const double heads = static_cast<double>(m.heads);
    const double v = static_cast<double>(m.vocab);
    const double B = recipe.activationBytes;
    const double drop = s.dropout ? 1 : 0;
    const double scores = heads * sq * sq * b;  // a s^2 b elements
    ActivationTerms t;
    if (s.recompute == Recompute::Full) {
        // Table 2, full recompute: only each block's input (2sbh; / t with SP).
        t.layerReplicated = B * sb * h;
    } else {
        // Section 4.1, attention block: the two norm inputs, the QKV and MLP-input projections'
        // inputs (TP keeps them whole), and the two 1-byte output dropout masks: 10sbh.
        t.layerReplicated = 4 * B * sb * h + 2 * drop * sb * h;
        // Q and K for QK^T, V, the output projection's input (4sbh + 2sbh + 2sbh at MHA) and the
        // MLP's inner tensors: GELU's input and the down projection's input (8sbh + 8sbh at
        // d_ff = 4h); SwiGLU's fused gate-and-up output (2 d_ff wide) and the down input.
        const double mlpInner = (m.arch == Arch::Llama ? 3 : 2) * B * sb * f;
        t.layerSplit = B * sb * (h + 2 * kv) + B * sb * h + mlpInner;
        if (s.recompute == Recompute::None) {
            if (s.flashAttention)
                t.layerSplit += kFp32 * heads * sb;  // Dao et al. 2022: only the fp32 log-sum-exp
            else
                t.layerSplit += scores * (B + drop * (1 + B));  // softmax out (+ dropout mask and out): 5as^2b
        }
        // Selective (Section 5): the as^2b terms are recomputed, nothing of them is kept.
    }
    // Section 4.3: embedding dropout mask (sbh); Megatron-LM also counts the int64 token ids.
    t.embeddingReplicated = kInt64 * sb + drop * sb * h;
    // Section 4.3: the final norm's and the LM head's inputs (2sbh each) and fp32 logits 4sbv.
    t.headReplicated = 2 * B * sb * h;
    t.headSplit = kFp32 * sb * v;
    return t;
}

inline ActivationTerms pytorchActivationTerms(const Scenario &s, const Recipe &recipe, double microBatch)
{
    // Every term is named in tests/validation/ACTIVATION_MODEL.md ("Every term, and which
    // autograd node saves it"); sb tokens, B activation bytes, F = 4 for what runs in fp32.
    const bool llama = s.model.arch == Arch::Llama;
    const double sb = static_cast<double>(s.seqLen) * microBatch;
    const double d = static_cast<double>(s.model.dModel);
    const double f = static_cast<double>(s.model.dFf);
    const double a = static_cast<double>(s.model.heads);
    const double V = static_cast<double>(s.model.vocab);
    const double B = recipe.activationBytes;
    const double F = kFp32;
    const double drop = s.dropout && !s.flashAttention ? 1 : 0;  // FlashAttention regenerates its mask
    const double residualDrop = s.dropout ? 1 : 0;
    const double scores = a * static_cast<double>(s.seqLen) * sb;  // a s^2 b

    // LayerNorm keeps its input and fp32 mean/rstd (CUDA kernel); RMSNorm as Meta writes it keeps
    // x.float(), rsqrt(mean(x^2)) and the normalised tensor cast back.
    const double norm = llama ? F * sb * d + F * sb + B * sb * d : B * sb * d + 2 * F * sb;

    ActivationTerms t;
    if (s.recompute == Recompute::Full) {
        t.layerReplicated = B * sb * d;  // the checkpoint's input
    } else {
        t.layerReplicated = 2 * norm + 2 * B * sb * d    // two norms and their outputs (projection inputs)
                            + 2 * residualDrop * sb * d;  // residual dropout masks
        t.layerSplit = 3 * B * sb * d                     // q, and k and v expanded to every query head
                       + B * sb * d;                      // attention context = output projection input
        t.layerSplit += llama ? 4 * B * sb * f            // SwiGLU: gate, SiLU, up, SiLU x up
                              : 2 * B * sb * f;           // GELU input and output
        if (s.recompute == Recompute::None) {
            if (s.flashAttention)
                t.layerSplit += F * scores / static_cast<double>(s.seqLen);  // log-sum-exp, 4asb
            else if (!llama)
                t.layerSplit += scores * (B + drop * (1 + B));  // softmax out (+ dropout mask and out)
            else if (drop > 0)
                t.layerSplit += scores * (F + 1 + B);            // fp32 softmax, mask, dropout out
            else
                t.layerSplit += scores * (B == F ? F : F + B);   // fp32 softmax (+ its cast to B)
        }
    }

    t.embeddingReplicated = kInt64 * sb              // token ids
                            + residualDrop * sb * d;  // embedding dropout mask
    if (llama && s.recompute != Recompute::Full)
        t.embeddingReplicated += 2 * static_cast<double>(s.seqLen) * (d / a) * B;  // RoPE cos/sin, shared by all blocks
    t.headReplicated = norm                          // final norm
                       + B * sb * d                  // LM head input
                       + kInt64 * sb + F;            // targets and nll_loss total_weight
    t.headSplit = F * sb * V;                        // log-softmax of the fp32 logits
    return t;
}

inline ActivationTerms activationTerms(const Scenario &s, const Recipe &recipe, double microBatch)
{
    if (!s.includeActivations)
        return {};
    return s.activationModel == ActivationModel::PyTorch ? pytorchActivationTerms(s, recipe, microBatch)
                                                         : korthikantiActivationTerms(s, recipe, microBatch);
}

inline ActivationBreakdown onDevice(const ActivationTerms &t, const Layout &layout, std::int64_t layers)
{
    const double tp = static_cast<double>(layout.tp);
    const double cp = static_cast<double>(layout.cp);
    const double rep = layout.sp ? tp : 1;
    ActivationBreakdown a;
    a.perLayer = (t.layerReplicated / rep + t.layerSplit / tp) / cp;
    a.layers = a.perLayer * static_cast<double>(layers);
    a.embedding = t.embeddingReplicated / rep / cp;
    a.head = (t.headReplicated / rep + t.headSplit / tp) / cp;
    a.outputLayer = a.embedding + a.head;
    return a;
}

} // namespace napkin::closedform
