#pragma once

#include "ui/widgets/legendstrip.h"
#include "core/report/report.h"
#include "core/text/stepexplain.h"

#include <QWidget>

#include <optional>

class QBarSet;
class QChart;
class QHorizontalStackedBarSeries;
class QValueAxis;
class QBarCategoryAxis;

namespace napkin::ui {

class ChartView;
class TextStrip;

/// One optimizer step of the slowest pipeline stage as a stacked bar: compute (matmul,
/// attention, the rest), exposed TP/CP/PP and DP/ZeRO communication, the pipeline bubble and
/// the optimizer, with the estimated MFU and HFU beside the user's and the run's time on each
/// basis. Hover a segment for its formula with the numbers filled in.
class StepTimePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit StepTimePanel(QWidget *parent = nullptr);
    void setReport(const Report &report);
    /// For a picture, where no tooltip can hold the rest: every text takes the lines it
    /// needs (up to six), and the chart the room that is left.
    void setExportMode(bool exporting);
    /// While dragging the value axis only moves when it must (see axisCanStay()).
    void setDragging(bool dragging);

    QBarSet *barSet(StepComponent c) const { return m_sets[static_cast<int>(c)]; }
    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    QValueAxis *valueAxis() const { return m_axisX; }
    /// Seconds per axis unit: 1 (s), 1e-3 (ms) or 1e-6 (µs), as the axis title says.
    double axisUnit() const { return m_unit; }
    QString legendText() const;
    TextStrip *summary() const { return m_summary; }
    TextStrip *runLine() const { return m_run; }
    TextStrip *trackRecordLine() const { return m_record; }
    /// The segment under a point in chart coordinates, if any.
    std::optional<StepComponent> segmentAt(const QPointF &chartPos) const;
    QString hoverText() const { return m_hoverText; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void showHover(const QPointF &chartPos, const QPoint &globalPos);
    void fitTrackRecord();
    /// The summary takes a second line where one would cut it (its tokens/s per GPU, the
    /// figure published runs print), and the track record a third; decided on resize and on
    /// release, never during a drag.
    void fitTextLines();

    TextStrip *m_summary;
    TextStrip *m_run;
    TextStrip *m_record;  ///< how far the estimate has been from published runs (stepTrackRecordText)
    QChart *m_chart;
    ChartView *m_view;
    QHorizontalStackedBarSeries *m_series;
    QBarSet *m_sets[kStepComponents] = {};
    QValueAxis *m_axisX;
    QBarCategoryAxis *m_axisY;
    LegendStrip *m_legend;
    std::optional<Report> m_report;
    double m_unit = 1;
    double m_axisUnit = 0;
    bool m_dragging = false;
    bool m_exporting = false;
    QString m_hoverText;
};

/// The colours of the step components, in StepComponent order.
QColor stepColor(StepComponent c);

} // namespace napkin::ui
