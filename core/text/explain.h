#pragma once

#include "core/run/memory.h"
#include "core/report/report.h"
#include "core/run/roofline.h"
#include "core/text/units.h"

#include <QList>
#include <QString>

// What hovering a chart explains, as text for people: the numbers of one memory segment or
// one roofline op with the formula and source behind them.
namespace napkin {

/// The stacked components of the memory chart, bottom to top.
enum class MemoryComponent { Params, Grads, Optimizer, Experts, Activations, Framework, Reserved };
constexpr int kMemoryComponents = 7;
static_assert(static_cast<int>(MemoryComponent::Reserved) + 1 == kMemoryComponents);

QString componentName(MemoryComponent c);
/// The same, short enough for a legend on a projector ("Params", "Optimizer + master").
QString componentShortName(MemoryComponent c);
double componentBytes(const MemoryBreakdown &m, MemoryComponent c);

/// What hovering one segment shows: its bytes and the formula that made them, with this
/// scenario's numbers substituted, and the source of the formula.
QString memorySegmentText(const Report &r, int zeroStage, MemoryComponent c, ByteUnit unit);

/// "QKV projection (backward)": an op's name with its phase, unique within a step.
QString opLabel(const RooflineOp &op);

/// What hovering an op shows: name, FLOPs, bytes, intensity, attainable FLOP/s and what
/// bounds it, all from the core's op table.
QString opTooltip(const RooflineOp &op, const RooflineReport &roofline);
/// The fraction of the bottom-up step time an op takes: count x seconds / stepSeconds.
double opStepShare(const RooflineOp &op, const RooflineReport &r);
/// The same summed over each OpKind, in OpKind order.
QList<double> kindStepShares(const RooflineReport &r);
/// Every op under the cursor, nearest first: one line each with its share of the step time,
/// then the nearest one's full explanation (opTooltip). One op: opTooltip and its share.
QString opsTooltip(const QList<int> &opIndices, const RooflineReport &r);
/// "Roofline bound: step 41.2 ms · implied MFU 52.3%": the bottom-up time of one step with
/// every op at its roofline (sum of max(FLOPs/peak, bytes/bandwidth) over the ops) and model
/// FLOPs over that time at peak; with `gpu`, "H200 roofline bound: …" (a compared GPU's).
QString stepSummary(const RooflineReport &r, const QString &gpu = {});

/// A display name for an op kind ("Matmul", "Normalization").
QString opKindTitle(OpKind kind);

} // namespace napkin
