#include "core/text/stepexplain.h"

#include "core/report/trackrecord.h"
#include "core/text/layouttext.h"
#include "core/text/units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace napkin {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::StepExplain", text);
}

double sumExposed(const StepTimeReport &s, CommGroup group)
{
    double sum = 0;
    for (const CommOp &op : s.comm)
        if (op.group == group)
            sum += op.exposedSeconds;
    return sum;
}

/// One collective as a line of a segment's text. An EP all-to-all's line gives no exposed
/// time; a host transfer's (between a GPU and its CPU) no ranks and no bytes sent.
QString commLine(const CommOp &op)
{
    switch (op.group) {
    case CommGroup::Ep:
        return tr("%1: %2 × %3 over %4 ranks on %5 = %6 sent, %7")
            .arg(op.name, fmt::number(op.count), fmt::bytes(op.tensorBytes), QString::number(op.groupSize), op.linkId,
                 fmt::bytes(op.bytes), fmt::duration(op.seconds));
    case CommGroup::Host:
        return tr("%1: %2 × %3 on %4 = %5, exposed %6")
            .arg(op.name, fmt::number(op.count), fmt::bytes(op.tensorBytes), op.linkId, fmt::duration(op.seconds),
                 fmt::duration(op.exposedSeconds));
    case CommGroup::Tp:
    case CommGroup::Cp:
    case CommGroup::Pp:
    case CommGroup::Dp:
        break;
    }
    return tr("%1: %2 × %3 over %4 ranks on %5 = %6 sent, %7 (exposed %8)")
        .arg(op.name, fmt::number(op.count), fmt::bytes(op.tensorBytes), QString::number(op.groupSize), op.linkId,
             fmt::bytes(op.bytes), fmt::duration(op.seconds), fmt::duration(op.exposedSeconds));
}

/// The lines of the step's collectives in `groups`, one per row in the step's order, or
/// `none` when it has none.
QString commLines(const StepTimeReport &s, std::initializer_list<CommGroup> groups,
                  const QString &none = tr("no collective of this kind in this layout"))
{
    QStringList lines;
    for (const CommOp &op : s.comm)
        if (std::find(groups.begin(), groups.end(), op.group) != groups.end())
            lines << commLine(op);
    return lines.isEmpty() ? none : lines.join(QLatin1Char('\n'));
}

/// Why hidden communication still costs time (kOverlapComputeSlowdown and its source).
QString contentionText()
{
    return tr("compute beside a collective runs %1 slower, Lee et al. 2025's average over A100, H100, MI250 and "
              "MI210, so hiding H seconds costs H × %2")
        .arg(fmt::percent(kOverlapComputeSlowdown, 1),
             QString::number(overlapContentionSeconds(1), 'f', 3));
}

/// What happens to TP's collectives: exposed whole, or overlapped with the GEMMs at the GPU's
/// measured overlap efficiency (Flux's), or as far as the GEMMs cover where none is measured.
QString tpOverlapText(const Report &r)
{
    if (!(r.layout.sp && r.scenario.tpOverlap))
        return tr("TP's collectives sit between dependent kernels and are exposed whole%1; ")
            .arg(r.scenario.tpOverlap ? tr(" (the overlap needs sequence parallelism)") : QString());
    const QString chunks =
        tr("TP's all-gathers and reduce-scatters run in chunks under the block's GEMMs (Overlap TP communication)");
    const std::optional<double> e = r.gpu.tpOverlapEfficiency;
    if (!e)
        return chunks + tr("; what those cannot cover is exposed (no measured overlap efficiency for this GPU). ");
    const QString hidden = fmt::percent(*e);
    const QString left = fmt::percent(1 - *e);
    if (*e < 0)
        return chunks + tr(", but on this GPU Transformer Engine's overlap was measured slower than none (overlap "
                           "efficiency %1, Flux, Chang et al. 2024): they cost %2 of their own time. ")
                            .arg(hidden, left);
    return chunks + tr("; on this GPU Transformer Engine's overlap was measured to hide %1 of them (Flux, Chang et al. "
                       "2024), so at least %2 stays exposed, and more where the GEMMs are too short to cover the rest. ")
                        .arg(hidden, left);
}

} // namespace

