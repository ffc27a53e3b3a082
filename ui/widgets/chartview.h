#pragma once

#include <QChartView>
#include <QPointF>

namespace napkin::ui {

/// A QChartView that never hands mouse events to Qt Charts' own items. Qt Charts 6.4 can
/// crash on clicks that reach its series and legend items (QTBUG-115072, QTBUG-118669), so
/// the view is non-interactive and turns the mouse into plain signals in chart coordinates;
/// hover, zoom and pan are then done by the panels with their own hit tests.
class ChartView final : public QChartView
{
    Q_OBJECT

public:
    explicit ChartView(QChart *chart, QWidget *parent = nullptr);

    /// Chart item coordinates of a viewport position.
    QPointF chartPosition(const QPointF &viewportPos) const;

    /// Fits the chart to the view now if a resize is waiting (resizeEvent), and follows every
    /// resize at once from then on: for a view read or rendered before it is painted.
    void settle();

signals:
    void hovered(const QPointF &chartPos, const QPoint &globalPos);
    void left();
    void dragStarted();
    /// Movement since the previous event while the left button is held, in pixels.
    void dragged(const QPointF &delta);
    void dragFinished();
    void wheeled(const QPointF &chartPos, int angleDelta);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    QPointF m_lastDragPos;
    bool m_settled = false;     ///< painted or settled once: resizes apply at once
    bool m_fitPending = false;  ///< resized before that, the chart not yet fitted
    bool m_layoutHeld = false;  ///< a layout of the chart held back until it is fitted
    bool m_dragging = false;
};

} // namespace napkin::ui
