#pragma once

#include <QList>
#include <QFont>
#include <QObject>
#include <QPolygonF>
#include <QStringList>

class QAbstractAxis;
class QAbstractBarSeries;
class QChart;

namespace napkin::ui {

/// Labels under the bars of a bar chart, drawn in place of its category axis' own: horizontal
/// when the widest fits between two bars, else tilted 45° or upright, each ending under its own
/// bar, never elided; upright and still too close, every second (or n-th) one. Qt Charts
/// centres a tilted label on its tick, so that its end points at the next bar, and elides
/// labels wider than a bar; these are placed by hand, with room for them kept in the chart's
/// bottom margin.
class BarLabels final : public QObject
{
    Q_OBJECT

public:
    /// Hides `axis`' labels and draws `texts` (one per bar) in its font and colour.
    BarLabels(QChart *chart, QAbstractBarSeries *series, QAbstractAxis *axis, const QStringList &texts);

    /// Takes the axis' label font and colour again (after a font change).
    void restyle();
    /// 0 (horizontal), 45 or 90 degrees, picked from the room between bars.
    int angle() const { return m_angle; }
    QStringList texts() const;
    /// The font the labels are drawn in (the axis' label font).
    QFont font() const;
    /// Changes one bar's label (the chosen GPU's gets its ▶).
    void setText(int bar, const QString &text);
    /// Changes every label, and how many there are (one per bar).
    void setTexts(const QStringList &texts);
    /// The outline of each label as drawn, in chart coordinates (empty for one left out).
    QList<QPolygonF> labelShapes() const;
    /// 1, or n when upright labels are too close for all of them: every n-th is drawn, the
    /// marked one (▶) among them.
    int stride() const;
    /// The plot width at which the labels stand at `angle` (0 or 45) or flatter: the room
    /// between bars that angle asks for, times the bars.
    double plotWidthFor(int angle) const;

private:
    void place();
    /// The room between bars at which the labels stand level, and tilted 45°.
    double levelPitch() const;
    double tiltedPitch() const;

    class Item;
    QChart *m_chart;
    QAbstractBarSeries *m_series;
    QAbstractAxis *m_axis;
    Item *m_item;
    int m_angle = 0;
};

} // namespace napkin::ui
