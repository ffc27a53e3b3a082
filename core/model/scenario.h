#pragma once

#include "core/model/limits.h"

#include <QString>
#include <QList>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace napkin {

/// The two decoder families Napkin counts; see modelshape.h for what each implies.
enum class Arch { Gpt2, Llama };

/// What the backward pass recomputes instead of storing (Korthikanti et al. 2022, Section 4).
enum class Recompute { None, Selective, Full };

/// How micro-batches flow through the pipeline stages: 1F1B (PipeDream-Flush, Narayanan et al.
/// 2021; interleaved when vpp > 1), or DualPipe (DeepSeek-V3, Section 3.2.1): micro-batches from
/// both ends at once, each rank holding stage i and stage pp - 1 - i, a forward and a backward
/// chunk overlapped, weight gradients deferred into the bubble (Table 2).
enum class PipelineSchedule { OneFOneB, DualPipe };

/// How FP8 GEMMs' per-tensor scales are found (Transformer Engine recipes): delayed scaling takes
/// each scale from an amax history of earlier steps, recorded by the cast kernel itself;
/// current scaling measures the tensor's amax right before its cast (Float8CurrentScaling).
enum class Fp8Scaling { Delayed, Current };

/// How the loss kernel runs over the vocabulary-parallel logits (each a path of Megatron-LM's
/// code): unfused, Megatron-LM's vocab_parallel_cross_entropy on the logits cast to fp32, a
/// kernel per step (max, subtract, exp, sum, divide) keeping the fp32 softmax; fused,
/// Megatron-Core's --cross-entropy-loss-fusion with its default 'native' path (the same steps
/// compiled into fewer kernels, the fp32 softmax kept); te, Transformer Engine's single-pass
/// kernel ('te'), which reads the bf16 logits twice and writes the gradient in their place.
enum class CrossEntropy { Unfused, Fused, TransformerEngine };

/// Which formula counts activation memory: Korthikanti et al. 2022, or what autograd keeps in
/// Napkin's reference PyTorch decoders (tests/validation/ACTIVATION_MODEL.md).
enum class ActivationModel { Korthikanti, PyTorch };

/// What moves to the CPU's memory (Ren et al. 2021, ZeRO-Offload; Rajbhandari et al. 2021,
/// ZeRO-Infinity): nothing; the optimizer state and gradients (the optimizer step runs on the
/// CPU); or those and the parameters, fetched to the GPU for each forward and backward.
enum class Offload { None, Optimizer, Params };

/// Which training-FLOPs figure drives the time estimate.
enum class FlopsBasis { SixND, Detailed };

/// What the utilisation the user sets divides (Chowdhery et al. 2022, App. B; Korthikanti et
/// al. 2022, Section 6.3): model FLOPs (MFU) leave recomputation out, so recompute costs no
/// time; hardware FLOPs (HFU) add the forward work recomputation runs again.
enum class UtilizationBasis { Hfu, Mfu };

/// Which step time the run's time uses: the user's utilisation (MFU or HFU) over the peak, or
/// Napkin's bottom-up estimate from the per-device workload (core/run/steptime.h).
enum class TimeBasis { Utilization, Estimated };

/// What the scenario sizes: a training run, or serving the model (prefill and decode with a KV cache).
enum class Mode { Training, Inference };

/// A number format for served weights or the KV cache. int8 and int4 weights carry group-wise
/// scales (ScenarioField "quant_group"); fp8 one scale per tensor.
enum class NumberFormat { Bf16, Fp16, Fp8, Int8, Int4 };

/// What a GPU holds before the model arrives: 1343 MiB, the memory nvidia-smi reports after
/// PyTorch's first tensor on the GPU loads the CUDA context and kernels (Hugging Face
/// Transformers docs, "Model training anatomy": "GPU memory occupied: 1343 MB", "the kernels
/// alone take up 1.3GB"; nvidia-smi's MB are MiB). It leaves out the caching allocator's
/// fragmentation, which depends on the run.
constexpr double kDefaultReservedBytes = 1343.0 * 1024 * 1024;

