#pragma once

#include "ui/widgets/legendstrip.h"
#include "core/model/catalog.h"
#include "ui/widgets/logrange.h"
#include "core/report/report.h"
#include "ui/state/viewoptions.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <optional>

class QChart;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QScatterSeries;
class QXYSeries;

namespace napkin::ui {

class ChartView;
class LogZoom;

/// Log-log roofline of the chosen GPU (compute roof, bandwidth slope, ridge point) with every
/// op of a training step placed at its intensity and attainable FLOP/s, marked by kind.
/// Wheel zooms, drag pans (LogZoom), Reset fits the data again; a second GPU's roof can be
/// overlaid.
class RooflinePanel final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kOpKinds = 6;
    /// The y axis and the series on it are in TFLOP/s: a log axis labels its decades through
    /// printf, and "%g" of TFLOP/s reads 0.1, 1, 10, 100, 1000 where FLOP/s read 1e+14.
    static constexpr double kFlopsPerAxisUnit = 1e12;

    explicit RooflinePanel(const Catalog &catalog, QWidget *parent = nullptr);

    void setReport(const Report &report);
    /// Shows the toolbar (reset, overlay chooser); exported images leave it out.
    void setToolbarVisible(bool visible);

    void setOverlayGpu(const QString &gpuId);
    QString overlayGpu() const { return m_overlayId; }
    /// The visible ranges (intensity, FLOP/s); nullopt while the view follows the data.
    std::optional<LogRange> xRange() const;
    std::optional<LogRange> yRange() const;
    void setRanges(const std::optional<LogRange> &x, const std::optional<LogRange> &y);
    void resetView();

    /// Index into the report's op table of the op nearest a point (within a few pixels).
    std::optional<int> opAt(const QPointF &chartPos) const;
    /// Every op within a few pixels of a point, nearest first (ops often share a point).
    QList<int> opsAt(const QPointF &chartPos) const;
    QString legendText() const;
    const LegendStrip *legend() const { return m_legend; }
    /// Where an op of the current report is drawn, in chart coordinates.
    QPointF opPosition(int opIndex) const;
    QString hoverText() const { return m_hoverText; }

    QChart *chart() const { return m_chart; }
    ChartView *view() const { return m_view; }
    QScatterSeries *opSeries(OpKind kind) const { return m_ops[static_cast<int>(kind)]; }
    /// Inference mode: the ops of one request's prefill and of one decode step (the kinds'
    /// series are empty then); empty in training mode.
    QScatterSeries *phaseSeries(Phase phase) const { return m_phases[phase == Phase::Decode ? 1 : 0]; }
    /// Inference mode: "decode's GEMMs are compute-bound from ≈ 96 sequences"; empty in training mode.
    QString computeBoundText() const { return m_computeBound; }
    QLineSeries *roof() const { return m_roof; }
    QLineSeries *gemmRoof() const { return m_gemmRoof; }
    QScatterSeries *ridge() const { return m_ridge; }
    QLineSeries *overlayRoof() const { return m_overlay; }
    /// The pinned baseline's ops (hollow circles; empty and hidden when nothing is pinned).
    QScatterSeries *pinnedOps() const { return m_pinned; }
    /// The compared GPU's ops and ridge (hidden without a comparison).
    QScatterSeries *overlayOps() const { return m_overlayOps; }
    QScatterSeries *overlayRidge() const { return m_overlayRidge; }
    QLogValueAxis *xAxis() const { return m_axisX; }
    QLogValueAxis *yAxis() const { return m_axisY; }

signals:
    void viewChanged();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /// "Reset view", or "Reset" when the toolbar is too narrow for it beside the GPU list.
    void fitToolbar();
    // The constructor's parts, in the order it calls them (the series in drawing order).
    void buildToolbar();
    void buildAxes();
    void buildRoofs();
    void buildOpSeries();
    void buildComparisonSeries();
    /// Adds a series to the chart on both log axes.
    void addToAxes(QXYSeries *series);
    void connectControls();

    void restyle();
    void refreshRoofs();
    /// Inference mode: the compared GPU's serving roofline.
    RooflineReport servingRoofline(const GpuSpec &other) const;
    void refreshLegend();
    /// Inference mode: the phases, the decode's compute-bound concurrency, the roofs.
    void refreshServingLegend(QList<LegendEntry> &entries);
    void appendOffScale(QList<LegendEntry> &entries) const;
    void showHover(const QPointF &chartPos, const QPoint &globalPos);

    const Catalog &m_catalog;
    QWidget *m_toolbar;
    QPushButton *m_reset;
    QComboBox *m_overlayBox;
    QLabel *m_compareLabel = nullptr;
    LegendStrip *m_legend;
    QChart *m_chart;
    ChartView *m_view;
    QLogValueAxis *m_axisX;
    QLogValueAxis *m_axisY;
    QLineSeries *m_roof;
    QLineSeries *m_gemmRoof;  ///< FP8: the GEMMs' higher roof (hidden with one roof)
    QScatterSeries *m_ridge;
    QLineSeries *m_overlay;
    QScatterSeries *m_pinned;
    QScatterSeries *m_overlayOps;
    QScatterSeries *m_overlayRidge;
    QString m_overlayStep;
    QScatterSeries *m_ops[kOpKinds] = {};
    QList<int> m_pointOps[kOpKinds];  // series point -> index in the op table
    QScatterSeries *m_phases[2] = {};  // prefill, decode
    QList<int> m_phasePointOps[2];
    QString m_computeBound;
    QStringList m_offScale;  ///< names of the ops left off the log axes (0 FLOPs)
    std::optional<Report> m_report;
    LogZoom *m_zoom = nullptr;
    LogRange m_fitX;  ///< intensity, fitted to the ops and the ridge
    LogRange m_fitY;  ///< FLOP/s, fitted to the ops and the roof
    QString m_overlayId;
    QString m_hoverText;
};

} // namespace napkin::ui
