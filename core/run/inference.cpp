// Serving from the per-device workload: the same ops as a training step's forward, built for a
// prompt (prefill) or for one token per sequence in flight (decode), with decode's attention
// reading the KV cache instead of materialising a sequence.
#include "core/run/inference.h"

#include "core/model/layout.h"
#include "core/model/limits.h"
#include "core/model/modelshape.h"
#include "core/run/kvcache.h"
#include "core/run/steptime.h"
#include "core/workload/activations.h"
#include "core/workload/comm.h"
#include "core/workload/workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

namespace napkin {

namespace {

constexpr double kActivationBytes = 2;  // bf16 activations and the bf16-kept tensors
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// What collectives add to a GPU's memory outside PyTorch's allocator when TP or EP > 1 (NCCL's
/// and the custom all-reduce's buffers and workspaces): measured, not derived. vLLM 0.19 on
/// H100-80GB logs a "non-torch forward increase" of 2.07 GiB for Llama-3.1-8B at TP 2 against
/// 0.25 GiB at TP 1 (llm-d-planner's accuracy study, accuracy/results/v0.19.0/logs,
/// https://github.com/llm-d-incubation/llm-d-planner/pull/205): 1.82 GiB.
constexpr double kCommBufferBytes = 1.82 * 1024 * 1024 * 1024;

/// The sequences vLLM's profiling forward samples (its max_num_seqs, 1024 by default on
/// H100-class GPUs).
constexpr double kProfiledSequences = 1024;

QString gib(double bytes)
{
    return QString::number(bytes / kGiB, 'f', 1) + QStringLiteral(" GiB");
}

/// One kind of pipeline stage: its blocks, dense blocks, and whether it holds the embedding or
/// the head. A replica's stages are a few kinds (first, middle, last), each timed once.
struct StageKind {
    std::int64_t stage = 0;  ///< one stage of this kind
    std::int64_t layers = 0;
    std::int64_t dense = 0;
    bool first = false, last = false;
    double stages = 0;       ///< how many stages are of this kind
};

class Server final
{
public:
    Server(const Scenario &s, const GpuSpec &gpu, const Interconnect &scaleUp, const Interconnect &scaleOut)
        : s(s), m(s.model), gpu(gpu), up(scaleUp), out(scaleOut)
    {
        layout = deriveLayout(s, gpu.gpusPerNode);
        // fp8 weights run fp8 GEMMs (W8A8) where the GPU has fp8 tensor cores; int8 and int4 are
        // weight-only (W8A16, W4A16): dequantized in the GEMM and multiplied in bf16 (vLLM's
        // Marlin kernels, Frantar et al. 2024).
        gemmDtype = s.weightDtype == NumberFormat::Fp8 && gpu.peakFor(QStringLiteral("fp8")) ? QStringLiteral("fp8")
                                                                                               : QStringLiteral("bf16");
        // The training step's machine: the same efficiencies, FlashAttention's and calibration.
        // A prompt's attention is causal (input() sets it on the workload), so FlashAttention
        // runs at its causal figures.
        machine = stepMachine(s, gpu, Links{&up, &out}, QStringLiteral("bf16"), gemmDtype, true);
        quantBytes = weightBytesPerParam(s.weightDtype, static_cast<double>(s.quantGroup));
        kvElement = elementBytes(s.kvDtype);
        stageKinds();
    }

    const Scenario &s;
    const ModelShape &m;
    const GpuSpec &gpu;
    const Interconnect &up, &out;
    Layout layout;
    StepMachine machine;
    QString gemmDtype;
    double quantBytes = 2;
    double kvElement = 2;
    std::vector<StageKind> kinds;
    const StageKind *largest = nullptr;  ///< the kind with the most blocks (the memory's GPU)