QString stepComponentName(StepComponent c)
{
    switch (c) {
    case StepComponent::Matmul: return tr("Matmul");
    case StepComponent::Attention: return tr("Attention");
    case StepComponent::Other: return tr("Norms, activations, loss");
    case StepComponent::ModelComm: return tr("TP / CP / PP comm");
    case StepComponent::ExpertComm: return tr("EP all-to-all");
    case StepComponent::DataComm: return tr("DP / ZeRO comm");
    case StepComponent::Offload: return tr("Offload (GPU ↔ CPU)");
    case StepComponent::Bubble: return tr("Pipeline bubble");
    case StepComponent::Optimizer: return tr("Optimizer");
    }
    return {};
}

QString stepComponentShortName(StepComponent c)
{
    switch (c) {
    case StepComponent::Matmul: return tr("Matmul");
    case StepComponent::Attention: return tr("Attention");
    case StepComponent::Other: return tr("Other");
    // "comm": on a slide, a bare "DP" does not say that it is communication time.
    case StepComponent::ModelComm: return tr("TP/CP/PP comm");
    case StepComponent::ExpertComm: return tr("EP comm");
    case StepComponent::DataComm: return tr("DP comm");
    case StepComponent::Offload: return tr("Offload");
    case StepComponent::Bubble: return tr("Bubble");
    case StepComponent::Optimizer: return tr("Optimizer");
    }
    return {};
}

double stepComponentSeconds(const StepTimeReport &s, StepComponent c)
{
    switch (c) {
    case StepComponent::Matmul: return s.computeMatmul;
    case StepComponent::Attention: return s.computeAttention;
    case StepComponent::Other: return s.computeOther;
    case StepComponent::ModelComm: return s.tpExposed + s.cpExposed + s.ppExposed;
    case StepComponent::ExpertComm: return s.epExposed;
    case StepComponent::DataComm: return s.dpExposed;
    case StepComponent::Offload: return s.hostExposed;
    case StepComponent::Bubble: return s.bubble;
    case StepComponent::Optimizer: return s.optimizer;
    }
    return 0;
}

