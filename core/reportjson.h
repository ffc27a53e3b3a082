#pragma once

#include "report.h"

#include <QJsonObject>

namespace napkin {

/// `napkin report --json`: every figure in base units (bytes, FLOPs, FLOP/s, seconds).
QJsonObject reportToJson(const Report &r);

} // namespace napkin