    void stageKinds()
    {
        const std::vector<std::int64_t> layers = stageLayers(m.layers, s.pp);
        const std::int64_t denseAll = denseBlocks(s);
        const std::vector<std::int64_t> dense = denseAll > 0 ? stageDenseLayers(m.layers, s.pp, denseAll)
                                                             : std::vector<std::int64_t>(layers.size(), 0);
        std::map<std::tuple<std::int64_t, std::int64_t, bool, bool>, std::size_t> index;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const bool first = i == 0, last = i + 1 == layers.size();
            const auto key = std::make_tuple(layers[i], dense[i], first, last);
            auto [it, added] = index.emplace(key, kinds.size());
            if (added)
                kinds.push_back(StageKind{static_cast<std::int64_t>(i), layers[i], dense[i], first, last, 0});
            kinds[it->second].stages += 1;
        }
        largest = &kinds.front();
        for (const StageKind &k : kinds)
            if (k.layers > largest->layers || (k.layers == largest->layers && k.last))
                largest = &k;
    }

    WorkloadInput input(const StageKind &k, double sequences, double tokens) const
    {
        WorkloadInput in = workloadInput(s, kActivationBytes, 2, 0, 0, 0);
        in.layers = static_cast<double>(k.layers);
        in.denseLayers = static_cast<double>(k.dense);
        in.firstStage = k.first;
        in.lastStage = k.last;
        in.microBatch = sequences;
        in.seqLen = tokens;
        in.cp = 1;
        in.sp = false;
        in.flash = true;    // serving engines run fused attention (vLLM: FlashAttention, FlashInfer)
        in.causal = true;
        in.pairsPerBlock = m.slidingWindow > 0 ? attentionPairs(m, tokens, true) / static_cast<double>(m.layers) : 0;
        in.recompute = Recompute::None;
        in.includeActivations = false;
        in.dropout = false;
        in.capacityFactor = 1;  // dropless: serving pads no expert
        in.mtpDepth = 0;        // MTP modules serve only speculative decoding, which Napkin leaves out
        in.optimizerParams = 0;
        return in;
    }

    /// Whether an op's weights are quantized: the blocks' linear layers but the router.
    static bool quantized(const WorkloadOp &op)
    {
        return op.runsAtGemmDtype() && op.region == Region::Block;
    }

    double paramBytes(const WorkloadOp &op) const { return quantized(op) ? quantBytes : 2; }

    /// The weights one GPU of a stage kind holds, with their scales.
    double weights(const StageKind &k) const
    {
        thread_local std::vector<WorkloadOp> all;
        buildWorkload(input(k, 1, 1), all);
        double bytes = 0;
        for (const WorkloadOp &op : all)
            if (op.phase == Phase::Forward)
                bytes += op.count * op.params * paramBytes(op);
        return bytes;
    }

    /// The forward ops of `sequences` x `tokens` tokens on one GPU of a stage kind, for a phase.
    /// Prefill: the head runs on each sequence's last token only; chunks of prefill_chunk
    /// tokens read the weights again. Decode: one token per sequence at an average `context`,
    /// attention reading each sequence's cache.
    void ops(const StageKind &k, Phase phase, double sequences, double tokens, double context,
             std::vector<WorkloadOp> &result) const
    {
        thread_local std::vector<WorkloadOp> all;
        buildWorkload(input(k, sequences, tokens), all);
        result.clear();
        const double routed = sequences * tokens * static_cast<double>(s.ep);
        const double chunks = phase == Phase::Prefill
                                  ? std::max(1.0, std::ceil(sequences * tokens / static_cast<double>(s.prefillChunk)))
                                  : 1.0;
        const auto place = [&](WorkloadOp op) {
            op.phase = phase;
            op.savedBytes = 0;
            op.launches = chunks;  // each chunk runs every kernel
            if (op.kind == OpKind::Matmul && op.params > 0) {
                const double bytesPerParam = paramBytes(op);
                op.bytes -= op.params * (2 - bytesPerParam);
                // Mixture-of-Experts: only the experts some token picks are read, E(1 - (1 - k/E)^n)
                // of E for n routed tokens (each picks k of E uniformly).
                if (op.expert && m.experts > 0) {
                    const double untouched = std::pow(1 - static_cast<double>(m.expertsPerToken) / static_cast<double>(m.experts), routed);
                    op.bytes -= op.params * bytesPerParam * untouched;
                }
                op.bytes += (chunks - 1) * op.params * bytesPerParam;
            }
            result.push_back(op);
        };
        for (const WorkloadOp &op : all) {
            if (op.phase != Phase::Forward || op.kind == OpKind::Loss)
                continue;
            if (phase == Phase::Decode && op.kind == OpKind::Attention)
                continue;
            if (phase == Phase::Prefill && op.region == Region::Head && tokens > 1)
                continue;
            place(op);
        }
        if (phase == Phase::Prefill && k.last && tokens > 1) {
            thread_local std::vector<WorkloadOp> head;
            buildWorkload(input(k, sequences, 1), head);
            for (const WorkloadOp &op : head)
                if (op.phase == Phase::Forward && op.region == Region::Head && op.kind != OpKind::Loss)
                    place(op);
        }
        if (phase == Phase::Decode)
            result.push_back(decodeAttention(k, sequences, context));
    }

