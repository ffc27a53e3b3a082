#pragma once

#include "catalog.h"
#include "scenario.h"

#include <QString>

#include <cstdint>

namespace napkin {

/// The divisor of `n` nearest to `target` (ties go to the larger), at most `limit`.
std::int64_t nearestDivisor(std::int64_t n, std::int64_t target, std::int64_t limit);

/// Sets d_model and keeps the shape valid: heads become the nearest divisor of the new width,
/// kv heads the nearest divisor of the heads (multi-head attention stays multi-head), and
/// d_ff keeps its ratio to d_model when `keepFfRatio`. `note` says what changed besides width.
ModelShape followWidth(const ModelShape &m, std::int64_t dModel, bool keepFfRatio, QString *note);

/// Sets heads and keeps kv heads dividing them (multi-head attention stays multi-head).
ModelShape followHeads(const ModelShape &m, std::int64_t heads, QString *note);

/// Fills every model field from a preset; a gpt2 sequence longer than the preset's position
/// table is shortened to it. `note` says what was adjusted.
Scenario applyPreset(const Scenario &s, const ModelPreset &preset, QString *note);

} // namespace napkin
