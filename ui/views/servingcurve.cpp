#include "ui/views/servingcurve.h"

#include "core/text/units.h"
#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/legendstrip.h"
#include "ui/widgets/logrange.h"

#include <QChart>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <cmath>

namespace napkin::ui {

namespace {
constexpr double kMs = ServingCurvePanel::kSecondsPerAxisUnit;
constexpr double kHoverRadiusPx = 9;

QString rate(double tokensPerS)
{
    return ServingCurvePanel::tr("%1 tok/s").arg(fmt::number(tokensPerS));
}
} // namespace

ServingCurvePanel::ServingCurvePanel(QWidget *parent)
    : QWidget(parent),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_legend(new LegendStrip(this)),
      m_curve(new QLineSeries),
      m_points(new QScatterSeries),
      m_chosen(new QScatterSeries),
      m_axisX(new QLogValueAxis),
      m_axisY(new QLogValueAxis),
      m_label(new QGraphicsSimpleTextItem(m_chart))
{
    m_view->setAccessibleName(tr("Serving trade-off chart"));
    m_chart->setObjectName(QStringLiteral("servingChart"));
    m_view->scene()->setObjectName(QStringLiteral("servingScene"));
    m_view->setMinimumSize(240, 180);
    m_curve->setPen(QPen(palette::neutral().darker(130), 2));
    m_points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_points->setColor(palette::neutral().darker(130));
    m_points->setBorderColor(Qt::white);
    m_chosen->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_chosen->setColor(palette::highlight());
    m_chosen->setBorderColor(Qt::black);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_axisX), static_cast<QAbstractAxis *>(m_axisY)}) {
        static_cast<QLogValueAxis *>(axis)->setBase(10);
        keepLogLabelsAlike(static_cast<QLogValueAxis *>(axis));
        static_cast<QLogValueAxis *>(axis)->setMinorTickCount(8);
    }
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    for (QXYSeries *series : {static_cast<QXYSeries *>(m_curve), static_cast<QXYSeries *>(m_points),
                              static_cast<QXYSeries *>(m_chosen)}) {
        m_chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    }
    setFittingAxisTitle(m_chart, m_axisX, tr("Time per output token (ms)"), tr("TPOT (ms)"));
    setFittingAxisTitle(m_chart, m_axisY, tr("Output tokens/s, all GPUs"), tr("tok/s"));
    m_label->setZValue(12);
    m_legend->setAccessibleName(tr("Serving chart legend"));
    restyle();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    connect(m_chart, &QChart::plotAreaChanged, this, &ServingCurvePanel::placeLabel);
    connect(m_view, &ChartView::hovered, this, &ServingCurvePanel::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
}

void ServingCurvePanel::setReport(const Report &report)
{
    m_report = report;
    if (!report.inference) {
        // Training mode: nothing to draw, and the title says where the curve comes from.
        m_curve->clear();
        m_points->clear();
        m_chosen->clear();
        m_label->setText(QString());
        setFittingChartTitle(m_chart, tr("Serving trade-off: switch to Inference mode"), tr("Inference mode only"));
        m_legend->setEntries({});
        return;
    }
    const InferenceReport &inf = *report.inference;
    QList<QPointF> points;
    double loX = inf.tpotSeconds / kMs, hiX = loX, loY = inf.outputTokensPerS, hiY = loY;
    for (const ServingPoint &p : inf.curve) {
        const QPointF point(p.tpotSeconds / kMs, p.outputTokensPerS);
        if (!(point.x() > 0) || !(point.y() > 0) || !std::isfinite(point.x()) || !std::isfinite(point.y()))
            continue;  // a log axis has no place for zero
        points.append(point);
        loX = std::min(loX, point.x());
        hiX = std::max(hiX, point.x());
        loY = std::min(loY, point.y());
        hiY = std::max(hiY, point.y());
    }
    m_curve->replace(points);
    m_points->replace(points);
    m_chosen->replace(QList<QPointF>{{inf.tpotSeconds / kMs, inf.outputTokensPerS}});
    const LogRange x = LogRange::decadesAround(loX, hiX, 0.05);
    const LogRange y = LogRange::decadesAround(loY, hiY, 0.05);
    m_axisX->setRange(x.lo, x.hi);
    m_axisY->setRange(y.lo, y.hi);
    setFittingChartTitle(m_chart, tr("Serving: throughput against time per token"), tr("Serving trade-off"));
    m_label->setText(chosenLabel());
    const std::int64_t first = inf.curve.isEmpty() ? 1 : inf.curve.first().concurrency;
    m_legend->setEntries({
        {palette::neutral().darker(130),
         tr("concurrency %1 to %2 (max), doubling").arg(fmt::count(first)).arg(fmt::count(inf.maxConcurrency)), QChar(0x25CF)},
        {palette::highlight(),
         tr("chosen %1: %2, TPOT %3, end-to-end %4")
             .arg(fmt::count(inf.concurrency))
             .arg(rate(inf.outputTokensPerS), fmt::duration(inf.tpotSeconds), fmt::duration(inf.e2eSeconds))},
    });
    placeLabel();
}

