// The same run on every catalog GPU: with count, MFU and FLOPs fixed, times are in the inverse
// ratio of the GPUs' datasheet peaks for the recipe's dtype.
#include "core/report/gputimes.h"
#include "testsupport.h"
#include "core/text/units.h"

using namespace napkin;

namespace {

const GpuTime &on(const QList<GpuTime> &times, const QString &id)
{
    for (const GpuTime &t : times)
        if (t.gpuId == id)
            return t;
    qFatal("no time for %s", qPrintable(id));
}

double secondsOn(const QList<GpuTime> &times, const QString &id)
{
    return on(times, id).seconds;
}

} // namespace

class TestGpuTimes final : public QObject
{
    Q_OBJECT

private slots:
    void everyGpuInCatalogOrder()
    {
        const Report r = test::reportFor(Scenario{});
        const QList<GpuTime> times = timeOnEveryGpu(r, test::catalog());
        QCOMPARE(times.size(), test::catalog().gpus.size());
        for (int i = 0; i < times.size(); ++i) {
            QCOMPARE(times[i].gpuId, test::catalog().gpus[i].id);
            QCOMPARE(times[i].shortName, test::catalog().gpus[i].shortName);
            QVERIFY(times[i].seconds > 0);
        }
        // The chosen GPU's bar is the report's own wall clock.
        QCOMPARE(secondsOn(times, r.gpu.id), r.time.seconds);
    }

