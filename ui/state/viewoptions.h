#pragma once

#include "ui/state/memoryaxis.h"
#include "ui/widgets/logrange.h"
#include "core/report/budget.h"
#include "core/model/scenario.h"
#include "core/text/units.h"

#include <QList>
#include <QString>

#include <optional>

namespace napkin::ui {

/// How the charts are shown, apart from the scenario: what an exported image must repeat
/// to look like the screen.
struct ViewOptions {
    ByteUnit unit = ByteUnit::GB;
    std::optional<LogRange> rooflineX;  ///< nullopt: fit the data
    std::optional<LogRange> rooflineY;
    QString overlayGpuId;               ///< empty: no second roofline
    MemoryAxisFocus memoryFocus = MemoryAxisFocus::AllStages;
    /// The Budget page's inputs (amount 0: the scenario's own training compute).
    BudgetRequest budget;
};

/// Which picture: one chart or the whole dashboard.
enum class ChartKind { Memory, Time, Roofline, Dashboard, StepTime, Layout, Budget, Serving };
constexpr int kChartKinds = 8;
static_assert(static_cast<int>(ChartKind::Serving) + 1 == kChartKinds);
/// Every picture File > Export offers, in menu order; the serving curve is inference mode's.
inline constexpr ChartKind kAllChartKinds[kChartKinds] = {ChartKind::Dashboard, ChartKind::Memory, ChartKind::Time,
                                                          ChartKind::Roofline, ChartKind::StepTime, ChartKind::Layout,
                                                          ChartKind::Budget, ChartKind::Serving};

/// The pictures `napkin export` writes for a scenario in `mode`, in menu order: every one, but
/// the serving curve only in inference mode.
inline QList<ChartKind> exportedChartKinds(Mode mode)
{
    QList<ChartKind> kinds;
    for (ChartKind kind : kAllChartKinds)
        if (kind != ChartKind::Serving || mode == Mode::Inference)
            kinds.append(kind);
    return kinds;
}

} // namespace napkin::ui
