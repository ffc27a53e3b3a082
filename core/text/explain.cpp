#include "core/text/explain.h"

#include <QCoreApplication>

#include <cmath>

namespace napkin {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::Explain", text);
}

QString num(double v)
{
    return fmt::count(static_cast<std::int64_t>(std::llround(v)));
}

// "N × 2 B ÷ 8 GPUs" for one piece of model state; with TP or PP, N is the parameters on one
// GPU of the worst stage, and ZeRO shards over the DP x CP ranks.
QString stateFormula(const Report &r, double bytesPerParam, bool sharded)
{
    const MemoryReport &m = r.memory;
    const Layout &l = m.layout;
    const bool split = l.tp > 1 || l.pp > 1;
    const double params = m.perStage[m.worstStage].params;
    QString f = split ? tr("N on this GPU (stage %1 of %2, 1/%3 of its blocks by TP) × %4 B = %5 × %4")
                            .arg(m.worstStage).arg(l.pp).arg(l.tp).arg(fmt::number(bytesPerParam), num(params))
                      : QStringLiteral("N × %1 B = %2 × %1").arg(fmt::number(bytesPerParam), num(params));
    if (sharded)
        f += l.cp > 1 ? tr(" ÷ %1 DP × CP ranks").arg(l.shardGroup()) : tr(" ÷ %1 GPUs").arg(l.shardGroup());
    return f;
}

QString activationFormula(const Report &r)
{
    const Scenario &s = r.scenario;
    if (!s.includeActivations)
        return tr("not counted (activations switched off)");
    const QString values = tr("with B = %1 bytes, L = %2, s = %3, b = %4, h = %5, a = %6, v = %7")
                               .arg(fmt::number(r.memory.recipe.activationBytes))
                               .arg(s.model.layers).arg(s.seqLen).arg(s.microBatch).arg(s.model.dModel)
                               .arg(s.model.heads).arg(s.model.vocab);
    const QString split = tr("= %1 (layers) + %2 (outside the layers); not sharded by ZeRO")
                              .arg(fmt::bytes(r.memory.activations.layers), fmt::bytes(r.memory.activations.outputLayer));
    if (s.activationModel == ActivationModel::PyTorch)
        return tr("What autograd keeps for backward in the reference PyTorch decoders, term by term\n"
                  "%1 per layer × L + %2 for embedding, final norm, LM head and loss\n%3\n%4\n"
                  "Source: tests/validation/ACTIVATION_MODEL.md, checked against a real training step")
            .arg(fmt::bytes(r.memory.activations.perLayer), fmt::bytes(r.memory.activations.outputLayer), values, split);
    // Korthikanti et al. 2022, Table 2, term by term (activations.cpp): what TP keeps whole,
    // what it splits, and the attention scores.
    const QString drop = s.dropout ? tr(" + 2·s·b·h (dropout masks)") : QString();
    const QString mlp = s.model.arch == Arch::Llama ? tr("3·B·s·b·f (SwiGLU)") : tr("2·B·s·b·f (GELU)");
    const QString kv = s.model.kvHeads == s.model.heads ? QStringLiteral("2·h") : QStringLiteral("2·h_kv");
    const QString whole = tr("4·B·s·b·h%1").arg(drop);
    const QString splitTerms = tr("B·s·b·(2·h + %1) + %2").arg(kv, mlp);
    QString scores;
    const bool selective = s.recompute == Recompute::Selective;
    if (s.recompute == Recompute::None || (selective && !s.recomputeCoreAttention))
        scores = s.flashAttention ? tr(" + 4·a·s·b (FlashAttention keeps only the fp32 log-sum-exp)")
                                  : (s.dropout ? tr(" + a·s²·b·(2·B + 1)") : tr(" + B·a·s²·b"));
    const Layout &l = r.memory.layout;
    const QString parallel = l.tp > 1 || l.cp > 1
                                 ? tr("\n[%1] ÷ %2, [%3%4] ÷ %5, all ÷ cp = %6 (Table 2's %7 row)")
                                       .arg(whole, l.sp ? QString::number(l.tp) : QStringLiteral("1"), splitTerms, scores)
                                       .arg(l.tp).arg(l.cp)
                                       .arg(l.sp ? tr("tensor + sequence parallel") : tr("tensor parallel"))
                                 : QString();
    QString perLayer;
    switch (s.recompute) {
    case Recompute::None:
    case Recompute::Selective:
    {
        // Megatron-Core's other modules drop their own outputs from those terms.
        QStringList dropped;
        if (selective && s.recomputeNorms)
            dropped << tr("the norms' outputs");
        if (selective && s.recomputeMoeActivation && s.model.experts > 0)
            dropped << tr("the experts' activation output");
        if (selective && s.recomputeMlaUpProjection && s.model.kvLoraRank > 0)
            dropped << tr("MLA's queries, keys and values");
        perLayer = whole + QStringLiteral(" + ") + splitTerms + scores
                   + (selective && s.recomputeCoreAttention ? tr(" (selective recompute drops the a·s²·b terms)")
                                                            : QString())
                   + (dropped.isEmpty() ? QString() : tr(", less what recompute reruns: %1").arg(dropped.join(tr(", "))))
                   + parallel;
    }
        break;
    case Recompute::Full:
        perLayer = tr("B·s·b·h (full recompute keeps each layer's input only)") + parallel;
        break;
    }
    return tr("L × [%1] + output layer 2·B·s·b·h + 4·s·b·v (fp32 logits)\n%2\n%3\n"
              "Source: Korthikanti et al. 2022, Table 2 and Sections 4.1, 4.3 (its 34·sbh + 5·as²b at "
              "2-byte tensors and 1-byte dropout masks)")
        .arg(perLayer, values, split);
}

} // namespace

