// Moving each of the five main sliders changes the chart series it should, by the amount
// the core computes, and leaves the others alone.

#include "ui/controls/controlspanel.h"
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
#include <QScatterSeries>
#include <QSlider>
#include <QTest>

using namespace napkin;
using namespace napkin::ui;
using Main = ControlsPanel::Main;

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
            time->barSet()->at(chosenGpu) * time->secondsPerUnit(),
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

private:
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
