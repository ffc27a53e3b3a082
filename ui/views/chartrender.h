#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"
#include "ui/state/viewoptions.h"

#include <QByteArray>
#include <QFont>
#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace napkin::ui {

/// The one way a chart becomes a picture, used by File > Export, Copy and `napkin export`:
/// builds the chart's widget afresh off screen for `report`, lays it out at `size` logical
/// pixels and paints it at `scale` device pixels per logical pixel (2 for slides).
QImage renderChart(ChartKind kind, const Report &report, const Catalog &catalog, const ViewOptions &options,
                   QSize size, qreal scale = 1, const QFont &font = QFont());

/// The image as PNG bytes, encoded in memory, or the encoder's reason.
Result<QByteArray> encodePng(const QImage &image);

/// Writes a PNG atomically (writeFileAtomically): the complete image or nothing, the previous
/// file untouched. A refusal names the path and the system's reason.
std::optional<Refusal> writePng(const QImage &image, const QString &path);

/// "memory.png", "time.png", "roofline.png", "dashboard.png".
QString chartFileName(ChartKind kind);
/// "Memory chart", ... for menus.
QString chartTitle(ChartKind kind);

} // namespace napkin::ui