QString ServingCurvePanel::chosenLabel() const
{
    if (!m_report || !m_report->inference)
        return {};
    const InferenceReport &inf = *m_report->inference;
    return tr("%1 seq: %2").arg(fmt::count(inf.concurrency)).arg(rate(inf.outputTokensPerS));
}

QRectF ServingCurvePanel::chosenLabelRect() const
{
    return m_label->text().isEmpty() ? QRectF() : m_label->mapRectToParent(m_label->boundingRect());
}

QString ServingCurvePanel::legendText() const
{
    return m_legend->plainText();
}

void ServingCurvePanel::placeLabel()
{
    if (m_chosen->count() == 0 || m_label->text().isEmpty())
        return;
    const QRectF area = m_chart->plotArea();
    const QPointF at = m_chart->mapToPosition(m_chosen->at(0), m_chosen);
    // The curve and its points as drawn, sampled every two pixels: the label goes where it
    // covers the fewest of them (at the last, steep points of a curve that turns up at the
    // right, "above and left" laid the words across the line).
    QList<QPointF> drawn{at};
    const QList<QPointF> points = m_curve->points();
    for (int i = 0; i < points.size(); ++i) {
        const QPointF b = m_chart->mapToPosition(points[i], m_curve);
        drawn.append(b);
        if (i == 0)
            continue;
        const QPointF a = m_chart->mapToPosition(points[i - 1], m_curve);
        const int steps = std::min(400, static_cast<int>(QLineF(a, b).length() / 2));
        for (int k = 1; k < steps; ++k)
            drawn.append(a + (b - a) * (static_cast<double>(k) / steps));
    }
    const double gap = 8;
    const double markerRoom = m_points->markerSize() / 2 + 2;
    // One line, or where that crosses the curve whatever its place (a steep curve ending in a
    // corner of the plot), two narrower ones.
    const QString oneLine = chosenLabel();
    QString twoLines = oneLine;
    twoLines.replace(QStringLiteral(": "), QStringLiteral(":\n"));
    QString bestText = oneLine;
    QPointF bestAt;
    int fewest = std::numeric_limits<int>::max();
    for (const QString &words : {oneLine, twoLines}) {
        m_label->setText(words);
        const QRectF text = m_label->boundingRect();
        const auto inside = [&](double x, double y) {
            return QRectF(std::clamp(x, area.left() + 2, std::max(area.left() + 2, area.right() - text.width() - 2)),
                          std::clamp(y, area.top() + 2, std::max(area.top() + 2, area.bottom() - text.height() - 2)),
                          text.width(), text.height());
        };
        // In order of preference: above and left of the point, below and right, above and
        // right, below and left, then a line higher or lower.
        const QList<QRectF> candidates{
            inside(at.x() - text.width() - gap, at.y() - text.height() - 4),
            inside(at.x() + gap, at.y() + 4),
            inside(at.x() + gap, at.y() - text.height() - 4),
            inside(at.x() - text.width() - gap, at.y() + 4),
            inside(at.x() - text.width() / 2, at.y() - 2 * text.height() - 4),
            inside(at.x() - text.width() / 2, at.y() + text.height() + 4),
        };
        for (const QRectF &candidate : candidates) {
            const QRectF keepOut = candidate.adjusted(-markerRoom, -markerRoom, markerRoom, markerRoom);
            const int covered = static_cast<int>(
                std::count_if(drawn.cbegin(), drawn.cend(), [&](const QPointF &p) { return keepOut.contains(p); }));
            if (covered < fewest) {
                fewest = covered;
                bestText = words;
                bestAt = candidate.topLeft();
            }
            if (fewest == 0)
                break;
        }
        if (fewest == 0)
            break;
    }
    if (m_label->text() != bestText)
        m_label->setText(bestText);
    m_label->setPos(bestAt);
}

void ServingCurvePanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    m_hoverText.clear();
    if (m_report && m_report->inference) {
        const InferenceReport &inf = *m_report->inference;
        for (const ServingPoint &p : inf.curve) {
            const QPointF d = m_chart->mapToPosition({p.tpotSeconds / kMs, p.outputTokensPerS}, m_points) - chartPos;
            if (d.x() * d.x() + d.y() * d.y() > kHoverRadiusPx * kHoverRadiusPx)
                continue;
            m_hoverText = tr("%1 sequences per replica: %2 (all %3 replicas)\nTTFT %4 · TPOT %5 · end-to-end %6")
                              .arg(fmt::count(p.concurrency))
                              .arg(rate(p.outputTokensPerS))
                              .arg(inf.replicas)
                              .arg(fmt::duration(p.ttftSeconds), fmt::duration(p.tpotSeconds), fmt::duration(p.e2eSeconds));
            break;
        }
    }
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

void ServingCurvePanel::restyle()
{
    styleChart(m_chart, font());
    styleLegend(m_legend, font());
    m_label->setFont(m_axisX->labelsFont());
    m_label->setBrush(palette::highlight().darker(140));
    const double line = QFontMetricsF(font()).height();
    m_points->setMarkerSize(std::max(7.0, line * 0.5));
    m_chosen->setMarkerSize(std::max(12.0, line * 0.8));
    placeLabel();
}

void ServingCurvePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        restyle();
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
