#include "banner.h"

namespace napkin::ui {

Banner::Banner(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setMargin(6);
    setAutoFillBackground(true);
    QFont f = font();
    f.setBold(true);
    setFont(f);
}

void Banner::showMessage(Level level, const QString &text)
{
    if (level != m_level || styleSheet().isEmpty()) {
        m_level = level;
        // Dark text on pale fills keeps contrast on projectors; red/green are not the only cue.
        switch (level) {
        case Level::Good:
            setStyleSheet(QStringLiteral("QLabel { background: #d9f2d9; color: #114411; border: 1px solid #5a9a5a; }"));
            break;
        case Level::Bad:
            setStyleSheet(QStringLiteral("QLabel { background: #fbdada; color: #661111; border: 1px solid #b04040; }"));
            break;
        case Level::Error:
            setStyleSheet(QStringLiteral("QLabel { background: #fff1c9; color: #553300; border: 1px solid #c08a00; }"));
            break;
        }
    }
    if (text != this->text())
        setText(text);
    setVisible(true);
}

} // namespace napkin::ui
