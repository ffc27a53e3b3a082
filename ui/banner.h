#pragma once

#include <QLabel>

namespace napkin::ui {

/// A one-line coloured message strip. The words carry the meaning; the colour repeats it.
class Banner final : public QLabel
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
