#pragma once

#include <QStringList>

#include "core/model/scenario.h"

#include <cstdint>

namespace napkin {

/// Parameters of one transformer block, by component.
struct LayerParams {
    std::int64_t attention = 0;  ///< Q, K, V and output projections (+ biases for gpt2)
    std::int64_t mlp = 0;        ///< up (and gate) and down projections (+ biases for gpt2); MoE: every expert, the router
    std::int64_t norms = 0;      ///< the two pre-norms
    /// Of `mlp`, what one token runs through: the router, its top-k experts and the shared ones.
    std::int64_t mlpActive = 0;
    std::int64_t router = 0;          ///< MoE: the router's d_model x experts
    std::int64_t routedExperts = 0;   ///< MoE: every routed expert (what expert parallelism splits)
    std::int64_t total() const { return attention + mlp + norms; }
    std::int64_t active() const { return attention + mlpActive + norms; }
};

/// Where a model's parameters live. `nonEmbedding` is Kaplan et al. 2020's N.
struct ParamBreakdown {
    std::int64_t total = 0;
    std::int64_t embedding = 0;     ///< token table + learned position table
    std::int64_t lmHead = 0;        ///< 0 when tied to the token table
    std::int64_t nonEmbedding = 0;  ///< total - embedding - lmHead
    /// What one token runs through (a dense model: the total). Mixture-of-Experts counts the
    /// router, the top-k routed experts and the shared experts of each block.
    std::int64_t active = 0;
    std::int64_t activeNonEmbedding = 0;  ///< active - embedding - lmHead: the N of 6ND
    /// Multi-token prediction modules, apart from `total` (DeepSeek-V3: 671B main + MTP): per
    /// module two d-wide norms, the 2d x d projection, one block and the shared head's norm;
    /// the embedding and the LM head are the main model's.
    std::int64_t mtp = 0;
    std::int64_t mtpActive = 0;           ///< what a token runs through in them
    std::int64_t finalNorm = 0;
    LayerParams perLayer;       ///< one block (Mixture-of-Experts: a MoE block)
    LayerParams denseLayer;     ///< Mixture-of-Experts with dense_layers: one of its dense blocks
};

/// Width of one head: head_dim, or d_model / heads when it is 0.
std::int64_t headWidth(const ModelShape &m);
/// Width of the query projection (and the attention output): heads * head_dim.
std::int64_t queryWidth(const ModelShape &m);
/// Width of the K and V projections: kv_heads * head_dim (Ainslie et al. 2023, GQA).
std::int64_t kvWidth(const ModelShape &m);

/// The attention's widths over all heads: queries and keys (what QK^T contracts), values and
/// the attention output. Multi-head latent attention: heads x (head_dim + qk_rope_dim) for Q
/// and K, heads x v_head_dim for V and the output; otherwise queryWidth(), kvWidth(),
/// kvWidth() and queryWidth().
struct AttentionWidths {
    std::int64_t q = 0, k = 0, v = 0, out = 0;
};
AttentionWidths attentionWidths(const ModelShape &m);

/// Width of one routed expert's MLP: expert_d_ff, or d_ff when it is 0.
std::int64_t expertWidth(const ModelShape &m);

/// The shape's switches beyond the family, heads, widths and experts, one phrase each, for
/// the report and the window: "head_dim 128", "QK-norm", "linear biases", "attention sinks",
/// "sliding window 128 (every 2nd block full)", "latent attention (q 1536, kv 512, RoPE 64)",
/// "router bias", "MTP 1". Empty for a plain GPT-2 or Llama shape.
QStringList shapeSwitches(const ModelShape &m);

/// Query-key pairs one head scores per sequence of `seqLen`, summed over the model's blocks:
/// s^2 per full-attention block (s(s+1)/2 causal-halved), s x min(w, s) per windowed one
/// (causal-halved: each query sees min(i + 1, w) keys). Divided by layers, the per-block
/// average that the per-device workload applies to every block of a stage.
double attentionPairs(const ModelShape &m, double seqLen, bool causal);

/// Counts parameters exactly as the reference implementations lay them out:
/// gpt2 = HF GPT2LMHeadModel (Conv1D with bias, LayerNorm weight+bias, tied head);
/// llama = HF LlamaForCausalLM (no biases, RMSNorm weight only, SwiGLU, untied head);
/// llama with experts = HF MixtralForCausalLM (a bias-free router, SwiGLU experts), with
/// shared experts as DeepSeek-V3 adds them (each one more SwiGLU of the expert width).
ParamBreakdown countParams(const ModelShape &m);

/// The breakdown Napkin uses for a scenario: the shape's count, or the direct count from
/// `paramsOverride` (then total = non-embedding = N, as in the source document).
ParamBreakdown scenarioParams(const Scenario &s);

} // namespace napkin
