#pragma once

#include "core/model/scenario.h"

#include <QList>
#include <QString>

// How far the uncalibrated step estimate has been from published, measured training runs: what
// the estimate's user should expect before calibrating it on a run of their own.
namespace napkin {

/// The estimated step (time.step_seconds, uncalibrated) against one kind of published run, each
/// error estimated / measured - 1 (negative: the estimate was faster than the run). The table
/// is tests/tst_measuredtraining.cpp's, which recomputes these figures from its rows and fails
/// when a change to the model moves them, so the window's and the report's claim cannot go stale.
struct TrackRecord {
    QString kind;     ///< "dense" or "Mixture-of-Experts"
    QString gpus;     ///< the GPUs the runs ran on, short names in the table's order
    int runs = 0;
    double meanError = 0;     ///< signed, averaged over the runs
    double meanAbsError = 0;  ///< |error| averaged over the runs
    double lowest = 0;        ///< the most negative error (the estimate furthest too fast)
    double highest = 0;       ///< the most positive (furthest too slow)
};

/// Every kind, dense first.
const QList<TrackRecord> &trackRecords();
/// The record of the scenario's kind of model: Mixture-of-Experts when it has routed experts.
const TrackRecord &trackRecordFor(const Scenario &s);

} // namespace napkin
