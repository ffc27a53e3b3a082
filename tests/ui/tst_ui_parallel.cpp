// The parallel-training controls and page: choosing TP and PP moves the per-stage memory and
// the step breakdown to the core's figures, read back from the chart series; values the
// scenario cannot take are greyed with the rule that forbids them; a planner row applies its
// layout as one undo step.

#include "ui/controls/controlspanel.h"
#include <QStackedWidget>
#include <QCheckBox>
#include <QLabel>
#include <QTextDocument>
#include "ui/views/dashboard.h"
#include "guitestfixture.h"
#include "ui/controls/layoutcontrols.h"
#include "ui/views/layoutpicture.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/memorypanel.h"
#include "ui/controls/modelshapeoptions.h"
#include "ui/controls/moreoptions.h"
#include "ui/widgets/numberspinbox.h"
#include "ui/views/plannerpanel.h"
#include "ui/views/fitfix.h"
#include "ui/widgets/banner.h"
#include "core/report/suggestion.h"
#include "core/text/layouttext.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/stagememorypanel.h"
#include "ui/views/steptimepanel.h"
#include "core/report/trackrecord.h"
#include "core/text/units.h"
#include "core/text/stepexplain.h"
#include "ui/widgets/textstrip.h"

#include <QBarSet>
#include <QImage>
#include <QTabWidget>
#include <QHeaderView>
#include <QHelpEvent>
#include <QToolTip>
#include <QCheckBox>
#include <QLabel>
#include <QComboBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace napkin;
using namespace napkin::ui;
using Choice = LayoutControls::Choice;

Q_DECLARE_METATYPE(napkin::Scenario)

namespace {

/// Llama 3 70B on 64 H100s at sequence 8192, 1M tokens per step (the question).
Scenario llama70b(const Catalog &catalog)
{
    Scenario s;
    s.presetId = QStringLiteral("llama3-70b");
    s.model = catalog.findPreset(s.presetId)->shape;
    s.gpus = 64;
    s.seqLen = 8192;
    s.microBatch = 1;
    s.globalBatch = 128;
    s.flashAttention = true;
    return s;
}

int indexOf(QComboBox *box, const QString &text)
{
    for (int i = 0; i < box->count(); ++i)
        if (box->itemText(i) == text)
            return i;
    return -1;
}

void choose(QComboBox *box, const QString &text)
{
    const int i = indexOf(box, text);
    QVERIFY2(i >= 0, qPrintable(text));
    box->setCurrentIndex(i);
    emit box->activated(i);
}

} // namespace

