// The projector case: a 1280x720 window at every text size View > Bigger/Smaller Text offers.
// Every chart stays readable (a plot area of at least a few lines each way, its title and axis
// titles whole, text actually painted on the X server), switching to one chart per tab when
// the grid would be too small; menus and the help window grow with the text; at normal size
// the GPU, ZeRO, recipe and recompute controls are in view without scrolling.
// Runs on the xcb platform under Xvfb (see CMakeLists.txt).

#include "ui/widgets/chartview.h"
#include "ui/controls/controlspanel.h"
#include "ui/views/dashboard.h"
#include "guitestfixture.h"
#include "ui/shell/helpdialog.h"
#include "ui/shell/mainwindow.h"
#include "ui/controls/gpuchooser.h"
#include "ui/controls/moreoptions.h"
#include "ui/widgets/numberspinbox.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QTest>

#include <cmath>

using namespace napkin;
using namespace napkin::ui;

namespace {

// View > Bigger Text multiplies by 1.15, Smaller Text divides; the window clamps the result to
// 0.65..2.0, so these are every size a user can reach from Normal.
QList<double> offeredScales()
{
    QList<double> scales;
    for (int step = -3; step <= 5; ++step)
        scales << std::clamp(std::pow(1.15, step), 0.65, 2.0);
    return scales;
}

// A readable chart: its plot area is at least this many lines of its own tick-label text.
constexpr int kMinPlotLinesHigh = 6;
constexpr int kMinPlotLinesWide = 10;
// Dark (text) pixels expected in the band above a plot area that holds a title.
constexpr int kMinTitlePixels = 40;

int darkPixels(const QImage &image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += qGray(image.pixel(x, y)) < 100;
    return count;
}

} // namespace

class TestX11Layout final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        GuiTestCase::initTestCase();
        QVERIFY2(QGuiApplication::platformName() == QLatin1String("xcb"),
                 qPrintable(QGuiApplication::platformName()));
    }

    void everyTextSizeIsReadable_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("large");
        for (double s : offeredScales()) {
            QTest::addRow("text x%.2f", s) << s << false;
            // Long titles and legends, GPUs the run does not fit on and a pinned baseline:
            // Llama 3 70B on 64 GPUs.
            QTest::addRow("text x%.2f, Llama 3 70B x64 pinned", s) << s << true;
        }
    }

    void everyTextSizeIsReadable()
    {
        QFETCH(double, scale);
        QFETCH(bool, large);
        Scenario start;
        if (large) {
            start.presetId = QStringLiteral("llama3-70b");
            start.model = env().catalog().findPreset(start.presetId)->shape;
            start.gpus = 64;
            start.zeroStage = 3;
            start.recompute = Recompute::Full;
            start.seqLen = 8192;
            start.microBatch = 1;
            // And a pinned baseline: its line above the charts, its entry in the legends.
            Scenario pinned = start;
            pinned.zeroStage = 1;
            start.baseline.scenario = std::make_shared<const Scenario>(pinned);
        }
        MainWindow w(env().catalog(), start);
        w.setFontScale(scale);
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), QSize(1280, 720));
        settle();
        Dashboard *dashboard = w.dashboard();
        QVERIFY(dashboard->width() > 0);

        QList<ChartView *> checked;
        const auto checkVisible = [&] {
            for (ChartView *view : dashboard->findChildren<ChartView *>()) {
                if (!view->isVisible() || checked.contains(view))
                    continue;
                checked << view;
                checkChart(w, view);
            }
        };
        if (dashboard->currentArrangement() == Dashboard::Arrangement::Tabs) {
            QTabWidget *tabs = dashboard->tabs();
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                settle();
                checkVisible();
            }
        } else {
            checkVisible();
            // The second page: memory per pipeline stage and the step breakdown.
            dashboard->pageTabs()->setCurrentIndex(1);
            settle();
            checkVisible();
            // The third: the budget's iso-FLOP curves.
            dashboard->pageTabs()->setCurrentIndex(2);
            settle();
            checkVisible();
            dashboard->pageTabs()->setCurrentIndex(0);
        }
        // Memory, roofline, the every-GPU chart, the stages, the step and the budget, whichever
        // way they are arranged.
        QCOMPARE(checked.size(), 6);
        // Large text does get tabs; normal text gets the grid.
        if (scale >= 1.5)
            QCOMPARE(dashboard->currentArrangement(), Dashboard::Arrangement::Tabs);
        if (scale <= 1.0)
            QCOMPARE(dashboard->currentArrangement(), Dashboard::Arrangement::Grid);
    }

    void menusAndHelpGrowWithText()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        const qreal normalMenu = w.menuBar()->font().pointSizeF();
        const int normalMenuHeight = w.menuBar()->sizeHint().height();
        w.setFontScale(1.75);
        settle();
        QVERIFY(w.menuBar()->font().pointSizeF() > normalMenu * 1.7);
        QVERIFY(w.menuBar()->sizeHint().height() > normalMenuHeight * 1.3);
        HelpDialog help(&w);
        QVERIFY(help.font().pointSizeF() > normalMenu * 1.7);
        QMenu *view = nullptr;
        for (QAction *a : w.menuBar()->actions())
            if (a->menu() && a->text().contains(QLatin1String("View")))
                view = a->menu();
        QVERIFY(view);
        QVERIFY(view->font().pointSizeF() > normalMenu * 1.7);
    }

    void setupControlsInViewAt720p()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), QSize(1280, 720));
        settle();
        auto *scroll = w.findChild<QScrollArea *>();
        QVERIFY(scroll);
        const QRect viewport = scroll->viewport()->rect();
        MoreOptions *more = w.controls()->moreOptions();
        const QList<QWidget *> needed = {w.controls()->gpuChooser(), more->gpusBox(), more->zeroBox(),
                                         more->setupGroup()};
        for (QWidget *widget : needed) {
            const QRect r(widget->mapTo(scroll->viewport(), QPoint(0, 0)), widget->size());
            QVERIFY2(viewport.contains(r), qPrintable(widget->accessibleName() + widget->objectName()));
        }
        // Combo boxes end their text in an ellipsis rather than cutting it.
        for (QComboBox *box : more->setupGroup()->findChildren<QComboBox *>())
            QVERIFY(box->width() > 0);
    }

