#pragma once

#include "core/model/catalog.h"
#include "core/model/scenario.h"
#include "core/text/units.h"

#include <QSize>
#include <QString>

#include <optional>

namespace napkin::ui {

/// Shows the main window starting from `initial` if given, else from the last saved scenario (QSettings), else defaults; returns QApplication::exec().
/// `unit` and `memoryAxis`, when given, replace the remembered view settings.
int runMainWindow(const Catalog &catalog, const std::optional<Scenario> &initial,
                  std::optional<ByteUnit> unit = std::nullopt, std::optional<MemoryAxisFocus> memoryAxis = std::nullopt);

/// Writes memory.png, time.png, roofline.png and dashboard.png into `dir` (created if missing) at `size` pixels each; false + a clear message (naming the path and QImageWriter::errorString()) on failure. No file is left half-written (write to QSaveFile or a temp name then rename).
/// `scale` device pixels per logical pixel (limits::minExportScale to maxExportScale) as in the export dialog.
/// `unit` and `memoryAxis` as View > GiB and the memory chart's Axis button.
bool exportCharts(const Catalog &catalog, const Scenario &scenario, const QString &dir, QSize size, QString *error,
                  int scale = 1, ByteUnit unit = ByteUnit::GB, MemoryAxisFocus memoryAxis = MemoryAxisFocus::AllStages);

} // namespace napkin::ui