    /// One block's attention for one new token per sequence: it reads each sequence's cache
    /// (this GPU's KV heads; a latent every TP rank keeps whole) and scores the token against
    /// it. Multi-head latent attention runs absorbed (DeepSeek-V2, Section 2.1.2): scores over
    /// kv_lora_rank + qk_rope_dim, values over kv_lora_rank.
    WorkloadOp decodeAttention(const StageKind &k, double sequences, double context) const
    {
        const double tp = static_cast<double>(s.tp);
        const double kept = keptTokensPerBlock(m, context);
        const double cachePerToken = kvBytesPerTokenPerBlock(m, kvElement) / (m.mla() ? 1 : tp);
        const AttentionWidths w = attentionWidths(m);
        const double heads = static_cast<double>(m.heads) / tp;
        const double perKey = m.mla() ? heads * static_cast<double>(2 * m.kvLoraRank + m.qkRopeDim)
                                      : static_cast<double>(w.q + w.out) / tp;
        WorkloadOp op;
        op.name = "attention (KV read)";
        op.phase = Phase::Decode;
        op.kind = OpKind::Attention;
        op.region = Region::Block;
        op.count = static_cast<double>(k.layers);
        op.flops = sequences * 2 * kept * perKey;
        op.matmulFlops = op.flops;
        op.bytes = sequences * (kept * cachePerToken + static_cast<double>(w.q + w.out) / tp * kActivationBytes);
        return op;
    }

    /// The collectives of one pass of `tokens` tokens through one GPU of a stage kind: two TP
    /// all-reduces per block (attention and MLP outputs; Shoeybi et al. 2019, Section 3) and
    /// one for the vocabulary-parallel embedding; an EP dispatch and combine per MoE block.
    double comm(const StageKind &k, double tokens) const
    {
        double seconds = 0;
        const double d = static_cast<double>(m.dModel);
        if (s.tp > 1) {
            const Links::Ring ring = machine.links.ring(CommGroup::Tp, layout);
            const double count = 2.0 * static_cast<double>(k.layers) + (k.first ? 1 : 0);
            seconds += machine.commScale * count * collectiveSeconds(Collective::AllReduce, tokens * d * kActivationBytes, s.tp,
                                                 ring.bandwidth, ring.link->latencySeconds);
        }
        if (s.ep > 1 && m.moe()) {
            const std::int64_t inNode = Links::membersPerNode(CommGroup::Ep, layout);
            const double moeBlocks = static_cast<double>(k.layers - k.dense);
            seconds += machine.commScale * 2 * moeBlocks
                       * nodeLimitedAllToAllSeconds(tokens * static_cast<double>(m.expertsPerToken) * d * kActivationBytes,
                                                    static_cast<double>(m.expertsPerToken), s.epNodeLimit, s.ep, inNode,
                                                    *machine.links.scaleUp,
                                                    inNode < s.ep ? *machine.links.scaleOut : *machine.links.scaleUp);
        }
        return seconds;
    }

