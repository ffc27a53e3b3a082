#pragma once

#include <QProxyStyle>

namespace napkin::ui {

/// The application's style with the sizes Qt's styles fix in pixels grown with the text:
/// check boxes' and radio buttons' indicators, slider handles, spin-box buttons, the arrows
/// of tab bars, menus and section headers, the margins round table cells and headers, and the
/// gap before a menu entry's shortcut. At "Bigger Text" on a projector a check box is then
/// as tall as its label and a slider's handle as easy to catch; at the normal size and below,
/// every metric is the base style's own. Scroll bars keep their width: the controls column's
/// width counts them, and it would take that room from the charts.
class ScalingStyle final : public QProxyStyle
{
    Q_OBJECT

public:
    /// Wraps a new instance of the style the application runs now (Fusion unless -style said
    /// otherwise).
    ScalingStyle();

    /// The application's style, made a ScalingStyle first if it is not one yet.
    static ScalingStyle *ensureInstalled();

    /// How much larger than the base style's the text is (1: the base style's metrics).
    /// Widgets take the new sizes at their next font or style change.
    void setScale(double scale);
    double scale() const { return m_scale; }

    int pixelMetric(PixelMetric metric, const QStyleOption *option = nullptr,
                    const QWidget *widget = nullptr) const override;
    QRect subControlRect(ComplexControl control, const QStyleOptionComplex *option, SubControl sub,
                         const QWidget *widget = nullptr) const override;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
    /// A tool button whose menu opens on a click draws its arrow in its bottom-right corner,
    /// over a centred text ("Axis" lost its "s"): it is made wide enough for both.
    QSize sizeFromContents(ContentsType type, const QStyleOption *option, const QSize &contents,
                           const QWidget *widget = nullptr) const override;

private:
    /// `pixels` grown by the scale (never shrunk).
    int grown(int pixels) const;

    double m_scale = 1;
};

} // namespace napkin::ui
