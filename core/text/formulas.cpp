#include "core/text/formulas.h"

#include "core/run/kvcache.h"
#include "core/text/explain.h"
#include "core/text/layouttext.h"

#include <QCoreApplication>

#include <array>
#include <iterator>

namespace napkin {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::Formulas", text);
}

QString paramsText(const Report &r)
{
    const ParamBreakdown &p = r.params;
    if (r.scenario.paramsOverride)
        return tr("N = %1 parameters, given directly (the source document's N): 6ND and model state use it; "
                  "layers and width set only activations and attention FLOPs")
            .arg(fmt::count(p.total));
    return tr("N = L × per layer + embeddings + LM head + final norm = %1 × %2 + %3 + %4 + %5 = %6 parameters\n"
              "Counted matrix by matrix as the reference implementation lays them out; non-embedding N = %7 "
              "(Kaplan et al. 2020)%8")
        .arg(r.scenario.model.layers)
        .arg(fmt::count(p.perLayer.total()), fmt::count(p.embedding), fmt::count(p.lmHead), fmt::count(p.finalNorm),
             fmt::count(p.total), fmt::count(p.nonEmbedding),
             p.active != p.total ? tr("; a token runs through %1 of them, %2 non-embedding (the router, its top-k "
                                      "experts and the shared ones), which is what 6ND uses")
                                       .arg(fmt::count(p.active), fmt::count(p.activeNonEmbedding))
                                 : tr(" is what 6ND uses"))
           + (p.mtp > 0 ? tr("\nMulti-token prediction: %1 more parameters in %2 module(s), counted apart (DeepSeek-V3's "
                              "671B + MTP), %3 FLOPs per token; not in the time, memory or FLOPs above")
                              .arg(fmt::count(p.mtp))
                              .arg(r.scenario.model.mtpDepth)
                              .arg(fmt::sci(r.flops.perTokenMtp))
                        : QString());
}

QString flopsText(const Report &r)
{
    const QString n = fmt::compactCount(static_cast<double>(r.params.activeNonEmbedding));
    const QString active = r.params.active != r.params.total
                               ? tr(", N the non-embedding parameters a token runs through (router, top-k and shared "
                                    "experts)")
                               : QString();
    return tr("Training FLOPs ≈ 6 N D = 6 × %1 × %2 = %3 (Kaplan et al. 2020: 2N forward + 4N backward per token%6)\n"
              "Detailed: every forward matmul (m×k)(k×n) = 2mkn, × 3 for forward and backward = %4 "
              "(attention %5 of it)")
        .arg(n, fmt::compactCount(r.scenario.tokens), fmt::sci(r.flops.training6nd),
             fmt::sci(r.flops.trainingChosenDetailed()), fmt::percent(r.flops.attentionShare, 0), active);
}

QString modelStateText(const Report &r, ByteUnit unit)
{
    const Recipe &recipe = r.memory.recipe;
    const MemoryBreakdown &m = r.memory.perGpu;
    const double state = m.modelState();
    const double perParam = recipe.weightBytes + recipe.gradBytes + recipe.optimizerBytes;
    const std::array<QString, kZeroStages> sharded = {tr("nothing sharded"), tr("optimizer state ÷ %1 DP ranks"),
                                            tr("optimizer state and gradients ÷ %1 DP ranks"),
                                            tr("optimizer state, gradients and parameters ÷ %1 DP ranks")};
    // With TP or PP, N is the parameters on one GPU of the worst stage; ZeRO shards over DP x CP.
    const Layout &l = r.memory.layout;
    const bool split = l.tp > 1 || l.pp > 1;
    const double n = split ? r.memory.perStage[r.memory.worstStage].params : static_cast<double>(r.params.total);
    const QString who = split ? tr("N on this GPU (%1 of %2, tp %3)").arg(pipelineRankText(l, r.memory.worstStage)).arg(l.pp).arg(l.tp)
                              : QStringLiteral("N");
    return tr("Model state per GPU = %12 × (params %1 B + grads %2 B + optimizer and master %3 B) = %4 × %5 B, "
              "ZeRO %6: %7 → %8\nparams %9 + grads %10 + optimizer %11 (Rajbhandari et al. 2019, Figure 1)")
        .arg(QString::number(recipe.weightBytes), QString::number(recipe.gradBytes),
             QString::number(recipe.optimizerBytes), fmt::compactCount(n), QString::number(perParam))
        .arg(r.memory.zeroStage)
        .arg(r.memory.zeroStage <= 0 ? sharded[0]
                                        : sharded[static_cast<std::size_t>(std::min(r.memory.zeroStage, kZeroStages - 1))].arg(l.shardGroup()),
             fmt::bytes(state, unit), fmt::bytes(m.params, unit), fmt::bytes(m.grads, unit),
             fmt::bytes(m.optimizerAndMasterWeights, unit), who)
           + (m.experts > 0 ? tr(" + routed experts %1 (their state ÷ %2 DP × CP / EP ranks under ZeRO)")
                                  .arg(fmt::bytes(m.experts, unit)).arg(l.expertShardGroup())
                            : QString());
}

