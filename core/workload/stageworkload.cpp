#include "core/workload/stageworkload.h"

#include "core/model/layout.h"
#include "core/workload/activations.h"

namespace napkin {

WorkloadInput stageWorkload(const Scenario &s, const Recipe &recipe, std::int64_t stage,
                            const QList<double> &optimizerParams)
{
    WorkloadInput in = recipeWorkloadInput(s, recipe);
    const std::vector<std::int64_t> layers = stageLayers(s.model.layers, s.pp);
    in.layers = static_cast<double>(layers[static_cast<std::size_t>(stage)]);
    if (const std::int64_t dense = denseBlocks(s); dense > 0)
        in.denseLayers = static_cast<double>(stageDenseLayers(s.model.layers, s.pp, dense)[static_cast<std::size_t>(stage)]);
    else
        in.denseLayers = 0;
    in.firstStage = stage == 0;
    in.lastStage = stage == s.pp - 1;
    in.optimizerParams = optimizerParams.value(stage);
    return in;
}

} // namespace napkin
