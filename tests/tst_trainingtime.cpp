// Training time under the two utilisation bases: MFU divides model FLOPs, HFU divides hardware
// FLOPs, which include the forward work recomputation runs again (Chowdhery et al. 2022, App. B).
#include "testsupport.h"
#include "core/run/trainingtime.h"

using namespace napkin;

namespace {

/// A Megatron GPT (Korthikanti et al. 2022, Table 3 and Section 6: s = 2048, v = 51200) on A100s.
Scenario megatronGpt(qint64 layers, qint64 hidden, qint64 heads)
{
    Scenario s;
    s.model.arch = Arch::Gpt2;
    s.model.layers = layers;
    s.model.dModel = hidden;
    s.model.heads = heads;
    s.model.kvHeads = heads;
    s.model.dFf = 4 * hidden;
    s.model.vocab = 51200;
    s.model.maxPositions = 2048;
    s.seqLen = 2048;
    s.microBatch = 1;
    s.gpuId = QStringLiteral("a100-80gb-sxm");  // 312 TFLOP/s dense bf16, NVIDIA A100 datasheet
    return s;
}

} // namespace

class TestTrainingTime final : public QObject
{
    Q_OBJECT

private slots:
    // Whatever the shape, full recomputation under HFU is slower by exactly the recomputed
    // share of the FLOPs, and under MFU takes the same time; each implied utilisation is its
    // FLOPs over (time x GPUs x peak).
    void recomputeCostsTimeOnlyUnderHfu_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("flopsBasis");
        QTest::newRow("gpt2-small full") << QStringLiteral("gpt2-small") << int(Recompute::Full) << false << int(FlopsBasis::Detailed);
        QTest::newRow("gpt2-small selective") << QStringLiteral("gpt2-small") << int(Recompute::Selective) << false << int(FlopsBasis::Detailed);
        QTest::newRow("llama2-7b full causal") << QStringLiteral("llama2-7b") << int(Recompute::Full) << true << int(FlopsBasis::Detailed);
        QTest::newRow("llama3-8b full 6ND") << QStringLiteral("llama3-8b") << int(Recompute::Full) << false << int(FlopsBasis::SixND);
    }

    void recomputeCostsTimeOnlyUnderHfu()
    {
        QFETCH(QString, preset);
        QFETCH(int, recompute);
        QFETCH(bool, causal);
        QFETCH(int, flopsBasis);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.causalHalving = causal;
        s.flopsBasis = static_cast<FlopsBasis>(flopsBasis);
        s.utilizationFraction = 0.4;
        const auto time = [&](UtilizationBasis basis, Recompute r) {
            Scenario t = s;
            t.utilizationBasis = basis;
            t.recompute = r;
            return test::reportFor(t).time;
        };
        const TimeReport none = time(UtilizationBasis::Hfu, Recompute::None);
        const TimeReport hfu = time(UtilizationBasis::Hfu, static_cast<Recompute>(recompute));
        const TimeReport mfu = time(UtilizationBasis::Mfu, static_cast<Recompute>(recompute));
        QVERIFY(hfu.recomputeFlops > 0);
        QCOMPARE(none.recomputeFlops, 0.0);
        QCOMPARE(none.hardwareFlops, none.trainingFlops);
        QCOMPARE(hfu.hardwareFlops, hfu.trainingFlops + hfu.recomputeFlops);
        const double share = hfu.hardwareFlops / hfu.trainingFlops;
        QVERIFY(test::near(hfu.seconds / none.seconds, share, 1e-12));
        QCOMPARE(mfu.seconds, none.seconds);
        QVERIFY(test::near(hfu.costUsd.value_or(0) / none.costUsd.value_or(1), share, 1e-12));
        // The one set is reported as set; the other follows from the same time.
        QCOMPARE(hfu.hfuFraction, 0.4);
        QCOMPARE(mfu.mfuFraction, 0.4);
        const double peak = hfu.peakFlopsPerS * static_cast<double>(hfu.gpus);
        for (const TimeReport *t : {&hfu, &mfu}) {
            QVERIFY(test::near(t->mfuFraction, t->trainingFlops / (t->seconds * peak), 1e-12));
            QVERIFY(test::near(t->hfuFraction, t->hardwareFlops / (t->seconds * peak), 1e-12));
        }
        QVERIFY(test::near(mfu.hfuFraction, 0.4 * share, 1e-12));
        QCOMPARE(none.mfuFraction, none.hfuFraction);
    }

    // Narayanan et al. 2021, Appendix, eq. 3: with full recomputation a GPT iteration runs
    // 96Bslh^2(1 + s/6h + V/16lh) FLOPs: four passes over the blocks, three over the LM head.
    void narayananFullRecomputeFlops_data()
    {
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("heads");
        QTest::newRow("GPT-3 175B") << qint64(96) << qint64(12288) << qint64(96);
        QTest::newRow("1T") << qint64(128) << qint64(25600) << qint64(160);
        QTest::newRow("22B") << qint64(48) << qint64(6144) << qint64(64);
    }

    void narayananFullRecomputeFlops()
    {
        QFETCH(qint64, layers);
        QFETCH(qint64, hidden);
        QFETCH(qint64, heads);
        Scenario s = megatronGpt(layers, hidden, heads);
        const double B = 8, seq = 2048, l = static_cast<double>(layers), h = static_cast<double>(hidden), V = 51200;
        s.tokens = B * seq;
        s.recompute = Recompute::Full;
        const TimeReport t = test::reportFor(s).time;
        QVERIFY(test::near(t.hardwareFlops, 96 * B * seq * l * h * h * (1 + seq / (6 * h) + V / (16 * l * h)), 1e-12));
        QVERIFY(test::near(t.trainingFlops, 72 * B * seq * l * h * h * (1 + seq / (6 * h) + V / (12 * l * h)), 1e-12));
    }

    // Narayanan et al. 2021, Section 5.1, eq. 4: time ~= 8TP/(nX), where 8 counts the forward
    // recomputed under full activation checkpointing and X is the achieved throughput of that
    // work: HFU = X / peak. GPT-3 175B, 300B tokens, 1024 A100s at 140 TFLOP/s: about 34 days.
    void narayananEquation4UnderHfu()
    {
        Scenario s = megatronGpt(96, 12288, 96);
        s.tokens = 300e9;
        s.gpus = 1024;
        s.recompute = Recompute::Full;
        s.utilizationBasis = UtilizationBasis::Hfu;
        s.utilizationFraction = 140e12 / 312e12;
        const TimeReport t = test::reportFor(s).time;
        QCOMPARE(t.peakFlopsPerS, 312e12);
        const double days = t.seconds / 86400;
        QVERIFY2(std::abs(days - 34) <= 1, qPrintable(QString::number(days)));  // the paper rounds to days
        // The same run counted by model FLOPs: MFU = HFU x 3/4 for the blocks (72 vs 96).
        QVERIFY2(std::abs(t.mfuFraction / t.hfuFraction - 0.75) < 0.002, qPrintable(QString::number(t.mfuFraction)));
    }

    // Korthikanti et al. 2022, Tables 3 and 5: selective recomputation, no data parallelism. At
    // the printed MFU the model FLOPs (their eq. 7) take the printed iteration time.
    void korthikantiTable5_data()
    {
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<double>("mfu");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("hfuPrinted");
        QTest::addColumn<double>("tolerance");
        // Tolerance: half a unit in the last printed digit of the time and of the MFU.
        QTest::newRow("22B") << qint64(48) << qint64(6144) << qint64(64) << qint64(8) << qint64(4) << 0.415 << 1.10
                             << 0.437 << (0.005 / 1.10 + 0.0005 / 0.415);
        QTest::newRow("175B") << qint64(96) << qint64(12288) << qint64(96) << qint64(64) << qint64(64) << 0.514 << 13.75
                              << 0.528 << (0.005 / 13.75 + 0.0005 / 0.514);
        QTest::newRow("530B") << qint64(105) << qint64(20480) << qint64(128) << qint64(280) << qint64(280) << 0.560 << 37.83
                              << 0.570 << (0.005 / 37.83 + 0.0005 / 0.560);
        QTest::newRow("1T") << qint64(128) << qint64(25600) << qint64(160) << qint64(512) << qint64(512) << 0.563 << 71.49
                            << 0.570 << (0.005 / 71.49 + 0.0005 / 0.563);
    }

    void korthikantiTable5()
    {
        QFETCH(qint64, layers);
        QFETCH(qint64, hidden);
        QFETCH(qint64, heads);
        QFETCH(qint64, gpus);
        QFETCH(qint64, globalBatch);
        QFETCH(double, mfu);
        QFETCH(double, seconds);
        QFETCH(double, hfuPrinted);
        QFETCH(double, tolerance);
        Scenario s = megatronGpt(layers, hidden, heads);
        s.gpus = gpus;
        s.tokens = static_cast<double>(globalBatch) * 2048;  // one iteration
        s.recompute = Recompute::Selective;
        s.utilizationBasis = UtilizationBasis::Mfu;
        s.utilizationFraction = mfu;
        const TimeReport t = test::reportFor(s).time;
        QVERIFY2(test::near(t.seconds, seconds, tolerance), qPrintable(QString::number(t.seconds)));

        // Their Appendix A: selective recomputation adds one forward QK^T and one attention
        // over V, 2Bs^2h each per layer; that is the HFU Napkin reports.
        const double B = static_cast<double>(globalBatch), sq = 2048, l = static_cast<double>(layers);
        const double h = static_cast<double>(hidden);
        const double extra = 4 * B * sq * sq * h * l;
        QVERIFY(test::near(t.recomputeFlops, extra, 1e-12));
        QVERIFY(test::near(t.hfuFraction, mfu * (1 + extra / t.trainingFlops), 1e-12));
        // Table 5's HFU follows their eq. 8, 72BLsh^2(1 + s/3h + v/12hL), which adds three
        // times that text's 4Bs^2h: Napkin's HFU is lower than the printed one by the difference.
        const double eq8 = 72 * B * l * sq * h * h * (1 + sq / (3 * h) + 51200 / (12 * h * l));
        QVERIFY2(test::near(mfu * eq8 / t.trainingFlops, hfuPrinted, 0.0005 / hfuPrinted + 0.0005 / mfu),
                 qPrintable(QString::number(mfu * eq8 / t.trainingFlops)));
        QVERIFY(t.hfuFraction < hfuPrinted);
    }

    // Under MFU the hardware also runs the recomputed forward, so an MFU whose implied HFU
    // passes 100% of peak is refused, naming the field and the highest MFU allowed; without
    // recompute the two are equal and MFU 100% stays allowed.
    void mfuWhoseHfuPassesPeakIsRefused()
    {
        Scenario s = megatronGpt(96, 12288, 96);  // GPT-3 175B shape, Korthikanti Table 3
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        s.utilizationBasis = UtilizationBasis::Mfu;
        s.recompute = Recompute::Full;
        s.utilizationFraction = 0.9;
        const auto refused = computeReport(s, test::catalog());
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("mfu"));
        QVERIFY2(e.problem.contains(QStringLiteral("must be at most")) && e.problem.contains(QStringLiteral("HFU")),
                 qPrintable(e.problem));
        s.utilizationFraction = 0.7;  // full recompute adds about a third: HFU about 93%
        const auto ok = computeReport(s, test::catalog());
        QVERIFY2(ok.ok(), qPrintable(ok.refusalMessage()));
        QVERIFY(ok->time.hfuFraction > 0.9 && ok->time.hfuFraction < 1);
        s.recompute = Recompute::None;
        s.utilizationFraction = 1;
        QVERIFY(computeReport(s, test::catalog()).ok());
    }
};

QTEST_GUILESS_MAIN(TestTrainingTime)
#include "tst_trainingtime.moc"
