#include "ui/views/plannerpanel.h"

#include "core/text/layouttext.h"

#include "ui/widgets/cachedscrollbar.h"
#include "ui/widgets/statictextdelegate.h"
#include "ui/widgets/textstrip.h"

#include <QApplication>
#include <QHeaderView>
#include <QMetaObject>
#include <QMutex>
#include <QPointer>
#include <QTableWidget>
#include <QThreadPool>
#include <QToolTip>
#include <QHelpEvent>
#include <QVBoxLayout>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace napkin::ui {

namespace {

constexpr int kRows = 12;
// The columns of the figures a layout is ranked by (the headers, in the constructor).
constexpr int kMemoryColumn = 9;
constexpr int kStepColumn = 10;
constexpr int kMfuColumn = 11;

/// The table, with what its columns' contents need (QTableView keeps that to itself).
class PlanTable final : public QTableWidget
{
public:
    using QTableWidget::QTableWidget;
    int contentsWidth(int column) const { return sizeHintForColumn(column); }
};

PlanReport runPlanner(const Scenario &s, const Report &r)
{
    PlanOptions options;
    options.top = kRows;
    return planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
}

// The planner's thread yields to the window's: on a two-core laptop a plan (tens of ms for
// 405B on 16,384 GPUs) must not take the core the slider is painting on. Linux applies nice
// values per thread; QThread's priorities do nothing there for ordinary threads.
void lowerThisThreadsPriority()
{
#ifdef Q_OS_LINUX
    thread_local bool lowered = false;
    if (!lowered) {
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
        lowered = true;
    }
#endif
}

} // namespace

/// The newest request waiting for the planner's one thread. Requests that arrive while a plan
/// runs replace each other, so a drag costs one plan at a time, always for the newest values.
struct PlannerPanel::Queue {
    QMutex mutex;
    std::optional<std::pair<std::uint64_t, Report>> next;
    bool running = false;
    bool closed = false;
};

PlannerPanel::PlannerPanel(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_current(new TextStrip(this)),
      m_table(new PlanTable(this)),
      m_queue(std::make_shared<Queue>())
{
    m_pool.setMaxThreadCount(1);
    m_current->setLines(2);
    m_current->setBold(true);
    m_current->setTextAsToolTip(true);
    m_current->setAccessibleName(tr("The current layout's rank"));
    // Short headers, so that the MFU column stays in sight at large text; each says more as its tooltip.
    const QStringList headers = {tr("TP"), tr("PP"), tr("VPP"), tr("CP"), tr("EP"), tr("DP"), tr("ZeRO"), tr("Batch"),
                                 tr("Recompute"), tr("Memory"), tr("Step"), tr("MFU")};
    const QStringList headerTips = {
        tr("Tensor-parallel ranks"), tr("Pipeline stages"), tr("Virtual stages per pipeline rank (interleaved 1F1B)"),
        tr("Context-parallel ranks"), tr("Expert-parallel ranks (Mixture-of-Experts), out of DP × CP"),
        tr("Data-parallel replicas"), tr("ZeRO stage over DP × CP"),
        tr("Micro-batch: sequences per GPU per forward and backward pass"), tr("Activation recomputation"),
        tr("Memory per GPU on the worst pipeline stage"), tr("Estimated time of one optimizer step"),
        tr("Estimated model FLOPs utilisation")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    for (int col = 0; col < headers.size(); ++col) {
        auto *item = new QTableWidgetItem(headers[col]);
        item->setToolTip(headerTips[col]);
        m_table->setHorizontalHeaderItem(col, item);
    }
    m_table->setItemDelegate(new StaticTextDelegate(m_table));
    m_table->setHorizontalScrollBar(new CachedScrollBar(Qt::Horizontal, m_table));
    m_table->setVerticalScrollBar(new CachedScrollBar(Qt::Vertical, m_table));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Tab leaves the table and Ctrl+Tab reaches the tabs around it: with the table's own tab
    // navigation, a keyboard that came to the Planner tab could not go on to the next one.
    m_table->setTabKeyNavigation(false);
    // Columns are fitted when a plan arrives, not on every layout pass of the window.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // The figures the ranking is by stand first, the layout after them: at large text in a
    // narrow window the last columns scroll out of sight, and they had been the step and MFU.
    QHeaderView *header = m_table->horizontalHeader();
    const int first[] = {kStepColumn, kMfuColumn, kMemoryColumn};
    for (int i = 0; i < 3; ++i)
        header->moveSection(header->visualIndex(first[i]), i);
    m_table->setAccessibleName(tr("Best layouts"));
    m_table->setToolTip(tr("Click a row to apply its layout (one undo step). Ranked by the estimated step time; "
                           "each row's tooltip says why it ranks there."));
    m_table->viewport()->installEventFilter(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_current);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (!m_plan || row < 0 || row >= m_plan->layouts.size() || !m_plan->layouts[row].fits)
            return;
        emit layoutChosen(scenarioForRow(row), tr("Apply planner layout #%1").arg(row + 1));
    });
}

