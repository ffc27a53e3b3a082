#include "ui/views/chartrender.h"

#include "ui/widgets/chartview.h"
#include "ui/views/budgetpanel.h"
#include "ui/widgets/clippingdevice.h"
#include "ui/views/dashboard.h"
#include "ui/views/layoutpicture.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/servingcurve.h"
#include "ui/views/servingmemorypanel.h"
#include "ui/views/stagememorypanel.h"
#include "ui/views/steptimepanel.h"
#include "ui/views/timepanel.h"

#include <QApplication>
#include <QBuffer>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImageWriter>
#include <QLabel>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
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
                    QSize size, QWidget *parent)
{
    switch (kind) {
    case ChartKind::Memory: {
        if (report.inference) {
            auto *w = new ServingMemoryPanel(parent);
            w->setByteUnit(options.unit);
            w->setReport(report);
            return w;
        }
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
        // The step and, beside it on a landscape page (under it on a portrait one), where the
        // memory of each pipeline stage goes: stacked on 1600x1000 the two had not fitted, and
        // the stage chart lost its axis and legend.
        auto *w = new QWidget(parent);
        auto *layout = new QBoxLayout(size.width() > size.height() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom, w);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *step = new StepTimePanel(w);
        step->setExportMode(true);
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
    case ChartKind::Serving: {
        auto *w = new ServingCurvePanel(parent);
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

/// The SVG with its width and height in pixels ("800", "500"), matching its viewBox, instead of
/// the millimetres QSvgGenerator writes rounded to a thousandth (211.667mm is 800.001 pixels,
/// which a renderer rounds up to 801).
QByteArray svgInPixels(QByteArray svg, QSize size)
{
    const qsizetype start = svg.indexOf("<svg");
    const qsizetype end = start < 0 ? -1 : svg.indexOf('>', start);
    if (end < 0)
        return svg;
    QByteArray tag = svg.mid(start, end - start);
    static const QRegularExpression width(QStringLiteral("\\swidth=\"[^\"]*\""));
    static const QRegularExpression height(QStringLiteral("\\sheight=\"[^\"]*\""));
    QString text = QString::fromUtf8(tag);
    text.replace(width, QStringLiteral(" width=\"%1\"").arg(size.width()));
    text.replace(height, QStringLiteral(" height=\"%1\"").arg(size.height()));
    return svg.replace(start, end - start, text.toUtf8());
}

/// A chart's widget built off screen, laid out at `size` with its caption, ready to be
/// painted on any device.
class ChartFrame final
{
public:
    ChartFrame(ChartKind kind, const Report &report, const Catalog &catalog, const ViewOptions &options, QSize size,
               const QFont &font)
    {
        m_frame.setAttribute(Qt::WA_DontShowOnScreen);
        QFont f = font;
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * fontScaleFor(kind, size));
        else
            f.setPixelSize(static_cast<int>(f.pixelSize() * fontScaleFor(kind, size)));
        m_frame.setFont(f);
        m_frame.setAutoFillBackground(true);
        m_frame.setBackgroundRole(QPalette::Base);
        auto *layout = new QVBoxLayout(&m_frame);
        layout->setContentsMargins(8, 8, 8, 8);
        if (kind != ChartKind::Dashboard) {
            // A lone chart carries the scenario it was made from; the dashboard has its own line.
            auto *caption = new QLabel(scenarioSummary(report, catalog) + QLatin1Char('\n') + scenarioSettings(report),
                                       &m_frame);
            caption->setWordWrap(true);
            layout->addWidget(caption);
        }
        QWidget *chart = buildChart(kind, report, catalog, options, size, &m_frame);
        // The chart takes the page below the caption, never the height its parts would like:
        // asked for the sum of its parts' hints (the caption wraps, so the page is laid out
        // height-for-width), the step-time pair had run 37 px past a 1280x720 page.
        chart->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
        layout->addWidget(chart, 1);
        m_frame.resize(size);
        // Showing an off-screen widget runs polish, layouts and resize events like the real window.
        m_frame.show();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        // Charts wait for their first paint to fit their views (ChartView::resizeEvent); these
        // are rendered, so they fit now, and their own layouts follow.
        for (ChartView *view : m_frame.findChildren<ChartView *>())
            view->settle();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    }
    ~ChartFrame() { m_frame.hide(); }
    ChartFrame(const ChartFrame &) = delete;
    ChartFrame &operator=(const ChartFrame &) = delete;

    QColor background() const { return m_frame.palette().color(QPalette::Base); }
    /// Dots per inch the widgets' point sizes were resolved at: a vector device must use the
    /// same, or every text would be measured at one size and drawn at another.
    int dpi() const { return m_frame.logicalDpiY(); }

    void paint(QPainter &painter)
    {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        m_frame.render(&painter);
    }

    /// Before painting on a vector device: no graphics item may be drawn from a cached pixmap
    /// (BarLabels caches its labels so), or its text would reach the file as an image. With
    /// Qt 6.4 the labels came out as text without this too; it keeps them so in any version.
    /// The widgets' own caches (DrawingCache) draw directly on such a device by themselves.
    void dropItemCaches()
    {
        for (QGraphicsView *view : m_frame.findChildren<QGraphicsView *>()) {
            view->setCacheMode(QGraphicsView::CacheNone);
            if (view->scene())
                for (QGraphicsItem *item : view->scene()->items())
                    item->setCacheMode(QGraphicsItem::NoCache);
        }
    }

private:
    QWidget m_frame;
};

} // namespace

QImage renderChart(ChartKind kind, const Report &report, const Catalog &catalog, const ViewOptions &options,
                   QSize size, qreal scale, const QFont &font)
{
    ChartFrame frame(kind, report, catalog, options, size, font);
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(frame.background());
    {
        QPainter painter(&image);
        frame.paint(painter);
    }
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

Result<QByteArray> renderChartFile(ChartKind kind, const Report &report, const Catalog &catalog,
                                   const ViewOptions &options, QSize size, qreal scale, ImageFormat format,
                                   const QFont &font)
{
    if (format == ImageFormat::Png)
        return encodePng(renderChart(kind, report, catalog, options, size, scale, font));
    const auto fail = [](const QString &reason) { return Refusal{QString(), reason}; };
    ChartFrame frame(kind, report, catalog, options, size, font);
    frame.dropItemCaches();
    // Lengths are CSS pixels, 96 per inch, whatever the screen's dots per inch; the device
    // resolves point sizes at the screen's, as the widgets did.
    const int dpi = frame.dpi();
    const qreal devicePerPixel = dpi / 96.0;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const auto paint = [&](QPaintDevice *target, ClippingDevice::How how, const QTransform &toTarget) {
        ClippingDevice device(target, how, size, toTarget);
        QPainter painter;
        if (!painter.begin(&device))
            return false;
        frame.paint(painter);
        return painter.end();
    };
    if (format == ImageFormat::Svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(dpi);
        // The painter's units are the viewBox's, one per pixel. The generator writes width and
        // height as size * 25.4 / resolution mm, which svgInPixels() replaces by the pixels.
        svg.setSize(QSize(qRound(size.width() * devicePerPixel), qRound(size.height() * devicePerPixel)));
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chartTitle(kind));
        svg.setDescription(scenarioSummary(report, catalog));
        // Qt 6.4's generator writes no clip at all: the geometry is cut before it.
        if (!paint(&svg, ClippingDevice::How::Cut, QTransform()))
            return fail(QApplication::translate("napkin::ui::ChartRender", "the SVG generator did not start"));
        bytes = svgInPixels(bytes, size);
    } else {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(dpi);
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(size) * 0.75, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                      QPageLayout::Portrait, QMarginsF()));
        pdf.setTitle(chartTitle(kind));
        pdf.setCreator(QStringLiteral("Napkin " NAPKIN_VERSION));
        // The writer clips, but not to the system clip each widget is painted under.
        if (!paint(&pdf, ClippingDevice::How::Forward, QTransform::fromScale(devicePerPixel, devicePerPixel)))
            return fail(QApplication::translate("napkin::ui::ChartRender", "the PDF writer did not start"));
    }
    if (bytes.isEmpty())
        return fail(QApplication::translate("napkin::ui::ChartRender", "nothing was rendered"));
    return bytes;
}

