#include "ui/widgets/undokeyguard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>

namespace napkin::ui {

UndoKeyGuard::UndoKeyGuard(QObject *parent) : QObject(parent)
{
    qApp->installEventFilter(this);
}

bool UndoKeyGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    // The spin box has the focus and hands the event to its line edit itself (bypassing any
    // filter there); a line edit with the focus of its own gets it directly.
    QLineEdit *edit = nullptr;
    if (auto *spin = qobject_cast<QAbstractSpinBox *>(watched))
        edit = spin->findChild<QLineEdit *>(QString(), Qt::FindDirectChildrenOnly);
    else if (auto *line = qobject_cast<QLineEdit *>(watched); line && qobject_cast<QAbstractSpinBox *>(line->parentWidget()))
        edit = line;
    if (!edit)
        return false;
    auto *key = static_cast<QKeyEvent *>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo);
    if ((undo && !edit->isUndoAvailable()) || (redo && !edit->isRedoAvailable())) {
        // Not overridden: the key goes on to the window's shortcut (Edit > Undo, Redo).
        event->ignore();
        return true;
    }
    return false;
}

} // namespace napkin::ui
