// Serving in the window: the mode switch is one undo step that keeps the model, GPU and layout;
// the serving memory chart, the trade-off curve, the roofline's phases and the every-GPU chart
// show core's InferenceReport figures; refused values show the banner; export writes serving.png.

#include "guitestfixture.h"
#include "ui/controls/controlspanel.h"
#include "ui/controls/fieldcontrols.h"
#include "ui/controls/layoutcontrols.h"
#include "ui/controls/servingcontrols.h"
#include "ui/shell/gui.h"
#include "ui/controls/moreoptions.h"
#include "ui/shell/mainwindow.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/chartrender.h"
#include "ui/views/dashboard.h"
#include "ui/views/gputimechart.h"
#include "ui/views/plannerpanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/servingcurve.h"
#include "ui/views/servingmemorypanel.h"
#include "ui/views/timepanel.h"
#include "ui/widgets/banner.h"
#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/linkedslider.h"
#include "ui/widgets/textstrip.h"
#include "ui/widgets/barlabels.h"

#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QAction>
#include <QComboBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSlider>
#include <QValueAxis>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace napkin;
using namespace napkin::ui;

class TestServing final : public uitest::GuiTestCase
{
    Q_OBJECT

    /// Llama 3 70B with fp8 weights on two H100s at TP 2: the example.
    Scenario llama70b() const
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.gpus = 2;
        s.tp = 2;
        s.weightDtype = NumberFormat::Fp8;
        return s;
    }

    Scenario serving() const
    {
        Scenario s = llama70b();
        s.mode = Mode::Inference;
        return s;
    }

