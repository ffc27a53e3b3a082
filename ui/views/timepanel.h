#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QWidget>

class QBoxLayout;

namespace napkin::ui {

class GpuTimeChart;
class TextStrip;

/// Total FLOPs (6ND and detailed, with the basis used stated, and the hardware FLOPs with
/// recomputation), wall-clock time with MFU and HFU, GPU-hours, GPU-years, cost and energy, beside the time of the same run on every catalog GPU.
class TimePanel final : public QWidget
{
    Q_OBJECT

public:
    enum class Figure { Flops6nd, FlopsDetailed, HardwareFlops, WallClock, GpuHours, GpuYears, Cost, Energy };
    static constexpr int kFigures = 8;

    explicit TimePanel(const Catalog &catalog, QWidget *parent = nullptr);

    void setReport(const Report &report);
    void setDragging(bool dragging);
    /// Figures above the chart instead of beside it, each at full width: for the panel on its
    /// own (the exported time chart), where half the width elides the longer notes.
    void setFiguresAbove(bool above);
    /// Takes the every-GPU chart out of the panel (the dashboard shows it as its own tab when
    /// the text is large) or puts it back beside the figures.
    void setChartDetached(bool detached);

    TextStrip *figure(Figure f) const { return m_values[static_cast<int>(f)]; }
    TextStrip *note(Figure f) const { return m_notes[static_cast<int>(f)]; }
    GpuTimeChart *gpuChart() const { return m_chart; }

private:
    TextStrip *m_values[kFigures] = {};
    TextStrip *m_notes[kFigures] = {};
    QWidget *m_figures;
    GpuTimeChart *m_chart;
    QBoxLayout *m_layout;
};

} // namespace napkin::ui