QString activationsText(const Report &r, ByteUnit unit)
{
    // The memory chart's explanation of the same segment: its first two lines are the total
    // and the formula.
    const QStringList lines = memorySegmentText(r, r.memory.zeroStage, MemoryComponent::Activations, unit)
                                  .split(QLatin1Char('\n'));
    return lines.mid(0, 2).join(QLatin1Char('\n'));
}

QString timeText(const Report &r)
{
    const TimeReport &t = r.time;
    if (t.timeBasis == TimeBasis::Estimated) {
        const StepTimeReport &st = r.step;
        return tr("Wall clock = steps × estimated step = %1 × %2 = %3; step = compute %4 + exposed communication %5 "
                  "+ bubble %6 + optimizer %7\nBottom-up from the workload at the GPU's efficiencies; estimated MFU "
                  "%8, HFU %9 (at the set utilisation it would take %10)")
            .arg(fmt::number(t.steps), fmt::duration(st.stepSeconds), fmt::duration(t.seconds),
                 fmt::duration(st.computeMatmul + st.computeAttention + st.computeOther),
                 fmt::duration(st.commExposedSeconds()), fmt::duration(st.bubble), fmt::duration(st.optimizer),
                 fmt::percent(st.estimatedMfu, 1), fmt::percent(st.estimatedHfu, 1))
            .arg(fmt::duration(t.secondsUtilization));
    }
    const bool hfu = t.utilizationBasis == UtilizationBasis::Hfu;
    const QString basis = utilizationBasisName(t.utilizationBasis).toUpper();
    return tr("Wall clock = %1 FLOPs / (GPUs × peak × %2) = %3 / (%4 × %5 %6 × %7) = %8\n"
              "Narayanan et al. 2021, eq. 4; %9 · implied MFU %10, HFU %11 (Chowdhery et al. 2022, App. B)")
        .arg(hfu ? tr("hardware") : tr("model"), basis, fmt::sci(hfu ? t.hardwareFlops : t.trainingFlops))
        .arg(t.gpus)
        .arg(fmt::flopRate(t.peakFlopsPerS), t.peakDtype, fmt::percent(t.utilizationFraction, 0), fmt::duration(t.seconds),
             hfu ? tr("hardware FLOPs count the forward work recomputation repeats")
                 : tr("model FLOPs leave recomputation out, so it costs no time"),
             fmt::percent(t.mfuFraction, 1), fmt::percent(t.hfuFraction, 1));
}

QString costText(const Report &r)
{
    const TimeReport &t = r.time;
    const QString cost = t.costUsd
        ? tr("Cost = GPU-hours × price = %1 × %2 = %3 (price: %4)")
              .arg(fmt::number(t.gpuHours), fmt::usd(*t.price.usdPerGpuHour), fmt::usd(*t.costUsd),
                   priceOriginText(t.price))
        : tr("Cost: no price for %1 in the catalog; set one").arg(r.gpu.id);
    return tr("%1\nEnergy = GPUs × board power × time = %2 × %3 W × %4 = %5 (no cooling or PUE)")
        .arg(cost)
        .arg(t.gpus)
        .arg(fmt::number(r.gpu.tdpWatts), fmt::duration(t.seconds), fmt::energyKwh(t.energyKwh));
}

QString rooflineText(const Report &r)
{
    const RooflineReport &f = r.roofline;
    QString text = tr("Ridge = peak ÷ bandwidth = %1 ÷ %2 = %3 FLOPs/byte: ops left of it are memory-bound, right of it "
                      "compute-bound\nAttainable = min(peak, bandwidth × intensity) (Williams et al. 2009); one micro-batch "
                      "step at the roofline bound takes %4, an implied MFU of %5")
                       .arg(fmt::flopRate(f.peakFlopsPerS), fmt::bandwidth(f.bandwidthBytesPerS), fmt::number(f.ridgeIntensity),
                            fmt::duration(f.stepSeconds), fmt::percent(f.impliedMfu, 0));
    if (f.twoRoofs())
        text += tr("\n%1 GEMMs (the linear layers; attention stays %2): ridge = %3 ÷ %4 = %5 FLOPs/byte; MFU is "
                   "quoted against the %1 peak, the highest the step uses")
                    .arg(f.gemmPeakDtype, f.peakDtype, fmt::flopRate(f.gemmPeakFlopsPerS), fmt::bandwidth(f.bandwidthBytesPerS),
                         fmt::number(f.gemmRidgeIntensity));
    return text;
}

