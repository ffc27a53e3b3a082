#include "app/reporttext.h"

#include "core/report/calibration.h"

#include "app/servingtext.h"

#include "app/commandline.h"

#include "core/report/baseline.h"
#include "core/text/layouttext.h"
#include "core/text/stepexplain.h"
#include "core/model/modelshape.h"

#include <QStringList>
#include <QTextStream>

#include <algorithm>

namespace napkin {

namespace {

QString pad(const QString &s, int width)
{
    return s.leftJustified(width);
}

QString modelLine(const Scenario &s, const Catalog &catalog)
{
    const ModelShape &m = s.model;
    const ModelPreset *p = catalog.findPreset(s.presetId);
    const QString origin = !p ? QStringLiteral("custom")
                           : p->shape == m ? p->id
                                           : QStringLiteral("custom (from %1)").arg(p->id);
    const QStringList switches = shapeSwitches(m);
    return QStringLiteral("%1, %2: %3 layers, d_model %4, %5 heads (%6 kv), d_ff %7, vocab %8, %9 head")
               .arg(origin, archName(m.arch))
               .arg(m.layers).arg(m.dModel).arg(m.heads).arg(m.kvHeads).arg(m.dFf).arg(m.vocab)
               .arg(m.tied ? QStringLiteral("tied") : QStringLiteral("untied"))
           + (switches.isEmpty() ? QString() : QStringLiteral("; ") + switches.join(QStringLiteral(", ")));
}

void writeHeader(QTextStream &t, const Report &r, const Catalog &catalog)
{
    const Scenario &s = r.scenario;

    t << "Model      " << modelLine(s, catalog) << '\n';
    if (r.inference) {
        t << "Serve      " << s.gpus << " x " << r.gpu.name << "; tp " << s.tp << " · pp " << s.pp << " · ep " << s.ep
          << (r.layout.etp != r.layout.tp ? QStringLiteral(" · etp %1").arg(r.layout.etp) : QString())
          << " per replica; " << r.layout.gpusPerNode << " GPUs per node on " << r.scaleUp.id << ", nodes on "
          << r.scaleOut.id << '\n';
        return;
    }
    t << "Run        " << fmt::compactCount(s.tokens) << " tokens, seq_len " << s.seqLen << ", micro-batch "
      << s.microBatch << " per GPU, " << s.gpus << " x " << r.gpu.name << '\n';
    const Layout &l = r.layout;
    t << "Layout     " << splitText(l) << "; global batch " << l.globalBatch << " sequences = " << l.microBatches
      << " micro-batch" << (l.microBatches == 1 ? "" : "es") << " of " << l.microBatch << " per replica; "
      << l.gpusPerNode << " GPUs per node on " << r.scaleUp.id << ", nodes on " << r.scaleOut.id << '\n';
    t << "Recipe     " << r.memory.recipe.name << ", ZeRO stage " << s.zeroStage << ", recompute "
      << recomputeText(s) << (s.flashAttention ? ", FlashAttention" : "");
    if (s.mode == Mode::Training)
        t << ", cross-entropy " << enumName(kCrossEntropyNames, static_cast<int>(s.crossEntropy));
    t << '\n';
    if (s.paramsOverride)
        t << "Note       --params sets N directly; detailed FLOPs, activations and the roofline still use the shape above\n";
}

void writeParameters(QTextStream &t, const Report &r)
{
    const Scenario &s = r.scenario;
    t << "\nParameters\n";
    t << "  total           " << fmt::count(r.params.total) << '\n';
    t << "  embedding       " << fmt::count(r.params.embedding) << "   (token + position tables)\n";
    t << "  lm_head         " << fmt::count(r.params.lmHead) << (s.model.tied && !s.paramsOverride ? "   (tied)" : "") << '\n';
    t << "  non_embedding   " << fmt::count(r.params.nonEmbedding) << (s.model.moe() ? "\n" : "   (Kaplan's N)\n");
    if (s.model.moe())
        t << "  active          " << fmt::count(r.params.active) << "   per token: router, " << s.model.expertsPerToken
          << " of " << s.model.experts << " experts" << (s.model.sharedExperts ? " and the shared ones" : "") << '\n'
          << "  active non-emb. " << fmt::count(r.params.activeNonEmbedding) << "   (Kaplan's N for 6ND)\n";
    if (s.model.mtpDepth > 0 && !s.paramsOverride)
        t << "  MTP modules     " << fmt::count(r.params.mtp) << "   apart from the total: " << s.model.mtpDepth
          << " multi-token prediction module(s), " << fmt::sci(r.flops.perTokenMtp) << " FLOPs per token, "
          << fmt::sci(r.flops.trainingMtp) << " over the run, not in the figures below\n";
    t << "  per layer       " << fmt::count(r.params.perLayer.total()) << " = attention "
      << fmt::count(r.params.perLayer.attention) << " + MLP " << fmt::count(r.params.perLayer.mlp) << " + norms "
      << fmt::count(r.params.perLayer.norms) << '\n';
}

void writeFlops(QTextStream &t, const Report &r)
{
    const Scenario &s = r.scenario;
    const FlopsReport &f = r.flops;
    t << "\nTraining FLOPs\n";
    t << "  6ND (Kaplan et al. 2020)      " << fmt::sci(f.training6nd) << "   6 x " << fmt::count(r.params.activeNonEmbedding)
      << " x " << fmt::sci(s.tokens) << '\n';
    t << "  detailed, full s^2 attention  " << fmt::sci(f.trainingDetailed) << "   every matmul x 3 (backward = 2 x forward), "
      << fmt::percent(f.trainingDetailed / f.training6nd - 1, 1) << " vs 6ND\n";
    t << "  detailed, causal-halved       " << fmt::sci(f.trainingDetailedCausal) << "   "
      << fmt::percent(f.trainingDetailedCausal / f.trainingDetailed - 1, 1) << " vs full attention\n";
    if (s.recompute != Recompute::None)
        t << "  hardware, with recompute      " << fmt::sci(f.trainingHardware) << "   "
          << fmt::percent(f.trainingHardware / f.trainingChosenDetailed() - 1, 1)
          << " for the recomputed forward (counts toward HFU, not MFU)\n";
    t << "  per token (detailed)          " << fmt::sci(f.perTokenDetailed) << "   attention QK^T + PV share "
      << fmt::percent(f.attentionShare) << '\n';
    t << "  per optimizer step            " << fmt::sci(f.perStepDetailed) << "   " << fmt::compactCount(f.tokensPerStep)
      << " tokens (global batch x seq_len), all GPUs together\n";
}

void writeMemory(QTextStream &t, const Report &r, ByteUnit unit, const std::optional<FitSuggestion> &suggestion)
{
    const Scenario &s = r.scenario;
    const auto gb = [unit](double b) { return fmt::bytesIn(b, unit); };
    const MemoryReport &m = r.memory;
    t << "\nMemory per GPU (" << fmt::unitName(unit) << ", ZeRO stage " << m.zeroStage << " over "
      << m.layout.shardGroup() << " DP x CP ranks; bytes/param " << m.recipe.weightBytes << '/' << m.recipe.gradBytes << '/'
      << m.recipe.optimizerBytes << (m.layout.pp > 1 ? QStringLiteral("; worst %1 of %2").arg(pipelineRankText(m.layout, m.worstStage)).arg(m.layout.pp) : QString())
      << ")\n";
    t << "  params                        " << gb(m.perGpu.params) << '\n';
    t << "  grads                         " << gb(m.perGpu.grads) << '\n';
    t << "  optimizer_and_master_weights  " << gb(m.perGpu.optimizerAndMasterWeights) << '\n';
    if (s.model.moe())
        t << "  experts                       " << gb(m.perGpu.experts) << "   routed experts' weights, grads and optimizer state (/ ep "
          << m.layout.ep << ", ZeRO over " << m.layout.expertShardGroup() << " ranks)\n";
    t << "  = model state                 " << gb(m.perGpu.modelState()) << "   params + grads + optimizer"
      << (s.model.moe() ? " + experts" : "") << '\n';
    t << "  activations                   " << gb(m.perGpu.activations)
      << (s.includeActivations ? QStringLiteral("   %1, recompute %2%3%4")
                                     .arg(s.activationModel == ActivationModel::Korthikanti
                                              ? QStringLiteral("Korthikanti et al. 2022")
                                              : QStringLiteral("as implemented in PyTorch"),
                                          recomputeText(s),
                                          s.flashAttention ? QStringLiteral(", flash") : QString(),
                                          s.dropout ? QStringLiteral(", dropout") : QString())
                               : QStringLiteral("   (left out)"))
      << '\n';
    if (m.perGpu.overheads > 0) {
        const FrameworkOverheads &o = m.perStage[m.worstStage].overheads;
        t << "  framework overheads           " << gb(m.perGpu.overheads) << "   ZeRO-3 gathered block " << gb(o.zero3Gathered)
          << " + prefetch " << gb(o.zero3Prefetch) << " + allocator margin " << gb(o.allocatorMargin) << '\n';
    }
    t << "  reserved                      " << gb(m.perGpu.reserved)
      << "   CUDA context and kernels (--reserved BYTES; default 1343 MiB, Hugging Face \"Model training anatomy\")\n";
    t << "  total                         " << gb(m.perGpu.total()) << "   of " << gb(m.capacity) << " on " << r.gpu.id
      << (m.fits ? "  -> FITS" : "  -> DOES NOT FIT") << '\n';
    if (suggestion)
        t << "  Fits with: " << fitSuggestionText(*suggestion, r.scenario, unit) << '\n';
    if (r.scenario.offload != Offload::None)
        t << "  offloaded to CPU              " << gb(m.perGpu.cpu) << " per GPU, " << gb(m.cpuPerNode)
          << " per node (offload " << offloadName(r.scenario.offload) << "; not in the GPU total)\n";
    t << "  largest micro-batch that fits " << (m.maxMicroBatch ? QString::number(*m.maxMicroBatch) : QStringLiteral("unbounded (no activations)")) << '\n';
    t << "  by ZeRO stage                 ";
    for (int stage = 0; stage < kZeroStages; ++stage)
        t << stage << ": " << gb(m.byZeroStage[stage].total()) << (stage < 3 ? "   " : "\n");
    if (m.layout.pp > 1) {
        // DualPipe: each rank holds stage i and stage pp - 1 - i (rankStages).
        const bool ranks = m.layout.dualPipe;
        t << (ranks ? "  by pipeline rank (2 stages)  (layers, micro-batches in flight: total)\n"
                    : "  by pipeline stage             (layers, micro-batches in flight: total)\n");
        for (const StageMemory &st : m.perStage)
            t << (ranks ? "    rank  " : "    stage ") << pad(QString::number(st.stage), 4) << pad(QString::number(st.layers), 4) << " layers, "
              << pad(fmt::number(st.inFlightMicroBatches), 6) << ": " << gb(st.bytes.total())
              << (st.stage == m.worstStage ? "   <- worst" : "") << '\n';
    }
}

void writeStep(QTextStream &t, const Report &r, ByteUnit unit)
{
    const StepTimeReport &st = r.step;
    t << "\nStep time, bottom-up (" << pipelineRankText(r.layout, st.stage) << "; matmul efficiency "
      << fmt::percent(st.matmulEfficiency) << ", memory efficiency " << fmt::percent(st.memoryEfficiency) << ")\n";
    t << "  compute          " << fmt::duration(st.computeMatmul + st.computeAttention + st.computeOther) << "   matmul "
      << fmt::duration(st.computeMatmul) << " + attention " << fmt::duration(st.computeAttention) << " + other "
      << fmt::duration(st.computeOther) << ", over " << st.microBatches << " micro-batches\n";
    if (st.kernelFixedSeconds > 0)
        t << "                   of which kernels' fixed time " << fmt::duration(st.computeFixed) << " ("
          << fmt::duration(st.kernelFixedSeconds) << " per launch, " << fmt::number(st.computeFixed / st.kernelFixedSeconds)
          << " launches)\n";
    t << "  exposed comm     " << fmt::duration(st.commExposedSeconds()) << "   TP " << fmt::duration(st.tpExposed) << " + CP "
       << fmt::duration(st.cpExposed) << " + PP " << fmt::duration(st.ppExposed) << " + EP " << fmt::duration(st.epExposed) << " + DP " << fmt::duration(st.dpExposed)
       << (r.scenario.offload != Offload::None ? QStringLiteral(" + offload ") + fmt::duration(st.hostExposed) : QString()) << '\n';
    if (st.overlapContention > 0)
        t << "                   of which compute slowed by hidden collectives " << fmt::duration(st.overlapContention)
          << " (" << fmt::percent(kOverlapComputeSlowdown, 1) << " while they run, Lee et al. 2025)\n";
    if (r.layout.dualPipe)
        t << "  pipeline bubble  " << fmt::duration(st.bubble) << "   DualPipe (pp/2 - 1)(F&B + B - 3W) = "
          << fmt::percent(st.bubbleFraction, 1) << " (DeepSeek-V3, Table 2)\n";
    else
        t << "  pipeline bubble  " << fmt::duration(st.bubble) << "   (pp - 1)/(m x vpp) = " << fmt::percent(st.bubbleFraction, 1)
          << " (Narayanan et al. 2021)\n";
    t << "  optimizer        " << fmt::duration(st.optimizer) << '\n';
    t << "  step             " << fmt::duration(st.stepSeconds) << "   estimated MFU " << fmt::percent(st.estimatedMfu)
      << ", HFU " << fmt::percent(st.estimatedHfu) << ", " << fmt::number(st.tokensPerSecondPerGpu) << " tokens/s per GPU\n";
    if (r.scenario.calibration)
        t << "  calibration      " << calibrationSummary(*r.scenario.calibration) << '\n';
    t << "  track record     " << (r.scenario.calibration ? "uncalibrated, " : "") << trackRecordPhrase(r.scenario)
      << "; the runs: docs/validation.md\n";
    qsizetype linkWidth = 15;  // "nvlink4 + ib-ndr" (an all-to-all across nodes) is wider
    for (const CommOp &op : st.comm)
        linkWidth = std::max(linkWidth, op.linkId.size() + 1);
    for (const CommOp &op : st.comm)
        t << "    " << pad(op.name, 30) << pad(commGroupName(op.group) + QStringLiteral(" x") + QString::number(op.groupSize), 9)
          << pad(op.linkId, static_cast<int>(linkWidth)) << pad(fmt::bytes(op.bytes, unit), 12) << fmt::duration(op.seconds) << " (exposed "
          << fmt::duration(op.exposedSeconds) << ")\n";
}

void writeTime(QTextStream &t, const Report &r)
{
    const Scenario &s = r.scenario;
    const FlopsReport &f = r.flops;
    const StepTimeReport &st = r.step;
    const TimeReport &tm = r.time;
    t << "\nTime (basis: " << (tm.basis == FlopsBasis::SixND ? "6ND" : f.causal ? "detailed, causal-halved" : "detailed") << ")"
      << (r.memory.fits ? "" : ", if it fit in memory: this layout does not") << '\n';
    const bool hfu = tm.utilizationBasis == UtilizationBasis::Hfu;
    t << "  time basis       " << (tm.timeBasis == TimeBasis::Estimated ? "estimated" : "mfu") << "   run time "
      << fmt::duration(tm.secondsUtilization) << " at the set utilisation | " << fmt::duration(tm.secondsEstimated)
      << " from the estimated step (" << fmt::number(tm.steps) << " steps; --time-basis mfu|estimated)\n";
    t << "  hardware FLOPs   " << fmt::sci(tm.hardwareFlops) << "   = " << fmt::sci(tm.trainingFlops) << " model + "
      << fmt::sci(tm.recomputeFlops) << " recomputed (recompute " << recomputeText(s) << ")\n";
    if (tm.timeBasis == TimeBasis::Estimated) {
        t << "  wall clock       " << fmt::duration(tm.seconds) << "   = " << fmt::number(tm.steps) << " steps x "
          << fmt::duration(st.stepSeconds) << " estimated step\n";
        t << "  utilisation      MFU " << fmt::percent(tm.mfuFraction) << "   HFU " << fmt::percent(tm.hfuFraction)
          << "   (estimated; Chowdhery et al. 2022, App. B)\n";
    } else {
        t << "  wall clock       " << fmt::duration(tm.seconds) << "   = " << fmt::sci(hfu ? tm.hardwareFlops : tm.trainingFlops)
          << (hfu ? " hardware" : " model") << " FLOPs / (" << tm.gpus << " GPUs x " << fmt::flopRate(tm.peakFlopsPerS) << " "
          << tm.peakDtype << " x " << (hfu ? "HFU " : "MFU ") << fmt::percent(tm.utilizationFraction) << ")\n";
        t << "  utilisation      MFU " << fmt::percent(tm.mfuFraction) << (hfu ? "" : " (set)") << "   HFU "
          << fmt::percent(tm.hfuFraction) << (hfu ? " (set)" : "") << "   (Chowdhery et al. 2022, App. B)\n";
    }
    t << "  GPU-hours        " << fmt::number(tm.gpuHours) << "   (" << fmt::number(tm.gpuYears) << " GPU-years)\n";
    if (tm.costUsd)
        t << "  cost             " << fmt::usd(*tm.costUsd) << "   at " << fmt::usd(*tm.price.usdPerGpuHour)
          << " per GPU-hour (" << priceOriginText(tm.price) << ")\n";
    else
        t << "  cost             no price   (the catalog has none for " << r.gpu.id << ": give --price)\n";
    t << "  energy           " << fmt::number(tm.energyKwh) << " kWh   at " << r.gpu.tdpWatts << " W TDP per GPU\n";
}

void writeConventions(QTextStream &t, const Report &r, ByteUnit unit)
{
    const Scenario &s = r.scenario;
    const auto gb = [unit](double b) { return fmt::bytesIn(b, unit); };
    const FlopsReport &f = r.flops;
    const ConventionsReport &cv = r.conventions;
    t << "\nConventions (where the field disagrees; Napkin's choice is above)\n";
    t << "  FLOPs             6ND " << fmt::sci(f.training6nd) << " | detailed " << fmt::sci(f.trainingDetailed)
      << " | causal-halved " << fmt::sci(f.trainingDetailedCausal) << '\n';
    t << "  bytes per param   16 (bf16 grads, ZeRO's K=12): " << gb(cv.modelState16) << " | 18 (fp32 grads, Megatron-LM): "
      << gb(cv.modelState18) << "   unsharded model state\n";
    t << "  checkpointing     none " << gb(cv.activationsNone) << " | selective (attention core) " << gb(cv.activationsSelective)
      << " | full (layer inputs) " << gb(cv.activationsFull) << " | FlashAttention " << gb(cv.activationsFlash)
      << "   activations, micro-batch " << s.microBatch << '\n';
    t << "  activation model  Korthikanti et al. 2022 " << gb(cv.activationsKorthikanti) << " | as implemented in PyTorch "
      << gb(cv.activationsPyTorch) << "   at the chosen recompute\n";
}

void writeRoofline(QTextStream &t, const Report &r, ByteUnit unit)
{
    const auto gb = [unit](double b) { return fmt::bytesIn(b, unit); };
    const RooflineReport &rl = r.roofline;
    t << "\nRoofline on " << r.gpu.name << (r.layout.pp > 1 ? QStringLiteral(", stage %1").arg(rl.stage) : QString())
      << (r.inference ? QStringLiteral(", one request's prefill and one decode step on one GPU: ")
                      : QStringLiteral(", one micro-batch on one GPU: ")) << fmt::flopRate(rl.peakFlopsPerS) << ' ' << rl.peakDtype << ", "
      << fmt::bandwidth(rl.bandwidthBytesPerS) << ", ridge at " << fmt::number(rl.ridgeIntensity) << " FLOP/byte\n";
    if (rl.twoRoofs())
        t << "  GEMMs (matmul ops) under the " << rl.gemmPeakDtype << " roof: " << fmt::flopRate(rl.gemmPeakFlopsPerS)
          << ", ridge at " << fmt::number(rl.gemmRidgeIntensity) << " FLOP/byte; MFU is quoted against this "
          << rl.gemmPeakDtype << " peak\n";
    t << "  " << pad(QStringLiteral("op"), 26) << pad(QStringLiteral("phase"), 10) << pad(QStringLiteral("count"), 7)
      << pad(QStringLiteral("FLOPs"), 11) << pad(QStringLiteral("bytes"), 11) << pad(QStringLiteral("FLOP/B"), 9)
      << pad(QStringLiteral("attainable"), 17) << "bound\n";
    for (const RooflineOp &op : rl.ops)
        t << "  " << pad(op.name, 26) << pad(phaseName(op.phase), 10) << pad(QString::number(op.count), 7)
          << pad(fmt::sci(op.flops, 2), 11) << pad(fmt::sci(op.bytes, 2), 11) << pad(fmt::number(op.intensity), 9)
          << pad(fmt::flopRate(op.attainableFlopsPerS), 17) << (op.computeBound ? "compute" : "memory") << '\n';
    t << "  step time (sum of max(FLOPs/peak, bytes/bandwidth)) " << fmt::duration(rl.stepSeconds) << ", implied MFU "
      << fmt::percent(rl.impliedMfu) << '\n';
    if (r.inference)
        return;
    t << "  illustrative intensity (6ND FLOPs / memory total, the source document's) " << fmt::sci(r.illustrativeIntensity) << '\n';
    if (const auto change = baselineChange(r)) {
        const Report &b = *r.baseline;
        t << "\nPinned baseline: " << gb(b.memory.perGpu.total()) << " per GPU, " << fmt::duration(b.time.seconds)
          << (b.time.costUsd ? QStringLiteral(", ") + fmt::usd(*b.time.costUsd) : QString()) << "\n  this run vs pinned: " << baselineChangeText(*change) << '\n';
    }
}

} // namespace

QString reportText(const Report &r, const Catalog &catalog, ByteUnit unit, const std::optional<FitSuggestion> &suggestion)
{
    QString out;
    QTextStream t(&out);
    writeHeader(t, r, catalog);
    writeParameters(t, r);
    if (r.inference) {
        writeServing(t, r, unit);
        writeRoofline(t, r, unit);
        return out;
    }
    writeFlops(t, r);
    writeMemory(t, r, unit, suggestion);
    writeStep(t, r, unit);
    writeTime(t, r);
    writeConventions(t, r, unit);
    writeRoofline(t, r, unit);
    return out;
}

QString presetsText(const Catalog &catalog)
{
    QString out;
    QTextStream t(&out);
    // The id column as wide as the longest id and two spaces ("qwen3-235b-a22b" is 15).
    qsizetype idWidth = 0;
    for (const ModelPreset &p : catalog.presets)
        idWidth = std::max(idWidth, p.id.size());
    const int width = static_cast<int>(idWidth) + 2;
    for (const ModelPreset &p : catalog.presets)
        t << pad(p.id, width) << pad(archName(p.shape.arch), 6) << pad(fmt::count(p.publishedParams), 18)
          << p.shape.layers << " x " << p.shape.dModel << ", " << p.shape.heads << '/' << p.shape.kvHeads
          << " heads, d_ff " << p.shape.dFf << "  " << p.name << '\n' << QString(width, QLatin1Char(' '))
          << "source: " << p.source << '\n';
    return out;
}

QString gpusText(const Catalog &catalog)
{
    QString out;
    QTextStream t(&out);
    for (const GpuSpec &g : catalog.gpus) {
        QString dtype;
        // The parser requires a bf16 or fp16 peak of every entry.
        const double peak = g.peakFor(QStringLiteral("bf16"), &dtype).value_or(0);
        t << pad(g.id, 16) << pad(fmt::flopRate(peak) + QLatin1Char(' ') + dtype, 22)
          << pad(fmt::bandwidth(g.memoryBandwidthBytesPerS), 12) << pad(fmt::bytes(g.memoryBytes, ByteUnit::GiB), 10)
          << pad(QString::number(g.tdpWatts) + QStringLiteral(" W"), 8) << g.name << "\n                source: " << g.source
          << "\n                price:  ";
        if (g.pricePerGpuHourUsd)
            t << fmt::usd(*g.pricePerGpuHourUsd) << " per GPU-hour (" << g.priceSource << ", seen "
              << g.priceDate << ")\n";
        else
            t << "none in the catalog (give --price)\n";
    }
    return out;
}

QString interconnectsText(const Catalog &catalog)
{
    QString out;
    QTextStream t(&out);
    for (const Interconnect &l : catalog.interconnects)
        t << pad(l.id, 24) << pad(l.scaleUp ? QStringLiteral("scale-up") : QStringLiteral("scale-out"), 11)
          << pad(fmt::bandwidth(l.bandwidthBytesPerS), 12) << pad(fmt::duration(l.latencySeconds), 10)
          << (l.scaleUp ? QStringLiteral("%1 GPUs  ").arg(l.domainGpus) : QString()) << l.name
          << "\n                        collectives at " << fmt::percent(l.collectiveEfficiency, 1) << " of line rate = "
          << fmt::bandwidth(l.collectiveBandwidth()) << " (" << l.collectiveEfficiencySource << ")"
          << "\n                        source: " << l.source << '\n';
    return out;
}

QString planText(const PlanReport &p, ByteUnit unit)
{
    QString out;
    QTextStream t(&out);
    t << "Layouts for a global batch of " << fmt::count(p.globalBatch) << " sequences: " << fmt::count(p.evaluated)
      << " evaluated, " << fmt::count(p.fitting) << " fit; best first by estimated step time\n";
    // The layout column as wide as its longest entry (an EP column makes some longer than 64).
    int width = 64;
    for (const PlannedLayout &l : p.layouts)
        width = std::max(width, static_cast<int>(plannedLayoutText(l).size()) + 2);
    t << "  #   " << pad(QStringLiteral("layout"), width) << pad(QStringLiteral("worst stage"), 13)
      << pad(QStringLiteral("step"), 10) << "MFU\n";
    for (qsizetype i = 0; i < p.layouts.size(); ++i) {
        const PlannedLayout &l = p.layouts[i];
        t << "  " << pad(QString::number(i + 1), 4) << pad(plannedLayoutText(l), width) << pad(fmt::bytes(l.worstStageBytes, unit), 13)
          << pad(l.fits ? fmt::duration(l.stepSeconds) : QStringLiteral("-"), 10)
          << (l.fits ? fmt::percent(l.estimatedMfu) : QStringLiteral("-")) << "\n      " << l.reason << '\n';
    }
    t << "  current: " << plannedLayoutText(p.current) << ": "
      << (p.currentProblem ? QStringLiteral("not a layout of these GPUs (%1)").arg(onCommandLine(*p.currentProblem).message())
          : p.currentRank ? QStringLiteral("rank %1, step %2").arg(*p.currentRank).arg(fmt::duration(p.current.stepSeconds))
                        : QStringLiteral("does not fit (%1 on the worst stage)").arg(fmt::bytes(p.current.worstStageBytes, unit)))
      << '\n';
    return out;
}

QString recipesText()
{
    QString out;
    QTextStream t(&out);
    for (const Recipe &r : recipes())
        t << pad(r.id, 30) << r.weightBytes << '/' << r.gradBytes << '/' << r.optimizerBytes << " bytes/param, "
          << r.activationBytes << "-byte activations, " << r.matmulDtype() << " GEMMs  " << r.name
          << "\n                              source: " << r.source << '\n';
    return out;
}

} // namespace napkin
