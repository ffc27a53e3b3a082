#pragma once

#include "core/report/report.h"
#include "core/text/units.h"

#include <QWidget>

#include <optional>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace napkin::ui {

class ChartView;
class LegendStrip;
class TextStrip;

/// One GPU's memory while serving (mode inference), as vLLM splits it: a stacked bar of the
/// weights, the peak activations, the reserved bytes, the KV cache the chosen concurrency
/// fills and the pool's free blocks, under the memory utilisation's line (the engine's share)
/// and the GPU's capacity line.
class ServingMemoryPanel final : public QWidget
{
    Q_OBJECT

public:
    /// Bottom to top.
    enum class Part { Weights, Activations, Reserved, KvInUse, KvFree };
    static constexpr int kParts = 5;

    explicit ServingMemoryPanel(QWidget *parent = nullptr);

    void setReport(const Report &report);
    void setByteUnit(ByteUnit unit);

    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    /// One bar: the part's bytes in the current unit.
    QBarSet *barSet(Part part) const { return m_sets[static_cast<int>(part)]; }
    QLineSeries *capacityLine() const { return m_capacity; }
    /// gpu_memory_utilization x capacity: the top of the pool.
    QLineSeries *usableLine() const { return m_usable; }
    QValueAxis *valueAxis() const { return m_axisY; }
    /// "KV pool 51.2 GB: 167,936 tokens, 455 sequences of 768 at most".
    TextStrip *summary() const { return m_summary; }
    QString legendText() const;
    /// The pool's label beside the bar, and where it is drawn (chart coordinates).
    QString poolLabel() const;
    QRectF poolLabelRect() const;
    /// The bar's right edge (chart coordinates).
    double barRight() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void restyle();
    void placeTotal();

    TextStrip *m_summary;
    LegendStrip *m_legend;
    QChart *m_chart;
    ChartView *m_view;
    QStackedBarSeries *m_series;
    QBarSet *m_sets[kParts] = {};
    QLineSeries *m_capacity;
    QLineSeries *m_usable;
    QBarCategoryAxis *m_axisX;
    QValueAxis *m_axisY;
    QGraphicsSimpleTextItem *m_total;
    QString m_totalFull;   ///< "KV pool 1.50 GB"
    QString m_totalShort;  ///< "KV 1.50 GB", where the full one has no room beside the bar
    std::optional<Report> m_report;
    ByteUnit m_unit = ByteUnit::GB;
};

} // namespace napkin::ui
