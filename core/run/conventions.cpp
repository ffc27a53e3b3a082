#include "core/run/conventions.h"

#include "core/workload/activations.h"
#include "core/model/modelshape.h"

namespace napkin {

ConventionsReport computeConventions(const Scenario &s, const Recipe &recipe)
{
    ConventionsReport c;
    const double params = static_cast<double>(scenarioParams(s).total);
    c.modelState16 = params * 16;
    c.modelState18 = params * 18;
    Scenario v = s;
    v.includeActivations = true;
    const double b = static_cast<double>(s.microBatch);
    v.flashAttention = false;
    v.recompute = Recompute::None;
    c.activationsNone = activationBytes(v, recipe, b).total();
    v.recompute = Recompute::Selective;
    c.activationsSelective = activationBytes(v, recipe, b).total();
    v.recompute = Recompute::Full;
    c.activationsFull = activationBytes(v, recipe, b).total();
    v.recompute = Recompute::None;
    v.flashAttention = true;
    c.activationsFlash = activationBytes(v, recipe, b).total();
    v = s;
    v.includeActivations = true;
    c.activationsKorthikanti = activationBytes(v, recipe, b, ActivationModel::Korthikanti).total();
    c.activationsPyTorch = activationBytes(v, recipe, b, ActivationModel::PyTorch).total();
    return c;
}

} // namespace napkin
