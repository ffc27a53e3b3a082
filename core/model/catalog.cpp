#include "core/model/catalog.h"

#include "core/model/modelshape.h"
#include "core/model/validation.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace napkin {

namespace {

/// Reads one catalog entry's fields, each problem a Refusal naming the entry ("gpus.json
/// \"h100-sxm\"") as its field. Each read answers whether it took the value; the first
/// problem is kept and every later read is skipped, so reads chain with &&.
class EntryReader final
{
public:
    EntryReader(const QJsonObject &o, QString where) : m_o(o), m_where(std::move(where)) {}

    void setWhere(const QString &where) { m_where = where; }
    const QString &where() const { return m_where; }
    const std::optional<Refusal> &refusal() const { return m_refusal; }

    bool refuse(const QString &problem)
    {
        if (!m_refusal)
            m_refusal = Refusal{m_where, problem};
        return false;
    }
    bool positive(const QString &key, double *out)
    {
        const QJsonValue v = m_o.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() <= 0)
            return refuse(QStringLiteral("\"%1\" must be a positive number").arg(key));
        *out = v.toDouble();
        return true;
    }
    bool string(const QString &key, QString *out)
    {
        const QJsonValue v = m_o.value(key);
        if (!v.isString() || v.toString().isEmpty())
            return refuse(QStringLiteral("\"%1\" must be a non-empty string").arg(key));
        *out = v.toString();
        return true;
    }
    bool integer(const QString &key, std::int64_t *out)
    {
        const QJsonValue v = m_o.value(key);
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 1 || d > 9e15 || std::floor(d) != d)
            return refuse(QStringLiteral("\"%1\" must be a positive integer").arg(key));
        *out = static_cast<std::int64_t>(d);
        return true;
    }
    /// An optional whole number from lo up (absent: `out` keeps its default).
    bool optionalInteger(const QString &key, std::int64_t lo, std::int64_t *out)
    {
        if (!m_o.contains(key))
            return true;
        const QJsonValue v = m_o.value(key);
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < static_cast<double>(lo) || d > 9e15 || std::floor(d) != d)
            return refuse(QStringLiteral("\"%1\" must be an integer of at least %2").arg(key).arg(lo));
        *out = static_cast<std::int64_t>(d);
        return true;
    }
    bool optionalBool(const QString &key, bool *out)
    {
        if (!m_o.contains(key))
            return true;
        if (!m_o.value(key).isBool())
            return refuse(QStringLiteral("\"%1\" must be true or false").arg(key));
        *out = m_o.value(key).toBool();
        return true;
    }

private:
    const QJsonObject &m_o;
    QString m_where;
    std::optional<Refusal> m_refusal;
};

