// Chart text as a user sees it: after each everyday action the charts' titles, tick labels
// and axis titles are on screen, and are the labels a fresh paint draws. ChartView caches text
// as pixmaps; a cache that misses a change leaves labels blank or showing old text ("20" on
// the memory axis where "50" belonged) until something else redraws them. Runs on the xcb
// platform under Xvfb (see CMakeLists.txt) and reads the X server's pixels back
// (QScreen::grabWindow); the functions run in order on one window, as one session.

#include "ui/widgets/chartview.h"
#include "ui/controls/controlspanel.h"
#include "ui/views/dashboard.h"
#include "ui/controls/gpuchooser.h"
#include "ui/views/gputimechart.h"
#include "guitestfixture.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/memorypanel.h"
#include "ui/controls/moreoptions.h"
#include "ui/widgets/numberspinbox.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/timepanel.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QTest>

#include <memory>

using namespace napkin;
using namespace napkin::ui;
using Main = ControlsPanel::Main;

namespace {

// Pixels darker than this are text (the light theme's labels are near black; grid and axis
// lines are light grey, series stay inside the plot area).
constexpr int kDarkLuminance = 100;
// The sparsest band (a few short tick labels) has over 80 dark pixels when drawn.
constexpr int kMinDarkPixels = 40;
// Bands keep clear of the plot area's edge, where axis lines and tick marks are drawn.
constexpr int kEdgeGap = 6;
// The top and bottom tick labels of the y axis are centred on the plot area's edges.
constexpr int kLabelOverhang = 8;
// A label left from an earlier paint ("20" where "50" belongs) differs from a fresh paint
// in dozens of pixels; a correct one in none.
constexpr int kMaxDiffering = 4;

bool isDark(QRgb pixel)
{
    return qGray(pixel) < kDarkLuminance;
}

int darkPixels(const QImage &image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += isDark(image.pixel(x, y));
    return count;
}

/// Pixels dark in one picture and not in the other.
int differingDarkPixels(const QImage &a, const QImage &b)
{
    int count = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            count += isDark(a.pixel(x, y)) != isDark(b.pixel(x, y));
    return count;
}

} // namespace

