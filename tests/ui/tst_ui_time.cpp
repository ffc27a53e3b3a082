// The time panel under the utilisation basis: with HFU (the default) choosing full recompute
// in the window makes the wall clock slower by the hardware/model FLOPs ratio, read back from
// the panel's own text; with MFU it does not move. Both utilisations are shown, the set one first.

#include "ui/widgets/barlabels.h"
#include "ui/controls/controlspanel.h"
#include "ui/views/gputimechart.h"
#include "ui/views/dashboard.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/controls/moreoptions.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/timepanel.h"
#include "core/text/units.h"

#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <optional>

using namespace napkin;
using namespace napkin::ui;

namespace {

/// A duration as the panel writes it (fmt::duration: "20.93 h"), in seconds, with half a unit
/// of its last printed digit as the reading's uncertainty.
struct Reading {
    double seconds = 0;
    double halfUnit = 0;
};

std::optional<Reading> readDuration(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^([0-9,]+)(?:\\.([0-9]+))? (s|min|h|days|years)$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double unit = m.captured(3) == QLatin1String("s") ? 1
                        : m.captured(3) == QLatin1String("min") ? 60
                        : m.captured(3) == QLatin1String("h") ? 3600
                        : m.captured(3) == QLatin1String("days") ? 86400 : 365.0 * 86400;
    const QString digits = m.captured(1).remove(QLatin1Char(',')) + QLatin1Char('.') + m.captured(2);
    return Reading{digits.toDouble() * unit, 0.5 * std::pow(10.0, -m.captured(2).size()) * unit};
}

/// Picks an entry of one of the option combos as a user does, with the keyboard.
void choose(QComboBox *combo, int data)
{
    const int target = combo->findData(data);
    QVERIFY(target >= 0);
    combo->setFocus();
    while (combo->currentIndex() != target)
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
}

} // namespace

