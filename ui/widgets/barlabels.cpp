#include "ui/widgets/barlabels.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsLayout>
#include <QPainter>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
// Gap between the axis line and the labels, and around the chart, as styleChart() leaves it.
constexpr double kGapPx = 5;
constexpr int kChartMarginPx = 4;
} // namespace

/// All labels in one graphics item: one cached pixmap to draw per frame instead of one per label.
class BarLabels::Item final : public QGraphicsItem
{
public:
    explicit Item(QGraphicsItem *parent) : QGraphicsItem(parent)
    {
        setZValue(10);
        setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    }

    QStringList texts;
    QList<QRectF> boxes;           ///< each text's own box, at the origin
    QList<QTransform> placements;  ///< box -> chart coordinates
    int stride = 1;                ///< every stride-th label is drawn, from `phase`
    int phase = 0;
    QFont font;
    QColor color;

    bool drawn(int i) const { return i % stride == phase; }
    // Before the first placement (a chart never shown yet) there is no shape to give; a label
    // left out (stride) has none either.
    QPolygonF labelShape(int i) const
    {
        return i < placements.size() && i < boxes.size() && drawn(i) ? placements[i].map(QPolygonF(boxes[i])) : QPolygonF();
    }

    void changed()
    {
        prepareGeometryChange();
        m_bounds = QRectF();
        for (int i = 0; i < texts.size(); ++i)
            m_bounds |= labelShape(i).boundingRect();
        update();
    }

    QRectF boundingRect() const override { return m_bounds; }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        painter->setFont(font);
        painter->setPen(color);
        for (int i = 0; i < texts.size(); ++i) {
            if (!drawn(i) || i >= placements.size())
                continue;
            painter->save();
            painter->setTransform(placements[i], true);
            painter->drawText(boxes[i], Qt::AlignLeft | Qt::AlignTop, texts[i]);
            painter->restore();
        }
    }

private:
    QRectF m_bounds;
};

BarLabels::BarLabels(QChart *chart, QAbstractBarSeries *series, QAbstractAxis *axis, const QStringList &texts)
    : QObject(chart), m_chart(chart), m_series(series), m_axis(axis), m_item(new Item(chart))
{
    m_axis->setLabelsVisible(false);
    m_item->texts = texts;
    restyle();
    connect(m_chart, &QChart::plotAreaChanged, this, &BarLabels::place);
}

QStringList BarLabels::texts() const
{
    return m_item->texts;
}

void BarLabels::setText(int bar, const QString &text)
{
    if (bar < 0 || bar >= m_item->texts.size() || m_item->texts[bar] == text)
        return;
    m_item->texts[bar] = text;
    restyle();  // measures the new text, then places every label again
}

void BarLabels::setTexts(const QStringList &texts)
{
    if (m_item->texts == texts)
        return;
    m_item->texts = texts;
    restyle();  // measures the texts, then places them
}

void BarLabels::restyle()
{
    m_item->font = m_axis->labelsFont();
    m_item->color = m_axis->labelsBrush().color();
    const QFontMetricsF metrics(m_item->font);
    m_item->boxes.clear();
    for (const QString &text : m_item->texts)
        m_item->boxes.append(QRectF(0, 0, metrics.horizontalAdvance(text), metrics.height()));
    place();
}

int BarLabels::stride() const
{
    return m_item->stride;
}

QFont BarLabels::font() const
{
    return m_item->font;
}

QList<QPolygonF> BarLabels::labelShapes() const
{
    QList<QPolygonF> shapes;
    for (int i = 0; i < m_item->texts.size(); ++i)
        shapes.append(m_item->labelShape(i));
    return shapes;
}

double BarLabels::levelPitch() const
{
    const QFontMetricsF metrics(m_item->font);
    double widest = 0;
    for (const QRectF &box : m_item->boxes)
        widest = std::max(widest, box.width());
    return widest + metrics.averageCharWidth();
}

double BarLabels::tiltedPitch() const
{
    // Tilted lines of text stand pitch x sin 45° apart; upright ones a whole pitch.
    return QFontMetricsF(m_item->font).height() * 1.1 / std::sqrt(0.5);
}

double BarLabels::plotWidthFor(int angle) const
{
    return (angle == 0 ? levelPitch() : tiltedPitch()) * static_cast<double>(m_item->boxes.size());
}

void BarLabels::place()
{
    const QRectF area = m_chart->plotArea();
    const QList<QRectF> &boxes = m_item->boxes;
    if (boxes.isEmpty() || area.width() <= 0)
        return;
    const double height = QFontMetricsF(m_item->font).height();
    const double pitch = area.width() / static_cast<double>(boxes.size());
    const int angle = levelPitch() <= pitch ? 0 : tiltedPitch() <= pitch ? 45 : 90;
    m_angle = angle;
    // Upright lines of text need a line's height each: closer bars (large text on a narrow
    // chart) label every second or third, counted from the marked one (▶) so that it keeps its
    // name; hovering a bar names any of them.
    const double upright = height * 1.05;
    m_item->stride = angle == 90 && pitch < upright ? static_cast<int>(std::ceil(upright / pitch)) : 1;
    m_item->phase = 0;
    for (int i = 0; i < m_item->texts.size(); ++i)
        if (m_item->texts[i].startsWith(QChar(0x25B6))) {
            m_item->phase = i % m_item->stride;
            break;
        }

    QTransform rotation;
    rotation.rotate(-angle);
    double below = 0;  // how far the lowest label reaches under the axis
    m_item->placements.clear();
    for (int i = 0; i < boxes.size(); ++i) {
        const QRectF &box = boxes[i];
        const double x = m_chart->mapToPosition(QPointF(i, 0), m_series).x();
        // Horizontal labels hang centred under their bar; tilted and upright ones end there,
        // level with the middle of their line.
        const QPointF local = angle == 0 ? QPointF(box.width() / 2, 0) : QPointF(box.width(), box.height() / 2);
        const QPointF anchor(x, area.bottom() + kGapPx + (angle == 45 ? height * 0.5 : 0));
        const QPointF origin = anchor - rotation.map(local);
        QTransform placement;
        placement.translate(origin.x(), origin.y());
        placement.rotate(-angle);
        m_item->placements.append(placement);
        if (m_item->drawn(i))
            below = std::max(below, placement.mapRect(box).bottom() - area.bottom());
    }
    m_item->changed();
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