QString stepSegmentText(const Report &r, StepComponent c)
{
    const StepTimeReport &s = r.step;
    const Layout &l = r.layout;
    const double eCompute = r.step.computeEfficiency;
    const double eMem = r.step.memoryEfficiency;
    const bool causal = r.scenario.causalHalving && r.gpu.efficiencyAttentionCausalForward;
    QString compute = tr("Each op of one micro-batch on one GPU of stage %1 at max(FLOPs / (%2 × %3), bytes / "
                         "(%4 × %5)), × %6 micro-batches; the efficiencies are %7's catalog figures unless set")
                          .arg(s.stage)
                          .arg(fmt::flopRate(r.roofline.peakFlopsPerS), fmt::percent(eCompute, 1),
                               fmt::bandwidth(r.roofline.bandwidthBytesPerS), fmt::percent(eMem, 1))
                          .arg(l.microBatches)
                          .arg(r.gpu.shortName);
    if (r.roofline.twoRoofs() || r.step.matmulEfficiency != eCompute)
        compute += tr("; the GEMMs at %1 of the %2 %3 peak")
                       .arg(fmt::percent(r.step.matmulEfficiency, 1), fmt::flopRate(r.roofline.gemmPeakFlopsPerS),
                            r.roofline.gemmPeakDtype);
    if (r.scenario.flashAttention && r.step.attentionForwardEfficiency > 0)
        compute += (causal ? tr("; FlashAttention at %1 forward and %2 backward (the FlashAttention papers' "
                                "measurements on this GPU, causal)")
                           : tr("; FlashAttention at %1 forward and %2 backward (the FlashAttention papers' "
                                "measurements on this GPU)"))
                       .arg(fmt::percent(r.step.attentionForwardEfficiency, 1),
                            fmt::percent(r.step.attentionBackwardEfficiency, 1));
    if (r.scenario.flashAttention && r.step.attentionLength > 0)
        compute += tr(", at heads of %1 over %2 tokens").arg(fmt::repeats(r.step.attentionHeadDim), fmt::repeats(r.step.attentionLength));
    if (s.kernelFixedSeconds > 0)
        compute += tr("; each kernel launch adds %1 of fixed time (launch, ramp-up, the last wave's tail; fitted "
                      "to a measured GEMM table; the GPU's catalog entry names it), %2 in all")
                       .arg(fmt::duration(s.kernelFixedSeconds), fmt::duration(s.computeFixed));
    QString body;
    switch (c) {
    case StepComponent::Matmul:
    case StepComponent::Attention:
    case StepComponent::Other:
        body = compute;
        break;
    case StepComponent::ModelComm:
        body = tr("Exposed: TP %1 + CP %2 + PP %3. %5PP's sends sit between dependent kernels "
                  "and are exposed whole; CP's ring exchange hides behind the attention it feeds, and slows it while it runs "
                  "(exposed includes that: %6). Collectives are not "
                  "points on the roofline: its roofs are this GPU's FLOP/s and HBM bandwidth, and a collective is "
                  "bound by its link, at the bus bandwidth NCCL measures rather than the line rate.\n%4")
                   .arg(fmt::duration(sumExposed(s, CommGroup::Tp)), fmt::duration(sumExposed(s, CommGroup::Cp)),
                        fmt::duration(sumExposed(s, CommGroup::Pp)),
                        commLines(s, {CommGroup::Tp, CommGroup::Cp, CommGroup::Pp}),
                        tpOverlapText(r), contentionText());
        break;
    case StepComponent::ExpertComm:
        body = tr("Each Mixture-of-Experts block sends every token's top-k copies (padded to the capacity factor) "
                  "to the %1 expert-parallel ranks that hold their experts and brings the outputs back: dispatch and "
                  "combine forward, both again backward. All-to-all traffic is (n − 1)/n of the buffer; it is exposed "
                  "whole, as the experts wait for their tokens, unless overlapped with another micro-batch's compute "
                  "(DualPipe), which it then slows (%3).\n%2")
                   .arg(l.ep)
                   .arg(commLines(s, {CommGroup::Ep}, tr("no expert parallelism in this layout (ep = 1)")),
                        contentionText());
        break;
    case StepComponent::DataComm:
        body = (r.scenario.dpOverlap || r.scenario.zeroStage == 3
                    ? tr("The gradient reduction (and ZeRO's parameter gathers) over %1 DP × CP ranks, hidden in buckets "
                         "behind the last micro-batch's backward (ZeRO-3: behind each micro-batch's compute); what does "
                         "not fit is exposed, and what hides still slows the compute it runs beside (%3).\n%2")
                    : tr("The gradient reduction (and ZeRO's parameter gathers) over %1 DP × CP ranks, after the last "
                         "micro-batch's backward and exposed whole (Overlap DP reduction is off).\n%2"))
                   .arg(l.shardGroup())
                   .arg(commLines(s, {CommGroup::Dp}), contentionText());
        break;
    case StepComponent::Offload: {
        const QString lines = commLines(s, {CommGroup::Host}, QString());
        body = lines.isEmpty()
                   ? tr("Nothing is offloaded (offload none): the optimizer state, gradients and parameters stay on the GPU.")
                   : tr("ZeRO-Offload (Ren et al. 2021): this GPU's partition of the gradients crosses to the CPU behind "
                        "the backward, the updated parameters come back after the CPU's optimizer step (exposed); "
                        "ZeRO-Infinity also fetches the parameters for every micro-batch, behind its compute. The CPU's "
                        "step itself is not modelled.\n%1")
                         .arg(lines);
        break;
    }
    case StepComponent::Bubble:
        if (l.dualPipe) {
            body = tr("DualPipe (DeepSeek-V3, Table 2): (pp/2 − 1) × (F&B + B − 3W) = (%1/2 − 1) pairs of a forward "
                      "and a backward chunk overlapped, plus a backward chunk, less the three weight-gradient "
                      "chunks deferred into the bubble = %2, %3 of %4")
                       .arg(l.pp)
                       .arg(fmt::duration(s.bubble), fmt::percent(s.bubbleFraction, 1),
                            fmt::duration(s.stepSeconds - s.bubble - s.dpExposed - s.optimizer));
            break;
        }
        body = tr("(pp − 1) / (m × vpp) × m × per-micro-batch time = (%1 − 1) / (%2 × %3) = %4 of %5 "
                  "(Narayanan et al. 2021, Section 2.2)")
                   .arg(l.pp).arg(l.microBatches).arg(l.vpp)
                   .arg(fmt::percent(s.bubbleFraction, 1),
                        fmt::duration(s.stepSeconds - s.bubble - s.dpExposed - s.optimizer));
        break;
    case StepComponent::Optimizer:
        body = tr("One update of this GPU's shard of the parameters (ZeRO %1 over %2 ranks), once per step: reads and "
                  "writes the optimizer state, reads the gradients, writes the weights")
                   .arg(r.scenario.zeroStage)
                   .arg(l.shardGroup());
        break;
    }
    return tr("%1: %2 per step (%3 of %4)\n%5")
        .arg(stepComponentName(c), fmt::duration(stepComponentSeconds(s, c)),
             fmt::percent(stepComponentSeconds(s, c) / s.stepSeconds, 1), fmt::duration(s.stepSeconds), body);
}