    /// The hops between a replica's stages for `tokens` tokens.
    double hops(double tokens) const
    {
        if (s.pp <= 1)
            return 0;
        const Interconnect &link = machine.links.forGroup(CommGroup::Pp, layout);
        return machine.commScale * static_cast<double>(s.pp - 1)
               * collectiveSeconds(Collective::SendRecv, tokens * static_cast<double>(m.dModel) * kActivationBytes, 2,
                                   link.collectiveBandwidth(), link.latencySeconds);
    }

    struct Timed {
        double compute = 0, comm = 0;
        double total() const { return compute + comm; }
    };

    Timed stageTime(const StageKind &k, Phase phase, double sequences, double tokens, double context) const
    {
        thread_local std::vector<WorkloadOp> list;
        ops(k, phase, sequences, tokens, context, list);
        return {stageCompute(list, machine).total(), comm(k, sequences * tokens)};
    }

    /// Every sequence's prompt through the replica's stages in turn.
    Timed prefill(double sequences) const
    {
        Timed t;
        for (const StageKind &k : kinds) {
            const Timed one = stageTime(k, Phase::Prefill, sequences, static_cast<double>(s.promptTokens), 0);
            t.compute += k.stages * one.compute;
            t.comm += k.stages * one.comm;
        }
        t.comm += hops(sequences * static_cast<double>(s.promptTokens));
        return t;
    }

    /// `tokens` for each of `sequences` as the engine runs a batch: with pipeline stages, as
    /// pp groups in flight (vLLM's virtual engines), every stage busy at once, so the batch
    /// takes pp turns of the slowest stage.
    Timed groupsInFlight(Phase phase, double sequences, double tokens, double context) const
    {
        const double pp = static_cast<double>(s.pp);
        const double group = std::ceil(sequences / pp);
        Timed slowest;
        for (const StageKind &k : kinds) {
            const Timed one = stageTime(k, phase, group, tokens, context);
            if (one.total() > slowest.total())
                slowest = one;
        }
        slowest.compute *= pp;
        slowest.comm = slowest.comm * pp + hops(group * tokens);
        return slowest;
    }

    /// The batch's prompts in steady state, in flight like its tokens. One request's prefill,
    /// a latency, goes through the stages in turn (prefill(1)); charged so for the whole batch,
    /// the prompts had taken pp times the GPU time they do, and serving on 8 stages had put 92%
    /// of the GPUs' time in prefill.
    Timed prefillBatch(double sequences) const
    {
        return groupsInFlight(Phase::Prefill, sequences, static_cast<double>(s.promptTokens), 0);
    }

    /// One token for each of `sequences`, at the average context.
    Timed decodeStep(double sequences) const
    {
        const double context = static_cast<double>(s.promptTokens) + static_cast<double>(s.outputTokens) / 2;
        return groupsInFlight(Phase::Decode, sequences, 1, context);
    }

    ServingPoint point(std::int64_t concurrency) const
    {
        const double b = static_cast<double>(concurrency);
        const double o = static_cast<double>(s.outputTokens);
        ServingPoint p;
        p.concurrency = concurrency;
        const double step = decodeStep(b).total();
        // Steady state: each step admits concurrency / output requests, on average, and runs
        // their prefills beside the batch's decode (TPOT spreads them over the output tokens).
        // A new request's first token ends the step that prefills it, so that step carries the
        // admitted prefills, its own at least, and the others' decode: at 3,970 sequences of 256
        // output tokens, 15.5 prompts a step, the TTFT of its prefill alone (144 ms) had read 7x
        // shorter than the step it sits in (980 ms).
        const double prefillsPerToken = prefillBatch(b).total() / o;
        const double admitted = std::max(prefill(1).total(), prefillsPerToken);
        p.tpotSeconds = step + prefillsPerToken;
        p.ttftSeconds = admitted + (concurrency > 1 ? decodeStep(b - 1).total() : 0);
        p.e2eSeconds = p.ttftSeconds + (o - 1) * p.tpotSeconds;
        p.outputTokensPerS = static_cast<double>(layout.dp) * b / p.tpotSeconds;
        return p;
    }