QString componentName(MemoryComponent c)
{
    switch (c) {
    case MemoryComponent::Params: return tr("Parameters");
    case MemoryComponent::Grads: return tr("Gradients");
    case MemoryComponent::Optimizer: return tr("Optimizer + master weights");
    case MemoryComponent::Experts: return tr("Routed experts (weights, gradients, optimizer state)");
    case MemoryComponent::Activations: return tr("Activations");
    case MemoryComponent::Framework: return tr("Framework (ZeRO-3 gathers, allocator margin)");
    case MemoryComponent::Reserved: return tr("Reserved (CUDA context)");
    }
    return {};
}

QString componentShortName(MemoryComponent c)
{
    switch (c) {
    case MemoryComponent::Params: return tr("Params");
    case MemoryComponent::Grads: return tr("Grads");
    case MemoryComponent::Optimizer: return tr("Optimizer + master");
    case MemoryComponent::Experts: return tr("Experts");
    case MemoryComponent::Activations: return tr("Activations");
    case MemoryComponent::Framework: return tr("Framework");
    case MemoryComponent::Reserved: return tr("Reserved");
    }
    return {};
}

double componentBytes(const MemoryBreakdown &m, MemoryComponent c)
{
    switch (c) {
    case MemoryComponent::Params: return m.params;
    case MemoryComponent::Grads: return m.grads;
    case MemoryComponent::Optimizer: return m.optimizerAndMasterWeights;
    case MemoryComponent::Experts: return m.experts;
    case MemoryComponent::Activations: return m.activations;
    case MemoryComponent::Framework: return m.overheads;
    case MemoryComponent::Reserved: return m.reserved;
    }
    return 0;
}

QString memorySegmentText(const Report &r, int zeroStage, MemoryComponent c, ByteUnit unit)
{
    const MemoryBreakdown &m = r.memory.byZeroStage[static_cast<std::size_t>(zeroStage)];
    const double bytes = componentBytes(m, c);
    const Recipe &recipe = r.memory.recipe;
    const QString zeroSource = tr("Source: Rajbhandari et al. 2019 (ZeRO), Figure 1; bytes per parameter from "
                                  "the recipe \"%1\"").arg(recipe.name);
    QString formula;
    switch (c) {
    case MemoryComponent::Params:
        formula = stateFormula(r, recipe.weightBytes, zeroStage >= 3) + QLatin1Char('\n') + zeroSource;
        break;
    case MemoryComponent::Grads:
        formula = stateFormula(r, recipe.gradBytes, zeroStage >= 2) + QLatin1Char('\n') + zeroSource;
        break;
    case MemoryComponent::Optimizer:
        formula = stateFormula(r, recipe.optimizerBytes, zeroStage >= 1)
                  + tr("\n(fp32 master weights and optimizer moments)\n") + zeroSource;
        break;
    case MemoryComponent::Experts: {
        const Layout &l = r.memory.layout;
        formula = tr("The routed experts on this GPU: %1 of %2 per MoE block (expert parallelism %3), each split over "
                     "tp = %4, at %5 + %6 + %7 B per parameter; ZeRO %8 shards their state over the %9 DP × CP ranks "
                     "that hold the same experts (DP × CP / EP), as Megatron-LM and DeepSpeed-MoE do. The other "
                     "segments are the dense parameters (attention, router, shared experts, embeddings).\n")
                      .arg(r.scenario.model.experts / std::max<std::int64_t>(1, l.ep))
                      .arg(r.scenario.model.experts)
                      .arg(l.ep)
                      .arg(l.tp)
                      .arg(QString::number(recipe.weightBytes), QString::number(recipe.gradBytes),
                           QString::number(recipe.optimizerBytes))
                      .arg(zeroStage)
                      .arg(l.expertShardGroup())
                  + zeroSource;
        break;
    }
    case MemoryComponent::Activations:
        formula = activationFormula(r);
        break;
    case MemoryComponent::Framework: {
        const FrameworkOverheads &o = r.memory.perStage[r.memory.worstStage].overheads;
        formula = tr("ZeRO-3 gathered block %1 (one block's parameters and gradients whole, as DeepSpeed's "
                     "estimate_zero3_model_states_mem_needs charges) + prefetched block %2 (PyTorch FSDP's "
                     "BACKWARD_PRE prefetch) + allocator margin %3 (%4 of the rest; set it under Activation memory)")
                      .arg(fmt::bytesIn(o.zero3Gathered, unit), fmt::bytesIn(o.zero3Prefetch, unit),
                           fmt::bytesIn(o.allocatorMargin, unit), fmt::percent(r.scenario.allocatorMargin));
        break;
    }
    case MemoryComponent::Reserved:
        formula = tr("The CUDA context, kernels and library handles every GPU holds before the model: the same at "
                     "every ZeRO stage. Default 1343 MiB: what nvidia-smi shows once PyTorch's first tensor loads "
                     "them (Hugging Face Transformers docs, \"Model training anatomy\"). Set it under Activation "
                     "memory; 0 reproduces the source document's accounting.");
        break;
    }
    return tr("%1, ZeRO stage %2: %3 (%4 bytes) per GPU\n%5")
        .arg(componentName(c)).arg(zeroStage)
        .arg(fmt::bytesIn(bytes, unit), num(bytes), formula);
}