QString stepSummaryText(const Report &r, bool brief)
{
    const StepTimeReport &s = r.step;
    const TimeReport &t = r.time;
    if (brief)
        return tr("%1 %2 · MFU %3 · HFU %4 · %5 tok/s per GPU")
            .arg(r.scenario.calibration ? tr("Step (calibrated)") : tr("Step"), fmt::duration(s.stepSeconds),
                 fmt::percent(s.estimatedMfu, 1), fmt::percent(s.estimatedHfu, 1), fmt::number(s.tokensPerSecondPerGpu));
    const QString yours = t.utilizationBasis == UtilizationBasis::Hfu ? tr("your HFU %1").arg(fmt::percent(t.utilizationFraction, 1))
                                                                      : tr("your MFU %1").arg(fmt::percent(t.utilizationFraction, 1));
    // With a pipeline the step is its slowest stage's: which one, beside the time.
    const QString step = r.layout.pp > 1 ? tr("%1 (%2 of %3)").arg(fmt::duration(s.stepSeconds), pipelineRankText(r.layout, s.stage)).arg(r.layout.pp)
                                         : fmt::duration(s.stepSeconds);
    // A calibrated step says so first: it is the user's measurement, not the bare estimate.
    const QString kind = r.scenario.calibration ? tr("Step (calibrated) %1").arg(step) : tr("Step %1").arg(step);
    return tr("%1 · estimated MFU %2, HFU %3 · %4 · %5 tokens/s per GPU")
        .arg(kind, fmt::percent(s.estimatedMfu, 1), fmt::percent(s.estimatedHfu, 1), yours,
             fmt::number(s.tokensPerSecondPerGpu));
}

QString stepRunText(const Report &r)
{
    const TimeReport &t = r.time;
    return tr("Run: %1 at your utilisation · %2 estimated (%3 steps); the time shown elsewhere uses %4")
        .arg(fmt::duration(t.secondsUtilization), fmt::duration(t.secondsEstimated), fmt::number(t.steps),
             t.timeBasis == TimeBasis::Estimated ? tr("the estimate") : tr("your utilisation"));
}

QString estimateErrorWords(double e)
{
    if (std::abs(e) < 0.0005)
        return fmt::percent(0, 1);
    return e < 0 ? tr("%1 faster").arg(fmt::percent(-e, 1)) : tr("%1 slower").arg(fmt::percent(e, 1));
}

namespace {

/// estimateErrorWords against the measurement: "10.1% faster than measured", or "the measured time".
QString errorAgainstMeasured(double e)
{
    return std::abs(e) < 0.0005 ? tr("the measured time") : tr("%1 than measured").arg(estimateErrorWords(e));
}

} // namespace

QString trackRecordPhrase(const Scenario &s)
{
    const TrackRecord &t = trackRecordFor(s);
    return tr("on %1 published %2 runs (%3) the estimate averaged %4 (%5 to %6)")
        .arg(t.runs)
        .arg(t.kind, t.gpus, errorAgainstMeasured(t.meanError), estimateErrorWords(t.lowest),
             estimateErrorWords(t.highest));
}

QString stepTrackRecordText(const Report &r, bool brief)
{
    if (r.scenario.mode != Mode::Training)
        return {};
    const QString record = trackRecordPhrase(r.scenario);
    if (r.scenario.calibration) {
        const auto runs = r.scenario.calibration->runs.size();
        return tr("Calibrated on %1 measured run%2. Before calibration, %3.")
            .arg(runs)
            .arg(runs == 1 ? QString() : QStringLiteral("s"), record);
    }
    if (brief)
        return tr("Track record: %1. Edit > Calibrate from a Measured Run corrects it for your cluster.").arg(record);
    return tr("Track record: %1. Calibrating on a run of your own (Edit > Calibrate from a Measured Run, or napkin "
              "calibrate) corrects it for your cluster.")
        .arg(record);
}

QString layoutLine(const Layout &l)
{
    return splitText(l) + tr(" · %1 micro-batch%2 of %3")
        .arg(l.microBatches)
        .arg(l.microBatches == 1 ? QString() : QStringLiteral("es"))
        .arg(l.microBatch);
}

} // namespace napkin
