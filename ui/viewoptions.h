#pragma once

#include "logrange.h"
#include "units.h"

#include <QString>

#include <optional>

namespace napkin::ui {

/// What the memory chart's value axis spans: every ZeRO stage's bar, or the chosen one and
/// the GPU's capacity, or the chosen one alone (so that a small chosen stage is not a sliver
/// under ZeRO 0's bar).
enum class MemoryAxisFocus { AllStages, ChosenAndCapacity, ChosenStage };

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
enum class ChartKind { Memory, Time, Roofline, Dashboard };

} // namespace napkin::ui
