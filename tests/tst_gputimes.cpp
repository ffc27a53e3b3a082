// The same run on every catalog GPU: with count, MFU and FLOPs fixed, times are in the inverse
// ratio of the GPUs' datasheet peaks for the recipe's dtype.
#include "gputimes.h"
#include "testsupport.h"
#include "units.h"

using namespace napkin;

namespace {

double secondsOn(const QList<GpuTime> &times, const QString &id)
{
    for (const GpuTime &t : times)
        if (t.gpuId == id)
            return t.seconds;
    qFatal("no time for %s", qPrintable(id));
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
        s.mfuFraction = 140e12 / 312e12 * 6.0 / 8.0;
        const QList<GpuTime> times = timeOnEveryGpu(test::reportFor(s), test::catalog());
        for (const char *a100 : {"a100-40gb-sxm", "a100-80gb-sxm"}) {
            const double days = secondsOn(times, QLatin1String(a100)) / 86400;
            QVERIFY2(std::abs(days - 34) <= 1, qPrintable(QString::number(days)));
        }
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
