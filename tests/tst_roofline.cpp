// The roofline (Williams, Waterman & Patterson 2009): consistency of every op and the
// behaviour the source document teaches (bigger batches move matmuls right; softmax stays left).
#include "core/run/roofline.h"
#include "testsupport.h"

using namespace napkin;

namespace {

const RooflineOp *findOp(const RooflineReport &r, const QString &name, Phase phase)
{
    for (const RooflineOp &op : r.ops)
        if (op.name == name && op.phase == phase)
            return &op;
    return nullptr;
}

} // namespace

class TestRoofline final : public QObject
{
    Q_OBJECT

private slots:
    void ridge_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("bandwidth");
        // NVIDIA H100 datasheet (SXM5): 989.4 TFLOP/s dense BF16 (1979 with sparsity), 3.35 TB/s.
        QTest::newRow("h100-sxm") << QStringLiteral("h100-sxm") << 989.5e12 << 3.35e12;
        // NVIDIA A100 datasheet: 312 TFLOP/s BF16, 2039 GB/s (80GB SXM).
        QTest::newRow("a100-80gb-sxm") << QStringLiteral("a100-80gb-sxm") << 312e12 << 2.039e12;
        // Google Cloud TPU v4 docs: 275 TFLOP/s bf16, 1200 GB/s HBM.
        QTest::newRow("tpu-v4") << QStringLiteral("tpu-v4") << 275e12 << 1.2e12;
    }

    void ridge()
    {
        QFETCH(QString, gpu);
        QFETCH(double, peak);
        QFETCH(double, bandwidth);
        Scenario s;
        s.gpuId = gpu;
        const RooflineReport r = test::reportFor(s).roofline;
        QVERIFY(test::near(r.peakFlopsPerS, peak, 0.001));
        QCOMPARE(r.bandwidthBytesPerS, bandwidth);
        QCOMPARE(r.ridgeIntensity, r.peakFlopsPerS / r.bandwidthBytesPerS);
    }

    void everyOpConsistent_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("flash");
        QTest::newRow("gpt2-small") << QStringLiteral("gpt2-small") << false;
        QTest::newRow("gpt2-small flash") << QStringLiteral("gpt2-small") << true;
        QTest::newRow("llama3-8b") << QStringLiteral("llama3-8b") << false;
    }

    void everyOpConsistent()
    {
        QFETCH(QString, preset);
        QFETCH(bool, flash);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.flashAttention = flash;
        const RooflineReport r = test::reportFor(s).roofline;
        QVERIFY(r.ops.size() > 20);
        double step = 0;
        for (const RooflineOp &op : r.ops) {
            QVERIFY2(op.flops > 0 && op.bytes > 0, qPrintable(op.name));
            QCOMPARE(op.intensity, op.flops / op.bytes);
            QCOMPARE(op.attainableFlopsPerS, std::min(r.peakFlopsPerS, r.bandwidthBytesPerS * op.intensity));
            QCOMPARE(op.computeBound, op.intensity >= r.ridgeIntensity);
            QCOMPARE(op.seconds, std::max(op.flops / r.peakFlopsPerS, op.bytes / r.bandwidthBytesPerS));
            step += op.count * op.seconds;
        }
        QVERIFY(test::near(r.stepSeconds, step, 1e-12));
        QVERIFY(r.impliedMfu > 0 && r.impliedMfu <= 1);
    }

    void mlpFlipsWithBatch_data()
    {
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<bool>("computeBound");
        // gpt2-small MLP up (768 x 3072) at seq_len 1 on an H100 (ridge ~295 FLOP/byte):
        // intensity ~ T for small T tokens, so it crosses the ridge between 256 and 1024 tokens.
        QTest::newRow("batch 1") << qint64(1) << false;
        QTest::newRow("batch 16") << qint64(16) << false;
        QTest::newRow("batch 1024") << qint64(1024) << true;
        QTest::newRow("batch 16384") << qint64(16384) << true;
    }

    void mlpFlipsWithBatch()
    {
        QFETCH(qint64, batch);
        QFETCH(bool, computeBound);
        Scenario s = test::presetScenario("gpt2-small");
        s.seqLen = 1;
        s.microBatch = batch;
        const RooflineReport r = test::reportFor(s).roofline;
        for (const char *name : {"MLP up", "MLP down"}) {
            const RooflineOp *op = findOp(r, QLatin1String(name), Phase::Forward);
            QVERIFY(op);
            QCOMPARE(op->computeBound, computeBound);
        }
        const RooflineOp *softmax = findOp(r, QStringLiteral("softmax"), Phase::Forward);
        QVERIFY(softmax);
        QVERIFY(!softmax->computeBound);  // 5 FLOPs per 4 bytes at any batch
    }

    void intensityGrowsWithBatch()
    {
        Scenario s = test::presetScenario("llama2-7b");
        s.seqLen = 1;
        double previous = 0;
        for (qint64 b : {1, 4, 16, 64, 256}) {
            s.microBatch = b;
            const double i = findOp(test::reportFor(s).roofline, QStringLiteral("MLP gate + up"), Phase::Forward)->intensity;
            QVERIFY(i > previous);
            previous = i;
        }
    }

    void fp8RunsGemmsAtTheFp8Peak()
    {
        // FP8 as Transformer Engine and DeepSeek-V3 (Section 3.3) run it: the linear layers' GEMMs
        // at the fp8 peak, attention and everything else at bf16's. H100 SXM datasheet (dense):
        // 989.5 TFLOP/s bf16, 1979 TFLOP/s fp8.
        Scenario s = test::presetScenario("llama2-7b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        s.microBatch = 8;
        s.seqLen = 4096;
        const Report fp8 = test::reportFor(s);
        const RooflineReport &r = fp8.roofline;
        QCOMPARE(r.peakFlopsPerS, 989.5e12);
        QCOMPARE(r.peakDtype, QStringLiteral("bf16"));
        QCOMPARE(r.gemmPeakFlopsPerS, 1979e12);
        QCOMPARE(r.gemmPeakDtype, QStringLiteral("fp8"));
        QVERIFY(r.twoRoofs());
        QCOMPARE(r.gemmRidgeIntensity, 1979e12 / 3.35e12);
        const RooflineOp *gemm = findOp(r, QStringLiteral("MLP gate + up"), Phase::Forward);
        const RooflineOp *scores = findOp(r, QStringLiteral("attention scores QK^T"), Phase::Forward);
        QVERIFY(gemm && scores);
        QVERIFY(gemm->computeBound);
        QCOMPARE(gemm->attainableFlopsPerS, 1979e12);
        QCOMPARE(gemm->seconds, gemm->flops / 1979e12);
        // Attention's matmuls are not the linear layers: they stay under the bf16 roof.
        QVERIFY(scores->attainableFlopsPerS <= 989.5e12);
        // Nor is the LM head an FP8 GEMM: Megatron-Core's output layer is a plain
        // ColumnParallelLinear outside the FP8 autocast (megatron/core/models/gpt/gpt_model.py).
        const RooflineOp *head = findOp(r, QStringLiteral("LM head"), Phase::Forward);
        QVERIFY(head && gemm->gemmRoof && !head->gemmRoof);
        QCOMPARE(head->attainableFlopsPerS, 989.5e12);

        s.recipeId = QStringLiteral("bf16-mixed-adamw-fp32-grads");  // the same 2/4/12 state in bf16
        const Report bf16 = test::reportFor(s);
        QVERIFY(!bf16.roofline.twoRoofs());
        const RooflineOp *bf16Gemm = findOp(bf16.roofline, QStringLiteral("MLP gate + up"), Phase::Forward);
        QCOMPARE(bf16Gemm->seconds, 2 * gemm->seconds);  // compute-bound both ways: twice the peak, half the time
        // The bottom-up step: the GEMMs at twice the peak, each dtype at its own measured share of
        // it (H100 SXM: fp8 0.647, bf16 0.728, SemiAnalysis's GEMMs of Llama 70B training); the rest as long.
        QCOMPARE(fp8.step.matmulEfficiency, 0.647);
        QCOMPARE(bf16.step.matmulEfficiency, 0.728);
        // Each GEMM launch also pays the GPU's fixed time (5.7 us on sm_90), whatever its dtype;
        // a backward is two GEMMs (dX and dW), each launched.
        QCOMPARE(fp8.step.kernelFixedSeconds, 5.7e-6);
        double gemmLaunches = 0;
        double headSeconds = 0;  // at bf16's 989.5 x 0.728 both ways (compute-bound)
        for (const RooflineOp &op : fp8.roofline.ops) {
            if (op.kind == OpKind::Matmul && op.phase != Phase::Optimizer) {
                gemmLaunches += op.count * (op.phase == Phase::Backward ? 2 : 1);
                if (!op.gemmRoof)
                    headSeconds += op.count * op.flops / (989.5e12 * 0.728);
            }
        }
        QVERIFY(headSeconds > 0);
        const double gemmFixed = fp8.step.microBatches * gemmLaunches * 5.7e-6;
        const double headTime = fp8.step.microBatches * headSeconds;
        QVERIFY(gemmFixed > 0);
        QVERIFY(test::near((fp8.step.computeMatmul - gemmFixed - headTime) * 2 * 0.647 / 0.728,
                           bf16.step.computeMatmul - gemmFixed - headTime, 1e-12));
        QVERIFY(test::near(fp8.step.computeAttention, bf16.step.computeAttention, 1e-12));
        // Memory is the recipe's bytes, not its dtype: 2/4/12 both ways.
        QCOMPARE(fp8.memory.perGpu.total(), bf16.memory.perGpu.total());
        // Utilisation is quoted against the GEMMs' peak: a set MFU gives half the time under FP8.
        QCOMPARE(fp8.time.peakFlopsPerS, 1979e12);
        QVERIFY(test::near(fp8.time.secondsUtilization * 2, bf16.time.secondsUtilization, 1e-12));
        QVERIFY(fp8.step.estimatedMfu <= 1.0 && r.impliedMfu <= 1.0);
    }

    void fp8RefusedWithoutAnFp8Peak()
    {
        // The A100 datasheet lists no FP8 tensor rate: no time at another dtype's rate.
        Scenario s = test::presetScenario("llama2-7b");
        s.gpuId = QStringLiteral("a100-80gb-sxm");
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        const auto refused = computeReport(s, test::catalog());
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("recipe"));
        QVERIFY2(e.problem.contains(QLatin1String("runs its GEMMs in fp8")), qPrintable(e.problem));
        QVERIFY2(e.problem.contains(QLatin1String("h100-sxm")), qPrintable(e.problem));
        QVERIFY2(!e.problem.contains(QLatin1String("(a100-80gb-sxm")), qPrintable(e.problem));
    }

    void flashFusesAttention()
    {
        // Kernel fusion moves attention right on the roofline: same matmul FLOPs, far fewer bytes.
        Scenario s = test::presetScenario("gpt2-small");
        const RooflineReport plain = test::reportFor(s).roofline;
        s.flashAttention = true;
        const RooflineReport fused = test::reportFor(s).roofline;
        const RooflineOp *flash = findOp(fused, QStringLiteral("FlashAttention"), Phase::Forward);
        const RooflineOp *scores = findOp(plain, QStringLiteral("attention scores QK^T"), Phase::Forward);
        QVERIFY(flash && scores);
        // Unfused, QK^T writes the s x s scores to HBM and sits left of the ridge; fused, the
        // same FLOPs touch only Q, K, V and O and cross it.
        QVERIFY(!scores->computeBound);
        QVERIFY(flash->computeBound);
        QVERIFY(flash->intensity > scores->intensity);
        QVERIFY(fused.stepSeconds < plain.stepSeconds);
    }

    // Each module selective recompute names reruns its own forward kernels in the backward,
    // and the step pays for exactly those: Megatron-Core's layernorm module the block's two
    // norms, moe_act the routed experts' activation, mla_up_proj the latent up projections and
    // their RoPE (multi_latent_attention.py's qkv_up_proj_and_rope_apply), core_attn the
    // attention core, FlashAttention's forward kernel too (attention.py's
    // _checkpointed_attention_forward checkpoints whatever computes it).
    void recomputeModulesRerunTheirKernels_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("module");
        QTest::addColumn<QStringList>("rerun");
        QTest::newRow("llama3-8b, layernorm") << QStringLiteral("llama3-8b") << QStringLiteral("layernorm")
                                              << QStringList{QStringLiteral("RMSNorm (attention)"), QStringLiteral("RMSNorm (MLP)")};
        QTest::newRow("qwen3-30b-a3b, moe_act") << QStringLiteral("qwen3-30b-a3b") << QStringLiteral("moe_act")
                                                << QStringList{QStringLiteral("experts activation")};
        QTest::newRow("deepseek-v3, mla_up_proj")
            << QStringLiteral("deepseek-v3") << QStringLiteral("mla_up_proj")
            << QStringList{QStringLiteral("Q up projection"), QStringLiteral("KV up projection"), QStringLiteral("RoPE (Q, K)")};
        QTest::newRow("llama3-8b, core_attn") << QStringLiteral("llama3-8b") << QStringLiteral("core_attn")
                                              << QStringList{QStringLiteral("FlashAttention")};
    }

    void recomputeModulesRerunTheirKernels()
    {
        QFETCH(QString, preset);
        QFETCH(QString, module);
        QFETCH(QStringList, rerun);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.gpus = 1;
        s.microBatch = 1;
        s.seqLen = 2048;
        s.flashAttention = true;
        s.timeBasis = TimeBasis::Estimated;
        const Report nothing = test::reportFor(test::selectiveRecomputeOf(s, QString()));
        const Report chosen = test::reportFor(test::selectiveRecomputeOf(s, module));
        QStringList names;
        double seconds = 0;
        for (const RooflineOp &op : chosen.roofline.ops) {
            if (op.phase != Phase::Recompute)
                continue;
            if (!names.contains(op.name))
                names << op.name;
            const RooflineOp *forward = findOp(chosen.roofline, op.name, Phase::Forward);
            QVERIFY(forward);
            QCOMPARE(op.flops, forward->flops);
            QCOMPARE(op.bytes, forward->bytes);
            // Each at the step's rule: max(FLOPs / (peak x efficiency), bytes / (bandwidth x
            // the measured streaming efficiency)), GEMMs at the GEMM figure.
            const StepTimeReport &t = chosen.step;
            const double efficiency = op.kind == OpKind::Matmul                ? t.matmulEfficiency
                                      : op.name == QLatin1String("FlashAttention") ? t.attentionForwardEfficiency
                                                                                   : t.computeEfficiency;
            seconds += op.count * std::max(op.flops / (chosen.roofline.peakFlopsPerS * efficiency),
                                           op.bytes / (chosen.roofline.bandwidthBytesPerS * t.memoryEfficiency));
        }
        QCOMPARE(names, rerun);
        QVERIFY(std::none_of(nothing.roofline.ops.cbegin(), nothing.roofline.ops.cend(),
                             [](const RooflineOp &op) { return op.phase == Phase::Recompute; }));
        // One micro-batch on one GPU: the step grows by the rerun kernels' time and each one's
        // fixed launch time, nothing else.
        const double fixed = chosen.step.computeFixed - nothing.step.computeFixed;
        QVERIFY(fixed > 0);
        QVERIFY2(test::near(chosen.step.stepSeconds - nothing.step.stepSeconds, seconds + fixed, 1e-9),
                 qPrintable(QStringLiteral("%1 vs %2").arg(chosen.step.stepSeconds - nothing.step.stepSeconds).arg(seconds + fixed)));
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