QString opLabel(const RooflineOp &op)
{
    return QStringLiteral("%1 (%2)").arg(op.name, phaseName(op.phase));
}

QString opKindTitle(OpKind kind)
{
    QString name = opKindName(kind);
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

QString opTooltip(const RooflineOp &op, const RooflineReport &r)
{
    // Under FP8 the GEMMs sit under the fp8 roof, with its own ridge.
    const double ridge = r.ridgeFor(op.gemmRoof);
    const QString roof = r.twoRoofs() ? (op.gemmRoof ? r.gemmPeakDtype : r.peakDtype) + QLatin1Char(' ')
                                      : QString();
    const QString bound = op.computeBound
                              ? tr("compute-bound (intensity ≥ %2ridge %1 FLOPs/byte)").arg(fmt::number(ridge), roof)
                              : tr("memory-bound (intensity < %2ridge %1 FLOPs/byte)").arg(fmt::number(ridge), roof);
    return tr("%1 — %2\n"
              "FLOPs: %3\n"
              "Bytes: %4 (%5)\n"
              "Intensity: %6 FLOPs/byte\n"
              "Attainable: %7\n"
              "Bound: %8\n"
              "Runs %9× per micro-batch step, %10 each")
        .arg(opLabel(op), opKindName(op.kind), fmt::sci(op.flops), fmt::sci(op.bytes), fmt::bytes(op.bytes),
             fmt::number(op.intensity), fmt::flopRate(op.attainableFlopsPerS), bound, fmt::repeats(op.count))
        .arg(fmt::duration(op.seconds));
}

double opStepShare(const RooflineOp &op, const RooflineReport &r)
{
    return r.stepSeconds > 0 ? op.count * op.seconds / r.stepSeconds : 0;
}

QList<double> kindStepShares(const RooflineReport &r)
{
    QList<double> shares(6, 0.0);
    for (const RooflineOp &op : r.ops)
        shares[static_cast<int>(op.kind)] += opStepShare(op, r);
    return shares;
}

QString opsTooltip(const QList<int> &opIndices, const RooflineReport &r)
{
    if (opIndices.isEmpty())
        return {};
    const RooflineOp &nearest = r.ops[opIndices.first()];
    const QString share = tr("Share of the step time: %1 (%2× %3 of %4)")
                              .arg(fmt::percent(opStepShare(nearest, r)), fmt::repeats(nearest.count),
                                   fmt::duration(nearest.seconds), fmt::duration(r.stepSeconds));
    if (opIndices.size() == 1)
        return opTooltip(nearest, r) + QLatin1Char('\n') + share;
    QStringList lines{tr("%1 ops at this point:").arg(opIndices.size())};
    for (int i : opIndices) {
        const RooflineOp &op = r.ops[i];
        lines << tr("  %1 — %2, %3 of the step").arg(opLabel(op), opKindName(op.kind), fmt::percent(opStepShare(op, r)));
    }
    lines << QString() << opTooltip(nearest, r) << share;
    return lines.join(QLatin1Char('\n'));
}

QString stepSummary(const RooflineReport &r, const QString &gpu)
{
    // Every op at its roofline: a bound below the estimated step (Step tab), which runs the
    // kernels at measured efficiencies and adds communication and the bubble.
    const QString figures = tr("step %1 · implied MFU %2").arg(fmt::duration(r.stepSeconds), fmt::percent(r.impliedMfu));
    return gpu.isEmpty() ? tr("Roofline bound: %1").arg(figures) : tr("%1 roofline bound: %2").arg(gpu, figures);
}

} // namespace napkin
