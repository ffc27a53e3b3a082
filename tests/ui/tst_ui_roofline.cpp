// The roofline chart: roof and ridge from the GPU's datasheet figures, every op of the core's
// op table drawn where the core puts it, hover text matching that table, wheel zoom, drag pan,
// reset, and the overlay of a second GPU.

#include "ui/widgets/chartstyle.h"
#include "ui/widgets/logrange.h"
#include "ui/widgets/chartview.h"
#include "ui/views/dashboard.h"
#include "core/text/explain.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"

#include <QChart>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSet>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace napkin;
using namespace napkin::ui;

class TestRoofline final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void roofAndRidge_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("bandwidth");
        // Dense bf16 (fp16 on V100) tensor peak and HBM bandwidth from the vendor datasheets.
        QTest::newRow("H100 SXM5: 989.5 TFLOPS bf16, 3.35 TB/s (NVIDIA H100 datasheet)")
            << QStringLiteral("h100-sxm") << 989.5e12 << 3.35e12;
        QTest::newRow("A100 80GB SXM: 312 TFLOPS bf16, 2.039 TB/s (NVIDIA A100 datasheet)")
            << QStringLiteral("a100-80gb-sxm") << 312e12 << 2.039e12;
        QTest::newRow("V100 SXM2: 125 TFLOPS fp16 tensor, 900 GB/s (NVIDIA V100 datasheet)")
            << QStringLiteral("v100-sxm2-32gb") << 125e12 << 900e9;
    }

    void roofAndRidge()
    {
        QFETCH(QString, gpu);
        QFETCH(double, peak);
        QFETCH(double, bandwidth);
        Scenario s;
        s.gpuId = gpu;
        MainWindow w(env().catalog(), s);
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        constexpr double unit = RooflinePanel::kFlopsPerAxisUnit;
        QCOMPARE(roof->ridge()->count(), 1);
        QVERIFY(uitest::nearlyEqual(roof->ridge()->at(0).x(), peak / bandwidth));
        QVERIFY(uitest::nearlyEqual(roof->ridge()->at(0).y() * unit, peak));
        const QList<QPointF> line = roof->roof()->points();
        QCOMPARE(line.size(), 3);
        QVERIFY(uitest::nearlyEqual(line[0].y() * unit / line[0].x(), bandwidth));  // the slope is the bandwidth
        QVERIFY(uitest::nearlyEqual(line[2].y() * unit, peak));                       // the flat roof is the peak
    }

    void fp8DrawsASecondRoofForTheGemms()
    {
        // H100 SXM datasheet (dense): 989.5 TFLOP/s bf16, 1979 TFLOP/s fp8. Under FP8 the GEMMs'
        // roof is drawn dashed in the matmuls' colour and named in the legend; bf16 has one roof.
        Scenario s;
        s.gpuId = QStringLiteral("h100-sxm");
        MainWindow w(env().catalog(), s);
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        constexpr double unit = RooflinePanel::kFlopsPerAxisUnit;
        QVERIFY(!roof->gemmRoof()->isVisible());
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        w.controller()->setScenario(s);
        QVERIFY(roof->gemmRoof()->isVisible());
        const QList<QPointF> gemm = roof->gemmRoof()->points();
        QCOMPARE(gemm.size(), 3);
        QVERIFY(uitest::nearlyEqual(gemm[2].y() * unit, 1979e12));
        QVERIFY(uitest::nearlyEqual(roof->roof()->points()[2].y() * unit, 989.5e12));
        QVERIFY2(roof->legendText().contains(QStringLiteral("GEMM roof (fp8)")), qPrintable(roof->legendText()));
        // Every GEMM marker sits on or under the fp8 roof, every other op under the bf16 one.
        for (const RooflineOp &op : w.controller()->report()->roofline.ops)
            QVERIFY(op.attainableFlopsPerS <= (op.kind == OpKind::Matmul ? 1979e12 : 989.5e12));
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        w.controller()->setScenario(s);
        QVERIFY(!roof->gemmRoof()->isVisible());
        QVERIFY(!roof->legendText().contains(QStringLiteral("GEMM roof")));
    }

    void everyOpIsWhereTheCorePutsIt()
    {
        MainWindow w(env().catalog(), Scenario{});
        const Report r = env().report(Scenario{});
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        for (int k = 0; k < RooflinePanel::kOpKinds; ++k) {
            QList<QPointF> want;
            for (const RooflineOp &op : r.roofline.ops)
                if (static_cast<int>(op.kind) == k)
                    want.append({op.intensity, op.attainableFlopsPerS / RooflinePanel::kFlopsPerAxisUnit});
            QCOMPARE(roof->opSeries(static_cast<OpKind>(k))->points(), want);
        }
    }

    // MoE's token permute moves data without a FLOP: intensity 0 has no place on log axes.
    // It is left off the plot (Qt Charts warned "Logarithms of zero and negative values are
    // undefined" for every such point) and named in the legend instead.
    void dataMovementOpsStayOffTheLogAxes_data()
    {
        QTest::addColumn<Mode>("mode");
        QTest::newRow("training") << Mode::Training;
        QTest::newRow("inference") << Mode::Inference;
    }

    void dataMovementOpsStayOffTheLogAxes()
    {
        QFETCH(Mode, mode);
        Scenario s = env().presetScenario(QStringLiteral("mixtral-8x7b"));
        s.gpus = 8;
        s.tp = 2;  // the weights over two GPUs leave room for a KV cache
        s.mode = mode;
        const Report r = env().report(s);
        int moving = 0;
        for (const RooflineOp &op : r.roofline.ops)
            moving += op.flops <= 0 ? 1 : 0;
        QVERIFY2(moving > 0, "the MoE workload has its token permute");

        static QStringList warnings;
        warnings.clear();
        const QtMessageHandler previous = qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &m) {
            warnings.append(m);
        });
        MainWindow w(env().catalog(), s);
        w.resize(1280, 720);
        const bool shown = uitest::showAndWait(w);
        qInstallMessageHandler(previous);
        QVERIFY(shown);
        for (const QString &m : std::as_const(warnings))
            QVERIFY2(!m.contains(QStringLiteral("Logarithm")), qPrintable(m));

        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        int plotted = 0;
        QList<QScatterSeries *> series;
        if (mode == Mode::Inference)
            series = {roof->phaseSeries(Phase::Prefill), roof->phaseSeries(Phase::Decode)};
        else
            for (int k = 0; k < RooflinePanel::kOpKinds; ++k)
                series.append(roof->opSeries(static_cast<OpKind>(k)));
        for (const QScatterSeries *one : series)
            for (const QPointF &p : one->points()) {
                QVERIFY2(p.x() > 0 && p.y() > 0, qPrintable(QStringLiteral("(%1, %2)").arg(p.x()).arg(p.y())));
                ++plotted;
            }
        QCOMPARE(plotted, r.roofline.ops.size() - moving);
        // Named last, each op an entry of its own (a long list wraps between names rather than
        // being cut), after the kinds' shares.
        const QString legend = roof->legendText();
        QVERIFY2(legend.endsWith(QStringLiteral("0 FLOPs (data movement only):  token permute (dispatch)")), qPrintable(legend));
    }

    // A Mixture-of-Experts run has several data-movement ops: each its own legend entry, so the
    // legend wraps between them; none is elided at a narrow width (GPT-OSS had read "…,
    // expert chunk…" at 1366 px).
    void dataMovementOpsWrapInTheLegend()
    {
        MainWindow w(env().catalog(), env().gptOssAtBridge(1));
        w.resize(1366, 768);
        QVERIFY(uitest::showAndWait(w));
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        const QString legend = roof->legendText();
        const qsizetype list = legend.indexOf(QStringLiteral("⊘"));
        QVERIFY2(list > 0, qPrintable(legend));
        QVERIFY2(legend.indexOf(QStringLiteral("% of the step")) < list, qPrintable(legend));
        QVERIFY2(legend.mid(list).count(QStringLiteral(",  ")) >= 1, qPrintable(legend));  // two or more ops, one entry each
        uitest::showTabOf(w, roof);
        QTRY_VERIFY(roof->legend()->isVisible());
        QTRY_VERIFY2(roof->legend()->width() > 100 && !roof->legend()->elidesAnEntry(), qPrintable(legend));
    }

    void hoverMatchesCoreOpTable()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        RooflinePanel *roof = w.dashboard()->rooflinePanel();
        const Report r = env().report(Scenario{});
        QCOMPARE(r.roofline.ops.size(), w.controller()->report()->roofline.ops.size());
        for (int i = 0; i < r.roofline.ops.size(); ++i) {
            const RooflineOp &want = r.roofline.ops[i];
            const auto hit = roof->opAt(roof->opPosition(i));
            QVERIFY2(hit, qPrintable(opLabel(want)));
            // Ops can share a point (the two LayerNorms of a block); the hit is then one of them.
            const RooflineOp &got = r.roofline.ops[*hit];
            QCOMPARE(got.intensity, want.intensity);
            QCOMPARE(got.attainableFlopsPerS, want.attainableFlopsPerS);
            const QString text = opTooltip(got, r.roofline);
            QVERIFY(text.contains(got.name));
            QVERIFY(text.contains(fmt::sci(got.flops)));
            QVERIFY(text.contains(fmt::sci(got.bytes)));
            QVERIFY(text.contains(fmt::number(got.intensity)));
            QVERIFY(text.contains(fmt::flopRate(got.attainableFlopsPerS)));
            QVERIFY(text.contains(got.computeBound ? QStringLiteral("compute-bound") : QStringLiteral("memory-bound")));
        }

        // A real mouse move over the QKV projection (backward) shows exactly that text.
        int qkv = -1;
        for (int i = 0; i < r.roofline.ops.size(); ++i)
            if (r.roofline.ops[i].name == QLatin1String("QKV projection") && r.roofline.ops[i].phase == Phase::Backward)
                qkv = i;
        QVERIFY(qkv >= 0);
        ChartView *view = roof->view();
        const QPoint at = view->mapFromScene(roof->chart()->mapToScene(roof->opPosition(qkv)));
        QTest::mouseMove(view->viewport(), at);
        QTRY_VERIFY(!roof->hoverText().isEmpty());
        const QList<int> under = roof->opsAt(roof->opPosition(qkv));
        QCOMPARE(roof->hoverText(), opsTooltip(under, r.roofline));
        // GPT-2's QKV projection shares its point with other matmuls of the same shape class:
        // every one of them is listed, each with its share of the step time.
        QVERIFY(under.size() >= 2);
        QVERIFY(under.contains(qkv));
        for (int i : under) {
            const RooflineOp &op = r.roofline.ops[i];
            QVERIFY2(roof->hoverText().contains(QStringLiteral("%1 — %2, %3 of the step")
                                                    .arg(opLabel(op), opKindName(op.kind), fmt::percent(opStepShare(op, r.roofline)))),
                     qPrintable(opLabel(op)));
        }
    }

    void stepTimeAndSharesAreShown()
    {
        MainWindow w(env().catalog(), Scenario{});
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        const Report r = env().report(Scenario{});
        // The shares are parts of the bottom-up step time: they add up to all of it.
        double sum = 0;
        for (double share : kindStepShares(r.roofline))
            sum += share;
        QVERIFY(std::abs(sum - 1) < 1e-12);
        const QString legend = roof->legendText();
        QVERIFY2(legend.contains(stepSummary(r.roofline).toHtmlEscaped()), qPrintable(legend));
        QVERIFY(legend.contains(QStringLiteral("implied MFU %1").arg(fmt::percent(r.roofline.impliedMfu))));
        const QList<double> shares = kindStepShares(r.roofline);
        for (int k = 0; k < shares.size(); ++k) {
            const QString entry = QStringLiteral("%1 %2").arg(opKindTitle(static_cast<OpKind>(k)), fmt::percent(shares[k], 0));
            QVERIFY2(legend.contains(entry.toHtmlEscaped()), qPrintable(entry));
        }
        // The first says what the shares are of: the time panel beside it gives attention's share
        // of the FLOPs, another figure.
        QVERIFY2(legend.contains(QStringLiteral("%1 %2 of the step").arg(opKindTitle(OpKind::Matmul), fmt::percent(shares[0], 0))),
                 qPrintable(legend));
    }

    void compareOverlaysPointsAndRidge()
    {
        MainWindow w(env().catalog(), Scenario{});
        RooflinePanel *roof = w.dashboard()->rooflinePanel();
        QVERIFY(!roof->overlayOps()->isVisible());
        // A100 80GB: 312 TFLOP/s bf16 dense, 2.039 TB/s (NVIDIA A100 datasheet): ridge 153 FLOPs/B.
        roof->setOverlayGpu(QStringLiteral("a100-80gb-sxm"));
        QVERIFY(roof->overlayOps()->isVisible());
        QVERIFY(roof->overlayRidge()->isVisible());
        const Report r = env().report(Scenario{});
        QCOMPARE(roof->overlayOps()->count(), r.roofline.ops.size());
        const QPointF ridge = roof->overlayRidge()->at(0);
        QVERIFY2(std::abs(ridge.x() - 312e12 / 2.039e12) < 0.5, qPrintable(QString::number(ridge.x())));
        QCOMPARE(ridge.y(), 312.0);
        // Same intensities (the step is the same), attainable under the A100's roofs.
        for (int i = 0; i < r.roofline.ops.size(); ++i) {
            const QPointF p = roof->overlayOps()->at(i);
            QCOMPARE(p.x(), r.roofline.ops[i].intensity);
            QVERIFY(p.y() <= 312.0 + 1e-9);
        }
        QVERIFY(roof->legendText().contains(QStringLiteral("A100 80G roofline bound: step ")));
        roof->setOverlayGpu(QString());
        QVERIFY(!roof->overlayOps()->isVisible());
    }

    void coincidentOpsStayVisible_data()
    {
        QTest::addColumn<QString>("preset");
        // GPT-2: LayerNorm and GELU share a point, as do softmax and the loss; Llama: RMSNorm
        // and SwiGLU's backward, softmax and the loss.
        QTest::newRow("gpt2-small") << QStringLiteral("gpt2-small");
        QTest::newRow("llama2-7b") << QStringLiteral("llama2-7b");
    }

    // Every kind has a shape of its own, and where ops of two kinds fall on one point both
    // colours are on screen there.
    void coincidentOpsStayVisible()
    {
        QFETCH(QString, preset);
        Scenario s;
        s.presetId = preset;
        s.model = env().catalog().findPreset(preset)->shape;
        s.seqLen = std::min<std::int64_t>(s.seqLen, s.model.maxPositions);
        MainWindow w(env().catalog(), s);
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        RooflinePanel *roof = w.dashboard()->rooflinePanel();
        QSet<int> shapes;
        for (int k = 0; k < RooflinePanel::kOpKinds; ++k)
            shapes.insert(roof->opSeries(static_cast<OpKind>(k))->markerShape());
        QCOMPARE(shapes.size(), RooflinePanel::kOpKinds);

        const QImage image = roof->view()->grab().toImage();
        const auto near = [](QRgb a, const QColor &b) {
            return std::abs(qRed(a) - b.red()) + std::abs(qGreen(a) - b.green()) + std::abs(qBlue(a) - b.blue()) < 60;
        };
        const auto shows = [&](const QPoint &at, const QColor &c) {
            for (int dy = -9; dy <= 9; ++dy)
                for (int dx = -9; dx <= 9; ++dx)
                    if (image.rect().contains(at + QPoint(dx, dy)) && near(image.pixel(at + QPoint(dx, dy)), c))
                        return true;
            return false;
        };
        const Report r = env().report(s);
        const auto pixel = [&](int op) {
            return roof->view()->mapFromScene(roof->chart()->mapToScene(roof->opPosition(op)));
        };
        int pairs = 0;
        for (int i = 0; i < r.roofline.ops.size(); ++i)
            for (int j = 0; j < r.roofline.ops.size(); ++j) {
                const RooflineOp &a = r.roofline.ops[i];
                const RooflineOp &b = r.roofline.ops[j];
                if (a.kind >= b.kind || (pixel(i) - pixel(j)).manhattanLength() > 3)
                    continue;
                ++pairs;
                for (const RooflineOp *op : {&a, &b})
                    QVERIFY2(shows(pixel(i), palette::opKind(static_cast<int>(op->kind))),
                             qPrintable(opLabel(*op) + QStringLiteral(" hidden at ") + opLabel(op == &a ? b : a)));
            }
        QVERIFY(pairs >= 2);
    }

    void axisLabelsReadAsTflops()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        QStringList shown;
        for (QGraphicsItem *item : w.dashboard()->rooflinePanel()->view()->scene()->items())
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                shown << text->toPlainText();
        // H100's 989.5 TFLOP/s roof sits between the 100 and 1000 labels, none in e-notation.
        QVERIFY2(shown.contains(QStringLiteral("100")) && shown.contains(QStringLiteral("1000")), qPrintable(shown.join(u'|')));
        QVERIFY2(shown.contains(QStringLiteral("Attainable TFLOP/s")), qPrintable(shown.join(u'|')));
        for (const QString &t : shown)
            QVERIFY2(!t.contains(QStringLiteral("e+")), qPrintable(t));
    }

    // Three decade labels of "1e+08" across 3.3 decades stand 0.3 of the plot apart, closer than
    // the third of it Qt gives each: where they would touch, the axis labels every second decade.
    // One format for every label of a log axis: "%g" writes 1e6 as "1e+06" and 1e5 as
    // "100000", and the serving chart's throughput axis had shown both.
    void logAxisLabelsInOneFormat()
    {
        QLogValueAxis axis;
        keepLogLabelsAlike(&axis);
        axis.setRange(50, 3e6);  // labels 100 ... 1e6
        const QByteArray wide = axis.labelFormat().toLatin1();
        QCOMPARE(QString::asprintf(wide.constData(), 1e5), QStringLiteral("1e+05"));
        QCOMPARE(QString::asprintf(wide.constData(), 1e6), QStringLiteral("1e+06"));
        axis.setRange(0.01, 20000);  // the roofline's: 0.01 ... 10000, all plain
        const QByteArray plain = axis.labelFormat().toLatin1();
        QCOMPARE(QString::asprintf(plain.constData(), 0.01), QStringLiteral("0.01"));
        QCOMPARE(QString::asprintf(plain.constData(), 1e4), QStringLiteral("10000"));
    }

    // Zoomed far out, the roofline's vertical axis labels every n-th decade rather than elide
    // every label to "…" (Qt Charts gives a vertical label the height between two ticks).
    void zoomedOutAxisKeepsItsLabels()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1366, 768);
        QVERIFY(uitest::showAndWait(w));
        RooflinePanel *roofline = w.dashboard()->rooflinePanel();
        QTRY_VERIFY(roofline->isVisible());
        roofline->setRanges(LogRange{1e-12, 1e18}, LogRange{1e-15, 1e20});
        QTRY_VERIFY(roofline->chart()->plotArea().height() > 0);
        for (QAbstractAxis *a : roofline->chart()->axes(Qt::Vertical)) {
            auto *axis = qobject_cast<QLogValueAxis *>(a);
            QVERIFY(axis);
            const double decades = std::log10(axis->max()) - std::log10(axis->min());
            const double spacing = roofline->chart()->plotArea().height() * std::log10(axis->base()) / decades;
            QVERIFY2(QFontMetricsF(axis->labelsFont()).height() <= spacing,
                     qPrintable(QStringLiteral("base %1: %2 px between ticks").arg(axis->base()).arg(spacing)));
        }
    }

    void logAxisLabelsNeverTouch()
    {
        QLogValueAxis axis;
        axis.setLabelFormat(QStringLiteral("%g"));
        axis.setRange(2e7, 4e10);  // labels at 1e8, 1e9 and 1e10
        const qreal label = QFontMetricsF(axis.labelsFont()).horizontalAdvance(QStringLiteral("1e+08"));
        const qreal decade = 1 / (std::log10(4e10) - std::log10(2e7));  // of the plot's width
        const qreal padding = 10;
        // Wide enough for a label between two ticks (and in a third of the plot): every decade.
        QCOMPARE(logAxisBaseFor(&axis, (label + padding + 1) / decade), 10);
        // Wide enough for a third of the plot each, but the ticks stand closer: every second.
        const qreal between = (label + padding) * 3 + 1;
        QVERIFY(between * decade < label + padding);
        QCOMPARE(logAxisBaseFor(&axis, between), 100);
    }

    void pointsSlideWithBatch()
    {
        Scenario s;
        MainWindow w(env().catalog(), s);
        const RooflinePanel *roof = w.dashboard()->rooflinePanel();
        const QList<QPointF> before = roof->opSeries(OpKind::Matmul)->points();
        s.microBatch = 1;
        w.controller()->setScenario(s);
        const QList<QPointF> after = roof->opSeries(OpKind::Matmul)->points();
        QCOMPARE(after.size(), before.size());
        // A smaller batch reuses each weight over fewer tokens: every matmul's intensity drops.
        for (int i = 0; i < after.size(); ++i)
            QVERIFY(after[i].x() < before[i].x());
    }

    void wheelZoomDragPanReset()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1600, 1000);
        QVERIFY(uitest::showAndWait(w));
        RooflinePanel *roof = w.dashboard()->rooflinePanel();
        ChartView *view = roof->view();
        const double x0 = roof->xAxis()->min();
        const double x1 = roof->xAxis()->max();
        const double y1 = roof->yAxis()->max();
        const QPointF centre = view->mapFromScene(roof->chart()->mapToScene(roof->chart()->plotArea().center()));

        QWheelEvent wheel(centre, view->viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY2(std::log10(roof->xAxis()->max() / roof->xAxis()->min()) < std::log10(x1 / x0),
                 "wheel up must zoom in");
        QVERIFY(roof->xRange().has_value());

        const double zoomedMin = roof->xAxis()->min();
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, centre.toPoint());
        QMouseEvent move(QEvent::MouseMove, centre + QPointF(80, 0), view->viewport()->mapToGlobal(centre + QPointF(80, 0)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, (centre + QPointF(80, 0)).toPoint());
        QVERIFY2(roof->xAxis()->min() < zoomedMin, "dragging right must show smaller intensities");

        // A zoomed or panned view stays put while the scenario changes.
        const auto userRange = roof->xRange();
        Scenario s = w.controller()->scenario();
        s.microBatch = 64;
        w.controller()->setScenario(s);
        QCOMPARE(roof->xRange(), userRange);
        QCOMPARE(roof->xAxis()->min(), userRange->lo);
        s.microBatch = 8;
        w.controller()->setScenario(s);

        roof->resetView();
        QCOMPARE(roof->xAxis()->min(), x0);
        QCOMPARE(roof->xAxis()->max(), x1);
        QCOMPARE(roof->yAxis()->max(), y1);
        QVERIFY(!roof->xRange().has_value());
    }

    void overlayOfASecondGpu()
    {
        MainWindow w(env().catalog(), Scenario{});
        RooflinePanel *roof = w.dashboard()->rooflinePanel();
        QVERIFY(!roof->overlayRoof()->isVisible());
        roof->setOverlayGpu(QStringLiteral("a100-80gb-sxm"));
        QVERIFY(roof->overlayRoof()->isVisible());
        // A100 SXM: 312 TFLOPS dense bf16 (NVIDIA A100 datasheet).
        QVERIFY(uitest::nearlyEqual(roof->overlayRoof()->points().last().y() * RooflinePanel::kFlopsPerAxisUnit, 312e12));
        QCOMPARE(w.dashboard()->viewOptions().overlayGpuId, QStringLiteral("a100-80gb-sxm"));
        roof->setOverlayGpu(QString());
        QVERIFY(!roof->overlayRoof()->isVisible());
    }
};

QTEST_MAIN(TestRoofline)
#include "tst_ui_roofline.moc"
