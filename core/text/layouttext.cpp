#include "core/text/layouttext.h"

namespace napkin {

QString splitText(std::int64_t tp, std::int64_t pp, std::int64_t vpp, std::int64_t cp, std::int64_t dp,
                  std::int64_t ep, bool sp)
{
    QString text = QStringLiteral("tp %1 · pp %2").arg(tp).arg(pp);
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
    return splitText(l.tp, l.pp, l.vpp, l.cp, l.dp, l.ep, l.sp);
}

QString plannedLayoutText(const PlannedLayout &p)
{
    return splitText(p.tp, p.pp, p.vpp, p.cp, p.dp, p.ep, p.sp)
           + QStringLiteral(" · ZeRO %1 · b %2 · %3").arg(p.zeroStage).arg(p.microBatch).arg(recomputeName(p.recompute));
}

} // namespace napkin
