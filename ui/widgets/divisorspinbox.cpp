#include "ui/widgets/divisorspinbox.h"

namespace napkin::ui {

DivisorSpinBox::DivisorSpinBox(QWidget *parent) : QSpinBox(parent)
{
    setKeyboardTracking(false);
}

void DivisorSpinBox::stepBy(int steps)
{
    if (m_dividend <= 0) {
        QSpinBox::stepBy(steps);
        return;
    }
    int v = value();
    const int direction = steps > 0 ? 1 : -1;
    for (int n = steps > 0 ? steps : -steps; n > 0; --n) {
        int candidate = v + direction;
        while (candidate >= minimum() && candidate <= maximum()
               && (m_dividend % candidate != 0 || candidate % m_multiple != 0))
            candidate += direction;
        if (candidate < minimum() || candidate > maximum())
            break;
        v = candidate;
    }
    setValue(v);
    selectAll();
}

} // namespace napkin::ui