private slots:
    void switchIsOneStepAndKeepsModelGpuLayout()
    {
        Scenario start = llama70b();
        start.gpuId = QStringLiteral("h200-sxm");
        MainWindow w(env().catalog(), start);
        QUndoStack *undo = w.controller()->undoStack();
        ServingControls *controls = w.controls()->servingControls();
        QVERIFY(!controls->servingBox()->isVisibleTo(w.controls()));
        controls->modeButton(Mode::Inference)->click();
        QCOMPARE(undo->count(), 1);
        const Scenario &now = w.controller()->scenario();
        QCOMPARE(now.mode, Mode::Inference);
        Scenario expected = start;
        expected.mode = Mode::Inference;
        QCOMPARE(now, expected);  // only the mode changed: model, GPU, GPUs and TP kept
        QVERIFY(w.controller()->report()->inference.has_value());
        QVERIFY(controls->servingBox()->isVisibleTo(w.controls()));
        QVERIFY(controls->modeButton(Mode::Inference)->isChecked());
        undo->undo();
        QCOMPARE(w.controller()->scenario(), start);
        QVERIFY(controls->modeButton(Mode::Training)->isChecked());
        QVERIFY(!w.controller()->report()->inference.has_value());
    }

    void trainingOnlyPartsLeaveInInferenceMode()
    {
        // The Parallel training page, training's layout rows and the serving curve's exports
        // follow the mode: none of them shows a picture or control that does nothing there.
        MainWindow w(env().catalog(), llama70b());
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        LayoutControls *layout = w.controls()->layoutControls();
        const auto servingExports = [&w] {
            int visible = 0;
            for (QAction *a : w.findChildren<QAction *>())
                if (a->text().startsWith(chartTitle(ChartKind::Serving)) && a->isVisible())
                    ++visible;
            return visible;
        };
        QCOMPARE(servingExports(), 0);
        QVERIFY(layout->chooser(LayoutControls::Choice::Cp)->isVisibleTo(layout));
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        auto *parallelButton = w.dashboard()->findChild<QToolButton *>(QStringLiteral("page 1"));
        QVERIFY(parallelButton && parallelButton->isEnabled());

        QVERIFY(w.controls()->moreOptions()->recipeBox()->isVisibleTo(w.controls()->moreOptions()));
        w.controls()->servingControls()->modeButton(Mode::Inference)->click();
        QCOMPARE(servingExports(), 4);  // PNG, SVG, PDF and the clipboard
        QCOMPARE(w.dashboard()->pageTabs()->currentIndex(), 0);  // back on the overview
        QVERIFY(!parallelButton->isEnabled());
        for (auto c : {LayoutControls::Choice::Cp, LayoutControls::Choice::Vpp, LayoutControls::Choice::GlobalBatch})
            QVERIFY(!layout->chooser(c)->isVisibleTo(layout));
        QVERIFY(!layout->timeBasis()->isVisibleTo(layout));
        QVERIFY(layout->chooser(LayoutControls::Choice::Tp)->isVisibleTo(layout));
        QVERIFY(layout->chooser(LayoutControls::Choice::Pp)->isVisibleTo(layout));
        // Serving's precision is its weights' and KV cache's: the training recipe (AdamW) and
        // ZeRO leave with the rest of training's set-up.
        MoreOptions *more = w.controls()->moreOptions();
        QVERIFY(!more->recipeBox()->isVisibleTo(more) && !more->zeroBox()->isVisibleTo(more));
        // Tabs (large text): the training views' tabs are greyed.
        w.dashboard()->setArrangement(Dashboard::Arrangement::Tabs);
        QTabWidget *tabs = w.dashboard()->tabs();
        QVERIFY(!tabs->isTabEnabled(tabs->indexOf(w.dashboard()->plannerPanel()->parentWidget())));
        QVERIFY(tabs->isTabEnabled(tabs->indexOf(w.dashboard()->rooflinePanel())));

        w.controller()->undoStack()->undo();
        QCOMPARE(servingExports(), 0);
        QVERIFY(tabs->isTabEnabled(tabs->indexOf(w.dashboard()->plannerPanel()->parentWidget())));
        w.dashboard()->setArrangement(Dashboard::Arrangement::Grid);
        QVERIFY(parallelButton->isEnabled());
        QVERIFY(layout->chooser(LayoutControls::Choice::Cp)->isVisibleTo(layout));
    }

    // A mode switch shows each chart at the size it had: every-GPU charts of their own per mode
    // (time, and cost per million output tokens), and a roofline legend that keeps its rows, so
    // that no chart is laid out again for a new size (a chart's dearest work, every axis label
    // measured). Each mode's every-GPU chart still shows its own quantity. At 1280x720, the
    // two-column overview bench_ui times; in the wide three-column one the time column stacks
    // the serving curve over the every-GPU chart in inference mode, which then is lower.
    void modeSwitchResizesNoChart()
    {
        MainWindow w(env().catalog(), llama70b());
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        ServingControls *controls = w.controls()->servingControls();
        const auto switchTo = [&](Mode mode) {
            controls->modeButton(mode)->click();
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
        };
        // One round trip first: inference mode's views are built when first shown.
        switchTo(Mode::Inference);
        switchTo(Mode::Training);
        struct Resizes final : QObject {
            QStringList seen;
            bool eventFilter(QObject *watched, QEvent *event) override
            {
                if (event->type() == QEvent::Resize)
                    seen << watched->objectName();
                return false;
            }
        } resizes;
        for (ChartView *view : w.findChildren<ChartView *>()) {
            view->setObjectName(view->chart()->objectName());
            view->installEventFilter(&resizes);
        }
        TimePanel *time = w.dashboard()->timePanel();
        GpuTimeChart *trainingGpus = time->gpuChart();
        const QString trainingTitle = trainingGpus->valueAxis()->titleText();
        switchTo(Mode::Inference);
        GpuTimeChart *servingGpus = time->gpuChart();
        QVERIFY(servingGpus != trainingGpus);
        QVERIFY(servingGpus->isVisible());
        QVERIFY(!trainingGpus->isVisible());
        QVERIFY2(servingGpus->valueAxis()->titleText() != trainingTitle, qPrintable(trainingTitle));
        switchTo(Mode::Training);
        QCOMPARE(time->gpuChart(), trainingGpus);
        QCOMPARE(trainingGpus->valueAxis()->titleText(), trainingTitle);
        QVERIFY2(resizes.seen.isEmpty(), qPrintable(resizes.seen.join(QStringLiteral(", "))));
    }

    void concurrencyMovesTheCharts()
    {
        MainWindow w(env().catalog(), serving());
        QVERIFY(uitest::showAndWait(w));
        LinkedSlider *slider = w.controls()->servingControls()->concurrencySlider();
        const std::int64_t max = w.controller()->report()->inference->maxConcurrency;
        QVERIFY(max > 16);
        QCOMPARE(slider->sliderMaximum(), static_cast<double>(max));  // every position is accepted
        // The most intense decode op (a GEMM, whose intensity grows with the sequences sharing its weights).
        const auto mostIntenseDecode = [&w] {
            double x = 0;
            for (const QPointF &p : w.dashboard()->rooflinePanel()->phaseSeries(Phase::Decode)->points())
                x = std::max(x, p.x());
            return x;
        };
        const double decodeBefore = mostIntenseDecode();
        slider->spinBox()->setValue(16);
        QCOMPARE(w.controller()->scenario().concurrency, std::optional<std::int64_t>(16));
        QVERIFY(!w.controls()->servingControls()->maxConcurrencyBox()->isChecked());
        const Report &r = *w.controller()->report();
        const InferenceReport &inf = *r.inference;
        QCOMPARE(inf.concurrency, 16);

        // The trade-off curve: one point per concurrency of core's curve, the chosen one marked.
        ServingCurvePanel *curve = w.dashboard()->servingCurve();
        QVERIFY(curve->isVisible());
        QCOMPARE(curve->curve()->count(), inf.curve.size());
        for (int i = 0; i < inf.curve.size(); ++i) {
            QVERIFY(uitest::nearlyEqual(curve->curve()->at(i).x(), inf.curve[i].tpotSeconds * 1e3));
            QVERIFY(uitest::nearlyEqual(curve->curve()->at(i).y(), inf.curve[i].outputTokensPerS));
        }
        QCOMPARE(curve->chosen()->count(), 1);
        QVERIFY(uitest::nearlyEqual(curve->chosen()->at(0).x(), inf.tpotSeconds * 1e3));
        QVERIFY(uitest::nearlyEqual(curve->chosen()->at(0).y(), inf.outputTokensPerS));
        QVERIFY2(curve->chosenLabel().startsWith(QStringLiteral("16 seq")), qPrintable(curve->chosenLabel()));

        // The memory chart: the serving split, its top the usable share.
        ServingMemoryPanel *memory = w.dashboard()->servingMemoryPanel();
        QVERIFY(memory->isVisible());
        const ServingMemory &m = inf.memory;
        using P = ServingMemoryPanel::Part;
        QVERIFY(uitest::nearlyEqual(memory->barSet(P::Weights)->at(0) * 1e9, m.weights));
        QVERIFY(uitest::nearlyEqual(memory->barSet(P::Activations)->at(0) * 1e9, m.activations));
        QVERIFY(uitest::nearlyEqual(memory->barSet(P::Reserved)->at(0) * 1e9, m.reserved));
        QVERIFY(uitest::nearlyEqual(memory->barSet(P::KvInUse)->at(0) * 1e9, m.kvInUse));
        QVERIFY(uitest::nearlyEqual(memory->barSet(P::KvFree)->at(0) * 1e9, m.kvFree()));
        QVERIFY(m.kvInUse > 0 && m.kvFree() > 0);
        QVERIFY(uitest::nearlyEqual(memory->capacityLine()->at(0).y() * 1e9, m.capacity));
        QVERIFY(uitest::nearlyEqual(memory->usableLine()->at(0).y() * 1e9, m.usable));

        // The time panel's figures, and the roofline's compute-bound line.
        TimePanel *time = w.dashboard()->timePanel();
        QCOMPARE(time->figureName(static_cast<int>(TimePanel::ServingFigure::Ttft)), QStringLiteral("TTFT"));
        QCOMPARE(time->figure(TimePanel::ServingFigure::Tpot)->text(), fmt::duration(inf.tpotSeconds));
        // Its note adds up to it: the decode step and the prefills spread over each token (a
        // 241 ms TPOT had stood beside "one decode step ... 95.0 ms" alone).
        const QString tpotNote = time->note(TimePanel::ServingFigure::Tpot)->text();
        QVERIFY2(tpotNote.contains(fmt::duration(inf.decodeStepSeconds))
                     && tpotNote.contains(fmt::duration(inf.tpotSeconds - inf.decodeStepSeconds)),
                 qPrintable(tpotNote));
        QCOMPARE(time->figure(TimePanel::ServingFigure::CostOutput)->text(), fmt::usd(*inf.costPerMillionOutputTokensUsd));
        RooflinePanel *roofline = w.dashboard()->rooflinePanel();
        QVERIFY(roofline->computeBoundText().contains(fmt::number(inf.decodeGemmsComputeBoundFrom)));
        QVERIFY(roofline->legendText().contains(roofline->computeBoundText()));
        // Llama 3 70B fp8 on two H100s: the crossover (≈ 340) lies past what the pool holds (283).
        QVERIFY(inf.decodeGemmsComputeBoundFrom > static_cast<double>(inf.maxConcurrency));
        QVERIFY2(roofline->computeBoundText().contains(QStringLiteral("(only %1 fit)").arg(fmt::count(inf.maxConcurrency))),
                 qPrintable(roofline->computeBoundText()));
        QVERIFY(roofline->phaseSeries(Phase::Prefill)->count() > 0);
        QCOMPARE(roofline->opSeries(OpKind::Matmul)->count(), 0);  // phases, not kinds
        // Fewer sequences per decode step: decode's ops sit further left than at max.
        QVERIFY2(mostIntenseDecode() < decodeBefore / 4, qPrintable(QStringLiteral("%1 vs %2").arg(mostIntenseDecode()).arg(decodeBefore)));

        // Every GPU: the chosen one's bar is the report's cost per million output tokens.
        GpuTimeChart *gpus = time->gpuChart();
        const int chosen = uitest::gpuIndex(env().catalog(), r.gpu.id);
        QVERIFY(uitest::nearlyEqual(gpus->barSet()->at(chosen), *inf.costPerMillionOutputTokensUsd));
        QCOMPARE(gpus->serving().size(), env().catalog().gpus.size());
        int refused = 0;
        for (int i = 0; i < gpus->serving().size(); ++i)
            if (!gpus->serving()[i].served) {
                ++refused;
                QCOMPARE(gpus->barSet()->at(i), 0.0);
                QVERIFY(!gpus->serving()[i].reason.isEmpty());
                QVERIFY(!gpus->marks()[i].isEmpty());
            }
        QVERIFY(refused > 0);  // 70B does not fit on two 16 GB GPUs
    }

    // Where the every-GPU chart names every second GPU (a 1366x768 window, the cost chart in
    // the bottom row), a mark over an unnamed slot names its GPU: "no price" and "does not
    // fit (16.0 GiB)" beside an unnamed slot had read as the named neighbour's.
    void marksOfUnnamedBarsNameTheirGpu()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.mode = Mode::Inference;
        s.gpus = 8;
        s.tp = 8;
        MainWindow w(env().catalog(), s);
        w.resize(1366, 768);
        QVERIFY(uitest::showAndWait(w));
        GpuTimeChart *gpus = w.dashboard()->timePanel()->gpuChart();
        QTRY_VERIFY(gpus->isVisible());
        const QList<QPolygonF> names = gpus->barLabels()->labelShapes();
        int unnamed = 0;
        for (int i = 0; i < names.size(); ++i) {
            const QString shown = gpus->shownMarks()[i];
            if (!names[i].isEmpty() || shown.isEmpty() || shown == QStringLiteral("✗"))
                continue;
            ++unnamed;
            QVERIFY2(shown.startsWith(env().catalog().gpus[i].shortName + QStringLiteral(": ")), qPrintable(shown));
        }
        QVERIFY2(gpus->barLabels()->stride() == 1 || unnamed > 0, "names thinned, yet no mark over an unnamed bar");
    }

    // The chosen point's words never lie across the curve: DeepSeek-V3 on 8 H200s at the most
    // sequences the KV cache holds ends in a steep climb in the plot's top right corner, where
    // "above and left of the point" wrote them over the last segments.
    // The KV pool's label stands beside the bar, never over it: where "KV pool 1.50 GB" has no
    // room there (a 1024x768 window at text x2, where it was drawn across the bar), the bar
    // narrows and then the label drops "pool".
    void poolLabelStaysBesideTheBar_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        QTest::newRow("1280x720") << QSize(1280, 720) << 1.0;
        QTest::newRow("1024x768, text x1.5") << QSize(1024, 768) << 1.5;
        QTest::newRow("1024x768, text x2") << QSize(1024, 768) << 2.0;
    }
    void poolLabelStaysBesideTheBar()
    {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.mode = Mode::Inference;
        s.gpus = 2;
        s.tp = 2;
        MainWindow w(env().catalog(), s);
        w.resize(size);
        w.setFontScale(fontScale);
        QVERIFY(uitest::showAndWait(w));
        ServingMemoryPanel *memory = w.dashboard()->servingMemoryPanel();
        if (w.dashboard()->currentArrangement() == Dashboard::Arrangement::Tabs)
            w.dashboard()->tabs()->setCurrentIndex(0);
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::processEvents();
            QTest::qWait(10);
        }
        QVERIFY(memory->isVisible());
        QVERIFY2(memory->poolLabelRect().left() > memory->barRight(),
                 qPrintable(QStringLiteral("'%1' starts at %2, the bar ends at %3")
                                .arg(memory->poolLabel()).arg(memory->poolLabelRect().left()).arg(memory->barRight())));
        QVERIFY(memory->poolLabel().startsWith(QStringLiteral("KV")) && memory->poolLabel().endsWith(QStringLiteral(" GB")));
        if (fontScale <= 1.0)
            QVERIFY(memory->poolLabel().startsWith(QStringLiteral("KV pool ")));
    }

    void chosenLabelStaysOffTheCurve_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void chosenLabelStaysOffTheCurve()
    {
        QFETCH(QSize, size);
        Scenario s = env().presetScenario(QStringLiteral("deepseek-v3"));
        s.mode = Mode::Inference;
        s.gpuId = QStringLiteral("h200-sxm");
        s.gpus = 8;
        s.tp = 8;
        s.weightDtype = NumberFormat::Fp8;
        MainWindow w(env().catalog(), s);
        w.resize(size);
        QVERIFY(uitest::showAndWait(w));
        QVERIFY2(!w.controller()->error(), qPrintable(w.controller()->error() ? w.controller()->error()->message() : QString()));
        ServingCurvePanel *panel = w.dashboard()->servingCurve();
        if (w.dashboard()->currentArrangement() == Dashboard::Arrangement::Tabs)
            w.dashboard()->tabs()->setCurrentWidget(panel->parentWidget());
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::processEvents();
            QTest::qWait(10);
        }
        QVERIFY(panel->isVisible());
        const QRectF label = panel->chosenLabelRect();
        QVERIFY(!label.isEmpty());
        QVERIFY2(panel->chart()->plotArea().contains(label), "the words stay inside the plot");
        const QList<QPointF> points = panel->curve()->points();
        QVERIFY(points.size() > 2);
        for (int i = 1; i < points.size(); ++i) {
            const QPointF a = panel->chart()->mapToPosition(points[i - 1], panel->curve());
            const QPointF b = panel->chart()->mapToPosition(points[i], panel->curve());
            for (int k = 0; k <= 50; ++k) {
                const QPointF p = a + (b - a) * (k / 50.0);
                QVERIFY2(!label.contains(p), qPrintable(QStringLiteral("\"%1\" at (%2, %3) %4x%5 crosses the curve at (%6, %7)")
                                                           .arg(panel->chosenLabel())
                                                           .arg(label.x()).arg(label.y()).arg(label.width()).arg(label.height())
                                                           .arg(p.x()).arg(p.y())));
            }
        }
    }

    // Dragging concurrency down raises the cost per token on every GPU by the slider's √2 steps.
    // The cost axis never cuts a bar; when a drag makes it move, it leaves the data at 2/3 of it
    // (axisTopFor), so it holds for some ticks after; releasing the slider fits it to the data.
    void costAxisKeepsHeadroomWhileDragging()
    {
        MainWindow w(env().catalog(), serving());
        QVERIFY(uitest::showAndWait(w));
        QSlider *slider = w.controls()->servingControls()->concurrencySlider()->slider();
        GpuTimeChart *gpus = w.dashboard()->timePanel()->gpuChart();
        const auto dataTop = [gpus] {
            double top = 0;
            for (int i = 0; i < gpus->barSet()->count(); ++i)
                top = std::max(top, gpus->barSet()->at(i));
            return top * 1.05;  // the chart's own margin over its tallest bar
        };
        slider->setValue(slider->maximum());
        slider->setSliderDown(true);
        int moved = 0, held = 0;
        for (int step = 0; step < 10 && slider->value() > slider->minimum(); ++step) {
            const double before = gpus->valueAxis()->max();
            slider->setValue(slider->value() - 1);
            const double top = dataTop();
            const double axis = gpus->valueAxis()->max();
            QVERIFY2(top <= axis * (1 + 1e-9), qPrintable(QStringLiteral("bars to %1, axis to %2").arg(top).arg(axis)));
            if (axis != before) {
                ++moved;
                QVERIFY2(axis >= 1.5 * top * (1 - 1e-9), qPrintable(QStringLiteral("refit to %1 for %2").arg(axis).arg(top)));
            } else {
                ++held;
            }
        }
        QVERIFY(moved > 0);
        QVERIFY(held > 0);
        slider->setSliderDown(false);
        const double top = dataTop();
        const double step = niceStep(top, 4);
        QCOMPARE(gpus->valueAxis()->max(), std::ceil(top / step) * step);
        QVERIFY(gpus->valueAxis()->max() < 1.5 * top);
    }

    void refusedValuesShowTheBanner()
    {
        MainWindow w(env().catalog(), serving());
        QVERIFY(uitest::showAndWait(w));
        Banner *banner = w.dashboard()->errorBanner();
        QVERIFY(!banner->isVisible());
        const std::int64_t max = w.controller()->report()->inference->maxConcurrency;
        w.controls()->servingControls()->concurrencySlider()->spinBox()->setValue(static_cast<double>(max + 1));
        QVERIFY(w.controller()->error().has_value());
        QCOMPARE(w.controller()->error()->field, QStringLiteral("concurrency"));
        QVERIFY(banner->isVisible());
        QVERIFY(w.isVisible());
        w.controller()->undoStack()->undo();
        QVERIFY(!banner->isVisible());

        // An empty KV pool: 30% of an H100 does not hold 35 GB of weights.
        auto *utilization = w.controls()->servingControls()->fields()->control<QDoubleSpinBox>("gpu_memory_utilization");
        QVERIFY(utilization);
        utilization->setValue(30);
        QVERIFY(w.controller()->error().has_value());
        QCOMPARE(w.controller()->error()->field, QStringLiteral("gpu_memory_utilization"));
        QVERIFY(banner->isVisible());
        QVERIFY(w.controller()->report()->inference.has_value());  // the last valid report stays on screen
        QVERIFY(std::isfinite(w.dashboard()->servingMemoryPanel()->barSet(ServingMemoryPanel::Part::KvFree)->at(0)));
    }

    void exportWritesServingPng()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("charts"));
        const auto done = exportCharts(env().catalog(), serving(), dir, QSize(800, 500));
        QVERIFY2(!done, qPrintable(messageOf(done)));
        const QStringList files = QDir(dir).entryList(QDir::Files);
        QCOMPARE(files.size(), exportedChartKinds(Mode::Inference).size());
        QCOMPARE(exportedChartKinds(Mode::Inference).size(), exportedChartKinds(Mode::Training).size() + 1);
        QVERIFY(files.contains(QStringLiteral("serving.png")));
        const QImage image(QDir(dir).filePath(QStringLiteral("serving.png")));
        QCOMPARE(image.size(), QSize(800, 500));
        // Not blank: the curve and its highlighted point are drawn.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                if (image.pixelColor(x, y).saturation() > 80)
                    ++coloured;
        QVERIFY2(coloured > 20, qPrintable(QString::number(coloured)));
    }
};

QTEST_MAIN(TestServing)
#include "tst_ui_serving.moc"
