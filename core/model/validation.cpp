#include "core/model/validation.h"

#include "core/model/fields.h"
#include "core/model/layout.h"

#include <cmath>

namespace napkin {

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
    if (auto e = validateServing(s))
        return e;
    return validateLayout(s);
}

std::optional<Refusal> validateServing(const Scenario &s)
{
    if (s.mode != Mode::Inference)
        return std::nullopt;
    if (s.paramsOverride)
        return Refusal{QStringLiteral("params"),
                       QStringLiteral("serving needs the model's shape (its layers, heads and widths size the KV cache); "
                                      "remove the direct parameter count")};
    if (s.cp > 1)
        return Refusal{QStringLiteral("cp"), QStringLiteral("must be 1 when serving: Napkin splits no served sequence over "
                                                            "context-parallel ranks (got %1)").arg(s.cp)};
    const std::int64_t context = s.promptTokens + s.outputTokens;
    if (context > s.model.maxPositions)
        return Refusal{QStringLiteral("prompt_tokens"),
                       QStringLiteral("prompt + output tokens must be at most the model's max_positions, %1 "
                                      "(got %2 + %3 = %4)")
                           .arg(s.model.maxPositions).arg(s.promptTokens).arg(s.outputTokens).arg(context)};
    if (s.concurrency && *s.concurrency > s.maxNumSeqs)
        return Refusal{QStringLiteral("concurrency"),
                       QStringLiteral("must be at most %1, the scheduler's max_num_seqs (got %2); raise max_num_seqs "
                                      "to run more sequences together")
                           .arg(s.maxNumSeqs).arg(*s.concurrency)};
    return std::nullopt;
}

} // namespace napkin
