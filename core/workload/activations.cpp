#include "core/workload/activations.h"

#include <algorithm>
#include <vector>

namespace napkin {

WorkloadSums blockSums(const Scenario &s, const Recipe &recipe, double microBatch)
{
    WorkloadInput in = recipeWorkloadInput(s, recipe);
    in.microBatch = microBatch;
    in.layers = 1;
    in.firstStage = true;
    in.lastStage = true;
    const bool denseBlocks = in.denseLayers > 0;
    in.denseLayers = 0;  // one MoE block (or the model's only kind of block)
    // The planner sums thousands of workloads per slider move: one buffer per thread.
    thread_local std::vector<WorkloadOp> ops;
    buildWorkload(in, ops);
    WorkloadSums sums = sumWorkload(ops);
    sums.savedPerDenseBlock = sums.savedPerBlock;
    sums.paramsPerDenseBlock = sums.paramsPerBlock;
    if (denseBlocks) {
        in.denseLayers = 1;  // one of the dense blocks of a Mixture-of-Experts model
        buildWorkload(in, ops);
        const WorkloadSums dense = sumWorkload(ops);
        sums.savedPerDenseBlock = dense.savedPerBlock;
        sums.paramsPerDenseBlock = dense.paramsPerBlock;
    }
    return sums;
}

std::int64_t denseBlocks(const Scenario &s)
{
    return s.model.moe() && !s.paramsOverride ? std::min(s.model.denseLayers, s.model.layers) : 0;
}

ActivationBreakdown activationsFrom(const WorkloadSums &sums, std::int64_t layers, std::int64_t denseLayers)
{
    ActivationBreakdown a;
    a.perLayer = sums.savedPerBlock;
    a.perDenseLayer = sums.savedPerDenseBlock;
    const std::int64_t dense = std::min(denseLayers, layers);
    a.layers = a.perLayer * static_cast<double>(layers - dense) + a.perDenseLayer * static_cast<double>(dense);
    a.embedding = sums.savedEmbedding;
    a.head = sums.savedHead;
    a.outputLayer = a.embedding + a.head;
    return a;
}

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    return activationsFrom(blockSums(s, recipe, microBatch), s.model.layers, denseBlocks(s));
}

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch, ActivationModel model)
{
    Scenario v = s;
    v.activationModel = model;
    return activationBytes(v, recipe, microBatch);
}

} // namespace napkin
