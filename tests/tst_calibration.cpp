// Calibration from measured runs (napkin calibrate): the fit recovers factors that generated
// the "measured" steps, one run moves the factors by the least that explains it, a calibrated
// scenario survives its file, what no efficiency can explain is refused by name, and the
// estimate states its track record against published runs.

#include "core/io/scenariojson.h"
#include "core/io/measuredruns.h"
#include "core/report/calibration.h"
#include "core/report/report.h"
#include "core/report/trackrecord.h"
#include "core/text/stepexplain.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace napkin;

namespace {

Scenario preset(const char *id, std::int64_t gpus)
{
    Scenario s;
    const ModelPreset *p = test::catalog().findPreset(QLatin1String(id));
    Q_ASSERT(p);
    s.presetId = p->id;
    s.model = p->shape;
    s.gpus = gpus;
    return s;
}

double stepOf(const Scenario &s)
{
    const auto r = computeReport(s, test::catalog());
    Q_ASSERT(r.ok());
    return r->step.stepSeconds;
}

/// Four runs whose steps lean on different parts: big GEMMs, memory-bound kernels (eager
/// attention, small width), tensor-parallel all-reduces over a node, data-parallel gradients
/// across nodes.
QList<Scenario> diverseRuns()
{
    Scenario gemms = preset("llama3-8b", 8);
    gemms.seqLen = 4096;
    gemms.microBatch = 2;
    gemms.flashAttention = true;
    Scenario eager = preset("gpt2-small", 8);
    eager.flashAttention = false;
    eager.microBatch = 16;
    Scenario tp = preset("llama3-70b", 64);
    tp.tp = 8;
    tp.pp = 4;
    tp.seqLen = 4096;
    tp.microBatch = 1;
    tp.recompute = Recompute::Full;
    Scenario dp = preset("llama3-8b", 256);
    dp.seqLen = 2048;
    dp.microBatch = 1;
    dp.zeroStage = 3;
    dp.recompute = Recompute::Full;
    return {gemms, eager, tp, dp};
}

} // namespace

class TestCalibration final : public QObject
{
    Q_OBJECT

private slots:
    void recoversTheFactorsThatMadeTheSteps()
    {
        Calibration truth;
        truth.compute = 1.25;
        truth.memory = 1.6;
        truth.comm = 0.8;
        QList<MeasuredRun> runs;
        for (const Scenario &s : diverseRuns()) {
            Scenario made = s;
            made.calibration = truth;
            runs << MeasuredRun{s.presetId, s, stepOf(made), std::nullopt};
            QVERIFY(std::abs(runs.last().stepSeconds / stepOf(s) - 1) > 0.01);  // the truth moved every run
        }
        const auto fit = calibrate(runs, test::catalog(), QStringLiteral("2026-12-03"));
        QVERIFY2(fit.ok(), qPrintable(fit.refusalMessage()));
        qInfo("fitted compute %.4f memory %.4f comm %.4f (truth 1.25, 1.6, 0.8)", fit->compute, fit->memory, fit->comm);
        QVERIFY(std::abs(fit->compute / truth.compute - 1) < 0.02);
        QVERIFY(std::abs(fit->memory / truth.memory - 1) < 0.05);
        QVERIFY(std::abs(fit->comm / truth.comm - 1) < 0.05);
        QCOMPARE(fit->runs.size(), runs.size());
        for (const CalibrationRun &run : fit->runs)
            QVERIFY2(std::abs(run.estimatedAfterSeconds / run.measuredStepSeconds - 1) < 0.005, qPrintable(run.label));
        QCOMPARE(fit->date, QStringLiteral("2026-12-03"));
    }

    void oneRunMovesTheFactorsLeast()
    {
        // A GEMM-bound run measured 10% slower: the compute factor takes most of it, and the
        // calibrated estimate meets the measurement.
        const Scenario s = diverseRuns().first();
        const double measured = stepOf(s) * 1.1;
        const auto fit = calibrate({MeasuredRun{QStringLiteral("one"), s, measured, std::nullopt}}, test::catalog(), {});
        QVERIFY2(fit.ok(), qPrintable(fit.refusalMessage()));
        QVERIFY(fit->compute > fit->memory && fit->compute > fit->comm);
        QVERIFY(fit->memory >= 1 && fit->comm >= 1);
        Scenario calibrated = s;
        calibrated.calibration = *fit;
        QVERIFY(std::abs(stepOf(calibrated) / measured - 1) < 1e-3);
        // Nothing measured off: the factors stay at 1.
        const auto exact = calibrate({MeasuredRun{QStringLiteral("exact"), s, stepOf(s), std::nullopt}}, test::catalog(), {});
        QVERIFY(exact.ok());
        QVERIFY(std::abs(exact->compute - 1) < 1e-6 && std::abs(exact->memory - 1) < 1e-6 && std::abs(exact->comm - 1) < 1e-6);
    }

