#pragma once

#include "ui/state/memoryaxis.h"
#include "ui/widgets/logrange.h"
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
};

/// Which picture: one chart or the whole dashboard.
enum class ChartKind { Memory, Time, Roofline, Dashboard, StepTime, Layout };
constexpr int kChartKinds = 6;
static_assert(static_cast<int>(ChartKind::Layout) + 1 == kChartKinds);
/// Every picture File > Export and `napkin export` write, in menu order.
inline constexpr ChartKind kAllChartKinds[kChartKinds] = {ChartKind::Dashboard, ChartKind::Memory, ChartKind::Time,
                                                          ChartKind::Roofline, ChartKind::StepTime, ChartKind::Layout};

} // namespace napkin::ui