class TestX11ChartText final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        GuiTestCase::initTestCase();
        QVERIFY2(QGuiApplication::platformName() == QLatin1String("xcb"),
                 qPrintable(QStringLiteral("needs the xcb platform (run under xvfb-run with -platform xcb), got ")
                            + QGuiApplication::platformName()));
        m_window = std::make_unique<MainWindow>(env().catalog(), Scenario{});
        m_window->resize(1280, 720);
        QVERIFY(uitest::showAndWait(*m_window));
        const QString wrong = wrongText(QStringLiteral("first show"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void cleanupTestCase() { m_window.reset(); }

    void resize()
    {
        // Larger, then wide enough for three columns (the time panel moves beside the roofline,
        // its chart under its figures), and back, twice.
        for (const QSize size : {QSize(1500, 850), QSize(1280, 720), QSize(1920, 1080), QSize(1280, 720),
                                 QSize(1920, 1080), QSize(1280, 720)}) {
            m_window->resize(size);
            QTRY_COMPARE(m_window->size(), size);
            const QString wrong = wrongText(QStringLiteral("resize to %1x%2").arg(size.width()).arg(size.height()));
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
            QCOMPARE(m_window->dashboard()->overviewColumns(), size.width() == 1920 ? 3 : 2);
        }
    }

    void gpuChange()
    {
        QComboBox *box = m_window->controls()->gpuChooser()->comboBox();
        const int index = box->findData(QStringLiteral("a100-80gb-sxm"));
        QVERIFY(index >= 0 && index != box->currentIndex());
        box->setCurrentIndex(index);
        QCOMPARE(m_window->controller()->scenario().gpuId, QStringLiteral("a100-80gb-sxm"));
        const QString wrong = wrongText(QStringLiteral("GPU change"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void presetChange()
    {
        QComboBox *preset = m_window->controls()->moreOptions()->presetBox();
        const int index = preset->findData(QStringLiteral("llama2-7b"));
        QVERIFY(index > preset->currentIndex());
        preset->setFocus();
        while (preset->currentIndex() < index)
            QTest::keyClick(preset, Qt::Key_Down);
        QCOMPARE(m_window->controller()->scenario().model.dModel, 4096);
        const QString wrong = wrongText(QStringLiteral("preset llama2-7b"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void typedValue()
    {
        NumberSpinBox *box = m_window->controls()->slider(Main::Layers)->spinBox();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("48"));
        QTest::keyClick(box, Qt::Key_Enter);
        QCOMPARE(m_window->controller()->scenario().model.layers, 48);
        const QString wrong = wrongText(QStringLiteral("layers typed as 48"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void compareWith()
    {
        RooflinePanel *roofline = m_window->dashboard()->rooflinePanel();
        QComboBox *box = nullptr;
        for (QComboBox *c : roofline->findChildren<QComboBox *>())
            if (c->accessibleName() == QLatin1String("Compare with GPU"))
                box = c;
        QVERIFY(box);
        const int index = box->findData(QStringLiteral("h100-sxm"));
        QVERIFY(index > 0);
        box->setFocus();
        while (box->currentIndex() < index)
            QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(roofline->overlayGpu(), QStringLiteral("h100-sxm"));
        const QString wrong = wrongText(QStringLiteral("compare with H100"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void undo()
    {
        QAction *undo = nullptr;
        for (QAction *a : m_window->findChildren<QAction *>())
            if (a->shortcuts().contains(QKeySequence(QKeySequence::Undo)))
                undo = a;
        QVERIFY(undo && undo->isEnabled());
        undo->trigger();
        QCOMPARE(m_window->controller()->scenario().model.layers, 32);  // llama2-7b's again
        const QString wrong = wrongText(QStringLiteral("Edit > Undo"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

private:
    /// Lets pending events, paints and the flush to the X server happen.
    static void settle()
    {
        for (int i = 0; i < 4; ++i) {
            QApplication::processEvents();
            QTest::qWait(60);
        }
    }

    /// A chart view's pixels as the X server shows them, read back through the top-level window.
    QImage onScreen(const ChartView *view) const
    {
        const QPoint origin = view->viewport()->mapTo(m_window.get(), QPoint(0, 0));
        const QSize size = view->viewport()->size();
        return m_window->screen()
            ->grabWindow(m_window->winId(), origin.x(), origin.y(), size.width(), size.height())
            .toImage();
    }

    /// The view painted again after every item's cache was dropped: what it should show.
    QImage repainted(ChartView *view) const
    {
        for (QGraphicsItem *item : view->scene()->items()) {
            const QGraphicsItem::CacheMode mode = item->cacheMode();
            item->setCacheMode(QGraphicsItem::NoCache);
            item->setCacheMode(mode);
        }
        view->viewport()->update();
        settle();
        return onScreen(view);
    }

    /// Empty if every chart shows text, and the right text, in its title band, its y-axis band
    /// and its x-axis band; else which bands of which charts are wrong after `action`.
    QString wrongText(const QString &action)
    {
        settle();
        const std::pair<const char *, ChartView *> charts[] = {
            {"memory", m_window->dashboard()->memoryPanel()->view()},
            {"roofline", m_window->dashboard()->rooflinePanel()->view()},
            {"GPU-time", m_window->dashboard()->timePanel()->gpuChart()->view()},
        };
        QStringList wrong;
        for (const auto &[name, view] : charts)
            wrong += wrongBands(QLatin1String(name), view);
        if (wrong.isEmpty())
            return {};
        return QStringLiteral("after %1: %2 (each band needs %3+ text pixels, and at most %4 differing from "
                              "a fresh paint; pictures in %5)")
            .arg(action, wrong.join(QStringLiteral(", ")))
            .arg(kMinDarkPixels).arg(kMaxDiffering).arg(QDir::tempPath());
    }

    QStringList wrongBands(const QString &name, ChartView *view) const
    {
        const QRect all = view->viewport()->rect();
        const QRect plot = view->mapFromScene(view->chart()->mapRectToScene(view->chart()->plotArea())).boundingRect();
        if (!view->isVisible() || !all.contains(plot) || plot.width() < 50 || plot.height() < 50)
            return {name + QStringLiteral(" chart hidden or its plot area outside it")};
        const std::pair<const char *, QRect> bands[] = {
            {"title", QRect(QPoint(plot.left(), all.top()), QPoint(plot.right(), plot.top() - kEdgeGap))},
            {"y-axis", QRect(QPoint(all.left(), plot.top() - kLabelOverhang),
                             QPoint(plot.left() - kEdgeGap, plot.bottom() + kLabelOverhang))},
            {"x-axis", QRect(QPoint(plot.left(), plot.bottom() + kEdgeGap), QPoint(plot.right(), all.bottom()))},
        };
        const QImage shown = onScreen(view);
        if (shown.size() != all.size())
            return {name + QStringLiteral(" chart could not be grabbed from the screen")};
        const QImage truth = repainted(view);
        QStringList wrong;
        for (const auto &[band, rect] : bands) {
            const int dark = darkPixels(shown.copy(rect));
            const int differing = differingDarkPixels(shown.copy(rect), truth.copy(rect));
            if (dark < kMinDarkPixels)
                wrong << QStringLiteral("%1 %2 band blank (%3 text pixels)").arg(name, QLatin1String(band)).arg(dark);
            else if (differing > kMaxDiffering)
                wrong << QStringLiteral("%1 %2 band shows other text than a fresh paint (%3 of %4 text pixels differ)")
                             .arg(name, QLatin1String(band)).arg(differing).arg(dark);
        }
        if (!wrong.isEmpty()) {
            const QString base = QDir::temp().filePath(QStringLiteral("tst_x11_charttext-") + name);
            shown.save(base + QStringLiteral("-shown.png"));
            truth.save(base + QStringLiteral("-repainted.png"));
        }
        return wrong;
    }

    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestX11ChartText)
#include "tst_x11_charttext.moc"
