#pragma once

#include "ui/widgets/logrange.h"

#include <QObject>
#include <QPointF>

#include <optional>

class QAbstractSeries;
class QLogValueAxis;

namespace napkin::ui {

class ChartView;

/// The visible ranges of a log-log chart. They follow the ranges that fit the data until the
/// wheel zooms or a drag pans; then they stay put, while the data changes, until reset.
/// Ranges are in the data's units; the y axis may be drawn in a multiple of them (`yUnit`).
class LogZoom final : public QObject
{
    Q_OBJECT

public:
    /// `series` is any series on both axes, for mapping the mouse to values.
    LogZoom(ChartView *view, QAbstractSeries *series, QLogValueAxis *x, QLogValueAxis *y, double yUnit);

    /// The ranges that fit the data, shown while the user has not zoomed or panned.
    void setFit(const LogRange &x, const LogRange &y);
    /// The user's ranges; nullopt while the view follows the fit.
    std::optional<LogRange> userX() const { return m_userX; }
    std::optional<LogRange> userY() const { return m_userY; }
    /// Sets the user's ranges (nullopt: follow the fit), as a restored view does; not a change.
    void setUserRanges(const std::optional<LogRange> &x, const std::optional<LogRange> &y);

    void reset();
    /// Scales both spans by `factor` (< 1 zooms in) around a point in chart coordinates.
    void zoom(const QPointF &chartPos, double factor);
    /// Moves the view with the mouse by a drag of `pixelDelta`.
    void pan(const QPointF &pixelDelta);

signals:
    /// The user zoomed, panned or reset the view.
    void changed();

private:
    void apply();
    LogRange visibleX() const;
    LogRange visibleY() const;

    ChartView *m_view;
    QAbstractSeries *m_series;
    QLogValueAxis *m_axisX;
    QLogValueAxis *m_axisY;
    double m_yUnit;
    LogRange m_fitX;
    LogRange m_fitY;
    std::optional<LogRange> m_userX;
    std::optional<LogRange> m_userY;
};

} // namespace napkin::ui
