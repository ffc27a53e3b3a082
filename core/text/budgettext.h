#pragma once

#include "core/report/budget.h"

#include <QString>
#include <QStringList>

namespace napkin {

/// "5.76e+23 FLOPs", or for a time or money budget how it became FLOPs: "1,000,000 GPU-hours
/// x 396 TFLOP/s (989 TFLOP/s peak x 40.0%) = 1.42e+24 FLOPs".
QString budgetAmountText(const BudgetReport &b, const QString &gpuName);

/// "L(N, D) = 1.8172 + 482.01 / N^0.3478 + 2085.43 / D^0.3658"
QString lossFormulaText(const LossCoefficients &c);

/// "llama · 80 layers · d_model 10240 · 80 heads (8 KV) · d_ff 27392 · vocab 128256"
QString shapeText(const ModelShape &m);

/// `napkin budget`: the answer as lines a person reads top to bottom.
QString budgetText(const BudgetReport &b, const QString &gpuName);

} // namespace napkin
