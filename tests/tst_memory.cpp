// Memory per GPU: recipes' bytes per parameter, ZeRO sharding, activations, fit and max batch.
#include "core/run/memory.h"
#include "testsupport.h"

using namespace napkin;

class TestMemory final : public QObject
{
    Q_OBJECT

private slots:
    void recipes_data()
    {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<double>("weights");
        QTest::addColumn<double>("grads");
        QTest::addColumn<double>("optimizer");
        // Source document / ZeRO Section 3.1 (K = 12): 2 + 2 + 12 = 16 B/param.
        QTest::newRow("bf16-mixed-adamw, source document") << QStringLiteral("bf16-mixed-adamw") << 2.0 << 2.0 << 12.0;
        // Megatron-LM distributed-optimizer docs: bf16 params + fp32 grads = 18 B/param.
        QTest::newRow("bf16-mixed-adamw-fp32-grads, Megatron-LM") << QStringLiteral("bf16-mixed-adamw-fp32-grads") << 2.0 << 4.0 << 12.0;
        // Kingma & Ba 2015: two fp32 moments next to fp32 weights and grads.
        QTest::newRow("fp32-adamw") << QStringLiteral("fp32-adamw") << 4.0 << 4.0 << 8.0;
        QTest::newRow("bf16-adamw (pure bf16)") << QStringLiteral("bf16-adamw") << 2.0 << 2.0 << 4.0;
        QTest::newRow("fp32-sgd-momentum") << QStringLiteral("fp32-sgd-momentum") << 4.0 << 4.0 << 4.0;
        // DeepSeek-V3 Section 3.3.2: bf16 moments (2 + 2), fp32 master (4) and fp32 grads.
        QTest::newRow("bf16-mixed-adamw-bf16-moments, DeepSeek-V3") << QStringLiteral("bf16-mixed-adamw-bf16-moments")
                                                                    << 2.0 << 4.0 << 8.0;
        // NeMo's performance recipes: FP8 GEMMs with the gradient buffer in bf16 (grad_reduce_in_fp32 = False),
        // against Megatron-LM's fp32 main_grad under the plain FP8 recipe.
        QTest::newRow("fp8-mixed-adamw, fp32 main_grad") << QStringLiteral("fp8-mixed-adamw") << 2.0 << 4.0 << 12.0;
        QTest::newRow("fp8-mixed-adamw-bf16-grads, NeMo") << QStringLiteral("fp8-mixed-adamw-bf16-grads") << 2.0 << 2.0
                                                          << 12.0;
        // Dettmers et al. 2022: two 8-bit states with an fp32 absmax per 2048-value block, fp32 master.
        QTest::newRow("bf16-mixed-adamw-8bit, bitsandbytes") << QStringLiteral("bf16-mixed-adamw-8bit") << 2.0 << 2.0
                                                              << 4 + 2 * (1 + 4.0 / 2048);
    }

    void recipes()
    {
        QFETCH(QString, recipe);
        QFETCH(double, weights);
        QFETCH(double, grads);
        QFETCH(double, optimizer);
        const auto r = findRecipe(recipe);
        QVERIFY(r);
        const MemoryBreakdown m = modelStateBytes(1e9, *r, 0, 1);
        QCOMPARE(m.params, weights * 1e9);
        QCOMPARE(m.grads, grads * 1e9);
        QCOMPARE(m.optimizerAndMasterWeights, optimizer * 1e9);
    }

