#include "core/report/suggestion.h"

#include "core/model/limits.h"
#include "core/model/validation.h"

namespace napkin {

namespace {

/// The run with one change, if it is valid and fits.
std::optional<SingleChange> tryChange(const Report &r, const QString &what, const Scenario &changed)
{
    if (validateScenario(changed))
        return std::nullopt;
    const Report after = computeReport(changed, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut);
    if (!after.memory.fits)
        return std::nullopt;
    return SingleChange{what, changed, after.memory.perGpu.total(), after.step.stepSeconds};
}

} // namespace

std::optional<FitSuggestion> suggestFit(const Report &r)
{
    if (r.memory.fits)
        return std::nullopt;
    const Scenario &s = r.scenario;
    FitSuggestion f;
    PlanOptions options;
    options.top = 1;
    const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
    if (!plan.layouts.isEmpty() && plan.layouts.first().fits) {
        f.layout = plan.layouts.first();
        f.layoutScenario = withPlannedLayout(s, *f.layout);
    }

    // The single changes: each trades time or communication for memory, none changes the model.
    QList<std::pair<QString, Scenario>> changes;
    if (!s.flashAttention) {
        Scenario c = s;
        c.flashAttention = true;
        changes.append({QStringLiteral("FlashAttention on"), c});
    }
    for (int stage = s.zeroStage + 1; stage <= limits::maxZeroStage; ++stage) {
        Scenario c = s;
        c.zeroStage = stage;
        changes.append({QStringLiteral("ZeRO %1").arg(stage), c});
    }
    for (Recompute rc : {Recompute::Selective, Recompute::Full}) {
        if (static_cast<int>(rc) <= static_cast<int>(s.recompute))
            continue;
        Scenario c = s;
        c.recompute = rc;
        changes.append({QStringLiteral("recompute %1").arg(enumName(kRecomputeNames, static_cast<int>(rc))), c});
    }
    for (const auto &[what, changed] : changes) {
        const auto change = tryChange(r, what, changed);
        if (change && (!f.lightest || change->stepSeconds < f.lightest->stepSeconds))
            f.lightest = change;
    }
    return f;
}

} // namespace napkin
