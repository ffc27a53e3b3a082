#pragma once

#include "ui/widgets/legendstrip.h"
#include "core/text/explain.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QList>
#include <QWidget>

#include <optional>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace napkin::ui {

class BarLabels;

class ChartView;

/// Memory per GPU of each pipeline stage at the chosen ZeRO stage, stacked by component as the
/// memory chart stacks them: the first stage holds the embedding and the most micro-batches
/// in flight, the last the LM head and logits. The worst stage is marked ▶ and decides the fit.
/// Above 32 stages, 16 are drawn: the first, the worst, the last and evenly spaced others.
class StageMemoryPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit StageMemoryPanel(QWidget *parent = nullptr);
    void setReport(const Report &report);
    void setByteUnit(ByteUnit unit);

    QBarSet *barSet(MemoryComponent c) const { return m_sets[static_cast<int>(c)]; }
    /// The pipeline stages drawn, left to right.
    const QList<std::int64_t> &stagesShown() const { return m_shown; }
    /// The numbers under the bars, as drawn (never elided; ▶ marks the worst stage).
    QStringList stageLabels() const;
    QString legendText() const { return m_legend->plainText(); }
    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    QLineSeries *capacityLine() const { return m_capacity; }
    QString hoverText() const { return m_hoverText; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void showHover(const QPointF &chartPos, const QPoint &globalPos);

    LegendStrip *m_legend;
    QChart *m_chart;
    ChartView *m_view;
    QStackedBarSeries *m_series;
    QBarSet *m_sets[kMemoryComponents] = {};
    QLineSeries *m_capacity;
    QBarCategoryAxis *m_axisX;
    BarLabels *m_labels;  ///< the stage numbers: tilted or upright when bars are narrow, never elided
    QValueAxis *m_axisY;
    std::optional<Report> m_report;
    QList<std::int64_t> m_shown;
    ByteUnit m_unit = ByteUnit::GB;
    QString m_hoverText;
};

} // namespace napkin::ui
