#pragma once

#include "core/model/catalog.h"
#include "core/report/planner.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QString>

namespace napkin {

/// `napkin report`: the accounting as text a person reads top to bottom.
QString reportText(const Report &r, const Catalog &catalog, ByteUnit unit);

QString presetsText(const Catalog &catalog);
QString gpusText(const Catalog &catalog);
QString recipesText();
QString interconnectsText(const Catalog &catalog);
QString planText(const PlanReport &plan, ByteUnit unit);

} // namespace napkin
