#include "ui/widgets/chartview.h"

#include "ui/widgets/chartstyle.h"

#include <QChart>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QWheelEvent>

namespace napkin::ui {


ChartView::ChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setInteractive(false);
    setRubberBand(QChartView::NoRubberBand);
    setDragMode(QGraphicsView::NoDrag);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    // The chart repaints as a whole on every change; skip QGraphicsView's per-item bookkeeping.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    // Chart items move on every update; keeping a BSP index of them up to date cost more than
    // the rest of an update together, and nothing here looks items up by position.
    if (scene())
        scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    // Axis titles with a compact form switch to it when the plot grows too short for them.
    connect(chart, &QChart::plotAreaChanged, this, [chart] { fitAxisTitles(chart); });
    // Until it is fitted to the view (settle()), the chart is not laid out at all: a panel
    // builds its series and axes and takes its first report before the window is shown, and
    // each of those asks for a layout (or resizes the chart to its new minimum size) at a size
    // the fit then throws away: two or three layouts per chart, each measuring every axis label.
    chart->installEventFilter(this);
    // Text items are deliberately not cached as pixmaps. DeviceCoordinateCache kept stale,
    // empty pixmaps on a real X11 display after a resize or relayout (titles and tick labels
    // vanished), and ItemCoordinateCache painted into null pixmaps as labels changed; drawing
    // the text each frame costs about 1 ms of a slider change (tests/bench/bench_ui).
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    if (!m_settled) {
        // When a window first shows, its layout settles in several passes (wrapped text finds
        // its height once it has a width), each resizing every chart, and a chart's layout
        // (axis labels measured as rich text) is the dearest part of a start. Until its first
        // paint a chart is fitted once, then (settle()); from then on it follows every resize.
        QGraphicsView::resizeEvent(event);
        m_fitPending = true;
        return;
    }
    QChartView::resizeEvent(event);
    // A fixed scene rect spares the scene from growing its items' bounding rect on every
    // change of every item.
    scene()->setSceneRect(QRectF(QPointF(0, 0), viewport()->size()));
}

bool ChartView::eventFilter(QObject *watched, QEvent *event)
{
    if (m_settled || watched != chart()
        || (event->type() != QEvent::LayoutRequest && event->type() != QEvent::GraphicsSceneResize))
        return false;
    m_layoutHeld = true;
    return true;
}

void ChartView::settle()
{
    if (!m_settled) {
        chart()->removeEventFilter(this);
        // Whatever was held back is laid out once, below, at the view's size: by the resize,
        // or, where the chart already has that size, by the layout request this posts.
        if (m_layoutHeld && chart()->layout())
            chart()->layout()->invalidate();
    }
    m_settled = true;
    if (m_fitPending) {
        m_fitPending = false;
        QResizeEvent settled(size(), size());
        resizeEvent(&settled);
    } else if (!m_layoutHeld) {
        return;
    }
    m_layoutHeld = false;
    // What the new plot area set off (margins for tilted labels, compact axis titles) is laid
    // out before this frame, not the next.
    QCoreApplication::sendPostedEvents(chart(), QEvent::LayoutRequest);
}

void ChartView::paintEvent(QPaintEvent *event)
{
    settle();
    QChartView::paintEvent(event);
}

QPointF ChartView::chartPosition(const QPointF &viewportPos) const
{
    return chart()->mapFromScene(mapToScene(viewportPos.toPoint()));
}

// None of the handlers below call the QChartView/QGraphicsView base: that is the guard.

void ChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        m_lastDragPos = event->position();
        emit dragStarted();
    }
    event->accept();
}

void ChartView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragging && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_lastDragPos;
        m_lastDragPos = event->position();
        emit dragged(delta);
    } else {
        emit hovered(chartPosition(event->position()), event->globalPosition().toPoint());
    }
    event->accept();
}

void ChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragging && event->button() == Qt::LeftButton) {
        m_dragging = false;
        emit dragFinished();
    }
    event->accept();
}

void ChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    event->accept();
}

void ChartView::wheelEvent(QWheelEvent *event)
{
    emit wheeled(chartPosition(event->position()), event->angleDelta().y());
    event->accept();
}

void ChartView::contextMenuEvent(QContextMenuEvent *event)
{
    event->accept();
}

void ChartView::keyPressEvent(QKeyEvent *event)
{
    // Keys go to the window (shortcuts), never to chart items.
    QAbstractScrollArea::keyPressEvent(event);
}

void ChartView::leaveEvent(QEvent *event)
{
    emit left();
    QChartView::leaveEvent(event);
}

} // namespace napkin::ui
