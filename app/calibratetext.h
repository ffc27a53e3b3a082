#pragma once

#include "core/model/catalog.h"
#include "core/report/calibration.h"
#include "core/text/units.h"

#include <QJsonObject>
#include <QString>

namespace napkin {

/// `napkin calibrate`: each run measured, estimated before and after, the factors and the
/// efficiencies they imply, and each measured peak beside the estimate.
QString calibrationText(const Calibration &c, const QList<MeasuredRun> &runs, const Catalog &catalog, ByteUnit unit);

/// The same as JSON: {"calibration": the scenario file's object, "runs": [...with errors]}.
QJsonObject calibrationReportJson(const Calibration &c, const QList<MeasuredRun> &runs, const Catalog &catalog);

} // namespace napkin
