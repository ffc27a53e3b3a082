#include "ui/widgets/numberspinbox.h"

#include "core/io/numberparse.h"
#include "core/text/units.h"

#include <algorithm>
#include <cmath>

namespace napkin::ui {

NumberSpinBox::NumberSpinBox(Display display, QWidget *parent)
    : QDoubleSpinBox(parent), m_display(display)
{
    setDecimals(0);
    // Emit once per committed edit, not per keystroke: each value is a recompute and an undo step.
    setKeyboardTracking(false);
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
}

void NumberSpinBox::stepBy(int steps)
{
    if (m_stepFactor <= 0) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    const double current = value();
    double next = std::round(current * std::pow(m_stepFactor, steps));
    if (next == current)
        next = current + (steps > 0 ? 1 : -1);
    setValue(std::clamp(next, minimum(), maximum()));
    selectAll();
}

QString NumberSpinBox::textFromValue(double value) const
{
    if (m_display == Display::Compact)
        return fmt::compactCount(value);
    return QString::number(static_cast<qint64>(std::llround(value)));
}

double NumberSpinBox::valueFromText(const QString &text) const
{
    return parseCount(text.trimmed()).value_or(value());
}

QValidator::State NumberSpinBox::validate(QString &text, int &pos) const
{
    Q_UNUSED(pos)
    const auto v = parseCount(text.trimmed());
    if (v && *v >= minimum() && *v <= maximum())
        return QValidator::Acceptable;
    // Anything else may still be on its way to a number ("3e", "1.5").
    return QValidator::Intermediate;
}

} // namespace napkin::ui
