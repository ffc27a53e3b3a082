#include "core/run/memory.h"

#include "core/model/limits.h"
#include "core/model/modelshape.h"
#include "core/model/recipe.h"

#include <algorithm>
#include <cmath>

namespace napkin {

MemoryBreakdown modelStateBytes(double params, const Recipe &recipe, int zeroStage, double gpus)
{
    MemoryBreakdown m;
    m.params = params * recipe.weightBytes / (zeroStage >= 3 ? gpus : 1);
    m.grads = params * recipe.gradBytes / (zeroStage >= 2 ? gpus : 1);
    m.optimizerAndMasterWeights = params * recipe.optimizerBytes / (zeroStage >= 1 ? gpus : 1);
    return m;
}

namespace {

/// Parameters of one block, the embedding side and the head side on one GPU, from the ops.
WorkloadSums paramSums(const Scenario &s)
{
    return blockSums(s, recipes().first(), 1);  // parameters do not depend on the recipe's bytes
}

/// Per pipeline rank, the sum of a per-stage figure over the stages the rank holds (rankStages:
/// under DualPipe, stage i and stage pp - 1 - i).
QList<double> perRank(const Layout &l, const QList<double> &perStage)
{
    if (!l.dualPipe || perStage.size() != l.pp)
        return perStage;
    QList<double> out;
    out.reserve(perStage.size());
    for (std::int64_t i = 0; i < l.pp; ++i) {
        double sum = 0;
        for (std::int64_t stage : rankStages(l, i))
            sum += perStage[stage];
        out.append(sum);
    }
    return out;
}

QList<double> stageParamsFrom(const Scenario &s, const Layout &l, const WorkloadSums &sums)
{
    if (s.paramsOverride)
        return {static_cast<double>(*s.paramsOverride)};
    const std::vector<std::int64_t> layers = stageLayers(s.model.layers, l.pp);
    const std::vector<std::int64_t> dense = stageDenseLayers(s.model.layers, l.pp, denseBlocks(s));
    QList<double> out;
    out.reserve(l.pp);
    for (std::int64_t i = 0; i < l.pp; ++i) {
        const auto at = static_cast<std::size_t>(i);
        double n = sums.paramsPerBlock * static_cast<double>(layers[at] - dense[at])
                   + sums.paramsPerDenseBlock * static_cast<double>(dense[at]);
        if (i == 0)
            n += sums.paramsEmbedding;
        if (i == l.pp - 1)
            n += sums.paramsHead;
        out.append(n);
    }
    return perRank(l, out);
}

/// The activations pipeline rank `rank` holds at its peak, of each stage it holds
/// (rankStages): each stage's blocks times its micro-batches in flight, the embedding's output
/// with the first stage's, and the head's once on the last stage, which runs each micro-batch's
/// backward at once.
double rankActivationBytes(const Layout &l, const ActivationBreakdown &a, const std::vector<std::int64_t> &layers,
                           const std::vector<std::int64_t> &dense, std::int64_t rank)
{
    double bytes = 0;
    for (std::int64_t stage : rankStages(l, rank)) {
        const auto at = static_cast<std::size_t>(stage);
        const double inFlight = inFlightMicroBatches(l, stage);
        bytes += (a.perLayer * static_cast<double>(layers[at] - dense[at]) + a.perDenseLayer * static_cast<double>(dense[at]))
                 * inFlight;
        if (stage == 0)
            bytes += a.embedding * inFlight;
        if (stage == l.pp - 1)
            bytes += a.head;
    }
    return bytes;
}

/// One figure of every stage of the report, in stage order.
QList<double> eachStage(const MemoryReport &m, double StageMemory::*figure)
{
    QList<double> out;
    out.reserve(m.perStage.size());
    for (const StageMemory &st : m.perStage)
        out.append(st.*figure);
    return out;
}

} // namespace

QList<double> stageParams(const Scenario &s, const Layout &l)
{
    return stageParamsFrom(s, l, paramSums(s));
}

QList<double> stageParams(const Scenario &s, const Layout &l, const WorkloadSums &sums)
{
    return stageParamsFrom(s, l, sums);
}

QList<double> stageExpertParams(const Scenario &s, const Layout &l, const WorkloadSums &sums)
{
    const double perBlock = s.paramsOverride ? 0 : sums.expertParamsPerBlock;
    if (perBlock == 0 && sums.expertParamsHead == 0)
        return {};  // a dense model: no allocation on the planner's path (value(i) reads 0)
    const std::vector<std::int64_t> layers = stageLayers(s.model.layers, l.pp);
    const std::vector<std::int64_t> dense = stageDenseLayers(s.model.layers, l.pp, denseBlocks(s));
    QList<double> out;
    out.reserve(l.pp);
    for (std::int64_t i = 0; i < l.pp; ++i) {
        const auto at = static_cast<std::size_t>(i);
        out.append(perBlock * static_cast<double>(layers[at] - dense[at]) + (i == l.pp - 1 ? sums.expertParamsHead : 0));
    }
    return perRank(l, out);
}

QList<double> stageExpertParams(const MemoryReport &m)
{
    return eachStage(m, &StageMemory::expertParams);
}

QList<double> stageParams(const MemoryReport &m)
{
    return eachStage(m, &StageMemory::params);
}

namespace {

struct StageInputs {
    double params = 0;
    double expertParams = 0;     ///< of params, the routed experts' (sharded over the expert DP ranks)
    double blockParams = 0;      ///< one block on one rank, for ZeRO-3's gathered unit
    double activations = 0;      ///< at the chosen micro-batch, in flight
    double perSequence = 0;      ///< activations per sequence of micro-batch, in flight
};

MemoryBreakdown stageBytes(const StageInputs &in, const Scenario &s, const Recipe &recipe, int zeroStage,
                           double shards, double expertShards, FrameworkOverheads *overheadsOut)
{
    // ZeRO shards each parameter's state over the ranks that hold the same parameter: DP x CP
    // for the dense ones, DP x CP / EP for the routed experts (Megatron-LM, DeepSpeed-MoE).
    MemoryBreakdown b = modelStateBytes(in.params - in.expertParams, recipe, zeroStage, shards);
    MemoryBreakdown experts = in.expertParams > 0 ? modelStateBytes(in.expertParams, recipe, zeroStage, expertShards)
                                                  : MemoryBreakdown{};
    // Offload where the ZeRO stage allows it (the other stages of the comparison chart keep
    // everything on the GPU): ZeRO-Offload (Ren et al. 2021, Section 4.1) keeps the fp32 master
    // weights, the optimizer moments and the gradients in CPU memory and steps there; ZeRO-Infinity
    // (Rajbhandari et al. 2021) moves the parameters too, gathered per block as ZeRO-3 does.
    const bool optimizerOut = s.offload != Offload::None && zeroStage >= lowestZeroStage(Offload::Optimizer);
    const bool paramsOut = s.offload == Offload::Params && zeroStage >= lowestZeroStage(Offload::Params);
    for (MemoryBreakdown *part : {&b, &experts}) {
        if (optimizerOut) {
            part->cpu += part->optimizerAndMasterWeights + part->grads;
            part->optimizerAndMasterWeights = 0;
            part->grads = 0;
        }
        if (paramsOut) {
            part->cpu += part->params;
            part->params = 0;
        }
    }
    b.experts = experts.modelState();
    b.cpu += experts.cpu;
    b.activations = in.activations;
    FrameworkOverheads o;
    if ((zeroStage >= 3 && shards > 1) || paramsOut) {
        o.zero3Gathered = in.blockParams * (recipe.weightBytes + recipe.gradBytes);
        o.zero3Prefetch = in.blockParams * recipe.weightBytes;
    }
    o.allocatorMargin = s.allocatorMargin * (b.modelState() + b.activations + o.zero3Gathered + o.zero3Prefetch);
    b.overheads = o.total();
    b.reserved = s.reservedBytes;
    if (overheadsOut)
        *overheadsOut = o;
    return b;
}

} // namespace

double worstStageBytes(const Scenario &s, const Recipe &recipe, const Layout &l)
{
    return worstStageBytes(s, recipe, l, blockSums(s, recipe, static_cast<double>(s.microBatch)));
}

double worstStageBytes(const Scenario &s, const Recipe &recipe, const Layout &l, const WorkloadSums &sums)
{
    const ActivationBreakdown a = activationsFrom(sums, s.model.layers, denseBlocks(s));
    const QList<double> params = stageParamsFrom(s, l, sums);
    const QList<double> experts = stageExpertParams(s, l, sums);
    const std::vector<std::int64_t> layers = stageLayers(s.model.layers, l.pp);
    const std::vector<std::int64_t> dense = stageDenseLayers(s.model.layers, l.pp, denseBlocks(s));
    const double block = s.paramsOverride ? 0 : sums.paramsPerBlock;
    double worst = 0;
    for (std::int64_t i : candidateRanks(l)) {
        const StageInputs in{params[i], experts.value(i), block, rankActivationBytes(l, a, layers, dense, i), 0};
        worst = std::max(worst, stageBytes(in, s, recipe, s.zeroStage, static_cast<double>(l.shardGroup()),
                                           static_cast<double>(l.expertShardGroup()), nullptr)
                                    .total());
    }
    return worst;
}

MemoryReport computeMemory(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu)
{
    MemoryReport r;
    r.recipe = recipe;
    r.zeroStage = s.zeroStage;
    r.gpus = s.gpus;
    r.capacity = gpu.memoryBytes;
    r.layout = deriveLayout(s, gpu.gpusPerNode);
    const Layout &l = r.layout;
    const double shards = static_cast<double>(l.shardGroup());
    const double expertShards = static_cast<double>(l.expertShardGroup());
    const WorkloadSums sums = blockSums(s, recipe, static_cast<double>(s.microBatch));
    r.activations = activationsFrom(sums, s.model.layers, denseBlocks(s));  // the same workload, not built again
    const ActivationBreakdown one = activationBytes(s, recipe, 1);

    const QList<double> params = stageParamsFrom(s, l, sums);
    const QList<double> experts = stageExpertParams(s, l, sums);
    const std::vector<std::int64_t> layers = stageLayers(s.model.layers, l.pp);
    const std::vector<std::int64_t> dense = stageDenseLayers(s.model.layers, l.pp, denseBlocks(s));
    const double block = s.paramsOverride ? 0 : sums.paramsPerBlock;
    std::vector<StageInputs> inputs;
    for (std::int64_t i = 0; i < l.pp; ++i) {
        StageMemory st;
        st.stage = i;
        st.params = params[i];
        st.expertParams = experts.value(i);
        st.inFlightMicroBatches = 0;
        st.layers = 0;
        for (std::int64_t stage : rankStages(l, i)) {
            st.layers += layers[static_cast<std::size_t>(stage)];
            st.inFlightMicroBatches += inFlightMicroBatches(l, stage);
        }
        StageInputs in{st.params, st.expertParams, block, rankActivationBytes(l, r.activations, layers, dense, i),
                       rankActivationBytes(l, one, layers, dense, i)};
        st.bytes = stageBytes(in, s, recipe, s.zeroStage, shards, expertShards, &st.overheads);
        inputs.push_back(in);
        r.perStage.append(st);
        if (st.bytes.total() > r.perStage[r.worstStage].bytes.total())
            r.worstStage = i;
    }
    const StageInputs &worst = inputs[static_cast<std::size_t>(r.worstStage)];
    for (int stage = 0; stage < kZeroStages; ++stage)
        r.byZeroStage[stage] = stageBytes(worst, s, recipe, stage, shards, expertShards, nullptr);
    r.perGpu = r.perStage[r.worstStage].bytes;
    r.fits = r.perGpu.total() <= r.capacity;
    r.cpuPerNode = r.perGpu.cpu * static_cast<double>(std::min(l.gpusPerNode, s.gpus));

    if (s.includeActivations) {
        // Every stage's total is linear in the micro-batch (the margin scales with it), so the
        // largest batch that fits every stage is a division per stage, not a search.
        double best = INFINITY;
        for (const StageInputs &in : inputs) {
            const StageInputs none{in.params, in.expertParams, in.blockParams, 0, 0};
            const StageInputs unit{in.params, in.expertParams, in.blockParams, in.perSequence, 0};
            const double fixed = stageBytes(none, s, recipe, s.zeroStage, shards, expertShards, nullptr).total();
            const double perSequence =
                stageBytes(unit, s, recipe, s.zeroStage, shards, expertShards, nullptr).total() - fixed;
            const double room = r.capacity - fixed;
            best = std::min(best, room <= 0 ? 0.0 : std::floor(room / perSequence));
        }
        r.maxMicroBatch = static_cast<std::int64_t>(std::min(best, static_cast<double>(limits::maxMicroBatch)));
    }
    return r;
}

} // namespace napkin