    /// The fewest sequences whose decode GEMMs reach the GEMM ridge (they only gain intensity
    /// as sequences share each weight read); 0 when not within limits::maxConcurrency.
    double gemmsComputeBoundFrom() const
    {
        const double ridge = machine.gemmPeak() / machine.bandwidthBytesPerS;
        const auto bound = [&](double b) {
            thread_local std::vector<WorkloadOp> list;
            ops(*largest, Phase::Decode, b, 1, static_cast<double>(s.promptTokens), list);
            double flops = 0, bytes = 0;
            for (const WorkloadOp &op : list)
                if (op.kind == OpKind::Matmul) {
                    flops += op.count * op.flops;
                    bytes += op.count * op.bytes;
                }
            return flops / bytes >= ridge;
        };
        double lo = 1, hi = static_cast<double>(limits::maxConcurrency);
        if (bound(lo))
            return lo;
        if (!bound(hi))
            return 0;
        while (hi - lo > 1) {
            const double mid = std::floor((lo + hi) / 2);
            (bound(mid) ? hi : lo) = mid;
        }
        return hi;
    }

    /// The peak workspace of one prefill chunk: the largest op's activations in and out, beside
    /// the residual stream, and the sampler's logits and probabilities (what vLLM's profiling
    /// forward of max_num_batched_tokens measures as its "torch peak memory increase").
    double activations() const
    {
        const double tokens = static_cast<double>(s.prefillChunk);
        thread_local std::vector<WorkloadOp> all;
        buildWorkload(input(*largest, 1, tokens), all);
        double peak = 0;
        for (const WorkloadOp &op : all)
            if (op.phase == Phase::Forward && op.region == Region::Block)
                peak = std::max(peak, op.bytes - op.params * 2);
        // vLLM's profiling forward also samples max_num_seqs sequences: their fp32 logits and
        // probabilities over the vocabulary. Napkin takes vLLM V1's default of 1024 on H100-class
        // GPUs (vllm/engine/arg_utils.py, EngineArgs._set_default_args), whatever max_num_seqs.
        const double sampler = 2 * kProfiledSequences * static_cast<double>(m.vocab) * 4;
        return peak + tokens * static_cast<double>(m.dModel) * kActivationBytes + sampler;
    }
};

/// Places ops on the roofline and returns their summed roofline seconds.
double addOps(RooflineReport &r, const std::vector<WorkloadOp> &ops)
{
    double seconds = 0;
    for (const WorkloadOp &w : ops) {
        r.ops.append(placeOnRoofline(w, r));
        seconds += r.ops.last().count * r.ops.last().seconds;
    }
    return seconds;
}

} // namespace