std::optional<Refusal> parseGpu(const QJsonObject &o, int index, GpuSpec *g)
{
    EntryReader r(o, QStringLiteral("gpus.json entry %1").arg(index));
    if (!r.string(QStringLiteral("id"), &g->id))
        return r.refusal();
    r.setWhere(QStringLiteral("gpus.json \"%1\"").arg(g->id));
    if (!r.string(QStringLiteral("name"), &g->name)
        || !r.string(QStringLiteral("short_name"), &g->shortName)
        || !r.string(QStringLiteral("vendor"), &g->vendor)
        || !r.string(QStringLiteral("source"), &g->source)
        || !r.positive(QStringLiteral("memory_bandwidth_bytes_per_s"), &g->memoryBandwidthBytesPerS)
        || !r.positive(QStringLiteral("memory_bytes"), &g->memoryBytes)
        || !r.positive(QStringLiteral("tdp_watts"), &g->tdpWatts))
        return r.refusal();
    g->notes = o.value(QStringLiteral("notes")).toString();
    const QJsonObject peaks = o.value(QStringLiteral("peak_flops_per_s")).toObject();
    for (auto it = peaks.begin(); it != peaks.end(); ++it) {
        double value = 0;
        EntryReader peak(peaks, r.where() + QStringLiteral(" peak_flops_per_s"));
        if (!peak.positive(it.key(), &value))
            return peak.refusal();
        g->peakFlopsPerS.insert(it.key(), value);
    }
    if (!g->peakFlopsPerS.contains(QStringLiteral("bf16"))
        && !g->peakFlopsPerS.contains(QStringLiteral("fp16")))
        return Refusal{r.where(), QStringLiteral("peak_flops_per_s needs bf16 or fp16")};
    // GpuSpec::peakFor() lets bf16 and fp16 stand in for each other only because they are equal.
    const auto bf16 = g->peakFlopsPerS.constFind(QStringLiteral("bf16"));
    const auto fp16 = g->peakFlopsPerS.constFind(QStringLiteral("fp16"));
    if (bf16 != g->peakFlopsPerS.constEnd() && fp16 != g->peakFlopsPerS.constEnd() && *bf16 != *fp16)
        return Refusal{r.where(), QStringLiteral("peak_flops_per_s bf16 and fp16 must be equal when both are given")};
    if (o.contains(QStringLiteral("price_per_gpu_hour_usd"))) {
        double price = 0;
        if (!r.positive(QStringLiteral("price_per_gpu_hour_usd"), &price)
            || !r.string(QStringLiteral("price_source"), &g->priceSource)
            || !r.string(QStringLiteral("price_date"), &g->priceDate))
            return r.refusal();
        g->pricePerGpuHourUsd = price;
    } else if (o.contains(QStringLiteral("price_source")) || o.contains(QStringLiteral("price_date"))) {
        return Refusal{r.where(), QStringLiteral("price_source and price_date need price_per_gpu_hour_usd")};
    }
    // Links and efficiencies are checked against the interconnect catalog in parseCatalog().
    if (!r.string(QStringLiteral("scale_up"), &g->scaleUpId)
        || !r.string(QStringLiteral("scale_out"), &g->scaleOutId)
        || !r.integer(QStringLiteral("gpus_per_node"), &g->gpusPerNode)
        || !r.string(QStringLiteral("host_link"), &g->hostLinkId)
        || !r.string(QStringLiteral("links_source"), &g->linksSource)
        || !r.positive(QStringLiteral("efficiency_matmul"), &g->efficiencyMatmul)
        || !r.positive(QStringLiteral("efficiency_memory"), &g->efficiencyMemory)
        || !r.string(QStringLiteral("efficiency_source"), &g->efficiencySource))
        return r.refusal();
    if (g->efficiencyMatmul > 1 || g->efficiencyMemory > 1)
        return Refusal{r.where(), QStringLiteral("efficiencies must be at most 1")};
    if (o.contains(QStringLiteral("efficiency_matmul_fp8")) || o.contains(QStringLiteral("efficiency_matmul_fp8_source"))) {
        double fp8 = 0;
        if (!r.positive(QStringLiteral("efficiency_matmul_fp8"), &fp8)
            || !r.string(QStringLiteral("efficiency_matmul_fp8_source"), &g->efficiencyMatmulFp8Source))
            return r.refusal();
        if (fp8 > 1)
            return Refusal{r.where(), QStringLiteral("efficiencies must be at most 1")};
        if (!g->peakFor(QStringLiteral("fp8")))
            return Refusal{r.where(), QStringLiteral("efficiency_matmul_fp8 needs an fp8 peak")};
        g->efficiencyMatmulFp8 = fp8;
    }
    if (o.contains(QStringLiteral("efficiency_attention_forward"))) {
        double forward = 0, backward = 0;
        if (!r.positive(QStringLiteral("efficiency_attention_forward"), &forward)
            || !r.positive(QStringLiteral("efficiency_attention_backward"), &backward)
            || !r.string(QStringLiteral("efficiency_attention_source"), &g->efficiencyAttentionSource))
            return r.refusal();
        if (forward > 1 || backward > 1)
            return Refusal{r.where(), QStringLiteral("efficiencies must be at most 1")};
        g->efficiencyAttentionForward = forward;
        g->efficiencyAttentionBackward = backward;
        if (o.contains(QStringLiteral("efficiency_attention_causal_forward"))
            || o.contains(QStringLiteral("efficiency_attention_causal_backward"))) {
            if (!r.positive(QStringLiteral("efficiency_attention_causal_forward"), &forward)
                || !r.positive(QStringLiteral("efficiency_attention_causal_backward"), &backward))
                return r.refusal();
            if (forward > 1 || backward > 1)
                return Refusal{r.where(), QStringLiteral("efficiencies must be at most 1")};
            g->efficiencyAttentionCausalForward = forward;
            g->efficiencyAttentionCausalBackward = backward;
        }
    } else if (o.contains(QStringLiteral("efficiency_attention_backward"))
               || o.contains(QStringLiteral("efficiency_attention_source"))
               || o.contains(QStringLiteral("efficiency_attention_causal_forward"))
               || o.contains(QStringLiteral("efficiency_attention_causal_backward"))) {
        return Refusal{r.where(), QStringLiteral("the other attention efficiencies and their source need efficiency_attention_forward")};
    }
    if (o.contains(QStringLiteral("efficiency_attention_table"))) {
        if (!g->efficiencyAttentionForward || !g->efficiencyAttentionCausalForward)
            return Refusal{r.where(), QStringLiteral("efficiency_attention_table needs the attention efficiencies, causal too")};
        auto table = parseAttentionTable(o.value(QStringLiteral("efficiency_attention_table")).toObject(), r.where());
        if (!table.ok())
            return table.refusal();
        // Its reference point must be the scalar figures: one measurement, stated once.
        const double peak = g->peakFor(QStringLiteral("bf16")).value_or(0);
        const auto agrees = [&](const QList<QList<double>> &grid, double efficiency) {
            const qsizetype h = table->headDims.indexOf(AttentionTable::kReferenceHeadDim);
            const qsizetype l = table->seqLens.indexOf(AttentionTable::kReferenceSeqLen);
            return h >= 0 && l >= 0 && std::abs(grid[h][l] / peak - efficiency) <= 0.005;
        };
        if (!agrees(table->forward, *g->efficiencyAttentionForward) || !agrees(table->backward, *g->efficiencyAttentionBackward)
            || !agrees(table->forwardCausal, *g->efficiencyAttentionCausalForward))
            return Refusal{r.where(), QStringLiteral("efficiency_attention_table at head dim 128 and 8192 tokens must "
                                                     "be the efficiency_attention_* figures times the bf16 peak")};
        g->attentionTable = std::move(*table);
    }
    if (o.contains(QStringLiteral("kernel_fixed_seconds")) || o.contains(QStringLiteral("kernel_fixed_source"))) {
        double fixed = 0;
        if (!r.positive(QStringLiteral("kernel_fixed_seconds"), &fixed)
            || !r.string(QStringLiteral("kernel_fixed_source"), &g->kernelFixedSource))
            return r.refusal();
        // A launch and a wave's tail are microseconds; a millisecond would be a unit slip.
        if (fixed > 1e-4)
            return Refusal{r.where(), QStringLiteral("kernel_fixed_seconds must be at most 1e-4 (100 us)")};
        g->kernelFixedSeconds = fixed;
    }
    if (o.contains(QStringLiteral("tp_overlap_efficiency")) || o.contains(QStringLiteral("tp_overlap_source"))) {
        const QJsonValue v = o.value(QStringLiteral("tp_overlap_efficiency"));
        if (!v.isDouble() || v.toDouble() < -1 || v.toDouble() > 1)
            return Refusal{r.where(), QStringLiteral("\"tp_overlap_efficiency\" must be a number from -1 to 1")};
        if (!r.string(QStringLiteral("tp_overlap_source"), &g->tpOverlapSource))
            return r.refusal();
        g->tpOverlapEfficiency = v.toDouble();
    }
    return std::nullopt;
}

