#pragma once

#include "core/model/catalog.h"
#include "core/report/gputimes.h"
#include "core/report/report.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QBarSet;
class QChart;
class QStackedBarSeries;
class QValueAxis;

namespace napkin::ui {

class BarLabels;
class ChartView;

/// Puts the choice in context: the run's wall-clock time on every GPU in the catalog (same
/// count, MFU and FLOPs), one bar each labelled with the GPU's short name, the chosen one
/// highlighted. A GPU whose memory the run's per-GPU total exceeds gets a hatched grey bar
/// marked "does not fit"; one without a peak for the recipe's dtype gets no bar and the mark
/// "no <dtype> peak" (GpuSpec::peakFor()'s rule, stated in the title).
class GpuTimeChart final : public QWidget
{
    Q_OBJECT

public:
    explicit GpuTimeChart(const Catalog &catalog, QWidget *parent = nullptr);

    void setReport(const Report &report);
    /// While dragging the unit and axis only change when they must (see axisCanStay()).
    void setDragging(bool dragging);

    /// The catalog index of the bar under a point in chart coordinates.
    std::optional<int> barAt(const QPointF &chartPos) const;
    /// Seconds per displayed axis unit (3600 for hours, 86400 for days, ...).
    double secondsPerUnit() const { return m_secondsPerUnit; }
    QString hoverText() const { return m_hoverText; }

    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    /// The bars of the GPUs the run fits on; barSet(false) those it does not fit on.
    QBarSet *barSet(bool fits = true) const { return fits ? m_set : m_tooBig; }
    /// The run on each catalog GPU as last shown.
    const QList<GpuTime> &times() const { return m_times; }
    /// Inference mode: serving on each catalog GPU as last shown (the bars are the cost per
    /// million output tokens in US dollars); empty in training mode.
    const QList<GpuServing> &serving() const { return m_serving; }
    QValueAxis *valueAxis() const { return m_axisY; }
    BarLabels *barLabels() const { return m_labels; }
    /// The words drawn upright over each GPU's bar: "does not fit (16 GiB)", "no fp32 peak", or
    /// empty. In the plot, so that they never take room from it.
    QStringList marks() const;
    /// The marks as drawn: all in one form (full, short, or a cross), empty where left out.
    QStringList shownMarks() const;
    /// Where GPU i's mark is drawn, in chart coordinates, and whether it stands on a backing of
    /// its own (written over its bar, where the bar leaves too little room above it).
    QRectF markRect(int i) const;
    bool markBacked(int i) const;
    /// The width at which the GPU names under the bars stand at most 45° (upright ones are
    /// hard to read): the plot that asks for, and the axis and margins beside it.
    int widthForTiltedNames() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    enum class MarkForm { Full, Brief, Cross };
    void restyle();
    double markWidth(const QGraphicsSimpleTextItem *mark, const QString &text) const;
    /// Inference mode: the cost per million output tokens on each GPU, "does not fit" where
    /// core refuses the scenario on it.
    void showServing(const Report &report);
    /// The bars' values in axis units, the chosen GPU's index and the axis top (0: none).
    void showBars(const QList<double> &values, const QList<bool> &fit, int chosen, double top);
    QString servingHover(int index) const;
    void showHover(const QPointF &chartPos, const QPoint &globalPos);
    void placeMarks();

    const Catalog &m_catalog;
    QChart *m_chart;
    ChartView *m_view;
    QStackedBarSeries *m_series;
    QBarSet *m_set;
    QBarSet *m_tooBig;
    QValueAxis *m_axisX;  // bar i at x = i; BarLabels writes the names
    QValueAxis *m_axisY;
    BarLabels *m_labels = nullptr;
    QList<QGraphicsSimpleTextItem *> m_marks;
    QList<QGraphicsRectItem *> m_markBackings;  ///< one behind each mark, shown when it is written over its bar
    mutable QHash<QString, double> m_markWidths;  ///< each mark text's width in the marks' font
    std::optional<Report> m_report;
    QList<GpuTime> m_times;
    QList<GpuServing> m_serving;
    struct TimeUnit {
        double seconds = 86400;
        const char *name = nullptr;  // untranslated; shown through tr()
    };
    /// The axis unit follows the slowest GPU so the longest bar reads as a small number.
    static TimeUnit unitFor(double maxSeconds);

    TimeUnit m_unit;
    bool m_dragging = false;
    double m_secondsPerUnit = 86400;
    int m_chosen = -1;
    QString m_hoverText;
};

} // namespace napkin::ui
