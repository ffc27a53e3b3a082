#include "core/model/attentiontable.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

/// The position of `x` among ascending `points` in log2: the lower index and the fraction
/// towards the next, held at the ends.
std::pair<qsizetype, double> place(const QList<double> &points, double x)
{
    if (points.size() < 2 || x <= points.front())
        return {0, 0};
    if (x >= points.back())
        return {points.size() - 2, 1};
    qsizetype i = 0;
    while (points[i + 1] < x)
        ++i;
    return {i, (std::log2(x) - std::log2(points[i])) / (std::log2(points[i + 1]) - std::log2(points[i]))};
}

double at(const AttentionTable &t, const QList<QList<double>> &grid, double headDim, double seqLen)
{
    // Plain variables, not structured bindings: clang 15 cannot capture those in a lambda.
    const std::pair<qsizetype, double> hp = place(t.headDims, headDim);
    const std::pair<qsizetype, double> sp = place(t.seqLens, seqLen);
    const qsizetype h = hp.first, s = sp.first;
    const double hf = hp.second, sf = sp.second;
    const auto row = [&](qsizetype i) {
        const QList<double> &r = grid[std::min(i, grid.size() - 1)];
        return r[s] + (r[std::min(s + 1, r.size() - 1)] - r[s]) * sf;
    };
    return row(h) + (row(h + 1) - row(h)) * hf;
}

} // namespace

double AttentionTable::relativeSpeed(double headDim, double seqLen, bool backwardPass, bool causal) const
{
    const double hd = kReferenceHeadDim, sl = kReferenceSeqLen;
    if (!backwardPass) {
        const QList<QList<double>> &grid = causal ? forwardCausal : forward;
        return at(*this, grid, headDim, seqLen) / at(*this, grid, hd, sl);
    }
    double r = at(*this, backward, headDim, seqLen) / at(*this, backward, hd, sl);
    if (causal)
        r *= (at(*this, forwardCausal, headDim, seqLen) / at(*this, forward, headDim, seqLen))
             / (at(*this, forwardCausal, hd, sl) / at(*this, forward, hd, sl));
    return r;
}

Result<AttentionTable> parseAttentionTable(const QJsonObject &o, const QString &where)
{
    AttentionTable t;
    const QString field = where + QStringLiteral(" efficiency_attention_table");
    const auto numbers = [&](const QJsonValue &v, QList<double> *out) {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.isEmpty())
            return false;
        for (const QJsonValue &x : a) {
            if (!x.isDouble() || !std::isfinite(x.toDouble()) || x.toDouble() <= 0)
                return false;
            out->append(x.toDouble());
        }
        return true;
    };
    const auto ascending = [](const QList<double> &v) { return std::is_sorted(v.begin(), v.end()) && std::adjacent_find(v.begin(), v.end()) == v.end(); };
    if (!numbers(o.value(QStringLiteral("head_dims")), &t.headDims) || !ascending(t.headDims)
        || !numbers(o.value(QStringLiteral("seq_lens")), &t.seqLens) || !ascending(t.seqLens))
        return Refusal{field, QStringLiteral("head_dims and seq_lens must be ascending lists of positive numbers")};
    const auto grid = [&](const char *key, QList<QList<double>> *out) -> std::optional<Refusal> {
        const QJsonArray rows = o.value(QLatin1String(key)).toArray();
        if (rows.size() != t.headDims.size())
            return Refusal{field, QStringLiteral("\"%1\" needs a row per head dim").arg(QLatin1String(key))};
        for (const QJsonValue &row : rows) {
            QList<double> r;
            if (!numbers(row, &r) || r.size() != t.seqLens.size())
                return Refusal{field, QStringLiteral("\"%1\" needs a positive TFLOP/s per sequence length in each row")
                                          .arg(QLatin1String(key))};
            for (double &x : r)
                x *= 1e12;
            out->append(r);
        }
        return std::nullopt;
    };
    if (auto refused = grid("forward_tflops", &t.forward))
        return *refused;
    if (auto refused = grid("forward_causal_tflops", &t.forwardCausal))
        return *refused;
    if (auto refused = grid("backward_tflops", &t.backward))
        return *refused;
    t.source = o.value(QStringLiteral("source")).toString();
    if (t.source.isEmpty())
        return Refusal{field, QStringLiteral("\"source\" must be a non-empty string")};
    return t;
}

} // namespace napkin