    void zeroSharding_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("params");
        QTest::addColumn<double>("grads");
        QTest::addColumn<double>("optimizer");
        // Rajbhandari et al. 2019, Section 5: stage 1 (P_os) divides optimizer state by N_d,
        // stage 2 (P_os+g) also gradients, stage 3 (P_os+g+p) also parameters. 1e9 params, 8 GPUs.
        QTest::newRow("stage 0") << 0 << 2e9 << 2e9 << 12e9;
        QTest::newRow("stage 1") << 1 << 2e9 << 2e9 << 1.5e9;
        QTest::newRow("stage 2") << 2 << 2e9 << 0.25e9 << 1.5e9;
        QTest::newRow("stage 3") << 3 << 0.25e9 << 0.25e9 << 1.5e9;
    }

    void zeroSharding()
    {
        QFETCH(int, stage);
        QFETCH(double, params);
        QFETCH(double, grads);
        QFETCH(double, optimizer);
        const MemoryBreakdown m = modelStateBytes(1e9, *findRecipe(QStringLiteral("bf16-mixed-adamw")), stage, 8);
        QCOMPARE(m.params, params);
        QCOMPARE(m.grads, grads);
        QCOMPARE(m.optimizerAndMasterWeights, optimizer);
    }

    void zeroOffloadTrains13BOnOneV100()
    {
        // Ren et al. 2021 (ZeRO-Offload), abstract and Section 4.1: a 13B-parameter model trains on
        // one 32 GB V100, with the fp16 parameters on the GPU and the fp32 master weights, both
        // Adam moments and the gradients (12 + 2 bytes per parameter) in CPU memory.
        Scenario s = test::presetScenario("llama2-13b");
        s.gpuId = QStringLiteral("v100-sxm2-32gb");
        s.gpus = 1;
        s.zeroStage = 1;
        s.microBatch = 1;
        s.seqLen = 1024;
        s.recompute = Recompute::Full;
        const Report kept = test::reportFor(s);
        QVERIFY(!kept.memory.fits);  // 16 bytes per parameter: 208 GB
        s.offload = Offload::Optimizer;
        const Report off = test::reportFor(s);
        const double n = static_cast<double>(off.params.total);
        QCOMPARE(off.memory.perGpu.params, 2 * n);
        QCOMPARE(off.memory.perGpu.grads, 0.0);
        QCOMPARE(off.memory.perGpu.optimizerAndMasterWeights, 0.0);
        QCOMPARE(off.memory.perGpu.cpu, (2 + 12) * n);
        QCOMPARE(off.memory.cpuPerNode, (2 + 12) * n);  // one GPU: its node holds one share
        QVERIFY2(off.memory.fits, qPrintable(QString::number(off.memory.perGpu.total())));
        // What crosses PCIe once per step: the gradients down, the updated fp16 parameters back,
        // each 2 bytes per parameter, over the V100's PCIe gen 3 x16 (15.75 GB/s).
        double down = 0, up = 0;
        for (const CommOp &op : off.step.comm) {
            if (op.group != CommGroup::Host)
                continue;
            QCOMPARE(op.linkId, QStringLiteral("pcie3-x16"));
            (op.name.contains(QLatin1String("grads")) ? down : up) += op.tensorBytes * op.count;
        }
        QCOMPARE(down, 2 * n);
        QCOMPARE(up, 2 * n);
        QVERIFY(off.step.hostExposed > 2 * n / 15.754e9 * 0.999);  // the upload waits for the CPU's step
    }

    void infinityOffloadsParametersAtZero3()
    {
        // Rajbhandari et al. 2021 (ZeRO-Infinity): parameters in CPU memory too, needing ZeRO-3;
        // each GPU keeps one gathered block (FrameworkOverheads), and refuses stage 1 by name.
        Scenario s = test::presetScenario("llama3-70b");
        s.gpus = 8;
        s.zeroStage = 3;
        s.offload = Offload::Params;
        const Report r = test::reportFor(s);
        const double share = static_cast<double>(r.params.total) / 8;
        QCOMPARE(r.memory.perGpu.params, 0.0);
        QVERIFY(test::near(r.memory.perGpu.cpu, share * 16, 1e-12));
        QVERIFY(r.memory.perGpu.overheads > 0);
        QCOMPARE(r.memory.cpuPerNode, r.memory.perGpu.cpu * 8);
        s.zeroStage = 1;
        const auto refused = computeReport(s, test::catalog());
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("offload"));
        QVERIFY(e.problem.contains(QLatin1String("ZeRO stage 3")));
    }

    void activations_data()
    {
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<double>("perLayer");
        // GPT-2 small shape with dropout (as the paper's GPT models train), s = 1024, b = 8,
        // h = 768, a = 12, d_ff = 4h. Korthikanti et al. 2022 Table 2:
        const double sbh = 1024.0 * 8 * 768;
        const double as2b = 12.0 * 1024 * 1024 * 8;
        QTest::newRow("none: sbh(34 + 5as/h)") << 0 << false << QStringLiteral("bf16-mixed-adamw") << sbh * (34 + 5.0 * 12 * 1024 / 768);
        QTest::newRow("selective: 34sbh") << 1 << false << QStringLiteral("bf16-mixed-adamw") << sbh * 34;
        QTest::newRow("full: 2sbh") << 2 << false << QStringLiteral("bf16-mixed-adamw") << sbh * 2;
        // FlashAttention (Dao et al. 2022) stores no s x s matrix, only an fp32 log-sum-exp per
        // query row and head (FlashAttention-2, Algorithm 1, output L): 4asb.
        QTest::newRow("flash: 34sbh + 4asb") << 0 << true << QStringLiteral("bf16-mixed-adamw") << sbh * 34 + 4.0 * 12 * 1024 * 8;
        // At 4-byte activations the 2-byte tensors double but the three 1-byte dropout masks
        // (2sbh + as^2b, Korthikanti Section 4.1) stay 1 byte: 66sbh + 9as^2b.
        QTest::newRow("fp32 none") << 0 << false << QStringLiteral("fp32-adamw") << sbh * 66 + as2b * 9;
    }

    void activations()
    {
        QFETCH(int, recompute);
        QFETCH(bool, flash);
        QFETCH(QString, recipe);
        QFETCH(double, perLayer);
        Scenario s = test::presetScenario("gpt2-small");
        s.recompute = static_cast<Recompute>(recompute);
        s.flashAttention = flash;
        s.dropout = true;
        const ActivationBreakdown a = activationBytes(s, *findRecipe(recipe), 8);
        QCOMPARE(a.perLayer, perLayer);
        QCOMPARE(a.layers, 12 * perLayer);
        // Korthikanti Section 4.3: final norm and LM head inputs 2 x 2sbh (at the recipe's
        // bytes) + 4sbv fp32 logits; the embedding dropout mask sbh; and the int64 token ids
        // 8sb that Megatron-LM's theoretical_memory_usage adds.
        const double bytes = findRecipe(recipe)->activationBytes;
        const double sb = 1024.0 * 8;
        QCOMPARE(a.head, 2 * bytes * sb * 768 + 4 * sb * 50257);
        QCOMPARE(a.embedding, 8 * sb + sb * 768);
        QCOMPARE(a.outputLayer, a.head + a.embedding);
    }

    void activationsFollowShape_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<double>("perLayerOverSbh");
        // Selective recompute, so Table 2's 34sbh row term by term: norm inputs 2 + 2, QKV input
        // 2, Q and K 4, V 2, output-projection input 2, MLP input 2, dropout masks 1 + 1, and the
        // MLP's inner tensors at d_ff: GELU input and down input 2 x 2 d_ff/h; SwiGLU's fused
        // gate-and-up output 2 x 2 d_ff/h and the down input 2 d_ff/h.
        // GPT-2 small, d_ff = 4h, dropout: 18 + 16 = 34, the paper's figure.
        QTest::newRow("gpt2-small, dropout") << QStringLiteral("gpt2-small") << true << 34.0;
        QTest::newRow("gpt2-small, no dropout") << QStringLiteral("gpt2-small") << false << 32.0;
        // Llama 2 7B (MHA, d_ff 11008 = 2.6875h, SwiGLU, no dropout): 16 + 6 x 2.6875 = 32.125.
        // Megatron-LM's 18 + 4 d_ff/h = 28.75 keeps the masks and leaves SwiGLU's third tensor out.
        QTest::newRow("llama2-7b") << QStringLiteral("llama2-7b") << false << 16 + 6 * 11008.0 / 4096;
        // Llama 3 8B (GQA: 8 of 32 heads, so K and V are h/4 wide; d_ff 14336 = 3.5h):
        // 2 + 2 + 2 + (2 + 2 x 2/4) + 2 + 2 + 6 x 3.5 = 34.
        QTest::newRow("llama3-8b") << QStringLiteral("llama3-8b") << false << 2 + 2 + 2 + 3.0 + 2 + 2 + 6 * 3.5;
    }

    void activationsFollowShape()
    {
        QFETCH(QString, preset);
        QFETCH(bool, dropout);
        QFETCH(double, perLayerOverSbh);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.recompute = Recompute::Selective;
        s.dropout = dropout;
        s.seqLen = 1024;
        const ActivationBreakdown a = activationBytes(s, *findRecipe(QStringLiteral("bf16-mixed-adamw")), 1);
        QCOMPARE(a.perLayer / (1024.0 * static_cast<double>(s.model.dModel)), perLayerOverSbh);
    }

    // Megatron-Core's --recompute-modules under selective recompute: each module reruns its
    // forward in the backward and drops the outputs it made (megatron/core/transformer/
    // transformer_layer.py's layernorm checkpoints, moe/experts.py's moe_act checkpoint,
    // multi_latent_attention.py's qkv_up_checkpoint, each a CheckpointWithoutOutput). Per
    // block, over s·b·h at 2-byte tensors, beside the same selective recompute of nothing:
    //  - layernorm: the two norms' outputs, Table 2's QKV input and MLP input (Korthikanti et
    //    al. 2022): 2 + 2;
    //  - moe_act: the routed experts' activation output, the down projections' input, k rows a
    //    token at the expert width: 2 x 8 x 768 / 2048 = 6 for Qwen3-30B-A3B, 2 x 8 x 2048 / 7168
    //    for DeepSeek-V3 (its shared expert is not moe_act's);
    //  - mla_up_proj: multi-head latent attention's queries, keys and values, 128 heads of
    //    128 + 64, 128 + 64 and 128 for DeepSeek-V3: 2 x 65,536 / 7,168.
    // Each row also holds for the dense blocks of a Mixture-of-Experts model where it applies.
    void recomputeModulesDropWhatTheyRerun_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("module");
        QTest::addColumn<double>("droppedOverSbh");
        QTest::newRow("llama3-8b, layernorm") << QStringLiteral("llama3-8b") << QStringLiteral("layernorm") << 4.0;
        QTest::newRow("gpt2-small, layernorm") << QStringLiteral("gpt2-small") << QStringLiteral("layernorm") << 4.0;
        QTest::newRow("qwen3-30b-a3b, moe_act") << QStringLiteral("qwen3-30b-a3b") << QStringLiteral("moe_act")
                                                << 2 * 8 * 768.0 / 2048;
        QTest::newRow("deepseek-v3, mla_up_proj") << QStringLiteral("deepseek-v3") << QStringLiteral("mla_up_proj")
                                                  << 2 * 128 * (192 + 192 + 128.0) / 7168;
        QTest::newRow("deepseek-v3, layernorm") << QStringLiteral("deepseek-v3") << QStringLiteral("layernorm") << 4.0;
        // The routed experts' alone (8 of 2,048 wide a token); the shared expert keeps its own.
        QTest::newRow("deepseek-v3, moe_act") << QStringLiteral("deepseek-v3") << QStringLiteral("moe_act")
                                              << 2 * 8 * 2048.0 / 7168;
    }

    void recomputeModulesDropWhatTheyRerun()
    {
        QFETCH(QString, preset);
        QFETCH(QString, module);
        QFETCH(double, droppedOverSbh);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.seqLen = 1024;
        s.flashAttention = true;
        s = test::selectiveRecomputeOf(s, QString());
        const Recipe recipe = *findRecipe(QStringLiteral("bf16-mixed-adamw"));
        const ActivationBreakdown nothing = activationBytes(s, recipe, 1);
        Scenario chosen = test::selectiveRecomputeOf(s, module);
        const ActivationBreakdown a = activationBytes(chosen, recipe, 1);
        const double sbh = 1024.0 * static_cast<double>(s.model.dModel);
        QCOMPARE((nothing.perLayer - a.perLayer) / sbh, droppedOverSbh);
        // A Mixture-of-Experts model's dense blocks have no experts; their norms and attention
        // drop alike.
        if (s.model.denseLayers > 0)
            QCOMPARE((nothing.perDenseLayer - a.perDenseLayer) / sbh,
                     module == QLatin1String("moe_act") ? 0.0 : droppedOverSbh);
        // The modules apply under selective recompute only: with none, nothing is dropped.
        chosen.recompute = Recompute::None;
        s.recompute = Recompute::None;
        QCOMPARE(activationBytes(chosen, recipe, 1).perLayer, activationBytes(s, recipe, 1).perLayer);
        // And a module a model does not have drops nothing (a dense model has no experts, a
        // model without MLA no latent up projections).
        Scenario dense = test::presetScenario("llama3-8b");
        dense.recompute = Recompute::Selective;
        Scenario modules = dense;
        modules.recomputeMoeActivation = true;
        modules.recomputeMlaUpProjection = true;
        QCOMPARE(activationBytes(modules, recipe, 1).perLayer, activationBytes(dense, recipe, 1).perLayer);
    }

    void pytorchModel_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("seqLen");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<double>("perLayer");
        QTest::addColumn<double>("outside");
        // tests/validation/ACTIVATION_MODEL.md, worked values, bf16, batch 1, no recompute,
        // measured to the byte on PyTorch 1.13; GPU conventions (fp32 LayerNorm statistics,
        // mean() not keeping its input). LLaMA-7B row as printed there; GPT-2 small = the
        // printed CPU row + 2 x 2sb per LayerNorm for the fp32 statistics.
        QTest::newRow("LLaMA-7B s=2048, no dropout") << QStringLiteral("llama2-7b") << qint64(2048) << false
                                                     << 1'187'004'416.0 << 330'342'404.0;
        QTest::newRow("GPT-2 small s=1024, dropout") << QStringLiteral("gpt2-small") << qint64(1024) << true
                                                     << 89'661'440.0 + 2 * 4096 << 209'805'316.0 + 4096;
    }

    void pytorchModel()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, seqLen);
        QFETCH(bool, dropout);
        QFETCH(double, perLayer);
        QFETCH(double, outside);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.seqLen = seqLen;
        s.dropout = dropout;
        s.activationModel = ActivationModel::PyTorch;
        const ActivationBreakdown a = activationBytes(s, *findRecipe(QStringLiteral("bf16-mixed-adamw")), 1);
        QCOMPARE(a.perLayer, perLayer);
        QCOMPARE(a.outputLayer, outside);
    }

    void korthikantiOwnRegimeMatchesPyTorch()
    {
        // ACTIVATION_MODEL.md: in Korthikanti's own setting (GPT-2 layout, d_ff = 4d, 2-byte
        // activations, dropout) the measured block is sbh(34 + 5as/h) plus the LayerNorm
        // statistics the paper leaves out (2 LayerNorms x 2 fp32 values per token).
        Scenario s = test::presetScenario("gpt2-small");
        s.dropout = true;
        const Recipe r = *findRecipe(QStringLiteral("bf16-mixed-adamw"));
        const double korthikanti = activationBytes(s, r, 1, ActivationModel::Korthikanti).perLayer;
        const double pytorch = activationBytes(s, r, 1, ActivationModel::PyTorch).perLayer;
        QCOMPARE(pytorch - korthikanti, 2 * 2 * 4 * 1024.0);
    }

    void activationsScaleWithBatch()
    {
        Scenario s = test::presetScenario("gpt2-small");
        const Recipe r = *findRecipe(QStringLiteral("bf16-mixed-adamw"));
        QCOMPARE(activationBytes(s, r, 16).total(), 2 * activationBytes(s, r, 8).total());
        s.includeActivations = false;
        QCOMPARE(activationBytes(s, r, 8).total(), 0.0);
    }

    void fitsAndMaxBatch()
    {
        // Llama 2 7B on one H100 (80 GiB): 16 B/param model state is 107.8 GB: does not fit.
        Scenario s = test::presetScenario("llama2-7b");
        s.gpus = 1;
        s.gpuId = QStringLiteral("h100-sxm");
        Report r = test::reportFor(s);
        QCOMPARE(r.memory.perGpu.params, 6'738'415'616.0 * 2);
        QVERIFY(!r.memory.fits);
        QCOMPARE(*r.memory.maxMicroBatch, qint64(0));

        // ZeRO-3 over 64 GPUs shards it to 1.68 GB of state: the largest batch is where
        // state + b x activations(1) crosses 80 GiB, and one more sequence would not fit.
        s.gpus = 64;
        s.zeroStage = 3;
        s.microBatch = 1;
        r = test::reportFor(s);
        QVERIFY(r.memory.fits);
        const qint64 maxB = *r.memory.maxMicroBatch;
        QVERIFY(maxB >= 1);
        s.microBatch = maxB;
        QVERIFY(test::reportFor(s).memory.fits);
        s.microBatch = maxB + 1;
        QVERIFY(!test::reportFor(s).memory.fits);
    }

    void capacityFromDatasheet()
    {
        // NVIDIA A100 datasheet: 80 GB HBM2e, exposed as 81920 MiB = 80 GiB.
        QCOMPARE(test::catalog().findGpu(QStringLiteral("a100-80gb-sxm"))->memoryBytes, 80.0 * 1024 * 1024 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
