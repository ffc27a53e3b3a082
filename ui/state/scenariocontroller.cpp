#include "ui/state/scenariocontroller.h"

#include "ui/state/scenariocommand.h"

#include <QUndoStack>

namespace napkin::ui {

ScenarioController::ScenarioController(const Catalog &catalog, const Scenario &initial, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_scenario(initial), m_undo(new QUndoStack(this))
{
    recompute();
}

void ScenarioController::propose(const Scenario &next, const QString &description, int mergeKey)
{
    if (next == m_scenario)
        return;
    const auto apply = [this](const Scenario &v) { setScenario(v); };
    m_undo->push(new ScenarioCommand(apply, m_scenario, next, description, mergeKey, m_interaction));
}

void ScenarioController::setScenario(const Scenario &s)
{
    if (s == m_scenario && (m_report || m_error))
        return;
    m_scenario = s;
    recompute();
}

void ScenarioController::beginInteraction()
{
    if (m_interaction != 0)
        return;
    m_interaction = ++m_lastInteraction;
    emit interactionChanged(true);
}

void ScenarioController::endInteraction()
{
    if (m_interaction == 0)
        return;
    m_interaction = 0;
    emit interactionChanged(false);
}

void ScenarioController::recompute()
{
    Result<Report> r = computeReport(m_scenario, m_catalog);
    emit changesBegin();
    emit scenarioChanged(m_scenario);
    if (!r.ok()) {
        m_error = r.refusal();
        emit errorChanged(m_error->message());
        emit changesEnd();
        return;
    }
    const bool hadError = m_error.has_value();
    m_error.reset();
    m_report = std::move(r).value();
    if (hadError)
        emit errorChanged(QString());
    emit reportChanged(*m_report);
    emit changesEnd();
}

} // namespace napkin::ui
