// Edit > Calibrate from a Measured Run…: the dialog fits the step to the one entered, the
// window takes it as one undo step and says it is calibrated; a measurement no efficiency can
// explain is refused in the dialog, which stays open.

#include "guitestfixture.h"
#include "core/report/report.h"
#include "ui/shell/calibratedialog.h"
#include "ui/shell/mainwindow.h"
#include "ui/state/scenariocontroller.h"
#include "ui/views/dashboard.h"
#include "ui/views/gputimechart.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/timepanel.h"
#include "ui/widgets/textstrip.h"

#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace napkin;
using namespace napkin::ui;

class TestCalibrate final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void fitsTheMeasuredStepAsOneUndoStep()
    {
        MainWindow w(env().catalog(), Scenario{});
        const Scenario start = w.controller()->scenario();
        const double estimated = w.controller()->report()->step.stepSeconds;
        CalibrateDialog dialog(start, env().catalog(), &w);
        QVERIFY(std::abs(dialog.stepSeconds()->value() - estimated) < 1e-3);  // it starts at the estimate
        // ... to four significant digits, without trailing zeros ("10.031103 s" had stood beside
        // "now 10.0 s").
        QCOMPARE(dialog.stepSeconds()->text(), QString::number(estimated, 'g', 4) + QStringLiteral(" s"));
        dialog.stepSeconds()->setValue(estimated * 1.25);
        dialog.peakKnown()->setChecked(true);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.calibrated() && dialog.calibrated()->calibration);
        const double measured = dialog.stepSeconds()->value();  // as the spin box rounded it
        w.controller()->propose(*dialog.calibrated(), QStringLiteral("Calibrate from a measured run"));
        QVERIFY(std::abs(w.controller()->report()->step.stepSeconds / measured - 1) < 1e-3);
        // The run's time follows the calibrated step from then on.
        QCOMPARE(w.controller()->scenario().timeBasis, TimeBasis::Estimated);
        const TimeReport &t = w.controller()->report()->time;
        QVERIFY(std::abs(t.seconds / (t.steps * measured) - 1) < 1e-3);
        QVERIFY2(w.dashboard()->summary()->text().contains(QStringLiteral("calibrated on 1 run")),
                 qPrintable(w.dashboard()->summary()->text()));
        // Every view that quotes a utilisation says where the time comes from: the wall clock's
        // note no longer calls the estimate's HFU "set", the every-GPU chart's title no longer
        // quotes the 40% set, and the roofline's step reads as the bound it is.
        const QString wallClock = w.dashboard()->timePanel()->note(TimePanel::Figure::WallClock)->text();
        QVERIFY2(wallClock.contains(QStringLiteral("(estimated step, calibrated on 1 run)")) && !wallClock.contains(QStringLiteral("(set)")),
                 qPrintable(wallClock));
        auto *gpuChart = w.findChild<GpuTimeChart *>();
        QVERIFY(gpuChart);
        QVERIFY2(gpuChart->chart()->title().contains(QStringLiteral("estimated, calibrated")), qPrintable(gpuChart->chart()->title()));
        QVERIFY2(w.dashboard()->rooflinePanel()->legendText().startsWith(QStringLiteral("Roofline bound: step ")),
                 qPrintable(w.dashboard()->rooflinePanel()->legendText()));
        w.controller()->undoStack()->undo();
        QCOMPARE(w.controller()->scenario(), start);
        QVERIFY(!w.dashboard()->summary()->text().contains(QStringLiteral("calibrated")));
        QVERIFY(w.dashboard()->timePanel()->note(TimePanel::Figure::WallClock)->text().startsWith(QStringLiteral("HFU 40.0% (set) · ")));
        QVERIFY2(gpuChart->chart()->title().contains(QStringLiteral("40% HFU")), qPrintable(gpuChart->chart()->title()));
    }

    void refusesWhatNoEfficiencyExplains()
    {
        const Scenario s;
        CalibrateDialog dialog(s, env().catalog());
        dialog.stepSeconds()->setValue(0.0001);  // faster than the GPU's peak allows
        dialog.accept();
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        QVERIFY(!dialog.calibrated());
        QVERIFY2(dialog.problem().startsWith(QStringLiteral("measured_step_seconds: implies a matmul efficiency")),
                 qPrintable(dialog.problem()));
        dialog.stepSeconds()->setValue(0);
        dialog.accept();
        QVERIFY2(dialog.problem().startsWith(QStringLiteral("measured_step_seconds: must be a time above 0")),
                 qPrintable(dialog.problem()));
    }
};

QTEST_MAIN(TestCalibrate)
#include "tst_ui_calibrate.moc"
