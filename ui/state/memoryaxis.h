#pragma once

// A view setting, not a figure: it lives in ui/, and the command line (app/) reads it for
// `--memory-axis`. Header only and free of widgets, so the command-line library needs no Qt GUI.

namespace napkin {

/// What the memory chart's value axis spans: every ZeRO stage's bar, or the chosen one and
/// the GPU's capacity, or the chosen one alone (so that a small chosen stage is not a sliver
/// under ZeRO 0's bar). The window's Axis button and `--memory-axis all|capacity|chosen`.
enum class MemoryAxisFocus { AllStages, ChosenAndCapacity, ChosenStage };

} // namespace napkin
