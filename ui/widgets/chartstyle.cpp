#include "ui/widgets/chartstyle.h"

#include "core/text/explain.h"
#include "core/workload/workload.h"

#include <QWidget>

#include <QAbstractAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

QChart *newChart()
{
    auto *chart = new QChart;
    chart->legend()->hide();
    return chart;
}

void styleChart(QChart *chart, const QFont &base)
{
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.15);
    chart->setTitleFont(title);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.95);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(small);
        axis->setTitleFont(base);
    }
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    // Never animated: a drag must show each value at once, and switching animations off at the
    // start of every drag and on again after it cost Qt Charts more than a frame each time.
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
}

void setChartTitle(QChart *chart, const QString &title)
{
    if (chart->title() != title)
        chart->setTitle(title);
}

namespace {
const char kFullTitle[] = "napkinFullTitle";
const char kCompactTitle[] = "napkinCompactTitle";

const char kTitleForms[] = "napkinTitleForms";

void fitChartTitle(QChart *chart)
{
    const QStringList forms = chart->property(kTitleForms).toStringList();
    if (forms.isEmpty())
        return;
    // Qt Charts elides a title wider than the chart less its margins, and measures it with
    // some padding of its own: keep two characters' width in hand. The first form that fits,
    // else the shortest.
    const QFontMetricsF fm(chart->titleFont());
    const qreal room = chart->size().width() - chart->margins().left() - chart->margins().right() - 16
                       - 2 * fm.averageCharWidth();
    QString chosen = forms.last();
    for (const QString &form : forms) {
        if (room <= 0 || fm.horizontalAdvance(form) <= room) {
            chosen = form;
            break;
        }
    }
    setChartTitle(chart, chosen);
}
} // namespace

void setFittingChartTitle(QChart *chart, const QString &full, const QString &compact)
{
    setFittingChartTitle(chart, QStringList{full, compact});
}

void setFittingChartTitle(QChart *chart, const QStringList &forms)
{
    chart->setProperty(kTitleForms, forms);
    fitChartTitle(chart);
}

void setFittingAxisTitle(QChart *chart, QAbstractAxis *axis, const QString &full, const QString &compact)
{
    axis->setProperty(kFullTitle, full);
    axis->setProperty(kCompactTitle, compact);
    if (axis->titleText().isEmpty() || (axis->titleText() != full && axis->titleText() != compact))
        axis->setTitleText(full);
    fitAxisTitles(chart);
}

void fitAxisTitles(QChart *chart)
{
    fitChartTitle(chart);
    fitLogAxisLabels(chart);
    const QRectF plot = chart->plotArea();
    for (QAbstractAxis *axis : chart->axes()) {
        const QString full = axis->property(kFullTitle).toString();
        if (full.isEmpty())
            continue;
        // Qt Charts elides an axis title to the plot's side it runs along.
        const qreal room = axis->orientation() == Qt::Vertical ? plot.height() : plot.width();
        bool fits = QFontMetricsF(axis->titleFont()).horizontalAdvance(full) <= room;
        if (axis->orientation() == Qt::Horizontal) {
            // A short plot gives its bottom title's line back to the bars. The test uses the
            // height the plot has with the title shown, so the choice cannot flip back and forth.
            const qreal titleLine = QFontMetricsF(axis->titleFont()).height();
            const qreal withTitle = plot.height() - (axis->titleText().isEmpty() ? titleLine : 0);
            fits = fits && withTitle >= 8 * QFontMetricsF(axis->labelsFont()).height();
        }
        const QString wanted = fits || plot.isEmpty() ? full : axis->property(kCompactTitle).toString();
        if (axis->titleText() != wanted)
            axis->setTitleText(wanted);
    }
}

namespace {
const char kLabelFitHooked[] = "napkinLabelFitHooked";
// Qt Charts gives each label of a horizontal axis the plot's width over the number of labels,
// less this padding on each side (ChartAxisElement's label padding), and elides what is wider.
constexpr qreal kLabelPadding = 5;
} // namespace

int logAxisBaseFor(const QLogValueAxis *axis, qreal plotWidth)
{
    if (!(axis->min() > 0) || !(axis->max() > axis->min()) || plotWidth <= 0)
        return 10;
    const QFontMetricsF metrics(axis->labelsFont());
    const QByteArray format = axis->labelFormat().toLatin1();
    for (const int base : {10, 100, 1000, 10000}) {
        const double step = std::log10(static_cast<double>(base));
        const double first = std::ceil(std::log10(axis->min()) / step - 1e-9);
        const double last = std::floor(std::log10(axis->max()) / step + 1e-9);
        const int count = static_cast<int>(last - first) + 1;
        if (count <= 1)
            return base;
        qreal widest = 0;
        for (double e = first; e <= last; ++e)
            widest = std::max(widest, metrics.horizontalAdvance(
                                          QString::asprintf(format.constData(), std::pow(10.0, e * step))));
        // Each label must fit the share Qt gives it, and also the distance between two ticks,
        // which is smaller where the range runs past the outer labels: three labels across 3.3
        // decades stand 0.3 of the plot apart, not a third (the budget page at text x2).
        const qreal spacing = plotWidth * step / (std::log10(axis->max()) - std::log10(axis->min()));
        if (widest + 2 * kLabelPadding <= std::min(plotWidth / count, spacing))
            return base;
    }
    return 10000;
}

