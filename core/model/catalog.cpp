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

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

bool readPositive(const QJsonObject &o, const QString &key, const QString &where, double *out,
                  QString *error)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() <= 0)
        return fail(error, QStringLiteral("%1: \"%2\" must be a positive number").arg(where, key));
    *out = v.toDouble();
    return true;
}

bool readString(const QJsonObject &o, const QString &key, const QString &where, QString *out,
                QString *error)
{
    const QJsonValue v = o.value(key);
    if (!v.isString() || v.toString().isEmpty())
        return fail(error, QStringLiteral("%1: \"%2\" must be a non-empty string").arg(where, key));
    *out = v.toString();
    return true;
}

bool readInt(const QJsonObject &o, const QString &key, const QString &where, std::int64_t *out,
             QString *error)
{
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 1 || d > 9e15 || std::floor(d) != d)
        return fail(error, QStringLiteral("%1: \"%2\" must be a positive integer").arg(where, key));
    *out = static_cast<std::int64_t>(d);
    return true;
}

/// An optional whole number from lo up (absent: `out` keeps its default).
bool readOptionalInt(const QJsonObject &o, const QString &key, const QString &where, std::int64_t lo,
                     std::int64_t *out, QString *error)
{
    if (!o.contains(key))
        return true;
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < static_cast<double>(lo) || d > 9e15 || std::floor(d) != d)
        return fail(error, QStringLiteral("%1: \"%2\" must be an integer of at least %3").arg(where, key).arg(lo));
    *out = static_cast<std::int64_t>(d);
    return true;
}

bool readOptionalBool(const QJsonObject &o, const QString &key, const QString &where, bool *out, QString *error)
{
    if (!o.contains(key))
        return true;
    if (!o.value(key).isBool())
        return fail(error, QStringLiteral("%1: \"%2\" must be true or false").arg(where, key));
    *out = o.value(key).toBool();
    return true;
}

bool parseGpu(const QJsonObject &o, int index, GpuSpec *g, QString *error)
{
    QString where = QStringLiteral("gpus.json entry %1").arg(index);
    if (!readString(o, QStringLiteral("id"), where, &g->id, error))
        return false;
    where = QStringLiteral("gpus.json \"%1\"").arg(g->id);
    if (!readString(o, QStringLiteral("name"), where, &g->name, error)
        || !readString(o, QStringLiteral("short_name"), where, &g->shortName, error)
        || !readString(o, QStringLiteral("vendor"), where, &g->vendor, error)
        || !readString(o, QStringLiteral("source"), where, &g->source, error)
        || !readPositive(o, QStringLiteral("memory_bandwidth_bytes_per_s"), where,
                         &g->memoryBandwidthBytesPerS, error)
        || !readPositive(o, QStringLiteral("memory_bytes"), where, &g->memoryBytes, error)
        || !readPositive(o, QStringLiteral("tdp_watts"), where, &g->tdpWatts, error))
        return false;
    g->notes = o.value(QStringLiteral("notes")).toString();
    const QJsonObject peaks = o.value(QStringLiteral("peak_flops_per_s")).toObject();
    for (auto it = peaks.begin(); it != peaks.end(); ++it) {
        double value = 0;
        if (!readPositive(peaks, it.key(), where + QStringLiteral(" peak_flops_per_s"), &value, error))
            return false;
        g->peakFlopsPerS.insert(it.key(), value);
    }
    if (!g->peakFlopsPerS.contains(QStringLiteral("bf16"))
        && !g->peakFlopsPerS.contains(QStringLiteral("fp16")))
        return fail(error, where + QStringLiteral(": peak_flops_per_s needs bf16 or fp16"));
    // GpuSpec::peakFor() lets bf16 and fp16 stand in for each other only because they are equal.
    const auto bf16 = g->peakFlopsPerS.constFind(QStringLiteral("bf16"));
    const auto fp16 = g->peakFlopsPerS.constFind(QStringLiteral("fp16"));
    if (bf16 != g->peakFlopsPerS.constEnd() && fp16 != g->peakFlopsPerS.constEnd() && *bf16 != *fp16)
        return fail(error, where + QStringLiteral(": peak_flops_per_s bf16 and fp16 must be equal when both are given"));
    if (o.contains(QStringLiteral("price_per_gpu_hour_usd"))) {
        double price = 0;
        if (!readPositive(o, QStringLiteral("price_per_gpu_hour_usd"), where, &price, error)
            || !readString(o, QStringLiteral("price_source"), where, &g->priceSource, error)
            || !readString(o, QStringLiteral("price_date"), where, &g->priceDate, error))
            return false;
        g->pricePerGpuHourUsd = price;
    } else if (o.contains(QStringLiteral("price_source")) || o.contains(QStringLiteral("price_date"))) {
        return fail(error, where + QStringLiteral(": price_source and price_date need price_per_gpu_hour_usd"));
    }
    // Links and efficiencies are checked against the interconnect catalog in parseCatalog().
    if (!readString(o, QStringLiteral("scale_up"), where, &g->scaleUpId, error)
        || !readString(o, QStringLiteral("scale_out"), where, &g->scaleOutId, error)
        || !readInt(o, QStringLiteral("gpus_per_node"), where, &g->gpusPerNode, error)
        || !readString(o, QStringLiteral("host_link"), where, &g->hostLinkId, error)
        || !readString(o, QStringLiteral("links_source"), where, &g->linksSource, error)
        || !readPositive(o, QStringLiteral("efficiency_matmul"), where, &g->efficiencyMatmul, error)
        || !readPositive(o, QStringLiteral("efficiency_memory"), where, &g->efficiencyMemory, error)
        || !readString(o, QStringLiteral("efficiency_source"), where, &g->efficiencySource, error))
        return false;
    if (g->efficiencyMatmul > 1 || g->efficiencyMemory > 1)
        return fail(error, where + QStringLiteral(": efficiencies must be at most 1"));
    return true;
}

