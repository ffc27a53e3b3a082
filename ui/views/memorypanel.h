#pragma once

#include "ui/widgets/legendstrip.h"
#include "core/text/explain.h"
#include "core/report/report.h"
#include "core/text/units.h"
#include "ui/state/viewoptions.h"

#include <QWidget>

#include <optional>

class QBarCategoryAxis;
class QAction;
class QToolButton;
class QGraphicsSimpleTextItem;
class QBarSet;
class QChart;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

class QGridLayout;

namespace napkin::ui {

class Banner;
class ChartView;
class FitFix;

/// Per-GPU memory stacked by component, one bar for each ZeRO stage with the chosen one
/// marked, the GPU's capacity drawn across, a fits / does-not-fit banner and hover formulas.
class MemoryPanel final : public QWidget
{
    Q_OBJECT

public:
    using AxisFocus = MemoryAxisFocus;

    explicit MemoryPanel(QWidget *parent = nullptr);

    void setReport(const Report &report);
    void setByteUnit(ByteUnit unit);
    /// While dragging the value axis only moves when it must (see axisCanStay()).
    void setDragging(bool dragging);
    void setAxisFocus(AxisFocus focus);
    AxisFocus axisFocus() const { return m_focus; }
    /// The axis-range choices, in AxisFocus order (the panel's "Axis" button menu).
    const QList<QAction *> &focusActions() const { return m_focusActions; }
    /// Exported pictures leave the axis chooser out (its choice still applies).
    void setToolbarVisible(bool visible);
    /// The legend as shown: each component of the chosen stage with its bytes, the model
    /// state and the total (HTML).
    QString legendText() const;

    struct Segment {
        int zeroStage = 0;
        MemoryComponent component = MemoryComponent::Params;
    };
    /// The segment under a point in chart coordinates, if any.
    std::optional<Segment> segmentAt(const QPointF &chartPos) const;
    /// The text the last hover showed (empty when nothing was under the mouse).
    QString hoverText() const { return m_hoverText; }

    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    QBarSet *barSet(MemoryComponent c) const { return m_sets[static_cast<int>(c)]; }
    QLineSeries *capacityLine() const { return m_capacity; }
    /// The pinned baseline's stage totals as outlines: four points per stage, the second and
    /// third at the total's height (empty and hidden when nothing is pinned).
    QLineSeries *pinnedOutline() const { return m_pinned; }
    QValueAxis *valueAxis() const { return m_axisY; }
    /// The total printed above a stage's bar ("↑ " first when the axis cuts the bar).
    QString totalText(int stage) const;
    /// Where each stage's total is drawn, in chart coordinates.
    QList<QRectF> totalRects() const;
    QBarCategoryAxis *categoryAxis() const { return m_axisX; }
    Banner *fitsBanner() const { return m_banner; }
    /// The fix offered beside the banner when the run does not fit.
    FitFix *fitFix() const { return m_fix; }

signals:
    /// The fix was asked for: the scenario that fits, as one undo step.
    void fixChosen(const napkin::Scenario &scenario, const QString &description);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The constructor's parts: the bars and lines, the axes and the totals over the bars,
    // the axis-range menu.
    void buildSeries();
    void buildAxes();
    void buildFocusMenu();

    /// Updates every part in place for the current report, unit and focus (nothing is rebuilt).
    void refresh();
    // refresh()'s parts, in the order it calls them: the axis is fitted after the bars and
    // before what depends on its range (the ↑ on cut totals, the capacity line's visibility).
    void updateBars(double unitBytes);
    double wantedAxisMax(double unitBytes) const;
    void fitValueAxis(double wanted);
    /// Widens the axis's headroom where the plot has become short for the totals' text.
    void makeRoomForTotals();
    void updateStageTotals(double unitBytes);
    void relabelStages();
    /// Stage names under the bars, or their numbers alone when the plot is too narrow for them.
    void fitStageLabels();
    void markChosenStage();
    void updatePinnedOutline(double unitBytes);
    void updateCapacityLine(double unitBytes);
    void updateLegend();
    void updateBanner();
    /// Apply and Axis beside the banner, or under it where beside they would cut its text.
    void arrangeTopRow();
    void placeTopRow(bool stacked);
    void placeTotals();
    void showHover(const QPointF &chartPos, const QPoint &globalPos);

    Banner *m_banner;
    QGridLayout *m_top = nullptr;
    bool m_stackedTop = false;
    QToolButton *m_focusButton;
    FitFix *m_fix;
    QList<QAction *> m_focusActions;
    LegendStrip *m_legend;
    QChart *m_chart;
    ChartView *m_view;
    QStackedBarSeries *m_series;
    QBarSet *m_sets[kMemoryComponents] = {};
    QLineSeries *m_capacity;
    QLineSeries *m_pinned;
    QGraphicsSimpleTextItem *m_totals[kZeroStages] = {};
    /// Each total with its unit ("55.9 GB"), and without it for bars too close for that ("55.9").
    QString m_totalFull[kZeroStages];
    QString m_totalShort[kZeroStages];
    QBarCategoryAxis *m_axisX;
    QValueAxis *m_axisY;
    std::optional<Report> m_report;
    ByteUnit m_unit = ByteUnit::GB;
    int m_markedStage = -1;
    bool m_compactStages = false;  ///< the bars carry their stage's number alone (fitStageLabels)
    bool m_dragging = false;
    AxisFocus m_focus = AxisFocus::AllStages;
    QString m_hoverText;
};

} // namespace napkin::ui
