#pragma once

#include "core/model/recipe.h"
#include "core/model/scenario.h"
#include "core/workload/workload.h"

#include <QList>

#include <cstdint>

namespace napkin {

/// The workload of one micro-batch on one GPU of pipeline stage `stage`: its share of the
/// layers (and of the dense blocks), the embedding on the first stage, the head on the last,
/// and the parameters its optimizer updates (`optimizerParams`, per stage, after TP, PP, ZeRO).
WorkloadInput stageWorkload(const Scenario &s, const Recipe &recipe, std::int64_t stage,
                            const QList<double> &optimizerParams);

} // namespace napkin
