#pragma once

#include "core/model/catalog.h"
#include "core/model/refusal.h"
#include "core/model/scalinglaw.h"
#include "core/model/scenario.h"
#include "core/report/planner.h"

#include <QList>

#include <optional>

namespace napkin {

/// The form a training budget is given in.
enum class BudgetUnit { Flops, GpuHours, Usd, Days };

/// "flops", "gpu_hours", "usd", "days": the JSON key and, with dashes, the option (--gpu-hours).
const char *budgetUnitKey(BudgetUnit unit);

/// What `napkin budget` and the window's Budget page are asked.
struct BudgetRequest {
    BudgetUnit unit = BudgetUnit::Flops;
    double amount = 0;  ///< FLOPs, GPU-hours, US dollars or days, by `unit`
    ScalingLaw law = ScalingLaw::Besiroglu2024;
    double tokensPerParam = 20;  ///< the tokens-per-param law's ratio r
    double inferenceTokens = 0;  ///< tokens the model serves over its life (Sardana et al. 2023)

    bool operator==(const BudgetRequest &) const = default;
};

/// One law's compute-optimal answer for the budget, and the loss it predicts.
struct LawOptimum {
    ScalingLaw law = ScalingLaw::Besiroglu2024;
    Allocation optimal;
    double loss = 0;
};

/// A budget's answer: how big a model, how many tokens, and what that run takes here.
struct BudgetReport {
    BudgetRequest request;
    double flops = 0;              ///< the budget in FLOPs (6ND)
    double peakFlopsPerS = 0;      ///< the scenario's GPU, the recipe's GEMM dtype (TimeReport::peakFlopsPerS)
    double utilization = 0;        ///< the scenario's utilisation
    double flopsPerGpuSecond = 0;  ///< peak x utilisation: what converts time and money to FLOPs
    double budgetGpuHours = 0;     ///< the budget in GPU-hours at that rate
    Allocation optimal;            ///< the chosen law's compute-optimal N and D
    double predictedLoss = 0;      ///< L(N, D) under the law's coefficients
    QList<LawOptimum> laws;        ///< every law at this budget, in scalingLaws() order

    /// Sardana et al. 2023: the model with the compute-optimal model's loss and the fewest
    /// training plus inference FLOPs; present when inference tokens are > 0.
    std::optional<Allocation> inferenceAware;
    double totalFlopsOptimal = 0;        ///< 6ND + 2N x inference tokens of the compute-optimal model
    double totalFlopsInferenceAware = 0; ///< the same of the inference-aware model

    /// The model the suggestion is for: the inference-aware one when there is one.
    Allocation target;
    /// A dense shape of the scenario's family near the target N (suggestShape), and its exact count.
    ModelShape shape;
    std::int64_t shapeParams = 0;

    /// The scenario's GPUs training that shape on the target's tokens, with the planner's best
    /// layout when one fits (else the starting layout, which does not).
    Scenario run;
    bool fits = false;
    std::optional<PlannedLayout> layout;
    QString batchNote;             ///< when no layout fits: that the time is the simplest layout's
    double seconds = 0;
    double gpuHours = 0;
    std::optional<double> costUsd;
};

/// The budget's answer for the scenario's family, GPU, GPU count, utilisation and price.
/// Refuses, naming the field (its JSON key: "flops", "gpu_hours", "usd", "days", "law",
/// "tokens_per_param", "inference_tokens"), a budget <= 0, a price that is missing for "usd",
/// negative inference tokens, and a budget too small or too large for any shape.
Result<BudgetReport> computeBudget(const Scenario &s, const Catalog &catalog, const BudgetRequest &request);

/// The scenario's own training compute, 6ND with N the parameters a token runs through
/// (embeddings included, as Hoffmann et al. 2022 count; a Mixture-of-Experts' active ones) and
/// its tokens: the Budget page's starting budget, so that the page first shows where the current
/// model stands.
double scenarioBudgetFlops(const Scenario &s);

} // namespace napkin
