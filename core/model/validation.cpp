#include "core/model/validation.h"

#include "core/model/fields.h"
#include "core/model/layout.h"

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

std::optional<Refusal> validateShape(const ModelShape &m)
{
    Scenario s;
    s.model = m;
    // Types and ranges from the one field table (fields.h), then the rules between fields.
    if (auto e = checkFields(s, true))
        return e;
    if (m.dModel % m.heads != 0)
        return Refusal{QStringLiteral("heads"),
                               QStringLiteral("must divide d_model = %1 evenly (got %2)").arg(m.dModel).arg(m.heads)};
    if (m.kvHeads > m.heads)
        return Refusal{QStringLiteral("kv_heads"), integerRangeProblem(1, m.heads, QString::number(m.kvHeads))};
    if (m.heads % m.kvHeads != 0)
        return Refusal{QStringLiteral("kv_heads"),
                               QStringLiteral("must divide heads = %1 evenly (got %2)").arg(m.heads).arg(m.kvHeads)};
    if (m.moe() && m.denseLayers > m.layers)
        return Refusal{QStringLiteral("dense_layers"), integerRangeProblem(0, m.layers, QString::number(m.denseLayers))};
    if (m.moe() && m.expertsPerToken > m.experts)
        return Refusal{QStringLiteral("experts_per_token"),
                               integerRangeProblem(1, m.experts, QString::number(m.expertsPerToken))};
    return std::nullopt;
}

std::optional<Refusal> validateScenario(const Scenario &s)
{
    if (auto e = validateShape(s.model))
        return e;
    if (auto e = checkFields(s, false))
        return e;
    if (s.model.arch == Arch::Gpt2 && s.seqLen > s.model.maxPositions)
        return Refusal{QStringLiteral("seq_len"),
                               QStringLiteral("must be at most max_positions = %1 for gpt2's learned "
                                              "position table (got %2)")
                                   .arg(s.model.maxPositions).arg(s.seqLen)};
    return validateLayout(s);
}

} // namespace napkin
