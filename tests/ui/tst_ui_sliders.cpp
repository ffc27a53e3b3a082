// Moving each of the five main sliders changes the chart series it should, by the amount
// the core computes, and leaves the others alone; and under a parallel layout every position
// of a slider (and every arrow step of the heads) is a scenario the layout accepts, shown by
// the charts and the controls alike.

#include "ui/controls/controlspanel.h"
#include "ui/controls/layoutcontrols.h"
#include "ui/controls/moreoptions.h"
#include "ui/widgets/divisorspinbox.h"
#include "ui/views/dashboard.h"
#include "ui/views/gputimechart.h"
#include "guitestfixture.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/timepanel.h"

#include <QBarSet>
#include <QCheckBox>
#include <QComboBox>
#include <QScatterSeries>
#include <QSlider>
#include <QToolButton>
#include <QTest>

using namespace napkin;
using namespace napkin::ui;
using Main = ControlsPanel::Main;
using Choice = LayoutControls::Choice;

namespace {

// What each chart shows, read back from the series.
struct Readout {
    double params = 0;       // memory chart, parameters segment of ZeRO 0, GB
    double activations = 0;  // memory chart, activations segment of ZeRO 0, GB
    double seconds = 0;      // time chart, the chosen GPU's bar
    QList<QPointF> matmuls;  // roofline, matmul points
};

Readout read(const MainWindow &w, int chosenGpu)
{
    const MemoryPanel *memory = w.dashboard()->memoryPanel();
    const GpuTimeChart *time = w.dashboard()->timePanel()->gpuChart();
    return {memory->barSet(MemoryComponent::Params)->at(0), memory->barSet(MemoryComponent::Activations)->at(0),
            // The bar is hatched (the other set) when the run does not fit in the GPU's memory.
            (time->barSet(true)->at(chosenGpu) + time->barSet(false)->at(chosenGpu)) * time->secondsPerUnit(),
            w.dashboard()->rooflinePanel()->opSeries(OpKind::Matmul)->points()};
}

Readout expected(const Report &r)
{
    Readout e{r.memory.byZeroStage[0].params / 1e9, r.memory.byZeroStage[0].activations / 1e9, r.time.seconds, {}};
    for (const RooflineOp &op : r.roofline.ops)
        if (op.kind == OpKind::Matmul)
            e.matmuls.append({op.intensity, op.attainableFlopsPerS / RooflinePanel::kFlopsPerAxisUnit});
    return e;
}

// One step left on each slider from the defaults (GPT-2 small, 300B tokens, batch 8, seq 1024).
Scenario afterOneStepLeft(Main which)
{
    Scenario s;
    switch (which) {
    case Main::Layers:
        s.model.layers = 11;
        break;
    case Main::DModel:
        // 704 = 11 x 64: 12 heads no longer divide it, the nearest divisor is 11; d_ff keeps 4x.
        s.model.dModel = 704;
        s.model.heads = 11;
        s.model.kvHeads = 11;
        s.model.dFf = 2816;
        break;
    case Main::Tokens:
        // Twenty positions per decade from 1e6: 300B sits at 10^(11.5); one left is 10^11.45,
        // shown to two significant digits.
        s.tokens = 2.8e11;
        break;
    case Main::MicroBatch:
        s.microBatch = 4;
        break;
    case Main::SeqLen:
        s.seqLen = 512;
        break;
    }
    return s;
}

/// Opens the cluster and layout group and picks a chooser's item by its text, as a click does.
void choose(const ControlsPanel *controls, Choice which, const QString &text)
{
    controls->layoutToggle()->setChecked(true);
    QComboBox *box = controls->layoutControls()->chooser(which);
    const int i = box->findText(text);
    QVERIFY2(i >= 0, qPrintable(text));
    box->setCurrentIndex(i);
    emit box->activated(i);
}

Scenario withPreset(const Catalog &catalog, const QString &id)
{
    Scenario s;
    s.presetId = id;
    s.model = catalog.findPreset(id)->shape;
    s.gpus = 16;
    return s;
}

} // namespace

