#include "reportjson.h"

#include "baseline.h"

#include "scenariojson.h"

#include <QJsonArray>

namespace napkin {

namespace {

QJsonObject breakdownJson(const MemoryBreakdown &m)
{
    return {
        {QStringLiteral("params"), m.params},
        {QStringLiteral("grads"), m.grads},
        {QStringLiteral("optimizer_and_master_weights"), m.optimizerAndMasterWeights},
        {QStringLiteral("activations"), m.activations},
        {QStringLiteral("reserved"), m.reserved},
        {QStringLiteral("model_state"), m.modelState()},
        {QStringLiteral("total"), m.total()},
    };
}

QJsonValue integer(std::int64_t v)
{
    return static_cast<double>(v);
}

} // namespace

QJsonObject reportToJson(const Report &r)
{
    const ParamBreakdown &p = r.params;
    QJsonObject params{
        {QStringLiteral("total"), integer(p.total)},
        {QStringLiteral("embedding"), integer(p.embedding)},
        {QStringLiteral("lm_head"), integer(p.lmHead)},
        {QStringLiteral("non_embedding"), integer(p.nonEmbedding)},
        {QStringLiteral("final_norm"), integer(p.finalNorm)},
        {QStringLiteral("per_layer"), QJsonObject{{QStringLiteral("attention"), integer(p.perLayer.attention)},
                                                  {QStringLiteral("mlp"), integer(p.perLayer.mlp)},
                                                  {QStringLiteral("norms"), integer(p.perLayer.norms)},
                                                  {QStringLiteral("total"), integer(p.perLayer.total())}}},
    };

    const FlopsReport &f = r.flops;
    const ForwardMatmulFlops &fw = f.forwardPerSequence;
    QJsonObject flops{
        {QStringLiteral("training_6nd"), f.training6nd},
        {QStringLiteral("training_detailed"), f.trainingDetailed},
        {QStringLiteral("training_detailed_causal"), f.trainingDetailedCausal},
        {QStringLiteral("causal_halving"), f.causal},
        {QStringLiteral("training_hardware"), f.trainingHardware},
        {QStringLiteral("per_token_detailed"), f.perTokenDetailed},
        {QStringLiteral("per_token_6nd"), f.perToken6nd},
        {QStringLiteral("tokens_per_step"), f.tokensPerStep},
        {QStringLiteral("per_step_detailed"), f.perStepDetailed},
        {QStringLiteral("attention_share"), f.attentionShare},
        {QStringLiteral("forward_per_sequence"),
         QJsonObject{{QStringLiteral("qkv"), fw.qkv},
                     {QStringLiteral("attention_scores"), fw.attentionScores},
                     {QStringLiteral("attention_values"), fw.attentionValues},
                     {QStringLiteral("output_projection"), fw.outputProjection},
                     {QStringLiteral("mlp"), fw.mlp},
                     {QStringLiteral("lm_head"), fw.lmHead},
                     {QStringLiteral("total"), fw.total()}}},
    };

    const MemoryReport &m = r.memory;
    QJsonArray byStage;
    for (int stage = 0; stage < 4; ++stage)
        byStage.append(QJsonObject{{QStringLiteral("stage"), stage},
                                   {QStringLiteral("per_gpu"), breakdownJson(m.byZeroStage[stage])},
                                   {QStringLiteral("fits"), m.byZeroStage[stage].total() <= m.capacity}});
    QJsonObject memory{
        {QStringLiteral("recipe"), m.recipe.id},
        {QStringLiteral("bytes_per_param"), QJsonObject{{QStringLiteral("weights"), m.recipe.weightBytes},
                                                        {QStringLiteral("grads"), m.recipe.gradBytes},
                                                        {QStringLiteral("optimizer_and_master_weights"), m.recipe.optimizerBytes},
                                                        {QStringLiteral("activation_element"), m.recipe.activationBytes}}},
        {QStringLiteral("zero_stage"), m.zeroStage},
        {QStringLiteral("gpus"), integer(m.gpus)},
        {QStringLiteral("capacity"), m.capacity},
        {QStringLiteral("fits"), m.fits},
        {QStringLiteral("max_micro_batch"), m.maxMicroBatch ? integer(*m.maxMicroBatch) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("per_gpu"), breakdownJson(m.perGpu)},
        {QStringLiteral("by_zero_stage"), byStage},
        {QStringLiteral("activations_detail"), QJsonObject{{QStringLiteral("per_layer"), m.activations.perLayer},
                                                           {QStringLiteral("layers"), m.activations.layers},
                                                           {QStringLiteral("output_layer"), m.activations.outputLayer}}},
    };

    const TimeReport &t = r.time;
    QJsonObject time{
        {QStringLiteral("flops_basis"), flopsBasisName(t.basis)},
        {QStringLiteral("training_flops"), t.trainingFlops},
        {QStringLiteral("recompute_flops"), t.recomputeFlops},
        {QStringLiteral("hardware_flops"), t.hardwareFlops},
        {QStringLiteral("seconds"), t.seconds},
        {QStringLiteral("gpu_hours"), t.gpuHours},
        {QStringLiteral("gpu_years"), t.gpuYears},
        {QStringLiteral("gpus"), integer(t.gpus)},
        {QStringLiteral("utilization_basis"), utilizationBasisName(t.utilizationBasis)},
        {QStringLiteral("utilization"), t.utilizationFraction},
        {QStringLiteral("mfu"), t.mfuFraction},
        {QStringLiteral("hfu"), t.hfuFraction},
        {QStringLiteral("peak_flops_per_s"), t.peakFlopsPerS},
        {QStringLiteral("peak_dtype"), t.peakDtype},
        {QStringLiteral("cost_usd"), t.costUsd ? QJsonValue(*t.costUsd) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("price_per_gpu_hour_usd"),
         t.price.usdPerGpuHour ? QJsonValue(*t.price.usdPerGpuHour) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("price_origin"), t.price.origin == PriceOrigin::Scenario  ? QStringLiteral("scenario")
                                         : t.price.origin == PriceOrigin::Catalog ? QStringLiteral("catalog")
                                                                                  : QStringLiteral("none")},
        {QStringLiteral("price_source"), t.price.source},
        {QStringLiteral("price_date"), t.price.date},
        {QStringLiteral("energy_kwh"), t.energyKwh},
    };

    const RooflineReport &rl = r.roofline;
    QJsonArray ops;
    for (const RooflineOp &op : rl.ops)
        ops.append(QJsonObject{
            {QStringLiteral("name"), op.name},
            {QStringLiteral("phase"), phaseName(op.phase)},
            {QStringLiteral("kind"), opKindName(op.kind)},
            {QStringLiteral("count"), op.count},
            {QStringLiteral("flops"), op.flops},
            {QStringLiteral("bytes"), op.bytes},
            {QStringLiteral("intensity"), op.intensity},
            {QStringLiteral("attainable_flops_per_s"), op.attainableFlopsPerS},
            {QStringLiteral("bound"), op.computeBound ? QStringLiteral("compute") : QStringLiteral("memory")},
            {QStringLiteral("seconds"), op.seconds},
        });
    QJsonObject roofline{
        {QStringLiteral("gpu"), rl.gpuId},
        {QStringLiteral("peak_flops_per_s"), rl.peakFlopsPerS},
        {QStringLiteral("peak_dtype"), rl.peakDtype},
        {QStringLiteral("bandwidth_bytes_per_s"), rl.bandwidthBytesPerS},
        {QStringLiteral("ridge_intensity"), rl.ridgeIntensity},
        {QStringLiteral("step_seconds"), rl.stepSeconds},
        {QStringLiteral("model_flops_per_step"), rl.modelFlopsPerStep},
        {QStringLiteral("implied_mfu"), rl.impliedMfu},
        {QStringLiteral("illustrative_intensity"), r.illustrativeIntensity},
        {QStringLiteral("ops"), ops},
    };

    const ConventionsReport &c = r.conventions;
    QJsonObject conventions{
        {QStringLiteral("model_state_16_bytes_per_param"), c.modelState16},
        {QStringLiteral("model_state_18_bytes_per_param"), c.modelState18},
        {QStringLiteral("activations_no_recompute"), c.activationsNone},
        {QStringLiteral("activations_selective_recompute"), c.activationsSelective},
        {QStringLiteral("activations_full_recompute"), c.activationsFull},
        {QStringLiteral("activations_flash_attention"), c.activationsFlash},
        {QStringLiteral("activations_korthikanti"), c.activationsKorthikanti},
        {QStringLiteral("activations_pytorch"), c.activationsPyTorch},
    };

    QJsonObject out{
        {QStringLiteral("scenario"), scenarioToJson(r.scenario)},
        {QStringLiteral("conventions"), conventions},
        {QStringLiteral("params"), params},
        {QStringLiteral("flops"), flops},
        {QStringLiteral("memory"), memory},
        {QStringLiteral("time"), time},
        {QStringLiteral("roofline"), roofline},
    };
    if (const auto change = baselineChange(r)) {
        // The pinned run's headline figures and the fractional changes from them.
        const Report &b = *r.baseline;
        out.insert(QStringLiteral("baseline"),
                   QJsonObject{{QStringLiteral("memory_per_gpu_total"), b.memory.perGpu.total()},
                               {QStringLiteral("seconds"), b.time.seconds},
                               {QStringLiteral("cost_usd"), b.time.costUsd ? QJsonValue(*b.time.costUsd) : QJsonValue()},
                               {QStringLiteral("change"), QJsonObject{{QStringLiteral("memory"), change->memory},
                                                                      {QStringLiteral("time"), change->time},
                                                                      {QStringLiteral("cost"), change->cost ? QJsonValue(*change->cost) : QJsonValue()}}}});
    }
    return out;
}

} // namespace napkin
