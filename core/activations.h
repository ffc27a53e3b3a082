#pragma once

#include "layout.h"
#include "recipe.h"
#include "scenario.h"

namespace napkin {

/// Activation bytes of one micro-batch, split the way tensor parallelism splits them
/// (Korthikanti et al. 2022, Section 4.2): `replicated` tensors every TP rank keeps whole
/// unless sequence parallelism splits them too (norm and projection inputs, dropout masks),
/// `split` tensors TP divides (everything between a column- and a row-parallel matmul).
struct ActivationTerms {
    double layerReplicated = 0;  ///< one transformer block
    double layerSplit = 0;
    double embeddingReplicated = 0;  ///< first stage: token ids, embedding dropout mask
    double headReplicated = 0;       ///< last stage: final norm and LM-head inputs
    double headSplit = 0;            ///< last stage: the vocabulary-parallel fp32 logits / log-softmax
};

/// Activation bytes for one micro-batch on one GPU, split the way the formulas are.
struct ActivationBreakdown {
    double perLayer = 0;      ///< one transformer block
    double layers = 0;        ///< perLayer x all L layers (the whole model on one device)
    double embedding = 0;     ///< held by the first pipeline stage
    double head = 0;          ///< held by the last pipeline stage
    double outputLayer = 0;   ///< embedding + head: everything outside the blocks
    double total() const { return layers + outputLayer; }
};

/// The terms of the scenario's activation model for `microBatch` sequences of the full
/// sequence, before any parallel split; zero when the scenario leaves activations out.
ActivationTerms activationTerms(const Scenario &s, const Recipe &recipe, double microBatch);

/// Korthikanti et al. 2022, Table 2 and Section 4.3, term by term, generalised to d_ff, the
/// MLP type (GELU: 2 tensors of s b d_ff; SwiGLU: the fused gate-and-up output and the down
/// projection's input, 3), grouped K/V heads and dropout on or off; 2-byte tensors at the
/// recipe's activation bytes, 1-byte dropout masks. Adds the int64 token ids Megatron-LM's
/// theoretical_memory_usage counts.
ActivationTerms korthikantiActivationTerms(const Scenario &s, const Recipe &recipe, double microBatch);

/// What autograd keeps for backward in the reference PyTorch decoders of tests/validation
/// (HF GPT-2 / Meta LLaMA layouts), term by term in tests/validation/ACTIVATION_MODEL.md,
/// checked to the byte against a real training step. GPU conventions: LayerNorm statistics
/// in fp32, and mean() not keeping its input (fixed after PyTorch 1.13).
ActivationTerms pytorchActivationTerms(const Scenario &s, const Recipe &recipe, double microBatch);

/// Terms on one GPU of the layout: split terms / tp, replicated terms / tp only with
/// sequence parallelism (Table 2's rows), everything / cp (each rank keeps s / cp tokens).
ActivationBreakdown onDevice(const ActivationTerms &t, const Layout &layout, std::int64_t layers);

/// Activation bytes of `microBatch` sequences on one GPU at tp = cp = 1 (the whole model).
ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch);
ActivationBreakdown korthikantiActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch);
ActivationBreakdown pytorchActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch);

} // namespace napkin
