#pragma once

#include <QComboBox>

namespace napkin::ui {

/// A combo box whose current text ends in "…" when the box is narrower than the text, instead
/// of being cut mid-letter (the controls column narrows with the window and widens with text).
class ElidingComboBox final : public QComboBox
{
    Q_OBJECT

public:
    /// Sized by a minimum number of characters (12 unless setMinimumContentsLength() says
    /// otherwise), not by its longest entry: set before any entry is added, so that no entry's
    /// text is ever measured for the size (QComboBox's default measures every one).
    explicit ElidingComboBox(QWidget *parent = nullptr);

    /// The text as painted now: the current text, elided to the edit field.
    QString displayedText() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QRect textRect() const;
};

} // namespace napkin::ui
