#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QWidget>

class QBoxLayout;
class QLabel;

namespace napkin::ui {

class GpuTimeChart;
class TextStrip;

/// Total FLOPs (6ND and detailed, with the basis used stated, and the hardware FLOPs with
/// recomputation), wall-clock time with MFU and HFU, GPU-hours, GPU-years, cost and energy, beside the time of the same run on every catalog GPU.
/// Each figure's note wraps to the lines it needs while the figures fit the panel's height;
/// a note with no room left goes to its tooltip whole, never cut or elided.
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
    /// own (the exported time chart) and as a column of the wide overview.
    void setFiguresAbove(bool above);
    bool figuresAbove() const { return m_above; }
    /// Takes the every-GPU chart out of the panel (the dashboard shows it as its own tab when
    /// the text is large) or puts it back beside the figures.
    void setChartDetached(bool detached);
    /// "Training time and cost" over the figures; on a tab of its own the tab names it, and
    /// its line goes to the notes.
    void setTitleVisible(bool visible);

    TextStrip *figure(Figure f) const { return m_values[static_cast<int>(f)]; }
    TextStrip *note(Figure f) const { return m_notes[static_cast<int>(f)]; }
    GpuTimeChart *gpuChart() const { return m_chart; }

protected:
    void changeEvent(QEvent *event) override;

private:
    /// Gives each note the lines its text needs at the note column's width, as long as all the
    /// rows fit the height the figures may take; the notes that would not fit keep one line
    /// and show their text in the tooltip.
    void fitNotes();

    TextStrip *m_title;
    QLabel *m_names[kFigures] = {};
    TextStrip *m_values[kFigures] = {};
    TextStrip *m_notes[kFigures] = {};
    QWidget *m_figures;
    GpuTimeChart *m_chart;
    QBoxLayout *m_layout;
    bool m_above = false;
    bool m_detached = false;
};

} // namespace napkin::ui
