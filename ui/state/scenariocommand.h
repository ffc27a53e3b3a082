#pragma once

#include "core/model/scenario.h"

#include <QUndoCommand>

namespace napkin::ui {

class ScenarioController;

/// One undoable change of the scenario. Consecutive commands of one slider drag merge, so a
/// drag is a single undo step.
class ScenarioCommand final : public QUndoCommand
{
public:
    ScenarioCommand(ScenarioController *controller, const Scenario &before, const Scenario &after,
                    const QString &text, int mergeKey, int interaction);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    ScenarioController *m_controller;
    Scenario m_before;
    Scenario m_after;
    int m_mergeKey;
    int m_interaction;
};

} // namespace napkin::ui
