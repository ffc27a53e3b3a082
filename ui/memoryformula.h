#pragma once

#include "memory.h"
#include "report.h"
#include "units.h"

#include <QString>

namespace napkin::ui {

/// The stacked components of the memory chart, bottom to top.
enum class MemoryComponent { Params, Grads, Optimizer, Activations };
constexpr int kMemoryComponents = 4;

QString componentName(MemoryComponent c);
double componentBytes(const MemoryBreakdown &m, MemoryComponent c);

/// What hovering one segment shows: its bytes and the formula that made them, with this
/// scenario's numbers substituted, and the source of the formula.
QString memorySegmentText(const Report &r, int zeroStage, MemoryComponent c, ByteUnit unit);

} // namespace napkin::ui
