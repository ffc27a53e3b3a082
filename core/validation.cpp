#include "validation.h"

#include "layout.h"

#include <cmath>

namespace napkin {

QString integerRangeProblem(std::int64_t lo, std::int64_t hi, const QString &got)
{
    return QStringLiteral("must be an integer from %1 to %2 (got %3)").arg(lo).arg(hi).arg(got);
}

QString printable(const QString &text, qsizetype maxShown)
{
    const bool cut = maxShown > 0 && text.size() > maxShown;
    QString out;
    for (const QChar c : cut ? text.left(maxShown) : text) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\r'))
            out += QStringLiteral("\\r");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line
                 || c.category() == QChar::Separator_Paragraph)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    if (cut)
        out += QStringLiteral("…");
    return out;
}

namespace {

std::optional<ValidationError> checkInt(const char *field, std::int64_t value, std::int64_t lo,
                                        std::int64_t hi)
{
    if (value >= lo && value <= hi)
        return std::nullopt;
    return ValidationError{QLatin1String(field), integerRangeProblem(lo, hi, QString::number(value))};
}

std::optional<ValidationError> checkReal(const char *field, double value, double lo, double hi,
                                         bool loExclusive = false)
{
    const bool ok = std::isfinite(value) && (loExclusive ? value > lo : value >= lo) && value <= hi;
    if (ok)
        return std::nullopt;
    return ValidationError{QLatin1String(field),
                           QStringLiteral("must be a number from %1%2 to %3 (got %4)")
                               .arg(loExclusive ? QStringLiteral("above ") : QString())
                               .arg(lo).arg(hi).arg(value)};
}

} // namespace

std::optional<ValidationError> validateShape(const ModelShape &m)
{
    if (auto e = checkInt("layers", m.layers, 1, limits::maxLayers)) return e;
    if (auto e = checkInt("d_model", m.dModel, 1, limits::maxDModel)) return e;
    if (auto e = checkInt("heads", m.heads, 1, limits::maxHeads)) return e;
    if (m.dModel % m.heads != 0)
        return ValidationError{QStringLiteral("heads"),
                               QStringLiteral("must divide d_model = %1 evenly (got %2)")
                                   .arg(m.dModel).arg(m.heads)};
    if (auto e = checkInt("kv_heads", m.kvHeads, 1, m.heads)) return e;
    if (auto e = checkInt("d_ff", m.dFf, 1, limits::maxDFf)) return e;
    if (auto e = checkInt("vocab", m.vocab, 1, limits::maxVocab)) return e;
    if (auto e = checkInt("max_positions", m.maxPositions, 1, limits::maxPositions)) return e;
    if (m.heads % m.kvHeads != 0)
        return ValidationError{QStringLiteral("kv_heads"),
                               QStringLiteral("must divide heads = %1 evenly (got %2)")
                                   .arg(m.heads).arg(m.kvHeads)};
    return std::nullopt;
}

std::optional<ValidationError> validateScenario(const Scenario &s)
{
    if (auto e = validateShape(s.model)) return e;
    if (s.paramsOverride)
        if (auto e = checkInt("params", *s.paramsOverride, 1, limits::maxParams)) return e;
    if (auto e = checkInt("seq_len", s.seqLen, 1, limits::maxSeqLen)) return e;
    if (s.model.arch == Arch::Gpt2 && s.seqLen > s.model.maxPositions)
        return ValidationError{QStringLiteral("seq_len"),
                               QStringLiteral("must be at most max_positions = %1 for gpt2's learned "
                                              "position table (got %2)")
                                   .arg(s.model.maxPositions).arg(s.seqLen)};
    if (auto e = checkInt("batch", s.microBatch, 1, limits::maxMicroBatch)) return e;
    if (auto e = checkReal("tokens", s.tokens, limits::minTokens, limits::maxTokens)) return e;
    if (auto e = checkInt("gpus", s.gpus, 1, limits::maxGpus)) return e;
    if (auto e = checkInt("zero", s.zeroStage, 0, 3)) return e;
    if (auto e = checkReal("mfu", s.mfuFraction, limits::minMfu, limits::maxMfu)) return e;
    if (s.pricePerGpuHourUsd)
        if (auto e = checkReal("price", *s.pricePerGpuHourUsd, 0, limits::maxPriceUsd)) return e;
    if (auto e = checkReal("reserved_bytes", s.reservedBytes, 0, limits::maxReservedBytes)) return e;
    if (s.efficiencyMatmul)
        if (auto e = checkReal("efficiency_matmul", *s.efficiencyMatmul, 0, limits::maxEfficiency, true)) return e;
    if (s.efficiencyMemory)
        if (auto e = checkReal("efficiency_memory", *s.efficiencyMemory, 0, limits::maxEfficiency, true)) return e;
    if (auto e = checkReal("allocator_margin", s.allocatorMargin, 0, limits::maxAllocatorMargin)) return e;
    return validateLayout(s);
}

} // namespace napkin
