#include "activations.h"

#include <vector>

namespace napkin {

WorkloadSums blockSums(const Scenario &s, const Recipe &recipe, double microBatch)
{
    WorkloadInput in = workloadInput(s, recipe.activationBytes, recipe.weightBytes, recipe.gradBytes,
                                     recipe.optimizerBytes, recipe.optimizerFlopsPerParam);
    in.microBatch = microBatch;
    in.layers = 1;
    in.firstStage = true;
    in.lastStage = true;
    // The planner sums thousands of workloads per slider move: one buffer per thread.
    thread_local std::vector<WorkloadOp> ops;
    buildWorkload(in, ops);
    return sumWorkload(ops);
}

ActivationBreakdown activationsFrom(const WorkloadSums &sums, std::int64_t layers)
{
    ActivationBreakdown a;
    a.perLayer = sums.savedPerBlock;
    a.layers = a.perLayer * static_cast<double>(layers);
    a.embedding = sums.savedEmbedding;
    a.head = sums.savedHead;
    a.outputLayer = a.embedding + a.head;
    return a;
}

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    return activationsFrom(blockSums(s, recipe, microBatch), s.model.layers);
}

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch, ActivationModel model)
{
    Scenario v = s;
    v.activationModel = model;
    return activationBytes(v, recipe, microBatch);
}

} // namespace napkin