    void survivesTheScenarioFile()
    {
        Scenario s = diverseRuns().first();
        const auto fit = calibrate({MeasuredRun{QStringLiteral("file"), s, stepOf(s) * 1.3, 60e9}}, test::catalog(),
                                   QStringLiteral("2026-12-03"));
        QVERIFY(fit.ok());
        s.calibration = *fit;
        const auto back = scenarioFromJson(scenarioToJson(s), Scenario{});
        QVERIFY2(back.ok(), qPrintable(back.refusalMessage()));
        QCOMPARE(*back, s);
        QCOMPARE(back->calibration->runs.first().measuredPeakBytes, std::optional<double>(60e9));
        QVERIFY(calibrationSummary(*fit).startsWith(QStringLiteral("calibrated on 1 run (2026-12-03): compute ×")));
    }

    void refusals_data()
    {
        QTest::addColumn<double>("stepFactor");
        QTest::addColumn<bool>("inference");
        QTest::addColumn<QString>("message");
        QTest::newRow("time 0") << 0.0 << false << QStringLiteral("measured_step_seconds: must be a time above 0");
        QTest::newRow("time negative") << -1.0 << false << QStringLiteral("measured_step_seconds: must be a time above 0");
        // Ten times faster than the estimate at 80% matmul efficiency: past the GPU's peak.
        QTest::newRow("faster than the peak") << 0.1 << false
                                              << QStringLiteral("measured_step_seconds: implies a matmul efficiency above 100%");
        // A thousand times slower: below 1% of the peak.
        QTest::newRow("slower than 1% of the peak") << 1000.0 << false << QStringLiteral("measured_step_seconds: implies a");
        QTest::newRow("a serving scenario") << 1.0 << true << QStringLiteral("mode: must be training");
        // A million times faster or slower: told as the bound the fit stopped at, not as a
        // figure a bound happened to give ("7280%" for any step too short).
        QTest::newRow("far past the peak") << 1e-6 << false
                                           << QStringLiteral("measured_step_seconds: implies a matmul efficiency above 100%");
        QTest::newRow("far below 1% of the peak") << 1e6 << false
                                                  << QStringLiteral("measured_step_seconds: implies a matmul efficiency below 1%");
    }

    // A calibration typed into a scenario file meets the rule a fit does: factors that put the
    // GPU past its peak or below 1% of it are refused by their key, never drawn.
    void scenarioFileFactorsStayPhysical()
    {
        Scenario s = diverseRuns().first();
        Calibration c;
        c.compute = 0.01;  // 100x faster GEMMs: far past the peak
        s.calibration = c;
        auto r = computeReport(s, test::catalog());
        QVERIFY(!r.ok());
        QVERIFY2(r.refusalMessage().startsWith(QStringLiteral("calibration.compute: implies a matmul efficiency of ")),
                 qPrintable(r.refusalMessage()));
        s.calibration->compute = 1;
        s.calibration->memory = 100;
        r = computeReport(s, test::catalog());
        QVERIFY(!r.ok());
        QVERIFY2(r.refusalMessage().startsWith(QStringLiteral("calibration.memory: implies a memory efficiency of ")),
                 qPrintable(r.refusalMessage()));
        s.calibration->memory = 1.2;
        QVERIFY(computeReport(s, test::catalog()).ok());
    }

