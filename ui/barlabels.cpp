#include "barlabels.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
// Gap between the axis line and the labels, and around the chart, as styleChart() leaves it.
constexpr double kGapPx = 5;
constexpr int kChartMarginPx = 4;
} // namespace

BarLabels::BarLabels(QChart *chart, QAbstractBarSeries *series, QAbstractAxis *axis, const QStringList &texts)
    : QObject(chart), m_chart(chart), m_series(series), m_axis(axis), m_texts(texts)
{
    m_axis->setLabelsVisible(false);
    for (const QString &text : texts) {
        auto *item = new QGraphicsSimpleTextItem(text, chart);
        item->setZValue(10);
        m_items.append(item);
    }
    restyle();
    connect(m_chart, &QChart::plotAreaChanged, this, &BarLabels::place);
}

void BarLabels::restyle()
{
    for (QGraphicsSimpleTextItem *item : m_items) {
        item->setFont(m_axis->labelsFont());
        item->setBrush(m_axis->labelsBrush());
    }
    place();
}

QList<QPolygonF> BarLabels::labelShapes() const
{
    QList<QPolygonF> shapes;
    for (const QGraphicsSimpleTextItem *item : m_items)
        shapes.append(item->mapToParent(item->boundingRect()));
    return shapes;
}

void BarLabels::place()
{
    const QRectF area = m_chart->plotArea();
    if (m_items.isEmpty() || area.width() <= 0)
        return;
    const QFontMetricsF metrics(m_axis->labelsFont());
    double widest = 0;
    for (const QGraphicsSimpleTextItem *item : m_items)
        widest = std::max(widest, item->boundingRect().width());
    const double height = metrics.height();
    const double pitch = area.width() / static_cast<double>(m_items.size());
    // Tilted lines of text stand pitch x sin 45° apart; upright ones a whole pitch.
    const int angle = widest + metrics.averageCharWidth() <= pitch ? 0
                      : height * 1.1 <= pitch * std::sqrt(0.5) ? 45
                                                                : 90;
    m_angle = angle;

    QTransform rotation;
    rotation.rotate(-angle);
    double below = 0;  // how far the lowest label reaches under the axis
    for (int i = 0; i < m_items.size(); ++i) {
        QGraphicsSimpleTextItem *item = m_items[i];
        const QRectF box = item->boundingRect();
        const double x = m_chart->mapToPosition(QPointF(i, 0), m_series).x();
        // Horizontal labels hang centred under their bar; tilted and upright ones end there,
        // level with the middle of their line.
        const QPointF local = angle == 0 ? QPointF(box.width() / 2, 0) : QPointF(box.width(), box.height() / 2);
        const QPointF anchor(x, area.bottom() + kGapPx + (angle == 45 ? height * 0.5 : 0));
        item->setRotation(-angle);
        item->setPos(anchor - rotation.map(local));
        below = std::max(below, item->mapRectToParent(box).bottom() - area.bottom());
    }
    // Under the plot area come the hidden axis' strip, the chart margin, then the layout's
    // contents margin outside the chart background; the labels fill the first two.
    QMargins margins = m_chart->margins();
    qreal left = 0, top = 0, right = 0, outside = 0;
    if (m_chart->layout())
        m_chart->layout()->getContentsMargins(&left, &top, &right, &outside);
    const double axisStrip = m_chart->size().height() - outside - margins.bottom() - area.bottom();
    const int bottom = kChartMarginPx + static_cast<int>(std::ceil(std::max(0.0, below - axisStrip)));
    if (margins.bottom() != bottom) {
        margins.setBottom(bottom);
        m_chart->setMargins(margins);  // lays the chart out again; place() runs once more
    }
}

} // namespace napkin::ui