bool parseInterconnect(const QJsonObject &o, int index, Interconnect *l, QString *error)
{
    QString where = QStringLiteral("interconnects.json entry %1").arg(index);
    if (!readString(o, QStringLiteral("id"), where, &l->id, error))
        return false;
    where = QStringLiteral("interconnects.json \"%1\"").arg(l->id);
    QString scope;
    if (!readString(o, QStringLiteral("name"), where, &l->name, error)
        || !readString(o, QStringLiteral("scope"), where, &scope, error)
        || !readPositive(o, QStringLiteral("bandwidth_bytes_per_s"), where, &l->bandwidthBytesPerS, error)
        || !readPositive(o, QStringLiteral("latency_s"), where, &l->latencySeconds, error)
        || !readString(o, QStringLiteral("source"), where, &l->source, error))
        return false;
    if (scope != QLatin1String("scale-up") && scope != QLatin1String("scale-out"))
        return fail(error, where + QStringLiteral(": \"scope\" must be scale-up or scale-out"));
    l->scaleUp = scope == QLatin1String("scale-up");
    if (l->scaleUp && !readInt(o, QStringLiteral("domain_gpus"), where, &l->domainGpus, error))
        return false;
    l->notes = o.value(QStringLiteral("notes")).toString();
    return true;
}

bool parsePreset(const QJsonObject &o, int index, ModelPreset *p, QString *error)
{
    QString where = QStringLiteral("models.json entry %1").arg(index);
    if (!readString(o, QStringLiteral("id"), where, &p->id, error))
        return false;
    where = QStringLiteral("models.json \"%1\"").arg(p->id);
    QString arch;
    if (!readString(o, QStringLiteral("name"), where, &p->name, error)
        || !readString(o, QStringLiteral("source"), where, &p->source, error)
        || !readString(o, QStringLiteral("arch"), where, &arch, error))
        return false;
    const auto a = archFromName(arch);
    if (!a)
        return fail(error, where + QStringLiteral(": \"arch\" must be gpt2 or llama"));
    ModelShape &m = p->shape;
    m.arch = *a;
    if (!readInt(o, QStringLiteral("layers"), where, &m.layers, error)
        || !readInt(o, QStringLiteral("d_model"), where, &m.dModel, error)
        || !readInt(o, QStringLiteral("heads"), where, &m.heads, error)
        || !readInt(o, QStringLiteral("kv_heads"), where, &m.kvHeads, error)
        || !readInt(o, QStringLiteral("d_ff"), where, &m.dFf, error)
        || !readInt(o, QStringLiteral("vocab"), where, &m.vocab, error)
        || !readInt(o, QStringLiteral("max_positions"), where, &m.maxPositions, error)
        || !readInt(o, QStringLiteral("published_params"), where, &p->publishedParams, error))
        return false;
    if (!o.value(QStringLiteral("tied")).isBool())
        return fail(error, where + QStringLiteral(": \"tied\" must be true or false"));
    m.tied = o.value(QStringLiteral("tied")).toBool();
    // A head width set apart from d_model / heads, and QK-norm (Qwen3).
    if (!readOptionalInt(o, QStringLiteral("head_dim"), where, 0, &m.headDim, error))
        return false;
    if (!readOptionalBool(o, QStringLiteral("qk_norm"), where, &m.qkNorm, error)
        || !readOptionalBool(o, QStringLiteral("linear_bias"), where, &m.linearBias, error)
        || !readOptionalBool(o, QStringLiteral("attention_sinks"), where, &m.attentionSinks, error))
        return false;
    // Multi-head latent attention (DeepSeek-V2/V3).
    if (!readOptionalInt(o, QStringLiteral("q_lora_rank"), where, 0, &m.qLoraRank, error)
        || !readOptionalInt(o, QStringLiteral("kv_lora_rank"), where, 0, &m.kvLoraRank, error)
        || !readOptionalInt(o, QStringLiteral("qk_rope_dim"), where, 0, &m.qkRopeDim, error)
        || !readOptionalInt(o, QStringLiteral("v_head_dim"), where, 0, &m.vHeadDim, error)
        || !readOptionalInt(o, QStringLiteral("dense_layers"), where, 0, &m.denseLayers, error)
        || !readOptionalInt(o, QStringLiteral("mtp_depth"), where, 0, &m.mtpDepth, error)
        || !readOptionalInt(o, QStringLiteral("sliding_window"), where, 0, &m.slidingWindow, error)
        || !readOptionalInt(o, QStringLiteral("global_every"), where, 0, &m.globalEvery, error))
        return false;
    if (!readOptionalBool(o, QStringLiteral("router_bias"), where, &m.routerBias, error))
        return false;
    // Mixture-of-Experts, where the model has it.
    if (!readOptionalInt(o, QStringLiteral("experts"), where, 0, &m.experts, error)
        || !readOptionalInt(o, QStringLiteral("experts_per_token"), where, 1, &m.expertsPerToken, error)
        || !readOptionalInt(o, QStringLiteral("shared_experts"), where, 0, &m.sharedExperts, error)
        || !readOptionalInt(o, QStringLiteral("expert_d_ff"), where, 0, &m.expertDff, error))
        return false;
    if (o.contains(QStringLiteral("published_active_params"))) {
        std::int64_t active = 0;
        if (!readInt(o, QStringLiteral("published_active_params"), where, &active, error))
            return false;
        p->publishedActiveParams = active;
    }
    if (const auto problem = validateShape(m))
        return fail(error, where + QStringLiteral(": ") + problem->message());
    return true;
}

