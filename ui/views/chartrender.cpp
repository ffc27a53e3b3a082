#include "ui/views/chartrender.h"

#include "ui/widgets/chartview.h"
#include "ui/views/budgetpanel.h"
#include "ui/views/dashboard.h"
#include "ui/views/layoutpicture.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/stagememorypanel.h"
#include "ui/views/steptimepanel.h"
#include "ui/views/timepanel.h"

#include "core/io/safefile.h"
#include "core/model/validation.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QImageWriter>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

namespace napkin::ui {

namespace {

// Text keeps the proportions it has at the size the layout was designed for, so a large
// export is not a small chart with tiny labels.
double fontScaleFor(ChartKind kind, QSize size)
{
    const QSize designed = kind == ChartKind::Dashboard ? QSize(1280, 720) : QSize(800, 500);
    const double s = std::min(static_cast<double>(size.width()) / designed.width(),
                              static_cast<double>(size.height()) / designed.height());
    return std::clamp(s, 1.0, 3.0);
}

QWidget *buildChart(ChartKind kind, const Report &report, const Catalog &catalog, const ViewOptions &options,
                    QWidget *parent)
{
    switch (kind) {
    case ChartKind::Memory: {
        auto *w = new MemoryPanel(parent);
        w->setToolbarVisible(false);
        w->setByteUnit(options.unit);
        w->setAxisFocus(options.memoryFocus);
        w->setReport(report);
        return w;
    }
    case ChartKind::Time: {
        auto *w = new TimePanel(catalog, parent);
        w->setFiguresAbove(true);
        w->setReport(report);
        return w;
    }
    case ChartKind::Roofline: {
        auto *w = new RooflinePanel(catalog, parent);
        w->setToolbarVisible(false);
        w->setReport(report);
        w->setOverlayGpu(options.overlayGpuId);
        w->setRanges(options.rooflineX, options.rooflineY);
        return w;
    }
    case ChartKind::Dashboard: {
        auto *w = new Dashboard(catalog, parent);
        w->setExportMode(true);
        w->setReport(report);
        w->setViewOptions(options);
        return w;
    }
    case ChartKind::StepTime: {
        // The step and, beside it, where the memory of each pipeline stage goes.
        auto *w = new QWidget(parent);
        auto *layout = new QVBoxLayout(w);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *step = new StepTimePanel(w);
        step->setReport(report);
        layout->addWidget(step, 1);
        if (report.layout.pp > 1) {
            auto *stages = new StageMemoryPanel(w);
            stages->setByteUnit(options.unit);
            stages->setReport(report);
            layout->addWidget(stages, 1);
        }
        return w;
    }
    case ChartKind::Layout: {
        auto *w = new LayoutPicture(parent);
        w->setReport(report);
        return w;
    }
    case ChartKind::Budget: {
        auto *w = new BudgetPanel(catalog, parent);
        w->setInputsVisible(false);
        w->setRequest(options.budget);
        w->setReport(report);
        return w;
    }
    }
    return nullptr;
}

} // namespace

QImage renderChart(ChartKind kind, const Report &report, const Catalog &catalog, const ViewOptions &options,
                   QSize size, qreal scale, const QFont &font)
{
    QWidget frame;
    frame.setAttribute(Qt::WA_DontShowOnScreen);
    QFont f = font;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * fontScaleFor(kind, size));
    else
        f.setPixelSize(static_cast<int>(f.pixelSize() * fontScaleFor(kind, size)));
    frame.setFont(f);
    frame.setAutoFillBackground(true);
    frame.setBackgroundRole(QPalette::Base);
    auto *layout = new QVBoxLayout(&frame);
    layout->setContentsMargins(8, 8, 8, 8);
    if (kind != ChartKind::Dashboard) {
        // A lone chart carries the scenario it was made from; the dashboard has its own line.
        auto *caption = new QLabel(scenarioSummary(report, catalog) + QLatin1Char('\n') + scenarioSettings(report), &frame);
        caption->setWordWrap(true);
        layout->addWidget(caption);
    }
    QWidget *chart = buildChart(kind, report, catalog, options, &frame);
    layout->addWidget(chart, 1);
    frame.resize(size);
    // Showing an off-screen widget runs polish, layouts and resize events like the real window.
    frame.show();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);

    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(frame.palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        frame.render(&painter);
    }
    frame.hide();
    return image;
}

Result<QByteArray> encodePng(const QImage &image)
{
    const auto fail = [](const QString &reason) { return Refusal{QString(), reason}; };
    if (image.isNull())
        return fail(QApplication::translate("napkin::ui::ChartRender", "nothing was rendered"));
    // Encoded in memory, so a full disk is met by one checked write, never inside libpng.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        return fail(writer.errorString());
    return bytes;
}

std::optional<Refusal> writePng(const QImage &image, const QString &path)
{
    const auto png = encodePng(image);
    if (!png.ok())
        return Refusal{QString(), QApplication::translate("napkin::ui::ChartRender", "cannot write %1: %2")
                                      .arg(printable(QDir::toNativeSeparators(path)), png.refusal().message())};
    return writeFileAtomically(path, *png);
}

QString chartFileName(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Memory: return QStringLiteral("memory.png");
    case ChartKind::Time: return QStringLiteral("time.png");
    case ChartKind::Roofline: return QStringLiteral("roofline.png");
    case ChartKind::Dashboard: return QStringLiteral("dashboard.png");
    case ChartKind::StepTime: return QStringLiteral("steptime.png");
    case ChartKind::Layout: return QStringLiteral("layout.png");
    case ChartKind::Budget: return QStringLiteral("budget.png");
    }
    return {};
}

QString chartTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Memory: return QApplication::translate("napkin::ui::ChartRender", "Memory chart");
    case ChartKind::Time: return QApplication::translate("napkin::ui::ChartRender", "Training time chart");
    case ChartKind::Roofline: return QApplication::translate("napkin::ui::ChartRender", "Roofline chart");
    case ChartKind::Dashboard: return QApplication::translate("napkin::ui::ChartRender", "Dashboard");
    case ChartKind::StepTime: return QApplication::translate("napkin::ui::ChartRender", "Step-time chart");
    case ChartKind::Layout: return QApplication::translate("napkin::ui::ChartRender", "Layout picture");
    case ChartKind::Budget: return QApplication::translate("napkin::ui::ChartRender", "Budget chart");
    }
    return {};
}

} // namespace napkin::ui
