#include "ui/widgets/logzoom.h"

#include "ui/widgets/chartview.h"

#include <QChart>
#include <QLogValueAxis>

#include <cmath>

namespace napkin::ui {

namespace {
constexpr double kWheelZoomPerNotch = 0.85;

// Qt Charts takes a log axis' first decade as ceil(ln(min) / ln(10)), which for a fitted
// minimum of 0.1 is ceil(-0.99999999999999978) = 0: the bottom label goes missing. A range a
// hair wider keeps it.
LogRange withBottomLabel(LogRange r)
{
    r.lo *= 1 - 1e-9;
    return r;
}
} // namespace

LogZoom::LogZoom(ChartView *view, QAbstractSeries *series, QLogValueAxis *x, QLogValueAxis *y, double yUnit)
    : QObject(view), m_view(view), m_series(series), m_axisX(x), m_axisY(y), m_yUnit(yUnit)
{
    connect(m_view, &ChartView::wheeled, this, [this](const QPointF &pos, int delta) {
        zoom(pos, std::pow(kWheelZoomPerNotch, delta / 120.0));
    });
    connect(m_view, &ChartView::dragged, this, &LogZoom::pan);
}

void LogZoom::setFit(const LogRange &x, const LogRange &y)
{
    m_fitX = x;
    m_fitY = y;
    apply();
}

void LogZoom::setUserRanges(const std::optional<LogRange> &x, const std::optional<LogRange> &y)
{
    m_userX = x;
    m_userY = y;
    apply();
}

void LogZoom::reset()
{
    setUserRanges(std::nullopt, std::nullopt);
    emit changed();
}

void LogZoom::zoom(const QPointF &chartPos, double factor)
{
    const QPointF anchor = m_view->chart()->mapToValue(chartPos, m_series);
    m_userX = visibleX().zoomed(anchor.x(), factor);
    m_userY = visibleY().zoomed(anchor.y() * m_yUnit, factor);
    apply();
    emit changed();
}

void LogZoom::pan(const QPointF &pixelDelta)
{
    const QRectF area = m_view->chart()->plotArea();
    if (area.width() <= 0 || area.height() <= 0)
        return;
    // Dragging right shows smaller x values; dragging down shows larger y values.
    m_userX = visibleX().panned(-pixelDelta.x() / area.width());
    m_userY = visibleY().panned(pixelDelta.y() / area.height());
    apply();
    emit changed();
}

void LogZoom::apply()
{
    const LogRange x = m_userX.value_or(withBottomLabel(m_fitX));
    const LogRange y = m_userY.value_or(withBottomLabel(m_fitY));
    if (m_axisX->min() != x.lo || m_axisX->max() != x.hi)
        m_axisX->setRange(x.lo, x.hi);
    if (m_axisY->min() != y.lo / m_yUnit || m_axisY->max() != y.hi / m_yUnit)
        m_axisY->setRange(y.lo / m_yUnit, y.hi / m_yUnit);
}

LogRange LogZoom::visibleX() const
{
    return {m_axisX->min(), m_axisX->max()};
}

LogRange LogZoom::visibleY() const
{
    return {m_axisY->min() * m_yUnit, m_axisY->max() * m_yUnit};
}

} // namespace napkin::ui
