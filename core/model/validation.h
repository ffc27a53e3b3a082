#pragma once

#include "core/model/limits.h"
#include "core/model/refusal.h"
#include "core/model/scenario.h"

#include <optional>

namespace napkin {


/// Checks a shape on its own: ranges, heads divide d_model, kv_heads divide heads.
std::optional<Refusal> validateShape(const ModelShape &m);

/// Checks a whole scenario (shape, run, and that gpt2 sequences fit its position table).
/// Catalog ids (gpu, recipe, preset) are checked where the catalog is known.
std::optional<Refusal> validateScenario(const Scenario &s);

/// The serving rules a scenario must follow beyond each field's range (mode inference only):
/// prompt + output within max_positions, a model with a shape, no context parallelism.
std::optional<Refusal> validateServing(const Scenario &s);

} // namespace napkin