QString servingText(const Report &r, ByteUnit unit)
{
    if (!r.inference)
        return tr("Serving: set Mode to Inference to size serving this model on these GPUs (KV cache, time to "
                  "first token, time per output token, throughput and cost)");
    const InferenceReport &in = *r.inference;
    const Scenario &s = r.scenario;
    const ModelShape &m = s.model;
    const QString perToken = m.mla()
        ? tr("KV cache per token = L × (kv_lora_rank + qk_rope_dim) × bytes = %1 × (%2 + %3) × %4 = %5 (the latent "
             "and the RoPE key; DeepSeek-V2 §2.1.2)")
              .arg(m.layers).arg(m.kvLoraRank).arg(m.qkRopeDim).arg(fmt::number(elementBytes(s.kvDtype)))
              .arg(fmt::bytes(in.kvBytesPerToken, unit))
        : tr("KV cache per token = 2 × L × kv_heads × head_dim × bytes = 2 × %1 × %2 × %3 × %4 = %5 (K and V of "
             "every block)")
              .arg(m.layers).arg(m.kvHeads).arg(headWidth(m)).arg(fmt::number(elementBytes(s.kvDtype)))
              .arg(fmt::bytes(in.kvBytesPerToken, unit));
    return perToken
           + tr("\nKV pool per GPU = %1 × capacity − weights − activations − reserved = %2 → %3 blocks of %4 "
                "tokens = %5 tokens per replica, %6 sequences of %7 tokens (vLLM's arithmetic)")
                 .arg(fmt::percent(s.gpuMemoryUtilization, 0), fmt::bytes(in.memory.kvPool, unit),
                      fmt::count(static_cast<std::int64_t>(in.kvBlocks)))
                 .arg(s.kvBlockTokens)
                 .arg(fmt::count(static_cast<std::int64_t>(in.kvCapacityTokens)), fmt::count(in.maxConcurrency))
                 .arg(s.promptTokens + s.outputTokens)
           + tr("\nTime per output token = decode step + the batch's prefills per token = %1 + %2 = %3; decode "
                "reads every weight once per step, so %4 sequences share it (GEMMs compute-bound from ≈ %5)")
                 .arg(fmt::duration(in.decodeStepSeconds), fmt::duration(in.tpotSeconds - in.decodeStepSeconds),
                      fmt::duration(in.tpotSeconds), fmt::count(in.concurrency),
                      in.decodeGemmsComputeBoundFrom <= 0 ? tr("never")
                      : in.decodeGemmsComputeBoundFrom > static_cast<double>(in.maxConcurrency)
                          ? (in.maxConcurrency < in.kvMaxConcurrency ? tr("%1, past the %2 max_num_seqs runs")
                                                                     : tr("%1, past the %2 the KV cache holds"))
                                .arg(fmt::count(static_cast<std::int64_t>(in.decodeGemmsComputeBoundFrom)), fmt::count(in.maxConcurrency))
                          : fmt::count(static_cast<std::int64_t>(in.decodeGemmsComputeBoundFrom)));
}

} // namespace

FormulaTopic topicOfChange(const Scenario &before, const Scenario &after, FormulaTopic current)
{
    // The order a step that changes several topics is named by: the shape leads (a preset also
    // moves the run's fields), the price follows everything.
    constexpr FormulaTopic order[] = {FormulaTopic::Params,   FormulaTopic::Flops,    FormulaTopic::Activations,
                                      FormulaTopic::ModelState, FormulaTopic::Roofline, FormulaTopic::Time,
                                      FormulaTopic::Serving,  FormulaTopic::Cost};
    static_assert(std::size(order) == static_cast<std::size_t>(FormulaTopic::Serving) + 1, "every topic once");
    bool changed[std::size(order)] = {};
    for (const ScenarioField &f : scenarioFields())
        if (f.get(before) != f.get(after))
            changed[static_cast<std::size_t>(f.topic)] = true;
    for (FormulaTopic topic : order)
        if (changed[static_cast<std::size_t>(topic)])
            return topic;
    return current;
}

QString formulaText(const Report &r, FormulaTopic topic, ByteUnit unit)
{
    switch (topic) {
    case FormulaTopic::Params: return paramsText(r);
    case FormulaTopic::Flops: return flopsText(r);
    case FormulaTopic::ModelState: return modelStateText(r, unit);
    case FormulaTopic::Activations: return activationsText(r, unit);
    case FormulaTopic::Time: return timeText(r);
    case FormulaTopic::Cost: return costText(r);
    case FormulaTopic::Roofline: return rooflineText(r);
    case FormulaTopic::Serving: return servingText(r, unit);
    }
    return {};
}

} // namespace napkin
