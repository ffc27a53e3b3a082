#include "core/model/fields.h"

#include "core/model/limits.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

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

std::vector<ScenarioField> buildFields()
{
    using K = FieldKind;
    using G = FieldGroup;
    std::vector<ScenarioField> f = {
        // The model shape, checked in this order (validateShape()).
        {"arch", "arch", nullptr, K::Choice, G::Model, 0, 0, false, false, "gpt2|llama",
         "family: gpt2 (learned positions, LayerNorm, biases, GELU, tied head) or llama (RoPE, RMSNorm, no biases, "
         "SwiGLU, untied head, GQA)",
         [] { return QStringList{QStringLiteral("gpt2"), QStringLiteral("llama")}; },
         [](const Scenario &s) -> QJsonValue { return archName(s.model.arch); },
         [](Scenario &s, const QJsonValue &v) { s.model.arch = *archFromName(v.toString()); }, true},
        {"layers", "layers", nullptr, K::Integer, G::Model, 1, limits::maxLayers, false, false, "N", "transformer blocks",
         nullptr, [](const Scenario &s) { return integer(s.model.layers); },
         [](Scenario &s, const QJsonValue &v) { s.model.layers = toInt(v); }, true},
        {"d_model", "d-model", nullptr, K::Integer, G::Model, 1, limits::maxDModel, false, false, "N", "width d_model",
         nullptr, [](const Scenario &s) { return integer(s.model.dModel); },
         [](Scenario &s, const QJsonValue &v) { s.model.dModel = toInt(v); }, true},
        {"heads", "heads", nullptr, K::Integer, G::Model, 1, limits::maxHeads, false, false, "N",
         "attention heads (divide d_model)", nullptr, [](const Scenario &s) { return integer(s.model.heads); },
         [](Scenario &s, const QJsonValue &v) { s.model.heads = toInt(v); }, true},
        {"kv_heads", "kv-heads", nullptr, K::Integer, G::Model, 1, limits::maxHeads, false, false, "N",
         "K/V heads (divide heads; fewer is grouped-query attention)", nullptr,
         [](const Scenario &s) { return integer(s.model.kvHeads); },
         [](Scenario &s, const QJsonValue &v) { s.model.kvHeads = toInt(v); }, true},
        {"d_ff", "d-ff", nullptr, K::Integer, G::Model, 1, limits::maxDFf, false, false, "N", "MLP width d_ff", nullptr,
         [](const Scenario &s) { return integer(s.model.dFf); },
         [](Scenario &s, const QJsonValue &v) { s.model.dFf = toInt(v); }, true},
        {"vocab", "vocab", nullptr, K::Integer, G::Model, 1, limits::maxVocab, false, false, "N", "vocabulary size",
         nullptr, [](const Scenario &s) { return integer(s.model.vocab); },
         [](Scenario &s, const QJsonValue &v) { s.model.vocab = toInt(v); }, true},
        {"max_positions", "max-pos", nullptr, K::Integer, G::Model, 1, limits::maxPositions, false, false, "N",
         "position table size (gpt2's learned positions bound the sequence)", nullptr,
         [](const Scenario &s) { return integer(s.model.maxPositions); },
         [](Scenario &s, const QJsonValue &v) { s.model.maxPositions = toInt(v); }, true},
        {"tied", "tied", "untied", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "the LM head shares the token embedding", nullptr, [](const Scenario &s) -> QJsonValue { return s.model.tied; },
         [](Scenario &s, const QJsonValue &v) { s.model.tied = v.toBool(); }, true},
        {"head_dim", "head-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "width of one attention head; 0: d_model / heads (Qwen3 and Gemma 3 set it apart)", nullptr,
         [](const Scenario &s) { return integer(s.model.headDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.headDim = toInt(v); }, true},
        {"qk_norm", "qk-norm", "no-qk-norm", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "RMSNorm on each head's queries and keys (Qwen3, Gemma 3)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.qkNorm; },
         [](Scenario &s, const QJsonValue &v) { s.model.qkNorm = v.toBool(); }, true},
        {"q_lora_rank", "q-lora-rank", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: the queries' low-rank width; 0: a full-rank Q projection", nullptr,
         [](const Scenario &s) { return integer(s.model.qLoraRank); },
         [](Scenario &s, const QJsonValue &v) { s.model.qLoraRank = toInt(v); }, true},
        {"kv_lora_rank", "kv-lora-rank", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention (DeepSeek-V2/V3): the K/V latent's width; 0: ordinary attention", nullptr,
         [](const Scenario &s) { return integer(s.model.kvLoraRank); },
         [](Scenario &s, const QJsonValue &v) { s.model.kvLoraRank = toInt(v); }, true},
        {"qk_rope_dim", "qk-rope-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: decoupled RoPE dimensions added to each head's queries and keys", nullptr,
         [](const Scenario &s) { return integer(s.model.qkRopeDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.qkRopeDim = toInt(v); }, true},
        {"v_head_dim", "v-head-dim", nullptr, K::Integer, G::Model, 0, limits::maxDModel, false, false, "N",
         "multi-head latent attention: each head's value width; 0: head_dim", nullptr,
         [](const Scenario &s) { return integer(s.model.vHeadDim); },
         [](Scenario &s, const QJsonValue &v) { s.model.vHeadDim = toInt(v); }, true},
        {"experts", "experts", nullptr, K::Integer, G::Model, 0, limits::maxExperts, false, false, "N",
         "routed experts per block (Mixture-of-Experts); 0: a dense MLP of d_ff", nullptr,
         [](const Scenario &s) { return integer(s.model.experts); },
         [](Scenario &s, const QJsonValue &v) { s.model.experts = toInt(v); }, true},
        {"experts_per_token", "top-k", nullptr, K::Integer, G::Model, 1, limits::maxExperts, false, false, "K",
         "routed experts each token goes to (at most experts)", nullptr,
         [](const Scenario &s) { return integer(s.model.expertsPerToken); },
         [](Scenario &s, const QJsonValue &v) { s.model.expertsPerToken = toInt(v); }, true},
        {"shared_experts", "shared-experts", nullptr, K::Integer, G::Model, 0, limits::maxExperts, false, false, "N",
         "experts every token goes through besides its top-k (DeepSeek-V3: 1)", nullptr,
         [](const Scenario &s) { return integer(s.model.sharedExperts); },
         [](Scenario &s, const QJsonValue &v) { s.model.sharedExperts = toInt(v); }, true},
        {"dense_layers", "dense-layers", nullptr, K::Integer, G::Model, 0, limits::maxLayers, false, false, "N",
         "Mixture-of-Experts: the first N blocks keep a dense MLP of d_ff (DeepSeek-V3: 3)", nullptr,
         [](const Scenario &s) { return integer(s.model.denseLayers); },
         [](Scenario &s, const QJsonValue &v) { s.model.denseLayers = toInt(v); }, true},
        {"router_bias", "router-bias", "no-router-bias", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "Mixture-of-Experts: a bias per expert on the router (DeepSeek-V3)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.routerBias; },
         [](Scenario &s, const QJsonValue &v) { s.model.routerBias = v.toBool(); }, true},
        {"linear_bias", "linear-bias", "no-linear-bias", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "llama family: a bias on every linear layer of a block: attention, router, MLP and experts (gpt-oss)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.linearBias; },
         [](Scenario &s, const QJsonValue &v) { s.model.linearBias = v.toBool(); }, true},
        {"attention_sinks", "attention-sinks", "no-attention-sinks", K::Flag, G::Model, 0, 0, false, false, nullptr,
         "a learned sink logit per head in every block (gpt-oss)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.model.attentionSinks; },
         [](Scenario &s, const QJsonValue &v) { s.model.attentionSinks = v.toBool(); }, true},
        {"sliding_window", "sliding-window", nullptr, K::Integer, G::Model, 0, static_cast<double>(limits::maxSeqLen), false,
         false, "N", "sliding-window attention: windowed blocks see the last N keys; 0: none (gpt-oss 128, Gemma 3 1024)",
         nullptr, [](const Scenario &s) { return integer(s.model.slidingWindow); },
         [](Scenario &s, const QJsonValue &v) { s.model.slidingWindow = toInt(v); }, true},
        {"global_every", "global-every", nullptr, K::Integer, G::Model, 0, limits::maxLayers, false, false, "N",
         "with a sliding window: every Nth block keeps full attention (gpt-oss 2, Gemma 3 6); 0: every block windowed",
         nullptr, [](const Scenario &s) { return integer(s.model.globalEvery); },
         [](Scenario &s, const QJsonValue &v) { s.model.globalEvery = toInt(v); }, true},
        {"mtp_depth", "mtp-depth", nullptr, K::Integer, G::Model, 0, 16, false, false, "N",
         "multi-token prediction modules (DeepSeek-V3: 1), their parameters and FLOPs reported apart", nullptr,
         [](const Scenario &s) { return integer(s.model.mtpDepth); },
         [](Scenario &s, const QJsonValue &v) { s.model.mtpDepth = toInt(v); }, true},
        {"expert_d_ff", "expert-d-ff", nullptr, K::Integer, G::Model, 0, limits::maxDFf, false, false, "N",
         "MLP width of one expert; 0: d_ff", nullptr, [](const Scenario &s) { return integer(s.model.expertDff); },
         [](Scenario &s, const QJsonValue &v) { s.model.expertDff = toInt(v); }, true},
        {"preset", nullptr, nullptr, K::Text, G::Model, 0, 0, false, false, "NAME",
         "where the shape came from (informational; --preset applies one)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.presetId; },
         [](Scenario &s, const QJsonValue &v) { s.presetId = v.toString(); }},
        {"params", "params", nullptr, K::Integer, G::Model, 1, static_cast<double>(limits::maxParams), false, true, "N",
         "a parameter count given directly (e.g. 124e6), used as both total and non-embedding count, as in the "
         "CS336 source document; null: counted from the shape",
         nullptr, [](const Scenario &s) { return optionalInteger(s.paramsOverride); },
         [](Scenario &s, const QJsonValue &v) { s.paramsOverride = toOptionalInt(v); }},
        // The run.
        {"seq_len", "seq-len", nullptr, K::Integer, G::Run, 1, limits::maxSeqLen, false, false, "N", "tokens per sequence",
         nullptr, [](const Scenario &s) { return integer(s.seqLen); },
         [](Scenario &s, const QJsonValue &v) { s.seqLen = toInt(v); }},
        {"batch", "batch", nullptr, K::Integer, G::Run, 1, limits::maxMicroBatch, false, false, "N",
         "micro-batch: sequences per GPU per forward/backward pass", nullptr,
         [](const Scenario &s) { return integer(s.microBatch); },
         [](Scenario &s, const QJsonValue &v) { s.microBatch = toInt(v); }},
        {"tokens", "tokens", nullptr, K::Count, G::Run, limits::minTokens, limits::maxTokens, false, false, "D",
         "training tokens: 300e9, 3e11, 300B, 1.5T", nullptr, [](const Scenario &s) -> QJsonValue { return s.tokens; },
         [](Scenario &s, const QJsonValue &v) { s.tokens = v.toDouble(); }},
        {"gpu", "gpu", nullptr, K::Text, G::Run, 0, 0, false, false, "ID", "GPU model (see napkin gpus)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.gpuId; },
         [](Scenario &s, const QJsonValue &v) { s.gpuId = v.toString(); }},
        {"gpus", "gpus", nullptr, K::Integer, G::Run, 1, limits::maxGpus, false, false, "N", "GPUs in the run", nullptr,
         [](const Scenario &s) { return integer(s.gpus); }, [](Scenario &s, const QJsonValue &v) { s.gpus = toInt(v); }},
        {"zero", "zero", nullptr, K::Integer, G::Run, 0, 3, false, false, "0..3",
         "ZeRO stage over DP x CP: 1 shards optimizer state, 2 + grads, 3 + params", nullptr,
         [](const Scenario &s) { return integer(s.zeroStage); },
         [](Scenario &s, const QJsonValue &v) { s.zeroStage = static_cast<int>(toInt(v)); }},
        {"recipe", "recipe", nullptr, K::Text, G::Run, 0, 0, false, false, "ID",
         "precision/optimizer recipe (see napkin recipes)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.recipeId; },
         [](Scenario &s, const QJsonValue &v) { s.recipeId = v.toString(); }},
        {"recompute", "recompute", nullptr, K::Choice, G::Run, 0, 0, false, false, "none|selective|full",
         "activation recomputation (Korthikanti et al. 2022)",
         [] { return QStringList{QStringLiteral("none"), QStringLiteral("selective"), QStringLiteral("full")}; },
         [](const Scenario &s) -> QJsonValue { return recomputeName(s.recompute); },
         [](Scenario &s, const QJsonValue &v) { s.recompute = *recomputeFromName(v.toString()); }},
        {"offload", "offload", nullptr, K::Choice, G::Run, 0, 0, false, false, "none|optimizer|params",
         "move to CPU memory: the optimizer state and gradients (ZeRO-Offload, ZeRO stage 1+), or those and the "
         "parameters (ZeRO-Infinity, stage 3)",
         [] { return QStringList{QStringLiteral("none"), QStringLiteral("optimizer"), QStringLiteral("params")}; },
         [](const Scenario &s) -> QJsonValue { return offloadName(s.offload); },
         [](Scenario &s, const QJsonValue &v) { s.offload = *offloadFromName(v.toString()); }},
        {"flash", "flash", "no-flash", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "FlashAttention: no s^2 attention activations", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.flashAttention; },
         [](Scenario &s, const QJsonValue &v) { s.flashAttention = v.toBool(); }},
        {"activations", "activations", "no-activations", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "count activations in memory (the source document leaves them out)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.includeActivations; },
         [](Scenario &s, const QJsonValue &v) { s.includeActivations = v.toBool(); }},
        {"activation_model", "activation-model", nullptr, K::Choice, G::Run, 0, 0, false, false, "korthikanti|pytorch",
         "Korthikanti et al. 2022, or what autograd keeps in a plain PyTorch decoder (tests/validation/ACTIVATION_MODEL.md)",
         [] { return QStringList{QStringLiteral("korthikanti"), QStringLiteral("pytorch")}; },
         [](const Scenario &s) -> QJsonValue { return activationModelName(s.activationModel); },
         [](Scenario &s, const QJsonValue &v) { s.activationModel = *activationModelFromName(v.toString()); }},
        {"dropout", "dropout", "no-dropout", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "dropout layers present (their masks are activations)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.dropout; },
         [](Scenario &s, const QJsonValue &v) { s.dropout = v.toBool(); }},
        {"causal", "causal", "no-causal", K::Flag, G::Run, 0, 0, false, false, nullptr,
         "halve the attention matmuls for a causal mask", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.causalHalving; },
         [](Scenario &s, const QJsonValue &v) { s.causalHalving = v.toBool(); }},
        {"flops_basis", "flops-basis", nullptr, K::Choice, G::Run, 0, 0, false, false, "6nd|detailed",
         "which FLOPs figure the time from --mfu uses",
         [] { return QStringList{QStringLiteral("6nd"), QStringLiteral("detailed")}; },
         [](const Scenario &s) -> QJsonValue { return flopsBasisName(s.flopsBasis); },
         [](Scenario &s, const QJsonValue &v) { s.flopsBasis = *flopsBasisFromName(v.toString()); }},
        {"mfu", "mfu", nullptr, K::Real, G::Run, limits::minMfu, limits::maxMfu, false, false, "F",
         "achieved utilisation of peak, of the basis below", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.mfuFraction; },
         [](Scenario &s, const QJsonValue &v) { s.mfuFraction = v.toDouble(); }},
        {"utilization_basis", "utilization-basis", nullptr, K::Choice, G::Run, 0, 0, false, false, "hfu|mfu",
         "what --mfu is: hfu counts the recomputed forward in the FLOPs, mfu model FLOPs only (Chowdhery et al. 2022, App. B)",
         [] { return QStringList{QStringLiteral("hfu"), QStringLiteral("mfu")}; },
         [](const Scenario &s) -> QJsonValue { return utilizationBasisName(s.utilizationBasis); },
         [](Scenario &s, const QJsonValue &v) { s.utilizationBasis = *utilizationBasisFromName(v.toString()); }},
        {"price", "price", nullptr, K::Real, G::Run, 0, limits::maxPriceUsd, false, true, "USD",
         "rental price per GPU-hour; null: the GPU's catalog price (see napkin gpus)", nullptr,
         [](const Scenario &s) { return optionalReal(s.pricePerGpuHourUsd); },
         [](Scenario &s, const QJsonValue &v) { s.pricePerGpuHourUsd = toOptionalReal(v); }},
        {"reserved_bytes", "reserved", nullptr, K::Real, G::Run, 0, limits::maxReservedBytes, false, false, "BYTES",
         "memory each GPU holds besides the model: CUDA context and kernels (1343 MiB = 1.408e9, Hugging Face's "
         "\"Model training anatomy\"; 0 for the source document's accounting)",
         nullptr, [](const Scenario &s) -> QJsonValue { return s.reservedBytes; },
         [](Scenario &s, const QJsonValue &v) { s.reservedBytes = v.toDouble(); }},
        {"allocator_margin", "allocator-margin", nullptr, K::Real, G::Run, 0, limits::maxAllocatorMargin, false, false, "F",
         "the caching allocator's margin, a fraction of everything else the model needs", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.allocatorMargin; },
         [](Scenario &s, const QJsonValue &v) { s.allocatorMargin = v.toDouble(); }},
        // The parallel layout.
        {"tp", "tp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "tensor-parallel ranks (divide heads and kv_heads)", nullptr, [](const Scenario &s) { return integer(s.tp); },
         [](Scenario &s, const QJsonValue &v) { s.tp = toInt(v); }},
        {"sp", "sp", "no-sp", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "sequence parallelism: split the activations TP keeps whole", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.sequenceParallel; },
         [](Scenario &s, const QJsonValue &v) { s.sequenceParallel = v.toBool(); }},
        {"pp", "pp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "pipeline stages (at most the layers; uneven stages allowed)", nullptr,
         [](const Scenario &s) { return integer(s.pp); }, [](Scenario &s, const QJsonValue &v) { s.pp = toInt(v); }},
        {"vpp", "vpp", nullptr, K::Integer, G::Parallel, 1, limits::maxLayers, false, false, "N",
         "virtual stages per pipeline rank (interleaved 1F1B)", nullptr, [](const Scenario &s) { return integer(s.vpp); },
         [](Scenario &s, const QJsonValue &v) { s.vpp = toInt(v); }},
        {"cp", "cp", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "context-parallel ranks (2 x cp divides seq_len)", nullptr, [](const Scenario &s) { return integer(s.cp); },
         [](Scenario &s, const QJsonValue &v) { s.cp = toInt(v); }},
        {"ep", "ep", nullptr, K::Integer, G::Parallel, 1, kMax, false, false, "N",
         "expert-parallel ranks, taken from DP x CP (divide experts and dp x cp)", nullptr,
         [](const Scenario &s) { return integer(s.ep); }, [](Scenario &s, const QJsonValue &v) { s.ep = toInt(v); }},
        {"capacity_factor", "capacity-factor", nullptr, K::Real, G::Parallel, 1, limits::maxCapacityFactor, false, false,
         "F", "slots per expert as a multiple of its even share of the routed tokens (Fedus et al. 2021)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.capacityFactor; },
         [](Scenario &s, const QJsonValue &v) { s.capacityFactor = v.toDouble(); }},
        {"ep_overlap", "ep-overlap", "no-ep-overlap", K::Flag, G::Parallel, 0, 0, false, false, nullptr,
         "hide the MoE all-to-all behind another micro-batch's compute (DeepSeek-V3's DualPipe, Section 3.2.1)", nullptr,
         [](const Scenario &s) -> QJsonValue { return s.epOverlap; },
         [](Scenario &s, const QJsonValue &v) { s.epOverlap = v.toBool(); }},
        {"global_batch", "global-batch", nullptr, K::Integer, G::Parallel, 1, static_cast<double>(limits::maxGlobalBatch),
         false, true, "N", "sequences per optimizer step, a multiple of batch x dp; null: batch x dp", nullptr,
         [](const Scenario &s) { return optionalInteger(s.globalBatch); },
         [](Scenario &s, const QJsonValue &v) { s.globalBatch = toOptionalInt(v); }},
        {"gpus_per_node", "gpus-per-node", nullptr, K::Integer, G::Parallel, 1, kMax, false, true, "N",
         "GPUs sharing the scale-up link; null: the GPU's node", nullptr,
         [](const Scenario &s) { return optionalInteger(s.gpusPerNode); },
         [](Scenario &s, const QJsonValue &v) { s.gpusPerNode = toOptionalInt(v); }},
        {"interconnect", "interconnect", nullptr, K::Text, G::Parallel, 0, 0, false, true, "ID",
         "the link between nodes (see napkin interconnects); null: the GPU's", nullptr,
         [](const Scenario &s) -> QJsonValue {
             return s.interconnectId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.interconnectId);
         },
         [](Scenario &s, const QJsonValue &v) { s.interconnectId = v.isNull() ? QString() : v.toString(); }},
        {"efficiency_matmul", "efficiency-matmul", nullptr, K::Real, G::Parallel, 0, limits::maxEfficiency, true, true, "F",
         "fraction of peak a large matmul reaches in the estimated step; null: the GPU's catalog figure", nullptr,
         [](const Scenario &s) { return optionalReal(s.efficiencyMatmul); },
         [](Scenario &s, const QJsonValue &v) { s.efficiencyMatmul = toOptionalReal(v); }},
        {"efficiency_memory", "efficiency-memory", nullptr, K::Real, G::Parallel, 0, limits::maxEfficiency, true, true, "F",
         "fraction of bandwidth a streaming kernel reaches; null: the GPU's catalog figure", nullptr,
         [](const Scenario &s) { return optionalReal(s.efficiencyMemory); },
         [](Scenario &s, const QJsonValue &v) { s.efficiencyMemory = toOptionalReal(v); }},
        {"time_basis", "time-basis", nullptr, K::Choice, G::Parallel, 0, 0, false, false, "mfu|estimated",
         "the run's time from --mfu, or from the estimated step",
         [] { return QStringList{QStringLiteral("mfu"), QStringLiteral("estimated")}; },
         [](const Scenario &s) -> QJsonValue { return timeBasisName(s.timeBasis); },
         [](Scenario &s, const QJsonValue &v) { s.timeBasis = *timeBasisFromName(v.toString()); }},
    };
    return f;
}

