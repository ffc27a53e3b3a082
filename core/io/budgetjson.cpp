#include "core/io/budgetjson.h"

#include "core/io/reportjson.h"

#include <QJsonArray>

namespace napkin {

namespace {

QJsonValue integer(std::int64_t v)
{
    return static_cast<double>(v);
}

QJsonObject allocationJson(const Allocation &a)
{
    return {{QStringLiteral("params"), a.params}, {QStringLiteral("tokens"), a.tokens},
            {QStringLiteral("tokens_per_param"), a.tokensPerParam()}};
}

} // namespace

QJsonObject budgetToJson(const BudgetReport &b)
{
    const ModelShape &m = b.shape;
    const QJsonObject shape{{QStringLiteral("arch"), archName(m.arch)},
                            {QStringLiteral("layers"), integer(m.layers)}, {QStringLiteral("d_model"), integer(m.dModel)},
                            {QStringLiteral("heads"), integer(m.heads)}, {QStringLiteral("kv_heads"), integer(m.kvHeads)},
                            {QStringLiteral("d_ff"), integer(m.dFf)}, {QStringLiteral("vocab"), integer(m.vocab)},
                            {QStringLiteral("params"), integer(b.shapeParams)}};
    QJsonArray laws;
    for (const LawOptimum &o : b.laws) {
        QJsonObject law = allocationJson(o.optimal);
        law.insert(QStringLiteral("law"), QLatin1String(scalingLawInfo(o.law).id));
        law.insert(QStringLiteral("predicted_loss"), o.loss);
        laws.append(law);
    }
    QJsonObject run{{QStringLiteral("gpus"), integer(b.run.gpus)}, {QStringLiteral("gpu"), b.run.gpuId},
                    {QStringLiteral("tokens"), b.run.tokens}, {QStringLiteral("fits"), b.fits},
                    {QStringLiteral("seconds"), b.seconds}, {QStringLiteral("gpu_hours"), b.gpuHours},
                    {QStringLiteral("cost_usd"), b.costUsd ? QJsonValue(*b.costUsd) : QJsonValue()},
                    {QStringLiteral("layout"), b.layout ? QJsonValue(plannedLayoutJson(*b.layout)) : QJsonValue()}};
    if (!b.batchNote.isEmpty())
        run.insert(QStringLiteral("note"), b.batchNote);
    QJsonObject budget{
        {QStringLiteral("flops"), b.flops},
        {QStringLiteral("unit"), QLatin1String(budgetUnitKey(b.request.unit))},
        {QStringLiteral("amount"), b.request.amount},
        {QStringLiteral("flops_per_gpu_second"), b.flopsPerGpuSecond},
        {QStringLiteral("law"), QLatin1String(scalingLawInfo(b.request.law).id)},
        {QStringLiteral("optimal_params"), b.optimal.params},
        {QStringLiteral("optimal_tokens"), b.optimal.tokens},
        {QStringLiteral("tokens_per_param"), b.optimal.tokensPerParam()},
        {QStringLiteral("predicted_loss"), b.predictedLoss},
        {QStringLiteral("inference_tokens"), b.request.inferenceTokens},
        {QStringLiteral("total_flops"), b.totalFlopsOptimal},
        {QStringLiteral("inference_aware"), b.inferenceAware ? QJsonValue(allocationJson(*b.inferenceAware)) : QJsonValue()},
        {QStringLiteral("inference_aware_total_flops"), b.inferenceAware ? QJsonValue(b.totalFlopsInferenceAware) : QJsonValue()},
        {QStringLiteral("laws"), laws},
        {QStringLiteral("shape"), shape},
        {QStringLiteral("run"), run},
    };
    return {{QStringLiteral("budget"), budget}};
}

} // namespace napkin
