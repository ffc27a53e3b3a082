#include "core/text/budgettext.h"

#include "core/model/shapesuggest.h"
#include "core/text/layouttext.h"
#include "core/text/units.h"

#include <QTextStream>

namespace napkin {

QString budgetAmountText(const BudgetReport &b, const QString &gpuName)
{
    const QString flops = fmt::sci(b.flops, 3) + QStringLiteral(" FLOPs");
    const QString perGpu = QStringLiteral("%1 per %2 (%3 peak x %4)")
                               .arg(fmt::flopRate(b.flopsPerGpuSecond), gpuName, fmt::flopRate(b.peakFlopsPerS),
                                    fmt::percent(b.utilization));
    switch (b.request.unit) {
    case BudgetUnit::Flops:
        return flops;
    case BudgetUnit::GpuHours:
        return QStringLiteral("%1 GPU-hours x %2 = %3").arg(fmt::number(b.request.amount, 4), perGpu, flops);
    case BudgetUnit::Usd:
        return QStringLiteral("%1 = %2 GPU-hours x %3 = %4")
            .arg(fmt::usd(b.request.amount), fmt::number(b.budgetGpuHours, 4), perGpu, flops);
    case BudgetUnit::Days:
        return QStringLiteral("%1 days on %2 GPUs = %3 GPU-hours x %4 = %5")
            .arg(fmt::number(b.request.amount, 4), fmt::count(b.run.gpus), fmt::number(b.budgetGpuHours, 4), perGpu, flops);
    }
    return flops;
}

QString lossFormulaText(const LossCoefficients &c)
{
    return QStringLiteral("L(N, D) = %1 + %2 / N^%3 + %4 / D^%5")
        .arg(c.e).arg(c.a).arg(c.alpha).arg(c.b).arg(c.beta);
}

QString shapeText(const ModelShape &m)
{
    const QString kv = m.kvHeads == m.heads ? QString() : QStringLiteral(" (%1 KV)").arg(m.kvHeads);
    return QStringLiteral("%1 · %2 layers · d_model %3 · %4 heads%5 · d_ff %6 · vocab %7")
        .arg(archName(m.arch))
        .arg(m.layers).arg(m.dModel).arg(m.heads).arg(kv).arg(m.dFf).arg(m.vocab);
}

namespace {

QString allocationText(const Allocation &a)
{
    return QStringLiteral("N = %1 parameters, D = %2 tokens (%3 tokens per parameter)")
        .arg(fmt::compactCount(a.params), fmt::compactCount(a.tokens), fmt::number(a.tokensPerParam(), 3));
}

} // namespace

QString budgetText(const BudgetReport &b, const QString &gpuName)
{
    QString out;
    QTextStream t(&out);
    const ScalingLawInfo &law = scalingLawInfo(b.request.law);
    const LossCoefficients &loss = lossCoefficients(b.request.law);
    t << "Budget: " << budgetAmountText(b, gpuName) << "\n";
    t << "Law: " << law.id << ", " << law.source << "\n";
    if (b.request.law == ScalingLaw::TokensPerParam)
        t << "  D = " << fmt::number(b.request.tokensPerParam, 4) << " N\n";
    const bool ownLoss = b.request.law == ScalingLaw::Besiroglu2024 || b.request.law == ScalingLaw::Hoffmann2022;
    t << "  " << (ownLoss ? QString() : QStringLiteral("loss from besiroglu2024: ")) << lossFormulaText(loss) << "  ("
      << loss.source << ")\n";
    t << "Compute-optimal: " << allocationText(b.optimal) << "\n";
    t << "Predicted loss: " << QString::number(b.predictedLoss, 'f', 3) << " nats per token\n";
    t << "Every law at this budget:\n";
    for (const LawOptimum &o : b.laws)
        t << "  " << QString::fromLatin1(scalingLawInfo(o.law).id).leftJustified(18) << allocationText(o.optimal)
          << ", loss " << QString::number(o.loss, 'f', 3) << "\n";
    if (b.inferenceAware) {
        const Allocation &a = *b.inferenceAware;
        t << "Serving " << fmt::compactCount(b.request.inferenceTokens)
          << " tokens (Sardana et al. 2023: the fewest training + inference FLOPs, 6ND + 2N x "
          << fmt::compactCount(b.request.inferenceTokens) << ", at the same loss):\n";
        t << "  " << allocationText(a) << "\n";
        t << "  " << fmt::number(b.optimal.params / a.params, 3) << "x smaller, trained on "
          << fmt::number(a.tokens / b.optimal.tokens, 3) << "x the tokens; total " << fmt::sci(b.totalFlopsInferenceAware, 3)
          << " FLOPs against " << fmt::sci(b.totalFlopsOptimal, 3) << " (" << fmt::percent(1 - b.totalFlopsInferenceAware / b.totalFlopsOptimal)
          << " less)\n";
    }
    t << "Suggested shape: " << shapeText(b.shape) << "\n";
    t << "  " << fmt::count(b.shapeParams) << " parameters; " << suggestedAspectRatio() << "\n";
    t << "On " << fmt::count(b.run.gpus) << " " << gpuName << ": ";
    if (b.fits)
        t << "fits with " << plannedLayoutText(*b.layout) << "\n";
    else
        t << "does not fit with any layout the planner tries\n";
    if (!b.batchNote.isEmpty())
        t << "  " << b.batchNote << "\n";
    t << "  " << fmt::compactCount(b.run.tokens) << " tokens take " << fmt::duration(b.seconds) << ", "
      << fmt::number(b.gpuHours, 4) << " GPU-hours";
    if (b.costUsd)
        t << ", " << fmt::usd(*b.costUsd);
    t << "\n";
    return out;
}

} // namespace napkin
