#pragma once

#include "core/report/report.h"
#include "core/text/units.h"

#include <QTextStream>

namespace napkin {

/// `napkin report --mode inference`: the serving section (memory per GPU as the engine splits
/// it, the KV cache, time and throughput at the chosen concurrency, the serving curve).
void writeServing(QTextStream &t, const Report &r, ByteUnit unit);

} // namespace napkin