std::optional<Refusal> parseInterconnect(const QJsonObject &o, int index, Interconnect *l)
{
    EntryReader r(o, QStringLiteral("interconnects.json entry %1").arg(index));
    if (!r.string(QStringLiteral("id"), &l->id))
        return r.refusal();
    r.setWhere(QStringLiteral("interconnects.json \"%1\"").arg(l->id));
    QString scope;
    if (!r.string(QStringLiteral("name"), &l->name)
        || !r.string(QStringLiteral("scope"), &scope)
        || !r.positive(QStringLiteral("bandwidth_bytes_per_s"), &l->bandwidthBytesPerS)
        || !r.positive(QStringLiteral("latency_s"), &l->latencySeconds)
        || !r.string(QStringLiteral("source"), &l->source))
        return r.refusal();
    if (scope != QLatin1String("scale-up") && scope != QLatin1String("scale-out"))
        return Refusal{r.where(), QStringLiteral("\"scope\" must be scale-up or scale-out")};
    l->scaleUp = scope == QLatin1String("scale-up");
    if (l->scaleUp && !r.integer(QStringLiteral("domain_gpus"), &l->domainGpus))
        return r.refusal();
    if (!r.positive(QStringLiteral("collective_efficiency"), &l->collectiveEfficiency)
        || !r.string(QStringLiteral("collective_efficiency_source"), &l->collectiveEfficiencySource))
        return r.refusal();
    if (l->collectiveEfficiency > 1)
        return Refusal{r.where(), QStringLiteral("collective_efficiency must be at most 1")};
    l->notes = o.value(QStringLiteral("notes")).toString();
    return std::nullopt;
}

