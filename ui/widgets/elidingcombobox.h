#pragma once

#include <QComboBox>

namespace napkin::ui {

/// A combo box whose current text ends in "…" when the box is narrower than the text, instead
/// of being cut mid-letter (the controls column narrows with the window and widens with text).
class ElidingComboBox final : public QComboBox
{
    Q_OBJECT

public:
    using QComboBox::QComboBox;

    /// The text as painted now: the current text, elided to the edit field.
    QString displayedText() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QRect textRect() const;
};

} // namespace napkin::ui
