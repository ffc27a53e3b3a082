// Training FLOPs: Kaplan's 6ND and the detailed matmul count, with their published closed forms.
#include "core/workload/flops.h"
#include "core/model/modelshape.h"
#include "testsupport.h"

using namespace napkin;

class TestFlops final : public QObject
{
    Q_OBJECT

private slots:
    void sixNd_data()
    {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<double>("expected");
        // Kaplan et al. 2020, Section 2.1: C ~= 6 N per training token.
        QTest::newRow("source document N=124e6, D=300e9") << qint64(124'000'000) << 300e9 << 2.232e20;
        QTest::newRow("N=1e9, D=20e9") << qint64(1'000'000'000) << 20e9 << 1.2e20;
        QTest::newRow("N=7e9, D=2e12") << qint64(7'000'000'000) << 2e12 << 8.4e22;
    }

    void sixNd()
    {
        QFETCH(qint64, n);
        QFETCH(double, tokens);
        QFETCH(double, expected);
        Scenario s;
        s.paramsOverride = n;
        s.tokens = tokens;
        QCOMPARE(computeFlops(s).training6nd, expected);
    }

    void narayananClosedForm_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("seqLen");
        QTest::addColumn<qint64>("vocab");
        // Narayanan et al. 2021, Appendix (eq. 3 without recomputation): per sequence
        // F = 72 s l h^2 (1 + s/(6h) + V/(12 l h)) for a GPT with d_ff = 4h and full attention.
        QTest::newRow("gpt2-small s=1024") << QStringLiteral("gpt2-small") << qint64(1024) << qint64(50257);
        QTest::newRow("gpt2-xl s=1024") << QStringLiteral("gpt2-xl") << qint64(1024) << qint64(50257);
        QTest::newRow("gpt2-medium s=512") << QStringLiteral("gpt2-medium") << qint64(512) << qint64(50257);
    }

    void narayananClosedForm()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, seqLen);
        QFETCH(qint64, vocab);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.seqLen = seqLen;
        s.tokens = static_cast<double>(seqLen);  // one sequence
        const double sq = static_cast<double>(seqLen), l = static_cast<double>(s.model.layers);
        const double h = static_cast<double>(s.model.dModel), V = static_cast<double>(vocab);
        const double expected = 72 * sq * l * h * h * (1 + sq / (6 * h) + V / (12 * l * h));
        QVERIFY(test::near(computeFlops(s).trainingDetailed, expected, 1e-12));
    }

    void palmModelFlops_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("seqLen");
        // Chowdhery et al. 2022 (PaLM), Appendix B: model FLOPs per token = 6N + 12 L H Q T.
        // N counts every matmul weight (PaLM ties its embedding, so its N includes the head);
        // Napkin's detailed count differs only by norm weights (not matmuls).
        QTest::newRow("llama2-7b T=4096") << QStringLiteral("llama2-7b") << qint64(4096);
        QTest::newRow("llama3-8b T=8192") << QStringLiteral("llama3-8b") << qint64(8192);
        QTest::newRow("mistral-7b T=2048") << QStringLiteral("mistral-7b") << qint64(2048);
    }

    void palmModelFlops()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, seqLen);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.seqLen = seqLen;
        const ModelShape &m = s.model;
        const ParamBreakdown p = countParams(m);
        const double n = static_cast<double>(p.total - p.embedding);  // matmul weights incl. head
        const double palm = 6 * n + 12.0 * static_cast<double>(m.layers * m.heads * (m.dModel / m.heads) * seqLen);
        const double napkin = computeFlops(s).perTokenDetailed;
        QVERIFY2(test::near(napkin, palm, 1e-4), qPrintable(QStringLiteral("%1 vs %2").arg(napkin).arg(palm)));
    }

    void causalHalving()
    {
        Scenario s = test::presetScenario("gpt2-small");
        const FlopsReport full = computeFlops(s);
        s.causalHalving = true;
        const FlopsReport half = computeFlops(s);
        const double sq = static_cast<double>(s.seqLen);
        // Only QK^T and PV change, to s(s+1)/2 of s^2 entries.
        const double attnFull = full.forwardPerSequence.attentionScores + full.forwardPerSequence.attentionValues;
        const double attnHalf = half.forwardPerSequence.attentionScores + half.forwardPerSequence.attentionValues;
        QVERIFY(test::near(attnHalf, attnFull * (sq + 1) / (2 * sq), 1e-12));
        QCOMPARE(half.forwardPerSequence.mlp, full.forwardPerSequence.mlp);
        QCOMPARE(half.trainingDetailedCausal, full.trainingDetailedCausal);
        QVERIFY(half.perTokenDetailed < full.perTokenDetailed);
    }

    void slidingWindowAttention()
    {
        // gpt-oss (HF config: sliding_window 128, layer_types alternating sliding and full, 36
        // blocks of 64 heads of 64): at 4,096 tokens, 18 blocks score every pair (4096^2 per head
        // in the full convention) and 18 score 4096 x 128.
        Scenario s = test::presetScenario("gpt-oss-120b");
        s.seqLen = 4096;
        const ForwardMatmulFlops fw = computeFlops(s).forwardPerSequence;
        const double qk = 64 * 64;
        QCOMPARE(fw.attentionScores, 2 * qk * (18 * 4096.0 * 4096 + 18 * 4096.0 * 128));
        QCOMPARE(fw.attentionValues, fw.attentionScores);  // values as wide as the keys
        // Causal-halved: a windowed query sees min(i + 1, 128) keys.
        s.causalHalving = true;
        const ForwardMatmulFlops half = computeFlops(s).forwardPerSequence;
        QCOMPARE(half.attentionScores, 2 * qk * (18 * 4096.0 * 4097 / 2 + 18 * (128.0 * 129 / 2 + (4096 - 128) * 128.0)));
        // Mistral 7B v0.1's 4,096-token window on every block changes nothing until the
        // sequence is longer than the window.
        Scenario m = test::presetScenario("mistral-7b");
        m.seqLen = 4096;
        Scenario none = m;
        none.model.slidingWindow = 0;
        QCOMPARE(computeFlops(m).trainingDetailed, computeFlops(none).trainingDetailed);
        m.seqLen = none.seqLen = 16384;
        const ForwardMatmulFlops windowed = computeFlops(m).forwardPerSequence;
        QCOMPARE(windowed.attentionScores, 2 * 4096.0 * 32 * 16384.0 * 4096);
        QVERIFY(windowed.attentionScores < computeFlops(none).forwardPerSequence.attentionScores / 3.9);
        // The per-device workload's attention matmuls add up to the same count (one stage).
        const Report r = test::reportFor(m);
        double attention = 0;
        for (const RooflineOp &op : r.roofline.ops)
            if (op.kind == OpKind::Attention && op.phase == Phase::Forward)
                attention += op.count * op.matmulFlops;
        QVERIFY(test::near(attention * static_cast<double>(r.layout.microBatches),
                           (windowed.attentionScores + windowed.attentionValues) * static_cast<double>(m.microBatch)
                               * static_cast<double>(r.layout.microBatches),
                           1e-12));
    }

    void perStep()
    {
        Scenario s = test::presetScenario("gpt2-small");
        s.microBatch = 4;
        s.gpus = 16;
        const FlopsReport f = computeFlops(s);
        QCOMPARE(f.tokensPerStep, 4.0 * 1024 * 16);
        QCOMPARE(f.perStepDetailed, f.perTokenDetailed * 4 * 1024 * 16);
    }

    void recomputeHardwareFlops()
    {
        // Full recompute runs every block's forward again: 4 block passes + 3 LM-head passes
        // (Narayanan et al. 2021's 96Bslh^2 vs 72Bslh^2 for the blocks).
        Scenario s = test::presetScenario("gpt2-small");
        s.tokens = static_cast<double>(s.seqLen);
        s.recompute = Recompute::Full;
        const FlopsReport f = computeFlops(s);
        const ForwardMatmulFlops &fw = f.forwardPerSequence;
        QVERIFY(test::near(f.trainingHardware, 4 * (fw.total() - fw.lmHead) + 3 * fw.lmHead, 1e-12));
        QCOMPARE(f.trainingDetailed, 3 * fw.total());
        s.recompute = Recompute::Selective;
        const FlopsReport sel = computeFlops(s);
        QVERIFY(test::near(sel.trainingHardware, 3 * fw.total() + fw.attentionScores + fw.attentionValues, 1e-12));
        s.recompute = Recompute::None;
        QCOMPARE(computeFlops(s).trainingHardware, f.trainingDetailed);
    }

    // Megatron-Core's mla_up_proj module reruns multi-head latent attention's up projections
    // in the backward (multi_latent_attention.py, qkv_up_proj_and_rope_apply under its
    // qkv_up_checkpoint): DeepSeek-V3's Q up (1,536 -> 128 heads x 192) and KV up (512 -> 128 x
    // (128 + 128)), 2 x 54,525,952 FLOPs a token in each of its 61 blocks. The hardware FLOPs
    // count them; the model FLOPs do not. The norms and the experts' activation run no matmul.
    // The attention core (core_attn) reruns its forward QK^T and PV under FlashAttention too:
    // Megatron-Core checkpoints whatever kernel computes it (Attention._checkpointed_attention_forward).
    void recomputeModulesAddTheirMatmuls()
    {
        Scenario s = test::presetScenario("deepseek-v3");
        s.seqLen = 4096;
        s.tokens = static_cast<double>(s.seqLen);
        s.flashAttention = true;
        s.recompute = Recompute::Selective;
        const FlopsReport core = computeFlops(s);
        const ForwardMatmulFlops &fw = core.forwardPerSequence;
        QCOMPARE(core.recompute, fw.attentionScores + fw.attentionValues);
        s.recomputeCoreAttention = false;
        const FlopsReport plain = computeFlops(s);
        QCOMPARE(plain.recompute, 0.0);
        s.recomputeMlaUpProjection = true;
        const FlopsReport up = computeFlops(s);
        QCOMPARE(up.recompute, 61 * 2 * (1536.0 * 128 * 192 + 512.0 * 128 * 256) * 4096);
        QCOMPARE(up.trainingDetailed, plain.trainingDetailed);
        QCOMPARE(up.trainingHardware, plain.trainingHardware + up.recompute);
        s.recomputeNorms = true;
        s.recomputeMoeActivation = true;
        QCOMPARE(computeFlops(s).recompute, up.recompute);
        // Under no recompute the modules change nothing.
        s.recompute = Recompute::None;
        QCOMPARE(computeFlops(s).recompute, 0.0);
    }

    void backwardIsTwiceForward()
    {
        // Source document: forward 2N, backward 4N per token. Napkin: detailed = 3 x forward.
        Scenario s = test::presetScenario("llama2-7b");
        s.tokens = static_cast<double>(s.seqLen);
        const FlopsReport f = computeFlops(s);
        QVERIFY(test::near(f.trainingDetailed, 3 * f.forwardPerSequence.total(), 1e-12));
    }
};

QTEST_GUILESS_MAIN(TestFlops)
#include "tst_flops.moc"
