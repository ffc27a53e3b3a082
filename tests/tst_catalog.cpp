// The built-in GPU and model catalogs: complete, sourced, and rejected when corrupt.
#include "testsupport.h"

#include <cmath>

using namespace napkin;

class TestCatalog final : public QObject
{
    Q_OBJECT

private slots:
    void gpuIds()
    {
        const QStringList expected = {
            QStringLiteral("v100-sxm2-32gb"), QStringLiteral("a100-40gb-sxm"), QStringLiteral("a100-80gb-sxm"),
            QStringLiteral("h100-sxm"), QStringLiteral("h800-sxm"), QStringLiteral("h100-pcie"), QStringLiteral("h200-sxm"), QStringLiteral("b200"),
            QStringLiteral("l4"), QStringLiteral("t4"), QStringLiteral("rtx-3090"), QStringLiteral("rtx-4090"),
            QStringLiteral("rtx-5090"), QStringLiteral("mi250x"), QStringLiteral("mi300x"), QStringLiteral("tpu-v4"),
            QStringLiteral("tpu-v5e"), QStringLiteral("tpu-v5p"), QStringLiteral("gb200"), QStringLiteral("b300"),
            QStringLiteral("mi355x"), QStringLiteral("gb300"), QStringLiteral("h20"), QStringLiteral("mi325x"),
            QStringLiteral("gaudi3"), QStringLiteral("tpu-v6e"), QStringLiteral("tpu-v7")};
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
        QTest::newRow("NVIDIA GB300 NVL72 datasheet: 2.5 PFLOP/s bf16 dense per GPU, 8 TB/s, 1400 W") << QStringLiteral("gb300") << QStringLiteral("bf16") << 2.5e15 << 8e12 << 1400.0;
        QTest::newRow("NVIDIA H20 (China): 148 TFLOP/s bf16 dense, 4.0 TB/s, 400 W") << QStringLiteral("h20") << QStringLiteral("bf16") << 148e12 << 4.0e12 << 400.0;
        QTest::newRow("AMD MI325X data sheet: 2614.9 TFLOP/s fp8, 6 TB/s, 1000 W") << QStringLiteral("mi325x") << QStringLiteral("fp8") << 2614.9e12 << 6e12 << 1000.0;
        QTest::newRow("Intel Gaudi 3 white paper: 1835 TFLOP/s bf16 (MME), 3.7 TB/s, 900 W") << QStringLiteral("gaudi3") << QStringLiteral("bf16") << 1835e12 << 3.7e12 << 900.0;
        QTest::newRow("Google Cloud TPU v5e docs: 197 TFLOP/s bf16, 819 GB/s") << QStringLiteral("tpu-v5e") << QStringLiteral("bf16") << 197e12 << 819e9 << -1.0;
        // 2025-26 parts: NVIDIA's tables list sparse figures with "dense is one-half" footnotes.
        QTest::newRow("NVIDIA GB200 NVL72 page: 360 PF bf16 sparse / 72 / 2, 8 TB/s, 1200 W") << QStringLiteral("gb200") << QStringLiteral("bf16") << 2.5e15 << 8e12 << 1200.0;
        QTest::newRow("NVIDIA GB200 NVL72 page: 720 PF fp4 dense / 72") << QStringLiteral("gb200") << QStringLiteral("fp4") << 10e15 << 8e12 << 1200.0;
        QTest::newRow("NVIDIA Blackwell Ultra datasheet, HGX B300: 108 PF fp4 dense / 8, 7.7 TB/s") << QStringLiteral("b300") << QStringLiteral("fp4") << 13.5e15 << 7.7e12 << 1100.0;
        QTest::newRow("AMD MI355X: 5033.2 TFLOP/s fp8, 8 TB/s, 1400 W") << QStringLiteral("mi355x") << QStringLiteral("fp8") << 5033.2e12 << 8e12 << 1400.0;
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

    void peakRule_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("used");  // empty: no peak
        QTest::addColumn<double>("peak");
        // One rule (GpuSpec::peakFor): the dtype's own peak, bf16 and fp16 for each other, fp32 never
        // a tensor-core rate. Figures from each vendor's datasheet (gpus.json "source").
        QTest::newRow("NVIDIA V100 datasheet: no bf16, runs at fp16 tensor 125 TFLOP/s")
            << QStringLiteral("v100-sxm2-32gb") << QStringLiteral("bf16") << QStringLiteral("fp16") << 125e12;
        QTest::newRow("NVIDIA T4 datasheet: no bf16, runs at fp16 tensor 65 TFLOP/s")
            << QStringLiteral("t4") << QStringLiteral("bf16") << QStringLiteral("fp16") << 65e12;
        QTest::newRow("NVIDIA V100 datasheet: fp32 15.7 TFLOP/s, not the fp16 tensor rate")
            << QStringLiteral("v100-sxm2-32gb") << QStringLiteral("fp32") << QStringLiteral("fp32") << 15.7e12;
        QTest::newRow("NVIDIA H100 datasheet (SXM): fp32 67 TFLOP/s, not tf32 494.5")
            << QStringLiteral("h100-sxm") << QStringLiteral("fp32") << QStringLiteral("fp32") << 67e12;
        QTest::newRow("NVIDIA A100 datasheet: bf16 312 TFLOP/s")
            << QStringLiteral("a100-80gb-sxm") << QStringLiteral("bf16") << QStringLiteral("bf16") << 312e12;
        QTest::newRow("NVIDIA A100 datasheet: fp32 19.5 TFLOP/s, not tf32 156")
            << QStringLiteral("a100-40gb-sxm") << QStringLiteral("fp32") << QStringLiteral("fp32") << 19.5e12;
        QTest::newRow("AMD MI250X data sheet: fp32 47.9 TFLOP/s")
            << QStringLiteral("mi250x") << QStringLiteral("fp32") << QStringLiteral("fp32") << 47.9e12;
        QTest::newRow("Google TPU v4 docs: bf16 275 TFLOP/s")
            << QStringLiteral("tpu-v4") << QStringLiteral("bf16") << QStringLiteral("bf16") << 275e12;
        QTest::newRow("Google TPU v4 docs: fp16 recipe runs at the bf16 275 TFLOP/s")
            << QStringLiteral("tpu-v4") << QStringLiteral("fp16") << QStringLiteral("bf16") << 275e12;
        // Google lists only bf16 for its TPUs: an fp32 recipe gets no peak, not the bf16 one.
        QTest::newRow("Google TPU v4 docs: no fp32 peak") << QStringLiteral("tpu-v4") << QStringLiteral("fp32") << QString() << 0.0;
        QTest::newRow("Google TPU v5e docs: no fp32 peak") << QStringLiteral("tpu-v5e") << QStringLiteral("fp32") << QString() << 0.0;
        QTest::newRow("Google TPU v5p docs: no fp32 peak") << QStringLiteral("tpu-v5p") << QStringLiteral("fp32") << QString() << 0.0;
        QTest::newRow("NVIDIA V100 datasheet: no fp8") << QStringLiteral("v100-sxm2-32gb") << QStringLiteral("fp8") << QString() << 0.0;
    }

