#include "core/io/reportjson.h"

#include "core/report/baseline.h"
#include "core/report/trackrecord.h"

#include "core/io/scenariojson.h"

#include <QJsonArray>

namespace napkin {

namespace {

QJsonObject breakdownJson(const MemoryBreakdown &m)
{
    return {
        {QStringLiteral("params"), m.params},
        {QStringLiteral("grads"), m.grads},
        {QStringLiteral("optimizer_and_master_weights"), m.optimizerAndMasterWeights},
        {QStringLiteral("experts"), m.experts},
        {QStringLiteral("activations"), m.activations},
        {QStringLiteral("overheads"), m.overheads},
        {QStringLiteral("reserved"), m.reserved},
        {QStringLiteral("cpu"), m.cpu},
        {QStringLiteral("model_state"), m.modelState()},
        {QStringLiteral("total"), m.total()},
    };
}

QJsonValue integer(std::int64_t v)
{
    return static_cast<double>(v);
}

} // namespace

namespace {

QJsonObject paramsJson(const Report &r)
{
    const ParamBreakdown &p = r.params;
    QJsonObject params{
        {QStringLiteral("total"), integer(p.total)},
        {QStringLiteral("embedding"), integer(p.embedding)},
        {QStringLiteral("lm_head"), integer(p.lmHead)},
        {QStringLiteral("non_embedding"), integer(p.nonEmbedding)},
        {QStringLiteral("active"), integer(p.active)},
        {QStringLiteral("active_non_embedding"), integer(p.activeNonEmbedding)},
        {QStringLiteral("mtp"), integer(p.mtp)},
        {QStringLiteral("mtp_active"), integer(p.mtpActive)},
        {QStringLiteral("final_norm"), integer(p.finalNorm)},
        {QStringLiteral("per_layer"), QJsonObject{{QStringLiteral("attention"), integer(p.perLayer.attention)},
                                                  {QStringLiteral("mlp"), integer(p.perLayer.mlp)},
                                                  {QStringLiteral("mlp_active"), integer(p.perLayer.mlpActive)},
                                                  {QStringLiteral("router"), integer(p.perLayer.router)},
                                                  {QStringLiteral("routed_experts"), integer(p.perLayer.routedExperts)},
                                                  {QStringLiteral("norms"), integer(p.perLayer.norms)},
                                                  {QStringLiteral("total"), integer(p.perLayer.total())}}},
    };
    return params;
}

QJsonObject flopsJson(const Report &r)
{
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
        {QStringLiteral("per_token_mtp"), f.perTokenMtp},
        {QStringLiteral("training_mtp"), f.trainingMtp},
        {QStringLiteral("forward_per_sequence"),
         QJsonObject{{QStringLiteral("qkv"), fw.qkv},
                     {QStringLiteral("attention_scores"), fw.attentionScores},
                     {QStringLiteral("attention_values"), fw.attentionValues},
                     {QStringLiteral("output_projection"), fw.outputProjection},
                     {QStringLiteral("mlp"), fw.mlp},
                     {QStringLiteral("lm_head"), fw.lmHead},
                     {QStringLiteral("total"), fw.total()}}},
    };
    return flops;
}

QJsonObject memoryJson(const Report &r)
{
    const MemoryReport &m = r.memory;
    QJsonArray perStage;
    for (const StageMemory &st : m.perStage) {
        QJsonObject o = breakdownJson(st.bytes);
        o.insert(QStringLiteral("stage"), integer(st.stage));
        o.insert(QStringLiteral("layers"), integer(st.layers));
        o.insert(QStringLiteral("params_on_gpu"), st.params);
        o.insert(QStringLiteral("in_flight_micro_batches"), st.inFlightMicroBatches);
        o.insert(QStringLiteral("fits"), st.bytes.total() <= m.capacity);
        perStage.append(o);
    }
    const FrameworkOverheads &worst = m.perStage[m.worstStage].overheads;
    QJsonArray byStage;
    for (int stage = 0; stage < kZeroStages; ++stage)
        byStage.append(QJsonObject{{QStringLiteral("stage"), stage},
                                   {QStringLiteral("per_gpu"), breakdownJson(m.byZeroStage[stage])},
                                   {QStringLiteral("fits"), m.byZeroStage[stage].total() <= m.capacity}});
    QJsonObject memory{
        {QStringLiteral("recipe"), m.recipe.id},
        {QStringLiteral("compute_dtype"), m.recipe.computeDtype},
        {QStringLiteral("matmul_dtype"), m.recipe.matmulDtype()},
        {QStringLiteral("bytes_per_param"), QJsonObject{{QStringLiteral("weights"), m.recipe.weightBytes},
                                                        {QStringLiteral("grads"), m.recipe.gradBytes},
                                                        {QStringLiteral("optimizer_and_master_weights"), m.recipe.optimizerBytes},
                                                        {QStringLiteral("activation_element"), m.recipe.activationBytes}}},
        {QStringLiteral("zero"), m.zeroStage},
        {QStringLiteral("gpus"), integer(m.gpus)},
        {QStringLiteral("capacity"), m.capacity},
        {QStringLiteral("fits"), m.fits},
        {QStringLiteral("offload"), offloadName(r.scenario.offload)},
        {QStringLiteral("cpu_per_node"), m.cpuPerNode},
        {QStringLiteral("max_micro_batch"), m.maxMicroBatch ? integer(*m.maxMicroBatch) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("per_gpu"), breakdownJson(m.perGpu)},
        {QStringLiteral("by_zero_stage"), byStage},
        {QStringLiteral("worst_stage"), integer(m.worstStage)},
        {QStringLiteral("per_stage"), perStage},
        {QStringLiteral("overheads"), QJsonObject{{QStringLiteral("zero3_gathered_layer"), worst.zero3Gathered},
                                                  {QStringLiteral("zero3_prefetch"), worst.zero3Prefetch},
                                                  {QStringLiteral("allocator_margin"), worst.allocatorMargin},
                                                  {QStringLiteral("cuda_context"), m.perGpu.reserved},
                                                  {QStringLiteral("total"), worst.total() + m.perGpu.reserved}}},
        {QStringLiteral("activations_detail"), QJsonObject{{QStringLiteral("per_layer"), m.activations.perLayer},
                                                           {QStringLiteral("layers"), m.activations.layers},
                                                           {QStringLiteral("output_layer"), m.activations.outputLayer},
                                                           {QStringLiteral("embedding"), m.activations.embedding},
                                                           {QStringLiteral("head"), m.activations.head}}},
    };
    return memory;
}

QJsonObject trackRecordJson(const TrackRecord &t)
{
    return {{QStringLiteral("kind"), t.kind},
            {QStringLiteral("gpus"), t.gpus},
            {QStringLiteral("runs"), t.runs},
            {QStringLiteral("mean_error"), t.meanError},
            {QStringLiteral("mean_abs_error"), t.meanAbsError},
            {QStringLiteral("lowest_error"), t.lowest},
            {QStringLiteral("highest_error"), t.highest},
            {QStringLiteral("source"), QStringLiteral("tests/tst_measuredtraining.cpp")}};
}

QJsonObject timeJson(const Report &r)
{
    const TimeReport &t = r.time;
    QJsonObject time{
        {QStringLiteral("flops_basis"), flopsBasisName(t.basis)},
        {QStringLiteral("training_flops"), t.trainingFlops},
        {QStringLiteral("recompute_flops"), t.recomputeFlops},
        {QStringLiteral("hardware_flops"), t.hardwareFlops},
        {QStringLiteral("seconds"), t.seconds},
        {QStringLiteral("time_basis"), timeBasisName(t.timeBasis)},
        {QStringLiteral("seconds_mfu_basis"), t.secondsUtilization},
        {QStringLiteral("seconds_estimated_basis"), t.secondsEstimated},
        {QStringLiteral("steps"), t.steps},
        {QStringLiteral("step_seconds"), r.step.stepSeconds},
        // The estimated step runs at the scenario's calibration when it has one (napkin calibrate).
        {QStringLiteral("calibrated"), r.scenario.calibration.has_value()},
        {QStringLiteral("calibration"),
         r.scenario.calibration ? QJsonValue(QJsonObject{{QStringLiteral("compute"), r.scenario.calibration->compute},
                                                         {QStringLiteral("memory"), r.scenario.calibration->memory},
                                                         {QStringLiteral("comm"), r.scenario.calibration->comm},
                                                         {QStringLiteral("runs"), integer(r.scenario.calibration->runs.size())},
                                                         {QStringLiteral("date"), r.scenario.calibration->date}})
                                : QJsonValue(QJsonValue::Null)},
        // How far the uncalibrated estimate has been from published measured runs of this kind
        // of model (core/report/trackrecord.h): errors are estimated / measured - 1.
        {QStringLiteral("track_record"), trackRecordJson(trackRecordFor(r.scenario))},
        {QStringLiteral("estimated_mfu"), r.step.estimatedMfu},
        {QStringLiteral("estimated_hfu"), r.step.estimatedHfu},
        {QStringLiteral("bubble_fraction"), r.step.bubbleFraction},
        {QStringLiteral("comm_exposed_seconds"), r.step.commExposedSeconds()},
        {QStringLiteral("tokens_per_s_per_gpu"), r.step.tokensPerSecondPerGpu},
        {QStringLiteral("step_breakdown"), QJsonObject{{QStringLiteral("slowest_stage"), integer(r.step.stage)},
                                                       {QStringLiteral("compute_matmul"), r.step.computeMatmul},
                                                       {QStringLiteral("compute_attention"), r.step.computeAttention},
                                                       {QStringLiteral("compute_other"), r.step.computeOther},
                                                       {QStringLiteral("compute_kernel_fixed"), r.step.computeFixed},
                                                       {QStringLiteral("tp_exposed"), r.step.tpExposed},
                                                       {QStringLiteral("cp_exposed"), r.step.cpExposed},
                                                       {QStringLiteral("pp_exposed"), r.step.ppExposed},
                                                       {QStringLiteral("ep_exposed"), r.step.epExposed},
                                                       {QStringLiteral("dp_exposed"), r.step.dpExposed},
                                                       {QStringLiteral("host_exposed"), r.step.hostExposed},
                                                       {QStringLiteral("overlap_contention"), r.step.overlapContention},
                                                       {QStringLiteral("bubble"), r.step.bubble},
                                                       {QStringLiteral("optimizer"), r.step.optimizer}}},
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
    return time;
}

QJsonArray commOpsJson(const Report &r)
{
    QJsonArray commOps;
    for (const CommOp &op : r.step.comm)
        commOps.append(QJsonObject{{QStringLiteral("name"), op.name},
                                   {QStringLiteral("group"), commGroupName(op.group)},
                                   {QStringLiteral("collective"), collectiveName(op.collective)},
                                   {QStringLiteral("group_size"), integer(op.groupSize)},
                                   {QStringLiteral("tensor_bytes"), op.tensorBytes},
                                   {QStringLiteral("count"), op.count},
                                   {QStringLiteral("bytes"), op.bytes},
                                   {QStringLiteral("link"), op.linkId},
                                   {QStringLiteral("seconds"), op.seconds},
                                   {QStringLiteral("exposed_seconds"), op.exposedSeconds}});
    return commOps;
}

QJsonObject layoutJson(const Report &r)
{
    const Layout &l = r.layout;
    QJsonObject layout{
        {QStringLiteral("tp"), integer(l.tp)},
        {QStringLiteral("pp"), integer(l.pp)},
        {QStringLiteral("vpp"), integer(l.vpp)},
        {QStringLiteral("cp"), integer(l.cp)},
        {QStringLiteral("dp"), integer(l.dp)},
        {QStringLiteral("ep"), integer(l.ep)},
        {QStringLiteral("etp"), integer(l.etp)},
        {QStringLiteral("sp"), l.sp},
        {QStringLiteral("batch"), integer(l.microBatch)},
        {QStringLiteral("global_batch"), integer(l.globalBatch)},
        {QStringLiteral("micro_batches"), integer(l.microBatches)},
        {QStringLiteral("grad_accum"), integer(l.microBatches)},
        {QStringLiteral("gpus_per_node"), integer(l.gpusPerNode)},
        {QStringLiteral("scale_up"), r.scaleUp.id},
        {QStringLiteral("scale_out"), r.scaleOut.id},
    };
    return layout;
}

QJsonObject rooflineJson(const Report &r)
{
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
        {QStringLiteral("gemm_peak_flops_per_s"), rl.gemmPeakFlopsPerS},
        {QStringLiteral("gemm_peak_dtype"), rl.gemmPeakDtype},
        {QStringLiteral("gemm_ridge_intensity"), rl.gemmRidgeIntensity},
        {QStringLiteral("stage"), integer(rl.stage)},
        {QStringLiteral("step_seconds"), rl.stepSeconds},
        {QStringLiteral("model_flops_per_step"), rl.modelFlopsPerStep},
        {QStringLiteral("implied_mfu"), rl.impliedMfu},
        {QStringLiteral("illustrative_intensity"), r.illustrativeIntensity},
        {QStringLiteral("ops"), ops},
    };
    return roofline;
}

QJsonObject conventionsJson(const Report &r)
{
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
    return conventions;
}

QJsonObject suggestionJson(const Report &r, const FitSuggestion &f)
{
    QJsonObject o = f.layout ? plannedLayoutJson(*f.layout) : QJsonObject();
    o.insert(QStringLiteral("fits"), f.layout.has_value());
    if (f.layout)
        o.insert(QStringLiteral("flash"), r.scenario.flashAttention);
    o.insert(QStringLiteral("single_change"),
             f.lightest ? QJsonValue(QJsonObject{{QStringLiteral("change"), f.lightest->what},
                                                 {QStringLiteral("worst_stage_bytes"), f.lightest->worstStageBytes},
                                                 {QStringLiteral("step_seconds"), f.lightest->stepSeconds}})
                        : QJsonValue());
    return o;
}

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

/// Serving's figures (mode inference): bytes, seconds, tokens.
QJsonObject inferenceJson(const InferenceReport &in)
{
    QJsonArray curve;
    for (const ServingPoint &p : in.curve)
        curve.append(QJsonObject{{QStringLiteral("concurrency"), integer(p.concurrency)},
                                 {QStringLiteral("ttft_seconds"), p.ttftSeconds},
                                 {QStringLiteral("tpot_seconds"), p.tpotSeconds},
                                 {QStringLiteral("e2e_seconds"), p.e2eSeconds},
                                 {QStringLiteral("output_tokens_per_s"), p.outputTokensPerS}});
    return {
        {QStringLiteral("replica_gpus"), in.replicaGpus},
        {QStringLiteral("replicas"), in.replicas},
        {QStringLiteral("gemm_dtype"), in.gemmDtype},
        {QStringLiteral("kv_cache_bytes_per_token"), in.kvBytesPerToken},
        {QStringLiteral("kv_cache_bytes_per_sequence"), in.kvBytesPerSequence},
        {QStringLiteral("kv_cache_bytes_per_token_per_gpu"), in.kvBytesPerTokenPerGpu},
        {QStringLiteral("kv_block_bytes"), in.kvBlockBytes},
        {QStringLiteral("kv_pool_bytes"), in.memory.kvPool},
        {QStringLiteral("kv_capacity_tokens"), in.kvCapacityTokens},
        {QStringLiteral("kv_blocks"), in.kvBlocks},
        {QStringLiteral("max_concurrency"), integer(in.maxConcurrency)},
        {QStringLiteral("kv_max_concurrency"), integer(in.kvMaxConcurrency)},
        {QStringLiteral("concurrency"), integer(in.concurrency)},
        {QStringLiteral("prefill_seconds"), in.prefillSeconds},
        {QStringLiteral("decode_step_seconds"), in.decodeStepSeconds},
        {QStringLiteral("decode_comm_seconds"), in.decodeCommSeconds},
        {QStringLiteral("ttft_seconds"), in.ttftSeconds},
        {QStringLiteral("tpot_seconds"), in.tpotSeconds},
        {QStringLiteral("e2e_seconds"), in.e2eSeconds},
        {QStringLiteral("output_tokens_per_s"), in.outputTokensPerS},
        {QStringLiteral("output_tokens_per_s_per_gpu"), in.outputTokensPerSPerGpu},
        {QStringLiteral("input_tokens_per_s"), in.inputTokensPerS},
        {QStringLiteral("prefill_share"), in.prefillShare},
        {QStringLiteral("cost_per_million_output_tokens_usd"), optionalNumber(in.costPerMillionOutputTokensUsd)},
        {QStringLiteral("cost_per_million_input_tokens_usd"), optionalNumber(in.costPerMillionInputTokensUsd)},
        {QStringLiteral("energy_per_million_output_tokens_joules"), in.energyPerMillionOutputTokensJoules},
        {QStringLiteral("decode_gemms_compute_bound_from"), in.decodeGemmsComputeBoundFrom},
        {QStringLiteral("curve"), curve},
    };
}

QJsonObject servingMemoryJson(const ServingMemory &m)
{
    return {
        {QStringLiteral("weights"), m.weights},
        {QStringLiteral("kv_cache"), m.kvInUse},
        {QStringLiteral("kv_free"), m.kvFree()},
        {QStringLiteral("kv_pool"), m.kvPool},
        {QStringLiteral("activations"), m.activations},
        {QStringLiteral("reserved"), m.reserved},
        {QStringLiteral("comm_buffers"), m.commBuffers},
        {QStringLiteral("usable"), m.usable},
        {QStringLiteral("total"), m.total()},
    };
}

} // namespace

