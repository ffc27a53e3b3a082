#pragma once

#include "ui/widgets/textstrip.h"

namespace napkin::ui {

/// A two-line coloured message strip. The words carry the meaning; the colour repeats it.
/// Its height never changes with the message, so nothing below it moves.
class Banner final : public TextStrip
{
    Q_OBJECT

public:
    enum class Level { Good, Bad, Error };

    explicit Banner(QWidget *parent = nullptr);

    void showMessage(Level level, const QString &text);
    Level level() const { return m_level; }

private:
    Level m_level = Level::Good;
};

} // namespace napkin::ui
