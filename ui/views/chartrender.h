#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"
#include "ui/state/imageformat.h"
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

/// The chart as the bytes of a whole file in `format`, made in memory (nothing is written):
/// a PNG of renderChart(), or an SVG or PDF painted from the same widgets with every text kept
/// as text. SVG and PDF are `size` pixels at 96 per inch (an SVG's viewBox is 0 0 W H, its
/// width and height W x H CSS pixels written in mm; a PDF page is 0.75 W x 0.75 H points);
/// `scale` is for pixels only and leaves a vector file as it is.
Result<QByteArray> renderChartFile(ChartKind kind, const Report &report, const Catalog &catalog,
                                   const ViewOptions &options, QSize size, qreal scale, ImageFormat format,
                                   const QFont &font = QFont());

/// "memory.png", "time.svg", "roofline.pdf", ...: the chart's name with the format's suffix.
QString chartFileName(ChartKind kind, ImageFormat format = ImageFormat::Png);
/// "Memory chart", ... for menus.
QString chartTitle(ChartKind kind);

} // namespace napkin::ui