std::optional<Refusal> parsePreset(const QJsonObject &o, int index, ModelPreset *p)
{
    EntryReader r(o, QStringLiteral("models.json entry %1").arg(index));
    if (!r.string(QStringLiteral("id"), &p->id))
        return r.refusal();
    r.setWhere(QStringLiteral("models.json \"%1\"").arg(p->id));
    QString arch;
    if (!r.string(QStringLiteral("name"), &p->name)
        || !r.string(QStringLiteral("source"), &p->source)
        || !r.string(QStringLiteral("arch"), &arch))
        return r.refusal();
    const auto a = archFromName(arch);
    if (!a)
        return Refusal{r.where(), QStringLiteral("\"arch\" must be gpt2 or llama")};
    ModelShape &m = p->shape;
    m.arch = *a;
    if (!r.integer(QStringLiteral("layers"), &m.layers)
        || !r.integer(QStringLiteral("d_model"), &m.dModel)
        || !r.integer(QStringLiteral("heads"), &m.heads)
        || !r.integer(QStringLiteral("kv_heads"), &m.kvHeads)
        || !r.integer(QStringLiteral("d_ff"), &m.dFf)
        || !r.integer(QStringLiteral("vocab"), &m.vocab)
        || !r.integer(QStringLiteral("max_positions"), &m.maxPositions)
        || !r.integer(QStringLiteral("published_params"), &p->publishedParams))
        return r.refusal();
    if (!o.value(QStringLiteral("tied")).isBool())
        return Refusal{r.where(), QStringLiteral("\"tied\" must be true or false")};
    m.tied = o.value(QStringLiteral("tied")).toBool();
    // A head width set apart from d_model / heads, and QK-norm (Qwen3).
    if (!r.optionalInteger(QStringLiteral("head_dim"), 0, &m.headDim))
        return r.refusal();
    if (!r.optionalBool(QStringLiteral("qk_norm"), &m.qkNorm)
        || !r.optionalBool(QStringLiteral("linear_bias"), &m.linearBias)
        || !r.optionalBool(QStringLiteral("attention_sinks"), &m.attentionSinks))
        return r.refusal();
    // Multi-head latent attention (DeepSeek-V2/V3).
    if (!r.optionalInteger(QStringLiteral("q_lora_rank"), 0, &m.qLoraRank)
        || !r.optionalInteger(QStringLiteral("kv_lora_rank"), 0, &m.kvLoraRank)
        || !r.optionalInteger(QStringLiteral("qk_rope_dim"), 0, &m.qkRopeDim)
        || !r.optionalInteger(QStringLiteral("v_head_dim"), 0, &m.vHeadDim)
        || !r.optionalInteger(QStringLiteral("dense_layers"), 0, &m.denseLayers)
        || !r.optionalInteger(QStringLiteral("mtp_depth"), 0, &m.mtpDepth)
        || !r.optionalInteger(QStringLiteral("sliding_window"), 0, &m.slidingWindow)
        || !r.optionalInteger(QStringLiteral("global_every"), 0, &m.globalEvery))
        return r.refusal();
    if (!r.optionalBool(QStringLiteral("router_bias"), &m.routerBias))
        return r.refusal();
    // Mixture-of-Experts, where the model has it.
    if (!r.optionalInteger(QStringLiteral("experts"), 0, &m.experts)
        || !r.optionalInteger(QStringLiteral("experts_per_token"), 1, &m.expertsPerToken)
        || !r.optionalInteger(QStringLiteral("shared_experts"), 0, &m.sharedExperts)
        || !r.optionalInteger(QStringLiteral("expert_d_ff"), 0, &m.expertDff))
        return r.refusal();
    if (o.contains(QStringLiteral("published_active_params"))) {
        std::int64_t active = 0;
        if (!r.integer(QStringLiteral("published_active_params"), &active))
            return r.refusal();
        p->publishedActiveParams = active;
    }
    if (const auto problem = validateShape(m))
        return Refusal{r.where(), problem->message()};
    return std::nullopt;
}

