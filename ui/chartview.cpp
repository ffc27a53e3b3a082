#include "chartview.h"

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMouseEvent>
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
}

void ChartView::paintEvent(QPaintEvent *event)
{
    cacheTextItems();
    QChartView::paintEvent(event);
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    // A fixed scene rect spares the scene from growing its items' bounding rect on every
    // change of every item.
    scene()->setSceneRect(QRectF(QPointF(0, 0), viewport()->size()));
}

void ChartView::setTextCaching(bool on)
{
    m_textCaching = on;
    m_cachedItemCount = -1;
    if (!on)
        for (QGraphicsItem *item : scene()->items())
            item->setCacheMode(QGraphicsItem::NoCache);
}

void ChartView::cacheTextItems()
{
    // At another device pixel ratio a pixmap in item coordinates would be scaled, blurred.
    if (!m_textCaching || devicePixelRatioF() != 1)
        return;
    // Axis labels and titles are laid-out text, and the time chart's are rotated, which the
    // raster engine draws as paths; as cached pixmaps they cost a blit per frame. Qt Charts
    // creates label items as ranges change, so new ones are picked up here.
    // ItemCoordinateCache, not DeviceCoordinateCache: on a real X11 display the device cache
    // kept the exposed part of each label from before a resize or relayout, so after one the
    // titles and tick labels were blitted from empty pixmaps until the next font change.
    const QList<QGraphicsItem *> items = scene()->items();
    if (items.size() == m_cachedItemCount)
        return;
    m_cachedItemCount = items.size();
    for (QGraphicsItem *item : items)
        if (item->type() == QGraphicsTextItem::Type || item->type() == QGraphicsSimpleTextItem::Type)
            item->setCacheMode(QGraphicsItem::ItemCoordinateCache);
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