private:
    static void settle()
    {
        for (int i = 0; i < 4; ++i) {
            QApplication::processEvents();
            QTest::qWait(50);
        }
    }

    void checkChart(MainWindow &w, ChartView *view)
    {
        QChart *chart = view->chart();
        const QString name = chart->title().isEmpty() ? QStringLiteral("untitled chart") : chart->title();
        const QRectF plot = chart->plotArea();
        const QList<QAbstractAxis *> axes = chart->axes();
        QVERIFY2(!axes.isEmpty(), qPrintable(name));
        const qreal line = QFontMetricsF(axes.first()->labelsFont()).height();
        QVERIFY2(plot.height() >= kMinPlotLinesHigh * line,
                 qPrintable(QStringLiteral("%1: plot %2 px high, text line %3 px").arg(name).arg(plot.height()).arg(line)));
        QVERIFY2(plot.width() >= kMinPlotLinesWide * line,
                 qPrintable(QStringLiteral("%1: plot %2 px wide, text line %3 px").arg(name).arg(plot.width()).arg(line)));
        // Titles whole: Qt Charts elides what does not fit its width less its margins with "...".
        const QFontMetricsF titleMetrics(chart->titleFont());
        const qreal titleWidth = titleMetrics.horizontalAdvance(chart->title());
        QVERIFY2(titleWidth <= chart->size().width() - chart->margins().left() - chart->margins().right() - 16
                                   - titleMetrics.averageCharWidth(),
                 qPrintable(QStringLiteral("%1: title %2 px in a %3 px chart").arg(name).arg(titleWidth).arg(chart->size().width())));
        for (QAbstractAxis *axis : axes) {
            if (axis->titleText().isEmpty() || !axis->isTitleVisible())
                continue;
            const qreal width = QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText());
            const qreal room = axis->orientation() == Qt::Horizontal ? chart->size().width() : plot.height();
            QVERIFY2(width <= room, qPrintable(QStringLiteral("%1: axis title '%2' %3 px, room %4 px")
                                                   .arg(name, axis->titleText()).arg(width).arg(room)));
        }
        // And the title is on the X server's screen, not only in the scene.
        if (!chart->title().isEmpty()) {
            const QPoint origin = view->viewport()->mapTo(&w, QPoint(0, 0));
            const QPointF plotTop = view->mapFromScene(chart->mapToScene(plot.topLeft()));
            const int band = std::max(1, static_cast<int>(plotTop.y()) - 4);
            const QImage top = w.screen()->grabWindow(w.winId(), origin.x(), origin.y(), view->viewport()->width(), band).toImage();
            QVERIFY2(darkPixels(top) >= kMinTitlePixels, qPrintable(name + QStringLiteral(": no title on screen")));
        }
    }
};

QTEST_MAIN(TestX11Layout)
#include "tst_x11_layout.moc"