/// The shape of a decoder-only transformer.
struct ModelShape {
    Arch arch = Arch::Gpt2;
    std::int64_t layers = 12;
    std::int64_t dModel = 768;
    std::int64_t heads = 12;
    std::int64_t kvHeads = 12;
    std::int64_t dFf = 3072;
    std::int64_t vocab = 50257;
    std::int64_t maxPositions = 1024;
    bool tied = true;
    /// Width of one attention head; 0: d_model / heads. Qwen3 and Gemma 3 set it apart from the
    /// width (Qwen3-30B-A3B: 32 heads of 128 on a width of 2048).
    std::int64_t headDim = 0;
    /// RMSNorm on each head's queries and keys before RoPE (Qwen3, Gemma 3): a head_dim weight each.
    bool qkNorm = false;
    // Multi-head latent attention (DeepSeek-V2/V3): K and V come from a kv_lora_rank-wide latent,
    // Q from a q_lora_rank-wide one (0: a full-rank Q), each head adds qk_rope_dim decoupled RoPE
    // dimensions to its head_dim (qk_nope_head_dim), and values are v_head_dim wide.
    // kv_lora_rank = 0 is ordinary multi-head or grouped-query attention.
    std::int64_t qLoraRank = 0;
    std::int64_t kvLoraRank = 0;
    std::int64_t qkRopeDim = 0;
    std::int64_t vHeadDim = 0;         ///< 0: head_dim

    bool mla() const { return kvLoraRank > 0; }
    // Mixture-of-Experts (Shazeer et al. 2017; Fedus et al. 2021): every block's MLP becomes a
    // router over `experts` MLPs of width `expertDff`, each token going to its top
    // `expertsPerToken`, plus `sharedExperts` MLPs every token goes through (DeepSeek-V3).
    // experts = 0 is a dense model (d_ff), and the other three are then ignored.
    std::int64_t experts = 0;
    std::int64_t expertsPerToken = 2;
    std::int64_t sharedExperts = 0;
    std::int64_t expertDff = 0;       ///< 0: d_ff
    /// The first blocks keep a dense MLP of d_ff (DeepSeek-V3's first_k_dense_replace = 3).
    std::int64_t denseLayers = 0;
    /// The router carries a bias per expert (DeepSeek-V3's e_score_correction_bias).
    bool routerBias = false;
    /// llama family: every linear layer of a block has a bias (the Q, K, V and output projections,
    /// the router, each MLP or expert's gate-and-up and down), as gpt-oss has; gpt2 always does.
    bool linearBias = false;
    /// A learned sink logit per head in every block, joining each softmax (gpt-oss).
    bool attentionSinks = false;
    /// Sliding-window attention: blocks whose queries see only the last `slidingWindow` keys
    /// (0: none). Every `globalEvery`-th block keeps full attention (gpt-oss 2, Gemma 3 6);
    /// 0: every block is windowed (Mistral 7B v0.1).
    std::int64_t slidingWindow = 0;
    std::int64_t globalEvery = 0;
    /// Multi-token prediction modules (DeepSeek-V3's num_nextn_predict_layers = 1): each adds two
    /// norms, a 2d x d projection, one more block and the head's norm, sharing the embedding and
    /// the LM head. Counted apart from the main model, as DeepSeek counts "671B + 14B".
    std::int64_t mtpDepth = 0;

    bool moe() const { return experts > 0; }

    bool operator==(const ModelShape &) const = default;
};

/// One measured run a calibration was fitted to, as `napkin calibrate` saw it.
struct CalibrationRun {
    QString label;                      ///< what ran: model, GPUs, layout
    double measuredStepSeconds = 0;
    std::optional<double> measuredPeakBytes;
    double estimatedBeforeSeconds = 0;  ///< Napkin's step before the fit
    double estimatedAfterSeconds = 0;   ///< and with the fitted factors

    bool operator==(const CalibrationRun &) const = default;
};

/// Scale factors fitted to measured runs (`napkin calibrate`, least squares on the log of the
/// step time). Each multiplies one part of the bottom-up estimate: every kernel's FLOP time
/// (compute), its byte time (memory traffic), and every collective's time (communication).
/// 1 is the uncalibrated estimate.
struct Calibration {
    double compute = 1;
    double memory = 1;
    double comm = 1;
    QList<CalibrationRun> runs;
    QString date;  ///< the day it was fitted, ISO 8601
    QString note;

