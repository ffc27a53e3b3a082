#pragma once

#include "core/report/budget.h"

#include <QJsonObject>

namespace napkin {

/// `napkin budget --json`: {"budget": {flops, law, optimal_params, optimal_tokens,
/// tokens_per_param, predicted_loss, inference_tokens, total_flops, ..., "shape": {layers,
/// d_model, heads, kv_heads, d_ff, vocab, params}, "laws": [...], "run": {...}}}, in base units
/// (FLOPs, parameters, tokens, seconds, US dollars).
QJsonObject budgetToJson(const BudgetReport &b);

} // namespace napkin