    // A runs file (napkin calibrate --measured) reads each run, and refuses by name a key it
    // does not know (a misspelt "peak_byte" had dropped the peak in silence) and a key given
    // twice in one run.
    void runsFileIsReadStrictly_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("two runs") << QByteArray(R"([{"label": "a", "scenario": {"layers": 6}, "step_seconds": 1.5},
                                                   {"scenario": {}, "step_seconds": 2, "peak_bytes": 6e10}])")
                                  << QString();
        QTest::newRow("misspelt key") << QByteArray(R"([{"scenario": {}, "step_seconds": 2, "peak_byte": 6e10}])")
                                      << QStringLiteral("runs[0].peak_byte: is not a key of a measured run");
        QTest::newRow("key twice") << QByteArray(R"([{"scenario": {}, "step_seconds": 2, "step_seconds": 3}])")
                                   << QStringLiteral("measured: ");
    }

    void runsFileIsReadStrictly()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, refusal);
        QTemporaryDir dir;
        const auto runs = readMeasuredRuns(test::writeFile(dir, QStringLiteral("runs.json"), json), Scenario{});
        if (refusal.isEmpty()) {
            QVERIFY2(runs.ok(), qPrintable(runs.refusalMessage()));
            QCOMPARE(runs->size(), qsizetype(2));
            QCOMPARE(runs->at(0).scenario.model.layers, qint64(6));
            QCOMPARE(runs->at(1).peakBytes, std::optional<double>(6e10));
            return;
        }
        QVERIFY(!runs.ok());
        QVERIFY2(runs.refusalMessage().startsWith(refusal), qPrintable(runs.refusalMessage()));
        if (QTest::currentDataTag() == QByteArray("key twice"))
            QVERIFY2(runs.refusalMessage().contains(QStringLiteral("\"step_seconds\" appears twice")), qPrintable(runs.refusalMessage()));
    }

    // No run held more than its GPU's memory: a measured peak above it is refused by name.
    void peakAboveTheGpusMemory()
    {
        const Scenario s = diverseRuns().first();
        const auto fit = calibrate({MeasuredRun{QStringLiteral("big"), s, stepOf(s), 1e15}}, test::catalog(), {});
        QVERIFY(!fit.ok());
        QVERIFY2(fit.refusalMessage().startsWith(QStringLiteral("measured_peak_bytes: must be at most the memory of one ")),
                 qPrintable(fit.refusalMessage()));
        const auto ok = calibrate({MeasuredRun{QStringLiteral("fine"), s, stepOf(s), 1e9}}, test::catalog(), {});
        QVERIFY2(ok.ok(), qPrintable(ok.refusalMessage()));
    }

    void refusals()
    {
        QFETCH(double, stepFactor);
        QFETCH(bool, inference);
        QFETCH(QString, message);
        Scenario s = diverseRuns().first();
        const double step = stepOf(s) * stepFactor;
        if (inference)
            s.mode = Mode::Inference;
        const auto fit = calibrate({MeasuredRun{QStringLiteral("bad"), s, step, std::nullopt}}, test::catalog(), {});
        QVERIFY(!fit.ok());
        QVERIFY2(fit.refusalMessage().startsWith(message), qPrintable(fit.refusalMessage()));
    }

    void aRunOfManyIsNamed()
    {
        QList<MeasuredRun> runs;
        for (const Scenario &s : diverseRuns())
            runs << MeasuredRun{s.presetId, s, stepOf(s), std::nullopt};
        runs[2].stepSeconds = -3;
        const auto fit = calibrate(runs, test::catalog(), {});
        QVERIFY(!fit.ok());
        QCOMPARE(fit.refusal().field, QStringLiteral("runs[2].measured_step_seconds"));
        QVERIFY(!calibrate({}, test::catalog(), {}).ok());
    }

    void theEstimateStatesItsTrackRecord()
    {
        // Beside the step, the record of the scenario's kind of model against published runs
        // (core/report/trackrecord.h; tst_measuredtraining checks its figures); once calibrated,
        // the runs it came from first.
        Scenario dense = preset("llama3-8b", 8);
        const auto plain = computeReport(dense, test::catalog());
        QVERIFY(plain.ok());
        const QString text = stepTrackRecordText(*plain);
        QVERIFY2(text.startsWith(QStringLiteral("Track record: on %1 published dense runs (A100 80G, H100 SXM, B200) the "
                                                "estimate averaged ")
                                     .arg(trackRecords().front().runs)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("faster than measured (")), qPrintable(text));

        Scenario moe = preset("qwen3-30b-a3b", 16);
        moe.ep = 16;
        const auto routed = computeReport(moe, test::catalog());
        QVERIFY2(routed.ok(), qPrintable(routed.refusalMessage()));
        QCOMPARE(&trackRecordFor(moe), &trackRecords().at(1));
        QVERIFY2(stepTrackRecordText(*routed).contains(QStringLiteral("published Mixture-of-Experts runs (H100 SXM, B200)")),
                 qPrintable(stepTrackRecordText(*routed)));

        const auto fit = calibrate({MeasuredRun{QStringLiteral("mine"), dense, 1.25 * stepOf(dense), std::nullopt}},
                                   test::catalog(), {});
        QVERIFY(fit.ok());
        dense.calibration = *fit;
        const auto calibrated = computeReport(dense, test::catalog());
        QVERIFY(calibrated.ok());
        QVERIFY2(stepTrackRecordText(*calibrated).startsWith(QStringLiteral("Calibrated on 1 measured run. Before calibration, on ")),
                 qPrintable(stepTrackRecordText(*calibrated)));

        dense.calibration.reset();
        dense.mode = Mode::Inference;
        const auto serving = computeReport(dense, test::catalog());
        QVERIFY2(serving.ok(), qPrintable(serving.refusalMessage()));
        QVERIFY(stepTrackRecordText(*serving).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
