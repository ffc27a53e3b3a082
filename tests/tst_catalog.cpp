// The built-in GPU and model catalogs: complete, sourced, and rejected when corrupt.
#include "testsupport.h"

using namespace napkin;

class TestCatalog final : public QObject
{
    Q_OBJECT

private slots:
    void gpuIds()
    {
        const QStringList expected = {
            QStringLiteral("v100-sxm2-32gb"), QStringLiteral("a100-40gb-sxm"), QStringLiteral("a100-80gb-sxm"),
            QStringLiteral("h100-sxm"), QStringLiteral("h100-pcie"), QStringLiteral("h200-sxm"), QStringLiteral("b200"),
            QStringLiteral("l4"), QStringLiteral("t4"), QStringLiteral("rtx-3090"), QStringLiteral("rtx-4090"),
            QStringLiteral("rtx-5090"), QStringLiteral("mi250x"), QStringLiteral("mi300x"), QStringLiteral("tpu-v4"),
            QStringLiteral("tpu-v5e"), QStringLiteral("tpu-v5p")};
        QCOMPARE(test::catalog().gpus.size(), expected.size());
        for (const QString &id : expected) {
            const GpuSpec *g = test::catalog().findGpu(id);
            QVERIFY2(g, qPrintable(id));
            QVERIFY2(g->source.contains(QLatin1String("http")), qPrintable(id + QStringLiteral(" cites no source")));
        }
    }

    void datasheets_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<double>("tdp");
        // Each row from the vendor's datasheet; dense (not sparse) tensor throughput.
        QTest::newRow("NVIDIA V100 SXM2 datasheet: 125 TFLOP/s fp16, 900 GB/s, 300 W") << QStringLiteral("v100-sxm2-32gb") << QStringLiteral("fp16") << 125e12 << 900e9 << 300.0;
        QTest::newRow("NVIDIA A100 datasheet: 312 TFLOP/s bf16, 1555 GB/s (40GB), 400 W") << QStringLiteral("a100-40gb-sxm") << QStringLiteral("bf16") << 312e12 << 1555e9 << 400.0;
        QTest::newRow("NVIDIA H200 datasheet: 989 TFLOP/s bf16 dense, 4.8 TB/s, 700 W") << QStringLiteral("h200-sxm") << QStringLiteral("bf16") << 989.5e12 << 4.8e12 << 700.0;
        QTest::newRow("NVIDIA T4 datasheet: 65 TFLOP/s fp16, 320 GB/s, 70 W") << QStringLiteral("t4") << QStringLiteral("fp16") << 65e12 << 320e9 << 70.0;
        QTest::newRow("AMD MI300X datasheet: 1307.4 TFLOP/s bf16, 5.3 TB/s, 750 W") << QStringLiteral("mi300x") << QStringLiteral("bf16") << 1307.4e12 << 5.3e12 << 750.0;
        QTest::newRow("Google Cloud TPU v5e docs: 197 TFLOP/s bf16, 819 GB/s") << QStringLiteral("tpu-v5e") << QStringLiteral("bf16") << 197e12 << 819e9 << -1.0;
    }

    void datasheets()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, dtype);
        QFETCH(double, peak);
        QFETCH(double, bandwidth);
        QFETCH(double, tdp);
        const GpuSpec *g = test::catalog().findGpu(gpu);
        QVERIFY(g);
        QCOMPARE(g->peakFlopsPerS.value(dtype), peak);
        QCOMPARE(g->memoryBandwidthBytesPerS, bandwidth);
        if (tdp > 0)
            QCOMPARE(g->tdpWatts, tdp);
    }

    void bf16FallsBackToFp16()
    {
        // V100 and T4 have no bf16 tensor cores; a bf16 recipe runs at their fp16 rate.
        QString used;
        const double peak = test::catalog().findGpu(QStringLiteral("v100-sxm2-32gb"))->peakFor(QStringLiteral("bf16"), &used);
        QCOMPARE(used, QStringLiteral("fp16"));
        QCOMPARE(peak, 125e12);
    }

    void presetsSourced()
    {
        QCOMPARE(test::catalog().presets.size(), 10);
        for (const ModelPreset &p : test::catalog().presets)
            QVERIFY2(p.source.contains(QLatin1String("http")), qPrintable(p.id));
    }

    void corruptRejected_data()
    {
        QTest::addColumn<QByteArray>("gpus");
        QTest::addColumn<QString>("message");
        const QByteArray good = R"({"id":"x","name":"X","short_name":"X","vendor":"V","source":"s","memory_bandwidth_bytes_per_s":1e12,"memory_bytes":1e10,"tdp_watts":100,"peak_flops_per_s":{"bf16":1e14}})";
        QTest::newRow("not JSON") << QByteArray("{gpus: [") << QStringLiteral("gpus.json:");
        QTest::newRow("empty list") << QByteArray(R"({"gpus":[]})") << QStringLiteral("non-empty array");
        QTest::newRow("negative bandwidth") << QByteArray(R"({"gpus":[)" + QByteArray(good).replace("1e12", "-1") + "]}")
                                            << QStringLiteral("memory_bandwidth_bytes_per_s");
        QTest::newRow("no bf16/fp16") << QByteArray(R"({"gpus":[)" + QByteArray(good).replace("bf16", "int8") + "]}")
                                      << QStringLiteral("needs bf16 or fp16");
        QTest::newRow("duplicate id") << QByteArray(R"({"gpus":[)" + good + "," + good + "]}") << QStringLiteral("duplicate id");
    }

    void corruptRejected()
    {
        QFETCH(QByteArray, gpus);
        QFETCH(QString, message);
        QFile models(QStringLiteral(":/napkin/models.json"));
        QVERIFY(models.open(QIODevice::ReadOnly));
        QString error;
        QVERIFY(!parseCatalog(gpus, models.readAll(), &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
