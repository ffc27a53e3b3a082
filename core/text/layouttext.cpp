#include "core/text/layouttext.h"

#include <QStringList>

namespace napkin {

QString splitText(std::int64_t tp, std::int64_t pp, std::int64_t vpp, std::int64_t cp, std::int64_t dp,
                  std::int64_t ep, bool sp, bool dualPipe)
{
    QString text = QStringLiteral("tp %1 · pp %2").arg(tp).arg(pp);
    if (dualPipe)
        text += QStringLiteral(" (DualPipe)");
    if (vpp > 1)
        text += QStringLiteral(" (vpp %1)").arg(vpp);
    text += QStringLiteral(" · cp %1 · dp %2").arg(cp).arg(dp);
    if (ep > 1)
        text += QStringLiteral(" · ep %1").arg(ep);
    if (sp)
        text += QStringLiteral(" · SP");
    return text;
}

QString splitText(const Layout &l)
{
    QString text = splitText(l.tp, l.pp, l.vpp, l.cp, l.dp, l.ep, l.sp, l.dualPipe);
    if (l.etp != l.tp)  // MoE parallel folding: the experts' own tensor parallelism
        text += QStringLiteral(" · etp %1").arg(l.etp);
    return text;
}

QString pipelineRankText(const Layout &l, std::int64_t rank)
{
    const std::vector<std::int64_t> stages = rankStages(l, rank);
    if (stages.size() == 2)
        return QStringLiteral("rank %1 (stages %2 and %3)").arg(rank).arg(stages.front()).arg(stages.back());
    return QStringLiteral("stage %1").arg(rank);
}

QString plannedSplitText(const PlannedLayout &p)
{
    return splitText(p.tp, p.pp, p.vpp, p.cp, p.dp, p.ep, p.sp)
           + (p.etp != p.tp ? QStringLiteral(" · etp %1").arg(p.etp) : QString());
}

QString plannedLayoutText(const PlannedLayout &p)
{
    return plannedSplitText(p)
           + QStringLiteral(" · ZeRO %1 · b %2 · %3").arg(p.zeroStage).arg(p.microBatch).arg(recomputeName(p.recompute));
}

QString plannedLayoutWords(const PlannedLayout &p)
{
    return QStringLiteral("%1 · ZeRO %2 · micro-batch %3 · %4")
        .arg(plannedSplitText(p))
        .arg(p.zeroStage)
        .arg(p.microBatch)
        .arg(p.recompute == Recompute::None ? QStringLiteral("no recompute")
                                            : QStringLiteral("%1 recompute").arg(recomputeName(p.recompute)));
}

QString plannedChangeText(const PlannedLayout &p, const Scenario &s, int most)
{
    QStringList parts;
    if (p.tp != s.tp)
        parts << QStringLiteral("tp %1").arg(p.tp);
    if (p.pp != s.pp || (p.pp > 1 && p.vpp != s.vpp))
        parts << (p.vpp > 1 ? QStringLiteral("pp %1 (vpp %2)").arg(p.pp).arg(p.vpp) : QStringLiteral("pp %1").arg(p.pp));
    if (p.cp != s.cp)
        parts << QStringLiteral("cp %1").arg(p.cp);
    if (p.ep != s.ep)
        parts << QStringLiteral("ep %1").arg(p.ep);
    if (p.etp != s.etp.value_or(s.tp) && p.etp != p.tp)
        parts << QStringLiteral("etp %1").arg(p.etp);
    if (p.sp && p.tp > 1 && !s.sequenceParallel)
        parts << QStringLiteral("SP");
    if (p.zeroStage != s.zeroStage)
        parts << QStringLiteral("ZeRO %1").arg(p.zeroStage);
    if (p.microBatch != s.microBatch)
        parts << QStringLiteral("micro-batch %1").arg(p.microBatch);
    if (p.recompute != s.recompute)
        parts << (p.recompute == Recompute::None ? QStringLiteral("no recompute")
                                                 : QStringLiteral("%1 recompute").arg(recomputeName(p.recompute)));
    if (parts.isEmpty())
        return plannedLayoutText(p);
    if (most > 0 && parts.size() > most) {
        parts.resize(most);
        parts << QStringLiteral("…");
    }
    return parts.join(QStringLiteral(" · "));
}

QString fitSuggestionText(const FitSuggestion &f, const Scenario &from, ByteUnit unit)
{
    QStringList parts;
    if (f.layout)
        parts << QStringLiteral("%1 (%2: %3 on the worst stage, step %4)")
                     .arg(plannedChangeText(*f.layout, from), plannedLayoutWords(*f.layout),
                          fmt::bytes(f.layout->worstStageBytes, unit), fmt::duration(f.layout->stepSeconds));
    if (f.lightest)
        parts << QStringLiteral("%1%2 (%3, step %4)")
                     .arg(f.layout ? QStringLiteral("or only ") : QString(), f.lightest->what,
                          fmt::bytes(f.lightest->worstStageBytes, unit), fmt::duration(f.lightest->stepSeconds));
    if (parts.isEmpty())
        return QStringLiteral("no layout of these GPUs and this global batch fits, and no single change does");
    return parts.join(QStringLiteral("; "));
}

} // namespace napkin
