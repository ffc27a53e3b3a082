#pragma once

#include "core/model/catalog.h"
#include "core/model/scenario.h"
#include "core/report/budget.h"
#include "core/text/units.h"
#include "ui/state/imageformat.h"
#include "ui/state/memoryaxis.h"

#include <QSize>
#include <QString>

#include <optional>

namespace napkin::ui {

/// Shows the main window starting from `initial` if given, else from the last saved scenario (QSettings), else defaults; returns QApplication::exec().
/// `unit` and `memoryAxis`, when given, replace the remembered view settings.
int runMainWindow(const Catalog &catalog, const std::optional<Scenario> &initial,
                  std::optional<ByteUnit> unit = std::nullopt, std::optional<MemoryAxisFocus> memoryAxis = std::nullopt);

/// Writes one file per chart kind (kAllChartKinds, named by chartFileName()) in `format` into
/// `dir`, created if missing, at `size` pixels each. All are made in memory before any is
/// written, then written together (writeFilesAtomically): a failure leaves no file half-written
/// and refuses with the path and the reason (QImageWriter::errorString() or the system's).
/// `scale` device pixels per logical pixel (limits::minExportScale to maxExportScale) as in the
/// export dialog; checked for every format, it changes only PNGs (renderChartFile()).
/// `unit` and `memoryAxis` as View > GiB and the memory chart's Axis button; `budget` as the
/// Budget page's inputs (amount 0: the scenario's own training compute).
std::optional<Refusal> exportCharts(const Catalog &catalog, const Scenario &scenario, const QString &dir, QSize size,
                                    int scale = 1, ByteUnit unit = ByteUnit::GB,
                                    MemoryAxisFocus memoryAxis = MemoryAxisFocus::AllStages,
                                    ImageFormat format = ImageFormat::Png, const BudgetRequest &budget = {});

} // namespace napkin::ui
