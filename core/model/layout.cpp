#include "core/model/layout.h"

#include <algorithm>

namespace napkin {

Layout deriveLayout(const Scenario &s, std::int64_t defaultGpusPerNode)
{
    Layout l;
    l.tp = s.tp;
    l.pp = s.pp;
    l.vpp = s.vpp;
    l.cp = s.cp;
    l.ep = s.ep;
    l.etp = s.etp.value_or(s.tp);
    l.sp = s.sequenceParallel && s.tp > 1;
    l.dp = s.gpus / (s.tp * s.pp * s.cp);
    l.microBatch = s.microBatch;
    l.globalBatch = s.globalBatch.value_or(s.microBatch * l.dp);
    l.microBatches = l.globalBatch / (s.microBatch * l.dp);
    l.gpusPerNode = s.gpusPerNode.value_or(defaultGpusPerNode);
    l.dualPipe = runsDualPipe(s);
    return l;
}

namespace {

Refusal rule(const char *field, const QString &problem)
{
    return {QLatin1String(field), problem};
}

} // namespace

bool runsDualPipe(const Scenario &s)
{
    return s.ppSchedule == PipelineSchedule::DualPipe && s.pp > 1 && s.mode == Mode::Training;
}

bool dualPipeTakes(std::int64_t pp, std::int64_t microBatches)
{
    return microBatches % 2 == 0 && microBatches >= 2 * pp;
}

Scenario withSimplestLayout(Scenario s)
{
    s.tp = s.pp = s.vpp = s.cp = s.ep = 1;
    s.etp.reset();
    s.sequenceParallel = false;
    s.microBatch = 1;
    s.globalBatch.reset();
    s.zeroStage = std::max(s.zeroStage, lowestZeroStage(s.offload));
    return s;
}

int lowestZeroStage(Offload offload)
{
    switch (offload) {
    case Offload::None: return 0;
    case Offload::Optimizer: return 1;
    case Offload::Params: return 3;
    }
    return 0;
}

std::optional<Refusal> validateLayout(const Scenario &s)
{
    // Each field's own range is checked first, from the field table (fields.h).
    const ModelShape &m = s.model;
    if (s.paramsOverride && (s.tp > 1 || s.pp > 1))
        return rule("tp", QStringLiteral("must be 1, and pp too, when params is given directly: a bare parameter "
                                         "count has no layers or heads to split (got tp = %1, pp = %2)")
                              .arg(s.tp).arg(s.pp));
    if (m.heads % s.tp != 0)
        return rule("tp", QStringLiteral("must divide heads = %1: each tensor-parallel rank takes whole heads (got %2)")
                              .arg(m.heads).arg(s.tp));
    if (m.kvHeads % s.tp != 0)
        return rule("tp", QStringLiteral("must divide kv_heads = %1: each rank takes whole K/V heads, as "
                                         "Megatron-LM requires (got %2)")
                              .arg(m.kvHeads).arg(s.tp));
    if (s.pp > m.layers)
        return rule("pp", QStringLiteral("must be at most layers = %1: each stage needs a layer (got %2)")
                              .arg(m.layers).arg(s.pp));
    if (s.seqLen % (2 * s.cp) != 0 && s.cp > 1)
        return rule("cp", QStringLiteral("must divide seq_len = %1 into 2 x cp equal chunks, as Megatron-LM's "
                                         "load-balanced causal split needs (got %2)")
                              .arg(s.seqLen).arg(s.cp));
    const std::int64_t model = s.tp * s.pp * s.cp;  // at most 1e6^3: fits int64
    if (model > s.gpus)
        return rule("gpus", QStringLiteral("must be at least tp x pp x cp = %1 (got %2)").arg(model).arg(s.gpus));
    if (s.gpus % model != 0)
        return rule("gpus", QStringLiteral("must be a multiple of tp x pp x cp = %1, so that every data-parallel "
                                           "replica is whole (got %2)")
                                .arg(model).arg(s.gpus));
    const std::int64_t dp = s.gpus / model;
    if (s.ep > 1) {
        if (!m.moe())
            return rule("ep", QStringLiteral("must be 1 for a dense model: expert parallelism splits the routed "
                                             "experts (got %1)").arg(s.ep));
        if (m.experts % s.ep != 0)
            return rule("ep", QStringLiteral("must divide experts = %1: each rank holds whole experts (got %2)")
                                  .arg(m.experts).arg(s.ep));
        if (!s.etp && (dp * s.cp) % s.ep != 0)
            return rule("ep", QStringLiteral("must divide dp x cp = %1 x %2 = %3: with expert TP equal to TP, "
                                             "expert-parallel ranks are taken from the data- and context-parallel "
                                             "ones, as in Megatron-LM (got %4; set etp to fold EP over TP too)")
                                  .arg(dp).arg(s.cp).arg(dp * s.cp).arg(s.ep));
    }
    if (s.etp && *s.etp > 1 && !m.moe())
        return rule("etp", QStringLiteral("must be 1 or unset for a dense model: expert tensor parallelism splits "
                                          "the routed experts (got %1)").arg(*s.etp));
    if (s.etp) {
        const std::int64_t folded = s.tp * dp * s.cp;  // at most 1e6^3: fits int64
        if (folded % (s.ep * *s.etp) != 0)
            return rule("etp", QStringLiteral("ep x etp = %1 x %2 = %3 must divide tp x dp x cp = %4 x %5 x %6 = %7: "
                                              "the expert layers fold their ranks over the attention's (Megatron-Core's "
                                              "MoE parallel folding)")
                                   .arg(s.ep).arg(*s.etp).arg(s.ep * *s.etp).arg(s.tp).arg(dp).arg(s.cp).arg(folded));
    }
    if (s.zeroStage < lowestZeroStage(s.offload)) {
        if (s.offload == Offload::Optimizer)
            return rule("offload", QStringLiteral("\"optimizer\" needs ZeRO stage 1, 2 or 3, which partitions the "
                                                  "optimizer state it moves to the CPU (got zero_stage 0)"));
        return rule("offload", QStringLiteral("\"params\" needs ZeRO stage 3, which fetches the parameters for each "
                                              "layer (got zero_stage %1)").arg(s.zeroStage));
    }
    const std::int64_t perStep = s.microBatch * dp;
    std::int64_t micro = 1;
    if (s.globalBatch) {
        if (*s.globalBatch % perStep != 0)
            return rule("global_batch", QStringLiteral("must be a multiple of batch x dp = %1 x %2 = %3 sequences (got %4)")
                                            .arg(s.microBatch).arg(dp).arg(perStep).arg(*s.globalBatch));
        micro = *s.globalBatch / perStep;
    }
    if (s.vpp > 1) {
        if (s.pp == 1)
            return rule("vpp", QStringLiteral("must be 1 when pp = 1: virtual stages interleave a pipeline (got %1)").arg(s.vpp));
        if (s.vpp > m.layers / s.pp)
            return rule("vpp", QStringLiteral("must be at most layers / pp = %1 / %2 = %3, so that every chunk holds "
                                              "a layer (got %4)")
                                   .arg(m.layers).arg(s.pp).arg(m.layers / s.pp).arg(s.vpp));
        if (micro % s.pp != 0)
            return rule("vpp", QStringLiteral("needs micro-batches per step (%1) to be a multiple of pp = %2 for the "
                                              "interleaved schedule (Megatron-LM): raise global_batch or set vpp = 1 (got %3)")
                                   .arg(micro).arg(s.pp).arg(s.vpp));
    }
    if (runsDualPipe(s)) {
        // deepseek-ai/DualPipe, dualpipe.py: "assert num_ranks % 2 == 0"; dualPipeTakes.
        if (s.pp % 2 != 0)
            return rule("pp_schedule", QStringLiteral("\"dualpipe\" needs an even pp: rank i holds stage i and stage "
                                                      "pp - 1 - i (got pp = %1)").arg(s.pp));
        if (s.vpp > 1)
            return rule("pp_schedule", QStringLiteral("\"dualpipe\" needs vpp = 1: each rank's two stages are its "
                                                      "chunks (got vpp = %1)").arg(s.vpp));
        if (!dualPipeTakes(s.pp, micro))
            return rule("pp_schedule", QStringLiteral("\"dualpipe\" needs an even number of micro-batches per step, at "
                                                      "least 2 x pp = %1, half entering from each end: raise "
                                                      "global_batch (got %2)")
                                           .arg(2 * s.pp).arg(micro));
    }
    return std::nullopt;
}

std::int64_t fewestLayers(const Scenario &s)
{
    return std::max<std::int64_t>(1, s.pp * s.vpp);
}

std::int64_t seqLenMultiple(const Scenario &s)
{
    return s.cp > 1 ? 2 * s.cp : 1;
}

bool microBatchFits(const Scenario &s, std::int64_t microBatch)
{
    const std::int64_t model = s.tp * s.pp * s.cp;
    if (!s.globalBatch || microBatch < 1 || model < 1 || s.gpus % model != 0)
        return true;  // no global batch to divide (or a layout refused for another reason)
    const std::int64_t perStep = microBatch * (s.gpus / model);
    if (*s.globalBatch % perStep != 0)
        return false;
    const std::int64_t micro = *s.globalBatch / perStep;
    if (runsDualPipe(s) && !dualPipeTakes(s.pp, micro))
        return false;
    return s.vpp <= 1 || micro % s.pp == 0;
}

std::vector<std::int64_t> stageLayers(std::int64_t layers, std::int64_t pp)
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(pp), layers / pp);
    const std::int64_t extra = layers % pp;  // < pp, so stages 1..extra exist
    for (std::int64_t i = 1; i <= extra; ++i)
        ++out[static_cast<std::size_t>(i)];
    return out;
}

