#pragma once

#include "core/report/report.h"

#include <QString>

// The step-time breakdown's segments, as the window stacks them and explains them on hover.
namespace napkin {

/// One optimizer step on one GPU of the slowest stage, left to right.
enum class StepComponent { Matmul, Attention, Other, ModelComm, ExpertComm, DataComm, Offload, Bubble, Optimizer };
constexpr int kStepComponents = 9;
static_assert(static_cast<int>(StepComponent::Optimizer) + 1 == kStepComponents);

QString stepComponentName(StepComponent c);
/// The same, short enough for a legend on a projector ("TP/CP/PP comm", "Bubble").
QString stepComponentShortName(StepComponent c);
/// Seconds of the component in one step.
double stepComponentSeconds(const StepTimeReport &s, StepComponent c);
/// What hovering a segment shows: its seconds and the formula behind them with this
/// scenario's numbers, and the source.
QString stepSegmentText(const Report &r, StepComponent c);
/// "Step 5.06 s · estimated MFU 53.7%, HFU 53.7% · your MFU 40.0% · 1,234 tokens/s per GPU";
/// brief: "Step 5.06 s · MFU 53.7% · HFU 53.7% · 1,234 tok/s per GPU" (no stage, no utilisation set)
QString stepSummaryText(const Report &r, bool brief = false);
/// "Run: 66.0 days at your utilisation · 48.1 days estimated; the run's time uses ..."
QString stepRunText(const Report &r);
/// How far the uncalibrated estimate has been from published measured runs of the scenario's
/// kind of model (trackRecordFor), and what calibrating does: "Track record: on 43 published
/// dense runs (A100 80G, H100 SXM, B200) the estimate averaged 7.2% faster than measured
/// (19.0% faster to 3.5% slower). ..." Training only (empty when serving). Brief: the menu
/// item alone, without the command.
QString stepTrackRecordText(const Report &r, bool brief = false);
/// Its middle: "on 43 published dense runs (A100 80G, H100 SXM, B200) the estimate averaged
/// 7.2% faster than measured (19.0% faster to 3.5% slower)".
QString trackRecordPhrase(const Scenario &s);
/// An estimate's error (estimated / measured - 1) in words: "7.5% faster" is an estimate 7.5%
/// shorter than the measured step, "3.5% slower" one longer.
QString estimateErrorWords(double e);
/// "tp 8 · pp 4 · cp 1 · dp 2 · SP · 64 micro-batches": a layout in one line.
QString layoutLine(const Layout &l);

} // namespace napkin
