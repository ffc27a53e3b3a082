#include "ui/widgets/scalingstyle.h"

#include <QApplication>
#include <QPainter>
#include <QWidget>
#include <QStyleFactory>
#include <QStyleOptionSpinBox>
#include <QStyleOptionMenuItem>
#include <QStyleOptionToolButton>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
/// The room common Qt styles leave between a menu entry's text and its shortcut, in pixels.
constexpr int kMenuShortcutGap = 12;
} // namespace

ScalingStyle::ScalingStyle() : QProxyStyle(QStyleFactory::create(QApplication::style()->name())) {}

ScalingStyle *ScalingStyle::ensureInstalled()
{
    if (auto *style = qobject_cast<ScalingStyle *>(QApplication::style()))
        return style;
    auto *style = new ScalingStyle;
    QApplication::setStyle(style);  // the application owns it
    return style;
}

void ScalingStyle::setScale(double scale)
{
    const double wanted = std::isfinite(scale) && scale > 0 ? scale : 1;
    if (wanted == m_scale)
        return;
    m_scale = wanted;
    if (QApplication::style() != this)
        return;
    // As QApplication::setStyle tells every widget, so that none keeps a size measured in the
    // old metrics (a check box caches its size hint until its style or font changes).
    const QWidgetList widgets = QApplication::allWidgets();
    for (QWidget *w : widgets) {
        QEvent change(QEvent::StyleChange);
        QCoreApplication::sendEvent(w, &change);
    }
}

int ScalingStyle::grown(int pixels) const
{
    return m_scale > 1 ? static_cast<int>(std::lround(pixels * m_scale)) : pixels;
}

int ScalingStyle::pixelMetric(PixelMetric metric, const QStyleOption *option, const QWidget *widget) const
{
    const int base = QProxyStyle::pixelMetric(metric, option, widget);
    switch (metric) {
    case PM_IndicatorWidth:
    case PM_IndicatorHeight:
    case PM_ExclusiveIndicatorWidth:
    case PM_ExclusiveIndicatorHeight:
    case PM_SliderThickness:
    case PM_SliderLength:
    case PM_SliderControlThickness:
    case PM_TabBarScrollButtonWidth:
    case PM_MenuButtonIndicator:
    case PM_SmallIconSize:
    case PM_ButtonIconSize:
    case PM_CheckBoxLabelSpacing:
    case PM_RadioButtonLabelSpacing:
    // The margins item views keep round a cell's text (the planner table's cells had run into
    // each other at x2) and headers round theirs.
    case PM_FocusFrameHMargin:
    case PM_HeaderMargin:
        return grown(base);
    default:
        return base;
    }
}

QRect ScalingStyle::subControlRect(ComplexControl control, const QStyleOptionComplex *option, SubControl sub,
                                   const QWidget *widget) const
{
    const QRect base = QProxyStyle::subControlRect(control, option, sub, widget);
    if (control != CC_SpinBox || m_scale <= 1)
        return base;
    // The up and down buttons sit at the right edge, their width fixed in pixels by the base
    // style: widen them leftwards and narrow the edit field by as much.
    const auto *spin = qstyleoption_cast<const QStyleOptionSpinBox *>(option);
    if (!spin || spin->buttonSymbols == QAbstractSpinBox::NoButtons)
        return base;
    const QRect up = QProxyStyle::subControlRect(control, option, SC_SpinBoxUp, widget);
    const int extra = std::min(grown(up.width()) - up.width(), std::max(0, option->rect.width() / 4 - up.width()));
    if (extra <= 0)
        return base;
    switch (sub) {
    case SC_SpinBoxUp:
    case SC_SpinBoxDown:
        return base.adjusted(-extra, 0, 0, 0);
    case SC_SpinBoxEditField:
        return base.adjusted(0, 0, -extra, 0);
    default:
        return base;
    }
}

void ScalingStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                 const QWidget *widget) const
{
    const bool arrow = element == PE_IndicatorArrowUp || element == PE_IndicatorArrowDown
                       || element == PE_IndicatorArrowLeft || element == PE_IndicatorArrowRight;
    if (!arrow || m_scale <= 1 || !option || !painter) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    // The base style caps an arrow at a size in pixels: draw it in a rectangle shrunk by the
    // scale and grow the painting by as much, so it fills the same room at the scale's size.
    QStyleOption shrunk(*option);
    const QSizeF size = QSizeF(option->rect.size()) / m_scale;
    shrunk.rect = QRect(QPoint(0, 0), size.toSize());
    painter->save();
    painter->translate(QRectF(option->rect).center() - QPointF(size.width(), size.height()) * m_scale / 2);
    painter->scale(m_scale, m_scale);
    QProxyStyle::drawPrimitive(element, &shrunk, painter, widget);
    painter->restore();
}

QSize ScalingStyle::sizeFromContents(ContentsType type, const QStyleOption *option, const QSize &contents,
                                     const QWidget *widget) const
{
    QSize size = QProxyStyle::sizeFromContents(type, option, contents, widget);
    if (type == CT_MenuItem && m_scale > 1) {
        // The gap between an entry's text and its shortcut is fixed in pixels ("Computed" and
        // "F1" touched at x2): it grows with the text.
        const auto *item = qstyleoption_cast<const QStyleOptionMenuItem *>(option);
        if (item && item->text.contains(QLatin1Char('\t')))
            size.rwidth() += grown(kMenuShortcutGap) - kMenuShortcutGap;
        return size;
    }
    if (type != CT_ToolButton)
        return size;
    const auto *button = qstyleoption_cast<const QStyleOptionToolButton *>(option);
    if (button && (button->features & QStyleOptionToolButton::HasMenu)
        && !(button->features & QStyleOptionToolButton::MenuButtonPopup))
        // The text stays centred: twice the arrow's width leaves one arrow's room right of it.
        size.rwidth() += 2 * pixelMetric(PM_MenuButtonIndicator, option, widget);
    return size;
}

} // namespace napkin::ui
