#pragma once

#include "core/model/catalog.h"
#include "core/report/planner.h"
#include "core/report/report.h"
#include "core/report/suggestion.h"
#include "core/text/units.h"

#include <QString>

namespace napkin {

/// `napkin report`: the accounting as text a person reads top to bottom.
/// With `suggestion` (suggestFit()), a run that does not fit gets a "Fits with:" line.
QString reportText(const Report &r, const Catalog &catalog, ByteUnit unit,
                   const std::optional<FitSuggestion> &suggestion = std::nullopt);

QString presetsText(const Catalog &catalog);
QString gpusText(const Catalog &catalog);
QString recipesText();
QString interconnectsText(const Catalog &catalog);
QString planText(const PlanReport &plan, ByteUnit unit);

} // namespace napkin
