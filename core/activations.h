#pragma once

#include "recipe.h"
#include "scenario.h"

namespace napkin {

/// Activation bytes for one micro-batch on one GPU, split the way the formulas are.
struct ActivationBreakdown {
    double perLayer = 0;      ///< one transformer block
    double layers = 0;        ///< perLayer x L
    double outputLayer = 0;   ///< everything outside the blocks: embedding, final norm, LM head, loss
    double total() const { return layers + outputLayer; }
};

/// Activation bytes of `microBatch` sequences under the scenario's activation model
/// (Korthikanti et al. 2022, or Napkin's measured "as implemented in PyTorch" count);
/// zero when the scenario leaves activations out.
ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch);

/// Korthikanti et al. 2022, Table 2 and Section 4.3, with its 2-byte tensors at the recipe's
/// activation bytes and its 1-byte dropout masks kept at 1 byte.
ActivationBreakdown korthikantiActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch);

/// What autograd keeps for backward in the reference PyTorch decoders of tests/validation
/// (HF GPT-2 / Meta LLaMA layouts), term by term in tests/validation/ACTIVATION_MODEL.md,
/// checked to the byte against a real training step. GPU conventions: LayerNorm statistics
/// in fp32, and mean() not keeping its input (fixed after PyTorch 1.13).
ActivationBreakdown pytorchActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch);

} // namespace napkin