template <typename T, typename Parse>
std::optional<Refusal> parseArray(const QByteArray &json, const QString &file, const QString &key,
                                  QList<T> *out, Parse parse)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return Refusal{file, QStringLiteral("%1 at offset %2").arg(pe.errorString()).arg(pe.offset)};
    const QJsonArray items = doc.object().value(key).toArray();
    if (items.isEmpty())
        return Refusal{file, QStringLiteral("\"%1\" must be a non-empty array").arg(key)};
    for (int i = 0; i < items.size(); ++i) {
        T item;
        if (auto refused = parse(items.at(i).toObject(), i, &item))
            return refused;
        for (const T &seen : *out)
            if (seen.id == item.id)
                return Refusal{file, QStringLiteral("duplicate id \"%1\"").arg(item.id)};
        out->append(item);
    }
    return std::nullopt;
}

} // namespace

QStringList acceptedPeakDtypes(const QString &dtype)
{
    // bf16 and fp16 run at one tensor-core rate on every catalog GPU listing both (NVIDIA
    // A100/H100/H200/B200, L4, RTX 30/40/50 datasheets; AMD MI250X/MI300X data sheets);
    // parseGpu() refuses an entry where they differ, so either stands in for the other.
    if (dtype == QLatin1String("bf16"))
        return {dtype, QStringLiteral("fp16")};
    if (dtype == QLatin1String("fp16"))
        return {dtype, QStringLiteral("bf16")};
    return {dtype};
}

std::optional<double> GpuSpec::peakFor(const QString &dtype, QString *usedDtype) const
{
    for (const QString &key : acceptedPeakDtypes(dtype)) {
        const auto it = peakFlopsPerS.constFind(key);
        if (it != peakFlopsPerS.constEnd()) {
            if (usedDtype)
                *usedDtype = key;
            return *it;
        }
    }
    if (usedDtype)
        usedDtype->clear();
    return std::nullopt;
}

const GpuSpec *Catalog::findGpu(const QString &id) const
{
    for (const GpuSpec &g : gpus)
        if (g.id == id)
            return &g;
    return nullptr;
}

