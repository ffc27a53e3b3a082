#pragma once

#include "core/model/catalog.h"
#include "core/report/planner.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>

class QTableWidget;

namespace napkin::ui {

class TextStrip;

/// The planner's best layouts for the current model, GPU count and global batch: TP, PP, VPP,
/// CP, EP, DP, ZeRO, micro-batch, recompute, the worst stage's memory, the step and the estimated
/// MFU, with the current layout's rank (or "does not fit") above. The planner runs on a worker
/// thread (one plan at a time, for the newest values; a hidden table plans when shown); the
/// table shows the newest result that has arrived, so a slider never waits for it. Clicking a row asks for that layout (one undo step).
class PlannerPanel final : public QWidget
{
    Q_OBJECT

public:
    PlannerPanel(const Catalog &catalog, QWidget *parent = nullptr);
    ~PlannerPanel() override;

    void setReport(const Report &report);
    void setByteUnit(ByteUnit unit);
    /// Runs the planner on this thread instead of a worker (offscreen export, tests).
    void setSynchronous(bool synchronous) { m_synchronous = synchronous; }

    QTableWidget *table() const { return m_table; }
    TextStrip *currentLine() const { return m_current; }
    /// The plan the table shows (nullopt before the first one arrives).
    const std::optional<PlanReport> &plan() const { return m_plan; }
    /// Plans started and not yet shown (0 when the table is up to date).
    int pending() const { return m_pending; }

    /// The scenario with row `row`'s layout applied.
    Scenario scenarioForRow(int row) const;
    /// What hovering row `row` shows: its rank, its layout and why it ranks there.
    QString rowToolTip(int row) const;

signals:
    /// A row was clicked: the scenario with that layout.
    void layoutChosen(const napkin::Scenario &scenario, const QString &description);
    /// A plan arrived and the table shows it.
    void planShown();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Queue;
    void showPlan(const PlanReport &plan, const Scenario &forScenario);
    void showCurrentRank();
    void fillTable();
    void start(const Report &report);
    /// Fits the columns to their texts: always, or only when a text no longer fits.
    void fitColumns(bool always);

    const Catalog &m_catalog;
    TextStrip *m_current;
    QTableWidget *m_table;
    std::optional<PlanReport> m_plan;
    Scenario m_planScenario;   ///< the scenario the shown plan was made for
    std::optional<Report> m_report;
    ByteUnit m_unit = ByteUnit::GB;
    bool m_synchronous = false;
    int m_pending = 0;
    bool m_stale = false;
    bool m_columnsFitted = false;     ///< the columns were fitted to a plan's texts once             ///< hidden when the scenario changed: plan when shown
    std::uint64_t m_generation = 0;   ///< the newest request
    std::shared_ptr<Queue> m_queue;   ///< shared with the worker, which may outlive a closed window's panel
    QThreadPool m_pool;               ///< declared last: destroyed first, waiting for a running plan
};

} // namespace napkin::ui