std::vector<std::int64_t> candidateRanks(const Layout &l)
{
    if (!l.dualPipe)
        return candidateStages(l.pp);
    // Rank i holds stages i and pp - 1 - i: rank 0 the embedding and the head; the extra layers
    // of an uneven split go to stages 1, 2, ..., so rank 1 or the middle rank holds the most.
    std::vector<std::int64_t> out{0};
    for (std::int64_t rank : {std::min<std::int64_t>(1, l.pp / 2 - 1), l.pp / 2 - 1})
        if (rank != out.back())
            out.push_back(rank);
    return out;
}

std::vector<std::int64_t> rankStages(const Layout &l, std::int64_t rank)
{
    if (l.dualPipe && l.pp - 1 - rank != rank)
        return {rank, l.pp - 1 - rank};
    return {rank};
}

std::vector<std::int64_t> candidateStages(std::int64_t pp)
{
    std::vector<std::int64_t> out{0};
    for (std::int64_t stage : {std::min<std::int64_t>(1, pp - 1), pp - 1})
        if (stage != out.back())
            out.push_back(stage);
    return out;
}

double inFlightMicroBatches(const Layout &l, std::int64_t stage)
{
    if (l.dualPipe)
        return static_cast<double>(l.pp + 1) / 2;  // of each of the rank's two stages
    if (l.vpp == 1)
        return static_cast<double>(std::min(l.pp - stage, l.microBatches));
    const std::int64_t chunks = std::min((l.pp - stage - 1) * 2 + (l.vpp - 1) * l.pp + 1, l.microBatches * l.vpp);
    return static_cast<double>(chunks) / static_cast<double>(l.vpp);
}

double bubbleFraction(const Layout &l)
{
    return static_cast<double>(l.pp - 1) / (static_cast<double>(l.microBatches) * static_cast<double>(l.vpp));
}

std::vector<std::int64_t> stageDenseLayers(std::int64_t layers, std::int64_t pp, std::int64_t dense)
{
    if (dense <= 0)
        return std::vector<std::int64_t>(static_cast<std::size_t>(pp), 0);
    const std::vector<std::int64_t> perStage = stageLayers(layers, pp);
    std::vector<std::int64_t> out(perStage.size(), 0);
    std::int64_t start = 0;
    for (std::size_t i = 0; i < perStage.size(); ++i) {
        out[i] = std::clamp<std::int64_t>(dense - start, 0, perStage[i]);
        start += perStage[i];
    }
    return out;
}

} // namespace napkin
