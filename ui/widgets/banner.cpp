#include "ui/widgets/banner.h"

namespace napkin::ui {

Banner::Banner(QWidget *parent) : TextStrip(parent)
{
    setLines(2);
    setBold(true);
    setTextAsToolTip(true);
    showMessage(Level::Good, QString());
}

void Banner::showMessage(Level level, const QString &text)
{
    m_level = level;
    // Dark text on pale fills keeps contrast on projectors; red/green are not the only cue.
    switch (level) {
    case Level::Good:
        setColors(QColor(0x11, 0x44, 0x11), QColor(0xd9, 0xf2, 0xd9), QColor(0x5a, 0x9a, 0x5a));
        break;
    case Level::Bad:
        setColors(QColor(0x66, 0x11, 0x11), QColor(0xfb, 0xda, 0xda), QColor(0xb0, 0x40, 0x40));
        break;
    case Level::Error:
        setColors(QColor(0x55, 0x33, 0x00), QColor(0xff, 0xf1, 0xc9), QColor(0xc0, 0x8a, 0x00));
        break;
    }
    setText(text);
    setVisible(true);
}

} // namespace napkin::ui