template <typename T, typename Parse>
bool parseArray(const QByteArray &json, const QString &file, const QString &key, QList<T> *out,
                Parse parse, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(error, QStringLiteral("%1: %2 at offset %3").arg(file, pe.errorString()).arg(pe.offset));
    const QJsonArray items = doc.object().value(key).toArray();
    if (items.isEmpty())
        return fail(error, QStringLiteral("%1: \"%2\" must be a non-empty array").arg(file, key));
    for (int i = 0; i < items.size(); ++i) {
        T item;
        if (!parse(items.at(i).toObject(), i, &item, error))
            return false;
        for (const T &seen : *out)
            if (seen.id == item.id)
                return fail(error, QStringLiteral("%1: duplicate id \"%2\"").arg(file, item.id));
        out->append(item);
    }
    return true;
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

std::optional<Catalog> parseCatalog(const QByteArray &gpusJson, const QByteArray &modelsJson,
                                    const QByteArray &interconnectsJson, QString *error)
{
    Catalog c;
    if (!parseArray(gpusJson, QStringLiteral("gpus.json"), QStringLiteral("gpus"), &c.gpus, parseGpu, error)
        || !parseArray(modelsJson, QStringLiteral("models.json"), QStringLiteral("presets"), &c.presets,
                       parsePreset, error)
        || !parseArray(interconnectsJson, QStringLiteral("interconnects.json"), QStringLiteral("interconnects"),
                       &c.interconnects, parseInterconnect, error))
        return std::nullopt;
    for (GpuSpec &g : c.gpus) {
        const Interconnect *host = c.findInterconnect(g.hostLinkId);
        if (!host) {
            fail(error, QStringLiteral("gpus.json \"%1\": host_link must name a link of interconnects.json (%2)")
                            .arg(g.id, c.interconnectIdList()));
            return std::nullopt;
        }
        g.hostLink = *host;
        const Interconnect *up = c.findInterconnect(g.scaleUpId);
        const Interconnect *out = c.findInterconnect(g.scaleOutId);
        // scale_out may be a scale-up link too: a TPU pod's ICI joins hosts as well as chips.
        if (!up || !up->scaleUp || !out) {
            fail(error, QStringLiteral("gpus.json \"%1\": scale_up must name a scale-up link and scale_out a "
                                       "link of interconnects.json (%2)")
                            .arg(g.id, c.interconnectIdList()));
            return std::nullopt;
        }
        if (g.gpusPerNode > up->domainGpus) {
            fail(error, QStringLiteral("gpus.json \"%1\": gpus_per_node %2 is more than %3 connects (%4)")
                            .arg(g.id).arg(g.gpusPerNode).arg(up->id).arg(up->domainGpus));
            return std::nullopt;
        }
    }
    return c;
}

std::optional<Catalog> loadBuiltinCatalog(QString *error)
{
    QFile gpus(QStringLiteral(":/napkin/gpus.json"));
    QFile models(QStringLiteral(":/napkin/models.json"));
    QFile links(QStringLiteral(":/napkin/interconnects.json"));
    if (!gpus.open(QIODevice::ReadOnly) || !models.open(QIODevice::ReadOnly) || !links.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("the built-in catalogs are missing from this build"));
        return std::nullopt;
    }
    return parseCatalog(gpus.readAll(), models.readAll(), links.readAll(), error);
}

} // namespace napkin
