#pragma once

class QWidget;

#include <QColor>
#include <QFont>
#include <QList>
#include <QScatterSeries>
#include <QString>
#include <QStringList>

class QAbstractAxis;
class QLogValueAxis;
class QChart;
class QValueAxis;

namespace napkin::ui {

/// A chart whose own legend is hidden from the start: every panel draws its legend beside the
/// chart (LegendStrip). Hiding Qt Charts' legend after the series are added lays out all their
/// legend markers once more, a tenth of a panel's construction.
QChart *newChart();

/// Fonts and frame for every chart, derived from the widget font so that View > Bigger
/// fonts reaches the axes and legends too.
void styleChart(QChart *chart, const QFont &base);

/// QChart::setTitle relayouts the whole chart even for the same text; this only calls it
/// when the text changes.
void setChartTitle(QChart *chart, const QString &title);

/// An axis title with a shorter form for short plots: ChartView shows the full text when it
/// fits beside (or under) the plot area and the compact one otherwise, so a large text size
/// never clips the title.
/// A chart title in two forms: the full one while it fits the chart's width, else the compact
/// one (refitted with the axis titles whenever the plot area changes).
void setFittingChartTitle(QChart *chart, const QString &full, const QString &compact);
/// The same with any number of forms, longest first: the first that fits, else the last.
void setFittingChartTitle(QChart *chart, const QStringList &forms);
void setFittingAxisTitle(QChart *chart, QAbstractAxis *axis, const QString &full, const QString &compact);
/// Picks the full or compact title of every axis of `chart` for its current plot area, and
/// thins its horizontal log axes' labels (fitLogAxisLabels).
void fitAxisTitles(QChart *chart);

/// The base (10, 100, 1000 or 10000) whose powers label a horizontal log axis `plotWidth`
/// pixels wide without Qt Charts eliding any (it gives each label the width over the number of
/// labels, and a large text on a narrow plot would turn 1000 into "100…") and without two
/// labels running into each other ("1e+081e+09").
int logAxisBaseFor(const QLogValueAxis *axis, qreal plotWidth);
/// The base whose powers label a vertical log axis `plotHeight` pixels high, each label no
/// taller than the room between two ticks (Qt Charts elides a taller one to "…").
int verticalLogAxisBaseFor(const QLogValueAxis *axis, qreal plotHeight);
/// Sets every log axis of `chart` to logAxisBaseFor() (horizontal) or verticalLogAxisBaseFor()
/// its plot, now and whenever the axis's range changes.
void fitLogAxisLabels(QChart *chart);

/// The printf format of a log axis's labels over [lo, hi]: "%g", or "%.0e" for every label
/// where the range reaches a million or goes under 1e-4 (where "%g" writes exponents, and one
/// axis had read "100000" below "1e+06").
QString logLabelFormatFor(double lo, double hi);
/// Keeps `axis`'s labels in one format (logLabelFormatFor()) as its range changes.
void keepLogLabelsAlike(QLogValueAxis *axis);

/// Whether a value axis showing [0, currentMax] can stay as it is for data reaching `wanted`
/// while a slider is dragged: redrawing axis labels is the costliest part of an update, so
/// during a drag the axis only moves when the data leaves it or shrinks below 45% of it.
bool axisCanStay(double wanted, double currentMax, bool dragging);

/// The top a value axis is refitted to for data reaching `wanted`: the data itself, or 1.5x it
/// while a slider is dragged. The data then sits at 2/3 of the axis, the middle (on a log
/// scale) of the band axisCanStay() keeps, so a drag goes as far growing as shrinking before
/// the labels move again. Releasing the slider refits to the data.
double axisTopFor(double wanted, bool dragging);

/// A round axis step (1, 2, 2.5 or 5 x 10^k) dividing [0, max] into at most `intervals`
/// parts, so value-axis labels change rarely while a slider moves.
double niceStep(double max, int intervals = 5);

/// Sets a value axis to [0, the first multiple of niceStep(top, intervals) that reaches top]:
/// the tick interval before the range (a new range under a stale interval, seconds to
/// milliseconds, would lay out a thousand times the ticks), and neither when both are as
/// they are (a relayout of the chart each).
void fitNiceRange(QValueAxis *axis, double top, int intervals = 5);

/// The colours the charts share (memory components, op kinds, highlights).
/// One entry of a legend drawn outside the chart (LegendStrip).
struct LegendEntry {
    QColor color;
    QString text;
    QChar glyph = QChar(0x25A0);  ///< ■ for bars and markers; ━ (0x2501) for lines
};
/// A legend's text at 90% of its panel's, as a chart's own labels are a little smaller than
/// the window's text: one line less on a projector at large text.
void styleLegend(QWidget *legend, const QFont &panelFont);

/// How one op kind is drawn on the roofline. Each kind has its own shape as well as colour,
/// and kinds that land on the same point as another (normalization with elementwise ops,
/// the loss with softmax) are hollow and larger, so the filled marker drawn over them stays
/// visible inside.
struct OpMarker {
    QScatterSeries::MarkerShape shape = QScatterSeries::MarkerShapeCircle;
    double size = 10;
    bool hollow = false;
    QChar glyph;  ///< the same shape in the legend
};
OpMarker opMarker(int kind);  ///< napkin::OpKind order

namespace palette {
QColor component(int index);   ///< napkin::MemoryComponent order: params, grads, optimizer, activations, framework, reserved
QColor opKind(int kind);       ///< napkin::OpKind order
QColor faded(const QColor &c); ///< the same hue for bars that are not the chosen one
QColor capacity();
QColor highlight();
QColor neutral();
/// Serving memory (ServingMemoryPanel order): weights, activations, reserved, KV cache in use, KV cache free.
QColor servingPart(int index);
/// The roofline's serving phases: prefill (one request's prompt) and decode (one token per sequence).
QColor prefill();
QColor decode();
} // namespace palette

} // namespace napkin::ui
