// The memory chart's capacity line and fits banner follow the GPU chooser and the ZeRO stage,
// the chosen stage is the marked bar, GB/GiB switch the scale, and hovering a segment shows
// its bytes and formula.

#include "ui/widgets/banner.h"
#include "ui/controls/controlspanel.h"
#include "ui/views/dashboard.h"
#include "ui/controls/gpuchooser.h"
#include "guitestfixture.h"
#include "core/model/lectureexample.h"
#include "ui/views/timepanel.h"
#include "ui/widgets/textstrip.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/memorypanel.h"
#include "ui/views/fitfix.h"
#include "ui/controls/moreoptions.h"
#include "ui/state/scenariocontroller.h"
#include "core/text/stepexplain.h"
#include "ui/views/steptimepanel.h"

#include <QStackedWidget>
#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QTabWidget>
#include <QChart>
#include <QComboBox>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QTest>
#include <QUndoStack>
#include <QValueAxis>

using namespace napkin;
using namespace napkin::ui;

namespace {

double chartTotal(const MemoryPanel *panel, int stage)
{
    double total = 0;
    for (int c = 0; c < kMemoryComponents; ++c)
        total += panel->barSet(static_cast<MemoryComponent>(c))->at(stage);
    return total;
}

// Chooses through the widget, as a user would: keyboard on the closed combo box.
void chooseInCombo(QComboBox *combo, int index)
{
    combo->setFocus();
    while (combo->currentIndex() < index)
        QTest::keyClick(combo, Qt::Key_Down);
    while (combo->currentIndex() > index)
        QTest::keyClick(combo, Qt::Key_Up);
}

Scenario llama2_7b(const Catalog &catalog)
{
    Scenario s;
    s.presetId = QStringLiteral("llama2-7b");
    s.model = catalog.findPreset(s.presetId)->shape;
    s.seqLen = 4096;
    s.microBatch = 1;
    s.gpuId = QStringLiteral("a100-40gb-sxm");
    s.gpus = 8;
    return s;
}

} // namespace