    bool operator==(const Calibration &) const = default;
};

struct Scenario;

/// A scenario pinned for comparison (View > Pin Baseline): the charts draw it as a ghost and
/// state the differences. Equal when both are absent or both hold equal scenarios; a pinned
/// scenario never holds a baseline of its own.
struct PinnedBaseline {
    std::shared_ptr<const Scenario> scenario;

    explicit operator bool() const { return scenario != nullptr; }
    bool operator==(const PinnedBaseline &other) const;
};

/// The single input to every computation: one training run on one kind of GPU.
/// Defaults are GPT-2 small (Radford et al. 2019) on 8 H100s, the source document's 300B tokens.
struct Scenario {
    QString presetId = QStringLiteral("gpt2-small");  ///< informational: where the shape came from
    ModelShape model;
    /// A parameter count given directly (the source document's N): used as both total and
    /// non-embedding count; shape-dependent figures still use `model`.
    std::optional<std::int64_t> paramsOverride;
    std::int64_t seqLen = 1024;       ///< tokens per sequence
    std::int64_t microBatch = 8;      ///< sequences per GPU per forward/backward pass
    double tokens = 300e9;            ///< training tokens, the source document's D
    QString gpuId = QStringLiteral("h100-sxm");
    std::int64_t gpus = 8;            ///< data-parallel GPUs
    int zeroStage = 0;                ///< limits::minZeroStage to maxZeroStage, Rajbhandari et al. 2019
    QString recipeId = QStringLiteral("bf16-mixed-adamw");
    Recompute recompute = Recompute::None;
    /// Under selective recompute, the modules whose outputs the backward recomputes instead of
    /// storing (Megatron-Core's --recompute-modules with --recompute-granularity selective):
    /// the attention core (core_attn, Korthikanti et al. 2022's selective, its default), the
    /// block norms (layernorm), the routed experts' activation (moe_act) and multi-head latent
    /// attention's up projections with their RoPE (mla_up_proj). None and full ignore them.
    bool recomputeCoreAttention = true;
    bool recomputeNorms = false;
    bool recomputeMoeActivation = false;
    bool recomputeMlaUpProjection = false;
    bool flashAttention = false;
    bool includeActivations = true;
    ActivationModel activationModel = ActivationModel::Korthikanti;
    bool dropout = false;             ///< dropout layers present (PyTorch activation model only)
    bool causalHalving = false;       ///< count only the lower triangle of the attention matmuls
    FlopsBasis flopsBasis = FlopsBasis::Detailed;
    /// The achieved fraction of peak the user sets, limits::minMfu (1e-3) to 1: HFU or MFU as
    /// `utilizationBasis` says (JSON key "mfu" and option --mfu, kept from before the basis).
    double utilizationFraction = 0.4;
    UtilizationBasis utilizationBasis = UtilizationBasis::Hfu;
    /// Rental price of one GPU-hour set by the user; absent: the chosen GPU's catalog price
    /// (GpuSpec::pricePerGpuHourUsd), so that changing the GPU changes the price with it.
    std::optional<double> pricePerGpuHourUsd;
    /// Bytes each GPU holds besides the model: CUDA context, kernels and library handles
    /// (kDefaultReservedBytes); 0 to limits::maxReservedBytes. JSON "reserved_bytes".
    double reservedBytes = kDefaultReservedBytes;
    // The parallel layout (Narayanan et al. 2021; Korthikanti et al. 2022). Ranks are ordered
    // TP fastest, then CP, DP and PP (Megatron-LM's default order), so a group of n ranks with
    // stride k stays inside one node when n x k <= GPUs per node. DP = gpus / (tp x pp x cp).
    std::int64_t tp = 1;              ///< tensor-parallel ranks (divide heads and kv_heads)
    bool sequenceParallel = false;    ///< split the TP-replicated activations too (needs tp > 1 to matter)
    /// Overlap TP's sequence-parallel all-gathers and reduce-scatters with the GEMMs they feed
    /// and drain (Megatron-LM's --tp-comm-overlap, Transformer Engine's userbuffers); needs SP.
    bool tpOverlap = false;
    std::int64_t pp = 1;              ///< pipeline stages (at most the layers; uneven stages allowed)
    std::int64_t vpp = 1;             ///< virtual stages per pipeline rank (interleaved 1F1B)
    /// How FP8 GEMMs' scales are found (matters only under an fp8 recipe).
    Fp8Scaling fp8Scaling = Fp8Scaling::Delayed;
    /// The loss kernel over the logits (training only).
    CrossEntropy crossEntropy = CrossEntropy::Fused;
    /// The pipeline schedule when pp > 1 (none without a pipeline).
    PipelineSchedule ppSchedule = PipelineSchedule::OneFOneB;
    std::int64_t cp = 1;              ///< context-parallel ranks (split the sequence)
    /// Expert-parallel ranks: the routed experts are split over ep ranks of DP x CP (each holds
    /// experts / ep of them); ZeRO shards the expert state over the other DP x CP / ep ranks.
    std::int64_t ep = 1;
    /// Expert tensor-parallel ranks: each routed expert split over etp ranks, and EP x ETP
    /// folded over the attention's TP x CP x DP ranks (Megatron-Core's MoE parallel folding,
    /// Liu et al. 2025, --expert-tensor-parallel-size); absent: tp, as Megatron-Core defaults.
    std::optional<std::int64_t> etp;
    /// Slots each expert has, as a multiple of its even share of the routed tokens (Fedus et
    /// al. 2021, Section 2.2); experts compute and keep activations for every slot.
    double capacityFactor = 1;
    /// Hide the MoE all-to-all behind another micro-batch's compute, as DeepSeek-V3's DualPipe
    /// overlaps a forward and a backward chunk; off, it is exposed whole.
    bool epOverlap = false;
    /// Node-limited dispatch: each token's routed rows reach at most this many nodes, crossing
    /// the scale-out link once per node and fanned out over the scale-up link there (DeepSeek-V3,
    /// Section 3.2.2: 4); 0: every routed row travels to its rank on its own (Megatron-Core's
    /// all-to-all dispatcher).
    std::int64_t epNodeLimit = 0;
    /// Reduce the gradients across data-parallel ranks in buckets while the last micro-batch's
    /// backward still runs (PyTorch DDP; Megatron-Core's --overlap-grad-reduce); off, after the
    /// backward, as Megatron-LM's own data parallelism did before 2023.
    bool dpOverlap = true;
    /// The weight-gradient GEMMs add into the gradients earlier micro-batches left (Megatron-LM's
    /// gradient-accumulation fusion, Transformer Engine's main_grad); off, each micro-batch after
    /// the first adds its gradients in a kernel of its own (PyTorch's AccumulateGrad).
    bool gradAccumulationFusion = true;
    Offload offload = Offload::None;
    /// Sequences per optimizer step over all replicas; absent: one micro-batch per DP rank
    /// (the meaning `batch` x `gpus` had before layouts).
    std::optional<std::int64_t> globalBatch;
    /// GPUs that share the scale-up link (NVLink domain); absent: the GPU's catalog node.
    std::optional<std::int64_t> gpusPerNode;
    /// The scale-out link between nodes (interconnects.json id); absent: the GPU's default.
    QString interconnectId;
    /// Fraction of peak a large matmul reaches and of bandwidth a streaming kernel reaches;
    /// absent: the GPU's catalog figures.
    std::optional<double> efficiencyMatmul;
    std::optional<double> efficiencyMemory;
    TimeBasis timeBasis = TimeBasis::Utilization;
    /// The caching allocator's margin, a fraction of everything else a GPU holds for the model
    /// (0 to limits::maxAllocatorMargin). PyTorch's allocator rounds and caches blocks, so
    /// nvidia-smi shows more than torch.cuda.max_memory_allocated(); by how much depends on the
    /// run (PyTorch docs, "CUDA semantics: memory management"), so Napkin charges none unless set.
    double allocatorMargin = 0;
    /// The scenario pinned for comparison, if any (JSON "baseline", a scenario object).
    PinnedBaseline baseline;

