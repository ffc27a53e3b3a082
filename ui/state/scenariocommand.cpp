#include "ui/state/scenariocommand.h"

#include <utility>

namespace napkin::ui {

ScenarioCommand::ScenarioCommand(std::function<void(const Scenario &)> apply, const Scenario &before,
                                 const Scenario &after, const QString &text, int mergeKey,
                                 int interaction)
    : QUndoCommand(text),
      m_apply(std::move(apply)),
      m_before(before),
      m_after(after),
      m_mergeKey(mergeKey),
      m_interaction(interaction)
{
}

void ScenarioCommand::undo()
{
    m_apply(m_before);
}

void ScenarioCommand::redo()
{
    m_apply(m_after);
}

int ScenarioCommand::id() const
{
    // QUndoStack only tries to merge commands with equal non-negative ids.
    return m_interaction != 0 ? m_mergeKey : -1;
}

bool ScenarioCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const ScenarioCommand *>(other);
    if (m_interaction == 0 || o->m_interaction != m_interaction)
        return false;
    m_after = o->m_after;
    // The step is named for where the drag ended ("Set micro-batch to 256"), not where it began.
    setText(o->text());
    // A drag that ends where it began changes nothing and leaves no step behind.
    setObsolete(m_after == m_before);
    return true;
}

} // namespace napkin::ui
