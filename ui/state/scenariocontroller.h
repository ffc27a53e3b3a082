#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"
#include "core/model/scenario.h"
#include "core/model/validation.h"

#include <QObject>
#include <QString>

#include <optional>

class QUndoStack;

namespace napkin::ui {

/// Holds the one current Scenario. Every change recomputes the Report synchronously and is
/// announced once; controls propose changes, charts listen to reportChanged().
class ScenarioController final : public QObject
{
    Q_OBJECT

public:
    ScenarioController(const Catalog &catalog, const Scenario &initial, QObject *parent = nullptr);

    const Catalog &catalog() const { return m_catalog; }
    const Scenario &scenario() const { return m_scenario; }
    /// The last report that could be computed; stays on screen while the scenario is invalid.
    const std::optional<Report> &report() const { return m_report; }
    /// Set while the current scenario is refused by core.
    const std::optional<Refusal> &error() const { return m_error; }
    QUndoStack *undoStack() const { return m_undo; }

    /// Records `next` as one undo step. While an interaction (a slider drag) is open, steps
    /// with the same `mergeKey` merge into one; a negative key never merges.
    void propose(const Scenario &next, const QString &description, int mergeKey = -1);
    /// Applies a scenario without recording it (undo/redo use this).
    void setScenario(const Scenario &s);

    void beginInteraction();
    void endInteraction();
    bool interacting() const { return m_interaction != 0; }

signals:
    void scenarioChanged(const napkin::Scenario &scenario);
    void reportChanged(const napkin::Report &report);
    /// Empty when the scenario is valid, else core's Refusal message.
    void errorChanged(const QString &message);
    void interactionChanged(bool active);
    /// Around each recompute's signals: the views change as one batch between them.
    void changesBegin();
    void changesEnd();
    /// A one-line explanation of something changed on the user's behalf.
    void notice(const QString &message);

private:
    void recompute();

    const Catalog &m_catalog;
    Scenario m_scenario;
    std::optional<Report> m_report;
    std::optional<Refusal> m_error;
    QUndoStack *m_undo = nullptr;
    int m_interaction = 0;      // serial of the open drag; 0 when none
    int m_lastInteraction = 0;
};

} // namespace napkin::ui
