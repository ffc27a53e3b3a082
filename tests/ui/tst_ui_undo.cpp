// Undo and redo of control changes: undo restores the previous scenario exactly, one slider
// drag is one step however many values it passed through, and the standard shortcuts work.

#include "ui/controls/controlspanel.h"
#include "guitestfixture.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/dashboard.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/timepanel.h"
#include "core/text/formulas.h"

#include <QAction>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QStackedWidget>
#include <QTest>
#include <QUndoStack>

using namespace napkin;
using namespace napkin::ui;
using Main = ControlsPanel::Main;

class TestUndo final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void undoRestoresPreviousScenario()
    {
        MainWindow w(env().catalog(), Scenario{});
        QUndoStack *undo = w.controller()->undoStack();
        NumberSpinBox *layers = w.controls()->slider(Main::Layers)->spinBox();
        layers->setFocus();
        QTest::keyClick(layers, Qt::Key_Up);
        QCOMPARE(w.controller()->scenario().model.layers, 13);
        QTest::keyClick(layers, Qt::Key_Up);
        QCOMPARE(w.controller()->scenario().model.layers, 14);
        QCOMPARE(undo->count(), 2);  // spin box steps are separate steps
        undo->undo();
        QCOMPARE(w.controller()->scenario().model.layers, 13);
        undo->undo();
        QCOMPARE(w.controller()->scenario(), Scenario{});
        QCOMPARE(layers->value(), 12.0);  // the control shows the restored value too
        undo->redo();
        QCOMPARE(w.controller()->scenario().model.layers, 13);
    }

    void oneDragIsOneStep()
    {
        MainWindow w(env().catalog(), Scenario{});
        QUndoStack *undo = w.controller()->undoStack();
        QSlider *slider = w.controls()->slider(Main::DModel)->slider();
        slider->setSliderDown(true);  // emits sliderPressed, as a mouse press on the handle does
        QVERIFY(w.controller()->interacting());
        for (int p = slider->value() + 1; p < slider->value() + 40; ++p)
            slider->setValue(p);
        slider->setSliderDown(false);
        QVERIFY(!w.controller()->interacting());
        QVERIFY(w.controller()->scenario().model.dModel > 768);
        QCOMPARE(undo->count(), 1);
        // The step is named for where the drag ended, not its first value.
        const std::int64_t ended = w.controller()->scenario().model.dModel;
        QCOMPARE(undo->undoText(), QStringLiteral("Set d_model to %1").arg(ended));
        // Undo through the menu: the status bar says what was undone, not the drag's old notice.
        QAction *undoAction = nullptr;
        for (QAction *a : w.findChildren<QAction *>())
            if (a->shortcuts().contains(QKeySequence(QKeySequence::Undo)))
                undoAction = a;
        QVERIFY(undoAction);
        undoAction->trigger();
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Undone: Set d_model to %1").arg(ended));
        // Heads and d_ff were adjusted along the way; undo brings all of it back.
        QCOMPARE(w.controller()->scenario(), Scenario{});

        // A drag that returns to where it began leaves no step.
        undo->clear();
        const int start = slider->value();
        slider->setSliderDown(true);
        slider->setValue(start + 5);
        slider->setValue(start);
        slider->setSliderDown(false);
        QCOMPARE(undo->count(), 0);
        QCOMPARE(w.controller()->scenario(), Scenario{});
    }

    void twoDragsAreTwoSteps()
    {
        MainWindow w(env().catalog(), Scenario{});
        QSlider *slider = w.controls()->slider(Main::Layers)->slider();
        for (int drag = 0; drag < 2; ++drag) {
            slider->setSliderDown(true);
            slider->setValue(slider->value() + 3);
            slider->setValue(slider->value() + 3);
            slider->setSliderDown(false);
        }
        QCOMPARE(w.controller()->scenario().model.layers, 24);
        QCOMPARE(w.controller()->undoStack()->count(), 2);
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario().model.layers, 18);
    }

    void standardShortcuts()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        Scenario s;
        s.microBatch = 32;
        w.controller()->propose(s, QStringLiteral("test"));
        const QKeySequence undoKey = QKeySequence(QKeySequence::Undo);
        QTest::keySequence(&w, undoKey);
        QCOMPARE(w.controller()->scenario().microBatch, 8);
        QTest::keySequence(&w, QKeySequence(QKeySequence::Redo));
        QCOMPARE(w.controller()->scenario().microBatch, 32);
        // The menu entries carry the platform's standard keys.
        bool found = false;
        for (QAction *a : w.findChildren<QAction *>())
            found |= a->shortcuts().contains(undoKey);
        QVERIFY(found);
    }

    // The keys reach the window from a spin box too, once its typing is committed: a spin box's
    // line edit claimed them, so d_model typed in and Return, then Ctrl+Z, undid nothing. While
    // a value is being typed they stay the box's own (they undo the typing).
    void shortcutsFromASpinBox()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        NumberSpinBox *width = w.controls()->slider(Main::DModel)->spinBox();
        width->setFocus();
        QVERIFY(width->hasFocus());
        width->selectAll();
        QTest::keyClicks(width, QStringLiteral("1024"));
        QCOMPARE(w.controller()->scenario().model.dModel, 768);  // not committed yet
        QTest::keySequence(width, QKeySequence(QKeySequence::Undo));  // undoes the typing only
        QCOMPARE(w.controller()->scenario().model.dModel, 768);
        QCOMPARE(w.controller()->undoStack()->count(), 0);
        width->selectAll();
        QTest::keyClicks(width, QStringLiteral("1024"));
        QTest::keyClick(width, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().model.dModel, 1024);
        QVERIFY(width->hasFocus());
        QTest::keySequence(width, QKeySequence(QKeySequence::Undo));
        QCOMPARE(w.controller()->scenario().model.dModel, 768);
        QCOMPARE(width->value(), 768.0);
        QTest::keySequence(width, QKeySequence(QKeySequence::Redo));
        QCOMPARE(w.controller()->scenario().model.dModel, 1024);
    }

    // Ctrl+Tab moves to the next chart from anywhere in the window, the controls included
    // (a tab widget's own Ctrl+Tab had needed the focus inside it), and Ctrl+Shift+Tab back.
    void nextChartFromTheControls()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showInTabs(w));
        Dashboard *dashboard = w.dashboard();
        NumberSpinBox *width = w.controls()->slider(Main::DModel)->spinBox();
        width->setFocus();
        const int before = dashboard->tabs()->currentIndex();
        QTest::keyClick(width, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE(dashboard->tabs()->currentIndex(), before + 1);
        QVERIFY(width->hasFocus());
        QTest::keyClick(width, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(dashboard->tabs()->currentIndex(), before);
        // Round from the first to the last enabled tab (training shuts none of its own).
        QTest::keyClick(width, Qt::Key_PageUp, Qt::ControlModifier);
        QTRY_COMPARE(dashboard->tabs()->currentIndex(), dashboard->tabs()->count() - 1);
    }

    // One chart at a time: the formula under it is the chart's own (the Roofline tab had shown
    // the Memory page's "Model state per GPU = ..."), until a control changes another figure.
    void formulaFollowsTheChartInSight()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showInTabs(w));
        Dashboard *dashboard = w.dashboard();
        const Report &report = *w.controller()->report();
        const auto formulaOf = [&](FormulaTopic topic) { return formulaText(report, topic, ByteUnit::GB); };
        QCOMPARE(dashboard->formulaStrip()->text(), formulaOf(FormulaTopic::ModelState));
        dashboard->tabs()->setCurrentWidget(dashboard->rooflinePanel());
        QCOMPARE(dashboard->formulaStrip()->text(), formulaOf(FormulaTopic::Roofline));
        dashboard->tabs()->setCurrentWidget(dashboard->timePanel());
        QCOMPARE(dashboard->formulaStrip()->text(), formulaOf(FormulaTopic::Time));
        // A change names its own formula, on any tab: layers move the parameter count.
        Scenario deeper = w.controller()->scenario();
        deeper.model.layers += 1;
        w.controller()->propose(deeper, QStringLiteral("layers"));
        QCOMPARE(dashboard->formulaStrip()->text(),
                 formulaText(*w.controller()->report(), FormulaTopic::Params, ByteUnit::GB));
    }

    // A page chosen before the window is first laid out stays chosen: the window is built in
    // tabs and laid out as pages at its size (bench_ui's planner had waited on a hidden page).
    void pageChosenBeforeShowStays()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1280, 720);
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        QVERIFY(uitest::showAndWait(w));
        QTRY_VERIFY(w.dashboard()->currentArrangement() != Dashboard::Arrangement::Tabs);
        QCOMPARE(w.dashboard()->pageTabs()->currentIndex(), 1);
    }

    // The page in sight stays through a change of text size: the Budget, at text x2 a tab
    // and back at x1, had come back as Parallel training.
    void pageSurvivesTextSize()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1366, 768);
        QVERIFY(uitest::showAndWait(w));
        Dashboard *dashboard = w.dashboard();
        QTRY_VERIFY(dashboard->currentArrangement() != Dashboard::Arrangement::Tabs);
        dashboard->pageTabs()->setCurrentIndex(2);  // Budget
        w.setFontScale(2.0);
        QTRY_VERIFY(dashboard->currentArrangement() == Dashboard::Arrangement::Tabs);
        QCOMPARE(dashboard->tabs()->tabText(dashboard->tabs()->currentIndex()), QStringLiteral("Budget"));
        w.setFontScale(1.0);
        QTRY_VERIFY(dashboard->currentArrangement() != Dashboard::Arrangement::Tabs);
        QCOMPARE(dashboard->pageTabs()->currentIndex(), 2);
    }

    // On a wide screen the pages switch as the page buttons do: serving greys Parallel
    // training, and Ctrl+Tab passes over it (it had opened it, with training's figures).
    void nextPagePassesTheGreyedOne()
    {
        Scenario serving;
        serving.mode = Mode::Inference;
        MainWindow w(env().catalog(), serving);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        Dashboard *dashboard = w.dashboard();
        QTRY_VERIFY(dashboard->currentArrangement() != Dashboard::Arrangement::Tabs);
        QStackedWidget *pages = dashboard->pageTabs();
        QCOMPARE(pages->currentIndex(), 0);
        QTest::keyClick(&w, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE(pages->currentIndex(), 2);  // the budget, past Parallel training
        QTest::keyClick(&w, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(pages->currentIndex(), 0);
    }
};

QTEST_MAIN(TestUndo)
#include "tst_ui_undo.moc"
