#pragma once

#include "scenario.h"

#include <cstdint>

namespace napkin {

/// Parameters of one transformer block, by component.
struct LayerParams {
    std::int64_t attention = 0;  ///< Q, K, V and output projections (+ biases for gpt2)
    std::int64_t mlp = 0;        ///< up (and gate) and down projections (+ biases for gpt2)
    std::int64_t norms = 0;      ///< the two pre-norms
    std::int64_t total() const { return attention + mlp + norms; }
};

/// Where a model's parameters live. `nonEmbedding` is Kaplan et al. 2020's N.
struct ParamBreakdown {
    std::int64_t total = 0;
    std::int64_t embedding = 0;     ///< token table + learned position table
    std::int64_t lmHead = 0;        ///< 0 when tied to the token table
    std::int64_t nonEmbedding = 0;  ///< total - embedding - lmHead
    std::int64_t finalNorm = 0;
    LayerParams perLayer;
};

/// Width of the K and V projections: kv_heads * (d_model / heads) (Ainslie et al. 2023, GQA).
std::int64_t kvWidth(const ModelShape &m);

/// Counts parameters exactly as the reference implementations lay them out:
/// gpt2 = HF GPT2LMHeadModel (Conv1D with bias, LayerNorm weight+bias, tied head);
/// llama = HF LlamaForCausalLM (no biases, RMSNorm weight only, SwiGLU, untied head).
ParamBreakdown countParams(const ModelShape &m);

/// The breakdown Napkin uses for a scenario: the shape's count, or the direct count from
/// `paramsOverride` (then total = non-embedding = N, as in the source document).
ParamBreakdown scenarioParams(const Scenario &s);

} // namespace napkin