    // Serving (mode inference; core/run/inference.h). The layout's TP, PP and EP serve too; a
    // model replica is tp x pp GPUs and the scenario's GPUs hold gpus / (tp x pp) replicas.
    Mode mode = Mode::Training;
    std::int64_t promptTokens = 512;   ///< input tokens per request
    std::int64_t outputTokens = 256;   ///< generated tokens per request
    /// Sequences in flight per replica; absent: the most the KV pool holds at prompt + output.
    std::optional<std::int64_t> concurrency;
    NumberFormat weightDtype = NumberFormat::Bf16;
    NumberFormat kvDtype = NumberFormat::Bf16;
    std::int64_t quantGroup = 128;     ///< weights per scale group for int8 and int4
    double gpuMemoryUtilization = 0.9; ///< vLLM's gpu_memory_utilization: the share of memory it may use
    std::int64_t kvBlockTokens = 16;   ///< tokens per KV-cache block (vLLM's block_size)
    std::int64_t prefillChunk = 8192;  ///< tokens per prefill batch (vLLM's max_num_batched_tokens)
    /// The scheduler's cap on sequences running together (vLLM's max_num_seqs, 1024 on
    /// H100-class GPUs; TensorRT-LLM's max_batch_size): `concurrency` max is the smaller of it
    /// and what the KV pool holds. The default caps nothing.
    std::int64_t maxNumSeqs = limits::maxConcurrency;

