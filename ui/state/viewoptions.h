#pragma once

#include "ui/state/memoryaxis.h"
#include "ui/widgets/logrange.h"
#include "core/report/budget.h"
#include "core/text/units.h"

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
enum class ChartKind { Memory, Time, Roofline, Dashboard, StepTime, Layout, Budget };
constexpr int kChartKinds = 7;
static_assert(static_cast<int>(ChartKind::Budget) + 1 == kChartKinds);
/// Every picture File > Export and `napkin export` write, in menu order.
inline constexpr ChartKind kAllChartKinds[kChartKinds] = {ChartKind::Dashboard, ChartKind::Memory, ChartKind::Time,
                                                          ChartKind::Roofline, ChartKind::StepTime, ChartKind::Layout,
                                                          ChartKind::Budget};

} // namespace napkin::ui