    void ratioOfDatasheetPeaks_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("peak");
        // Dense bf16 tensor peaks (fp16 where a GPU has no bf16), against H100 SXM's 989.5 TFLOP/s
        // (NVIDIA H100 Tensor Core GPU datasheet, SXM column).
        QTest::newRow("A100 SXM 40GB: 312 TFLOP/s (NVIDIA A100 datasheet)") << QStringLiteral("a100-40gb-sxm") << 312e12;
        QTest::newRow("A100 SXM 80GB: 312 TFLOP/s (NVIDIA A100 datasheet)") << QStringLiteral("a100-80gb-sxm") << 312e12;
        QTest::newRow("V100 SXM2: no bf16, fp16 tensor 125 TFLOP/s (NVIDIA V100 datasheet)")
            << QStringLiteral("v100-sxm2-32gb") << 125e12;
        QTest::newRow("H100 PCIe: 756.5 TFLOP/s (NVIDIA H100 datasheet, PCIe column)") << QStringLiteral("h100-pcie") << 756.5e12;
        QTest::newRow("MI300X: 1307.4 TFLOP/s (AMD Instinct MI300X data sheet)") << QStringLiteral("mi300x") << 1307.4e12;
        QTest::newRow("TPU v5e: 197 TFLOP/s (Google Cloud TPU v5e documentation)") << QStringLiteral("tpu-v5e") << 197e12;
    }

    void ratioOfDatasheetPeaks()
    {
        QFETCH(QString, gpu);
        QFETCH(double, peak);
        const double h100 = 989.5e12;
        const QList<GpuTime> times = timeOnEveryGpu(test::reportFor(Scenario{}), test::catalog());
        const double ratio = secondsOn(times, gpu) / secondsOn(times, QStringLiteral("h100-sxm"));
        QVERIFY2(test::near(ratio, h100 / peak, 1e-12), qPrintable(QString::number(ratio)));
    }

    void narayananOnEveryA100()
    {
        // Narayanan et al. 2021, Section 5.1 / eq. 4: GPT-3 175B on 300B tokens with 1024 A100s
        // at 140 TFLOP/s per GPU takes about 34 days; 8TP/(nX) is 6ND at an MFU of
        // 140/312 x 6/8 (A100 dense bf16 312 TFLOP/s, NVIDIA A100 datasheet). Whatever GPU the
        // scenario chose, the A100 bars show that time.
        Scenario s;
        s.paramsOverride = 175'000'000'000;
        s.tokens = 300e9;
        s.gpus = 1024;
        s.gpuId = QStringLiteral("h100-sxm");
        s.flopsBasis = FlopsBasis::SixND;
        s.utilizationFraction = 140e12 / 312e12 * 6.0 / 8.0;
        const QList<GpuTime> times = timeOnEveryGpu(test::reportFor(s), test::catalog());
        for (const char *a100 : {"a100-40gb-sxm", "a100-80gb-sxm"}) {
            const double days = secondsOn(times, QLatin1String(a100)) / 86400;
            QVERIFY2(std::abs(days - 34) <= 1, qPrintable(QString::number(days)));
        }
    }

    void fitsInMemory_data()
    {
        QTest::addColumn<qint64>("params");
        QTest::addColumn<int>("zero");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("fits");
        // Activations left out, so the per-GPU total is model state alone: 16 B/param under
        // bf16-mixed-adamw (Rajbhandari et al. 2019, Section 3.1: 2 + 2 + 12), divided by the GPUs
        // at ZeRO-3 (Figure 1). Capacities are the datasheets' GB taken as GiB (gpus.json notes).
        // 7e9 params, ZeRO-0: 16 x 7e9 = 112e9 B.
        QTest::newRow("7B ZeRO-0, H100 80 GiB = 85.9e9 B: no (NVIDIA H100 datasheet)") << qint64(7e9) << 0 << qint64(8) << QStringLiteral("h100-sxm") << false;
        QTest::newRow("7B ZeRO-0, TPU v5p 95 GiB = 102.0e9 B: no (Google TPU v5p docs)") << qint64(7e9) << 0 << qint64(8) << QStringLiteral("tpu-v5p") << false;
        QTest::newRow("7B ZeRO-0, MI250X 128 GiB = 137.4e9 B: yes (AMD MI250X data sheet)") << qint64(7e9) << 0 << qint64(8) << QStringLiteral("mi250x") << true;
        QTest::newRow("7B ZeRO-0, H200 141 GiB = 151.4e9 B: yes (NVIDIA H200 datasheet)") << qint64(7e9) << 0 << qint64(8) << QStringLiteral("h200-sxm") << true;
        QTest::newRow("7B ZeRO-0, B200 180 GiB = 193.3e9 B: yes (NVIDIA B200 datasheet)") << qint64(7e9) << 0 << qint64(8) << QStringLiteral("b200") << true;
        // 70e9 params (Llama-3-70B-like), ZeRO-3 over 64: 16 x 70e9 / 64 = 17.5e9 B; ZeRO-0 would
        // need 1.12e12 B, more than any catalog GPU.
        QTest::newRow("70B ZeRO-3 x64, T4 16 GiB = 17.18e9 B: no (NVIDIA T4 datasheet)") << qint64(70e9) << 3 << qint64(64) << QStringLiteral("t4") << false;
        QTest::newRow("70B ZeRO-3 x64, TPU v5e 16 GiB: no (Google TPU v5e docs)") << qint64(70e9) << 3 << qint64(64) << QStringLiteral("tpu-v5e") << false;
        QTest::newRow("70B ZeRO-3 x64, L4 24 GiB = 25.8e9 B: yes (NVIDIA L4 datasheet)") << qint64(70e9) << 3 << qint64(64) << QStringLiteral("l4") << true;
        QTest::newRow("70B ZeRO-3 x64, B200: yes (NVIDIA B200 datasheet)") << qint64(70e9) << 3 << qint64(64) << QStringLiteral("b200") << true;
        QTest::newRow("70B ZeRO-0 x64, B200: no") << qint64(70e9) << 0 << qint64(64) << QStringLiteral("b200") << false;
    }

    void fitsInMemory()
    {
        QFETCH(qint64, params);
        QFETCH(int, zero);
        QFETCH(qint64, gpus);
        QFETCH(QString, gpu);
        QFETCH(bool, fits);
        Scenario s = test::presetScenario("llama2-7b");
        s.paramsOverride = params;
        s.includeActivations = false;
        s.reservedBytes = 0;  // model state alone, as the rows' arithmetic says
        s.zeroStage = zero;
        s.gpus = gpus;
        const Report r = test::reportFor(s);
        const double needed = 16.0 * static_cast<double>(params) / (zero == 3 ? static_cast<double>(gpus) : 1.0);
        QVERIFY(test::near(r.memory.perGpu.total(), needed, 1e-12));
        const QList<GpuTime> times = timeOnEveryGpu(r, test::catalog());  // outlives the reference below
        const GpuTime &t = on(times, gpu);
        QCOMPARE(t.neededBytes, r.memory.perGpu.total());
        QCOMPARE(t.memoryBytes, test::catalog().findGpu(gpu)->memoryBytes);
        QCOMPARE(t.fits, fits);
        QVERIFY(t.hasPeak && t.seconds > 0);  // a run that does not fit still has a time to show
        // On the chosen GPU the chart agrees with the memory report.
        s.gpuId = gpu;
        QCOMPARE(test::reportFor(s).memory.fits, fits);
    }

    void dtypeRule_data()
    {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("dtype");  // empty: no peak, no bar
        QTest::addColumn<double>("peak");
        // Against H100 SXM (NVIDIA H100 datasheet, SXM column): bf16 989.5, fp32 67 TFLOP/s.
        QTest::newRow("fp32-adamw on V100: fp32 15.7 TFLOP/s (NVIDIA V100 datasheet)")
            << QStringLiteral("fp32-adamw") << QStringLiteral("v100-sxm2-32gb") << QStringLiteral("fp32") << 15.7e12;
        QTest::newRow("fp32-adamw on A100: fp32 19.5, not tf32 156 (NVIDIA A100 datasheet)")
            << QStringLiteral("fp32-adamw") << QStringLiteral("a100-80gb-sxm") << QStringLiteral("fp32") << 19.5e12;
        QTest::newRow("fp32-adamw on TPU v4: no fp32 peak (Google TPU v4 docs list bf16 only)")
            << QStringLiteral("fp32-adamw") << QStringLiteral("tpu-v4") << QString() << 0.0;
        QTest::newRow("fp32-sgd-momentum on TPU v5e: no fp32 peak (Google TPU v5e docs)")
            << QStringLiteral("fp32-sgd-momentum") << QStringLiteral("tpu-v5e") << QString() << 0.0;
        QTest::newRow("bf16-mixed-adamw on T4: fp16 65 TFLOP/s (NVIDIA T4 datasheet)")
            << QStringLiteral("bf16-mixed-adamw") << QStringLiteral("t4") << QStringLiteral("fp16") << 65e12;
        QTest::newRow("bf16-mixed-adamw on TPU v5p: bf16 459 TFLOP/s (Google TPU v5p docs)")
            << QStringLiteral("bf16-mixed-adamw") << QStringLiteral("tpu-v5p") << QStringLiteral("bf16") << 459e12;
    }

    void dtypeRule()
    {
        QFETCH(QString, recipe);
        QFETCH(QString, gpu);
        QFETCH(QString, dtype);
        QFETCH(double, peak);
        Scenario s;
        s.recipeId = recipe;
        const QList<GpuTime> times = timeOnEveryGpu(test::reportFor(s), test::catalog());
        const GpuTime &t = on(times, gpu);
        const GpuTime &h100 = on(times, QStringLiteral("h100-sxm"));
        QCOMPARE(t.hasPeak, !dtype.isEmpty());
        QCOMPARE(t.peakDtype, dtype);
        if (dtype.isEmpty()) {
            QCOMPARE(t.seconds, 0.0);
            QVERIFY(!t.costUsd);
            return;
        }
        QCOMPARE(t.peakFlopsPerS, peak);
        QVERIFY(test::near(t.seconds / h100.seconds, h100.peakFlopsPerS / peak, 1e-12));
    }

    void chosenGpuWithoutPeakRefused()
    {
        // The same rule on the chosen GPU: an fp32 recipe on a TPU is refused, naming the recipe,
        // the GPU, the dtype and what would be accepted.
        Scenario s;
        s.gpuId = QStringLiteral("tpu-v5e");
        s.recipeId = QStringLiteral("fp32-adamw");
        const auto refused = computeReport(s, test::catalog());
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("recipe"));
        QVERIFY2(e.problem.contains(QLatin1String("\"tpu-v5e\" lists no fp32 peak")), qPrintable(e.problem));
        QVERIFY2(e.problem.contains(QLatin1String("bf16-mixed-adamw")), qPrintable(e.problem));
        QVERIFY2(e.problem.contains(QLatin1String("h100-sxm")) && !e.problem.contains(QLatin1String("tpu-v4")),
                 qPrintable(e.problem));
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        QVERIFY(computeReport(s, test::catalog()).ok());
    }

    void costOnEachGpusOwnPrice()
    {
        // Each bar's cost is its GPU-hours at that GPU's catalog price; the chosen GPU's at the
        // report's price, which a user's own price replaces.
        Scenario s;  // H100 SXM
        const Report r = test::reportFor(s);
        const QList<GpuTime> times = timeOnEveryGpu(r, test::catalog());
        const GpuTime &a100 = on(times, QStringLiteral("a100-80gb-sxm"));
        QVERIFY(a100.costUsd);
        // Lambda pricing page, 2026-09-20: A100 80GB SXM $2.79 per GPU-hour.
        QVERIFY(test::near(*a100.costUsd, 8 * a100.seconds / 3600 * 2.79, 1e-12));
        QVERIFY(!on(times, QStringLiteral("mi250x")).costUsd);  // no dated price in the catalog
        QVERIFY(test::near(*on(times, QStringLiteral("h100-sxm")).costUsd, *r.time.costUsd, 1e-12));
        QCOMPARE(*r.time.price.usdPerGpuHour, 3.99);  // Lambda, H100 SXM
        QCOMPARE(r.time.price.origin, PriceOrigin::Catalog);
        s.pricePerGpuHourUsd = 1.5;
        const Report own = test::reportFor(s);
        QCOMPARE(own.time.price.origin, PriceOrigin::Scenario);
        const QList<GpuTime> ownTimes = timeOnEveryGpu(own, test::catalog());
        QVERIFY(test::near(*on(ownTimes, QStringLiteral("h100-sxm")).costUsd, 8 * own.time.seconds / 3600 * 1.5, 1e-12));
        QCOMPARE(*on(ownTimes, QStringLiteral("a100-80gb-sxm")).costUsd, *a100.costUsd);
    }

    void nameWithoutVendor_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("name");
        QTest::newRow("NVIDIA") << QStringLiteral("h100-sxm") << QStringLiteral("H100 SXM5 80GB");
        QTest::newRow("AMD") << QStringLiteral("mi300x") << QStringLiteral("Instinct MI300X");
        QTest::newRow("Google") << QStringLiteral("tpu-v5e") << QStringLiteral("Cloud TPU v5e (per chip)");
    }

    void nameWithoutVendor()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, name);
        QCOMPARE(napkin::nameWithoutVendor(*test::catalog().findGpu(gpu)), name);
    }

    void energyText_data()
    {
        QTest::addColumn<double>("kwh");
        QTest::addColumn<QString>("text");
        QTest::newRow("kWh") << 126.0 << QStringLiteral("126 kWh");
        QTest::newRow("MWh") << 1500.0 << QStringLiteral("1.50 MWh");
        QTest::newRow("GWh") << 2.46e6 << QStringLiteral("2.46 GWh");
        QTest::newRow("TWh") << 3e9 << QStringLiteral("3.00 TWh");
    }

    void energyText()
    {
        QFETCH(double, kwh);
        QFETCH(QString, text);
        QCOMPARE(fmt::energyKwh(kwh), text);
    }

    void energyOfTheDefaultRun()
    {
        // 8 GPUs x 700 W board power (NVIDIA H100 datasheet, SXM TDP) x the run's hours.
        const Report r = test::reportFor(Scenario{});
        QCOMPARE(r.gpu.tdpWatts, 700.0);
        QVERIFY(test::near(r.time.energyKwh, 8 * 0.7 * r.time.seconds / 3600, 1e-12));
        QCOMPARE(fmt::energyKwh(r.time.energyKwh), QStringLiteral("126 kWh"));
    }
};

QTEST_GUILESS_MAIN(TestGpuTimes)
#include "tst_gputimes.moc"
