#pragma once

#include "core/model/scenario.h"
#include "ui/state/scenariocontroller.h"

#include <QString>

#include <functional>

// Helpers shared by the option groups of the controls column.
namespace napkin::ui {

/// Gives a control its accessible name, and the same tip as accessible description and
/// tooltip, so that screen readers and hovering say the same.
template <typename W>
W *described(W *w, const QString &name, const QString &tip)
{
    w->setAccessibleName(name);
    w->setAccessibleDescription(tip);
    w->setToolTip(tip);
    return w;
}

/// Proposes the current scenario with `apply` done to it, as one undo step named `what`.
inline void proposeChange(ScenarioController *controller, const QString &what,
                          const std::function<void(Scenario &)> &apply)
{
    Scenario s = controller->scenario();
    apply(s);
    controller->propose(s, what);
}

} // namespace napkin::ui
