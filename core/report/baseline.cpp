#include "core/report/baseline.h"

#include <cmath>

namespace napkin {

Scenario withBaselinePinned(const Scenario &s)
{
    Scenario pinned = withoutBaseline(s);
    Scenario out = s;
    out.baseline.scenario = std::make_shared<const Scenario>(std::move(pinned));
    return out;
}

Scenario withoutBaseline(const Scenario &s)
{
    Scenario out = s;
    out.baseline.scenario.reset();
    return out;
}

std::optional<BaselineChange> baselineChange(const Report &report)
{
    if (!report.baseline)
        return std::nullopt;
    const Report &b = *report.baseline;
    // A pinned figure of 0 (nothing counted) has no relative change; say none.
    const auto change = [](double now, double then) { return then > 0 ? now / then - 1 : 0.0; };
    BaselineChange out{change(report.memory.perGpu.total(), b.memory.perGpu.total()),
                       change(report.time.seconds, b.time.seconds), std::nullopt};
    if (report.time.costUsd && b.time.costUsd)
        out.cost = change(*report.time.costUsd, *b.time.costUsd);
    return out;
}

QString signedPercent(double fraction)
{
    const double rounded = std::round(fraction * 100);
    if (rounded == 0)
        return QStringLiteral("±0%");
    return (rounded > 0 ? QStringLiteral("+") : QString(QChar(0x2212))) + QString::number(std::abs(rounded))
           + QLatin1Char('%');
}

QString baselineChangeText(const BaselineChange &change)
{
    QString text = QStringLiteral("%1 memory, %2 time").arg(signedPercent(change.memory), signedPercent(change.time));
    if (change.cost)
        text += QStringLiteral(", %1 cost").arg(signedPercent(*change.cost));
    return text;
}

} // namespace napkin