    void peakRule()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, dtype);
        QFETCH(QString, used);
        QFETCH(double, peak);
        QString actualUsed = QStringLiteral("unset");
        const auto actual = test::catalog().findGpu(gpu)->peakFor(dtype, &actualUsed);
        QCOMPARE(actual.has_value(), !used.isEmpty());
        QCOMPARE(actualUsed, used);
        if (actual)
            QCOMPARE(*actual, peak);
    }

    void bf16EqualsFp16WhereBothListed()
    {
        // The premise of letting one stand in for the other, on the real catalog; parseGpu() refuses
        // an entry where they differ (corruptRejected "bf16 != fp16").
        int both = 0;
        for (const GpuSpec &g : test::catalog().gpus)
            if (g.peakFlopsPerS.contains(QStringLiteral("bf16")) && g.peakFlopsPerS.contains(QStringLiteral("fp16"))) {
                QCOMPARE(g.peakFlopsPerS.value(QStringLiteral("bf16")), g.peakFlopsPerS.value(QStringLiteral("fp16")));
                ++both;
            }
        QCOMPARE(both, 19);  // all but V100, T4 (fp16 only), the five TPUs and Gaudi 3 (bf16, no fp16 entry)
    }

    void prices_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("usd");  // 0: no price in the catalog
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("date");
        QTest::newRow("Lambda pricing page, H100 SXM") << QStringLiteral("h100-sxm") << 3.99 << QStringLiteral("https://lambda.ai/pricing") << QStringLiteral("2026-09-20");
        QTest::newRow("Lambda pricing page, B200") << QStringLiteral("b200") << 6.69 << QStringLiteral("https://lambda.ai/pricing") << QStringLiteral("2026-09-20");
        QTest::newRow("RunPod pricing page, H200") << QStringLiteral("h200-sxm") << 4.59 << QStringLiteral("https://www.runpod.io/pricing") << QStringLiteral("2026-09-25");
        QTest::newRow("Modal pricing page, T4") << QStringLiteral("t4") << 0.5904 << QStringLiteral("https://modal.com/pricing") << QStringLiteral("2026-05-07");
        QTest::newRow("Akash GPU pricing, RTX 3090 floor") << QStringLiteral("rtx-3090") << 0.16 << QStringLiteral("https://akash.network/pricing/gpus/") << QStringLiteral("2026-09-20");
        QTest::newRow("DigitalOcean GPU Droplets, MI300X") << QStringLiteral("mi300x") << 2.59 << QStringLiteral("https://www.digitalocean.com/pricing/gpu-droplets") << QStringLiteral("2026-10-07");
        QTest::newRow("Google Cloud TPU pricing (archive), v4") << QStringLiteral("tpu-v4") << 3.22 << QStringLiteral("https://cloud.google.com/tpu/pricing") << QStringLiteral("2023-06-01");
        QTest::newRow("MI250X: no dated public price") << QStringLiteral("mi250x") << 0.0 << QString() << QString();
    }

    void prices()
    {
        QFETCH(QString, gpu);
        QFETCH(double, usd);
        QFETCH(QString, provider);
        QFETCH(QString, date);
        const GpuSpec *g = test::catalog().findGpu(gpu);
        QVERIFY(g);
        QCOMPARE(g->pricePerGpuHourUsd.has_value(), usd > 0);
        if (usd > 0) {
            QCOMPARE(*g->pricePerGpuHourUsd, usd);
            QVERIFY2(g->priceSource.contains(provider), qPrintable(g->priceSource));
            QCOMPARE(g->priceDate, date);
        }
    }

    void presetsSourced()
    {
        QCOMPARE(test::catalog().presets.size(), 20);  // 11 dense, Mixtral 8x7B and 8x22B, four Qwen3, DeepSeek-V3, two gpt-oss
        for (const ModelPreset &p : test::catalog().presets)
            QVERIFY2(p.source.contains(QLatin1String("http")), qPrintable(p.id));
    }

    // Every link states what share of its line rate NCCL's collectives reach, with a source;
    // a catalog that claims more than the line rate, or gives no source, is refused by name.
    void linksStateTheirCollectiveEfficiency()
    {
        for (const Interconnect &l : test::catalog().interconnects) {
            QVERIFY2(l.collectiveEfficiency > 0 && l.collectiveEfficiency <= 1, qPrintable(l.id));
            QVERIFY2(!l.collectiveEfficiencySource.isEmpty(), qPrintable(l.id));
        }
        // A100 NVLink behind NVSwitch: nccl-tests all_reduce_perf measures about 200 GB/s of bus
        // bandwidth on 8 A100-SXM4-80GB (NVIDIA/nccl-tests issue #149), 0.667 of 300 GB/s.
        QVERIFY(std::abs(test::catalog().findInterconnect(QStringLiteral("nvlink3"))->collectiveBandwidth() - 200e9) < 0.2e9);
        QFile gpus(QStringLiteral(":/napkin/gpus.json"));
        QVERIFY(gpus.open(QIODevice::ReadOnly));
        QFile models(QStringLiteral(":/napkin/models.json"));
        QVERIFY(models.open(QIODevice::ReadOnly));
        QFile links(QStringLiteral(":/napkin/interconnects.json"));
        QVERIFY(links.open(QIODevice::ReadOnly));
        const QByteArray g = gpus.readAll(), m = models.readAll(), l = links.readAll();
        QVERIFY(l.contains("\"collective_efficiency\": 0.824,"));
        const auto above = parseCatalog(g, m, QByteArray(l).replace("\"collective_efficiency\": 0.824,", "\"collective_efficiency\": 1.3,"));
        QVERIFY(!above.ok());
        QVERIFY2(above.refusalMessage().contains(QLatin1String("interconnects.json \"nvlink4\"")), qPrintable(above.refusalMessage()));
        QVERIFY2(above.refusalMessage().contains(QLatin1String("collective_efficiency must be at most 1")),
                 qPrintable(above.refusalMessage()));
        const auto unsourced = parseCatalog(g, m, QByteArray(l).replace("\"collective_efficiency_source\"", "\"unknown_key\""));
        QVERIFY(!unsourced.ok());
        QVERIFY2(unsourced.refusalMessage().contains(QLatin1String("\"collective_efficiency_source\" must be a non-empty string")),
                 qPrintable(unsourced.refusalMessage()));
    }

    // GEMMs at the share of the dense peak they reach on training's operands (normally
    // distributed values draw more power than a benchmark's, and so lower clocks):
    //  - SemiAnalysis 2024-12, Llama 70B's five training GEMM shapes, N(0, 1) inputs: "the H100
    //    and H200 achieves roughly 720 TFLOP/s against their marketed 989.5" in BF16, "~1,280
    //    TFLOP/s out of the marketed 1979" in FP8 (the H800 is the H100's die and clocks);
    //  - Horace He 2024, cuBLAS at 8192^3 on an A100 in 2022: "CuBLAS: 258 Teraflops" of 312.
    void gemmEfficienciesFromRealisticOperands_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("bf16TflopsPerS");
        QTest::addColumn<double>("fp8TflopsPerS");  // 0: no FP8 figure
        QTest::addColumn<QString>("quote");
        for (const char *id : {"h100-sxm", "h800-sxm", "h200-sxm"})
            QTest::newRow(id) << QString::fromLatin1(id) << 720.0 << 1280.0 << QStringLiteral("roughly 720 TFLOP/s");
        for (const char *id : {"a100-80gb-sxm", "a100-40gb-sxm"})
            QTest::newRow(id) << QString::fromLatin1(id) << 258.0 << 0.0 << QStringLiteral("CuBLAS: 258 Teraflops");
    }
    void gemmEfficienciesFromRealisticOperands()
    {
        QFETCH(QString, gpu);
        QFETCH(double, bf16TflopsPerS);
        QFETCH(double, fp8TflopsPerS);
        QFETCH(QString, quote);
        const GpuSpec *g = test::catalog().findGpu(gpu);
        QVERIFY(g);
        QCOMPARE(g->efficiencyMatmul, std::round(bf16TflopsPerS * 1e12 / *g->peakFor(QStringLiteral("bf16")) * 1000) / 1000);
        QVERIFY2(g->efficiencySource.contains(quote), qPrintable(g->efficiencySource));
        if (fp8TflopsPerS > 0) {
            QCOMPARE(g->efficiencyMatmulFp8.value_or(0),
                     std::round(fp8TflopsPerS * 1e12 / *g->peakFor(QStringLiteral("fp8")) * 1000) / 1000);
            QVERIFY(g->efficiencyMatmulFp8Source.contains(QLatin1String("1,280 TFLOP/s")));
        }
    }

    // H100's FlashAttention-3 speeds by head dim and length (Shah et al. 2024, Figures 5 and 6),
    // as printed on the bars, and their reference point the scalar figures.
    void attentionTableFromTheFlashAttention3Paper()
    {
        const GpuSpec *h100 = test::catalog().findGpu(QStringLiteral("h100-sxm"));
        QVERIFY(h100 && h100->attentionTable);
        const AttentionTable &t = *h100->attentionTable;
        QVERIFY(t.source.contains(QLatin1String("2407.08608")));
        QVERIFY(t.source.contains(QLatin1String("Figure 5")) && t.source.contains(QLatin1String("Figure 6")));
        QCOMPARE(t.headDims, (QList<double>{64, 128}));
        QCOMPARE(t.forward[0][1], 392e12);        // head dim 64, 1k, forward
        QCOMPARE(t.forwardCausal[1][4], 602e12);  // head dim 128, 8k, causal forward
        QCOMPARE(t.backward[1][4], 559e12);       // head dim 128, 8k, backward
        QCOMPARE(t.relativeSpeed(128, 8192, false, false), 1.0);
        QCOMPARE(t.relativeSpeed(64, 1024, false, false), 392.0 / 646.0);
        // Between the points: log2-linear; outside them: the nearest (head dim 192 at 128's).
        QCOMPARE(t.relativeSpeed(64, 3072, true, false), (422 + (453 - 422) * (std::log2(3072.0) - 11)) / 559);
        QCOMPARE(t.relativeSpeed(192, 32768, false, true), 616.0 / 602.0);
        // The causal backward: the backward's shape times the mask's share of the forward.
        QCOMPARE(t.relativeSpeed(64, 1024, true, true), 363.0 / 559.0 * (265.0 / 392.0) / (602.0 / 646.0));
        for (const char *id : {"h800-sxm", "h200-sxm"})
            QVERIFY2(test::catalog().findGpu(QLatin1String(id))->attentionTable, id);
    }

    void corruptRejected_data()
    {
        QTest::addColumn<QByteArray>("gpus");
        QTest::addColumn<QString>("message");
        const QByteArray good = R"({"id":"x","name":"X","short_name":"X","vendor":"V","source":"s","memory_bandwidth_bytes_per_s":1e12,"memory_bytes":1e10,"tdp_watts":100,"peak_flops_per_s":{"bf16":1e14},"scale_up":"nvlink4","scale_out":"ib-ndr","gpus_per_node":8,"host_link":"pcie5-x16","links_source":"l","efficiency_matmul":0.8,"efficiency_memory":0.9,"efficiency_source":"e"})";
        QTest::newRow("not JSON") << QByteArray("{gpus: [") << QStringLiteral("gpus.json:");
        QTest::newRow("empty list") << QByteArray(R"({"gpus":[]})") << QStringLiteral("non-empty array");
        QTest::newRow("negative bandwidth") << QByteArray(R"({"gpus":[)" + QByteArray(good).replace("1e12", "-1") + "]}")
                                            << QStringLiteral("memory_bandwidth_bytes_per_s");
        QTest::newRow("no bf16/fp16") << QByteArray(R"({"gpus":[)" + QByteArray(good).replace("bf16", "int8") + "]}")
                                      << QStringLiteral("needs bf16 or fp16");
        const auto edited = [&good](const char *from, const char *to) {
            return QByteArray(R"({"gpus":[)") + QByteArray(good).replace(from, to) + QByteArray("]}");
        };
        QTest::newRow("bf16 != fp16") << edited("\"bf16\":1e14", "\"bf16\":1e14,\"fp16\":2e14")
                                      << QStringLiteral("bf16 and fp16 must be equal");
        const char *price = "\"tdp_watts\":100,\"price_per_gpu_hour_usd\":2,\"price_source\":\"P, https://p\",\"price_date\":\"2026-01-01\"";
        QTest::newRow("priced entry accepted (control)") << edited("\"tdp_watts\":100", price) << QString();
        QTest::newRow("price 0") << edited("\"tdp_watts\":100", QByteArray(price).replace(":2,", ":0,").constData())
                                 << QStringLiteral("\"price_per_gpu_hour_usd\" must be a positive number");
        QTest::newRow("price without source") << edited("\"tdp_watts\":100", QByteArray(price).replace("P, https://p", "").constData())
                                              << QStringLiteral("\"price_source\" must be a non-empty string");
        QTest::newRow("price without date") << edited("\"tdp_watts\":100", QByteArray(price).replace(",\"price_date\":\"2026-01-01\"", "").constData())
                                            << QStringLiteral("\"price_date\" must be a non-empty string");
        QTest::newRow("source without price") << edited("\"tdp_watts\":100", QByteArray(price).replace("\"price_per_gpu_hour_usd\":2,", "").constData())
                                              << QStringLiteral("need price_per_gpu_hour_usd");
        QTest::newRow("unknown link") << edited("\"ib-ndr\"", "\"ib-9000\"") << QStringLiteral("scale_out a link of interconnects.json");
        QTest::newRow("unknown host link") << edited("\"pcie5-x16\"", "\"pcie9-x16\"")
                                           << QStringLiteral("host_link must name a link of interconnects.json");
        QTest::newRow("no host link") << edited(",\"host_link\":\"pcie5-x16\"", "")
                                      << QStringLiteral("\"host_link\" must be a non-empty string");
        QTest::newRow("scale-out link inside the node") << edited("\"scale_up\":\"nvlink4\"", "\"scale_up\":\"ib-ndr\"")
                                                         << QStringLiteral("scale_up must name a scale-up link");
        QTest::newRow("node larger than the NVLink domain") << edited("\"gpus_per_node\":8", "\"gpus_per_node\":16")
                                                             << QStringLiteral("is more than nvlink4 connects (8)");
        QTest::newRow("efficiency above 1") << edited("\"efficiency_matmul\":0.8", "\"efficiency_matmul\":1.2")
                                            << QStringLiteral("efficiencies must be at most 1");
        QTest::newRow("efficiency without source") << edited(",\"efficiency_source\":\"e\"", "")
                                                   << QStringLiteral("\"efficiency_source\" must be a non-empty string");
        QTest::newRow("attention efficiency above 1")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_forward\":1.2,"
                                                       "\"efficiency_attention_backward\":0.5,\"efficiency_attention_source\":\"f\"")
            << QStringLiteral("efficiencies must be at most 1");
        QTest::newRow("attention forward without backward")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_forward\":0.6,"
                                                       "\"efficiency_attention_source\":\"f\"")
            << QStringLiteral("\"efficiency_attention_backward\" must be a positive number");
        QTest::newRow("attention backward alone")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_backward\":0.6")
            << QStringLiteral("need efficiency_attention_forward");
        QTest::newRow("fp8 GEMM efficiency without source")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_matmul_fp8\":0.7")
            << QStringLiteral("\"efficiency_matmul_fp8_source\" must be a non-empty string");
        QTest::newRow("fp8 GEMM efficiency above 1")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_matmul_fp8\":1.2,"
                                                       "\"efficiency_matmul_fp8_source\":\"f\"")
            << QStringLiteral("efficiencies must be at most 1");
        QTest::newRow("kernel fixed time without source")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"kernel_fixed_seconds\":5e-6")
            << QStringLiteral("\"kernel_fixed_source\" must be a non-empty string");
        QTest::newRow("kernel fixed time in milliseconds")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"kernel_fixed_seconds\":0.005,"
                                                       "\"kernel_fixed_source\":\"f\"")
            << QStringLiteral("kernel_fixed_seconds must be at most 1e-4 (100 us)");
        QTest::newRow("negative kernel fixed time")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"kernel_fixed_seconds\":-1e-6,"
                                                       "\"kernel_fixed_source\":\"f\"")
            << QStringLiteral("\"kernel_fixed_seconds\" must be a positive number");
        QTest::newRow("TP overlap efficiency above 1")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"tp_overlap_efficiency\":1.5,"
                                                       "\"tp_overlap_source\":\"f\"")
            << QStringLiteral("\"tp_overlap_efficiency\" must be a number from -1 to 1");
        QTest::newRow("TP overlap efficiency without source")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"tp_overlap_efficiency\":0.2")
            << QStringLiteral("\"tp_overlap_source\" must be a non-empty string");
        QTest::newRow("causal attention alone")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_causal_forward\":0.6")
            << QStringLiteral("need efficiency_attention_forward");
        QTest::newRow("causal forward without causal backward")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_forward\":0.6,"
                                                       "\"efficiency_attention_backward\":0.5,\"efficiency_attention_source\":\"f\","
                                                       "\"efficiency_attention_causal_forward\":0.55")
            << QStringLiteral("\"efficiency_attention_causal_backward\" must be a positive number");
        QTest::newRow("causal attention efficiency above 1")
            << edited(",\"efficiency_source\":\"e\"", ",\"efficiency_source\":\"e\",\"efficiency_attention_forward\":0.6,"
                                                       "\"efficiency_attention_backward\":0.5,\"efficiency_attention_source\":\"f\","
                                                       "\"efficiency_attention_causal_forward\":0.55,\"efficiency_attention_causal_backward\":1.5")
            << QStringLiteral("efficiencies must be at most 1");
        // A FlashAttention table's reference point (head dim 128, 8,192 tokens) is the scalar
        // figures: 0.6, 0.5 and 0.55 of the 1e14 peak are 60, 50 and 55 TFLOP/s.
        const char *attention = ",\"efficiency_source\":\"e\",\"efficiency_attention_forward\":0.6,"
                                "\"efficiency_attention_backward\":0.5,\"efficiency_attention_source\":\"f\","
                                "\"efficiency_attention_causal_forward\":0.55,\"efficiency_attention_causal_backward\":0.45,"
                                "\"efficiency_attention_table\":{\"head_dims\":[64,128],\"seq_lens\":[1024,8192],"
                                "\"forward_tflops\":[[40,50],[45,60]],\"forward_causal_tflops\":[[30,40],[35,55]],"
                                "\"backward_tflops\":[[30,40],[35,50]],\"source\":\"t\"}";
        QTest::newRow("attention table accepted (control)")
            << edited(",\"efficiency_source\":\"e\"", QByteArray(attention).append(",\"price_per_gpu_hour_usd\":2,"
                                                                              "\"price_source\":\"p\",\"price_date\":\"d\"").constData())
            << QString();
        QTest::newRow("attention table off its scalar figures")
            << edited(",\"efficiency_source\":\"e\"", QByteArray(attention).replace("[45,60]", "[45,66]").constData())
            << QStringLiteral("must be the efficiency_attention_* figures times the bf16 peak");
        QTest::newRow("attention table row too short")
            << edited(",\"efficiency_source\":\"e\"", QByteArray(attention).replace("[30,40],[35,50]", "[30,40],[35]").constData())
            << QStringLiteral("\"backward_tflops\" needs a positive TFLOP/s per sequence length in each row");
        QTest::newRow("attention table lengths not ascending")
            << edited(",\"efficiency_source\":\"e\"", QByteArray(attention).replace("[1024,8192]", "[8192,1024]").constData())
            << QStringLiteral("head_dims and seq_lens must be ascending");
        QTest::newRow("attention table without source")
            << edited(",\"efficiency_source\":\"e\"", QByteArray(attention).replace(",\"source\":\"t\"", "").constData())
            << QStringLiteral("\"source\" must be a non-empty string");
        QTest::newRow("duplicate id") << QByteArray(R"({"gpus":[)" + good + "," + good + "]}") << QStringLiteral("duplicate id");
    }

    void corruptRejected()
    {
        QFETCH(QByteArray, gpus);
        QFETCH(QString, message);
        QFile models(QStringLiteral(":/napkin/models.json"));
        QVERIFY(models.open(QIODevice::ReadOnly));
        QFile links(QStringLiteral(":/napkin/interconnects.json"));
        QVERIFY(links.open(QIODevice::ReadOnly));
        const auto parsed = parseCatalog(gpus, models.readAll(), links.readAll());
        if (message.isEmpty()) {  // the control row: the same entry, valid, is accepted
            QVERIFY2(parsed.ok(), qPrintable(parsed.refusalMessage()));
            QCOMPARE(parsed->gpus.first().pricePerGpuHourUsd.value_or(0), 2.0);
            return;
        }
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.refusalMessage().contains(message), qPrintable(parsed.refusalMessage()));
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