    /// Factors fitted to the user's own measured runs (JSON "calibration"); absent: uncalibrated.
    std::optional<Calibration> calibration;

    bool operator==(const Scenario &) const = default;
};

/// One value of a scenario enum, spelled once: the name JSON and the command line use ("selective")
/// and the label the window's chooser shows ("Selective (attention)"). Each enum has one table
/// below, in the order the window lists them; the name functions, the field table's choices
/// and the window's combo boxes all read it.
struct EnumEntry {
    int value;          ///< the enum value (static_cast<int>), or a ZeRO stage
    const char *name;   ///< JSON and command line
    const char *label;  ///< the window (translated there in the "napkin::ScenarioField" context)
};

inline constexpr EnumEntry kArchNames[] = {
    {static_cast<int>(Arch::Gpt2), "gpt2", "GPT-2"},
    {static_cast<int>(Arch::Llama), "llama", "Llama"},
};
inline constexpr EnumEntry kRecomputeNames[] = {
    {static_cast<int>(Recompute::None), "none", "None"},
    {static_cast<int>(Recompute::Selective), "selective", "Selective (the modules chosen)"},
    {static_cast<int>(Recompute::Full), "full", "Full (layer inputs only)"},
};
inline constexpr EnumEntry kFp8ScalingNames[] = {
    {static_cast<int>(Fp8Scaling::Delayed), "delayed", "Delayed"},
    {static_cast<int>(Fp8Scaling::Current), "current", "Current"},
};
inline constexpr EnumEntry kCrossEntropyNames[] = {
    {static_cast<int>(CrossEntropy::Unfused), "unfused", "Unfused (fp32)"},
    {static_cast<int>(CrossEntropy::Fused), "fused", "Fused (native)"},
    {static_cast<int>(CrossEntropy::TransformerEngine), "te", "Transformer Engine"},
};
inline constexpr EnumEntry kPipelineScheduleNames[] = {
    {static_cast<int>(PipelineSchedule::OneFOneB), "1f1b", "1F1B"},
    {static_cast<int>(PipelineSchedule::DualPipe), "dualpipe", "DualPipe (DeepSeek-V3)"},
};
inline constexpr EnumEntry kActivationModelNames[] = {
    {static_cast<int>(ActivationModel::Korthikanti), "korthikanti", "Korthikanti et al. 2022"},
    {static_cast<int>(ActivationModel::PyTorch), "pytorch", "As in PyTorch (measured)"},
};
inline constexpr EnumEntry kOffloadNames[] = {
    {static_cast<int>(Offload::None), "none", "Nothing"},
    {static_cast<int>(Offload::Optimizer), "optimizer", "Optimizer + grads"},
    {static_cast<int>(Offload::Params), "params", "+ parameters"},
};
// The detailed count first: it is the default, and the window has always offered it first.
inline constexpr EnumEntry kFlopsBasisNames[] = {
    {static_cast<int>(FlopsBasis::Detailed), "detailed", "Detailed (matmuls x 3)"},
    {static_cast<int>(FlopsBasis::SixND), "6nd", "6ND (Kaplan et al. 2020)"},
};
inline constexpr EnumEntry kUtilizationBasisNames[] = {
    {static_cast<int>(UtilizationBasis::Hfu), "hfu", "HFU (counts recompute)"},
    {static_cast<int>(UtilizationBasis::Mfu), "mfu", "MFU (model FLOPs)"},
};
// "mfu" for the utilisation basis: the JSON name is older than HFU.
inline constexpr EnumEntry kTimeBasisNames[] = {
    {static_cast<int>(TimeBasis::Utilization), "mfu", "Your utilisation"},
    {static_cast<int>(TimeBasis::Estimated), "estimated", "Estimated step"},
};

