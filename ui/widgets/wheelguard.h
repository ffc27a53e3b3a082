#pragma once

#include <QObject>

class QScrollArea;

namespace napkin::ui {

/// Scrolling a panel with the wheel must not change the controls the pointer passes over: a
/// wheel turn over a combo box, spin box or slider inside `area` that does not have the
/// keyboard focus scrolls `area` instead. Click a control first to turn its value with the
/// wheel. Watches the application's events, since a wheel event reaches the control under the
/// pointer before any of its parents.
class WheelGuard final : public QObject
{
    Q_OBJECT

public:
    explicit WheelGuard(QScrollArea *area);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QScrollArea *m_area;
};

} // namespace napkin::ui