QJsonObject plannedLayoutJson(const PlannedLayout &p)
{
    return {{QStringLiteral("tp"), integer(p.tp)},   {QStringLiteral("pp"), integer(p.pp)},
            {QStringLiteral("vpp"), integer(p.vpp)}, {QStringLiteral("cp"), integer(p.cp)},
            {QStringLiteral("ep"), integer(p.ep)},   {QStringLiteral("etp"), integer(p.etp)},
            {QStringLiteral("dp"), integer(p.dp)},
            {QStringLiteral("zero_stage"), p.zeroStage}, {QStringLiteral("micro_batch"), integer(p.microBatch)},
            {QStringLiteral("recompute"), enumName(kRecomputeNames, static_cast<int>(p.recompute))},
            {QStringLiteral("worst_stage_bytes"), p.worstStageBytes}, {QStringLiteral("step_seconds"), p.stepSeconds}};
}

QJsonObject reportToJson(const Report &r, const std::optional<FitSuggestion> &suggestion)
{
    QJsonObject memory = memoryJson(r);
    memory.insert(QStringLiteral("suggestion"), suggestion ? QJsonValue(suggestionJson(r, *suggestion)) : QJsonValue());
    if (r.inference) {
        // Serving: the GPU's memory as the engine splits it, which fits (computeReport refuses a
        // pool with no room); the training breakdowns stay under their own keys.
        memory.insert(QStringLiteral("per_gpu"), servingMemoryJson(r.inference->memory));
        memory.insert(QStringLiteral("fits"), true);
    }
    QJsonObject out{
        {QStringLiteral("scenario"), scenarioToJson(r.scenario)},
        {QStringLiteral("conventions"), conventionsJson(r)},
        {QStringLiteral("params"), paramsJson(r)},
        {QStringLiteral("flops"), flopsJson(r)},
        {QStringLiteral("layout"), layoutJson(r)},
        {QStringLiteral("memory"), memory},
        {QStringLiteral("comm"), QJsonObject{{QStringLiteral("ops"), commOpsJson(r)}}},
        {QStringLiteral("time"), timeJson(r)},
        {QStringLiteral("roofline"), rooflineJson(r)},
    };
    out.insert(QStringLiteral("mode"), modeName(r.scenario.mode));
    if (r.inference)
        out.insert(QStringLiteral("inference"), inferenceJson(*r.inference));
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

namespace {

QJsonObject plannedJson(const PlannedLayout &p, std::int64_t globalBatch)
{
    // A start that is not a layout of these GPUs (dp 0: tp x pp x cp above the GPU count) has
    // no micro-batch count.
    const std::int64_t perStep = p.microBatch * p.dp;
    const QJsonValue micro = perStep > 0 && globalBatch % perStep == 0 ? integer(globalBatch / perStep) : QJsonValue();
    return {
        {QStringLiteral("tp"), integer(p.tp)},
        {QStringLiteral("pp"), integer(p.pp)},
        {QStringLiteral("vpp"), integer(p.vpp)},
        {QStringLiteral("cp"), integer(p.cp)},
        {QStringLiteral("dp"), integer(p.dp)},
        {QStringLiteral("ep"), integer(p.ep)},
        {QStringLiteral("sp"), p.sp},
        {QStringLiteral("micro_batches"), micro},
        {QStringLiteral("grad_accum"), micro},
        {QStringLiteral("zero"), p.zeroStage},
        {QStringLiteral("batch"), integer(p.microBatch)},
        {QStringLiteral("recompute"), recomputeName(p.recompute)},
        {QStringLiteral("fits"), p.fits},
        {QStringLiteral("worst_stage_bytes"), p.worstStageBytes},
        {QStringLiteral("step_seconds"), p.fits ? QJsonValue(p.stepSeconds) : QJsonValue()},
        {QStringLiteral("estimated_mfu"), p.fits ? QJsonValue(p.estimatedMfu) : QJsonValue()},
        {QStringLiteral("reason"), p.reason},
    };
}

} // namespace

QJsonObject planToJson(const PlanReport &plan)
{
    QJsonArray layouts;
    for (const PlannedLayout &p : plan.layouts)
        layouts.append(plannedJson(p, plan.globalBatch));
    QJsonObject current = plannedJson(plan.current, plan.globalBatch);
    current.insert(QStringLiteral("rank"), plan.currentRank ? integer(*plan.currentRank) : QJsonValue());
    current.insert(QStringLiteral("problem"), plan.currentProblem ? QJsonValue(plan.currentProblem->message()) : QJsonValue());
    return {
        {QStringLiteral("layouts"), layouts},
        {QStringLiteral("global_batch"), integer(plan.globalBatch)},
        {QStringLiteral("evaluated"), integer(plan.evaluated)},
        {QStringLiteral("fitting"), integer(plan.fitting)},
        {QStringLiteral("current"), current},
    };
}

} // namespace napkin