inline constexpr EnumEntry kModeNames[] = {
    {static_cast<int>(Mode::Training), "training", "Training"},
    {static_cast<int>(Mode::Inference), "inference", "Inference (serving)"},
};
inline constexpr EnumEntry kWeightDtypeNames[] = {
    {static_cast<int>(NumberFormat::Bf16), "bf16", "bf16"},
    {static_cast<int>(NumberFormat::Fp16), "fp16", "fp16"},
    {static_cast<int>(NumberFormat::Fp8), "fp8", "fp8 (per-tensor scale)"},
    {static_cast<int>(NumberFormat::Int8), "int8", "int8 (group scales)"},
    {static_cast<int>(NumberFormat::Int4), "int4", "int4 (group scales)"},
};
inline constexpr EnumEntry kKvDtypeNames[] = {
    {static_cast<int>(NumberFormat::Bf16), "bf16", "bf16"},
    {static_cast<int>(NumberFormat::Fp16), "fp16", "fp16"},
    {static_cast<int>(NumberFormat::Fp8), "fp8", "fp8"},
    {static_cast<int>(NumberFormat::Int8), "int8", "int8"},
};

/// A table's name for `value`; empty when it has none.
QString enumName(std::span<const EnumEntry> table, int value);
/// The value a table names `name`; nullopt for a name it does not have.
std::optional<int> enumValue(std::span<const EnumEntry> table, const QString &name);
/// Every name of a table, in its order.
QStringList enumNames(std::span<const EnumEntry> table);

QString archName(Arch arch);
QString modeName(Mode mode);
std::optional<Mode> modeFromName(const QString &name);
/// "bf16", "int4": the same names in both dtype tables.
QString numberFormatName(NumberFormat f);
std::optional<NumberFormat> numberFormatFromName(const QString &name);
QString timeBasisName(TimeBasis basis);
std::optional<TimeBasis> timeBasisFromName(const QString &name);
std::optional<Arch> archFromName(const QString &name);
QString offloadName(Offload offload);
std::optional<Offload> offloadFromName(const QString &name);
QString recomputeName(Recompute recompute);
std::optional<Recompute> recomputeFromName(const QString &name);
/// Whether selective recompute drops more than FlashAttention's log-sum-exp for this scenario,
/// so that the planner weighs it: its attention core when the attention is unfused (under
/// FlashAttention it reruns the fused kernel to drop only that fp32 log-sum-exp), its norms,
/// its experts' activation (a Mixture-of-Experts model) or its latent up projections (MLA).
bool selectiveRecomputeWorthWeighing(const Scenario &s);
/// The recompute choice with selective's modules where the model has them, as Megatron-Core
/// names them: "none", "full", "selective (core_attn, mla_up_proj)", "selective (nothing)".
QString recomputeText(const Scenario &s);
QString activationModelName(ActivationModel model);
std::optional<ActivationModel> activationModelFromName(const QString &name);
QString flopsBasisName(FlopsBasis basis);
std::optional<FlopsBasis> flopsBasisFromName(const QString &name);
QString utilizationBasisName(UtilizationBasis basis);
std::optional<UtilizationBasis> utilizationBasisFromName(const QString &name);

} // namespace napkin
