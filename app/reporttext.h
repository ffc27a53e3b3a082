#pragma once

#include "catalog.h"
#include "report.h"
#include "units.h"

#include <QString>

namespace napkin {

/// `napkin report`: the accounting as text a person reads top to bottom.
QString reportText(const Report &r, const Catalog &catalog, ByteUnit unit);

QString presetsText(const Catalog &catalog);
QString gpusText(const Catalog &catalog);
QString recipesText();

} // namespace napkin
