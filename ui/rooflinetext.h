#pragma once

#include "roofline.h"

#include <QString>

namespace napkin::ui {

/// "QKV projection (backward)": an op's name with its phase, unique within a step.
QString opLabel(const RooflineOp &op);

/// What hovering an op shows: name, FLOPs, bytes, intensity, attainable FLOP/s and what
/// bounds it, all from the core's op table.
QString opTooltip(const RooflineOp &op, const RooflineReport &roofline);

/// A display name for an op kind ("Matmul", "Normalization").
QString opKindTitle(OpKind kind);

} // namespace napkin::ui