const Interconnect *Catalog::findInterconnect(const QString &id) const
{
    for (const Interconnect &l : interconnects)
        if (l.id == id)
            return &l;
    return nullptr;
}

QString Catalog::interconnectIdList() const
{
    QStringList ids;
    for (const Interconnect &l : interconnects)
        ids << l.id;
    return ids.join(QStringLiteral(", "));
}

const ModelPreset *Catalog::findPreset(const QString &id) const
{
    for (const ModelPreset &p : presets)
        if (p.id == id)
            return &p;
    return nullptr;
}

QString Catalog::gpuIdList() const
{
    QStringList ids;
    for (const GpuSpec &g : gpus)
        ids << g.id;
    return ids.join(QStringLiteral(", "));
}

QString Catalog::gpuIdListWithPeak(const QString &dtype) const
{
    QStringList ids;
    for (const GpuSpec &g : gpus)
        if (g.peakFor(dtype))
            ids << g.id;
    return ids.join(QStringLiteral(", "));
}

QString Catalog::presetIdList() const
{
    QStringList ids;
    for (const ModelPreset &p : presets)
        ids << p.id;
    return ids.join(QStringLiteral(", "));
}

Refusal unknownIdRefusal(const QString &field, const QString &got, const QString &acceptedIds,
                         const QString &listCommand)
{
    return {field, QStringLiteral("must be one of %1 (got \"%2\"; see `napkin %3`)")
                       .arg(acceptedIds, printable(got), listCommand)};
}

Result<Catalog> parseCatalog(const QByteArray &gpusJson, const QByteArray &modelsJson,
                             const QByteArray &interconnectsJson)
{
    Catalog c;
    if (auto r = parseArray(gpusJson, QStringLiteral("gpus.json"), QStringLiteral("gpus"), &c.gpus, parseGpu))
        return *r;
    if (auto r = parseArray(modelsJson, QStringLiteral("models.json"), QStringLiteral("presets"), &c.presets, parsePreset))
        return *r;
    if (auto r = parseArray(interconnectsJson, QStringLiteral("interconnects.json"), QStringLiteral("interconnects"),
                            &c.interconnects, parseInterconnect))
        return *r;
    for (GpuSpec &g : c.gpus) {
        const QString where = QStringLiteral("gpus.json \"%1\"").arg(g.id);
        const Interconnect *host = c.findInterconnect(g.hostLinkId);
        if (!host)
            return Refusal{where, QStringLiteral("host_link must name a link of interconnects.json (%1)")
                                      .arg(c.interconnectIdList())};
        g.hostLink = *host;
        const Interconnect *up = c.findInterconnect(g.scaleUpId);
        const Interconnect *out = c.findInterconnect(g.scaleOutId);
        // scale_out may be a scale-up link too: a TPU pod's ICI joins hosts as well as chips.
        if (!up || !up->scaleUp || !out)
            return Refusal{where, QStringLiteral("scale_up must name a scale-up link and scale_out a "
                                                 "link of interconnects.json (%1)")
                                      .arg(c.interconnectIdList())};
        if (g.gpusPerNode > up->domainGpus)
            return Refusal{where, QStringLiteral("gpus_per_node %1 is more than %2 connects (%3)")
                                      .arg(g.gpusPerNode).arg(up->id).arg(up->domainGpus)};
    }
    return c;
}

Result<Catalog> loadBuiltinCatalog()
{
    QFile gpus(QStringLiteral(":/napkin/gpus.json"));
    QFile models(QStringLiteral(":/napkin/models.json"));
    QFile links(QStringLiteral(":/napkin/interconnects.json"));
    if (!gpus.open(QIODevice::ReadOnly) || !models.open(QIODevice::ReadOnly) || !links.open(QIODevice::ReadOnly))
        return Refusal{QString(), QStringLiteral("the built-in catalogs are missing from this build")};
    return parseCatalog(gpus.readAll(), models.readAll(), links.readAll());
}

} // namespace napkin