QString number(double x)
{
    return QString::number(x, 'g', 15);
}

} // namespace

QString boundText(double x)
{
    return QString::number(x, 'g', 15).replace(QStringLiteral("e+"), QStringLiteral("e"));
}

const std::vector<ScenarioField> &scenarioFields()
{
    static const std::vector<ScenarioField> fields = buildFields();
    return fields;
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

QString acceptedText(const ScenarioField &f)
{
    switch (f.kind) {
    case FieldKind::Integer:
        return QStringLiteral("an integer from %1 to %2").arg(static_cast<std::int64_t>(f.lo)).arg(static_cast<std::int64_t>(f.hi));
    case FieldKind::Real:
    case FieldKind::Count:
        return QStringLiteral("a number from %1%2 to %3")
            .arg(f.loExclusive ? QStringLiteral("above ") : QString(), boundText(f.lo), boundText(f.hi));
    case FieldKind::Flag: return QStringLiteral("true or false");
    case FieldKind::Choice: return QStringLiteral("one of %1").arg(f.choices().join(QStringLiteral(", ")));
    case FieldKind::Text: return QStringLiteral("a non-empty string");
    }
    return {};
}

QString defaultText(const ScenarioField &f)
{
    const QJsonValue v = f.get(Scenario{});
    if (v.isNull())
        return QStringLiteral("none");
    if (v.isBool())
        return v.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (v.isString())
        return v.toString();
    return number(v.toDouble());
}

std::optional<Refusal> checkValue(const ScenarioField &f, const QJsonValue &v)
{
    if (v.isNull() && f.nullable)
        return std::nullopt;
    const auto refuse = [&](const QString &problem) { return std::optional<Refusal>(Refusal{QLatin1String(f.key), problem}); };
    const auto notAccepted = [&] { return refuse(QStringLiteral("must be %1 (got %2)").arg(acceptedText(f), describeValue(v))); };
    switch (f.kind) {
    case FieldKind::Integer: {
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < f.lo || d > f.hi)
            return refuse(integerRangeProblem(static_cast<std::int64_t>(f.lo), static_cast<std::int64_t>(f.hi), describeValue(v)));
        return std::nullopt;
    }
    case FieldKind::Real:
    case FieldKind::Count: {
        const double d = v.toDouble();
        const bool ok = v.isDouble() && std::isfinite(d) && (f.loExclusive ? d > f.lo : d >= f.lo) && d <= f.hi;
        return ok ? std::nullopt : notAccepted();
    }
    case FieldKind::Flag: return v.isBool() ? std::nullopt : notAccepted();
    case FieldKind::Choice: return v.isString() && f.choices().contains(v.toString()) ? std::nullopt : notAccepted();
    case FieldKind::Text: return v.isString() && !v.toString().isEmpty() ? std::nullopt : notAccepted();
    }
    return std::nullopt;
}

std::optional<Refusal> checkFields(const Scenario &s, bool shapeOnly)
{
    for (const ScenarioField &f : scenarioFields()) {
        if (shapeOnly && !f.shape)
            continue;
        if (auto refused = checkValue(f, f.get(s)))
            return refused;
    }
    return std::nullopt;
}

} // namespace napkin
