#pragma once

#include "core/model/catalog.h"
#include "core/workload/comm.h"
#include "core/model/layout.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"
#include "core/workload/workload.h"

#include <QList>
#include <QString>

#include <vector>

namespace napkin {

/// One collective of a step on one GPU: its group, link and time.
struct CommOp {
    QString name;
    CommGroup group = CommGroup::Tp;
    Collective collective = Collective::AllReduce;
    std::int64_t groupSize = 1;
    double tensorBytes = 0;     ///< the buffer of one occurrence
    double count = 0;           ///< occurrences per step
    double bytes = 0;           ///< bytes this GPU sends per step (ring traffic x count)
    QString linkId;
    double seconds = 0;         ///< per step
    double exposedSeconds = 0;  ///< per step, after the overlap rule
};

/// The efficiencies and links a step-time estimate runs at.
struct StepMachine {
    double peakFlopsPerS = 0;        ///< the recipe's compute dtype: every kernel but the GEMMs under FP8
    double matmulPeakFlopsPerS = 0;  ///< the linear layers' GEMMs (OpKind::Matmul): Recipe::matmulDtype()
    /// The GEMMs' peak, and the one MFU and HFU are quoted against (the highest the step uses).
    double gemmPeak() const { return matmulPeakFlopsPerS > 0 ? matmulPeakFlopsPerS : peakFlopsPerS; }
    double bandwidthBytesPerS = 0;
    double matmulEfficiency = 1;   ///< the GEMMs' share of gemmPeak() (their dtype's measured figure)
    double computeEfficiency = 1;  ///< every other compute kernel's share of peakFlopsPerS
    double memoryEfficiency = 1;
    /// FlashAttention kernels' share of the compute peak, forward (and recomputed forward) and
    /// backward; 0: the matmul efficiency.
    double attentionForwardEfficiency = 0;
    double attentionBackwardEfficiency = 0;
    /// With the GPU's measured table: the two figures above are at head dim 128 and 8,192
    /// tokens, and each FlashAttention op runs at them times the table's speed at its own
    /// shape (WorkloadOp::attentionHeadDim, attentionLength), causal or not.
    const AttentionTable *attentionTable = nullptr;
    bool attentionCausal = false;
    /// The scenario's calibration (Scenario::calibration): multipliers of each kernel's FLOP
    /// time and byte time, and of each collective's time.
    double computeScale = 1;
    double memoryScale = 1;
    double commScale = 1;
    /// The time a kernel takes beyond its roofline time (launch, ramp-up and the last wave's
    /// tail), charged once per launch of every kernel launched one by one (training,
    /// prefill); decode steps replay CUDA graphs and the optimizer's multi-tensor kernels
    /// cover thousands of tensors per launch, so neither pays it. GpuSpec::kernelFixedSeconds.
    double kernelFixedSeconds = 0;
    /// The share of TP communication Transformer Engine's comm-GEMM overlap hides on this GPU
    /// (GpuSpec::tpOverlapEfficiency; below 0: slower than no overlap); unset: all the GEMMs cover.
    std::optional<double> tpOverlapEfficiency;
    Links links;
};

/// The machine of one GPU under a recipe: its peaks, bandwidth and the scenario's or GPU's
/// efficiencies (computeReport refuses a GPU without the recipe's peaks).
StepMachine stepMachine(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu, Links links);
/// The same for kernels in `computeDtype`, GEMMs in `gemmDtype` and attention under a causal
/// mask or not (serving: bf16, fp8 GEMMs under fp8 weights, and a prompt's causal attention).
StepMachine stepMachine(const Scenario &s, const GpuSpec &gpu, Links links, const QString &computeDtype,
                        const QString &gemmDtype, bool causalAttention);

/// Compute that runs beside a collective runs slower: the collective's kernels hold SMs and draw
/// on the same HBM. Lee et al. 2025, "Characterizing Compute-Communication Overlap in
/// GPU-Accelerated Distributed Deep Learning: Performance and Power Implications" (arXiv
/// 2507.03114), measured GPT and Llama training on 4 A100s, H100s, MI250s and MI210s: overlapping
/// slowed the computation by 18.9% on average (40.0% at most) against the same computation
/// alone. Compute that overlaps a collective for H seconds gets through H / (1 + s) seconds of
/// its work, so hiding H seconds of communication costs H x s / (1 + s) of step time.
inline constexpr double kOverlapComputeSlowdown = 0.189;
/// The step time that hiding `hiddenSeconds` of communication behind compute costs.
inline double overlapContentionSeconds(double hiddenSeconds)
{
    return hiddenSeconds * kOverlapComputeSlowdown / (1 + kOverlapComputeSlowdown);
}

/// Napkin's bottom-up time of one optimizer step on the slowest pipeline stage.
///
/// Compute: every op of one micro-batch at max(FLOPs / (peak x matmul efficiency),
/// bytes / (bandwidth x memory efficiency)), plus the GPU's fixed time per kernel launch. Communication: the alpha-beta time of each
/// collective. Overlap rule: TP collectives and PP sends sit between dependent kernels and
/// are exposed whole (Megatron-LM overlaps TP only with --tp-comm-overlap); CP's ring
/// exchange hides behind the attention it feeds; the DP gradient reduction (and ZeRO-1/2's
/// parameter all-gather) hides behind the last micro-batch's backward; ZeRO-3's per-micro-batch
/// gathers hide behind that micro-batch's compute. What a CP, EP, DP or ZeRO-3 collective hides
/// still slows the compute that hides it (overlapContentionSeconds), which its exposed time
/// includes; overlapped TP's measured efficiency already counts its own. Step = m x (compute + exposed TP, CP and PP)
/// x (1 + bubble) + exposed DP + the optimizer (Narayanan et al. 2021, Section 2.2). DualPipe:
/// each rank runs half its micro-batches through each of its two stages, and its bubble is
/// (pp/2 - 1)(F&B + B - 3W) (DeepSeek-V3, Table 2).
struct StepTimeReport {
    std::int64_t stage = 0;          ///< the slowest stage
    double microBatches = 1;
    // Per step, seconds on one GPU of the slowest stage.
    double computeMatmul = 0;        ///< matmuls (forward, backward, recompute)
    double computeAttention = 0;     ///< attention scores, softmax, attention over V, FlashAttention
    double computeOther = 0;         ///< norms, activations, residuals, loss
    double tpExposed = 0;
    double cpExposed = 0;
    double ppExposed = 0;
    double epExposed = 0;   ///< MoE all-to-all dispatch and combine
    double dpExposed = 0;
    double hostExposed = 0;  ///< offload: GPU <-> CPU traffic not hidden behind compute
    /// Of tp..dp above (CP, EP and DP): the compute that hidden collectives slow
    /// (overlapContentionSeconds), per step.
    double overlapContention = 0;
    double bubble = 0;               ///< idle pipeline time
    double optimizer = 0;
    double bubbleFraction = 0;       ///< bubble / (m x a micro-batch): (pp - 1) / (m x vpp) under 1F1B
    double stepSeconds = 0;
    double commExposedSeconds() const { return tpExposed + cpExposed + ppExposed + epExposed + dpExposed + hostExposed; }
    double estimatedMfu = 0;         ///< model FLOPs per GPU per step / (step x GEMM peak)
    double estimatedHfu = 0;         ///< the same with recomputed FLOPs
    double tokensPerSecondPerGpu = 0;
    /// The efficiencies the estimate ran at, resolved once by stepMachine() (the scenario's,
    /// else the GPU's measured ones), so that no text resolves them again.
    double matmulEfficiency = 0;   ///< the GEMMs' (StepMachine::matmulEfficiency)
    double computeEfficiency = 0;  ///< every other compute kernel's
    double memoryEfficiency = 0;
    double attentionForwardEfficiency = 0;  ///< FlashAttention's at its shape below; 0: computeEfficiency
    double attentionBackwardEfficiency = 0;
    /// The shape those are at, with the GPU's measured table (0: the table's absent, and the
    /// two are its figures at every shape): one head's width and a kernel's tokens.
    double attentionHeadDim = 0;
    double attentionLength = 0;
    double kernelFixedSeconds = 0;  ///< per kernel launch (StepMachine::kernelFixedSeconds)
    double computeFixed = 0;        ///< per step: the kernels' fixed time, inside the three compute parts
    QList<CommOp> comm;
};

/// Per-micro-batch quantities of one stage, from its workload.
struct StageCompute {
    double matmul = 0, attention = 0, other = 0;  ///< forward + backward + recompute, seconds
    double backward = 0;     ///< the backward pass alone, seconds
    double weightGrad = 0;   ///< of backward, the weight-gradient GEMMs (half of each linear layer's)
    double attentionCore = 0;  ///< the attention kernels alone (forward + backward), for CP overlap
    double optimizer = 0;    ///< the optimizer step, seconds (once per step)
    double fixed = 0;        ///< the kernels' fixed time (StepMachine::kernelFixedSeconds), inside the three parts
    double total() const { return matmul + attention + other; }
};

StageCompute stageCompute(const std::vector<WorkloadOp> &ops, const StepMachine &machine);

/// One micro-batch's compute on one GPU in parts a stage is made of: one block, the embedding
/// side, the head side, and the optimizer's seconds per parameter. A stage with L_i blocks is
/// L_i x block (+ embedding on the first, + head on the last): the workload is built three
/// times per (tp, cp, micro-batch, recompute), not once per stage or layout.
struct ComputeParts {
    StageCompute block;        ///< one block (Mixture-of-Experts: a MoE block)
    StageCompute denseBlock;   ///< one dense block of a Mixture-of-Experts model (else block)
    StageCompute embedding;
    StageCompute head;
    double optimizerSecondsPerParam = 0;
};

ComputeParts computeParts(const Scenario &s, const Recipe &recipe, const StepMachine &machine);

/// The step time of a scenario; `optimizerParams` per stage as for computeRoofline(),
/// `stageParams` the parameters on one GPU of each stage before ZeRO (per pipeline rank: rankStages()). Only candidateRanks()
/// can be slowest, so only they are timed. Without `listComm` the collectives are timed but not listed (the planner).
StepTimeReport estimateStepTime(const Scenario &s, const Recipe &recipe, const Layout &layout,
                                const StepMachine &machine, const QList<double> &stageParams,
                                const QList<double> &optimizerParams, double modelFlopsPerStepAllGpus,
                                double recomputeFlopsPerStepAllGpus, bool listComm = true,
                                const ComputeParts *parts = nullptr);

} // namespace napkin
