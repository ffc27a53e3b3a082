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

bool isValueControl(QWidget *w)
{
    return !qobject_cast<QScrollBar *>(w)
           && (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QAbstractSlider *>(w));
}

/// Qt gives a control with Qt::WheelFocus the focus before it delivers the wheel event, so
/// the guard would always find it focused: such controls take focus by click and Tab only.
void noWheelFocus(QWidget *w)
{
    if (isValueControl(w) && (w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus)
        w->setFocusPolicy(Qt::StrongFocus);
}

} // namespace

WheelGuard::WheelGuard(QScrollArea *area) : QObject(area), m_area(area)
{
    for (QWidget *w : area->findChildren<QWidget *>())
        noWheelFocus(w);
    qApp->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (!watched->isWidgetType())
        return false;
    if (event->type() == QEvent::Polish) {  // controls built later (lazy sections)
        auto *w = static_cast<QWidget *>(watched);
        if (m_area->isAncestorOf(w))
            noWheelFocus(w);
        return false;
    }
    if (event->type() != QEvent::Wheel)
        return false;
    QWidget *control = valueControl(static_cast<QWidget *>(watched));
    if (!control || control->hasFocus() || control->isAncestorOf(QApplication::focusWidget())
        || !m_area->isAncestorOf(control))
        return false;
    QCoreApplication::sendEvent(m_area->verticalScrollBar(), event);
    return true;
}

} // namespace napkin::ui