Result<InferenceReport> computeInference(const Scenario &s, const GpuSpec &gpu, const Interconnect &scaleUp,
                                         const Interconnect &scaleOut, ServingDetail detail)
{
    const Server server(s, gpu, scaleUp, scaleOut);
    const ModelShape &m = s.model;
    const StageKind &big = *server.largest;
    InferenceReport r;
    r.replicaGpus = static_cast<double>(s.tp * s.pp);
    r.replicas = static_cast<double>(server.layout.dp);
    r.gemmDtype = server.gemmDtype;

    // The cache: the model's, then this GPU's share (its KV heads, or the whole latent; its
    // stage's blocks), in blocks of kv_block_tokens.
    const double context = static_cast<double>(s.promptTokens + s.outputTokens);
    r.kvBytesPerToken = kvBytesPerToken(m, server.kvElement);
    r.kvBytesPerSequence = kvBytesPerSequence(m, server.kvElement, context);
    const double tp = static_cast<double>(s.tp);
    r.kvBytesPerTokenPerGpu = static_cast<double>(big.layers) * kvBytesPerTokenPerBlock(m, server.kvElement) / (m.mla() ? 1 : tp);
    const double blockTokens = static_cast<double>(s.kvBlockTokens);
    r.kvBlockBytes = blockTokens * r.kvBytesPerTokenPerGpu;

    ServingMemory &mem = r.memory;
    mem.capacity = gpu.memoryBytes;
    mem.usable = s.gpuMemoryUtilization * gpu.memoryBytes;
    mem.weights = server.weights(big);
    mem.activations = server.activations();
    mem.commBuffers = s.tp > 1 || (s.ep > 1 && m.moe()) ? kCommBufferBytes : 0;
    mem.reserved = s.reservedBytes + mem.commBuffers;
    mem.kvPool = mem.usable - mem.weights - mem.activations - mem.reserved;
    if (mem.kvPool < r.kvBlockBytes)
        return Refusal{QStringLiteral("gpu_memory_utilization"),
                       QStringLiteral("leaves no room for the KV cache: %1% of %2 is %3, and the weights (%4), "
                                      "activations (%5) and reserved memory (%6) take %7 of it; use more GPUs per "
                                      "replica (tp, pp), smaller weights (weight_dtype) or a GPU with more memory")
                           .arg(QString::number(s.gpuMemoryUtilization * 100), gib(mem.capacity), gib(mem.usable),
                                gib(mem.weights), gib(mem.activations), gib(mem.reserved),
                                gib(mem.weights + mem.activations + mem.reserved))};
    r.kvBlocks = kvBlocks(mem.kvPool, r.kvBlockBytes);
    r.kvCapacityTokens = r.kvBlocks * blockTokens;
    const double perSequence = blocksPerSequence(m, context, blockTokens);
    r.kvMaxConcurrency = static_cast<std::int64_t>(std::min(std::floor(r.kvBlocks / perSequence),
                                                            static_cast<double>(limits::maxConcurrency)));
    r.maxConcurrency = std::min(r.kvMaxConcurrency, s.maxNumSeqs);
    if (r.kvMaxConcurrency < 1)
        return Refusal{QStringLiteral("prompt_tokens"),
                       QStringLiteral("a sequence of %1 tokens needs %2 of KV cache per GPU, and the pool holds %3; "
                                      "use fewer tokens, more GPUs per replica (tp, pp), a smaller kv_dtype or a "
                                      "higher gpu_memory_utilization")
                           .arg(static_cast<std::int64_t>(context)).arg(gib(perSequence * r.kvBlockBytes), gib(mem.kvPool))};
    if (s.concurrency && *s.concurrency > r.kvMaxConcurrency)
        return Refusal{QStringLiteral("concurrency"),
                       QStringLiteral("must be at most %1, the sequences of %2 tokens the KV pool holds per replica "
                                      "(got %3)")
                           .arg(r.kvMaxConcurrency).arg(static_cast<std::int64_t>(context)).arg(*s.concurrency)};
    r.concurrency = s.concurrency.value_or(r.maxConcurrency);
    mem.kvInUse = static_cast<double>(r.concurrency) * perSequence * r.kvBlockBytes;

    // Time at the chosen concurrency.
    const double b = static_cast<double>(r.concurrency);
    const double o = static_cast<double>(s.outputTokens);
    const auto one = server.prefill(1);
    const auto step = server.decodeStep(b);
    const auto batchPrefill = server.prefillBatch(b);
    r.prefillSeconds = one.total();
    r.prefillCommSeconds = one.comm;
    r.decodeStepSeconds = step.total();
    r.decodeCommSeconds = step.comm;
    const ServingPoint chosen = server.point(r.concurrency);
    r.ttftSeconds = chosen.ttftSeconds;
    r.tpotSeconds = chosen.tpotSeconds;
    r.e2eSeconds = chosen.e2eSeconds;
    r.outputTokensPerS = chosen.outputTokensPerS;
    const double gpus = static_cast<double>(s.gpus);
    r.outputTokensPerSPerGpu = r.outputTokensPerS / gpus;
    r.inputTokensPerS = r.outputTokensPerS * static_cast<double>(s.promptTokens) / o;
    r.prefillShare = batchPrefill.total() / (o * r.tpotSeconds);
    // Each phase pays for its share of the GPUs' time (prefill for the input tokens, decode for
    // the output tokens); energy at every GPU's TDP goes to the output tokens.
    if (const auto price = s.pricePerGpuHourUsd ? s.pricePerGpuHourUsd : gpu.pricePerGpuHourUsd) {
        const double usdPerS = *price * gpus / 3600;
        r.costPerMillionOutputTokensUsd = usdPerS * (1 - r.prefillShare) / r.outputTokensPerS * 1e6;
        r.costPerMillionInputTokensUsd = usdPerS * r.prefillShare / r.inputTokensPerS * 1e6;
    }
    r.energyPerMillionOutputTokensJoules = gpu.tdpWatts * gpus / r.outputTokensPerS * 1e6;
    if (detail == ServingDetail::Figures)
        return r;
    r.decodeGemmsComputeBoundFrom = server.gemmsComputeBoundFrom();

    // The serving curve: doubling concurrency up to the pool's most, and the chosen one.
    for (std::int64_t c = 1; c < r.maxConcurrency; c *= 2)
        r.curve.append(c == r.concurrency ? chosen : server.point(c));
    r.curve.append(r.maxConcurrency == r.concurrency ? chosen : server.point(r.maxConcurrency));
    const bool listed = std::any_of(r.curve.begin(), r.curve.end(),
                                    [&](const ServingPoint &p) { return p.concurrency == r.concurrency; });
    if (!listed) {
        r.curve.append(chosen);
        std::sort(r.curve.begin(), r.curve.end(),
                  [](const ServingPoint &a, const ServingPoint &c) { return a.concurrency < c.concurrency; });
    }

    // The roofline: one request's prefill and one decode step on the largest stage's GPU.
    RooflineReport &roof = r.roofline;
    roof.gpuId = gpu.id;
    roof.peakFlopsPerS = server.machine.peakFlopsPerS;
    gpu.peakFor(QStringLiteral("bf16"), &roof.peakDtype);
    roof.bandwidthBytesPerS = gpu.memoryBandwidthBytesPerS;
    roof.ridgeIntensity = roof.peakFlopsPerS / roof.bandwidthBytesPerS;
    roof.gemmPeakFlopsPerS = server.machine.gemmPeak();
    roof.gemmPeakDtype = server.gemmDtype == QLatin1String("fp8") ? server.gemmDtype : roof.peakDtype;
    roof.gemmRidgeIntensity = roof.gemmPeakFlopsPerS / roof.bandwidthBytesPerS;
    roof.stage = big.stage;
    std::vector<WorkloadOp> list;
    server.ops(big, Phase::Prefill, 1, static_cast<double>(s.promptTokens), 0, list);
    addOps(roof, list);
    server.ops(big, Phase::Decode, std::ceil(b / static_cast<double>(s.pp)), 1, static_cast<double>(s.promptTokens) + o / 2, list);
    roof.stepSeconds = addOps(roof, list);  // the decode step's
    for (const WorkloadOp &op : list)
        roof.modelFlopsPerStep += op.count * op.matmulFlops;
    roof.impliedMfu = roof.modelFlopsPerStep / (roof.stepSeconds * roof.gemmPeakFlopsPerS);
    return r;
}

} // namespace napkin
