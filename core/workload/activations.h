#pragma once

#include "core/model/recipe.h"
#include "core/model/scenario.h"
#include "core/workload/workload.h"

namespace napkin {

/// Activation bytes for one micro-batch on one GPU, split the way the formulas are.
struct ActivationBreakdown {
    double perLayer = 0;      ///< one transformer block (Mixture-of-Experts: a MoE block)
    double perDenseLayer = 0; ///< one of a Mixture-of-Experts model's dense blocks (else perLayer)
    double layers = 0;        ///< perLayer x all L layers (the whole model on one device)
    double embedding = 0;     ///< held by the first pipeline stage
    double head = 0;          ///< held by the last pipeline stage
    double outputLayer = 0;   ///< embedding + head: everything outside the blocks
    double total() const { return layers + outputLayer; }
};

/// What the ops of the workload keep for backward (workload.h: each forward op's saved
/// bytes, under the scenario's activation model, recompute, dropout and layout), for
/// `microBatch` sequences on one GPU of the scenario's tp, sp and cp; zero when the scenario
/// leaves activations out. Korthikanti et al. 2022's closed form (Table 2) and the reference
/// decoders' are cross-checks in the tests, not a second count.
ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch);

/// The same under a given activation model, whatever the scenario's.
ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch, ActivationModel model);

/// The activation breakdown of one-block sums, for a model of `layers` blocks of which the
/// first `denseLayers` are dense.
ActivationBreakdown activationsFrom(const WorkloadSums &sums, std::int64_t layers, std::int64_t denseLayers = 0);
/// The dense blocks a scenario's model has among its layers (0 unless Mixture-of-Experts).
std::int64_t denseBlocks(const Scenario &s);

/// Saved bytes and parameters of one block, the embedding and the head on one GPU of the
/// scenario's tp, sp and cp, from a one-block workload.
WorkloadSums blockSums(const Scenario &s, const Recipe &recipe, double microBatch);

} // namespace napkin
