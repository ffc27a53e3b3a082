// No click anywhere on any chart may crash the window. Qt Charts 6.4 crashes on some clicks
// that reach its series and legend items (QTBUG-115072, QTBUG-118669); ChartView keeps every
// mouse event away from them. This presses, releases, double-clicks and drags with each button
// over a grid covering every chart, legend and axis, in every state the charts can be in.

#include "ui/widgets/chartview.h"
#include "ui/views/dashboard.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"

#include <QChart>
#include <QTest>

using namespace napkin;
using namespace napkin::ui;

class TestChartClicks final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void clickEverywhere_data()
    {
        QTest::addColumn<bool>("overlay");
        QTest::addColumn<bool>("invalid");
        QTest::newRow("plain") << false << false;
        QTest::newRow("second roofline") << true << false;
        QTest::newRow("refused scenario") << false << true;
    }

    void clickEverywhere()
    {
        QFETCH(bool, overlay);
        QFETCH(bool, invalid);
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        if (overlay)
            w.dashboard()->rooflinePanel()->setOverlayGpu(QStringLiteral("b200"));
        if (invalid) {
            Scenario s = w.controller()->scenario();
            s.model.heads = 7;  // does not divide 768
            w.controller()->setScenario(s);
            QVERIFY(w.controller()->error());
        }
        const Scenario before = w.controller()->scenario();
        // The views of the other pages are built when first asked for.
        w.dashboard()->stageMemoryPanel();
        w.dashboard()->stepTimePanel();
        w.dashboard()->budgetPanel();
        w.dashboard()->servingMemoryPanel();
        w.dashboard()->servingCurve();
        const QList<ChartView *> views = w.findChildren<ChartView *>();
        // Memory, roofline, every GPU, memory per pipeline stage, the step breakdown and the budget,
        // and inference mode's memory and trade-off charts (hidden in training mode).
        QCOMPARE(views.size(), 8);
        int clicks = 0;
        for (ChartView *view : views) {
            QWidget *port = view->viewport();
            const int cols = 12;
            const int rows = 9;
            for (int i = 0; i <= cols; ++i) {
                for (int j = 0; j <= rows; ++j) {
                    const QPoint p(std::min(port->width() - 1, port->width() * i / cols),
                                   std::min(port->height() - 1, port->height() * j / rows));
                    for (Qt::MouseButton b : {Qt::LeftButton, Qt::RightButton, Qt::MiddleButton}) {
                        QTest::mouseClick(port, b, {}, p);
                        QTest::mouseDClick(port, b, {}, p);
                        ++clicks;
                    }
                }
                QTest::mouseClick(port, Qt::LeftButton, Qt::ShiftModifier, QPoint(port->width() * i / cols, 1));
            }
            // A press-drag-release across the whole chart.
            QTest::mousePress(port, Qt::LeftButton, {}, QPoint(2, 2));
            QTest::mouseMove(port, QPoint(port->width() - 2, port->height() - 2));
            QTest::mouseRelease(port, Qt::LeftButton, {}, QPoint(port->width() - 2, port->height() - 2));
        }
        QVERIFY(clicks > 1000);
        QVERIFY(w.isVisible());
        // Clicks are not edits: the scenario is untouched.
        QCOMPARE(w.controller()->scenario(), before);
    }
};

QTEST_MAIN(TestChartClicks)
#include "tst_ui_chartclicks.moc"