class TestMemoryChart final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void capacityFollowsGpuChooser()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        QComboBox *combo = w.controls()->gpuChooser()->comboBox();
        for (int i = 0; i < env().catalog().gpus.size(); ++i) {
            const GpuSpec &gpu = env().catalog().gpus[i];
            chooseInCombo(combo, i);
            QCOMPARE(w.controller()->scenario().gpuId, gpu.id);
            // Edit > Undo names the GPU as people know it, not by its catalog id.
            QCOMPARE(w.controller()->undoStack()->undoText(), QStringLiteral("Choose GPU %1").arg(gpu.shortName));
            const QList<QPointF> line = memory->capacityLine()->points();
            QCOMPARE(line.size(), 2);
            QCOMPARE(line[0].y(), gpu.memoryBytes / 1e9);
            QCOMPARE(line[1].y(), gpu.memoryBytes / 1e9);
            // The capacity line must be inside the visible range.
            QVERIFY(memory->valueAxis()->max() >= gpu.memoryBytes / 1e9);
            const Report r = env().report(w.controller()->scenario());
            QCOMPARE(memory->fitsBanner()->level() == Banner::Level::Good, r.memory.fits);
            QVERIFY(memory->fitsBanner()->text().contains(r.memory.fits ? QStringLiteral("FITS")
                                                                       : QStringLiteral("DOES NOT FIT")));
        }
    }

    void offloadMovesStateToTheCpu()
    {
        // Llama 3 70B on 8 H100s does not fit at ZeRO 0; choosing "Optimizer + grads" offload
        // raises ZeRO to 1 in the same undoable change, the GPU bars lose their gradient and
        // optimizer segments, the banner names the CPU memory per node, and the step chart
        // gains the PCIe traffic the core reports.
        Scenario s;
        s.model = env().catalog().findPreset(QStringLiteral("llama3-70b"))->shape;
        s.gpus = 8;
        s.seqLen = 4096;
        s.microBatch = 1;
        s.recompute = Recompute::Full;
        MainWindow w(env().catalog(), s);
        QVERIFY(uitest::showAndWait(w));
        QComboBox *offload = w.controls()->moreOptions()->offloadBox();
        const int steps = w.controller()->undoStack()->count();
        chooseInCombo(offload, offload->findData(static_cast<int>(Offload::Optimizer)));
        const Scenario &now = w.controller()->scenario();
        QCOMPARE(now.offload, Offload::Optimizer);
        QCOMPARE(now.zeroStage, 1);
        QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
        QVERIFY(!w.controller()->error());
        const Report &r = *w.controller()->report();
        QCOMPARE(r.memory.perGpu.grads, 0.0);
        QVERIFY(r.memory.cpuPerNode > 0);
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        QCOMPARE(memory->barSet(MemoryComponent::Optimizer)->at(1), 0.0);
        QVERIFY2(memory->legendText().contains(QStringLiteral("offloaded to CPU")), qPrintable(memory->legendText()));
        QVERIFY(r.step.hostExposed > 0);
        w.dashboard()->pageTabs()->setCurrentIndex(1);  // Parallel training
        StepTimePanel *step = w.dashboard()->stepTimePanel();
        QCOMPARE(step->barSet(StepComponent::Offload)->at(0) * step->axisUnit(), r.step.hostExposed);
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario().offload, Offload::None);
        QCOMPARE(w.controller()->scenario().zeroStage, 0);
    }

    void fitsFollowsZeroStage_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<bool>("fits");
        // Llama 2 7B has 6,738,415,616 parameters (Touvron et al. 2023; Hugging Face model card
        // meta-llama/Llama-2-7b-hf). At 16 B/param (ZeRO paper Section 3.1: 2 + 2 + K, K = 12)
        // its model state is 107.8 GB, over an A100 40GB's 42.9 GB (NVIDIA A100 datasheet,
        // 40 GB HBM2 taken as GiB) until ZeRO-3 divides it by 8 GPUs to 13.5 GB. Activations at
        // seq 4096, batch 1 (Korthikanti et al. 2022 Table 2: 32 layers x 4096^2 x (34 + 5 x 32))
        // come to about 105 GB with the s^2 terms and about 19 GB with FlashAttention.
        QTest::newRow("zero0") << 0 << false << false;
        QTest::newRow("zero3") << 3 << false << false;
        QTest::newRow("zero0-flash") << 0 << true << false;
        QTest::newRow("zero3-flash") << 3 << true << true;
    }

    void fitsFollowsZeroStage()
    {
        QFETCH(int, stage);
        QFETCH(bool, flash);
        QFETCH(bool, fits);
        Scenario start = llama2_7b(env().catalog());
        start.flashAttention = flash;
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        chooseInCombo(w.controls()->moreOptions()->zeroBox(), stage);
        QCOMPARE(w.controller()->scenario().zeroStage, stage);

        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        const double params = 6738415616.0;
        const double state = 16 * params / (stage >= 1 ? 8 : 1);  // stage 3 shards all 16 bytes
        const double chartState = (memory->barSet(MemoryComponent::Params)->at(stage)
                                   + memory->barSet(MemoryComponent::Grads)->at(stage)
                                   + memory->barSet(MemoryComponent::Optimizer)->at(stage)) * 1e9;
        if (stage == 0 || stage == 3)
            QVERIFY2(uitest::nearlyEqual(chartState, state), qPrintable(QString::number(chartState)));
        QCOMPARE(memory->fitsBanner()->level() == Banner::Level::Good, fits);
        QCOMPARE(chartTotal(memory, stage) <= memory->capacityLine()->points()[0].y(), fits);
        // And on screen: the banner is painted green when it fits, red when it does not.
        const QImage banner = memory->fitsBanner()->grab().toImage();
        const QColor fill = banner.pixelColor(3, banner.height() / 2);
        QCOMPARE(fill.green() > fill.red(), fits);
        // The chosen bar is drawn solid, the others faded, and its label carries the marker.
        for (int s = 0; s < 4; ++s)
            QCOMPARE(memory->barSet(MemoryComponent::Params)->isBarSelected(s), s != stage);
        QVERIFY(memory->categoryAxis()->categories().at(stage).contains(QStringLiteral("▶")));
    }

    // Large text in a narrow panel: Apply and Axis go under the banner rather than cut it to
    // "✘ DOES NOT FIT: 848.6 GB …", which had lost the fix's line.
    void fitBannerKeepsItsFix()
    {
        // Megatron-Bridge's GPT-OSS layout at micro-batch 8: 848.6 GB a GPU; micro-batch 1 fits.
        MainWindow w(env().catalog(), env().gptOssAtBridge(8));
        QVERIFY(uitest::showInTabs(w));
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        uitest::showTabOf(w, memory);
        QTRY_VERIFY_WITH_TIMEOUT(memory->fitFix()->suggestion().has_value(), 20000);
        const Banner *banner = memory->fitsBanner();
        QTRY_VERIFY2(banner->shownText().contains(QLatin1String("Fits with")), qPrintable(banner->shownText()));
        QVERIFY2(banner->shownText().contains(QLatin1String("of 85.9")), qPrintable(banner->shownText()));
        // The buttons stay in the panel and off the banner.
        const QRect bannerBox = banner->geometry();
        for (const QWidget *button : {static_cast<const QWidget *>(memory->fitFix())}) {
            QVERIFY(button->isVisibleTo(memory));
            QVERIFY(!button->geometry().intersects(bannerBox));
            QVERIFY(memory->rect().contains(button->geometry()));
        }
    }

    void fixIsNeverCut_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("whole");  // every change named; else the first two and "…"
        QTest::newRow("1366x768") << QSize(1366, 768) << 1.0 << true;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 1.0 << true;
        QTest::newRow("1024x768, text x2") << QSize(1024, 768) << 2.0 << false;
    }

    // A fix that changes the split names each dimension, and the banner takes the lines it needs:
    // Llama 3 70B on 64 GPUs at 8,192 tokens (2 TB a GPU at ZeRO 0) had read "Fits with tp 2 ·
    // pp 2 (vpp 7) · cp 4 · SP · ZeRO 2 · sel…", its memory and step cut, even at 1920 px.
    void fixIsNeverCut()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        QFETCH(bool, whole);
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.gpus = 64;
        s.seqLen = 8192;
        s.microBatch = 1;
        MainWindow w(env().catalog(), s);
        w.resize(size);
        w.setFontScale(scale);
        QVERIFY(uitest::showAndWait(w));
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        uitest::showTabOf(w, memory);
        QTRY_VERIFY_WITH_TIMEOUT(memory->fitFix()->suggestion().has_value() && !memory->fitFix()->pending(), 20000);
        const Banner *banner = memory->fitsBanner();
        QTRY_VERIFY2(banner->text().contains(QLatin1String("Fits with")), qPrintable(banner->text()));
        // The memory and the step always stay, at the end of what is shown.
        const QString tail = memory->fitFix()->appliedText().section(QStringLiteral(": "), -1);
        const auto shown = [banner] {  // as drawn: no-break spaces keep a figure with its unit
            return banner->shownText().replace(QChar(0x00A0), QLatin1Char(' ')).remove(QChar(0x2060));
        };
        QTRY_VERIFY2(shown().endsWith(tail), qPrintable(shown()));
        QCOMPARE(banner->showsWholeText(), whole);
        if (!whole)
            QVERIFY2(shown().contains(QStringLiteral(" · …: ")), qPrintable(shown()));
        // Once it fits, the banner is back to its two lines.
        memory->fitFix()->click();
        QTRY_VERIFY(w.controller()->report()->memory.fits);
        QTRY_COMPARE(banner->lines(), 2);
        // And no brief form of the fix is left to stand in for the verdict.
        QVERIFY2(banner->briefText().isEmpty(), qPrintable(banner->briefText()));
        QVERIFY2(banner->shownText().contains(QStringLiteral("FITS")), qPrintable(banner->shownText()));
    }

    void axisFocusShowsTheChosenStage()
    {
        // Llama 3 70B (Meta model card: 70.6B parameters) on 64 H100s at ZeRO 3 with full
        // recompute: its ZeRO-0 bar holds 16 B x 70.6e9 = 1.13 TB of model state, 35x the
        // ZeRO-3 bar, which under an all-stages axis is a sliver.
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.seqLen = 8192;
        s.microBatch = 1;
        s.gpus = 64;
        s.zeroStage = 3;
        s.recompute = Recompute::Full;
        const Report r = env().report(s);
        const double zero0 = r.memory.byZeroStage[0].total() / 1e9;
        const double chosen = r.memory.perGpu.total() / 1e9;
        const double capacity = r.memory.capacity / 1e9;
        QVERIFY2(zero0 > 20 * chosen, qPrintable(QString::number(zero0 / chosen)));
        QVERIFY(r.memory.fits);

        MainWindow w(env().catalog(), s);
        QVERIFY(uitest::showAndWait(w));
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        QCOMPARE(memory->axisFocus(), MemoryPanel::AxisFocus::AllStages);
        QVERIFY(memory->valueAxis()->max() >= zero0);
        QVERIFY(!memory->totalText(0).startsWith(QStringLiteral("↑")));

        // Chosen stage + capacity, picked in the panel's Axis menu: the axis ends just above the
        // capacity line, the ZeRO-0 bar is cut and says so.
        memory->focusActions().at(1)->trigger();
        QCOMPARE(memory->axisFocus(), MemoryPanel::AxisFocus::ChosenAndCapacity);
        QVERIFY(memory->valueAxis()->max() >= capacity);
        QVERIFY(memory->valueAxis()->max() <= 1.5 * capacity);
        QVERIFY(memory->capacityLine()->isVisible());
        QVERIFY(memory->totalText(0).startsWith(QStringLiteral("↑ ")));
        QVERIFY(!memory->totalText(3).startsWith(QStringLiteral("↑")));

        // Chosen stage alone: its bar fills most of the plot.
        memory->focusActions().at(2)->trigger();
        QCOMPARE(memory->axisFocus(), MemoryPanel::AxisFocus::ChosenStage);
        QVERIFY(memory->valueAxis()->max() >= chosen);
        QVERIFY2(memory->valueAxis()->max() <= 1.6 * chosen, qPrintable(QString::number(memory->valueAxis()->max())));
        QVERIFY(!memory->capacityLine()->isVisible() || capacity <= memory->valueAxis()->max());
    }

    void legendPrintsTheModelStateSubtotal()
    {
        // ZeRO-paper Section 3.1 for GPT-2 small's 124,439,808 parameters (Radford et al. 2019,
        // as counted by Hugging Face): 2 + 2 + 12 bytes each, 1.991 GB of model state.
        MainWindow w(env().catalog(), Scenario{});
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        const Report r = env().report(Scenario{});
        QCOMPARE(r.params.total, 124439808);
        const QString legend = memory->legendText();
        QVERIFY2(legend.contains(QStringLiteral("= model state 1.991 GB")), qPrintable(legend));
        QVERIFY2(legend.contains(QStringLiteral("Reserved 1.408 GB")), qPrintable(legend));
        QVERIFY(legend.contains(QStringLiteral("= total %1").arg(fmt::bytesIn(r.memory.perGpu.total(), ByteUnit::GB, 3))));
        // ZeRO 3's bar holds the framework's segment (its parameter gathers) where the chosen
        // ZeRO 0 holds none: the legend names its colour all the same.
        QVERIFY(r.memory.perGpu.overheads == 0 && r.memory.byZeroStage[3].overheads > 0);
        QVERIFY2(legend.contains(QStringLiteral("■ ") + componentShortName(MemoryComponent::Framework)), qPrintable(legend));
    }

    void lectureExampleShowsTheDocumentsFigures()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        w.openLectureExample();
        QCOMPARE(w.controller()->scenario(), lectureExample());
        // The source document's printed output: 2.232e+20 FLOPs; 0.248 / 0.248 / 1.488 / 1.984 GB.
        QCOMPARE(w.dashboard()->timePanel()->figure(TimePanel::Figure::Flops6nd)->text(), QStringLiteral("2.232e+20"));
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        QCOMPARE(memory->barSet(MemoryComponent::Params)->at(0), 0.248);
        QCOMPARE(memory->barSet(MemoryComponent::Grads)->at(0), 0.248);
        QCOMPARE(memory->barSet(MemoryComponent::Optimizer)->at(0), 1.488);
        QCOMPARE(memory->barSet(MemoryComponent::Activations)->at(0), 0.0);
        QCOMPARE(memory->barSet(MemoryComponent::Reserved)->at(0), 0.0);
        const QString legend = memory->legendText();
        for (const char *figure : {"Params 0.248 GB", "Grads 0.248 GB", "Optimizer + master 1.488 GB",
                                   "= model state 1.984 GB", "= total 1.984 GB"})
            QVERIFY2(legend.contains(QLatin1String(figure)), figure);
        // Readable: the axis spans the 1.984 GB bar, not the GPU's 85.9 GB.
        QCOMPARE(memory->axisFocus(), MemoryPanel::AxisFocus::ChosenStage);
        QVERIFY(memory->focusActions().at(2)->isChecked());
        QVERIFY(memory->valueAxis()->max() >= 1.984 && memory->valueAxis()->max() <= 3);
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario(), Scenario{});
    }

    void gibShowsBinaryUnits()
    {
        MainWindow w(env().catalog(), Scenario{});
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        // H100 SXM5: 80 GB HBM3 (NVIDIA H100 datasheet), which the catalog takes as 80 GiB.
        QCOMPARE(memory->capacityLine()->points()[0].y(), 85899345920.0 / 1e9);
        w.setByteUnit(ByteUnit::GiB);
        QCOMPARE(memory->capacityLine()->points()[0].y(), 80.0);
        QVERIFY(memory->valueAxis()->titleText().contains(QStringLiteral("GiB")));
        w.setByteUnit(ByteUnit::GB);
        QCOMPARE(memory->capacityLine()->points()[0].y(), 85.89934592);
    }

    void hoverShowsBytesAndFormula()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        MemoryPanel *memory = w.dashboard()->memoryPanel();
        const Report r = env().report(Scenario{});
        // Middle of the activations segment of ZeRO 0 (it sits on top of the model state).
        const double below = (r.memory.byZeroStage[0].total() - r.memory.byZeroStage[0].activations) / 1e9;
        const double middle = below + r.memory.byZeroStage[0].activations / 2e9;
        QAbstractSeries *bars = memory->chart()->series().first();
        const QPointF pos = memory->chart()->mapToPosition({0, middle}, bars);
        const auto segment = memory->segmentAt(pos);
        QVERIFY(segment);
        QCOMPARE(segment->zeroStage, 0);
        QCOMPARE(segment->component, MemoryComponent::Activations);
        const QString text = memorySegmentText(r, 0, MemoryComponent::Activations, ByteUnit::GB);
        QVERIFY(text.contains(fmt::count(static_cast<std::int64_t>(std::llround(r.memory.byZeroStage[0].activations)))));
        QVERIFY(text.contains(QStringLiteral("Korthikanti")));
        // Far outside any bar there is nothing to show.
        QVERIFY(!memory->segmentAt(memory->chart()->mapToPosition({0.5, middle}, bars)));
    }
};

QTEST_MAIN(TestMemoryChart)
#include "tst_ui_memory.moc"
