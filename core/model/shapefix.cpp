#include "core/model/shapefix.h"

#include "core/model/validation.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace napkin {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::ShapeFix", text);
}
} // namespace

std::int64_t nearestDivisor(std::int64_t n, std::int64_t target, std::int64_t limit, std::int64_t multiple)
{
    if (n <= 0)
        return 1;
    const std::int64_t top = std::min(n, limit);
    // Without a divisor that is a multiple (n not one, or the multiple past the limit), any divisor.
    if (multiple < 1 || n % multiple != 0 || multiple > top)
        multiple = 1;
    target = std::clamp<std::int64_t>(target, 1, top);
    const auto fits = [&](std::int64_t d) { return n % d == 0 && d % multiple == 0; };
    // Ends: `multiple` itself is in [1, top] and fits.
    for (std::int64_t delta = 0;; ++delta) {
        const std::int64_t up = target + delta;
        const std::int64_t down = target - delta;
        if (up <= top && fits(up))
            return up;
        if (down >= 1 && fits(down))
            return down;
    }
}

std::int64_t widthStep(const ModelShape &m, WidthRule rule)
{
    constexpr std::int64_t tile = 64;
    if (rule.headMultiple <= 1)
        return tile;
    const std::int64_t headDim = std::max<std::int64_t>(1, m.dModel / std::max<std::int64_t>(1, m.heads));
    // At most 131072 x 1024 (d_head x tp): no overflow.
    return std::lcm(tile, rule.keepHeadDim ? headDim * rule.headMultiple : rule.headMultiple);
}

ModelShape followHeads(const ModelShape &m, std::int64_t heads, QString *note, std::int64_t kvMultiple)
{
    ModelShape out = m;
    out.heads = heads;
    const bool multiHead = m.kvHeads == m.heads;
    out.kvHeads = multiHead ? heads : nearestDivisor(heads, m.kvHeads, heads, kvMultiple);
    if (out.kvHeads != m.kvHeads && note)
        *note = tr("kv heads %1 → %2 so that they divide heads").arg(m.kvHeads).arg(out.kvHeads);
    return out;
}

ModelShape followWidth(const ModelShape &m, std::int64_t dModel, WidthRule rule, QString *note)
{
    QStringList notes;
    ModelShape out = m;
    out.dModel = dModel;
    const std::int64_t headDim = std::max<std::int64_t>(1, m.dModel / std::max<std::int64_t>(1, m.heads));
    const std::int64_t wanted = rule.keepHeadDim ? std::max<std::int64_t>(1, std::llround(static_cast<double>(dModel) / static_cast<double>(headDim)))
                                                 : m.heads;
    const std::int64_t heads = nearestDivisor(dModel, wanted, limits::maxHeads, rule.headMultiple);
    if (heads != m.heads) {
        QString kvNote;
        out = followHeads(out, heads, &kvNote, rule.headMultiple);
        if (rule.keepHeadDim && dModel / heads == headDim)
            notes << tr("heads %1 → %2 to keep d_head = %3").arg(m.heads).arg(heads).arg(headDim);
        else if (rule.headMultiple > 1)
            notes << tr("heads %1 → %2 so that they divide d_model = %3 and TP %4 divides them")
                         .arg(m.heads).arg(heads).arg(dModel).arg(rule.headMultiple);
        else
            notes << tr("heads %1 → %2 so that they divide d_model = %3").arg(m.heads).arg(heads).arg(dModel);
        if (!kvNote.isEmpty())
            notes << kvNote;
    }
    if (rule.keepFfRatio && m.dModel > 0) {
        const double ratio = static_cast<double>(m.dFf) / static_cast<double>(m.dModel);
        const auto ff = std::clamp<std::int64_t>(std::llround(ratio * static_cast<double>(dModel)), 1,
                                                 limits::maxDFf);
        if (ff != m.dFf) {
            out.dFf = ff;
            notes << tr("d_ff %1 → %2 (ratio to d_model kept)").arg(m.dFf).arg(ff);
        }
    }
    if (note)
        *note = notes.join(QStringLiteral("; "));
    return out;
}

std::int64_t defaultDFf(Arch arch, std::int64_t dModel)
{
    if (arch == Arch::Gpt2)
        return std::min<std::int64_t>(4 * dModel, limits::maxDFf);
    constexpr std::int64_t multipleOf = 256;
    const std::int64_t hidden = 2 * 4 * dModel / 3;
    return std::min<std::int64_t>((hidden + multipleOf - 1) / multipleOf * multipleOf, limits::maxDFf);
}

ModelShape deriveDependentFields(const ModelShape &m, const ShapeFieldsGiven &given)
{
    ModelShape out = m;
    if ((given.dModel || given.arch) && !given.dFf)
        out.dFf = defaultDFf(out.arch, out.dModel);
    if (given.heads && !given.kvHeads)
        out.kvHeads = out.heads;
    if (given.arch && !given.tied)
        out.tied = out.arch == Arch::Gpt2;
    return out;
}

Scenario applyPreset(const Scenario &s, const ModelPreset &preset, QString *note)
{
    Scenario out = s;
    out.presetId = preset.id;
    out.model = preset.shape;
    out.paramsOverride.reset();
    QString adjusted;
    if (out.model.arch == Arch::Gpt2 && out.seqLen > out.model.maxPositions) {
        adjusted = tr("sequence length %1 → %2, the length of %3's position table")
                       .arg(out.seqLen).arg(out.model.maxPositions).arg(preset.name);
        out.seqLen = out.model.maxPositions;
    }
    // Expert parallelism splits experts: a dense preset, or one whose experts it does not
    // divide, leaves none to split.
    if (out.ep > 1 && (!out.model.moe() || out.model.experts % out.ep != 0)) {
        if (!adjusted.isEmpty())
            adjusted += QStringLiteral("; ");
        adjusted += out.model.moe() ? tr("expert parallelism %1 → 1, which divides %2's %3 experts")
                                          .arg(out.ep).arg(preset.name).arg(out.model.experts)
                                    : tr("expert parallelism %1 → 1: %2 has no experts").arg(out.ep).arg(preset.name);
        out.ep = 1;
    }
    if (note)
        *note = adjusted;
    return out;
}

} // namespace napkin
