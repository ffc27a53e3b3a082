#include "core/report/budget.h"

#include "core/model/layout.h"
#include "core/model/limits.h"
#include "core/model/modelshape.h"
#include "core/model/shapesuggest.h"
#include "core/model/validation.h"
#include "core/report/report.h"

#include <cmath>

namespace napkin {

namespace {

/// The largest budget Napkin accepts in FLOPs: 1e30 is 25,000 times Llama 3 405B's 3.8e25
/// (Dubey et al. 2024, Section 3.2.1).
constexpr double kMaxBudgetFlops = 1e30;

Refusal budgetRefusal(BudgetUnit unit, const QString &problem)
{
    return {QLatin1String(budgetUnitKey(unit)), problem};
}

/// The scenario the suggestion runs: the shape on the target's tokens, planned from the
/// simplest layout with the scenario's global batch (the planner plans from any start).
Scenario startingRun(const Scenario &s, const ModelShape &shape, double tokens)
{
    Scenario run = withSimplestLayout(s);
    run.baseline = {};
    run.presetId = QStringLiteral("budget");
    run.model = shape;
    run.paramsOverride.reset();
    run.tokens = std::clamp(std::round(tokens), limits::minTokens, limits::maxTokens);
    run.globalBatch = s.globalBatch;
    return run;
}

} // namespace

const char *budgetUnitKey(BudgetUnit unit)
{
    switch (unit) {
    case BudgetUnit::Flops: return "flops";
    case BudgetUnit::GpuHours: return "gpu_hours";
    case BudgetUnit::Usd: return "usd";
    case BudgetUnit::Days: return "days";
    }
    return "flops";
}

double scenarioBudgetFlops(const Scenario &s)
{
    // A token runs through the active parameters: a Mixture-of-Experts' compute is theirs, not
    // its total's (gpt-oss-120b's total had made its budget 25x the run's own).
    return 6 * static_cast<double>(scenarioParams(s).active) * s.tokens;
}

Result<BudgetReport> computeBudget(const Scenario &scenario, const Catalog &catalog, const BudgetRequest &request)
{
    // A budget plans a training run, whichever mode the scenario is in: serving's own checks
    // (the weights beside a KV cache on one GPU) have no say in it.
    Scenario s = scenario;
    s.mode = Mode::Training;
    // The budget sets its own layout: the scenario's own need not be one.
    const auto base = computeReport(withSimplestLayout(s), catalog);
    if (!base.ok())
        return base.refusal();
    BudgetReport r;
    r.request = request;
    if (!(request.amount > 0) || !std::isfinite(request.amount))
        return budgetRefusal(request.unit, QStringLiteral("must be above 0 (got %1)").arg(request.amount));
    if (!(request.inferenceTokens >= 0) || request.inferenceTokens > limits::maxTokens * 1e3)
        return Refusal{QStringLiteral("inference_tokens"),
                       QStringLiteral("must be a number from 0 to %1 (got %2)").arg(limits::maxTokens * 1e3).arg(request.inferenceTokens)};
    if (request.law == ScalingLaw::TokensPerParam && !(request.tokensPerParam > 0 && request.tokensPerParam <= 1e5))
        return Refusal{QStringLiteral("tokens_per_param"),
                       QStringLiteral("must be a number from above 0 to 100000 (got %1)").arg(request.tokensPerParam)};

    // Time and money become FLOPs at the rate the run's own time uses: peak x utilisation.
    r.peakFlopsPerS = base->time.peakFlopsPerS;
    r.utilization = s.utilizationFraction;
    r.flopsPerGpuSecond = r.peakFlopsPerS * r.utilization;
    double gpuHours = 0;
    switch (request.unit) {
    case BudgetUnit::Flops:
        r.flops = request.amount;
        break;
    case BudgetUnit::GpuHours:
        gpuHours = request.amount;
        break;
    case BudgetUnit::Usd:
        if (!base->time.price.usdPerGpuHour)
            return budgetRefusal(request.unit, QStringLiteral("%1 has no catalog price; set one with --price").arg(base->gpu.name));
        if (!(*base->time.price.usdPerGpuHour > 0))  // a free GPU-hour buys unbounded compute
            return Refusal{QStringLiteral("price"),
                           QStringLiteral("must be above 0 USD per GPU-hour for a budget in dollars (got %1)")
                               .arg(*base->time.price.usdPerGpuHour)};
        gpuHours = request.amount / *base->time.price.usdPerGpuHour;
        break;
    case BudgetUnit::Days:
        gpuHours = request.amount * 24 * static_cast<double>(s.gpus);
        break;
    }
    if (request.unit != BudgetUnit::Flops)
        r.flops = gpuHours * 3600 * r.flopsPerGpuSecond;
    r.budgetGpuHours = r.flops / (3600 * r.flopsPerGpuSecond);
    if (!(r.flops <= kMaxBudgetFlops))
        return budgetRefusal(request.unit, QStringLiteral("is %1 FLOPs; Napkin sizes budgets up to %2 FLOPs")
                                               .arg(r.flops, 0, 'g', 3).arg(kMaxBudgetFlops, 0, 'g', 3));

    for (const ScalingLawInfo &info : scalingLaws()) {
        LawOptimum o;
        o.law = info.law;
        o.optimal = computeOptimal(info.law, r.flops, request.tokensPerParam);
        o.loss = predictedLoss(lossCoefficients(info.law), o.optimal.params, o.optimal.tokens);
        r.laws.append(o);
        if (info.law == request.law) {
            r.optimal = o.optimal;
            r.predictedLoss = o.loss;
        }
    }
    r.target = r.optimal;
    r.totalFlopsOptimal = r.optimal.flops() + 2 * r.optimal.params * request.inferenceTokens;
    r.totalFlopsInferenceAware = r.totalFlopsOptimal;
    if (request.inferenceTokens > 0) {
        r.inferenceAware = inferenceOptimal(lossCoefficients(request.law), r.predictedLoss, request.inferenceTokens,
                                            r.optimal.params);
        r.target = *r.inferenceAware;
        r.totalFlopsInferenceAware = r.target.flops() + 2 * r.target.params * request.inferenceTokens;
    }

    r.shape = suggestShape(s.model, s.seqLen, r.target.params);
    r.shapeParams = countParams(r.shape).total;
    const double gap = static_cast<double>(r.shapeParams) / r.target.params;
    if (gap > 2)
        return budgetRefusal(request.unit, QStringLiteral("is too small for any model: its optimum is %1 parameters, "
                                                          "and the smallest %2-family shape has %3 parameters")
                                               .arg(r.target.params, 0, 'g', 3)
                                               .arg(archName(s.model.arch))
                                               .arg(static_cast<double>(r.shapeParams), 0, 'g', 3));
    if (gap < 0.5 || r.target.tokens > limits::maxTokens)
        return budgetRefusal(request.unit, QStringLiteral("is too large: its optimum of %1 parameters on %2 tokens is beyond "
                                                          "the largest shape Napkin describes (%3 layers, %4 tokens)")
                                               .arg(r.target.params, 0, 'g', 3).arg(r.target.tokens, 0, 'g', 3)
                                               .arg(limits::maxLayers).arg(limits::maxTokens, 0, 'g', 3));

    r.run = startingRun(s, r.shape, r.target.tokens);
    const Scenario simplest = withSimplestLayout(r.run);
    if (auto refused = validateScenario(simplest))
        return *refused;
    const auto start = computeReport(simplest, catalog);
    if (!start.ok())
        return start.refusal();
    PlanOptions options;
    options.top = 1;
    const PlanReport plan = planLayouts(r.run, start->gpu, start->memory.recipe, start->scaleUp, start->scaleOut, options);
    if (!plan.layouts.isEmpty() && plan.layouts.first().fits) {
        r.fits = true;
        r.layout = plan.layouts.first();
        r.run = withPlannedLayout(r.run, *r.layout);
    } else {
        // No layout fits: the time of the simplest one, which does not fit either.
        if (r.run.globalBatch)
            r.batchNote = QStringLiteral("no layout fits; the time is one micro-batch per GPU's, %1 sequences per step")
                              .arg(r.run.gpus);
        r.run = simplest;
    }
    const auto final = computeReport(r.run, catalog);
    const TimeReport &time = final.ok() ? final->time : start->time;
    r.seconds = time.seconds;
    r.gpuHours = time.gpuHours;
    r.costUsd = time.costUsd;
    return r;
}

} // namespace napkin