class TestTime final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    // Where the column beside the figures would be too narrow to read (text x2 in a 1024x768
    // window, the time panel on a tab of its own), every note goes under its figure, across the
    // panel, instead of vanishing; on a wide window it stands beside it.
    void notesGoUnderTheirFiguresWhenNarrow()
    {
        MainWindow w(env().catalog(), env().presetScenario(QStringLiteral("llama3-70b")));
        w.resize(1024, 768);
        QVERIFY(uitest::showAndWait(w));
        w.setFontScale(2.0);
        Dashboard *dashboard = w.dashboard();
        QTRY_VERIFY(dashboard->currentArrangement() == Dashboard::Arrangement::Tabs);
        TimePanel *panel = dashboard->timePanel();
        dashboard->tabs()->setCurrentWidget(panel);
        QTRY_VERIFY(panel->isVisible());
        const auto top = [panel](const QWidget *w) { return w->mapTo(panel, QPoint(0, 0)).y(); };
        const TextStrip *value = panel->figure(TimePanel::Figure::Flops6nd);
        const TextStrip *note = panel->note(TimePanel::Figure::Flops6nd);
        QTRY_VERIFY(note->isVisible() && top(note) > top(value));
        QVERIFY2(note->width() > panel->width() / 2, qPrintable(QString::number(note->width())));
        QVERIFY2(note->showsWholeText(), qPrintable(note->text()));
        w.setFontScale(1.0);
        w.resize(1600, 1000);
        QTRY_COMPARE(w.size(), QSize(1600, 1000));
        QTRY_VERIFY(note->isVisible() && top(note) == top(value));
    }

    // A layout that does not fit has no time or cost of its own: the panel's title says its
    // figures are what the run would take if it fit (Llama 3 70B on 8 H100s holds 1.4 TB each).
    void timeOfARunThatDoesNotFitIsQualified()
    {
        TimePanel panel(env().catalog());
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.gpus = 8;
        panel.setReport(env().report(s));
        const auto titled = [&panel](const QString &title) {
            for (const TextStrip *strip : panel.findChildren<TextStrip *>())
                if (strip->text() == title)
                    return true;
            return false;
        };
        QVERIFY(titled(QStringLiteral("Training time and cost, if it fit in memory")));
        s.gpus = 64;
        s.tp = 8;
        s.pp = 8;
        s.zeroStage = 1;
        QVERIFY(env().report(s).memory.fits);
        panel.setReport(env().report(s));
        QVERIFY(titled(QStringLiteral("Training time and cost")));
    }

    // A set utilisation far from what the estimated step gives is said beside the wall clock:
    // the smallest sliders' model cannot reach 40% HFU, and its 19 ms had stood alone.
    void wallClockSaysWhenTheEstimateIsFarFromIt()
    {
        TimePanel panel(env().catalog());
        Scenario s;  // the sliders' smallest GPT-2 on one GPU
        s.gpus = 1;
        s.globalBatch.reset();
        s.model.layers = 1;
        s.model.dModel = 64;
        s.model.heads = s.model.kvHeads = 1;
        s.model.dFf = 256;
        s.seqLen = 8;
        s.microBatch = 1;
        s.tokens = 1e6;
        const Report r = env().report(s);
        QVERIFY(r.time.secondsEstimated > 2 * r.time.secondsUtilization);
        panel.setReport(r);
        const QString note = panel.note(TimePanel::Figure::WallClock)->text();
        QVERIFY2(note.contains(QStringLiteral("the estimated step gives ") + fmt::duration(r.time.secondsEstimated)), qPrintable(note));
        // Near it, nothing more is said.
        panel.setReport(env().report(env().presetScenario(QStringLiteral("llama3-8b"))));
        QVERIFY(!panel.note(TimePanel::Figure::WallClock)->text().contains(QStringLiteral("estimated step gives")));
    }

    void fullRecomputeIsSlowerUnderHfu()
    {
        Scenario start;
        start.utilizationFraction = 0.4;
        QCOMPARE(start.utilizationBasis, UtilizationBasis::Hfu);  // the default
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        TimePanel *panel = w.dashboard()->timePanel();
        MoreOptions *more = w.controls()->moreOptions();
        const auto wallClock = [&] { return readDuration(panel->figure(TimePanel::Figure::WallClock)->text()); };

        const auto none = wallClock();
        QVERIFY2(none, qPrintable(panel->figure(TimePanel::Figure::WallClock)->text()));
        QCOMPARE(panel->figure(TimePanel::Figure::HardwareFlops)->text(),
                 panel->figure(TimePanel::Figure::FlopsDetailed)->text());
        QVERIFY2(panel->note(TimePanel::Figure::WallClock)->text().startsWith(QStringLiteral("HFU 40.0% (set) · MFU 40.0% · 8 × ")),
                 qPrintable(panel->note(TimePanel::Figure::WallClock)->text()));

        choose(more->recomputeBox(), static_cast<int>(Recompute::Full));
        QCOMPARE(w.controller()->scenario().recompute, Recompute::Full);
        Scenario full = start;
        full.recompute = Recompute::Full;
        const TimeReport expected = env().report(full).time;
        // Narayanan et al. 2021, eq. 3: a fourth pass over the blocks, none over the LM head.
        const double ratio = expected.hardwareFlops / expected.trainingFlops;
        const ForwardMatmulFlops &fw = env().report(full).flops.forwardPerSequence;
        QVERIFY2(uitest::nearlyEqual(ratio, 1 + (fw.total() - fw.lmHead) / (3 * fw.total())), qPrintable(QString::number(ratio)));
        QVERIFY(ratio > 1.2);  // gpt2-small: 1.243, enough to show in four digits

        const auto slower = wallClock();
        QVERIFY2(slower, qPrintable(panel->figure(TimePanel::Figure::WallClock)->text()));
        const double shown = slower->seconds / none->seconds;
        const double uncertainty = slower->halfUnit / slower->seconds + none->halfUnit / none->seconds;
        QVERIFY2(std::abs(shown - ratio) <= ratio * uncertainty,
                 qPrintable(QStringLiteral("%1 vs %2").arg(shown).arg(ratio)));
        QCOMPARE(panel->figure(TimePanel::Figure::HardwareFlops)->text(), fmt::sci(expected.hardwareFlops));
        QVERIFY2(panel->note(TimePanel::Figure::HardwareFlops)->text().contains(QStringLiteral("full")),
                 qPrintable(panel->note(TimePanel::Figure::HardwareFlops)->text()));
        const QString note = panel->note(TimePanel::Figure::WallClock)->text();
        QVERIFY2(note.startsWith(QStringLiteral("HFU 40.0% (set) · MFU %1 · ").arg(fmt::percent(0.4 / ratio, 1))),
                 qPrintable(note));

        // Under MFU the recomputed forward is not counted: the time is the no-recompute one.
        choose(more->utilizationBasisBox(), static_cast<int>(UtilizationBasis::Mfu));
        QCOMPARE(w.controller()->scenario().utilizationBasis, UtilizationBasis::Mfu);
        QCOMPARE(wallClock()->seconds, none->seconds);
        QVERIFY2(panel->note(TimePanel::Figure::WallClock)->text().startsWith(
                     QStringLiteral("MFU 40.0% (set) · HFU %1 · ").arg(fmt::percent(0.4 * ratio, 1))),
                 qPrintable(panel->note(TimePanel::Figure::WallClock)->text()));

        // One undo step each: back to HFU, then back to no recompute.
        w.controller()->undoStack()->undo();
        QCOMPARE(more->utilizationBasisBox()->currentData().toInt(), static_cast<int>(UtilizationBasis::Hfu));
        QCOMPARE(wallClock()->seconds, slower->seconds);
    }

    void everyGpuChartMarksWhatDoesNotFit()
    {
        // 7e9 params, ZeRO-0, no activations: 16 B/param (Rajbhandari et al. 2019, Section 3.1) =
        // 112e9 B per GPU. More than T4's 16 GiB and H100's 80 GiB (85.9e9 B), less than H200's
        // 141 GiB (151.4e9 B) (NVIDIA T4, H100, H200 datasheets).
        Scenario s;
        s.paramsOverride = 7'000'000'000;
        s.includeActivations = false;
        MainWindow w(env().catalog(), s);
        QVERIFY(uitest::showAndWait(w));
        GpuTimeChart *chart = w.dashboard()->timePanel()->gpuChart();
        const auto index = [&](const char *id) {
            for (int i = 0; i < env().catalog().gpus.size(); ++i)
                if (env().catalog().gpus[i].id == QLatin1String(id))
                    return i;
            return -1;
        };
        const QStringList marks = chart->marks();
        for (const char *id : {"t4", "h100-sxm"}) {
            const int i = index(id);
            QVERIFY2(marks[i].startsWith(QLatin1String("does not fit (")), qPrintable(marks[i]));
            QCOMPARE(chart->barSet(true)->at(i), 0.0);
            QVERIFY(chart->barSet(false)->at(i) > 0);  // hatched, still showing its time
            // Written on the bar's top, or over the hatching on a backing of its own: never
            // bare letters across the hatch lines.
            const double barTop =
                chart->chart()->mapToPosition(QPointF(i, chart->barSet(false)->at(i)), chart->chart()->series().first()).y();
            const QRectF mark = chart->markRect(i);
            QVERIFY2(mark.bottom() <= barTop + 1 || chart->markBacked(i),
                     qPrintable(QStringLiteral("%1: mark %2..%3 over a bar from %4").arg(QLatin1String(id)).arg(mark.top()).arg(mark.bottom()).arg(barTop)));
        }
        const int h200 = index("h200-sxm");
        QCOMPARE(marks[h200], QString());
        QCOMPARE(chart->barLabels()->texts()[h200], QStringLiteral("H200"));
        // The chosen GPU (H100, hatched here) is still marked, as on the memory chart.
        QCOMPARE(chart->barLabels()->texts()[index("h100-sxm")], QStringLiteral("▶H100 SXM"));
        QVERIFY(chart->barSet(true)->at(h200) > 0);
        QCOMPARE(chart->barSet(false)->at(h200), 0.0);

        // fp32 recipe: the TPUs list no fp32 peak (Google TPU docs: bf16 only), so no bar and
        // words saying why; the A100 is timed at its fp32 19.5 TFLOP/s, not tf32.
        Scenario next = w.controller()->scenario();
        next.recipeId = QStringLiteral("fp32-adamw");
        w.controller()->propose(next, QStringLiteral("fp32"));
        const int v5e = index("tpu-v5e");
        QCOMPARE(chart->marks()[v5e], QStringLiteral("no fp32 peak"));
        QCOMPARE(chart->barSet(true)->at(v5e) + chart->barSet(false)->at(v5e), 0.0);
        QVERIFY2(chart->chart()->title().contains(QLatin1String("fp32 peak only")), qPrintable(chart->chart()->title()));
    }

    void priceFollowsTheCatalogUntilSet()
    {
        MainWindow w(env().catalog(), Scenario{});  // H100 SXM
        QVERIFY(uitest::showAndWait(w));
        MoreOptions *more = w.controls()->moreOptions();
        TimePanel *panel = w.dashboard()->timePanel();
        // Lambda pricing page, 2026-09-20: H100 SXM $3.99 per GPU-hour.
        QVERIFY(more->catalogPriceBox()->isChecked());
        QCOMPARE(more->priceBox()->value(), 3.99);
        QVERIFY2(more->priceBox()->toolTip().contains(QLatin1String("https://lambda.ai/pricing")),
                 qPrintable(more->priceBox()->toolTip()));
        QVERIFY2(panel->note(TimePanel::Figure::Cost)->text().contains(QLatin1String("$3.99")),
                 qPrintable(panel->note(TimePanel::Figure::Cost)->text()));

        // Another GPU, another catalog price (Modal pricing page, 2026-05-07: T4 $0.5904).
        Scenario t4 = w.controller()->scenario();
        t4.gpuId = QStringLiteral("t4");
        w.controller()->propose(t4, QStringLiteral("T4"));
        QCOMPARE(w.controller()->report()->time.price.usdPerGpuHour.value_or(0), 0.5904);
        QCOMPARE(more->priceBox()->value(), 0.59);  // two decimals in the box

        // Typing a price overrides it, as one undo step; undo follows the catalog again.
        QLineEdit *edit = more->priceBox()->findChild<QLineEdit *>();
        QVERIFY(edit);
        more->priceBox()->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("1.5"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().pricePerGpuHourUsd.value_or(-1), 1.5);
        QVERIFY(!more->catalogPriceBox()->isChecked());
        QCOMPARE(w.controller()->report()->time.price.origin, PriceOrigin::Scenario);
        w.controller()->undoStack()->undo();
        QVERIFY(!w.controller()->scenario().pricePerGpuHourUsd);
        QVERIFY(more->catalogPriceBox()->isChecked());
        QCOMPARE(more->priceBox()->value(), 0.59);

        // Unticking keeps the exact catalog price as the user's own; ticking goes back.
        more->catalogPriceBox()->setChecked(false);
        QCOMPARE(w.controller()->scenario().pricePerGpuHourUsd.value_or(-1), 0.5904);
        more->catalogPriceBox()->setChecked(true);
        QVERIFY(!w.controller()->scenario().pricePerGpuHourUsd);
    }
};

QTEST_MAIN(TestTime)
#include "tst_ui_time.moc"