class TestParallelWindow final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void choosersDriveStagesAndStep()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        LayoutControls *controls = w.controls()->layoutControls();
        QVERIFY(controls->isVisible());  // a scenario with a global batch opens the group
        choose(controls->chooser(Choice::Tp), QStringLiteral("8"));
        choose(controls->chooser(Choice::Pp), QStringLiteral("4"));
        QCOMPARE(w.controller()->scenario().tp, std::int64_t{8});
        QCOMPARE(w.controller()->scenario().pp, std::int64_t{4});
        QCOMPARE(w.controller()->undoStack()->count(), 2);
        const Report &r = *w.controller()->report();
        QCOMPARE(r.layout.dp, std::int64_t{2});

        // Memory per pipeline stage: every stage, every component, as the core computed it.
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        StageMemoryPanel *stages = w.dashboard()->stageMemoryPanel();
        QCOMPARE(stages->stagesShown().size(), qsizetype(4));
        for (int c = 0; c < kMemoryComponents; ++c) {
            const auto component = static_cast<MemoryComponent>(c);
            for (int i = 0; i < 4; ++i)
                QCOMPARE(stages->barSet(component)->at(i) * 1e9, componentBytes(r.memory.perStage[i].bytes, component));
        }
        // The first stage holds the most micro-batches in flight: it is the worst here, and
        // its number under the bar says so; the legend gives its figures.
        QCOMPARE(r.memory.worstStage, std::int64_t{0});
        QCOMPARE(stages->stageLabels(), (QStringList{QStringLiteral("▶0"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
        QVERIFY2(stages->legendText().contains(QStringLiteral("worst: stage 0, 20 layers")), qPrintable(stages->legendText()));
        QVERIFY(r.memory.perStage[0].bytes.total() > r.memory.perStage[3].bytes.total());

        // The step breakdown: each segment is the core's seconds, in the axis unit.
        StepTimePanel *step = w.dashboard()->stepTimePanel();
        double sum = 0;
        for (int c = 0; c < kStepComponents; ++c) {
            const auto component = static_cast<StepComponent>(c);
            QCOMPARE(step->barSet(component)->at(0) * step->axisUnit(), stepComponentSeconds(r.step, component));
            sum += stepComponentSeconds(r.step, component);
        }
        QVERIFY(test_near(sum, r.step.stepSeconds));
        QVERIFY(stepComponentSeconds(r.step, StepComponent::Bubble) > 0);     // pp 4
        QVERIFY(stepComponentSeconds(r.step, StepComponent::ModelComm) > 0);  // tp 8
        QVERIFY(step->summary()->text().contains(QStringLiteral("estimated MFU")));
        // Under it, how far the estimate has been from published runs of dense models, the
        // figures tst_measuredtraining checks against its table.
        const TrackRecord &dense = trackRecords().front();
        QVERIFY(!step->trackRecordLine()->isHidden());
        QVERIFY2(step->trackRecordLine()->text().startsWith(
                     QStringLiteral("Track record: on %1 published dense runs").arg(dense.runs)),
                 qPrintable(step->trackRecordLine()->text()));
        QVERIFY(step->trackRecordLine()->text().contains(fmt::percent(-dense.meanError, 1) + QStringLiteral(" faster")));

        // The layout picture says what it draws.
        QCOMPARE(w.dashboard()->layoutPicture()->title(),
                 QStringLiteral("One replica: tp 8 × cp 1 × pp 4 = 32 GPUs, × dp 2 = 64 GPUs"));

        // Moving PP again moves the stages with it.
        choose(controls->chooser(Choice::Pp), QStringLiteral("8"));
        QCOMPARE(w.dashboard()->stageMemoryPanel()->stagesShown().size(), qsizetype(8));
        const Report &eight = *w.controller()->report();
        QCOMPARE(stages->barSet(MemoryComponent::Activations)->at(0) * 1e9, eight.memory.perStage[0].bytes.activations);
    }

    void aHiddenPageCatchesUpWhenShown()
    {
        // The page not on screen is not redrawn on every change (a drag pays only for what it
        // shows); chosen, it shows the newest scenario before it is painted.
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        // Nor is it built before it is first shown or asked for: start-up pays for the overview.
        QVERIFY(!w.dashboard()->parallelViewsBuilt());
        QVERIFY(!w.dashboard()->budgetBuilt());
        LayoutControls *controls = w.controls()->layoutControls();
        StageMemoryPanel *stages = w.dashboard()->stageMemoryPanel();
        QVERIFY(w.dashboard()->parallelViewsBuilt());
        QVERIFY(!stages->isVisible());
        choose(controls->chooser(Choice::Pp), QStringLiteral("4"));
        QCOMPARE(stages->stagesShown().size(), qsizetype(1));  // still the opening pp 1
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        QCOMPARE(stages->stagesShown().size(), qsizetype(4));
        const Report &four = *w.controller()->report();
        for (int i = 0; i < 4; ++i)
            QCOMPARE(stages->barSet(MemoryComponent::Activations)->at(i) * 1e9, four.memory.perStage[i].bytes.activations);
        // And the other way: the overview's memory chart after a change made on this page.
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        const double before = memory->barSet(MemoryComponent::Params)->at(0);
        choose(controls->chooser(Choice::Tp), QStringLiteral("8"));
        QCOMPARE(memory->barSet(MemoryComponent::Params)->at(0), before);
        w.dashboard()->pageTabs()->setCurrentIndex(0);  // Overview
        const Report &r = *w.controller()->report();
        QCOMPARE(memory->barSet(MemoryComponent::Params)->at(0) * 1e9, r.memory.perGpu.params);
        QVERIFY(memory->barSet(MemoryComponent::Params)->at(0) < before);
    }

    void theViewInSightStaysInSight()
    {
        // Large text turns the two pages into one row of tabs and back: the page shown becomes
        // its first tab, and the tab the user then chose decides the page.
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        Dashboard *d = w.dashboard();
        d->pageTabs()->setCurrentIndex(1);  // Parallel training
        d->setArrangement(Dashboard::Arrangement::Tabs);
        // (A view lazily built sits in its place, the tab's page: lazywidget.h.)
        QCOMPARE(d->tabs()->currentWidget(), d->stageMemoryPanel()->parentWidget());
        d->setArrangement(Dashboard::Arrangement::Grid);
        QCOMPARE(d->pageTabs()->currentIndex(), 1);
        d->setArrangement(Dashboard::Arrangement::Tabs);
        d->tabs()->setCurrentWidget(d->memoryCell());
        d->setArrangement(Dashboard::Arrangement::Grid);
        QCOMPARE(d->pageTabs()->currentIndex(), 0);
        QVERIFY(d->memoryPanel()->isVisible());
        d->setArrangement(Dashboard::Arrangement::Tabs);
        d->tabs()->setCurrentWidget(d->plannerPanel()->parentWidget());
        d->setArrangement(Dashboard::Arrangement::Grid);
        QCOMPARE(d->pageTabs()->currentIndex(), 1);
        QVERIFY(d->plannerPanel()->isVisible());
    }

    // The keyboard goes on from the Planner tab: Ctrl+Tab in its table reaches the Budget tab
    // after it (the table's own tab navigation had kept it, and a presenter on the keyboard
    // could not leave the planner).
    void ctrlTabLeavesThePlannerTable()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showAndWait(w));
        Dashboard *d = w.dashboard();
        d->setArrangement(Dashboard::Arrangement::Tabs);
        d->tabs()->setCurrentWidget(d->plannerPanel()->parentWidget());
        QVERIFY(d->plannerPanel()->isVisible());
        QTableWidget *table = d->plannerPanel()->table();
        QTRY_VERIFY(table->rowCount() > 1);  // the plan arrives from its thread
        table->setFocus();
        table->setCurrentCell(0, 0);
        const int planner = d->tabs()->currentIndex();
        QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(d->tabs()->currentIndex(), planner + 1);
        QCOMPARE(d->tabs()->tabText(d->tabs()->currentIndex()), QStringLiteral("Budget"));
    }

    void invalidValuesAreGreyedWithTheirRule()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showAndWait(w));
        LayoutControls *controls = w.controls()->layoutControls();
        const auto item = [](QComboBox *box, const QString &text) {
            auto *model = qobject_cast<QStandardItemModel *>(box->model());
            return model->item(indexOf(box, text));
        };
        // Llama 3 70B has 8 K/V heads: TP 16 would split one.
        QStandardItem *tp16 = item(controls->chooser(Choice::Tp), QStringLiteral("16"));
        QVERIFY(tp16);
        QVERIFY(!tp16->isEnabled());
        QVERIFY2(tp16->toolTip().contains(QStringLiteral("kv_heads = 8")), qPrintable(tp16->toolTip()));
        QVERIFY(item(controls->chooser(Choice::Tp), QStringLiteral("8"))->isEnabled());
        // Virtual stages need a pipeline.
        QStandardItem *vpp2 = item(controls->chooser(Choice::Vpp), QStringLiteral("2"));
        QVERIFY(!vpp2->isEnabled());
        QVERIFY2(vpp2->toolTip().contains(QStringLiteral("pp = 1")), qPrintable(vpp2->toolTip()));
        // 64 GPUs cannot hold tp 1 x pp 128: PP stops at the layers and at the GPUs.
        QCOMPARE(indexOf(controls->chooser(Choice::Pp), QStringLiteral("128")), -1);
        // Sequence parallelism needs TP.
        QVERIFY(!controls->sequenceParallel()->isEnabled());
        // Every greyed item names its rule; none is empty.
        for (Choice c : {Choice::Tp, Choice::Pp, Choice::Vpp, Choice::Cp, Choice::GlobalBatch, Choice::GpusPerNode}) {
            QComboBox *box = controls->chooser(c);
            auto *model = qobject_cast<QStandardItemModel *>(box->model());
            for (int i = 0; i < box->count(); ++i)
                if (!model->item(i)->isEnabled())
                    QVERIFY2(model->item(i)->toolTip().startsWith(QStringLiteral("Not possible: ")),
                             qPrintable(box->itemText(i)));
        }
    }

    void mixtureOfExpertsInTheWindow()
    {
        // Mixtral 8x7B (HF config: 8 experts, top-2) on 64 H100s: the preset fills the expert
        // fields, EP appears among the layout choosers, the experts' state is its own memory
        // segment and the all-to-all its own step segment, each read back from the series.
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        LayoutControls *controls = w.controls()->layoutControls();
        QComboBox *ep = controls->chooser(Choice::Ep);
        QVERIFY(!ep->isVisible());  // a dense model has no experts to split
        QComboBox *preset = w.controls()->moreOptions()->presetBox();
        const int mixtral = preset->findData(QStringLiteral("mixtral-8x7b"));
        QVERIFY(mixtral >= 0);
        preset->setCurrentIndex(mixtral);
        emit preset->activated(mixtral);
        QCOMPARE(w.controller()->scenario().model.experts, std::int64_t{8});
        ModelShapeOptions *shape = w.controls()->moreOptions()->shapeOptions();
        QCOMPARE(shape->expertsBox()->value(), 8.0);
        QCOMPARE(shape->topKBox()->value(), 2.0);
        QVERIFY(!shape->switchesLabel()->isVisibleTo(shape));  // Mixtral sets no switch beyond its experts
        const int oss = preset->findData(QStringLiteral("gpt-oss-20b"));
        preset->setCurrentIndex(oss);
        emit preset->activated(oss);
        QVERIFY(shape->switchesLabel()->isVisibleTo(shape));
        QCOMPARE(shape->switchesLabel()->text(),
                 QStringLiteral("head_dim 64 · linear biases · attention sinks · sliding window 128 (every 2nd block full)"));
        preset->setCurrentIndex(mixtral);
        emit preset->activated(mixtral);
        QTRY_VERIFY(ep->isVisible());
        // EP 3 does not divide 8 experts: it is never offered; 16 is more than the experts.
        QCOMPARE(indexOf(ep, QStringLiteral("3")), -1);
        QCOMPARE(indexOf(ep, QStringLiteral("16")), -1);
        auto *model = qobject_cast<QStandardItemModel *>(ep->model());
        for (int i = 0; i < ep->count(); ++i)
            if (!model->item(i)->isEnabled())
                QVERIFY(model->item(i)->toolTip().startsWith(QStringLiteral("Not possible: ")));
        choose(ep, QStringLiteral("8"));
        choose(controls->chooser(Choice::Tp), QStringLiteral("2"));
        const Scenario &s = w.controller()->scenario();
        QCOMPARE(s.ep, std::int64_t{8});
        const Report &r = *w.controller()->report();
        QVERIFY(r.memory.perGpu.experts > 0);
        // The memory chart's Experts segment, at the chosen ZeRO stage, is the core's bytes.
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        QCOMPARE(memory->barSet(MemoryComponent::Experts)->at(s.zeroStage) * 1e9, r.memory.perGpu.experts);
        QVERIFY(memory->legendText().contains(QStringLiteral("Experts")));
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        StageMemoryPanel *stages = w.dashboard()->stageMemoryPanel();
        QCOMPARE(stages->barSet(MemoryComponent::Experts)->at(0) * 1e9, r.memory.perStage[0].bytes.experts);
        // The step's EP segment is the core's exposed all-to-all.
        StepTimePanel *step = w.dashboard()->stepTimePanel();
        QVERIFY(r.step.epExposed > 0);
        QCOMPARE(step->barSet(StepComponent::ExpertComm)->at(0) * step->axisUnit(), r.step.epExposed);
        // Overlapping the all-to-all (DualPipe) is one undoable click that shrinks that segment.
        QCheckBox *overlap = controls->epOverlap();
        QVERIFY(overlap->isVisible());
        QVERIFY(!overlap->isChecked());
        const double exposedWhole = r.step.epExposed;
        const int steps = w.controller()->undoStack()->count();
        overlap->click();
        QVERIFY(w.controller()->scenario().epOverlap);
        QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
        const Report &overlapped = *w.controller()->report();
        QVERIFY(overlapped.step.epExposed < exposedWhole);
        QCOMPARE(step->barSet(StepComponent::ExpertComm)->at(0) * step->axisUnit(), overlapped.step.epExposed);
        w.controller()->undoStack()->undo();
        QVERIFY(!w.controller()->scenario().epOverlap);
        QTRY_VERIFY(!overlap->isChecked());
        // Back to a dense preset: EP returns to 1 (with a notice) and its row hides.
        const int dense = preset->findData(QStringLiteral("llama3-8b"));
        preset->setCurrentIndex(dense);
        emit preset->activated(dense);
        QCOMPARE(w.controller()->scenario().ep, std::int64_t{1});
        QVERIFY(!w.controller()->error());
        QTRY_VERIFY(!ep->isVisible());
        QVERIFY(!overlap->isVisible());
    }

    // A row that ties with the one above it (ZeRO 1 and 2 reduce the same bytes, and the plan
    // puts the one with more headroom first): applied, it is ranked where it stands, not at the
    // count of faster layouts plus one (Llama 3.1 405B on 1,024 GPUs: row 12 had read "rank 11").
    void plannerRanksATiedRowWhereItStands()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3.1-405b"));
        s.gpus = 1024;
        s.tp = 8;
        s.pp = 16;
        s.globalBatch = 512;
        s.seqLen = 8192;
        s.microBatch = 1;
        MainWindow w(env().catalog(), s);
        QVERIFY(uitest::showAndWait(w));
        PlannerPanel *planner = w.dashboard()->plannerPanel();
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        QTRY_VERIFY_WITH_TIMEOUT(planner->plan().has_value() && planner->pending() == 0, 20000);
        const QList<PlannedLayout> &rows = planner->plan()->layouts;
        int tied = -1;
        for (int i = 1; i < rows.size() && tied < 0; ++i)
            if (rows[i].fits && rows[i].stepSeconds <= rows[i - 1].stepSeconds * (1 + 1e-9))
                tied = i;
        QVERIFY2(tied > 0, "no two layouts of the plan tie");
        emit planner->table()->cellClicked(tied, 0);
        QTRY_VERIFY2(planner->currentLine()->text().startsWith(QStringLiteral("Current layout: rank %1 ").arg(tied + 1)),
                     qPrintable(planner->currentLine()->text()));
        QCOMPARE(planner->table()->selectedItems().first()->row(), tied);
    }

    // On a projector (1024x768, text x2) the planner's table scrolls sideways: the figures a
    // layout is ranked by stand first, in sight, where they had been the columns scrolled away.
    void plannerKeepsStepAndMfuInSight()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showInTabs(w));
        PlannerPanel *planner = w.dashboard()->plannerPanel();
        uitest::showTabOf(w, planner);
        QTRY_VERIFY_WITH_TIMEOUT(planner->plan().has_value() && planner->pending() == 0, 20000);
        const QHeaderView *header = planner->table()->horizontalHeader();
        const int width = planner->table()->viewport()->width();
        for (const QString &name : {QStringLiteral("Step"), QStringLiteral("MFU")}) {
            int column = -1;
            for (int c = 0; c < planner->table()->columnCount(); ++c)
                if (planner->table()->horizontalHeaderItem(c)->text() == name)
                    column = c;
            QVERIFY(column >= 0);
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(header->sectionViewportPosition(column) >= 0 && right <= width,
                     qPrintable(QStringLiteral("%1 spans %2..%3 of %4").arg(name).arg(header->sectionViewportPosition(column)).arg(right).arg(width)));
        }
    }

    void plannerRowIsOneUndoStep()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showAndWait(w));
        PlannerPanel *planner = w.dashboard()->plannerPanel();
        // A hidden table does not plan: the overview's sliders do not pay for it.
        QApplication::processEvents();
        QVERIFY(!planner->isVisible());
        QVERIFY(!planner->plan().has_value());
        QVERIFY(planner->pending() > 0);
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        QTRY_VERIFY_WITH_TIMEOUT(planner->plan().has_value() && planner->pending() == 0, 20000);
        QVERIFY(planner->table()->rowCount() > 0);
        // The columns fit their texts (a one-digit TP column is far narrower than Qt's default),
        // so that every column, MFU last, is in sight.
        QVERIFY(planner->table()->horizontalHeader()->sectionSize(0) < planner->table()->horizontalHeader()->defaultSectionSize());
        QVERIFY(planner->currentLine()->text().contains(QStringLiteral("does not fit")));  // TP 1 x DP 64
        const Scenario before = w.controller()->scenario();
        const int steps = w.controller()->undoStack()->count();
        const PlannedLayout best = planner->plan()->layouts.first();
        // Hovering a row says why it ranks there.
        QWidget *viewport = planner->table()->viewport();
        const QPoint inFirstRow = planner->table()->visualRect(planner->table()->model()->index(0, 2)).center();
        QHelpEvent hover(QEvent::ToolTip, inFirstRow, viewport->mapToGlobal(inFirstRow));
        QApplication::sendEvent(viewport, &hover);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), planner->rowToolTip(0));
        QVERIFY2(QToolTip::text().startsWith(QStringLiteral("#1 tp ")) && QToolTip::text().contains(best.reason),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
        emit planner->table()->cellClicked(0, 0);
        const Scenario &after = w.controller()->scenario();
        QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
        QCOMPARE(after.tp, best.tp);
        QCOMPARE(after.pp, best.pp);
        QCOMPARE(after.vpp, best.vpp);
        QCOMPARE(after.cp, best.cp);
        QCOMPARE(after.zeroStage, best.zeroStage);
        QCOMPARE(after.microBatch, best.microBatch);
        QVERIFY(w.controller()->report()->memory.fits);
        QCOMPARE(w.controller()->report()->step.stepSeconds, best.stepSeconds);
        QTRY_VERIFY(planner->currentLine()->text().startsWith(QStringLiteral("Current layout: rank 1 ")));
        QVERIFY(!planner->table()->selectedItems().isEmpty());
        QCOMPARE(planner->table()->selectedItems().first()->row(), 0);  // the row highlighted is the layout in use
        // The tokens count the steps, not a step's time: more of them plans nothing again, and
        // the applied layout keeps its rank.
        QTRY_COMPARE(planner->pending(), 0);
        Scenario longer = w.controller()->scenario();
        longer.tokens *= 2;
        w.controller()->propose(longer, QStringLiteral("More tokens"));
        QCOMPARE(planner->pending(), 0);
        QVERIFY(planner->currentLine()->text().startsWith(QStringLiteral("Current layout: rank 1 ")));
        w.controller()->undoStack()->undo();
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario(), before);
        // Undone, the layout in use (which does not fit) is no row of the table: none stays highlighted.
        QTRY_VERIFY(planner->table()->selectedItems().isEmpty());
    }

    // A run that does not fit: the banner offers the planner's fix (worked out off the GUI
    // thread), the button applies it as one undo step, and the run then fits. Also where the
    // global batch follows batch x dp (the window's default): the fix keeps the sequences per
    // step it was planned at (it had followed the fix's own micro-batch and DP to a batch
    // interleaving refuses: "vpp: needs micro-batches per step (1) to be a multiple of pp").
    void bannerOffersTheFix_data()
    {
        QTest::addColumn<Scenario>("start");
        QTest::newRow("global batch 128") << llama70b(env().catalog());
        Scenario following = env().presetScenario(QStringLiteral("llama3-70b"));
        following.gpus = 64;
        following.tp = 4;
        following.pp = 4;
        QTest::newRow("global batch following batch x dp") << following;
    }

    void bannerOffersTheFix()
    {
        QFETCH(Scenario, start);
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        QVERIFY(!w.controller()->report()->memory.fits);
        QTRY_VERIFY_WITH_TIMEOUT(memory->fitFix()->suggestion().has_value() && !memory->fitFix()->pending(), 20000);
        QVERIFY(memory->fitFix()->isVisible());
        const auto core = suggestFit(*w.controller()->report());
        QVERIFY(core && core->layout);
        QCOMPARE(memory->fitFix()->suggestion()->layout->stepSeconds, core->layout->stepSeconds);
        QVERIFY2(memory->fitsBanner()->text().contains(QStringLiteral("Fits with ")), qPrintable(memory->fitsBanner()->text()));
        // It names what the fix changes (dp follows from the rest), where the whole layout had run
        // past the banner's line at 1366 px ("… · b 4 · non…"); the tooltip keeps the whole.
        QVERIFY2(!memory->fitsBanner()->text().contains(QStringLiteral("dp ")), qPrintable(memory->fitsBanner()->text()));
        QVERIFY2(memory->fitsBanner()->text().contains(plannedChangeText(*core->layout, w.controller()->scenario())),
                 qPrintable(memory->fitsBanner()->text()));
        QVERIFY2(memory->fitsBanner()->toolTip().contains(plannedLayoutWords(*core->layout)), qPrintable(memory->fitsBanner()->toolTip()));
        // As rich text, which Qt wraps: plain, the whole layout had run 1,350 px wide.
        QVERIFY(Qt::mightBeRichText(memory->fitsBanner()->toolTip()));
        QVERIFY(Qt::mightBeRichText(memory->fitFix()->toolTip()));
        const Scenario before = w.controller()->scenario();
        const int steps = w.controller()->undoStack()->count();
        const std::int64_t sequences = w.controller()->report()->layout.globalBatch;
        memory->fitFix()->click();
        QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
        QCOMPARE(w.controller()->scenario(), core->layoutScenario);
        QVERIFY2(!w.controller()->error(), qPrintable(w.controller()->error() ? w.controller()->error()->message() : QString()));
        QCOMPARE(w.controller()->report()->scenario, core->layoutScenario);
        QCOMPARE(w.controller()->report()->layout.globalBatch, sequences);
        QVERIFY(w.controller()->report()->memory.fits);
        QTRY_VERIFY(!memory->fitFix()->isVisible());
        QVERIFY(memory->fitsBanner()->text().startsWith(QStringLiteral("✔ FITS")));
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario(), before);
    }

    // On a projector (1024x768, text x2, the Step on a tab of its own) the step's figures take
    // their brief form rather than lose the HFU and the tokens/s to the cut ("… HFU 28…").
    void stepSummaryIsBriefRatherThanCut()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showInTabs(w));
        StepTimePanel *step = w.dashboard()->stepTimePanel();
        uitest::showTabOf(w, step);
        const TextStrip *summary = step->summary();
        QTRY_VERIFY(summary->isVisible());
        const Report &r = *w.controller()->report();
        QCOMPARE(summary->text(), stepSummaryText(r));
        QCOMPARE(summary->toolTip(), stepSummaryText(r));  // the sentence, on hover
        // As drawn: the brief figures whole (less the strip's no-break spaces and joiners).
        const auto plain = [](QString t) { return t.remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' ')); };
        QTRY_COMPARE(plain(summary->shownText()), stepSummaryText(r, true));
    }

    // The step's summary keeps its last figure, the tokens/s per GPU that published runs print:
    // where one line would cut it (the Parallel training page of a 1400x900 window), it takes
    // a second; on a wide page, one.
    void stepSummaryKeepsItsTokensPerSecond()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1400, 900);
        QVERIFY(uitest::showAndWait(w));
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        const TextStrip *summary = w.dashboard()->stepTimePanel()->summary();
        QTRY_VERIFY(summary->isVisible());
        QVERIFY(summary->text().endsWith(QStringLiteral("tokens/s per GPU")));
        QTRY_VERIFY2(summary->showsWholeText(), qPrintable(summary->shownText()));
        QCOMPARE(summary->lines(), 2);
        w.resize(2400, 1000);
        QTRY_COMPARE(w.size(), QSize(2400, 1000));
        QTRY_COMPARE(summary->lines(), 1);
        QVERIFY(summary->showsWholeText());
    }

    // The layout picture's rank numbers stand out from their cells: white on the dark blues of
    // the first stages, black on the light greens of the last (black on the first stages' blue
    // had been hard to read on a projector).
    void rankNumbersContrastWithTheirCells()
    {
        const Scenario s = env().deepSeekV3AtDgxCloud();
        LayoutPicture picture;
        picture.setReport(env().report(s));
        picture.resize(900, 900);
        QImage image(picture.size(), QImage::Format_RGB32);
        image.fill(Qt::white);
        picture.render(&image);
        const QRect grid = picture.boxes().grid;
        const double rowHeight = std::min(grid.height() / 16.0, 3.0 * picture.fontMetrics().height());
        // Inside the first rank's cell of a stage, clear of the frame: light and dark pixels.
        const auto inks = [&](int stage) {
            const QRect cell(grid.left() + 4, static_cast<int>(grid.top() + stage * rowHeight + 4), grid.width() / 2 - 8,
                             static_cast<int>(rowHeight) - 10);
            int light = 0, dark = 0;
            for (int y = cell.top(); y <= cell.bottom(); ++y)
                for (int x = cell.left(); x <= cell.right(); ++x) {
                    const int gray = qGray(image.pixel(x, y));
                    light += gray > 215;
                    dark += gray < 40;
                }
            return std::pair{light, dark};
        };
        const auto [firstLight, firstDark] = inks(0);
        QVERIFY2(firstLight > 8 && firstDark == 0, qPrintable(QStringLiteral("%1 light, %2 dark").arg(firstLight).arg(firstDark)));
        const auto [lastLight, lastDark] = inks(15);
        QVERIFY2(lastDark > 8 && lastLight == 0, qPrintable(QStringLiteral("%1 light, %2 dark").arg(lastLight).arg(lastDark)));
    }

private:
    static bool test_near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }
};

QTEST_MAIN(TestParallelWindow)
#include "tst_ui_parallel.moc"
