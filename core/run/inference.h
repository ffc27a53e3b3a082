#pragma once

#include "core/model/catalog.h"
#include "core/model/refusal.h"
#include "core/model/scenario.h"
#include "core/run/roofline.h"

#include <QList>

#include <cstdint>
#include <optional>

namespace napkin {

/// One GPU's memory while serving, as vLLM splits it (vllm/v1/worker/gpu_worker.py,
/// determine_available_memory): gpu_memory_utilization x capacity, less the weights, the peak
/// activations of a profiling forward and the non-torch memory, is the KV pool.
struct ServingMemory {
    double capacity = 0;       ///< the GPU's memory (catalog)
    double usable = 0;         ///< gpu_memory_utilization x capacity
    double weights = 0;        ///< this GPU's weights with their quantization scales
    double activations = 0;    ///< the peak workspace of one prefill chunk
    double reserved = 0;       ///< the CUDA context, and communication buffers with TP or EP
    double commBuffers = 0;    ///< of reserved, the collectives' buffers
    double kvPool = 0;         ///< usable - weights - activations - reserved
    double kvInUse = 0;        ///< the cache the chosen concurrency fills at prompt + output
    double kvFree() const { return kvPool - kvInUse; }
    /// What the engine takes: weights, activations, reserved and the whole pool (= usable).
    double total() const { return weights + activations + reserved + kvPool; }
};

/// One point of the serving trade-off: throughput against latency at a concurrency.
struct ServingPoint {
    std::int64_t concurrency = 1;
    double ttftSeconds = 0;
    double tpotSeconds = 0;
    double e2eSeconds = 0;
    double outputTokensPerS = 0;  ///< every replica together
};

/// Serving a model on the scenario's GPUs and layout (mode inference). A model replica is
/// tp x pp GPUs; gpus / (tp x pp) replicas serve in parallel. Time comes from the same per-device
/// workload and efficiency model as a training step (core/run/steptime.h): the prompt's forward
/// ops (prefill) and one token's (decode), each at max(FLOPs / rate, bytes / rate).
struct InferenceReport {
    double replicaGpus = 1;
    double replicas = 1;
    QString gemmDtype;            ///< the peak the linear layers run at ("bf16", or "fp8" under fp8 weights)

    // The KV cache.
    double kvBytesPerToken = 0;       ///< the whole model, one token, no window cap
    double kvBytesPerSequence = 0;    ///< at prompt + output tokens, windows applied
    double kvBytesPerTokenPerGpu = 0; ///< one token's share on one GPU of the largest stage (a block's unit)
    double kvBlockBytes = 0;          ///< one block of kv_block_tokens on one GPU
    double kvBlocks = 0;              ///< blocks the pool holds on each GPU
    double kvCapacityTokens = 0;      ///< per replica: blocks x block tokens
    std::int64_t kvMaxConcurrency = 0;  ///< sequences of prompt + output the pool holds per replica
    std::int64_t maxConcurrency = 0;  ///< the most that run together: kvMaxConcurrency, at most max_num_seqs
    std::int64_t concurrency = 0;     ///< the one used: the scenario's, or maxConcurrency
    ServingMemory memory;             ///< the GPU of the largest stage

    // Time, at the steady state of continuous batching.
    double prefillSeconds = 0;        ///< one request's prompt
    double decodeStepSeconds = 0;     ///< one token for every sequence in flight
    double ttftSeconds = 0;           ///< its prefill, in a step shared with the batch's decode
    double tpotSeconds = 0;           ///< a decode step plus the prefills interleaved per token
    double e2eSeconds = 0;            ///< ttft + (output - 1) x tpot
    double outputTokensPerS = 0;      ///< every replica together
    double outputTokensPerSPerGpu = 0;
    double inputTokensPerS = 0;
    std::optional<double> costPerMillionOutputTokensUsd;  ///< decode's share of the GPU-hours
    std::optional<double> costPerMillionInputTokensUsd;   ///< prefill's share
    double energyPerMillionOutputTokensJoules = 0;        ///< every GPU at its TDP
    double prefillShare = 0;          ///< of the GPUs' time, the prefills'
    /// The fewest sequences at which one decode step's GEMMs reach the GEMM ridge; 0 beyond
    /// limits::maxConcurrency.
    double decodeGemmsComputeBoundFrom = 0;
    double decodeCommSeconds = 0;     ///< of the decode step: TP all-reduces, EP all-to-all, PP hops
    double prefillCommSeconds = 0;

    RooflineReport roofline;          ///< one request's prefill ops and one decode step's, largest stage
    QList<ServingPoint> curve;        ///< concurrency 1, 2, 4, ... up to maxConcurrency, and the chosen one
};

/// How much of an InferenceReport to compute: everything, or the memory and the figures at the
/// chosen concurrency only (no curve, no roofline, no crossover), as a chart of every GPU needs.
enum class ServingDetail { Full, Figures };

/// Serving the scenario (mode inference; its fields already checked by validateScenario()) on
/// `gpu` with these links. Refuses, naming the field, when the pool holds no KV cache or the
/// concurrency asks for more sequences than it holds.
Result<InferenceReport> computeInference(const Scenario &s, const GpuSpec &gpu, const Interconnect &scaleUp,
                                         const Interconnect &scaleOut, ServingDetail detail = ServingDetail::Full);

} // namespace napkin
