#include "core/workload/workload.h"

#include "core/model/layout.h"
#include "core/model/modelshape.h"

#include <algorithm>
#include <initializer_list>

namespace napkin {

WorkloadInput recipeWorkloadInput(const Scenario &s, const Recipe &recipe)
{
    WorkloadInput in = workloadInput(s, recipe.activationBytes, recipe.weightBytes, recipe.gradBytes,
                                     recipe.optimizerBytes, recipe.optimizerFlopsPerParam);
    in.fp8Gemms = recipe.matmulDtype() == QLatin1String("fp8");
    in.fp8CurrentScaling = in.fp8Gemms && s.fp8Scaling == Fp8Scaling::Current;
    return in;
}

double unfusedAccumulations(const Scenario &s)
{
    if (s.gradAccumulationFusion || s.mode != Mode::Training)
        return 0;
    const double m = static_cast<double>(deriveLayout(s, 1).microBatches);  // the node size plays no part
    return (m - 1) / m;
}

WorkloadInput workloadInput(const Scenario &s, double activationBytes, double weightBytes, double gradBytes,
                            double optimizerBytes, double optimizerFlopsPerParam)
{
    const ModelShape &m = s.model;
    WorkloadInput in;
    in.llama = m.arch == Arch::Llama;
    in.layers = static_cast<double>(m.layers);
    in.microBatch = static_cast<double>(s.microBatch);
    in.seqLen = static_cast<double>(s.seqLen);
    in.dModel = static_cast<double>(m.dModel);
    in.kvWidth = static_cast<double>(kvWidth(m));
    const AttentionWidths widths = attentionWidths(m);
    in.queryWidth = static_cast<double>(widths.q);
    in.keyWidth = static_cast<double>(widths.k);
    in.valueWidth = static_cast<double>(widths.v);
    in.outWidth = static_cast<double>(widths.out);
    if (m.mla()) {
        in.qLoraRank = static_cast<double>(m.qLoraRank);
        in.kvLoraRank = static_cast<double>(m.kvLoraRank);
        in.qkRopeDim = static_cast<double>(m.qkRopeDim);
        in.keyNopeWidth = static_cast<double>(m.heads * headWidth(m));
    }
    in.qkNorm = m.qkNorm;
    in.linearBias = m.arch == Arch::Llama && m.linearBias;
    in.attentionSinks = m.attentionSinks;
    in.dFf = static_cast<double>(m.dFf);
    in.heads = static_cast<double>(m.heads);
    in.vocab = static_cast<double>(m.vocab);
    in.tp = static_cast<double>(s.tp);
    in.cp = static_cast<double>(s.cp);
    in.sp = s.sequenceParallel && s.tp > 1;
    if (m.moe()) {
        in.experts = static_cast<double>(m.experts);
        in.expertsPerToken = static_cast<double>(m.expertsPerToken);
        in.sharedExperts = static_cast<double>(m.sharedExperts);
        in.expertDff = static_cast<double>(expertWidth(m));
        in.ep = static_cast<double>(s.ep);
        in.etp = static_cast<double>(s.etp.value_or(s.tp));
        in.capacityFactor = s.capacityFactor;
        in.denseLayers = static_cast<double>(std::min(m.denseLayers, m.layers));
        in.routerBias = m.routerBias;
    }
    in.flash = s.flashAttention;
    in.causal = s.causalHalving;
    if (m.slidingWindow > 0)
        in.pairsPerBlock = attentionPairs(m, static_cast<double>(s.seqLen), s.causalHalving) / static_cast<double>(m.layers);
    in.recompute = s.recompute;
    const bool selective = s.recompute == Recompute::Selective;
    in.recomputeCoreAttention = selective && s.recomputeCoreAttention;
    in.recomputeNorms = selective && s.recomputeNorms;
    in.recomputeMoeActivation = selective && s.recomputeMoeActivation;
    in.recomputeMlaUpProjection = selective && s.recomputeMlaUpProjection;
    in.activationBytes = activationBytes;
    in.weightBytes = weightBytes;
    in.gradBytes = gradBytes;
    in.optimizerBytes = optimizerBytes;
    in.optimizerFlopsPerParam = optimizerFlopsPerParam;
    in.includeActivations = s.includeActivations;
    in.activationModel = s.activationModel;
    in.dropout = s.dropout;
    in.crossEntropy = s.crossEntropy;
    in.maxPositions = static_cast<double>(m.maxPositions);
    in.tied = m.tied;
    in.headHasOwnTable = !m.tied || s.pp > 1;
    in.mtpDepth = s.paramsOverride ? 0 : static_cast<double>(m.mtpDepth);
    in.unfusedAccumulations = unfusedAccumulations(s);
    return in;
}

WorkloadSums sumWorkload(const std::vector<WorkloadOp> &ops)
{
    WorkloadSums sums;
    for (const WorkloadOp &op : ops) {
        if (op.phase != Phase::Forward)
            continue;
        switch (op.region) {
        case Region::Block:
            sums.savedPerBlock += op.count * op.savedBytes;
            sums.paramsPerBlock += op.count * op.params;
            if (op.expert)
                sums.expertParamsPerBlock += op.count * op.params;
            break;
        case Region::Embedding:
            sums.savedEmbedding += op.count * op.savedBytes;
            sums.paramsEmbedding += op.count * op.params;
            break;
        case Region::Head:
            sums.savedHead += op.count * op.savedBytes;
            sums.paramsHead += op.count * op.params;
            if (op.expert)
                sums.expertParamsHead += op.count * op.params;
            break;
        case Region::Step: break;
        }
    }
    return sums;
}

namespace {

/// The matmul FLOPs of the ops that run in one of `phases`, times their counts.
double matmulFlopsIn(const std::vector<WorkloadOp> &ops, std::initializer_list<Phase> phases)
{
    double sum = 0;
    for (const WorkloadOp &op : ops)
        if (std::find(phases.begin(), phases.end(), op.phase) != phases.end())
            sum += op.count * op.matmulFlops;
    return sum;
}

} // namespace

double recomputeFlops(const std::vector<WorkloadOp> &ops)
{
    return matmulFlopsIn(ops, {Phase::Recompute});
}

double modelMatmulFlops(const std::vector<WorkloadOp> &ops)
{
    return matmulFlopsIn(ops, {Phase::Forward, Phase::Backward});
}

} // namespace napkin
