// Edits that keep a model shape valid: a new width picks the nearest heads that divide it,
// new heads keep grouped-query kv heads dividing them, and presets fill every shape field.
#include "core/model/shapefix.h"
#include "testsupport.h"
#include "core/model/validation.h"

using namespace napkin;

class TestShapeFix final : public QObject
{
    Q_OBJECT

private slots:
    void nearestDivisor_data()
    {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("target");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("multiple");
        QTest::addColumn<qint64>("want");
        QTest::newRow("already divides: 768 = 12 x 64") << qint64(768) << qint64(12) << qint64(1024) << qint64(1) << qint64(12);
        QTest::newRow("1000 = 2^3 x 5^3: 10 is nearest to 12") << qint64(1000) << qint64(12) << qint64(1024) << qint64(1) << qint64(10);
        QTest::newRow("tie goes up: 832 = 2^6 x 13, 12 -> 13") << qint64(832) << qint64(12) << qint64(1024) << qint64(1) << qint64(13);
        QTest::newRow("prime width 769: only 1") << qint64(769) << qint64(12) << qint64(1024) << qint64(1) << qint64(1);
        QTest::newRow("target above n: n itself") << qint64(64) << qint64(100) << qint64(1024) << qint64(1) << qint64(64);
        QTest::newRow("limit caps it: 4096, 5000 -> 1024") << qint64(4096) << qint64(5000) << qint64(1024) << qint64(1) << qint64(1024);
        QTest::newRow("n <= 0: 1") << qint64(0) << qint64(12) << qint64(1024) << qint64(1) << qint64(1);
        // Tensor parallelism takes whole heads: of 2368 = 2^6 x 37's even divisors, 32 is nearest 37.
        QTest::newRow("2368 under TP 2: 32, not 37") << qint64(2368) << qint64(37) << qint64(1024) << qint64(2) << qint64(32);
        QTest::newRow("2368 under TP 8: 32") << qint64(2368) << qint64(37) << qint64(1024) << qint64(8) << qint64(32);
        QTest::newRow("a multiple that already divides: 768, 12, TP 4") << qint64(768) << qint64(12) << qint64(1024) << qint64(4) << qint64(12);
        QTest::newRow("no even divisor of 769: any divisor") << qint64(769) << qint64(12) << qint64(1024) << qint64(2) << qint64(1);
        QTest::newRow("multiple past the limit: any divisor") << qint64(4096) << qint64(12) << qint64(8) << qint64(16) << qint64(8);
    }

    void nearestDivisor()
    {
        QFETCH(qint64, n);
        QFETCH(qint64, target);
        QFETCH(qint64, limit);
        QFETCH(qint64, multiple);
        QFETCH(qint64, want);
        QCOMPARE(napkin::nearestDivisor(n, target, limit, multiple), want);
    }