QString chartFileName(ChartKind kind, ImageFormat format)
{
    QString base;
    switch (kind) {
    case ChartKind::Memory: base = QStringLiteral("memory"); break;
    case ChartKind::Time: base = QStringLiteral("time"); break;
    case ChartKind::Roofline: base = QStringLiteral("roofline"); break;
    case ChartKind::Dashboard: base = QStringLiteral("dashboard"); break;
    case ChartKind::StepTime: base = QStringLiteral("steptime"); break;
    case ChartKind::Layout: base = QStringLiteral("layout"); break;
    case ChartKind::Budget: base = QStringLiteral("budget"); break;
    case ChartKind::Serving: base = QStringLiteral("serving"); break;
    }
    return base + QLatin1Char('.') + imageFormatName(format);
}

QString chartTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Memory: return QApplication::translate("napkin::ui::ChartRender", "Memory chart");
    case ChartKind::Time: return QApplication::translate("napkin::ui::ChartRender", "Time and cost chart");
    case ChartKind::Roofline: return QApplication::translate("napkin::ui::ChartRender", "Roofline chart");
    case ChartKind::Dashboard: return QApplication::translate("napkin::ui::ChartRender", "Dashboard");
    case ChartKind::StepTime: return QApplication::translate("napkin::ui::ChartRender", "Step-time chart");
    case ChartKind::Layout: return QApplication::translate("napkin::ui::ChartRender", "Layout picture");
    case ChartKind::Budget: return QApplication::translate("napkin::ui::ChartRender", "Budget chart");
    case ChartKind::Serving: return QApplication::translate("napkin::ui::ChartRender", "Serving trade-off chart");
    }
    return {};
}

} // namespace napkin::ui
