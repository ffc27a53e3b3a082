// The projector case: a 1280x720 window at every text size View > Bigger/Smaller Text offers.
// Every chart stays readable (a plot area of at least a few lines each way, its title and axis
// titles whole, text actually painted on the X server), switching to one chart per tab when
// the grid would be too small; the time panel's explanations are shown whole (wrapped, never
// elided), read back from the screen by OCR; a wide screen puts memory, roofline and time in
// three columns; menus and the help window grow with the text; at normal size the GPU, ZeRO,
// recipe and recompute controls are in view without scrolling.
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
#include "ui/widgets/textstrip.h"
#include "ui/views/gputimechart.h"
#include "ui/widgets/barlabels.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/timepanel.h"
#include "ui/views/budgetpanel.h"
#include "ui/views/layoutpicture.h"
#include "ui/widgets/legendstrip.h"

#include <QStackedWidget>
#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QLogValueAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenuBar>
#include <QPushButton>
#include <QProcess>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QTest>
#include <QToolTip>

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
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("serving");
        for (double s : offeredScales()) {
            QTest::addRow("text x%.2f", s) << s << false << QSize(1280, 720) << false;
            // Long titles and legends, GPUs the run does not fit on and a pinned baseline:
            // Llama 3 70B on 64 GPUs.
            QTest::addRow("text x%.2f, Llama 3 70B x64 pinned", s) << s << true << QSize(1280, 720) << false;
        }
        // A classroom projector's 1024x768 at the larger sizes, training and serving.
        for (double s : offeredScales())
            if (s > 1.0) {
                QTest::addRow("1024x768, text x%.2f", s) << s << false << QSize(1024, 768) << false;
                QTest::addRow("1024x768, serving, text x%.2f", s) << s << false << QSize(1024, 768) << true;
            }
    }

    void everyTextSizeIsReadable()
    {
        QFETCH(double, scale);
        QFETCH(bool, large);
        QFETCH(QSize, size);
        QFETCH(bool, serving);
        Scenario start;
        if (serving)
            start.mode = Mode::Inference;
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
        w.resize(size);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), size);
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
        // way they are arranged; serving adds its trade-off curve.
        QCOMPARE(checked.size(), serving ? 7 : 6);
        // The roofline's toolbar squeezes none of its words ("Compare wit"): its button and
        // label keep their whole text's width (the hint beside them may give way).
        if (dashboard->currentArrangement() == Dashboard::Arrangement::Tabs) {
            dashboard->tabs()->setCurrentWidget(dashboard->rooflinePanel());
            settle();
        }
        for (QWidget *word : dashboard->rooflinePanel()->findChildren<QWidget *>()) {
            const bool label = qobject_cast<QLabel *>(word) && word->sizePolicy().horizontalPolicy() != QSizePolicy::Ignored;
            if (!word->isVisible() || !(label || qobject_cast<QPushButton *>(word)))
                continue;
            QVERIFY2(word->width() >= word->sizeHint().width(),
                     qPrintable(QStringLiteral("roofline toolbar: '%1' %2 px of %3")
                                    .arg(label ? static_cast<QLabel *>(word)->text() : static_cast<QPushButton *>(word)->text())
                                    .arg(word->width()).arg(word->sizeHint().width())));
        }
        // The time panel's explanations whole, in the grid or on their own tab.
        if (dashboard->currentArrangement() == Dashboard::Arrangement::Tabs) {
            dashboard->tabs()->setCurrentWidget(dashboard->timePanel());
            settle();
        }
        // Whole at the normal size and smaller; with larger text a note may have no room left,
        // and then its tooltip has it whole.
        checkTimeNotes(dashboard->timePanel(), scale <= 1.0);
        // Large text does get tabs; normal text gets the grid (at 1280x720).
        if (scale >= 1.5)
            QCOMPARE(dashboard->currentArrangement(), Dashboard::Arrangement::Tabs);
        if (scale <= 1.0 && size == QSize(1280, 720))
            QCOMPARE(dashboard->currentArrangement(), Dashboard::Arrangement::Grid);
    }

    // The totals over the memory bars never run into each other: GPT-OSS 120B on 64 H100s has
    // ZeRO 1 to 3 within 8 GB of one another, so their totals stand side by side; where
    // "55.9 GB" is wider than the room between two bars, they drop the unit the axis title
    // names. At 1024x768 and text x2 they had overlapped.
    void memoryTotalsNeverOverlap_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QSize>("size");
        for (double s : offeredScales()) {
            QTest::addRow("1280x720, text x%.2f", s) << s << QSize(1280, 720);
            QTest::addRow("1024x768, text x%.2f", s) << s << QSize(1024, 768);
        }
    }

    void memoryTotalsNeverOverlap()
    {
        QFETCH(double, scale);
        QFETCH(QSize, size);
        Scenario start = env().presetScenario(QStringLiteral("gpt-oss-120b"));
        start.gpus = 64;
        start.pp = 4;
        start.ep = 8;
        start.flashAttention = true;
        start.seqLen = 4096;
        start.microBatch = 1;
        start.globalBatch = 1280;
        MainWindow w(env().catalog(), start);
        w.setFontScale(scale);
        w.resize(size);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), size);
        Dashboard *dashboard = w.dashboard();
        if (dashboard->currentArrangement() == Dashboard::Arrangement::Tabs)
            dashboard->tabs()->setCurrentWidget(dashboard->memoryPanel());
        settle();
        const MemoryPanel *memory = dashboard->memoryPanel();
        QVERIFY(memory->isVisible());
        const QList<QRectF> totals = memory->totalRects();
        for (qsizetype i = 1; i < totals.size(); ++i)
            QVERIFY2(!totals[i].intersects(totals[i - 1]),
                     qPrintable(QStringLiteral("'%1' runs into '%2'").arg(memory->totalText(int(i)), memory->totalText(int(i - 1)))));
        // Nor does the capacity line run through one: the axis leaves a line of text above it.
        const QLineSeries *capacity = memory->capacityLine();
        if (capacity->isVisible()) {
            const double line = capacity->chart()->mapToPosition(capacity->at(0), const_cast<QLineSeries *>(capacity)).y();
            for (qsizetype i = 0; i < totals.size(); ++i)
                QVERIFY2(line < totals[i].top() || line > totals[i].bottom(),
                         qPrintable(QStringLiteral("the capacity line at y %1 crosses '%2' (%3..%4)")
                                        .arg(line).arg(memory->totalText(int(i))).arg(totals[i].top()).arg(totals[i].bottom())));
        }
        // Each total keeps its unit wherever the room allows: at the normal text size always.
        if (scale <= 1.0)
            for (int stage = 0; stage < 4; ++stage)
                QVERIFY2(memory->totalText(stage).endsWith(QStringLiteral(" GB")), qPrintable(memory->totalText(stage)));
    }

    // Large text on a projector's 1024x768: the budget page keeps its legend under its chart,
    // never over it (at text x2 the chart's minimum had pushed the legend over the plot), and
    // the layout picture keeps its whole title and caption in sight (cut at three lines).
    void budgetAndLayoutPagesKeepTheirText_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QSize>("size");
        for (double s : offeredScales())
            QTest::addRow("1024x768, text x%.2f", s) << s << QSize(1024, 768);
        // A wider projector, where the inputs take two rows (the law box had run off the page).
        for (double s : offeredScales())
            if (s > 1.0)
                QTest::addRow("1366x768, text x%.2f", s) << s << QSize(1366, 768);
    }

    void budgetAndLayoutPagesKeepTheirText()
    {
        QFETCH(double, scale);
        QFETCH(QSize, size);
        Scenario start = env().deepSeekV3AtDgxCloud();
        start.flashAttention = true;
        MainWindow w(env().catalog(), start);
        w.setFontScale(scale);
        w.resize(size);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), size);
        Dashboard *dashboard = w.dashboard();
        const auto show = [&](const QString &tab, int page) {
            if (dashboard->currentArrangement() == Dashboard::Arrangement::Tabs) {
                for (int i = 0; i < dashboard->tabs()->count(); ++i)
                    if (dashboard->tabs()->tabText(i) == tab)
                        dashboard->tabs()->setCurrentIndex(i);
            } else {
                dashboard->pageTabs()->setCurrentIndex(page);
            }
            settle();
        };
        show(QStringLiteral("Budget"), 2);
        BudgetPanel *budget = dashboard->budgetPanel();
        QVERIFY(budget->isVisible());
        const auto placed = [budget](QWidget *w) { return QRect(w->mapTo(budget, QPoint(0, 0)), w->size()); };
        const QRect chart = placed(budget->findChild<ChartView *>());
        const QRect legend = placed(budget->legend());
        // The page scrolls where its parts need more than the window (text x2 at 1024x768):
        // the legend ends on the page's scrolled contents, never over the plot.
        QWidget *column = budget->legend()->parentWidget();
        const int contentsEnd = column->mapTo(budget, QPoint(0, column->height())).y();
        QVERIFY2(legend.top() > chart.bottom() && legend.bottom() <= contentsEnd,
                 qPrintable(QStringLiteral("chart %1..%2, legend %3..%4 of %5")
                                .arg(chart.top()).arg(chart.bottom()).arg(legend.top()).arg(legend.bottom()).arg(contentsEnd)));
        // Every input whole inside the page, each box as wide as its longest item (a box sized
        // at text x1 had cut "FLOPs" and "besiroglu2024" at x2), and a whole line of the answer
        // below the legend, on the page or where it scrolls to (the chart keeps its six lines
        // of plot; everyTextSizeIsReadable).
        const QRect page = budget->rect();
        QWidget *const inputs[] = {budget->amountEdit(), budget->unitBox(), budget->lawBox(), budget->inferenceEdit(),
                                   budget->applyButton()};
        for (QWidget *input : inputs) {
            const QRect at = placed(input);
            QVERIFY2(page.contains(at), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 outside the page %6x%7")
                                                       .arg(input->accessibleName()).arg(at.x()).arg(at.y())
                                                       .arg(at.width()).arg(at.height()).arg(page.width()).arg(page.height())));
        }
        for (QComboBox *box : {budget->unitBox(), budget->lawBox()})
            QVERIFY2(box->width() >= box->sizeHint().width(),
                     qPrintable(QStringLiteral("%1: %2 px of %3").arg(box->accessibleName()).arg(box->width()).arg(box->sizeHint().width())));
        QLabel *answer = budget->summaryLabel();
        const QRect answerAt(answer->mapTo(column, QPoint(0, 0)), answer->size());
        const int legendEnd = budget->legend()->geometry().bottom();
        const int lineEnd = answerAt.top() + answer->fontMetrics().height();
        QVERIFY2(answerAt.top() > legendEnd && lineEnd <= column->height()
                     && answer->parentWidget()->height() >= answer->fontMetrics().height(),
                 qPrintable(QStringLiteral("answer's first line %1..%2, after the legend's %3, of %4 (shown %5 px)")
                                .arg(answerAt.top()).arg(lineEnd).arg(legendEnd).arg(column->height())
                                .arg(answer->parentWidget()->height())));
        show(QStringLiteral("Layout"), 1);
        LayoutPicture *picture = dashboard->layoutPicture();
        QVERIFY(picture->isVisible());
        const LayoutPicture::Boxes boxes = picture->boxes();
        QVERIFY2(boxes.caption.bottom() <= picture->rect().bottom() && boxes.grid.height() >= picture->fontMetrics().height(),
                 qPrintable(QStringLiteral("caption ends at %1 of %2").arg(boxes.caption.bottom()).arg(picture->rect().bottom())));
        QVERIFY(boxes.title.bottom() < boxes.grid.top());
    }

    // The explanations beside the time figures at 1280x720, read back from the X server's
    // pixels: whole sentences, not "nothing recomputed: equals the …".
    void timeNotesReadBackWhole()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        QTRY_COMPARE(w.size(), QSize(1280, 720));
        settle();
        TimePanel *time = w.dashboard()->timePanel();
        QVERIFY(time->isVisible());
        checkTimeNotes(time);
        QRect notes;
        for (int f = 0; f < TimePanel::kFigures; ++f) {
            const TextStrip *note = time->note(static_cast<TimePanel::Figure>(f));
            notes |= QRect(note->mapTo(&w, QPoint(0, 0)), note->size());
        }
        // Three times the size: tesseract reads small grey text poorly.
        const QImage shot = w.screen()->grabWindow(w.winId(), notes.x(), notes.y(), notes.width(), notes.height()).toImage();
        const QImage big = shot.scaled(shot.size() * 3, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        const QString path = QDir::temp().filePath(QStringLiteral("tst_x11_layout-time-notes.png"));
        QVERIFY(big.save(path));
        QProcess ocr;
        ocr.start(QStringLiteral("tesseract"), {path, QStringLiteral("stdout"), QStringLiteral("--psm"), QStringLiteral("6")});
        QVERIFY2(ocr.waitForFinished(60000) && ocr.exitCode() == 0,
                 "tesseract is needed (Debian package tesseract-ocr, installed by tools/setup.sh test)");
        const QString read = letters(QString::fromUtf8(ocr.readAllStandardOutput()));
        // The notes that elided at 1280x720, each to its last word.
        for (TimePanel::Figure f : {TimePanel::Figure::HardwareFlops, TimePanel::Figure::WallClock, TimePanel::Figure::Cost}) {
            const QString note = time->note(f)->text();
            QVERIFY2(read.contains(letters(note)),
                     qPrintable(QStringLiteral("'%1' not read back whole from %2; read: %3").arg(note, path, read)));
        }
    }

    // On a wide screen the overview is three columns (memory, roofline, and the time panel at
    // full height with its figures above the every-GPU chart, whose GPU names still stand at
    // most 45°), at 1280x720 two (time below); resizing goes back and forth.
    void wideScreenHasThreeColumns()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1920, 1080);
        QVERIFY(uitest::showAndWait(w));
        for (const QSize size : {QSize(1920, 1080), QSize(1280, 720), QSize(1920, 1080), QSize(1280, 720)}) {
            w.resize(size);
            QTRY_COMPARE(w.size(), size);
            settle();
            const bool wide = size.width() == 1920;
            Dashboard *dashboard = w.dashboard();
            const QString where = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QCOMPARE(dashboard->overviewColumns(), wide ? 3 : 2);
            const QRect memory = dashboard->memoryPanel()->geometry();
            const QRect roofline = dashboard->rooflinePanel()->geometry();
            TimePanel *time = dashboard->timePanel();
            const QRect timeRect = time->geometry();
            QVERIFY2(memory.right() < roofline.left() && memory.top() == roofline.top(), qPrintable(where));
            if (wide) {
                // One row: the time panel beside the roofline, as tall as the charts, its chart
                // under the figures and taking most of it.
                QVERIFY2(roofline.right() < timeRect.left() && timeRect.top() == memory.top()
                             && timeRect.height() == memory.height(),
                         qPrintable(where));
                QVERIFY(time->figuresAbove());
                const QRect chart(time->gpuChart()->mapTo(time, QPoint(0, 0)), time->gpuChart()->size());
                const TextStrip *energy = time->note(TimePanel::Figure::Energy);
                QVERIFY2(chart.top() > energy->mapTo(time, QPoint(0, energy->height())).y(), qPrintable(where));
                QVERIFY2(chart.height() > timeRect.height() / 2, qPrintable(where));
                QVERIFY2(time->gpuChart()->barLabels()->angle() <= 45, qPrintable(where));
                // The charts beside it keep a readable chart's width.
                QVERIFY2(memory.width() >= dashboard->minimumChartSize().width(), qPrintable(where));
            } else {
                QVERIFY2(timeRect.top() > memory.bottom() && !time->figuresAbove(), qPrintable(where));
            }
            checkTimeNotes(time);
        }
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
    /// Letters and digits only, lower case: what OCR reads reliably of a sentence.
    static QString letters(const QString &text)
    {
        static const QRegularExpression other(QStringLiteral("[^a-z0-9]"));
        return text.toLower().replace(QChar(0x00D7), QLatin1Char('x')).remove(other);  // "8 × H100" reads "8 x H100"
    }

    /// Every note of the time panel shows its whole text: no elision, no line cut off, and
    /// when `whole` none moved to its tooltip; one that is, is whole there.
    static void checkTimeNotes(TimePanel *time, bool whole = true)
    {
        for (int f = 0; f < TimePanel::kFigures; ++f) {
            TextStrip *note = time->note(static_cast<TimePanel::Figure>(f));
            const QString state = QStringLiteral("'%1' in %2 line(s) of %3 px; needs %4")
                                      .arg(note->text()).arg(note->lines()).arg(note->width())
                                      .arg(note->linesNeeded(note->width()));
            // Under its figure (a narrow panel) an empty note takes no row.
            if (note->text().isEmpty() && !note->isVisible())
                continue;
            QVERIFY2(note->isVisible(), qPrintable(state));
            if (!note->showsWholeText()) {
                QVERIFY2(!whole, qPrintable(state));
                QHelpEvent hover(QEvent::ToolTip, QPoint(2, 2), note->mapToGlobal(QPoint(2, 2)));
                QApplication::sendEvent(note, &hover);
                QTRY_VERIFY2(QToolTip::isVisible() && QToolTip::text().startsWith(note->text()), qPrintable(state));
                QToolTip::hideText();
            }
            // And inside the panel: a row pushed past its bottom would be cut off too.
            const QPoint bottom = note->mapTo(time, QPoint(0, note->height()));
            QVERIFY2(bottom.y() <= time->height(), qPrintable(note->text()));
        }
    }

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
            // Qt Charts elides an axis title to the side of the plot it runs along.
            const qreal width = QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText());
            const qreal room = axis->orientation() == Qt::Horizontal ? plot.width() : plot.height();
            QVERIFY2(width <= room, qPrintable(QStringLiteral("%1: axis title '%2' %3 px, room %4 px")
                                                   .arg(name, axis->titleText()).arg(width).arg(room)));
        }
        // Tick labels whole: under the plot, Qt Charts gives each label the plot's width over the
        // number of labels, less 5 px each side (its label padding), and elides the rest
        // ("1000" as "100…", "ZeRO 0" as "Ze…").
        for (QAbstractAxis *axis : chart->axes(Qt::Horizontal)) {
            QStringList labels;
            if (auto *bars = qobject_cast<QBarCategoryAxis *>(axis)) {
                labels = bars->categories();
            } else if (auto *log = qobject_cast<QLogValueAxis *>(axis)) {
                const double step = std::log10(log->base());
                for (double e = std::ceil(std::log10(log->min()) / step - 1e-9); e <= std::floor(std::log10(log->max()) / step + 1e-9); ++e)
                    labels << QString::asprintf(log->labelFormat().toLatin1().constData(), std::pow(10.0, e * step));
            }
            if (labels.isEmpty() || !axis->isVisible() || !axis->labelsVisible())
                continue;
            const QFontMetricsF metrics(axis->labelsFont());
            for (const QString &label : labels) {
                const qreal width = metrics.horizontalAdvance(label);
                const qreal room = plot.width() / labels.size() - 2 * 5;
                QVERIFY2(width <= room, qPrintable(QStringLiteral("%1: tick label '%2' %3 px, room %4 px")
                                                       .arg(name, label).arg(width).arg(room)));
            }
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
