// Parameter counts against published totals: each row names the model card or paper.
#include "core/model/modelshape.h"
#include "testsupport.h"

using namespace napkin;

class TestParams final : public QObject
{
    Q_OBJECT

private slots:
    void presetTotals_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("published");
        // GPT-2: HF openai-community/gpt2* checkpoints (sum of tensor sizes), as listed in
        // keras-hub gpt2_presets.py; Radford et al. 2019 round them to 117M/345M/762M/1542M.
        QTest::newRow("gpt2-small, HF gpt2") << QStringLiteral("gpt2-small") << qint64(124'439'808);
        QTest::newRow("gpt2-medium, HF gpt2-medium") << QStringLiteral("gpt2-medium") << qint64(354'823'168);
        QTest::newRow("gpt2-large, HF gpt2-large") << QStringLiteral("gpt2-large") << qint64(774'030'080);
        QTest::newRow("gpt2-xl, HF gpt2-xl") << QStringLiteral("gpt2-xl") << qint64(1'557'611'200);
        // Llama 2 (Touvron et al. 2023): HF meta-llama/Llama-2-*-hf safetensors totals.
        QTest::newRow("llama2-7b, HF Llama-2-7b-hf") << QStringLiteral("llama2-7b") << qint64(6'738'415'616);
        QTest::newRow("llama2-13b, HF Llama-2-13b-hf") << QStringLiteral("llama2-13b") << qint64(13'015'864'320);
        QTest::newRow("llama2-70b, HF Llama-2-70b-hf") << QStringLiteral("llama2-70b") << qint64(68'976'648'192);
        // Llama 3 model card (meta-llama/Meta-Llama-3-*): safetensors totals.
        QTest::newRow("llama3-8b, HF Meta-Llama-3-8B") << QStringLiteral("llama3-8b") << qint64(8'030'261'248);
        QTest::newRow("llama3-70b, HF Meta-Llama-3-70B") << QStringLiteral("llama3-70b") << qint64(70'553'706'496);
        // Mistral 7B v0.1 (Jiang et al. 2023), HF mistralai/Mistral-7B-v0.1.
        QTest::newRow("mistral-7b, HF Mistral-7B-v0.1") << QStringLiteral("mistral-7b") << qint64(7'241'732'096);
        // Mixtral 8x7B (Jiang et al. 2024), HF mistralai/Mixtral-8x7B-v0.1 safetensors total.
        QTest::newRow("mixtral-8x7b, HF Mixtral-8x7B-v0.1") << QStringLiteral("mixtral-8x7b") << qint64(46'702'792'704);
        // Mixtral 8x22B, HF mistralai/Mixtral-8x22B-Instruct-v0.1 safetensors total (vocabulary 32768).
        QTest::newRow("mixtral-8x22b, HF Mixtral-8x22B-Instruct-v0.1") << QStringLiteral("mixtral-8x22b")
                                                                      << qint64(140'630'071'296);
        // Qwen3 (head_dim 128 apart from the width, QK-norm, untied): HF Qwen/Qwen3-* safetensors
        // totals (Qwen3-32B as keras-hub's qwen3_32b_en preset lists it).
        QTest::newRow("qwen3-8b, HF Qwen3-8B") << QStringLiteral("qwen3-8b") << qint64(8'190'735'360);
        QTest::newRow("qwen3-32b, HF Qwen3-32B") << QStringLiteral("qwen3-32b") << qint64(32'762'123'264);
        QTest::newRow("qwen3-30b-a3b, HF Qwen3-30B-A3B") << QStringLiteral("qwen3-30b-a3b") << qint64(30'532'122'624);
        QTest::newRow("qwen3-235b-a22b, HF Qwen3-235B-A22B") << QStringLiteral("qwen3-235b-a22b")
                                                             << qint64(235'093'634'560);
        // DeepSeek-V3 README_WEIGHTS: 671B main model weights (the checkpoint's 685B adds the
        // 14B multi-token-prediction module); exact over the main model's tensors.
        QTest::newRow("deepseek-v3, 671B main model") << QStringLiteral("deepseek-v3") << qint64(671'026'419'200);
        // Llama 3.1 405B: HF meta-llama/Llama-3.1-405B safetensors total (Dubey et al. 2024's "405B").
        QTest::newRow("llama3.1-405b, HF Llama-3.1-405B") << QStringLiteral("llama3.1-405b") << qint64(405'853'388'800);
        // gpt-oss (linear biases, attention sinks, untied): the config's tensors summed, which the
        // model card (arXiv 2508.10925, Table 1) prints as 116.83B and 20.91B.
        QTest::newRow("gpt-oss-120b, 116.83B") << QStringLiteral("gpt-oss-120b") << qint64(116'829'156'672);
        QTest::newRow("gpt-oss-20b, 20.91B") << QStringLiteral("gpt-oss-20b") << qint64(20'914'757'184);
    }

    void presetTotals()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, published);
        const ModelPreset *p = test::catalog().findPreset(preset);
        QVERIFY2(p, qPrintable(preset));
        QCOMPARE(countParams(p->shape).total, published);
        QCOMPARE(p->publishedParams, published);
    }

    void activeParams_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("active");
        // Mixtral 8x7B: 13B active in Jiang et al. 2024 (2 of 8 experts per token); exactly the
        // embedding and head, attention, norms, the router and two experts of each block.
        QTest::newRow("mixtral-8x7b, 2 of 8 experts") << QStringLiteral("mixtral-8x7b") << qint64(12'879'925'248);
        // Qwen3 MoE cards: "3.3B activated" and "22B activated" (8 of 128 experts; these exact
        // figures count the embedding and the head, the only reading that gives both).
        QTest::newRow("qwen3-30b-a3b, 8 of 128 experts") << QStringLiteral("qwen3-30b-a3b") << qint64(3'353'032'704);
        QTest::newRow("qwen3-235b-a22b, 8 of 128 experts") << QStringLiteral("qwen3-235b-a22b") << qint64(22'190'763'520);
        // DeepSeek-V3 technical report: 37B activated per token (8 of 256 routed experts, the
        // shared one, the first 3 dense blocks), the embedding and head included.
        QTest::newRow("deepseek-v3, 37B activated") << QStringLiteral("deepseek-v3") << qint64(37'552'297'472);
        // A dense model's active count is its total (HF Meta-Llama-3-8B).
        QTest::newRow("llama3-8b, dense") << QStringLiteral("llama3-8b") << qint64(8'030'261'248);
    }

    void activeParams()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, active);
        const ModelPreset *p = test::catalog().findPreset(preset);
        QVERIFY2(p, qPrintable(preset));
        const ParamBreakdown count = countParams(p->shape);
        QCOMPARE(count.active, active);
        QCOMPARE(count.activeNonEmbedding, count.active - count.embedding - count.lmHead);
        if (p->publishedActiveParams)
            QCOMPARE(*p->publishedActiveParams, active);
    }

    void nonEmbeddingAsTheCardsGiveIt_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("billions");
        // Qwen3 model cards, "Number of Parameters (Non-Embedding)", to the digit they print.
        QTest::newRow("qwen3-32b, 31.2B") << QStringLiteral("qwen3-32b") << 31.2;
        QTest::newRow("qwen3-30b-a3b, 29.9B") << QStringLiteral("qwen3-30b-a3b") << 29.9;
        QTest::newRow("qwen3-235b-a22b, 234B") << QStringLiteral("qwen3-235b-a22b") << 234.0;
    }

    void nonEmbeddingAsTheCardsGiveIt()
    {
        QFETCH(QString, preset);
        QFETCH(double, billions);
        const ParamBreakdown p = countParams(test::catalog().findPreset(preset)->shape);
        const double digits = billions >= 100 ? 1 : 10;  // 234B, 31.2B
        QCOMPARE(std::round(static_cast<double>(p.nonEmbedding) / 1e9 * digits) / digits, billions);
    }

    void gptOssAsItsCardCountsIt_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("active");
        // OpenAI 2025, gpt-oss model card (arXiv 2508.10925), Table 1, to the digit it prints. Its
        // active count leaves the input embedding out (a lookup) and keeps the unembedding.
        QTest::newRow("gpt-oss-120b: 116.83B total, 5.13B active") << QStringLiteral("gpt-oss-120b") << 116.83 << 5.13;
        QTest::newRow("gpt-oss-20b: 20.91B total, 3.61B active") << QStringLiteral("gpt-oss-20b") << 20.91 << 3.61;
    }

    void gptOssAsItsCardCountsIt()
    {
        QFETCH(QString, preset);
        QFETCH(double, total);
        QFETCH(double, active);
        const ParamBreakdown p = countParams(test::catalog().findPreset(preset)->shape);
        QCOMPARE(std::round(static_cast<double>(p.total) / 1e7) / 100, total);
        QCOMPARE(std::round(static_cast<double>(p.active - p.embedding) / 1e7) / 100, active);
    }

    void shapeSwitchesNameWhatThePresetsSet()
    {
        // HF configs: gpt-oss (64 heads of 64 on a 2880-wide model, attention biases, sinks,
        // sliding_window 128 on alternate layers),
        // DeepSeek-V3 (q_lora_rank 1536, kv_lora_rank 512, qk_rope_head_dim 64), Qwen3 (head_dim
        // 128 beside a 4096-wide model only for the 32B and MoE shapes, q_norm / k_norm).
        QCOMPARE(shapeSwitches(test::catalog().findPreset(QStringLiteral("gpt-oss-120b"))->shape),
                 QStringList({QStringLiteral("head_dim 64"), QStringLiteral("linear biases"), QStringLiteral("attention sinks"),
                              QStringLiteral("sliding window 128 (every 2nd block full)")}));
        const QStringList deepseek = shapeSwitches(test::catalog().findPreset(QStringLiteral("deepseek-v3"))->shape);
        QVERIFY2(deepseek.contains(QStringLiteral("latent attention (q 1536, kv 512, RoPE 64)")), qPrintable(deepseek.join(u'|')));
        QVERIFY(shapeSwitches(test::catalog().findPreset(QStringLiteral("qwen3-8b"))->shape).contains(QStringLiteral("QK-norm")));
        QVERIFY(shapeSwitches(test::catalog().findPreset(QStringLiteral("llama3-8b"))->shape).isEmpty());
    }

    void gptOssBlock()
    {
        // HF GptOssForCausalLM, one block of gpt-oss-120b: q_proj 4096x2880 + 4096, k_proj and
        // v_proj 512x2880 + 512, o_proj 2880x4096 + 2880, sinks 64; router 128x2880 + 128; 128
        // experts of gate_up_proj 2880x5760 + 5760 and down_proj 2880x2880 + 2880.
        const ParamBreakdown p = countParams(test::catalog().findPreset(QStringLiteral("gpt-oss-120b"))->shape);
        QCOMPARE(p.perLayer.attention, qint64(11'800'576 + 2 * 1'475'072 + 11'799'360 + 64));
        QCOMPARE(p.perLayer.router, qint64(368'768));
        QCOMPARE(p.perLayer.routedExperts, qint64(128) * (16'594'560 + 8'297'280));
        QCOMPARE(p.perLayer.mlpActive, qint64(368'768) + 4 * (16'594'560 + 8'297'280));
        QCOMPARE(p.perLayer.norms, qint64(2 * 2880));
        QCOMPARE(p.lmHead, qint64(201'088) * 2880);
    }

    void moeBreakdown()
    {
        // Mixtral 8x7B, HF MixtralForCausalLM tensors per layer: q/o 4096x4096, k/v 1024x4096,
        // gate 8x4096 (router), 8 experts of w1/w3 14336x4096 and w2 4096x14336, two RMSNorm 4096.
        const ParamBreakdown p = countParams(test::catalog().findPreset(QStringLiteral("mixtral-8x7b"))->shape);
        QCOMPARE(p.perLayer.attention, qint64(41'943'040));
        QCOMPARE(p.perLayer.router, qint64(32'768));
        QCOMPARE(p.perLayer.routedExperts, qint64(8) * 3 * 4096 * 14336);
        QCOMPARE(p.perLayer.mlp, p.perLayer.router + p.perLayer.routedExperts);
        QCOMPARE(p.perLayer.mlpActive, p.perLayer.router + qint64(2) * 3 * 4096 * 14336);
        QCOMPARE(p.perLayer.norms, qint64(8192));
    }

    void deepSeekV3Blocks()
    {
        // HF DeepseekV3 tensors per layer: MLA q_a_proj 1536x7168, q_a_layernorm 1536,
        // q_b_proj 24576x1536 (128 heads x (128 + 64)), kv_a_proj_with_mqa 576x7168 (512 + 64),
        // kv_a_layernorm 512, kv_b_proj 32768x512 (128 x (128 + 128)), o_proj 7168x16384.
        const ParamBreakdown p = countParams(test::catalog().findPreset(QStringLiteral("deepseek-v3"))->shape);
        QCOMPARE(p.perLayer.attention, qint64(11'010'048 + 1'536 + 37'748'736 + 4'128'768 + 512 + 16'777'216 + 117'440'512));
        // MoE blocks: gate 256x7168 + e_score_correction_bias 256, 256 experts and 1 shared of
        // 3 x 7168 x 2048; the first 3 blocks: a dense MLP of 3 x 7168 x 18432.
        QCOMPARE(p.perLayer.router, qint64(1'835'008 + 256));
        QCOMPARE(p.perLayer.routedExperts, qint64(256) * 3 * 7168 * 2048);
        QCOMPARE(p.perLayer.mlp, p.perLayer.router + p.perLayer.routedExperts + qint64(3) * 7168 * 2048);
        QCOMPARE(p.denseLayer.mlp, qint64(3) * 7168 * 18432);
        QCOMPARE(p.perLayer.norms, qint64(2 * 7168));
        // The multi-token prediction module, apart from the 671B: the checkpoint's layer 61 is
        // 13,463,426,304 with its copies of the embedding and head (2 x 129280 x 7168); without
        // them, enorm + hnorm + eh_proj 7168 x 14336 + one MoE block + shared_head.norm.
        QCOMPARE(p.mtp, qint64(13'463'426'304) - 2 * qint64(926'679'040));
        QCOMPARE(p.total, qint64(671'026'419'200));
    }

    void breakdown_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("embedding");
        QTest::addColumn<qint64>("lmHead");
        QTest::addColumn<qint64>("perLayer");
        QTest::addColumn<qint64>("attention");
        QTest::addColumn<qint64>("mlp");
        // GPT-2 small, HF GPT2Model tensors: wte 50257x768 + wpe 1024x768; per block
        // c_attn 768x2304+2304, c_proj 768x768+768, c_fc 768x3072+3072, mlp c_proj 3072x768+768,
        // ln_1/ln_2 2x(768+768).
        QTest::newRow("gpt2-small") << QStringLiteral("gpt2-small") << qint64(38'597'376 + 786'432) << qint64(0)
                                    << qint64(7'087'872) << qint64(2'362'368) << qint64(4'722'432);
        // Llama 2 7B, HF LlamaForCausalLM tensors: embed_tokens and lm_head 32000x4096; per
        // layer q/k/v/o 4096x4096, gate/up 11008x4096, down 4096x11008, two RMSNorm 4096.
        QTest::newRow("llama2-7b") << QStringLiteral("llama2-7b") << qint64(131'072'000) << qint64(131'072'000)
                                   << qint64(202'383'360) << qint64(67'108'864) << qint64(135'266'304);
        // Llama 2 70B GQA (8 kv heads of 128): q/o 8192x8192, k/v 1024x8192 each.
        QTest::newRow("llama2-70b") << QStringLiteral("llama2-70b") << qint64(262'144'000) << qint64(262'144'000)
                                    << qint64(855'654'400) << qint64(150'994'944) << qint64(704'643'072);
    }

    void breakdown()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, embedding);
        QFETCH(qint64, lmHead);
        QFETCH(qint64, perLayer);
        QFETCH(qint64, attention);
        QFETCH(qint64, mlp);
        const ParamBreakdown p = countParams(test::catalog().findPreset(preset)->shape);
        QCOMPARE(p.embedding, embedding);
        QCOMPARE(p.lmHead, lmHead);
        QCOMPARE(p.perLayer.total(), perLayer);
        QCOMPARE(p.perLayer.attention, attention);
        QCOMPARE(p.perLayer.mlp, mlp);
        QCOMPARE(p.nonEmbedding, p.total - p.embedding - p.lmHead);
    }

    void kaplanNonEmbedding()
    {
        // Kaplan et al. 2020, eq. 2.1: N ~= 2 d_model n_layer (2 d_attn + d_ff) = 12 n_layer d^2
        // for d_ff = 4d; GPT-2 small's exact non-embedding count is within 0.2% of it.
        const ParamBreakdown p = countParams(test::catalog().findPreset(QStringLiteral("gpt2-small"))->shape);
        const double kaplan = 12.0 * 12 * 768 * 768;
        QVERIFY(test::near(static_cast<double>(p.nonEmbedding), kaplan, 0.002));
    }

    void paramsOverride()
    {
        Scenario s;
        s.paramsOverride = 124'000'000;
        const ParamBreakdown p = scenarioParams(s);
        QCOMPARE(p.total, qint64(124'000'000));
        QCOMPARE(p.nonEmbedding, qint64(124'000'000));
        QCOMPARE(p.embedding, qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestParams)
#include "tst_params.moc"
