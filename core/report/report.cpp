#include "core/report/report.h"

#include "core/model/limits.h"

#include <QStringList>

#include <cmath>
#include <tuple>

namespace napkin {

StepTimeReport estimateStepTimeOn(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu,
                                  const Interconnect &scaleUp, const Interconnect &scaleOut, const FlopsReport &flops,
                                  const QList<double> &params, const QList<double> &experts)
{
    const Layout layout = deriveLayout(s, gpu.gpusPerNode);
    const StepMachine machine = stepMachine(s, recipe, gpu, Links{&scaleUp, &scaleOut});
    const double stepsPerRun = s.tokens / flops.tokensPerStep;
    return estimateStepTime(s, recipe, layout, machine, params, optimizerParams(s, layout, params, experts),
                            flops.perStepDetailed, flops.recompute / stepsPerRun);
}

QList<double> optimizerParams(const Scenario &s, const Layout &layout, const QList<double> &stageParams,
                              const QList<double> &experts)
{
    QList<double> out = stageParams;
    if (s.zeroStage < 1)
        return out;
    // Dense parameters are sharded over DP x CP, the routed experts' over DP x CP / EP.
    for (qsizetype i = 0; i < out.size(); ++i) {
        const double e = experts.value(i);
        out[i] = (out[i] - e) / static_cast<double>(layout.shardGroup())
                 + e / static_cast<double>(layout.expertShardGroup());
    }
    return out;
}

Report computeReport(const Scenario &s, const GpuSpec &gpu, const Recipe &recipe, const Interconnect &scaleUp,
                     const Interconnect &scaleOut)
{
    Report r;
    r.scenario = s;
    r.gpu = gpu;
    r.params = scenarioParams(s);
    r.flops = computeFlops(s);
    r.memory = computeMemory(s, recipe, gpu);
    r.layout = r.memory.layout;
    r.scaleUp = scaleUp;
    r.scaleOut = scaleOut;
    // Each stage's parameters, counted once by the memory report, serve the step and the roofline.
    const QList<double> params = stageParams(r.memory);
    const QList<double> experts = stageExpertParams(r.memory);
    r.step = estimateStepTimeOn(s, recipe, gpu, scaleUp, scaleOut, r.flops, params, experts);
    r.time = computeTime(s, r.flops, recipe, gpu, r.step);
    r.roofline = computeRoofline(s, recipe, gpu, optimizerParams(s, r.layout, params, experts), r.step.stage);
    r.conventions = computeConventions(s, recipe);
    const MemoryBreakdown &state = r.memory.byZeroStage[0];
    // The source document divides by the bytes of the model and its activations; the CUDA
    // context is not data a step moves.
    r.illustrativeIntensity = r.flops.training6nd / (state.total() - state.reserved);
    return r;
}

bool hasRecipePeaks(const GpuSpec &gpu, const Recipe &recipe)
{
    return gpu.peakFor(recipe.computeDtype) && gpu.peakFor(recipe.matmulDtype());
}

Result<Report> computeReport(const Scenario &s, const Catalog &catalog)
{
    if (auto refused = validateScenario(s))
        return *refused;
    const GpuSpec *gpu = catalog.findGpu(s.gpuId);
    if (!gpu)
        return unknownIdRefusal(QStringLiteral("gpu"), s.gpuId, catalog.gpuIdList(), QStringLiteral("gpus"));
    const auto recipe = findRecipe(s.recipeId);
    if (!recipe)
        return unknownIdRefusal(QStringLiteral("recipe"), s.recipeId, recipeIdList(), QStringLiteral("recipes"));
    // One dtype rule (GpuSpec::peakFor): the recipe's dtypes, bf16 and fp16 for each other, never
    // a tensor-core rate for fp32 or another dtype's for fp8; a GPU without such a peak gives no
    // time rather than a wrong one.
    for (const QString &dtype : {recipe->computeDtype, recipe->matmulDtype()}) {
        if (gpu->peakFor(dtype))
            continue;
        QStringList recipesWithPeak;
        for (const Recipe &other : recipes())
            if (hasRecipePeaks(*gpu, other))
                recipesWithPeak << other.id;
        return Refusal{QStringLiteral("recipe"),
                       QStringLiteral("\"%6\" %7 %1, and GPU \"%2\" lists no %3 peak: choose a recipe it "
                                      "has a peak for (%4) or a GPU that lists one (%5)")
                           .arg(dtype, gpu->id, acceptedPeakDtypes(dtype).join(QStringLiteral(" or ")),
                                recipesWithPeak.join(QStringLiteral(", ")), catalog.gpuIdListWithPeak(dtype), recipe->id,
                                dtype == recipe->computeDtype ? QStringLiteral("computes in") : QStringLiteral("runs its GEMMs in"))};
    }
    const Interconnect *scaleUp = catalog.findInterconnect(gpu->scaleUpId);
    const Interconnect *scaleOut = catalog.findInterconnect(s.interconnectId.isEmpty() ? gpu->scaleOutId : s.interconnectId);
    if (!scaleOut)
        return unknownIdRefusal(QStringLiteral("interconnect"), s.interconnectId, catalog.interconnectIdList(),
                                QStringLiteral("interconnects"));
    if (s.gpusPerNode && *s.gpusPerNode > scaleUp->domainGpus)
        return Refusal{QStringLiteral("gpus_per_node"),
                       QStringLiteral("must be at most %1, the GPUs %2's %3 connects (got %4)")
                           .arg(scaleUp->domainGpus).arg(gpu->id, scaleUp->name).arg(*s.gpusPerNode)};
    Report r = computeReport(s, *gpu, *recipe, *scaleUp, *scaleOut);
    if (s.mode == Mode::Inference) {
        auto served = computeInference(s, *gpu, *scaleUp, *scaleOut);
        if (!served.ok())
            return served.refusal();
        r.inference = std::move(served).value();
        r.roofline = r.inference->roofline;
    }
    // A calibration stands for efficiencies, and none may put this GPU past its peak or below
    // 1% of it (a factor typed into a scenario file as napkin calibrate refuses a fit); the
    // slack lets the fit's own difference steps at its bounds through.
    if (s.calibration) {
        const double slack = 1e-3;
        for (const auto &[key, name, value] :
             {std::tuple{QStringLiteral("compute"), QStringLiteral("matmul"), r.step.matmulEfficiency / s.calibration->compute},
              std::tuple{QStringLiteral("memory"), QStringLiteral("memory"), r.step.memoryEfficiency / s.calibration->memory}})
            if (value > 0 && (value > 1 + slack || value < limits::minImpliedEfficiency * (1 - slack)))  // 0: no step on this GPU
                return Refusal{QStringLiteral("calibration.") + key,
                               QStringLiteral("implies a %1 efficiency of %2% on %3, outside 1% to 100%")
                                   .arg(name)
                                   .arg(value * 100, 0, 'f', 1)
                                   .arg(gpu->name)};
    }
    // Under MFU the hardware runs the recomputed forward too: its utilisation is higher and
    // cannot pass 100% of peak (Chowdhery et al. 2022, App. B).
    if (r.time.hfuFraction > 1.0 + 1e-12) {
        const double highest = r.time.trainingFlops / r.time.hardwareFlops;
        return Refusal{QStringLiteral("mfu"),
                       QStringLiteral("must be at most %1% with this recompute setting: MFU %2% means HFU %3% "
                                      "(got %2%)")
                           .arg(QString::number(std::floor(highest * 1000) / 10), QString::number(s.utilizationFraction * 100),
                                QString::number(std::round(r.time.hfuFraction * 1000) / 10))};
    }
    if (s.baseline) {
        // A pinned scenario is a whole scenario of its own; its problems name it.
        if (s.baseline.scenario->baseline)
            return Refusal{QStringLiteral("baseline"), QStringLiteral("must not hold a baseline of its own")};
        auto pinned = computeReport(*s.baseline.scenario, catalog);
        if (!pinned.ok())
            return Refusal{QStringLiteral("baseline.") + pinned.refusal().field, pinned.refusal().problem};
        r.baseline = std::make_shared<const Report>(std::move(pinned).value());
    }
    return r;
}

} // namespace napkin
