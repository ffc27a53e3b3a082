#include "memoryformula.h"

#include <QCoreApplication>

#include <cmath>

namespace napkin::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::ui::MemoryFormula", text);
}

QString num(double v)
{
    return fmt::count(static_cast<std::int64_t>(std::llround(v)));
}

// "N × 2 B ÷ 8 GPUs" for one piece of model state.
QString stateFormula(double params, double bytesPerParam, bool sharded, std::int64_t gpus)
{
    QString f = QStringLiteral("N × %1 B = %2 × %3").arg(fmt::number(bytesPerParam), num(params), fmt::number(bytesPerParam));
    if (sharded)
        f += tr(" ÷ %1 GPUs").arg(gpus);
    return f;
}

QString activationFormula(const Report &r)
{
    const Scenario &s = r.scenario;
    if (!s.includeActivations)
        return tr("not counted (activations switched off)");
    const double scale = r.memory.recipe.activationBytes / 2;
    QString perLayer;
    switch (s.recompute) {
    case Recompute::None:
        perLayer = s.flashAttention ? tr("34·s·b·h (FlashAttention keeps no s×s scores)")
                                    : tr("s·b·h·(34 + 5·a·s/h)");
        break;
    case Recompute::Selective:
        perLayer = tr("34·s·b·h (selective recompute drops the s² term)");
        break;
    case Recompute::Full:
        perLayer = tr("2·s·b·h (full recompute keeps layer inputs only)");
        break;
    }
    return tr("L × %1 × %2 + output layer (4·s·b·h × %2 + 4·s·b·v fp32 logits)\n"
              "with L = %3, s = %4, b = %5, h = %6, a = %7, v = %8\n"
              "= %9 (layers) + %10 (output layer); not sharded by ZeRO\n"
              "Source: Korthikanti et al. 2022, Table 2 and Section 4.3 (2-byte activations scaled by %2)")
        .arg(perLayer, fmt::number(scale))
        .arg(s.model.layers).arg(s.seqLen).arg(s.microBatch).arg(s.model.dModel).arg(s.model.heads)
        .arg(s.model.vocab)
        .arg(fmt::bytes(r.memory.activations.layers), fmt::bytes(r.memory.activations.outputLayer));
}

} // namespace

QString componentName(MemoryComponent c)
{
    switch (c) {
    case MemoryComponent::Params: return tr("Parameters");
    case MemoryComponent::Grads: return tr("Gradients");
    case MemoryComponent::Optimizer: return tr("Optimizer + master weights");
    case MemoryComponent::Activations: return tr("Activations");
    }
    return {};
}

double componentBytes(const MemoryBreakdown &m, MemoryComponent c)
{
    switch (c) {
    case MemoryComponent::Params: return m.params;
    case MemoryComponent::Grads: return m.grads;
    case MemoryComponent::Optimizer: return m.optimizerAndMasterWeights;
    case MemoryComponent::Activations: return m.activations;
    }
    return 0;
}

QString memorySegmentText(const Report &r, int zeroStage, MemoryComponent c, ByteUnit unit)
{
    const MemoryBreakdown &m = r.memory.byZeroStage[static_cast<std::size_t>(zeroStage)];
    const double bytes = componentBytes(m, c);
    const double n = static_cast<double>(r.params.total);
    const Recipe &recipe = r.memory.recipe;
    const QString zeroSource = tr("Source: Rajbhandari et al. 2019 (ZeRO), Figure 1; bytes per parameter from "
                                  "the recipe \"%1\"").arg(recipe.name);
    QString formula;
    switch (c) {
    case MemoryComponent::Params:
        formula = stateFormula(n, recipe.weightBytes, zeroStage >= 3, r.memory.gpus) + QLatin1Char('\n') + zeroSource;
        break;
    case MemoryComponent::Grads:
        formula = stateFormula(n, recipe.gradBytes, zeroStage >= 2, r.memory.gpus) + QLatin1Char('\n') + zeroSource;
        break;
    case MemoryComponent::Optimizer:
        formula = stateFormula(n, recipe.optimizerBytes, zeroStage >= 1, r.memory.gpus)
                  + tr("\n(fp32 master weights and optimizer moments)\n") + zeroSource;
        break;
    case MemoryComponent::Activations:
        formula = activationFormula(r);
        break;
    }
    return tr("%1, ZeRO stage %2: %3 (%4 bytes) per GPU\n%5")
        .arg(componentName(c)).arg(zeroStage)
        .arg(fmt::bytesIn(bytes, unit), num(bytes), formula);
}

} // namespace napkin::ui
