#include "chartview.h"

#include <QChart>
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

void ChartView::leaveEvent(QEvent *event)
{
    emit left();
    QChartView::leaveEvent(event);
}

} // namespace napkin::ui
