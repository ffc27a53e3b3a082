#include "ui/widgets/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>

namespace napkin::ui {

namespace {

/// The value control a wheel event over `w` would turn: `w` or the control that owns it (a
/// spin box's line edit).
QWidget *valueControl(QWidget *w)
{
    for (int depth = 0; w && depth < 3; ++depth, w = w->parentWidget()) {
        if (qobject_cast<QScrollBar *>(w))
            return nullptr;
        if (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QAbstractSlider *>(w))
            return w;
    }
    return nullptr;
}

} // namespace

WheelGuard::WheelGuard(QScrollArea *area) : QObject(area), m_area(area)
{
    qApp->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Wheel || !watched->isWidgetType())
        return false;
    QWidget *control = valueControl(static_cast<QWidget *>(watched));
    if (!control || control->hasFocus() || control->isAncestorOf(QApplication::focusWidget())
        || !m_area->isAncestorOf(control))
        return false;
    QCoreApplication::sendEvent(m_area->verticalScrollBar(), event);
    return true;
}

} // namespace napkin::ui
