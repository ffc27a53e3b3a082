#include "ui/widgets/cachedscrollbar.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>

namespace napkin::ui {

CachedScrollBar::CachedScrollBar(Qt::Orientation orientation, QWidget *parent) : QScrollBar(orientation, parent)
{
}

void CachedScrollBar::paintEvent(QPaintEvent *event)
{
    // Hovered or pressed parts are state QScrollBar keeps to itself: the style draws those.
    if (underMouse() || isSliderDown()) {
        QScrollBar::paintEvent(event);
        return;
    }
    // Otherwise what QScrollBar::paintEvent draws with nothing hovered or pressed.
    QStyleOptionSlider option;
    initStyleOption(&option);
    option.subControls = QStyle::SC_All;
    option.activeSubControls = QStyle::SC_None;
    const QString state = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                              .arg(static_cast<int>(option.state))
                              .arg(option.minimum).arg(option.maximum)
                              .arg(option.sliderPosition).arg(option.sliderValue)
                              .arg(option.pageStep).arg(option.singleStep)
                              .arg(static_cast<int>(option.orientation))
                              .arg(option.upsideDown);
    m_cache.paint(this, event, state, [&](QPainter &p) { style()->drawComplexControl(QStyle::CC_ScrollBar, &option, &p, this); });
}

} // namespace napkin::ui
