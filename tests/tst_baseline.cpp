// A pinned baseline: the report carries the pinned run's own report, the differences are the
// ratios of its figures, and the pin travels through scenario files, refusing what is not a
// scenario with the field's full name.
#include "core/report/baseline.h"
#include "core/io/scenariojson.h"
#include "testsupport.h"

#include <QJsonObject>

using namespace napkin;

class TestBaseline final : public QObject
{
    Q_OBJECT

private:
    // Llama 2 7B (Touvron et al. 2023; 6,738,415,616 parameters, Hugging Face model card) on
    // 8 GPUs, model state only: no activations, nothing reserved.
    static Scenario llama2ModelState(int zero)
    {
        Scenario s = test::presetScenario("llama2-7b");
        s.includeActivations = false;
        s.reservedBytes = 0;
        s.gpus = 8;
        s.zeroStage = zero;
        return s;
    }

private slots:
    void pinningCopiesTheScenarioWithoutItsBaseline()
    {
        const Scenario once = withBaselinePinned(Scenario{});
        QVERIFY(once.baseline);
        QCOMPARE(*once.baseline.scenario, Scenario{});
        const Scenario twice = withBaselinePinned(once);
        QVERIFY(!twice.baseline.scenario->baseline);  // never a chain of pins
        QCOMPARE(withoutBaseline(twice), Scenario{});
        QVERIFY(once == withBaselinePinned(Scenario{}));  // equal by value, not by pointer
    }

    void changes_data()
    {
        QTest::addColumn<int>("zeroThen");
        QTest::addColumn<int>("zeroNow");
        QTest::addColumn<QString>("text");
        // Rajbhandari et al. 2019, Section 5 (Figure 1): with 2 + 2 + 12 bytes per parameter,
        // P_os+g+p over N_d = 8 GPUs holds 16Ψ/8 = 2Ψ; ZeRO-3 also holds one gathered block with
        // its gradients (DeepSpeed's estimator: 2 + 2 bytes) and the next block prefetched (2):
        // Llama 2 7B's block is 202,383,360 parameters of Ψ = 6,738,415,616, so
        // (2Ψ + 6 x 202,383,360) / 16Ψ = 13.63% of ZeRO 0, a change of −86.4%, and back +634%.
        // P_os holds 4Ψ + 12Ψ/8 = 5.5Ψ: 34.375% of 16Ψ, a change of −65.6%. ZeRO moves no
        // FLOPs, so time and cost do not change.
        QTest::newRow("zero 0 -> 3") << 0 << 3 << QStringLiteral("−86% memory, ±0% time, ±0% cost");
        QTest::newRow("zero 0 -> 1") << 0 << 1 << QStringLiteral("−66% memory, ±0% time, ±0% cost");
        QTest::newRow("zero 3 -> 0") << 3 << 0 << QStringLiteral("+634% memory, ±0% time, ±0% cost");
    }

    void changes()
    {
        QFETCH(int, zeroThen);
        QFETCH(int, zeroNow);
        QFETCH(QString, text);
        Scenario s = withBaselinePinned(llama2ModelState(zeroThen));
        s.zeroStage = zeroNow;
        const Report r = test::reportFor(s);
        QVERIFY(r.baseline);
        QCOMPARE(r.baseline->memory.perGpu.total(), test::reportFor(llama2ModelState(zeroThen)).memory.perGpu.total());
        const auto change = baselineChange(r);
        QVERIFY(change);
        QCOMPARE(baselineChangeText(*change), text);
        QCOMPARE(change->time, 0.0);
    }

    void fullRecomputeCostsTimeAgainstThePin()
    {
        // Under HFU the recomputed forward (2N per token of the 6N) is extra work: Korthikanti
        // et al. 2022, Section 6.3; the change equals hardware over model FLOPs minus one.
        Scenario s = withBaselinePinned(Scenario{});
        s.recompute = Recompute::Full;
        const Report r = test::reportFor(s);
        const auto change = baselineChange(r);
        QVERIFY(change);
        QVERIFY(change->time > 0.2);
        QCOMPARE(change->time, r.time.hardwareFlops / r.baseline->time.hardwareFlops - 1);
        QVERIFY(change->memory < 0);  // full recompute keeps only the layer inputs
    }

    void noPinNoChange()
    {
        QVERIFY(!baselineChange(test::reportFor(Scenario{})));
    }

    void scenarioFilesKeepThePin()
    {
        Scenario s = withBaselinePinned(llama2ModelState(0));
        s.zeroStage = 3;
        const QJsonObject o = scenarioToJson(s);
        QVERIFY(o.value(QStringLiteral("baseline")).isObject());
        const auto back = scenarioFromJson(o, Scenario{});
        QVERIFY2(back.ok(), qPrintable(back.refusalMessage()));
        QCOMPARE(*back, s);
        QVERIFY(!scenarioToJson(Scenario{}).contains(QStringLiteral("baseline")));
    }

    void badPinsAreRefusedByName_data()
    {
        QTest::addColumn<QJsonValue>("baseline");
        QTest::addColumn<QString>("field");
        QTest::newRow("not an object") << QJsonValue(3) << QStringLiteral("baseline");
        QTest::newRow("layers out of range") << QJsonValue(QJsonObject{{QStringLiteral("layers"), 0}})
                                             << QStringLiteral("baseline.layers");
        QTest::newRow("nested pin") << QJsonValue(QJsonObject{{QStringLiteral("baseline"), QJsonObject{}}})
                                    << QStringLiteral("baseline");
    }

    void badPinsAreRefusedByName()
    {
        QFETCH(QJsonValue, baseline);
        QFETCH(QString, field);
        const auto refused = scenarioFromJson(QJsonObject{{QStringLiteral("baseline"), baseline}}, Scenario{});
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, field);
        // The window's remembered scenario drops a bad pin and keeps the rest.
        const auto [lenient, replaced] = scenarioFromJsonLenient(
            QJsonObject{{QStringLiteral("layers"), 6}, {QStringLiteral("baseline"), baseline}}, test::catalog());
        QCOMPARE(lenient.model.layers, 6);
        QVERIFY(!lenient.baseline);
        QCOMPARE(replaced.size(), 1);
    }

    void pinOnAGpuNotInTheCatalogIsRefused()
    {
        Scenario pinned;
        pinned.gpuId = QStringLiteral("h999");
        Scenario s;
        s.baseline.scenario = std::make_shared<const Scenario>(pinned);
        const auto refused = computeReport(s, test::catalog());
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("baseline.gpu"));
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "tst_baseline.moc"
