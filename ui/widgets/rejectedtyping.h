#pragma once

#include <QString>

#include <functional>

class QAbstractSpinBox;

namespace napkin::ui {

/// Calls `rejected` with what was typed when Return, Enter or leaving the box drops a value the
/// box cannot take (beyond its range, or no number at all): Qt's spin box then goes back to its
/// value without a word, and the caller says why, naming the field and its range.
void onRejectedTyping(QAbstractSpinBox *box, std::function<void(const QString &typed)> rejected);

/// "must be an integer from 1 to 1,048,576 (got '10000000'); kept 512": the box's own range and
/// value, as it shows them (its suffix included).
QString rejectedTypingText(const QAbstractSpinBox *box, const QString &typed, bool integer);

} // namespace napkin::ui
