#pragma once

#include "core/report/report.h"

#include <QWidget>

#include <optional>

class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;

namespace napkin::ui {

class ChartView;
class LegendStrip;

/// The serving trade-off (mode inference): output tokens per second of every replica together
/// against the time per output token, one point per concurrency 1, 2, 4, ... up to the most the
/// KV pool holds (InferenceReport::curve), the chosen concurrency marked and labelled. Both axes
/// are logarithmic: concurrency moves both by decades. In training mode it says so and is empty.
class ServingCurvePanel final : public QWidget
{
    Q_OBJECT

public:
    /// The x axis is in milliseconds: "%g" of ms reads 10, 100 where seconds read 0.01, 0.1.
    static constexpr double kSecondsPerAxisUnit = 1e-3;

    explicit ServingCurvePanel(QWidget *parent = nullptr);

    void setReport(const Report &report);

    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    /// (time per output token in ms, output tokens/s) for each point of the curve.
    QLineSeries *curve() const { return m_curve; }
    QScatterSeries *points() const { return m_points; }
    /// The chosen concurrency's one point.
    QScatterSeries *chosen() const { return m_chosen; }
    /// The words beside the chosen point ("64 sequences: 3,120 tok/s").
    QString chosenLabel() const;
    /// Where those words are drawn, in chart coordinates (on one line or, beside a steep end
    /// of the curve, two).
    QRectF chosenLabelRect() const;
    QString legendText() const;
    QString hoverText() const { return m_hoverText; }
    QLogValueAxis *xAxis() const { return m_axisX; }
    QLogValueAxis *yAxis() const { return m_axisY; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void restyle();
    void placeLabel();
    void showHover(const QPointF &chartPos, const QPoint &globalPos);

    QChart *m_chart;
    ChartView *m_view;
    LegendStrip *m_legend;
    QLineSeries *m_curve;
    QScatterSeries *m_points;
    QScatterSeries *m_chosen;
    QLogValueAxis *m_axisX;
    QLogValueAxis *m_axisY;
    QGraphicsSimpleTextItem *m_label;
    std::optional<Report> m_report;
    QString m_hoverText;
};

} // namespace napkin::ui