    // The width slider's step: without tensor parallelism every multiple of 64 has heads; under
    // it, the widths where heads of the kept d_head (or any heads) come in multiples of tp.
    void widthStep_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<bool>("keepHeadDim");
        QTest::addColumn<qint64>("want");
        QTest::newRow("GPT-2 small, TP 1") << QStringLiteral("gpt2-small") << qint64(1) << true << qint64(64);
        QTest::newRow("GPT-2 small, TP 2: 2 heads of 64") << QStringLiteral("gpt2-small") << qint64(2) << true << qint64(128);
        QTest::newRow("GPT-2 small, TP 8: 8 heads of 64") << QStringLiteral("gpt2-small") << qint64(8) << true << qint64(512);
        QTest::newRow("GPT-2 small, TP 2, heads held: even widths") << QStringLiteral("gpt2-small") << qint64(2) << false << qint64(64);
        QTest::newRow("GPT-2 small, TP 3, heads held") << QStringLiteral("gpt2-small") << qint64(3) << false << qint64(192);
        QTest::newRow("Llama 2 70B, TP 8: 8 heads of 128") << QStringLiteral("llama2-70b") << qint64(8) << true << qint64(1024);
        // GPT-2 XL: 25 heads of 64, split 5 ways: lcm(64, 320).
        QTest::newRow("GPT-2 XL, TP 5") << QStringLiteral("gpt2-xl") << qint64(5) << true << qint64(320);
    }

    void widthStep()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, tp);
        QFETCH(bool, keepHeadDim);
        QFETCH(qint64, want);
        const ModelShape shape = test::catalog().findPreset(preset)->shape;
        QCOMPARE(napkin::widthStep(shape, {.keepFfRatio = true, .keepHeadDim = keepHeadDim, .headMultiple = tp}), want);
    }

    // Every width on the slider's grid gives a shape tensor parallelism accepts: heads and kv
    // heads multiples of tp, heads dividing the width, and under TP d_head kept when asked
    // (without TP every multiple of 64 is offered, and heads are the nearest divisor).
    void everyStepSplitsUnderTp()
    {
        int checked = 0;
        for (const char *preset : {"gpt2-small", "gpt2-xl", "llama2-70b", "llama3-8b", "qwen3-30b-a3b", "deepseek-v3"}) {
            const ModelShape before = test::catalog().findPreset(QLatin1String(preset))->shape;
            const std::int64_t headDim = before.dModel / before.heads;
            for (std::int64_t tp : {1, 2, 4, 8}) {
                if (before.heads % tp != 0 || before.kvHeads % tp != 0)
                    continue;
                for (bool keep : {true, false}) {
                    const WidthRule rule{.keepFfRatio = true, .keepHeadDim = keep, .headMultiple = tp};
                    const std::int64_t step = napkin::widthStep(before, rule);
                    for (std::int64_t width = step; width <= 16384; width += step) {
                        const ModelShape after = napkin::followWidth(before, width, rule, nullptr);
                        const QByteArray where = QStringLiteral("%1, TP %2, %3, width %4")
                                                     .arg(QLatin1String(preset)).arg(tp)
                                                     .arg(keep ? QStringLiteral("d_head kept") : QStringLiteral("heads held"))
                                                     .arg(width).toUtf8();
                        QVERIFY2(!validateShape(after), where.constData());
                        QVERIFY2(after.heads % tp == 0 && after.kvHeads % tp == 0, where.constData());
                        if (keep && tp > 1)
                            QVERIFY2(after.dModel / after.heads == headDim, where.constData());
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 500);
    }

    void followWidth_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("dModel");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("dFf");
        QTest::addColumn<QString>("note");
        // GPT-2 small is 768 wide with 12 heads and d_ff 3072 (Radford et al. 2019, Table 2;
        // Hugging Face gpt2 config). At 1024 wide 12 no longer divides; 8 and 16 are equally
        // near and the tie goes up, which is GPT-2 medium's 16 heads and 4096 d_ff.
        QTest::newRow("GPT-2 small -> 1024 wide = GPT-2 medium's heads and d_ff")
            << QStringLiteral("gpt2-small") << qint64(1024) << qint64(16) << qint64(16) << qint64(4096)
            << QStringLiteral("heads 12 → 16 so that they divide d_model = 1024; kv heads 12 → 16 so that they divide heads; "
                              "d_ff 3072 → 4096 (ratio to d_model kept)");
        QTest::newRow("GPT-2 small -> 1000 wide: 10 heads")
            << QStringLiteral("gpt2-small") << qint64(1000) << qint64(10) << qint64(10) << qint64(4000)
            << QStringLiteral("heads 12 → 10 so that they divide d_model = 1000; kv heads 12 → 10 so that they divide heads; "
                              "d_ff 3072 → 4000 (ratio to d_model kept)");
        // Llama 2 70B: 8192 wide, 64 heads, 8 kv heads, d_ff 28672 (Touvron et al. 2023, Table 1
        // and the released config). 8160 = 2^5 x 3 x 5 x 17: 64 does not divide it, 60 and 68
        // do and the tie goes up; of 68's divisors (1, 2, 4, 17, 34, 68) 4 is nearest to 8.
        QTest::newRow("Llama 2 70B -> 8160 wide: heads 68, kv heads 4")
            << QStringLiteral("llama2-70b") << qint64(8160) << qint64(68) << qint64(4) << qint64(28560)
            << QStringLiteral("heads 64 → 68 so that they divide d_model = 8160; kv heads 8 → 4 so that they divide heads; "
                              "d_ff 28672 → 28560 (ratio to d_model kept)");
        QTest::newRow("Llama 2 7B -> 5120 wide: 32 heads still divide")
            << QStringLiteral("llama2-7b") << qint64(5120) << qint64(32) << qint64(32) << qint64(13760)
            << QStringLiteral("d_ff 11008 → 13760 (ratio to d_model kept)");
    }

    void followWidth()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, dModel);
        QFETCH(qint64, heads);
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, dFf);
        QFETCH(QString, note);
        const ModelShape before = test::catalog().findPreset(preset)->shape;
        QString said;
        const ModelShape after = napkin::followWidth(before, dModel, {.keepFfRatio = true, .keepHeadDim = false}, &said);
        QCOMPARE(after.dModel, dModel);
        QCOMPARE(after.heads, heads);
        QCOMPARE(after.kvHeads, kvHeads);
        QCOMPARE(after.dFf, dFf);
        QCOMPARE(said, note);
        QCOMPARE(after.dModel % after.heads, 0);
        QCOMPARE(after.heads % after.kvHeads, 0);
        // Without keeping the ratio d_ff stays.
        QCOMPARE(napkin::followWidth(before, dModel, {.keepFfRatio = false, .keepHeadDim = false}, nullptr).dFf, before.dFf);
    }

    // Keeping the head dimension as width changes lands on the published shapes of the same
    // family, which keep d_head fixed across sizes.
    void followWidthKeepsHeadDim_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("dModel");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<QString>("note");
        // GPT-2 (Radford et al. 2019; Hugging Face gpt2 configs): d_head 64 at every size;
        // medium is 1024 wide with 16 heads, XL 1600 wide with 25.
        QTest::newRow("GPT-2 small -> 1024 wide: medium's 16 heads")
            << QStringLiteral("gpt2-small") << qint64(1024) << qint64(16)
            << QStringLiteral("heads 12 → 16 to keep d_head = 64; kv heads 12 → 16 so that they divide heads");
        QTest::newRow("GPT-2 small -> 1600 wide: XL's 25 heads")
            << QStringLiteral("gpt2-small") << qint64(1600) << qint64(25)
            << QStringLiteral("heads 12 → 25 to keep d_head = 64; kv heads 12 → 25 so that they divide heads");
        // The window's old behaviour gave 12 heads of 832 at 9984 wide; d_head 64 gives 156.
        QTest::newRow("GPT-2 small -> 9984 wide: 156 heads of 64")
            << QStringLiteral("gpt2-small") << qint64(9984) << qint64(156)
            << QStringLiteral("heads 12 → 156 to keep d_head = 64; kv heads 12 → 156 so that they divide heads");
        // Llama 2 (Touvron et al. 2023, Table 1 and configs): d_head 128; 13B is 5120 wide with
        // 40 heads, 70B 8192 wide with 64.
        QTest::newRow("Llama 2 7B -> 5120 wide: 13B's 40 heads")
            << QStringLiteral("llama2-7b") << qint64(5120) << qint64(40)
            << QStringLiteral("heads 32 → 40 to keep d_head = 128; kv heads 32 → 40 so that they divide heads");
        QTest::newRow("Llama 2 7B -> 8192 wide: 70B's 64 heads")
            << QStringLiteral("llama2-7b") << qint64(8192) << qint64(64)
            << QStringLiteral("heads 32 → 64 to keep d_head = 128; kv heads 32 → 64 so that they divide heads");
        // 1000 = 2^3 x 5^3 is not a multiple of 64: the divisor nearest 1000/64 = 15.6 is 20.
        QTest::newRow("GPT-2 small -> 1000 wide: 20 heads divide")
            << QStringLiteral("gpt2-small") << qint64(1000) << qint64(20)
            << QStringLiteral("heads 12 → 20 so that they divide d_model = 1000; kv heads 12 → 20 so that they divide heads");
    }

    void followWidthKeepsHeadDim()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, dModel);
        QFETCH(qint64, heads);
        QFETCH(QString, note);
        const ModelShape before = test::catalog().findPreset(preset)->shape;
        QString said;
        const ModelShape after = napkin::followWidth(before, dModel, {.keepFfRatio = false, .keepHeadDim = true}, &said);
        QCOMPARE(after.heads, heads);
        QCOMPARE(after.dModel % after.heads, 0);
        QCOMPARE(said, note);
    }

    void followHeads_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<QString>("note");
        QTest::addColumn<qint64>("tp");
        // GPT-2 is multi-head attention (kv heads = heads) and stays so.
        QTest::newRow("GPT-2 small, 16 heads: kv heads follow") << QStringLiteral("gpt2-small") << qint64(16) << qint64(16)
                                                                << QStringLiteral("kv heads 12 → 16 so that they divide heads")
                                                                << qint64(1);
        // Llama 2 70B's 8 kv heads (grouped-query attention, Touvron et al. 2023) divide 48 ...
        QTest::newRow("Llama 2 70B, 48 heads: 8 kv heads divide") << QStringLiteral("llama2-70b") << qint64(48) << qint64(8)
                                                                 << QString() << qint64(1);
        // ... but not 36 = 2^2 x 3^2, whose divisor nearest 8 is 9.
        QTest::newRow("Llama 2 70B, 36 heads: kv heads 8 -> 9") << QStringLiteral("llama2-70b") << qint64(36) << qint64(9)
                                                               << QStringLiteral("kv heads 8 → 9 so that they divide heads")
                                                               << qint64(1);
        // Under TP 4 each rank takes whole K/V heads: of 36's divisors 4, 12 and 36, 4 and 12
        // are equally near 8 and the tie goes up.
        QTest::newRow("Llama 2 70B, 36 heads, TP 4: kv heads 8 -> 12") << QStringLiteral("llama2-70b") << qint64(36) << qint64(12)
                                                                      << QStringLiteral("kv heads 8 → 12 so that they divide heads")
                                                                      << qint64(4);
    }

    void followHeads()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, heads);
        QFETCH(qint64, kvHeads);
        QFETCH(QString, note);
        QFETCH(qint64, tp);
        QString said;
        const ModelShape after = napkin::followHeads(test::catalog().findPreset(preset)->shape, heads, &said, tp);
        QCOMPARE(after.heads, heads);
        QCOMPARE(after.kvHeads, kvHeads);
        QCOMPARE(said, note);
    }

    void applyPreset_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("seqLen");
        QTest::addColumn<qint64>("wantSeqLen");
        QTest::addColumn<bool>("noted");
        // GPT-2 learns 1024 positions (Radford et al. 2019, Section 2.3), so a longer sequence
        // is cut to it; Llama's rotary positions have no table to run out of.
        QTest::newRow("GPT-2 small at 2048: cut to 1024") << QStringLiteral("gpt2-small") << qint64(2048) << qint64(1024) << true;
        QTest::newRow("GPT-2 small at 512: kept") << QStringLiteral("gpt2-small") << qint64(512) << qint64(512) << false;
        QTest::newRow("Llama 2 7B at 8192: kept") << QStringLiteral("llama2-7b") << qint64(8192) << qint64(8192) << false;
    }

    void applyPreset()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, seqLen);
        QFETCH(qint64, wantSeqLen);
        QFETCH(bool, noted);
        Scenario s;
        s.seqLen = seqLen;
        s.paramsOverride = 124'000'000;
        const ModelPreset &p = *test::catalog().findPreset(preset);
        QString note;
        const Scenario out = napkin::applyPreset(s, p, &note);
        QCOMPARE(out.presetId, p.id);
        QCOMPARE(out.model, p.shape);
        QVERIFY(!out.paramsOverride.has_value());  // the preset's shape sets the count again
        QCOMPARE(out.seqLen, wantSeqLen);
        QCOMPARE(!note.isEmpty(), noted);
        QVERIFY(!validateScenario(out));
    }
};

QTEST_GUILESS_MAIN(TestShapeFix)
#include "tst_shapefix.moc"