class TestSliders final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void sliderChangesTheRightSeries_data()
    {
        QTest::addColumn<int>("slider");
        QTest::addColumn<bool>("params");
        QTest::addColumn<bool>("activations");
        QTest::addColumn<bool>("time");
        QTest::addColumn<bool>("roofline");
        // Which views depend on which input follows from the formulas: parameters on layers and
        // width; activations on layers, width, batch, sequence; time on N and D (and s through
        // attention FLOPs); per-op intensity on width, batch and sequence, not on depth or D.
        QTest::newRow("layers") << int(Main::Layers) << true << true << true << false;
        QTest::newRow("d_model") << int(Main::DModel) << true << true << true << true;
        QTest::newRow("tokens") << int(Main::Tokens) << false << false << true << false;
        QTest::newRow("micro-batch") << int(Main::MicroBatch) << false << true << false << true;
        // gpt2's parameter count uses max_positions, not the sequence length.
        QTest::newRow("seq_len") << int(Main::SeqLen) << false << true << true << true;
    }

    void sliderChangesTheRightSeries()
    {
        QFETCH(int, slider);
        QFETCH(bool, params);
        QFETCH(bool, activations);
        QFETCH(bool, time);
        QFETCH(bool, roofline);
        const auto which = static_cast<Main>(slider);

        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        const int h100 = uitest::gpuIndex(env().catalog(), QStringLiteral("h100-sxm"));
        QVERIFY(h100 >= 0);
        const Readout before = read(w, h100);
        QVERIFY(nearlyEqualReadout(before, expected(env().report(Scenario{}))));

        QSlider *s = w.controls()->slider(which)->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_Left);

        const Scenario want = afterOneStepLeft(which);
        QCOMPARE(w.controller()->scenario(), want);
        QVERIFY(!w.controller()->error());
        const Readout after = read(w, h100);
        const Readout core = expected(env().report(want));
        QVERIFY2(nearlyEqualReadout(after, core), "series differ from the core's report");

        QCOMPARE(!uitest::nearlyEqual(after.params, before.params), params);
        QCOMPARE(!uitest::nearlyEqual(after.activations, before.activations), activations);
        QCOMPARE(!uitest::nearlyEqual(after.seconds, before.seconds), time);
        QCOMPARE(after.matmuls != before.matmuls, roofline);
    }

    void spinBoxFollowsSlider()
    {
        MainWindow w(env().catalog(), Scenario{});
        LinkedSlider *layers = w.controls()->slider(Main::Layers);
        layers->slider()->setValue(layers->positionFor(30));
        QCOMPARE(layers->spinBox()->value(), 30.0);
        QCOMPARE(w.controller()->scenario().model.layers, 30);
        // And the other way: a typed value moves the slider.
        layers->spinBox()->setValue(40);
        QCOMPARE(layers->slider()->value(), layers->positionFor(40));
        QCOMPARE(w.controller()->scenario().model.layers, 40);
    }

    // Dragging the width under TP 2 once landed on 2368 = 37 x 64: 37 heads of 64, which TP 2
    // cannot split, so the charts froze under a refusal while the controls moved on. Every
    // position of the width slider must now be a scenario the layout accepts.
    void widthSliderStaysInsideTheLayout_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("tp");
        QTest::addColumn<bool>("keepHeadDim");
        QTest::newRow("GPT-2 small, TP 2") << QStringLiteral("gpt2-small") << QStringLiteral("2") << true;
        QTest::newRow("GPT-2 small, TP 2, heads held") << QStringLiteral("gpt2-small") << QStringLiteral("2") << false;
        QTest::newRow("GPT-2 medium, TP 8") << QStringLiteral("gpt2-medium") << QStringLiteral("8") << true;
        // Grouped-query attention: the 8 kv heads must stay a multiple of TP as well.
        QTest::newRow("Llama 3 8B, TP 8") << QStringLiteral("llama3-8b") << QStringLiteral("8") << true;
        QTest::newRow("Llama 3 8B, TP 4, heads held") << QStringLiteral("llama3-8b") << QStringLiteral("4") << false;
    }

    void widthSliderStaysInsideTheLayout()
    {
        QFETCH(QString, preset);
        QFETCH(QString, tp);
        QFETCH(bool, keepHeadDim);
        MainWindow w(env().catalog(), withPreset(env().catalog(), preset));
        QVERIFY(uitest::showAndWait(w));
        choose(w.controls(), Choice::Tp, tp);
        QCOMPARE(w.controller()->scenario().tp, tp.toLongLong());
        QCheckBox *keep = nullptr;
        for (QCheckBox *box : w.controls()->moreOptions()->findChildren<QCheckBox *>())
            if (box->accessibleName() == QLatin1String("Heads follow width"))
                keep = box;
        QVERIFY(keep);
        keep->setChecked(keepHeadDim);

        LinkedSlider *width = w.controls()->slider(Main::DModel);
        QSlider *slider = width->slider();
        QVERIFY(slider->maximum() > 4);
        // A drag from where it is down to the bottom and up to the top: every position once.
        slider->setSliderDown(true);
        QList<int> positions;
        for (int p = slider->value() - 1; p >= 0; --p)
            positions << p;
        for (int p = 1; p <= slider->maximum(); ++p)
            positions << p;
        QList<std::int64_t> widths;
        for (int p : positions) {
            slider->setValue(p);
            checkShown(w, p);
            if (QTest::currentTestFailed())
                return;
            widths << w.controller()->scenario().model.dModel;
        }
        slider->setSliderDown(false);
        checkShown(w, slider->value());
        // The sweep reached both ends and never offered 2368 at TP 2 with d_head 64 kept.
        QVERIFY(widths.contains(static_cast<std::int64_t>(width->valueAt(0))));
        QVERIFY(widths.contains(static_cast<std::int64_t>(width->valueAt(slider->maximum()))));
        if (preset == QLatin1String("gpt2-small") && keepHeadDim)
            QVERIFY(!widths.contains(2368));
    }

    // Pipeline stages need a layer each (and each of the vpp chunks on them), sequences split
    // into 2 x cp chunks, and micro-batches make up the global batch: the layers, sequence and
    // micro-batch sliders offer only what does.
    void otherSlidersStayInsideTheLayout_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<qint64>("pp");
        QTest::addColumn<qint64>("vpp");
        QTest::addColumn<qint64>("cp");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<double>("bottom");
        QTest::addColumn<double>("top");
        QTest::newRow("layers, PP 4 x VPP 2: at least 8") << int(Main::Layers) << qint64(4) << qint64(2) << qint64(1)
                                                         << qint64(64) << 8.0 << 128.0;
        QTest::newRow("sequence, CP 16: from 32") << int(Main::SeqLen) << qint64(1) << qint64(1) << qint64(16)
                                                  << qint64(0) << 32.0 << 131072.0;
        // 16 GPUs at PP 2 leave DP 8: 64 sequences per step are micro-batches of at most 8.
        QTest::newRow("micro-batch, global batch 64 on DP 8: at most 8") << int(Main::MicroBatch) << qint64(2) << qint64(1)
                                                                        << qint64(1) << qint64(64) << 1.0 << 8.0;
    }

    void otherSlidersStayInsideTheLayout()
    {
        QFETCH(int, which);
        QFETCH(qint64, pp);
        QFETCH(qint64, vpp);
        QFETCH(qint64, cp);
        QFETCH(qint64, globalBatch);
        QFETCH(double, bottom);
        QFETCH(double, top);
        Scenario start = withPreset(env().catalog(), QStringLiteral("llama3-8b"));
        start.pp = pp;
        start.vpp = vpp;
        start.cp = cp;
        start.seqLen = 4096;
        start.microBatch = 1;
        if (globalBatch)
            start.globalBatch = globalBatch;
        QVERIFY(!validateScenario(start));
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        LinkedSlider *linked = w.controls()->slider(static_cast<Main>(which));
        QSlider *slider = linked->slider();
        QCOMPARE(linked->valueAt(0), bottom);
        slider->setSliderDown(true);
        for (int p = slider->minimum(); p <= slider->maximum(); ++p) {
            slider->setValue(p);
            checkShown(w, p);
            if (QTest::currentTestFailed())
                return;
        }
        slider->setSliderDown(false);
        QCOMPARE(linked->value(), top);
    }

    // The heads' arrows under TP 2 step through the head counts that divide the width and that
    // TP 2 splits (768: 2, 4, 6, 8, 12, 16, ...), never to an odd one.
    void headsArrowsStayInsideTheLayout()
    {
        MainWindow w(env().catalog(), withPreset(env().catalog(), QStringLiteral("gpt2-small")));
        QVERIFY(uitest::showAndWait(w));
        choose(w.controls(), Choice::Tp, QStringLiteral("2"));
        DivisorSpinBox *heads = w.controls()->moreOptions()->headsBox();
        QList<int> seen;
        for (int direction : {-1, 1}) {
            for (int i = 0; i < 40; ++i) {
                heads->stepBy(direction);
                if (const auto &refusal = w.controller()->error())
                    QFAIL(qPrintable(refusal->message()));
                QCOMPARE(w.controller()->scenario().model.heads, heads->value());
                if (!seen.contains(heads->value()))
                    seen << heads->value();
            }
        }
        for (int h : seen)
            QVERIFY2(h % 2 == 0 && 768 % h == 0, qPrintable(QString::number(h)));
        QVERIFY(seen.contains(2) && seen.contains(6) && seen.contains(768));
    }

