#pragma once

#include <cstdint>

namespace napkin {

/// Accepted ranges. Chosen so that every derived figure stays finite and exact in double
/// (and every parameter count fits comfortably in int64); shared with the UI's controls.
namespace limits {
constexpr std::int64_t maxLayers = 1024;
constexpr std::int64_t maxDModel = 131072;
constexpr std::int64_t maxHeads = 1024;
constexpr std::int64_t maxDFf = 1048576;
constexpr std::int64_t maxExperts = 4096;
constexpr double maxCapacityFactor = 64;
constexpr std::int64_t maxVocab = 16777216;
constexpr std::int64_t maxPositions = 16777216;
constexpr std::int64_t maxSeqLen = 1048576;
constexpr std::int64_t maxMicroBatch = 65536;
constexpr std::int64_t maxGpus = 1048576;
/// ZeRO stages (Rajbhandari et al. 2019): 0 shards nothing, 1 the optimizer state, 2 + gradients,
/// 3 + parameters. The field, the memory report's per-stage arrays, the planner and the
/// window's chooser all count to this.
constexpr int minZeroStage = 0;
constexpr int maxZeroStage = 3;
/// Sequences per optimizer step: above any published run (Llama 3 405B: 16M tokens of 8192).
constexpr std::int64_t maxGlobalBatch = 1000000000000;  // 1e12
/// Efficiencies are fractions of a peak: above 0, at most 1.
constexpr double maxEfficiency = 1;
constexpr std::int64_t maxConcurrency = 1048576;  ///< sequences in flight per replica
constexpr std::int64_t maxQuantGroup = 65536;
constexpr std::int64_t maxKvBlockTokens = 4096;
/// A calibration factor multiplies a part of the estimated step: within 1/100 and 100 times it.
constexpr double minCalibrationFactor = 0.01;
constexpr double maxCalibrationFactor = 100;
/// The lowest matmul or memory efficiency a calibration may imply, as a fraction of the GPU's
/// peak (the highest is the peak itself): a fit stops there, and a file's factors past it are refused.
constexpr double minImpliedEfficiency = 0.01;
/// Runs one calibration may hold (`napkin calibrate --measured FILE`).
constexpr int maxCalibrationRuns = 1000;
/// The allocator margin: at most as much again as the model needs.
constexpr double maxAllocatorMargin = 1;
constexpr std::int64_t maxParams = 1000000000000000;  // 1e15
constexpr double minTokens = 1;
constexpr double maxTokens = 1e16;
/// The lowest MFU accepted: below it a run's time, cost and energy leave any useful range
/// (at 1e-300 they overflow to infinity).
constexpr double minMfu = 1e-3;
constexpr double maxMfu = 1;
constexpr double maxPriceUsd = 10000;
/// Reserved bytes per GPU: up to 1 TiB, above any catalog GPU's memory.
constexpr double maxReservedBytes = 1099511627776.0;
/// Width and height of an exported PNG in chart pixels: the export dialog, `napkin export
/// --size` and the renderer all take this range.
constexpr std::int64_t minExportSide = 200;
constexpr std::int64_t maxExportSide = 8192;
/// Device pixels per chart pixel in an exported PNG: the export dialog's 1x and 2x.
constexpr std::int64_t minExportScale = 1;
constexpr std::int64_t maxExportScale = 2;
} // namespace limits

} // namespace napkin
