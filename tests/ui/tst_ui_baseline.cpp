// Edit > Pin Baseline: every chart keeps the pinned run as a ghost (outlined bars, hollow
// roofline points, the pinned time beside the new one) and the dashboard states the
// differences. Pinning is undoable, saved in scenario files and drawn into exports.

#include "core/report/baseline.h"
#include "ui/views/chartrender.h"
#include "ui/views/dashboard.h"
#include "ui/shell/fileactions.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/timepanel.h"
#include "core/text/units.h"

#include <QAction>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace napkin;
using namespace napkin::ui;

namespace {

QAction *action(QWidget &w, const QString &text)
{
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TestBaselineUi final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void pinnedGhostsFollowTheChange()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        QAction *pin = action(w, QStringLiteral("&Pin Baseline"));
        QAction *unpin = action(w, QStringLiteral("U&npin Baseline"));
        QVERIFY(pin && unpin);
        QVERIFY(!unpin->isEnabled());
        const MemoryPanel *memory = w.dashboard()->memoryPanel();
        QVERIFY(!memory->pinnedOutline()->isVisible());
        QVERIFY(!w.dashboard()->pinnedLine()->isVisible());

        pin->trigger();
        QCOMPARE(w.controller()->undoStack()->undoText(), QStringLiteral("Pin baseline"));
        QVERIFY(unpin->isEnabled());
        // Double the micro-batch: activations double, time does not change (same tokens).
        Scenario next = w.controller()->scenario();
        next.microBatch = 16;
        w.controller()->propose(next, QStringLiteral("Set micro-batch to 16"));

        const Report pinned = env().report(Scenario{});
        const Report now = env().report(next);
        // The ghost outline's tops are the pinned stage totals (four points per stage).
        const QList<QPointF> outline = memory->pinnedOutline()->points();
        QCOMPARE(outline.size(), 16);
        for (int stage = 0; stage < 4; ++stage) {
            const double total = pinned.memory.byZeroStage[static_cast<std::size_t>(stage)].total() / 1e9;
            QVERIFY(uitest::nearlyEqual(outline[4 * stage + 1].y(), total));
            QVERIFY(uitest::nearlyEqual(outline[4 * stage + 2].y(), total));
            QCOMPARE(outline[4 * stage].y(), 0.0);
        }
        QVERIFY(memory->pinnedOutline()->isVisible());

        // Hollow roofline points: one per pinned op, at its intensity.
        const QScatterSeries *ghosts = w.dashboard()->rooflinePanel()->pinnedOps();
        QVERIFY(ghosts->isVisible());
        QCOMPARE(ghosts->count(), pinned.roofline.ops.size());
        QCOMPARE(ghosts->at(0).x(), pinned.roofline.ops[0].intensity);
        QCOMPARE(ghosts->color().alpha(), 0);
        QVERIFY(w.dashboard()->rooflinePanel()->legendText().contains(
            QStringLiteral("(○ pinned: %1)").arg(fmt::duration(pinned.roofline.stepSeconds))));

        // The pinned time beside the new one, and the differences in words.
        const QString timeNote = w.dashboard()->timePanel()->note(TimePanel::Figure::WallClock)->text();
        QVERIFY2(timeNote.startsWith(QStringLiteral("pinned %1, ").arg(fmt::duration(pinned.time.seconds))), qPrintable(timeNote));
        const double memoryChange = now.memory.perGpu.total() / pinned.memory.perGpu.total() - 1;
        QVERIFY(memoryChange > 0.1);
        const QString line = w.dashboard()->pinnedLine()->text();
        QVERIFY(w.dashboard()->pinnedLine()->isVisible());
        QVERIFY2(line.startsWith(QStringLiteral("╌○ vs pinned: %1 memory, ±0% time").arg(signedPercent(memoryChange))), qPrintable(line));

        // Undo the change, then the pin: the ghosts go.
        w.controller()->undoStack()->undo();
        w.controller()->undoStack()->undo();
        QVERIFY(!w.controller()->scenario().baseline);
        QVERIFY(!memory->pinnedOutline()->isVisible());
        QVERIFY(!ghosts->isVisible());
        QVERIFY(!w.dashboard()->pinnedLine()->isVisible());
        QVERIFY(!unpin->isEnabled());
    }

    void pinIsSavedAndExported()
    {
        Scenario s = withBaselinePinned(Scenario{});
        s.recompute = Recompute::Full;
        MainWindow w(env().catalog(), s);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pinned.napkin.json"));
        const auto done = w.fileActions()->saveScenario(path);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        w.controller()->propose(Scenario{}, QStringLiteral("reset"));
        QVERIFY(!w.fileActions()->openScenario(path));
        QCOMPARE(w.controller()->scenario(), s);

        // The export's caption states the differences (full recompute under HFU: slower).
        const Report r = env().report(s);
        const QString caption = scenarioSettings(r);
        QVERIFY2(caption.contains(QStringLiteral("vs\u00A0pinned:")), qPrintable(caption));
        QVERIFY(caption.contains(QStringLiteral("%1\u00A0time").arg(signedPercent(baselineChange(r)->time))));
        QVERIFY(baselineChange(r)->time > 0.2);
        const QImage image = renderChart(ChartKind::Dashboard, r, env().catalog(), w.dashboard()->viewOptions(),
                                         QSize(1280, 720), 1, w.font());
        QVERIFY(!image.isNull());
    }
};

QTEST_MAIN(TestBaselineUi)
#include "tst_ui_baseline.moc"
