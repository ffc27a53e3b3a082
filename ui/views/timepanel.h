#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QWidget>

#include <optional>

class QBoxLayout;
class QLabel;
class QStackedWidget;

namespace napkin::ui {

class GpuTimeChart;
class ServingCurvePanel;
class LazyWidget;
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
    /// Inference mode's rows, in the same places: latency, throughput, cost, energy and the KV cache.
    enum class ServingFigure { Ttft, Tpot, EndToEnd, OutputRate, InputRate, CostOutput, CostInput, Energy, KvCapacity };
    static constexpr int kServingFigures = 9;

    explicit TimePanel(const Catalog &catalog, QWidget *parent = nullptr);

    void setReport(const Report &report);
    /// In a picture nobody can hover: a note too long for its lines ends in "…" instead of
    /// standing aside as "(details on hover)".
    void setExportMode(bool exporting);
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
    TextStrip *figure(ServingFigure f) const { return m_values[static_cast<int>(f)]; }
    TextStrip *note(ServingFigure f) const { return m_notes[static_cast<int>(f)]; }
    /// The row's name as shown ("TTFT"): the figures' names change with the mode.
    QString figureName(int row) const;
    /// The every-GPU chart of the mode shown: time in training, cost per million output tokens
    /// in inference. Each mode has a chart of its own (the inference one built when first
    /// shown), so a mode switch shows a chart already laid out at its size and axes instead
    /// of laying one chart out again with new axes, titles and bars.
    GpuTimeChart *gpuChart() const;
    /// The place of the every-GPU charts (the mode's one shown), for a layout or a tab.
    QWidget *everyGpuPlace() const;
    /// The serving trade-off, beside the figures in inference mode (hidden in training mode),
    /// built the first time it is shown or asked for.
    ServingCurvePanel *servingChart() const;
    /// The serving trade-off's place, for a layout or a tab: builds its chart when first shown.
    QWidget *servingPlace() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    /// Gives each note the lines its text needs at the note column's width, as long as all the
    /// rows fit the height the figures may take; the notes that would not fit keep one line
    /// and show their text in the tooltip.
    void fitNotes();
    /// Notes beside their figures (a third column), or under them across the panel where the
    /// third column would be too narrow to read (text x2 on a projector's 1024x768 had left
    /// it no room at all, and every explanation was dropped).
    void placeRows(bool stacked);
    /// The rows' names and tips for a mode; rows past the mode's figures are hidden.
    void setMode(Mode mode);
    void showTraining(const Report &r);
    void showServing(const Report &r);
    /// Where the serving chart goes in the layout: beside or under the figures, or nowhere.
    void placeServingChart();

    TextStrip *m_title;
    static constexpr int kRows = kServingFigures;
    QLabel *m_names[kRows] = {};
    TextStrip *m_values[kRows] = {};
    TextStrip *m_notes[kRows] = {};
    int m_rows = kFigures;  ///< the rows the mode shows
    bool m_stacked = false;  ///< notes under their figures (placeRows())
    std::optional<Mode> m_mode;
    QWidget *m_figures;
    GpuTimeChart *m_chart;          ///< training's every-GPU chart
    LazyWidget *m_servingGpus;      ///< inference's, built when first shown
    QStackedWidget *m_gpus;         ///< the mode's every-GPU chart
    LazyWidget *m_serving;
    QBoxLayout *m_layout;
    bool m_above = false;
    bool m_detached = false;
};

} // namespace napkin::ui
