#include "ui/widgets/rejectedtyping.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLineEdit>

namespace napkin::ui {

namespace {

class RejectedTypingFilter final : public QObject
{
public:
    RejectedTypingFilter(QAbstractSpinBox *box, std::function<void(const QString &)> rejected)
        : QObject(box), m_box(box), m_rejected(std::move(rejected))
    {
        box->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != m_box)
            return false;
        const bool commit = event->type() == QEvent::FocusOut
                            || (event->type() == QEvent::KeyPress
                                && (static_cast<QKeyEvent *>(event)->key() == Qt::Key_Return
                                    || static_cast<QKeyEvent *>(event)->key() == Qt::Key_Enter));
        if (!commit)
            return false;
        const QLineEdit *edit = m_box->findChild<QLineEdit *>(QString(), Qt::FindDirectChildrenOnly);
        if (!edit)
            return false;
        QString text = edit->text();
        int pos = edit->cursorPosition();
        if (text.trimmed().isEmpty() || m_box->validate(text, pos) == QValidator::Acceptable)
            return false;
        // What was typed, without the box's own prefix and suffix.
        QString typed = edit->text();
        if (const auto *d = qobject_cast<const QDoubleSpinBox *>(m_box)) {
            if (!d->suffix().isEmpty() && typed.endsWith(d->suffix()))
                typed.chop(d->suffix().size());
            if (!d->prefix().isEmpty() && typed.startsWith(d->prefix()))
                typed.remove(0, d->prefix().size());
        }
        m_rejected(typed.trimmed());
        return false;  // the box then goes back to its value, as it always does
    }

private:
    QAbstractSpinBox *m_box;
    std::function<void(const QString &)> m_rejected;
};

} // namespace

void onRejectedTyping(QAbstractSpinBox *box, std::function<void(const QString &typed)> rejected)
{
    new RejectedTypingFilter(box, std::move(rejected));
}

QString rejectedTypingText(const QAbstractSpinBox *box, const QString &typed, bool integer)
{
    const auto *d = qobject_cast<const QDoubleSpinBox *>(box);
    if (!d)
        return QObject::tr("not taken (got '%1')").arg(typed);
    const auto shown = [d](double v) { return d->textFromValue(v) + d->suffix(); };
    return QObject::tr("must be %1 from %2 to %3 (got '%4'); kept %5")
        .arg(integer ? QObject::tr("an integer") : QObject::tr("a number"), shown(d->minimum()), shown(d->maximum()), typed,
             shown(d->value()));
}

} // namespace napkin::ui