PlannerPanel::~PlannerPanel()
{
    // A plan still running finishes (the pool waits for it) and its result is dropped.
    QMutexLocker lock(&m_queue->mutex);
    m_queue->closed = true;
    m_queue->next.reset();
}

QString PlannerPanel::rowToolTip(int row) const
{
    if (!m_plan || row < 0 || row >= m_plan->layouts.size())
        return {};
    const PlannedLayout &p = m_plan->layouts[row];
    return tr("#%1 %2\n%3").arg(row + 1).arg(plannedLayoutText(p), p.reason);
}

bool PlannerPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = rowToolTip(m_table->rowAt(help->pos().y()));
        if (!tip.isEmpty()) {
            QToolTip::showText(help->globalPos(), tip, m_table->viewport());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

Scenario PlannerPanel::scenarioForRow(int row) const
{
    return withPlannedLayout(m_planScenario, m_plan->layouts.at(row));
}

void PlannerPanel::setReport(const Report &report)
{
    // Only what the plan depends on restarts it: everything but the layout's own fields.
    // (Without a global batch, the batch follows DP and so the layout: then it all counts.)
    Scenario key = report.scenario;
    Scenario previous = m_report ? m_report->scenario : Scenario{};
    for (Scenario *s : {&key, &previous}) {
        s->baseline = {};
        // Layouts rank by the time of one step; the tokens only count the steps.
        s->tokens = 0;
        if (!s->globalBatch)
            continue;
        s->tp = s->pp = s->vpp = s->cp = 1;
        s->sequenceParallel = false;
        s->zeroStage = 0;
        s->recompute = Recompute::None;
    }
    const bool replan = !m_report || key != previous || key.microBatch != previous.microBatch;
    m_report = report;
    if (replan && !m_synchronous && !isVisible()) {
        m_stale = true;  // a hidden table is planned when it is shown
        ++m_pending;
    } else if (replan) {
        start(report);
    } else {
        showCurrentRank();  // the table stands; the current layout's rank may move
    }
}

void PlannerPanel::setByteUnit(ByteUnit unit)
{
    m_unit = unit;
    if (m_plan)
        showPlan(*m_plan, m_planScenario);
}

void PlannerPanel::start(const Report &report)
{
    m_stale = false;
    const std::uint64_t generation = ++m_generation;
    if (m_synchronous) {
        showPlan(runPlanner(report.scenario, report), report.scenario);
        return;
    }
    ++m_pending;
    QMutexLocker lock(&m_queue->mutex);
    m_queue->next.emplace(generation, report);
    if (m_queue->running)
        return;
    m_queue->running = true;
    QPointer<PlannerPanel> self(this);
    m_pool.start([self, queue = m_queue] {
        lowerThisThreadsPriority();
        for (;;) {
            std::optional<std::pair<std::uint64_t, Report>> job;
            {
                QMutexLocker lock(&queue->mutex);
                if (!queue->next || queue->closed) {
                    queue->running = false;
                    return;
                }
                job = std::move(queue->next);
                queue->next.reset();
            }
            const Report &report = job->second;
            PlanReport plan = runPlanner(report.scenario, report);
            // Shown even when a newer request waits: during a drag the table follows at the
            // planner's pace, one plan behind at most. Its rows apply to the scenario they were
            // made for, and the newest plan replaces it as soon as it is done.
            QMetaObject::invokeMethod(qApp, [self, generation = job->first, plan = std::move(plan), s = report.scenario] {
                if (!self)
                    return;
                self->showPlan(plan, s);
                if (generation != self->m_generation)
                    self->m_pending = 1;
            });
        }
    });
}

void PlannerPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Columns are fitted to their texts when a plan arrives; new text size, new widths.
    if ((event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) && m_plan)
        fitColumns(true);
}

void PlannerPanel::fitColumns(bool always)
{
    // A plan whose texts fit the columns as they are leaves them be: during a drag the columns
    // hold still, and the frame is not laid out again. (The last column stretches: it is
    // measured against its contents only.)
    QHeaderView *header = m_table->horizontalHeader();
    bool fits = !always && m_columnsFitted;  // the first plan fits them: 100 px each holds any text
    for (int col = 0; fits && col < m_table->columnCount(); ++col)
        fits = std::max(static_cast<const PlanTable *>(m_table)->contentsWidth(col), header->sectionSizeHint(col))
               <= header->sectionSize(col);
    if (fits)
        return;
    // Every column fits its contents; then the last takes the rest of the width again (the
    // resize alone would leave it narrower than the table until the next resize).
    m_table->resizeColumnsToContents();
    m_columnsFitted = true;
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
}

void PlannerPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale && m_report)
        start(*m_report);
}

void PlannerPanel::showPlan(const PlanReport &plan, const Scenario &forScenario)
{
    m_plan = plan;
    m_planScenario = forScenario;
    m_pending = 0;
    showCurrentRank();
    fillTable();
    fitColumns(false);
    emit planShown();
}

void PlannerPanel::showCurrentRank()
{
    if (!m_plan)
        return;
    const PlanReport &plan = *m_plan;
    const Scenario &forScenario = m_planScenario;
    // The highlighted row is the layout now in the window, or none: a row applied and then
    // undone had stayed highlighted beside "Current layout: rank 7".
    int currentRow = -1;
    if (m_report) {
        for (int row = 0; row < plan.layouts.size() && currentRow < 0; ++row) {
            Scenario candidate = scenarioForRow(row);
            candidate.baseline = m_report->scenario.baseline;
            candidate.tokens = m_report->scenario.tokens;
            if (candidate == m_report->scenario)
                currentRow = row;
        }
    }
    // The rank of the layout now in the window (it may have changed since the plan was made).
    QString current;
    QString brief;  // where two lines would cut the sentence (large text on a narrow tab)
    if (m_report && !m_report->memory.fits) {
        const QString worst = fmt::bytesIn(m_report->memory.perGpu.total(), m_unit, 1);
        current = tr("Current layout: does not fit (%1 on the worst stage); %2 layouts fit of %3 evaluated")
                      .arg(worst, fmt::count(plan.fitting), fmt::count(plan.evaluated));
        brief = tr("Yours: no fit, %1 · %2 of %3 fit").arg(worst, fmt::count(plan.fitting), fmt::count(plan.evaluated));
    } else if (m_report) {
        const double step = m_report->step.stepSeconds;
        const auto faster = std::count_if(plan.layouts.begin(), plan.layouts.end(),
                                          [&](const PlannedLayout &p) { return p.fits && p.stepSeconds < step * (1 - 1e-9); });
        // The plan's own rank of the current layout holds while the scenario is the one it was made for.
        Scenario planned = forScenario;
        Scenario now = m_report->scenario;
        planned.baseline = now.baseline = {};
        planned.tokens = now.tokens;  // not a plan's input (setReport())
        // A listed layout is ranked where it stands: layouts as fast as it stand before it when
        // simpler (the plan's tie rule), and a count of faster ones had named the row above.
        QString rank;
        if (currentRow >= 0)
            rank = QString::number(currentRow + 1);
        else if (faster < plan.layouts.size())
            rank = QString::number(faster + 1);
        else if (planned == now && plan.currentRank)
            rank = QString::number(*plan.currentRank);
        else
            rank = tr("below #%1").arg(plan.layouts.size());
        current = tr("Current layout: rank %1 of %2 that fit (%3 evaluated), step %4")
                      .arg(rank, fmt::count(plan.fitting), fmt::count(plan.evaluated), fmt::duration(step));
        brief = tr("Yours: rank %1 of %2 · step %3").arg(rank, fmt::count(plan.fitting), fmt::duration(step));
    }
    m_current->setText(current);
    m_current->setBriefText(brief);
    if (currentRow >= 0)
        m_table->selectRow(currentRow);
    else
        m_table->clearSelection();
}

void PlannerPanel::fillTable()
{
    const PlanReport &plan = *m_plan;
    m_table->setRowCount(static_cast<int>(plan.layouts.size()));
    for (int row = 0; row < plan.layouts.size(); ++row) {
        const PlannedLayout &p = plan.layouts[row];
        const QStringList cells = {QString::number(p.tp), QString::number(p.pp), QString::number(p.vpp),
                                   QString::number(p.cp),
                                   p.etp != p.tp ? tr("%1 (etp %2)").arg(p.ep).arg(p.etp) : QString::number(p.ep),
                                   QString::number(p.dp),
                                   QString::number(p.zeroStage),
                                   QString::number(p.microBatch), recomputeName(p.recompute),
                                   fmt::bytesIn(p.worstStageBytes, m_unit, 1),
                                   p.fits ? fmt::duration(p.stepSeconds) : tr("does not fit"),
                                   p.fits ? fmt::percent(p.estimatedMfu, 1) : QStringLiteral("–")};
        for (int col = 0; col < cells.size(); ++col) {
            QTableWidgetItem *item = m_table->item(row, col);
            if (!item) {
                item = new QTableWidgetItem;
                item->setTextAlignment(col < 9 ? Qt::AlignCenter : Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(row, col, item);
            }
            // Only what changed: each change is a signal and a repaint of its cell. (The row's
            // tooltip is made when asked for, in eventFilter(), not set on its 12 cells per plan.)
            if (item->text() != cells[col])
                item->setText(cells[col]);
        }
    }
}

} // namespace napkin::ui
