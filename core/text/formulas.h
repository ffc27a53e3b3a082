#pragma once

#include "core/model/fields.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QString>

// The "how this is computed" line: the formula behind the figure a user just moved, with this
// scenario's numbers filled in, for a strip that stays on screen (a projector has no hover).
namespace napkin {

/// Which formula a change from `before` to `after` is about: the topic of the field that changed
/// (ScenarioField::topic: shape -> parameters, tokens -> FLOPs, micro-batch / sequence / recompute
/// -> activations, GPUs / ZeRO / recipe -> model state, GPU model -> roofline, MFU / basis -> time,
/// price -> cost, and so on for every field). When fields of several topics change at once (a
/// preset, an offload that raises ZeRO), the first in that order wins. `current` when no field
/// changed.
FormulaTopic topicOfChange(const Scenario &before, const Scenario &after, FormulaTopic current);

/// One or two lines: the formula in symbols, then with the numbers, and its source.
QString formulaText(const Report &r, FormulaTopic topic, ByteUnit unit);

} // namespace napkin
