#include "core/model/fields.h"

#include "core/model/limits.h"

#include <cmath>
#include <iterator>

namespace napkin {

namespace {

QJsonValue integer(std::int64_t v)
{
    return static_cast<double>(v);
}

std::int64_t toInt(const QJsonValue &v)
{
    return static_cast<std::int64_t>(v.toDouble());
}

template <typename T>
QJsonValue optionalInteger(const std::optional<T> &v)
{
    return v ? QJsonValue(static_cast<double>(*v)) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalReal(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

std::optional<std::int64_t> toOptionalInt(const QJsonValue &v)
{
    return v.isNull() ? std::nullopt : std::optional<std::int64_t>(toInt(v));
}

std::optional<double> toOptionalReal(const QJsonValue &v)
{
    return v.isNull() ? std::nullopt : std::optional<double>(v.toDouble());
}

constexpr double kMax = limits::maxGpus;

/// The ZeRO stages as the window lists them: what each shards (Rajbhandari et al. 2019, Figure 1).
constexpr EnumEntry kZeroStageNames[] = {
    {0, "0", "0 — nothing sharded"},
    {1, "1", "1 — optimizer state"},
    {2, "2", "2 — + gradients"},
    {3, "3", "3 — + parameters"},
};
static_assert(std::size(kZeroStageNames) == limits::maxZeroStage - limits::minZeroStage + 1
                  && kZeroStageNames[0].value == limits::minZeroStage,
              "one label per ZeRO stage");

// Long by design: this is the one table that describes every field (key, option, range,
// default, help, label, topic, accessors), one entry per field, read top to bottom like a
// data file. Split across functions it would be harder to scan and to keep in --help order.
std::vector<ScenarioField> buildFields()
{
    using K = FieldKind;
    using G = FieldGroup;
    using T = FormulaTopic;
    std::vector<ScenarioField> f = {
        // The model shape, checked in this order (validateShape()).
        {"arch", "arch", nullptr, K::Choice, G::Model, 0, 0, false, false, nullptr,
         "family: gpt2 (learned positions, LayerNorm, biases, GELU, tied head) or llama (RoPE, RMSNorm, no biases, "
         "SwiGLU, untied head, GQA)",
         T::Params, "Family", "GPT-2: LayerNorm, GELU MLP, learned positions, biases. Llama: RMSNorm, SwiGLU MLP "
         "(three matrices), no biases.",
         choicesOf<kArchNames>,
         [](const Scenario &s) -> QJsonValue { return archName(s.model.arch); },
         [](Scenario &s, const QJsonValue &v) { s.model.arch = *archFromName(v.toString()); }, true},
        {"layers", "layers", nullptr, K::Integer, G::Model, 1, limits::maxLayers, false, false, "N", "transformer blocks",
         T::Params, "Layers", nullptr,
         nullptr, [](const Scenario &s) { return integer(s.model.layers); },
         [](Scenario &s, const QJsonValue &v) { s.model.layers = toInt(v); }, true},
        {"d_model", "d-model", nullptr, K::Integer, G::Model, 1, limits::maxDModel, false, false, "N", "width d_model",
         T::Params, "Width (d_model)", nullptr,
         nullptr, [](const Scenario &s) { return integer(s.model.dModel); },
         [](Scenario &s, const QJsonValue &v) { s.model.dModel = toInt(v); }, true},
        {"heads", "heads", nullptr, K::Integer, G::Model, 1, limits::maxHeads, false, false, "N",
         "attention heads (divide d_model)",
         T::Params, "Heads", "Attention heads; must divide d_model. The arrows step through the divisors.",
         nullptr, [](const Scenario &s) { return integer(s.model.heads); },
         [](Scenario &s, const QJsonValue &v) { s.model.heads = toInt(v); }, true},
        {"kv_heads", "kv-heads", nullptr, K::Integer, G::Model, 1, limits::maxHeads, false, false, "N",
         "K/V heads (divide heads; fewer is grouped-query attention)",
         T::Params, "KV heads", "Key/value heads (grouped-query attention); must divide the heads. Equal to heads "
         "is ordinary multi-head attention.",
         nullptr,
         [](const Scenario &s) { return integer(s.model.kvHeads); },
         [](Scenario &s, const QJsonValue &v) { s.model.kvHeads = toInt(v); }, true},
        {"d_ff", "d-ff", nullptr, K::Integer, G::Model, 1, limits::maxDFf, false, false, "N", "MLP width d_ff",
         T::Params, "d_ff", "Hidden width of the MLP block (d_ff); usually 4 x d_model for GPT-2",
         nullptr,
         [](const Scenario &s) { return integer(s.model.dFf); },
         [](Scenario &s, const QJsonValue &v) { s.model.dFf = toInt(v); }, true},
        {"vocab", "vocab", nullptr, K::Integer, G::Model, 1, limits::maxVocab, false, false, "N", "vocabulary size",
         T::Params, "Vocabulary", "Vocabulary size: sets the embedding and LM-head parameters and the logits memory",
         nullptr, [](const Scenario &s) { return integer(s.model.vocab); },
         [](Scenario &s, const QJsonValue &v) { s.model.vocab = toInt(v); }, true},
        {"max_positions", "max-pos", nullptr, K::Integer, G::Model, 1, limits::maxPositions, false, false, "N",
         "position table size (gpt2's learned positions bound the sequence)",
         T::Params, "Position table", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.maxPositions); },
         [](Scenario &s, const QJsonValue &v) { s.model.maxPositions = toInt(v); }, true},
        {"tied", "tied", "untied", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "the LM head shares the token embedding",
         T::Params, "Tied embeddings", "Share the token embedding with the LM head (GPT-2 does, Llama does not)",
         nullptr, [](const Scenario &s) -> QJsonValue { return s.model.tied; },
         [](Scenario &s, const QJsonValue &v) { s.model.tied = v.toBool(); }, true},
        {"head_dim", "head-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "width of one attention head; 0: d_model / heads (Qwen3 and Gemma 3 set it apart)",
         T::Params, "Head dimension", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.headDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.headDim = toInt(v); }, true},
        {"qk_norm", "qk-norm", "no-qk-norm", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "RMSNorm on each head's queries and keys (Qwen3, Gemma 3)",
         T::Params, "QK-norm", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.qkNorm; },
         [](Scenario &s, const QJsonValue &v) { s.model.qkNorm = v.toBool(); }, true},
        {"q_lora_rank", "q-lora-rank", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: the queries' low-rank width; 0: a full-rank Q projection",
         T::Params, "Q latent rank", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.qLoraRank); },
         [](Scenario &s, const QJsonValue &v) { s.model.qLoraRank = toInt(v); }, true},
        {"kv_lora_rank", "kv-lora-rank", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention (DeepSeek-V2/V3): the K/V latent's width; 0: ordinary attention",
         T::Params, "KV latent rank", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.kvLoraRank); },
         [](Scenario &s, const QJsonValue &v) { s.model.kvLoraRank = toInt(v); }, true},
        {"qk_rope_dim", "qk-rope-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: decoupled RoPE dimensions added to each head's queries and keys",
         T::Params, "RoPE dimensions", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.qkRopeDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.qkRopeDim = toInt(v); }, true},
        {"v_head_dim", "v-head-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: each head's value width; 0: head_dim",
         T::Params, "Value head width", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.vHeadDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.vHeadDim = toInt(v); }, true},
        {"experts", "experts", nullptr, K::Integer, G::Model, 0, limits::maxExperts, false, false, "N",
         "routed experts per block (Mixture-of-Experts); 0: a dense MLP of d_ff",
         T::Params, "Experts", "Mixture-of-Experts: routed expert MLPs per block (Mixtral 8, DeepSeek-V3 256); 0 is "
         "a dense MLP of d_ff",
         nullptr,
         [](const Scenario &s) { return integer(s.model.experts); },
         [](Scenario &s, const QJsonValue &v) { s.model.experts = toInt(v); }, true},
        {"experts_per_token", "top-k", nullptr, K::Integer, G::Model, 1, limits::maxExperts, false, false, "K",
         "routed experts each token goes to (at most experts)",
         T::Params, "Top-k", "Routed experts each token goes to (top-k): its compute and activations; every "
         "expert's weights are still held",
         nullptr,
         [](const Scenario &s) { return integer(s.model.expertsPerToken); },
         [](Scenario &s, const QJsonValue &v) { s.model.expertsPerToken = toInt(v); }, true},
        {"shared_experts", "shared-experts", nullptr, K::Integer, G::Model, 0, limits::maxExperts, false, false, "N",
         "experts every token goes through besides its top-k (DeepSeek-V3: 1)",
         T::Params, "Shared experts", "Experts every token goes through besides its top-k (DeepSeek-V3: 1)",
         nullptr,
         [](const Scenario &s) { return integer(s.model.sharedExperts); },
         [](Scenario &s, const QJsonValue &v) { s.model.sharedExperts = toInt(v); }, true},
        {"dense_layers", "dense-layers", nullptr, K::Integer, G::Model, 0, limits::maxLayers, false, false, "N",
         "Mixture-of-Experts: the first N blocks keep a dense MLP of d_ff (DeepSeek-V3: 3)",
         T::Params, "Dense blocks", "The first blocks keep a dense MLP of d_ff (DeepSeek-V3: 3); the rest are MoE "
         "blocks",
         nullptr,
         [](const Scenario &s) { return integer(s.model.denseLayers); },
         [](Scenario &s, const QJsonValue &v) { s.model.denseLayers = toInt(v); }, true},
        {"router_bias", "router-bias", "no-router-bias", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "Mixture-of-Experts: a bias per expert on the router (DeepSeek-V3)",
         T::Params, "Router bias", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.routerBias; },
         [](Scenario &s, const QJsonValue &v) { s.model.routerBias = v.toBool(); }, true},
        {"linear_bias", "linear-bias", "no-linear-bias", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "llama family: a bias on every linear layer of a block: attention, router, MLP and experts (gpt-oss)",
         T::Params, "Linear biases", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.linearBias; },
         [](Scenario &s, const QJsonValue &v) { s.model.linearBias = v.toBool(); }, true},
        {"attention_sinks", "attention-sinks", "no-attention-sinks", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "a learned sink logit per head in every block (gpt-oss)",
         T::Params, "Attention sinks", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.attentionSinks; },
         [](Scenario &s, const QJsonValue &v) { s.model.attentionSinks = v.toBool(); }, true},
        {"sliding_window", "sliding-window", nullptr, K::Integer, G::Model, 0, static_cast<double>(limits::maxSeqLen), false,
         false, "N", "sliding-window attention: windowed blocks see the last N keys; 0: none (gpt-oss 128, Gemma 3 1024)",
         T::Params, "Sliding window", nullptr,
         nullptr, [](const Scenario &s) { return integer(s.model.slidingWindow); },
         [](Scenario &s, const QJsonValue &v) { s.model.slidingWindow = toInt(v); }, true},
        {"global_every", "global-every", nullptr, K::Integer, G::Model, 0, limits::maxLayers, false, false, "N",
         "with a sliding window: every Nth block keeps full attention (gpt-oss 2, Gemma 3 6); 0: every block windowed",
         T::Params, "Global every", nullptr,
         nullptr, [](const Scenario &s) { return integer(s.model.globalEvery); },
         [](Scenario &s, const QJsonValue &v) { s.model.globalEvery = toInt(v); }, true},
        {"mtp_depth", "mtp-depth", nullptr, K::Integer, G::Model, 0, 16, false, false, "N",
         "multi-token prediction modules (DeepSeek-V3: 1), their parameters and FLOPs reported apart",
         T::Params, "MTP modules", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.model.mtpDepth); },
         [](Scenario &s, const QJsonValue &v) { s.model.mtpDepth = toInt(v); }, true},
        {"expert_d_ff", "expert-d-ff", nullptr, K::Integer, G::Model, 0, limits::maxDFf, false, false, "N",
         "MLP width of one expert; 0: d_ff",
         T::Params, "Expert d_ff", "Hidden width of one expert's MLP; 0 uses d_ff",
         nullptr, [](const Scenario &s) { return integer(s.model.expertDff); },
         [](Scenario &s, const QJsonValue &v) { s.model.expertDff = toInt(v); }, true},
        {"preset", nullptr, nullptr, K::Text, G::Model, 0, 0, false, false, "NAME",
         "where the shape came from (informational; --preset applies one)",
         T::Params, "Preset", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.presetId; },
         [](Scenario &s, const QJsonValue &v) { s.presetId = v.toString(); }},
        {"params", "params", nullptr, K::Integer, G::Model, 1, static_cast<double>(limits::maxParams), false, true, "N",
         "a parameter count given directly (e.g. 124e6), used as both total and non-embedding count, as in the "
         "CS336 source document; null: counted from the shape",
         T::Params, "Parameters", nullptr,
         nullptr, [](const Scenario &s) { return optionalInteger(s.paramsOverride); },
         [](Scenario &s, const QJsonValue &v) { s.paramsOverride = toOptionalInt(v); }},
        // The run.
        {"seq_len", "seq-len", nullptr, K::Integer, G::Run, 1, limits::maxSeqLen, false, false, "N", "tokens per sequence",
         T::Activations, "Sequence length", nullptr,
         nullptr, [](const Scenario &s) { return integer(s.seqLen); },
         [](Scenario &s, const QJsonValue &v) { s.seqLen = toInt(v); }},
        {"batch", "batch", nullptr, K::Integer, G::Run, 1, limits::maxMicroBatch, false, false, "N",
         "micro-batch: sequences per GPU per forward/backward pass",
         T::Activations, "Micro-batch", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.microBatch); },
         [](Scenario &s, const QJsonValue &v) { s.microBatch = toInt(v); }},
        {"tokens", "tokens", nullptr, K::Count, G::Run, limits::minTokens, limits::maxTokens, false, false, "D",
         "training tokens: 300e9, 3e11, 300B, 1.5T",
         T::Flops, "Training tokens", nullptr,
         nullptr, [](const Scenario &s) -> QJsonValue { return s.tokens; },
         [](Scenario &s, const QJsonValue &v) { s.tokens = v.toDouble(); }},
        {"gpu", "gpu", nullptr, K::Text, G::Run, 0, 0, false, false, "ID", "GPU model (see napkin gpus)",
         T::Roofline, "GPU", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.gpuId; },
         [](Scenario &s, const QJsonValue &v) { s.gpuId = v.toString(); }},
        {"gpus", "gpus", nullptr, K::Integer, G::Run, 1, limits::maxGpus, false, false, "N", "GPUs in the run",
         T::ModelState, "GPUs", "Data-parallel GPUs. Divides wall-clock time; ZeRO shards model state over them.",
         nullptr,
         [](const Scenario &s) { return integer(s.gpus); }, [](Scenario &s, const QJsonValue &v) { s.gpus = toInt(v); }},
        {"zero", "zero", nullptr, K::Integer, G::Run, limits::minZeroStage, limits::maxZeroStage, false, false, "STAGE",
         "ZeRO stage over DP x CP: 1 shards optimizer state, 2 + grads, 3 + params",
         T::ModelState, "ZeRO stage", "ZeRO (Rajbhandari et al. 2019): which model state is sharded over the GPUs. "
         "The memory chart shows all four stages and marks this one.",
         choicesOf<kZeroStageNames>,
         [](const Scenario &s) { return integer(s.zeroStage); },
         [](Scenario &s, const QJsonValue &v) { s.zeroStage = static_cast<int>(toInt(v)); }},
        {"recipe", "recipe", nullptr, K::Text, G::Run, 0, 0, false, false, "ID",
         "precision/optimizer recipe (see napkin recipes)",
         T::ModelState, "Recipe", "Bytes per parameter for weights, gradients and optimizer state, and the dtype "
         "whose peak FLOP/s applies",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recipeId; },
         [](Scenario &s, const QJsonValue &v) { s.recipeId = v.toString(); }},
        {"fp8_scaling", "fp8-scaling", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "how an fp8 recipe's GEMMs find their scales: delayed (amax history, Transformer Engine's "
         "DelayedScaling) or current (an amax pass before each cast, Float8CurrentScaling)",
         T::Time, "FP8 scaling", "How the FP8 GEMMs' per-tensor scales are found (Transformer Engine). Delayed: from "
         "an amax history of earlier steps, recorded by the cast itself. Current: each tensor's amax is measured "
         "right before its cast, one more read of it and two more kernels (amax, scale), unless the norm or "
         "activation that produced it measured the amax on the way (Transformer Engine's fused paths). Megatron-"
         "Bridge's FP8 recipes use current scaling; NeMo 2.0's performance scripts default to delayed.",
         choicesOf<kFp8ScalingNames>,
         [](const Scenario &s) -> QJsonValue { return enumName(kFp8ScalingNames, static_cast<int>(s.fp8Scaling)); },
         [](Scenario &s, const QJsonValue &v) {
             s.fp8Scaling = static_cast<Fp8Scaling>(*enumValue(kFp8ScalingNames, v.toString()));
         }},
        {"cross_entropy", "cross-entropy", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "the loss kernel over the logits: unfused (fp32 copy, then max, subtract, exp, sum and divide "
         "each a kernel: Megatron-LM's vocab_parallel_cross_entropy), fused (Megatron-Core's "
         "--cross-entropy-loss-fusion, native: NeMo's and Megatron-Bridge's default) or te (Transformer "
         "Engine's single-pass kernel)",
         T::Time, "Loss kernel", "How the loss runs over the logits, tokens × vocabulary elements "
         "(with a large vocabulary the biggest tensor of the step). Unfused: the bf16 logits cast to fp32, then "
         "max, subtract, exp, sum and divide each a kernel, the fp32 softmax kept for the backward "
         "(Megatron-LM's vocab_parallel_cross_entropy; Hugging Face's float() then cross_entropy alike): with bf16 logits 38 "
         "bytes an element forward, 14 backward. Fused: Megatron-Core's --cross-entropy-loss-fusion (native), "
         "the same steps in 4 kernels: 26 and 14. Transformer Engine: one read for the max and the sum, a "
         "second writing the gradient in the logits' place: 6 and 4, and it keeps 2 bytes an element, not 4.",
         choicesOf<kCrossEntropyNames>,
         [](const Scenario &s) -> QJsonValue { return enumName(kCrossEntropyNames, static_cast<int>(s.crossEntropy)); },
         [](Scenario &s, const QJsonValue &v) {
             s.crossEntropy = static_cast<CrossEntropy>(*enumValue(kCrossEntropyNames, v.toString()));
         }},
        {"recompute", "recompute", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "activation recomputation (Korthikanti et al. 2022)",
         T::Activations, "Recompute", "What the backward pass recomputes instead of storing (Korthikanti et al. "
         "2022)",
         choicesOf<kRecomputeNames>,
         [](const Scenario &s) -> QJsonValue { return recomputeName(s.recompute); },
         [](Scenario &s, const QJsonValue &v) { s.recompute = *recomputeFromName(v.toString()); }},
        {"recompute_core_attn", "recompute-core-attn", "no-recompute-core-attn", K::Flag, G::Run, 0, 0, false,
         false, nullptr,
         "with --recompute selective: rerun the attention core (QK^T, softmax, dropout, x V) and drop its s^2 "
         "tensors (Megatron-Core's core_attn; under FlashAttention it reruns the fused kernel and drops only its "
         "log-sum-exp)",
         T::Activations, "Recompute attention core", "Selective recompute's attention core (Korthikanti et al. 2022, "
         "Section 4.2; Megatron-Core's core_attn, its default module): the backward reruns QK^T, the softmax, its "
         "dropout and attention over V instead of keeping the s x s tensors. Under FlashAttention there are none "
         "to drop: Megatron-Core still reruns the fused kernel's forward, and saves only its fp32 log-sum-exp.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recomputeCoreAttention; },
         [](Scenario &s, const QJsonValue &v) { s.recomputeCoreAttention = v.toBool(); }},
        {"recompute_layernorm", "recompute-layernorm", "no-recompute-layernorm", K::Flag, G::Run, 0, 0, false, false,
         nullptr,
         "with --recompute selective: rerun each block's two norms and drop their outputs (Megatron-Core's layernorm)",
         T::Activations, "Recompute norms", "Selective recompute of the block norms (Megatron-Core's layernorm "
         "module): the backward reruns the attention and MLP norms instead of keeping their outputs, the inputs of "
         "the QKV, MLP and router projections.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recomputeNorms; },
         [](Scenario &s, const QJsonValue &v) { s.recomputeNorms = v.toBool(); }},
        {"recompute_moe_act", "recompute-moe-act", "no-recompute-moe-act", K::Flag, G::Run, 0, 0, false, false,
         nullptr,
         "with --recompute selective: rerun the routed experts' activation and drop its output (Megatron-Core's moe_act)",
         T::Activations, "Recompute expert activation", "Selective recompute of the routed experts' activation "
         "(Megatron-Core's moe_act module): the backward reruns SwiGLU or GELU on the experts' up-projection "
         "instead of keeping its output, the down projection's input. Mixture-of-Experts models only.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recomputeMoeActivation; },
         [](Scenario &s, const QJsonValue &v) { s.recomputeMoeActivation = v.toBool(); }},
        {"recompute_mla_up_proj", "recompute-mla-up-proj", "no-recompute-mla-up-proj", K::Flag, G::Run, 0, 0, false,
         false, nullptr,
         "with --recompute selective: rerun multi-head latent attention's up projections and RoPE and drop the "
         "queries, keys and values (Megatron-Core's mla_up_proj)",
         T::Activations, "Recompute MLA up-projections", "Selective recompute of multi-head latent attention's up "
         "projections (Megatron-Core's mla_up_proj module): the backward reruns the Q and KV up projections and "
         "their RoPE from the kept latents instead of keeping the queries, keys and values the attention reads. "
         "MLA models (DeepSeek-V2/V3) only.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recomputeMlaUpProjection; },
         [](Scenario &s, const QJsonValue &v) { s.recomputeMlaUpProjection = v.toBool(); }},
        {"offload", "offload", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "move to CPU memory: the optimizer state and gradients (ZeRO-Offload, ZeRO stage 1+), or those and the "
         "parameters (ZeRO-Infinity, stage 3)",
         T::ModelState, "Offload", "Move model state to the host's memory: the optimizer state and gradients, "
         "stepped on the CPU (ZeRO-Offload, Ren et al. 2021; needs ZeRO 1+), or those and the parameters, fetched "
         "for each micro-batch (ZeRO-Infinity; needs ZeRO 3). Choosing one raises the ZeRO stage to what it needs. "
         "The GPU bars shrink; the CPU memory per node is in the memory chart's legend and the PCIe traffic in the "
         "step chart.",
         choicesOf<kOffloadNames>,
         [](const Scenario &s) -> QJsonValue { return offloadName(s.offload); },
         [](Scenario &s, const QJsonValue &v) { s.offload = *offloadFromName(v.toString()); }},
        {"flash", "flash", "no-flash", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "FlashAttention: no s^2 attention activations",
         T::Activations, "FlashAttention", "Fused attention (Dao et al. 2022): no s x s score matrix in memory; one "
         "fused op on the roofline",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.flashAttention; },
         [](Scenario &s, const QJsonValue &v) { s.flashAttention = v.toBool(); }},
        {"activations", "activations", "no-activations", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "count activations in memory (the source document leaves them out)",
         T::Activations, "Count activations", "Include activation memory in the per-GPU total",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.includeActivations; },
         [](Scenario &s, const QJsonValue &v) { s.includeActivations = v.toBool(); }},
        {"activation_model", "activation-model", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "Korthikanti et al. 2022, or what autograd keeps in a plain PyTorch decoder (tests/validation/ACTIVATION_MODEL.md)",
         T::Activations, "Activation model", "Korthikanti et al. 2022's formula, or what autograd keeps in Napkin's "
         "reference PyTorch decoders (measured, tests/validation)",
         choicesOf<kActivationModelNames>,
         [](const Scenario &s) -> QJsonValue { return activationModelName(s.activationModel); },
         [](Scenario &s, const QJsonValue &v) { s.activationModel = *activationModelFromName(v.toString()); }},
        {"dropout", "dropout", "no-dropout", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "dropout layers present (their masks are activations)",
         T::Activations, "Dropout layers", "Dropout masks and outputs kept for backward, in both activation models "
         "(Korthikanti et al. 2022 train with dropout)",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.dropout; },
         [](Scenario &s, const QJsonValue &v) { s.dropout = v.toBool(); }},
        {"causal", "causal", "no-causal", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "halve the attention matmuls for a causal mask",
         T::Time, "Causal halving", "Count only the lower triangle of the attention score matmuls",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.causalHalving; },
         [](Scenario &s, const QJsonValue &v) { s.causalHalving = v.toBool(); }},
        {"flops_basis", "flops-basis", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "which FLOPs figure the time from --mfu uses",
         T::Time, "FLOPs basis", "Which training-FLOPs figure drives the time: every matmul x 3 (detailed) or 6 N D "
         "(Kaplan et al. 2020)",
         choicesOf<kFlopsBasisNames>,
         [](const Scenario &s) -> QJsonValue { return flopsBasisName(s.flopsBasis); },
         [](Scenario &s, const QJsonValue &v) { s.flopsBasis = *flopsBasisFromName(v.toString()); }},
        {"mfu", "mfu", nullptr, K::Real, G::Run, limits::minMfu, limits::maxMfu, false, false, "F",
         "achieved utilisation of peak, of the basis below",
         T::Time, "Utilisation", "Achieved fraction of peak FLOP/s, of the kind chosen above it; 30-50% MFU is "
         "typical for large runs",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.utilizationFraction; },
         [](Scenario &s, const QJsonValue &v) { s.utilizationFraction = v.toDouble(); }},
        {"utilization_basis", "utilization-basis", nullptr, K::Choice, G::Run, 0, 0, false, false, nullptr,
         "what --mfu is: hfu counts the recomputed forward in the FLOPs, mfu model FLOPs only (Chowdhery et al. 2022, App. B)",
         T::Time, "Utilisation basis", "What the utilisation counts (Chowdhery et al. 2022, App. B). HFU: hardware "
         "FLOPs, with the forward that recomputation runs again, so recompute costs time. MFU: model FLOPs only, so "
         "recompute changes memory but not time.",
         choicesOf<kUtilizationBasisNames>,
         [](const Scenario &s) -> QJsonValue { return utilizationBasisName(s.utilizationBasis); },
         [](Scenario &s, const QJsonValue &v) { s.utilizationBasis = *utilizationBasisFromName(v.toString()); }},
        {"price", "price", nullptr, K::Real, G::Run, 0, limits::maxPriceUsd, false, true, "USD",
         "rental price per GPU-hour; null: the GPU's catalog price (see napkin gpus)",
         T::Cost, "Price / GPU-hour", "Rental price of one GPU for one hour, in US dollars",
         nullptr,
         [](const Scenario &s) { return optionalReal(s.pricePerGpuHourUsd); },
         [](Scenario &s, const QJsonValue &v) { s.pricePerGpuHourUsd = toOptionalReal(v); }},
        {"reserved_bytes", "reserved", nullptr, K::Real, G::Run, 0, limits::maxReservedBytes, false, false, "BYTES",
         "memory each GPU holds besides the model: CUDA context and kernels (1343 MiB = 1.408e9, Hugging Face's "
         "\"Model training anatomy\"; 0 for the source document's accounting)",
         T::ModelState, "Reserved / GPU", "Memory each GPU holds besides the model: CUDA context, kernels and "
         "library handles. Default 1343 MiB, what nvidia-smi shows once PyTorch's first tensor loads them (Hugging "
         "Face Transformers docs, \"Model training anatomy\"); 0 for the source document's accounting.",
         nullptr, [](const Scenario &s) -> QJsonValue { return s.reservedBytes; },
         [](Scenario &s, const QJsonValue &v) { s.reservedBytes = v.toDouble(); }},
        {"allocator_margin", "allocator-margin", nullptr, K::Real, G::Run, 0, limits::maxAllocatorMargin, false, false, "F",
         "the caching allocator's margin, a fraction of everything else the model needs",
         T::ModelState, "Allocator margin", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.allocatorMargin; },
         [](Scenario &s, const QJsonValue &v) { s.allocatorMargin = v.toDouble(); }},
        // The parallel layout.
        {"tp", "tp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "tensor-parallel ranks (divide heads and kv_heads)",
         T::ModelState, "TP", "Tensor-parallel ranks (Shoeybi et al. 2019): each block's matrices split across "
         "them, two all-reduces per block each way. Must divide heads and K/V heads; best inside a node.",
         nullptr, [](const Scenario &s) { return integer(s.tp); },
         [](Scenario &s, const QJsonValue &v) { s.tp = toInt(v); }},
        {"sp", "sp", "no-sp", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "sequence parallelism: split the activations TP keeps whole",
         T::Activations, "Sequence parallelism", "Split the activations tensor parallelism keeps whole (norm and "
         "projection inputs, dropout masks) too, at the same communication volume (Korthikanti et al. 2022).",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.sequenceParallel; },
         [](Scenario &s, const QJsonValue &v) { s.sequenceParallel = v.toBool(); }},
        {"tp_overlap", "tp-overlap", "no-tp-overlap", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "overlap TP's SP all-gathers and reduce-scatters with the GEMMs (Megatron-LM --tp-comm-overlap; needs sp)",
         T::Time, "Overlap TP communication", "Split TP's sequence-parallel all-gathers and reduce-scatters into "
         "chunks that run under the GEMMs they feed and drain, as Megatron-LM's --tp-comm-overlap does with "
         "Transformer Engine. What the block's GEMMs cannot cover stays on the step, and on GPUs where that "
         "overlap was measured (Flux: it hides 20% on Hopper, and on A100 runs slower than none) at least the "
         "measured remainder does. Needs sequence parallelism; off, TP's collectives sit between dependent "
         "kernels, exposed whole.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.tpOverlap; },
         [](Scenario &s, const QJsonValue &v) { s.tpOverlap = v.toBool(); }},
        {"pp", "pp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "pipeline stages (at most the layers; uneven stages allowed)",
         T::ModelState, "PP", "Pipeline stages (Narayanan et al. 2021): layers split across them, micro-batches "
         "flow through; the first stage holds the most activations, the bubble is (pp − 1)/(m × vpp).",
         nullptr,
         [](const Scenario &s) { return integer(s.pp); }, [](Scenario &s, const QJsonValue &v) { s.pp = toInt(v); }},
        {"vpp", "vpp", nullptr, K::Integer, G::Parallel, 1, limits::maxLayers, false, false, "N",
         "virtual stages per pipeline rank (interleaved 1F1B)",
         T::Time, "Virtual stages", "Model chunks per pipeline rank (interleaved 1F1B): the bubble shrinks by vpp, "
         "the first stage holds a little more.",
         nullptr, [](const Scenario &s) { return integer(s.vpp); },
         [](Scenario &s, const QJsonValue &v) { s.vpp = toInt(v); }},
        {"pp_schedule", "pp-schedule", nullptr, K::Choice, G::Parallel, 0, 0, false, false, nullptr,
         "pipeline schedule: 1f1b (interleaved with vpp > 1), or dualpipe (DeepSeek-V3: even pp, vpp 1, "
         "micro-batches even and at least 2 x pp)",
         T::Time, "Pipeline schedule", "How micro-batches flow through the stages. 1F1B (Narayanan et al. 2021): "
         "one direction, bubble (pp − 1)/(m × vpp). DualPipe (DeepSeek-V3, Section 3.2.1): micro-batches enter "
         "from both ends, each rank holds two stages (twice the parameters, pp + 1 micro-batches of activations), "
         "pairs a forward with a backward chunk and fills the bubble with weight gradients: (pp/2 − 1)(F&B + B − 3W) "
         "(Table 2). Needs an even pp, vpp 1, and an even number of micro-batches, at least 2 × pp.",
         choicesOf<kPipelineScheduleNames>,
         [](const Scenario &s) -> QJsonValue { return enumName(kPipelineScheduleNames, static_cast<int>(s.ppSchedule)); },
         [](Scenario &s, const QJsonValue &v) {
             s.ppSchedule = static_cast<PipelineSchedule>(*enumValue(kPipelineScheduleNames, v.toString()));
         }},
        {"cp", "cp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "context-parallel ranks (2 x cp divides seq_len)",
         T::Activations, "CP", "Context-parallel ranks: the sequence split across them, K and V passed round a "
         "ring. 2 × cp must divide the sequence.",
         nullptr, [](const Scenario &s) { return integer(s.cp); },
         [](Scenario &s, const QJsonValue &v) { s.cp = toInt(v); }},
        {"ep", "ep", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "expert-parallel ranks (divide experts; ep x etp divides tp x dp x cp)",
         T::ModelState, "EP", "Expert-parallel ranks (Mixture-of-Experts): the routed experts split across them; "
         "tokens reach their experts by an all-to-all each way per block. Must divide the experts; EP × ETP folds "
         "over the attention's TP × DP × CP ranks (Megatron-Core's MoE parallel folding), so with ETP = TP, EP "
         "divides DP × CP.",
         nullptr,
         [](const Scenario &s) { return integer(s.ep); }, [](Scenario &s, const QJsonValue &v) { s.ep = toInt(v); }},
        {"etp", "etp", nullptr, K::Integer, G::Parallel, 1, kMax, false, true, "N",
         "expert tensor-parallel ranks: each routed expert split over them (null: tp)",
         T::ModelState, "Expert TP", "Expert tensor-parallel ranks (Megatron-Core's --expert-tensor-parallel-size): "
         "each routed expert's matrices split over them. EP × ETP folds over the attention's TP × DP × CP ranks "
         "(MoE parallel folding, Liu et al. 2025), so ETP 1 with TP 2 lets EP reach 2 × DP × CP. Unset: equal to TP, "
         "Megatron-Core's default.",
         nullptr,
         [](const Scenario &s) { return optionalInteger(s.etp); },
         [](Scenario &s, const QJsonValue &v) { s.etp = toOptionalInt(v); }},
        {"capacity_factor", "capacity-factor", nullptr, K::Real, G::Parallel, 1, limits::maxCapacityFactor, false, false,
         "F", "slots per expert as a multiple of its even share of the routed tokens (Fedus et al. 2021)",
         T::Activations, "Capacity factor", "Slots per expert as a multiple of its even share of the routed tokens "
         "(Fedus et al. 2021): experts compute, keep and exchange every slot, so 1.25 costs 25% more expert time "
         "and memory.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.capacityFactor; },
         [](Scenario &s, const QJsonValue &v) { s.capacityFactor = v.toDouble(); }},
        {"ep_overlap", "ep-overlap", "no-ep-overlap", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "hide the MoE all-to-all behind another micro-batch's compute (DeepSeek-V3's DualPipe, Section 3.2.1)",
         T::Time, "Overlap all-to-all", "Hide the experts' all-to-all behind another micro-batch's compute, as "
         "DeepSeek-V3's DualPipe pairs a forward and a backward chunk; only what the compute cannot cover stays on "
         "the step. Off: the experts wait for their tokens.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.epOverlap; },
         [](Scenario &s, const QJsonValue &v) { s.epOverlap = v.toBool(); }},
        {"ep_node_limit", "ep-node-limit", nullptr, K::Integer, G::Parallel, 0, kMax, false, false, "M",
         "node-limited dispatch: each token's routed rows reach at most M nodes, crossing the scale-out link once "
         "per node (DeepSeek-V3: 4); 0: every routed row travels on its own",
         T::Time, "Nodes per token", "Node-limited dispatch (DeepSeek-V3, Section 3.2.2): routing sends each token to "
         "experts on at most M nodes, and the dispatch crosses InfiniBand once per node, then fans the token out "
         "over NVLink to its experts' GPUs (DeepEP). 0: every routed row travels to its rank on its own, as "
         "Megatron-Core's all-to-all dispatcher sends it.",
         nullptr,
         [](const Scenario &s) { return integer(s.epNodeLimit); },
         [](Scenario &s, const QJsonValue &v) { s.epNodeLimit = toInt(v); }},
        {"dp_overlap", "dp-overlap", "no-dp-overlap", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "reduce gradients across DP ranks during the last micro-batch's backward, in buckets (PyTorch DDP, "
         "Megatron-Core --overlap-grad-reduce); off: after it",
         T::Time, "Overlap DP reduction", "Reduce the gradients across data-parallel ranks in buckets while the last "
         "micro-batch's backward still runs, as PyTorch DDP and Megatron-Core's --overlap-grad-reduce do; only what "
         "that backward cannot cover stays on the step. Off: the reduction waits for the backward to finish, as "
         "Megatron-LM's own data parallelism did before 2023.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.dpOverlap; },
         [](Scenario &s, const QJsonValue &v) { s.dpOverlap = v.toBool(); }},
        {"grad_accumulation_fusion", "grad-accumulation-fusion", "no-grad-accumulation-fusion", K::Flag, G::Parallel, 0,
         0, false, false, nullptr,
         "the weight-gradient GEMMs add into the earlier micro-batches' gradients (Megatron-LM's gradient-accumulation "
         "fusion); off: each later micro-batch adds its gradients in a kernel of its own (PyTorch's AccumulateGrad)",
         T::Time, "Fuse gradient accumulation", "Each micro-batch's weight-gradient GEMMs add straight into the "
         "gradients the earlier micro-batches left, as Megatron-LM's gradient-accumulation fusion and Transformer "
         "Engine do. Off: every micro-batch after the first writes its gradients apart and a kernel of its own adds "
         "them, reading both and writing the sum (PyTorch's AccumulateGrad), m - 1 times a step.",
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.gradAccumulationFusion; },
         [](Scenario &s, const QJsonValue &v) { s.gradAccumulationFusion = v.toBool(); }},
        {"global_batch", "global-batch", nullptr, K::Integer, G::Parallel, 1, static_cast<double>(limits::maxGlobalBatch),
         false, true, "N", "sequences per optimizer step, a multiple of batch x dp; null: batch x dp",
         T::Time, "Global batch", "Sequences per optimizer step over all replicas: a multiple of micro-batch × DP. "
         "More micro-batches per step shrink the pipeline bubble.",
         nullptr,
         [](const Scenario &s) { return optionalInteger(s.globalBatch); },
         [](Scenario &s, const QJsonValue &v) { s.globalBatch = toOptionalInt(v); }},
        {"gpus_per_node", "gpus-per-node", nullptr, K::Integer, G::Parallel, 1, kMax, false, true, "N",
         "GPUs sharing the scale-up link; null: the GPU's node",
         T::Time, "GPUs per node", "GPUs sharing the fast link (NVLink domain). Groups that fit in a node use it; "
         "the rest use the network.",
         nullptr,
         [](const Scenario &s) { return optionalInteger(s.gpusPerNode); },
         [](Scenario &s, const QJsonValue &v) { s.gpusPerNode = toOptionalInt(v); }},
        {"interconnect", "interconnect", nullptr, K::Text, G::Parallel, 0, 0, false, true, "ID",
         "the link between nodes (see napkin interconnects); null: the GPU's",
         T::Time, "Network", "The link between nodes (napkin interconnects lists each with its source).",
         nullptr,
         [](const Scenario &s) -> QJsonValue {
             return s.interconnectId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.interconnectId);
         },
         [](Scenario &s, const QJsonValue &v) { s.interconnectId = v.isNull() ? QString() : v.toString(); }},
        {"efficiency_matmul", "efficiency-matmul", nullptr, K::Real, G::Parallel, 0, limits::maxEfficiency, true, true, "F",
         "fraction of peak a large matmul reaches in the estimated step; null: the GPU's catalog figure",
         T::Time, "Matmul efficiency", nullptr,
         nullptr,
         [](const Scenario &s) { return optionalReal(s.efficiencyMatmul); },
         [](Scenario &s, const QJsonValue &v) { s.efficiencyMatmul = toOptionalReal(v); }},
        {"efficiency_memory", "efficiency-memory", nullptr, K::Real, G::Parallel, 0, limits::maxEfficiency, true, true, "F",
         "fraction of bandwidth a streaming kernel reaches; null: the GPU's catalog figure",
         T::Time, "Memory efficiency", nullptr,
         nullptr,
         [](const Scenario &s) { return optionalReal(s.efficiencyMemory); },
         [](Scenario &s, const QJsonValue &v) { s.efficiencyMemory = toOptionalReal(v); }},
        {"time_basis", "time-basis", nullptr, K::Choice, G::Parallel, 0, 0, false, false, nullptr,
         "the run's time from --mfu, or from the estimated step",
         T::Time, "Time basis", "Where the run's time comes from: your utilisation (MFU or HFU, set under More "
         "settings) or Napkin's bottom-up step estimate. Both are shown on the Step chart.",
         choicesOf<kTimeBasisNames>,
         [](const Scenario &s) -> QJsonValue { return timeBasisName(s.timeBasis); },
         [](Scenario &s, const QJsonValue &v) { s.timeBasis = *timeBasisFromName(v.toString()); }},
        // Serving: what `mode inference` sizes (core/run/inference.h).
        {"mode", "mode", nullptr, K::Choice, G::Serving, 0, 0, false, false, nullptr,
         "what to size: a training run, or serving the model (KV cache, prefill and decode)",
         T::Serving, "Mode", "Training sizes a training run; Inference sizes serving the same model on the same "
         "GPUs and layout: weights, KV cache, time to first token, time per output token, throughput and cost.",
         choicesOf<kModeNames>,
         [](const Scenario &s) -> QJsonValue { return modeName(s.mode); },
         [](Scenario &s, const QJsonValue &v) { s.mode = *modeFromName(v.toString()); }},
        {"prompt_tokens", "prompt-tokens", nullptr, K::Integer, G::Serving, 1, limits::maxSeqLen, false, false, "N",
         "serving: input tokens per request (prompt + output at most the model's max_positions)",
         T::Serving, "Prompt tokens", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.promptTokens); },
         [](Scenario &s, const QJsonValue &v) { s.promptTokens = toInt(v); }},
        {"output_tokens", "output-tokens", nullptr, K::Integer, G::Serving, 1, limits::maxSeqLen, false, false, "N",
         "serving: generated tokens per request",
         T::Serving, "Output tokens", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.outputTokens); },
         [](Scenario &s, const QJsonValue &v) { s.outputTokens = toInt(v); }},
        {"concurrency", "concurrency", nullptr, K::Integer, G::Serving, 1, limits::maxConcurrency, false, true, "N|max",
         "serving: sequences in flight per model replica; max (null): the most the KV pool holds at prompt + output, "
         "at most max_num_seqs",
         T::Serving, "Concurrency", "Sequences each model replica decodes together (continuous batching). More "
         "sequences share each read of the weights, so throughput rises and each token takes longer.",
         nullptr,
         [](const Scenario &s) { return optionalInteger(s.concurrency); },
         [](Scenario &s, const QJsonValue &v) { s.concurrency = toOptionalInt(v); },
         false, "max"},
        {"weight_dtype", "weight-dtype", nullptr, K::Choice, G::Serving, 0, 0, false, false, nullptr,
         "serving: the blocks' linear weights (embeddings, head, norms and router stay bf16)",
         T::Serving, "Weights", "The number format of the blocks' linear layers. int8 and int4 carry an fp16 scale "
         "and a zero point per group of weights; the embeddings, LM head, norms and router stay in bf16.",
         choicesOf<kWeightDtypeNames>,
         [](const Scenario &s) -> QJsonValue { return numberFormatName(s.weightDtype); },
         [](Scenario &s, const QJsonValue &v) { s.weightDtype = *numberFormatFromName(v.toString()); }},
        {"kv_dtype", "kv-dtype", nullptr, K::Choice, G::Serving, 0, 0, false, false, nullptr,
         "serving: the KV cache's number format",
         T::Serving, "KV cache", nullptr,
         choicesOf<kKvDtypeNames>,
         [](const Scenario &s) -> QJsonValue { return numberFormatName(s.kvDtype); },
         [](Scenario &s, const QJsonValue &v) { s.kvDtype = *numberFormatFromName(v.toString()); }},
        {"quant_group", "quant-group", nullptr, K::Integer, G::Serving, 1, limits::maxQuantGroup, false, false, "N",
         "serving: weights per scale group of int8 and int4 weights",
         T::Serving, "Quantization group", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.quantGroup); },
         [](Scenario &s, const QJsonValue &v) { s.quantGroup = toInt(v); }},
        {"gpu_memory_utilization", "gpu-memory-utilization", nullptr, K::Real, G::Serving, 0, 1, true, false, "F",
         "serving: the share of each GPU's memory the engine may use (vLLM's gpu_memory_utilization)",
         T::Serving, "Memory utilisation", nullptr,
         nullptr,
         [](const Scenario &s) -> QJsonValue { return s.gpuMemoryUtilization; },
         [](Scenario &s, const QJsonValue &v) { s.gpuMemoryUtilization = v.toDouble(); }},
        {"kv_block_tokens", "kv-block-tokens", nullptr, K::Integer, G::Serving, 1, limits::maxKvBlockTokens, false, false,
         "N", "serving: tokens per KV-cache block (vLLM's block_size)",
         T::Serving, "KV block tokens", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.kvBlockTokens); },
         [](Scenario &s, const QJsonValue &v) { s.kvBlockTokens = toInt(v); }},
        {"prefill_chunk", "prefill-chunk", nullptr, K::Integer, G::Serving, 1, limits::maxSeqLen, false, false, "N",
         "serving: tokens per prefill batch (vLLM's max_num_batched_tokens)",
         T::Serving, "Prefill chunk", nullptr,
         nullptr,
         [](const Scenario &s) { return integer(s.prefillChunk); },
         [](Scenario &s, const QJsonValue &v) { s.prefillChunk = toInt(v); }},
        {"max_num_seqs", "max-num-seqs", nullptr, K::Integer, G::Serving, 1, limits::maxConcurrency, false, false, "N",
         "serving: the scheduler's cap on sequences running together (vLLM's max_num_seqs: 1024 on H100-class "
         "GPUs, 256 on smaller ones and A100s; TensorRT-LLM's max_batch_size); the default caps nothing",
         T::Serving, "Max sequences", "The serving engine's scheduler runs at most this many sequences together, "
         "however many the KV cache could hold; concurrency max is the smaller of the two. vLLM's default is 1024 "
         "on H100-class GPUs and 256 on smaller ones and A100s.",
         nullptr,
         [](const Scenario &s) { return integer(s.maxNumSeqs); },
         [](Scenario &s, const QJsonValue &v) { s.maxNumSeqs = toInt(v); }},
    };
    return f;
}

} // namespace

const std::vector<ScenarioField> &scenarioFields()
{
    static const std::vector<ScenarioField> fields = buildFields();
    return fields;
}

QStringList choiceNames(const ScenarioField &f)
{
    return f.choices ? enumNames(f.choices()) : QStringList();
}

const ScenarioField *findScenarioField(const QString &key)
{
    for (const ScenarioField &f : scenarioFields())
        if (key == QLatin1String(f.key))
            return &f;
    return nullptr;
}

double fieldLo(const char *key)
{
    return findScenarioField(QLatin1String(key))->lo;
}

double fieldHi(const char *key)
{
    return findScenarioField(QLatin1String(key))->hi;
}

} // namespace napkin