private:
    /// No refusal, the main controls and the heads show the scenario, and the charts show the
    /// core's report of it (their series read back).
    void checkShown(const MainWindow &w, int position)
    {
        const Scenario &s = w.controller()->scenario();
        const QString where = QStringLiteral("position %1, d_model %2, heads %3, kv heads %4, layers %5, sequence %6, "
                                             "micro-batch %7")
                                  .arg(position).arg(s.model.dModel).arg(s.model.heads).arg(s.model.kvHeads)
                                  .arg(s.model.layers).arg(s.seqLen).arg(s.microBatch);
        const auto check = [&] {
            if (const auto &refusal = w.controller()->error())
                QFAIL(qPrintable(where + QStringLiteral(": ") + refusal->message()));
            const ControlsPanel *c = w.controls();
            QCOMPARE(c->slider(Main::DModel)->value(), static_cast<double>(s.model.dModel));
            QCOMPARE(c->slider(Main::Layers)->value(), static_cast<double>(s.model.layers));
            QCOMPARE(c->slider(Main::SeqLen)->value(), static_cast<double>(s.seqLen));
            QCOMPARE(c->slider(Main::MicroBatch)->value(), static_cast<double>(s.microBatch));
            QCOMPARE(c->moreOptions()->headsBox()->value(), s.model.heads);
            QVERIFY(w.controller()->report());
            QCOMPARE(w.controller()->report()->scenario, s);
            const int gpu = uitest::gpuIndex(env().catalog(), s.gpuId);
            QVERIFY2(nearlyEqualReadout(read(w, gpu), expected(env().report(s))), qPrintable(where));
        };
        check();
        if (QTest::currentTestFailed())
            qWarning("%s", qPrintable(where));
    }

    static bool nearlyEqualReadout(const Readout &a, const Readout &b)
    {
        if (a.matmuls.size() != b.matmuls.size())
            return false;
        for (int i = 0; i < a.matmuls.size(); ++i)
            if (!uitest::nearlyEqual(a.matmuls[i].x(), b.matmuls[i].x())
                || !uitest::nearlyEqual(a.matmuls[i].y(), b.matmuls[i].y()))
                return false;
        return uitest::nearlyEqual(a.params, b.params) && uitest::nearlyEqual(a.activations, b.activations)
               && uitest::nearlyEqual(a.seconds, b.seconds, 1e-6);
    }
};

QTEST_MAIN(TestSliders)
#include "tst_ui_sliders.moc"
