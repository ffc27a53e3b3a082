#pragma once

#include <QObject>

namespace napkin::ui {

/// Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y) in a spin box undo and redo the window's last change, as
/// the Edit menu does, once the box has nothing of its own to undo. A spin box's line edit
/// claims those keys whenever it has the focus, even after Return committed the value and
/// emptied its own undo history: typing d_model 131072, Return, then Ctrl+Z did nothing while
/// Edit said "Undo Set d_model to 131072". While a value is being typed, the keys stay the
/// line edit's (they undo the typing). Watches the application's events, since the shortcut
/// is claimed before any parent sees the key.
class UndoKeyGuard final : public QObject
{
    Q_OBJECT

public:
    explicit UndoKeyGuard(QObject *parent);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace napkin::ui