int verticalLogAxisBaseFor(const QLogValueAxis *axis, qreal plotHeight)
{
    if (!(axis->min() > 0) || !(axis->max() > axis->min()) || plotHeight <= 0)
        return 10;
    // Qt Charts gives a vertical axis' label the height between two ticks and elides a taller
    // one to "…": a roofline zoomed out over thirty decades had read "…" at every tick.
    const qreal label = QFontMetricsF(axis->labelsFont()).height();
    const double decades = std::log10(axis->max()) - std::log10(axis->min());
    for (const int base : {10, 100, 1000, 10000}) {
        const double step = std::log10(static_cast<double>(base));
        if (label <= plotHeight * step / decades)
            return base;
    }
    return 10000;
}

void fitLogAxisLabels(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    for (QAbstractAxis *a : chart->axes()) {
        auto *axis = qobject_cast<QLogValueAxis *>(a);
        if (!axis)
            continue;
        // A zoom changes the labels too: refit on every range change.
        if (!axis->property(kLabelFitHooked).toBool()) {
            axis->setProperty(kLabelFitHooked, true);
            QObject::connect(axis, &QLogValueAxis::rangeChanged, chart, [chart] { fitLogAxisLabels(chart); });
        }
        const int base = axis->orientation() == Qt::Vertical ? verticalLogAxisBaseFor(axis, plot.height())
                                                              : logAxisBaseFor(axis, plot.width());
        if (axis->base() != base)
            axis->setBase(base);
    }
}

QString logLabelFormatFor(double lo, double hi)
{
    return hi >= 1e6 || (lo > 0 && lo < 1e-4) ? QStringLiteral("%.0e") : QStringLiteral("%g");
}

void keepLogLabelsAlike(QLogValueAxis *axis)
{
    const auto refit = [axis] {
        const QString format = logLabelFormatFor(axis->min(), axis->max());
        if (axis->labelFormat() != format)
            axis->setLabelFormat(format);
    };
    // Connected before fitLogAxisLabels() hooks the same signal: the labels' widths it
    // measures are the new format's.
    QObject::connect(axis, &QLogValueAxis::rangeChanged, axis, refit);
    refit();
}

bool axisCanStay(double wanted, double currentMax, bool dragging)
{
    return dragging && wanted <= currentMax && wanted >= 0.45 * currentMax;
}

double axisTopFor(double wanted, bool dragging)
{
    return dragging ? 1.5 * wanted : wanted;
}

double niceStep(double max, int intervals)
{
    const double raw = std::max(max, 1e-12) / intervals;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * decade >= raw)
            return m * decade;
    return 10 * decade;
}

void fitNiceRange(QValueAxis *axis, double top, int intervals)
{
    const double step = niceStep(top, intervals);
    const double max = std::max(step, std::ceil(top / step) * step);
    if (axis->max() == max && axis->tickInterval() == step)
        return;
    axis->setTickInterval(step);
    axis->setRange(0, max);
}

void styleLegend(QWidget *legend, const QFont &panelFont)
{
    QFont f = panelFont;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 0.9);
    else if (f.pixelSize() > 0)
        f.setPixelSize(std::max(1, static_cast<int>(f.pixelSize() * 0.9)));
    if (legend->font() != f)
        legend->setFont(f);
}

OpMarker opMarker(int kind)
{
    using S = QScatterSeries;
    static const OpMarker markers[] = {
        {S::MarkerShapeCircle, 10, false, QChar(0x25CF)},            // matmul ●
        {S::MarkerShapeTriangle, 10, false, QChar(0x25B2)},          // attention ▲
        {S::MarkerShapeRotatedRectangle, 9, false, QChar(0x25C6)},   // normalization ◆
        {S::MarkerShapeRectangle, 15, true, QChar(0x25A1)},          // elementwise □
        {S::MarkerShapePentagon, 17, true, QChar(0x2B20)},           // loss ⬠
        {S::MarkerShapeStar, 14, false, QChar(0x2605)},              // optimizer ★
    };
    return markers[kind % 6];
}

namespace palette {

// Colour-blind-safe set (Okabe & Ito 2008), in a fixed order so a colour always means one thing.
QColor component(int index)
{
    // Okabe-Ito colours for the model's own bytes, vermillion for what the framework adds; a
    // neutral grey for the reserved margin.
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                    QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xd5, 0x5e, 0x00), QColor(0x99, 0x99, 0x99)};
    static_assert(std::size(colors) == kMemoryComponents, "one colour per MemoryComponent");
    constexpr int count = static_cast<int>(std::size(colors));
    return colors[((index % count) + count) % count];
}

QColor opKind(int kind)
{
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0x56, 0xb4, 0xe9), QColor(0x44, 0x44, 0x44)};
    static_assert(std::size(colors) == kOpKinds, "one colour per OpKind");
    return colors[((kind % kOpKinds) + kOpKinds) % kOpKinds];
}

QColor faded(const QColor &c)
{
    QColor f = c;
    f.setAlpha(90);
    return f;
}

QColor capacity()
{
    return QColor(0xc0, 0x10, 0x10);
}

QColor highlight()
{
    return QColor(0xd5, 0x5e, 0x00);
}

QColor neutral()
{
    return QColor(0x7a, 0x8f, 0xa6);
}

QColor servingPart(int index)
{
    // The weights, activations and reserved bytes in the training chart's colours; the KV cache
    // purple, its free blocks a pale purple, so that the pool reads as one thing, part filled.
    static const QColor colors[] = {component(0), component(4), component(6), QColor(0x7b, 0x3f, 0x9e),
                                    QColor(0xd9, 0xc6, 0xea)};
    constexpr int count = static_cast<int>(std::size(colors));
    return colors[((index % count) + count) % count];
}

QColor prefill()
{
    return QColor(0x00, 0x72, 0xb2);
}

QColor decode()
{
    return QColor(0xd5, 0x5e, 0x00);
}

} // namespace palette

} // namespace napkin::ui
