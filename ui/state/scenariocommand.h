#pragma once

#include "core/model/scenario.h"

#include <QUndoCommand>

#include <functional>

namespace napkin::ui {

/// One undoable change of the scenario. Consecutive commands of one slider drag merge, so a
/// drag is a single undo step. It applies a scenario through `apply` (the controller's
/// setScenario), so the command knows nothing of who holds the scenario.
class ScenarioCommand final : public QUndoCommand
{
public:
    ScenarioCommand(std::function<void(const Scenario &)> apply, const Scenario &before, const Scenario &after,
                    const QString &text, int mergeKey, int interaction);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    std::function<void(const Scenario &)> m_apply;
    Scenario m_before;
    Scenario m_after;
    int m_mergeKey;
    int m_interaction;
};

} // namespace napkin::ui
