// The Budget page: it starts from the scenario's own compute, shows the core's answer for
// the inputs typed, refuses bad ones in words that name the input, draws every law's optimum
// on the budget's iso-FLOP curve, and Apply sets the suggested shape and tokens as one undo step.

#include "guitestfixture.h"
#include "core/report/budget.h"
#include "ui/shell/mainwindow.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/budgetpanel.h"
#include "ui/views/dashboard.h"
#include "ui/widgets/legendstrip.h"

#include <QStackedWidget>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QXYSeries>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace napkin;
using namespace napkin::ui;

namespace {

Scenario llama70b(const Catalog &catalog)
{
    Scenario s;
    s.presetId = QStringLiteral("llama3-70b");
    s.model = catalog.findPreset(s.presetId)->shape;
    s.gpus = 1024;
    s.seqLen = 8192;
    s.microBatch = 1;
    s.flashAttention = true;
    return s;
}

void type(QLineEdit *edit, const QString &text)
{
    edit->setText(text);
    emit edit->editingFinished();
}

} // namespace

class TestBudgetPage final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void answersTheInputsAndApplies()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        BudgetPanel *page = w.dashboard()->budgetPanel();
        w.dashboard()->pageTabs()->setCurrentIndex(2);  // Budget
        QTRY_VERIFY(page->isVisible());
        QVERIFY(page->budget().has_value());
        // Empty: the scenario's own training compute, 6ND.
        QCOMPARE(page->budget()->flops, scenarioBudgetFlops(w.controller()->scenario()));

        // Chinchilla's compute: the page shows what `napkin budget` computes.
        type(page->amountEdit(), QStringLiteral("5.88e23"));
        type(page->inferenceEdit(), QStringLiteral("2e12"));
        BudgetRequest request;
        request.amount = 5.88e23;
        request.inferenceTokens = 2e12;
        const auto core = computeBudget(w.controller()->scenario(), env().catalog(), request);
        QVERIFY(core.ok());
        QVERIFY(page->budget().has_value());
        QCOMPARE(page->budget()->optimal.params, core->optimal.params);
        QCOMPARE(page->budget()->shape, core->shape);
        // The answer first: at large text the answer keeps one line, which is then N and D.
        QVERIFY2(page->summaryLabel()->text().startsWith(QStringLiteral("N = 73.02B, D = 1.342T")),
                 qPrintable(page->summaryLabel()->text()));
        QVERIFY2(page->summaryLabel()->text().contains(QStringLiteral("besiroglu2024 at a budget of")),
                 qPrintable(page->summaryLabel()->text()));
        // Every law's optimum sits on the budget's curve, and the legend names each.
        const QString legend = page->legend()->plainText();
        for (const ScalingLawInfo &info : scalingLaws())
            QVERIFY2(legend.contains(QLatin1String(info.id)), qPrintable(legend));
        QVERIFY(legend.contains(QStringLiteral("serving 2T tokens")));
        // The suggested layout in words, not the planner's codes ("b 1 · none").
        const QString summary = page->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral(" · micro-batch ")) && !summary.contains(QStringLiteral(" · b ")),
                 qPrintable(summary));

        // Apply: the shape and the tokens, one undo step.
        const Scenario before = w.controller()->scenario();
        const int steps = w.controller()->undoStack()->count();
        QVERIFY(page->applyButton()->isEnabled());
        page->applyButton()->click();
        QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
        QCOMPARE(w.controller()->scenario().model, core->shape);
        QCOMPARE(w.controller()->scenario().tokens, core->run.tokens);
        QVERIFY(w.controller()->report().has_value());
        QCOMPARE(w.controller()->report()->params.total, core->shapeParams);
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario(), before);
    }

    // At the sliders' far end (1,024 layers of width 131,072: 211T parameters) this run lies far
    // from every optimum: the curves still reach its star, which sits on the budget's curve
    // (the budget is its own compute), where it had stood past the curves' end.
    void curvesReachThisRun()
    {
        Scenario s;
        s.model.layers = 1024;
        s.model.dModel = 131072;
        s.model.heads = s.model.kvHeads = 1024;
        s.model.dFf = 4 * 131072;
        MainWindow w(env().catalog(), s);
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        BudgetPanel *page = w.dashboard()->budgetPanel();
        w.dashboard()->pageTabs()->setCurrentIndex(2);  // Budget
        QTRY_VERIFY(page->isVisible() && page->budget().has_value());
        QLineSeries *budgetCurve = nullptr;
        QScatterSeries *star = nullptr;
        for (QAbstractSeries *series : page->chart()->series()) {
            if (series->objectName() == QLatin1String("budget curve"))
                budgetCurve = qobject_cast<QLineSeries *>(series);
            if (series->objectName() == QLatin1String("this run"))
                star = qobject_cast<QScatterSeries *>(series);
        }
        QVERIFY(budgetCurve && star && star->count() == 1 && budgetCurve->count() > 2);
        const QPointF run = star->at(0);
        QVERIFY2(budgetCurve->at(0).x() < run.x() && run.x() < budgetCurve->at(budgetCurve->count() - 1).x(),
                 qPrintable(QStringLiteral("this run at N %1, the curve from %2 to %3")
                                .arg(run.x()).arg(budgetCurve->at(0).x()).arg(budgetCurve->at(budgetCurve->count() - 1).x())));
    }

    void refusesInWords()
    {
        MainWindow w(env().catalog(), llama70b(env().catalog()));
        QVERIFY(uitest::showAndWait(w));
        BudgetPanel *page = w.dashboard()->budgetPanel();
        w.dashboard()->pageTabs()->setCurrentIndex(2);  // Budget
        QTRY_VERIFY(page->isVisible());
        type(page->amountEdit(), QStringLiteral("lots"));
        QVERIFY2(page->problem().startsWith(QStringLiteral("Budget: must be a number above 0")), qPrintable(page->problem()));
        QVERIFY(!page->applyButton()->isEnabled());
        QVERIFY(page->summaryLabel()->text().contains(QStringLiteral("(got 'lots')")));
        // Too small for any model: the core's refusal, naming the budget as the page names it
        // (the command line's "flops:" had read as another field); the chart keeps no curve,
        // mark or legend entry of the last budget beside it.
        type(page->amountEdit(), QStringLiteral("1e15"));
        QVERIFY2(page->problem().startsWith(QStringLiteral("Budget: is too small for any model")), qPrintable(page->problem()));
        QVERIFY2(page->problem().endsWith(QStringLiteral(" parameters")), qPrintable(page->problem()));
        for (QAbstractSeries *series : page->chart()->series())
            if (auto *xy = qobject_cast<QXYSeries *>(series))
                QVERIFY2(xy->count() == 0, qPrintable(series->objectName()));
        QVERIFY2(page->legend()->plainText().isEmpty(), qPrintable(page->legend()->plainText()));
        QVERIFY2(page->chart()->title().contains(QStringLiteral("o budget")), qPrintable(page->chart()->title()));
        // Dollars on a GPU with no catalog price.
        Scenario s = w.controller()->scenario();
        s.gpuId = QStringLiteral("h800-sxm");
        w.controller()->propose(s, QStringLiteral("H800"));
        page->unitBox()->setCurrentIndex(page->unitBox()->findData(int(BudgetUnit::Usd)));
        type(page->amountEdit(), QStringLiteral("1e6"));
        QVERIFY2(page->problem().contains(QStringLiteral("no catalog price")), qPrintable(page->problem()));
        type(page->amountEdit(), QString());
        QVERIFY2(page->problem().isEmpty(), qPrintable(page->problem()));
        QVERIFY(page->applyButton()->isEnabled());
    }
};

QTEST_MAIN(TestBudgetPage)
#include "tst_ui_budget.moc"
