// Mixture-of-Experts in the core: parameters (total and active), FLOPs (6ND on the active
// non-embedding count, the detailed count with the router and top-k experts), memory with
// expert parallelism and ZeRO over the expert data-parallel ranks, the all-to-all and the
// layout rules. Every row names its source.
#include "testsupport.h"

#include "core/workload/comm.h"
#include "core/workload/flops.h"
#include "core/model/layout.h"
#include "core/run/memory.h"
#include "core/model/modelshape.h"
#include "core/report/planner.h"
#include "core/model/recipe.h"
#include "core/workload/workload.h"

using namespace napkin;

namespace {

/// Mixtral 8x7B (HF mistralai/Mixtral-8x7B-v0.1 config.json) on 64 H100s.
Scenario mixtral(std::int64_t tp, std::int64_t ep, int zero)
{
    Scenario s = test::presetScenario("mixtral-8x7b");
    s.gpus = 64;
    s.tp = tp;
    s.ep = ep;
    s.zeroStage = zero;
    s.microBatch = 1;
    s.seqLen = 4096;
    s.flashAttention = true;
    return s;
}

} // namespace

class TestMoe final : public QObject
{
    Q_OBJECT

private slots:
    void sixNdCountsActiveNonEmbeddingParameters()
    {
        // Kaplan et al. 2020's N is what a token runs through: for Mixtral 8x7B the attention,
        // norms, router and 2 of the 8 experts of each block (Jiang et al. 2024: 13B active of 47B).
        const Report r = test::reportFor(mixtral(1, 1, 0));
        QCOMPARE(r.params.activeNonEmbedding, qint64(12'879'925'248 - 2 * 131'072'000));
        QCOMPARE(r.flops.perToken6nd, 6.0 * 12'617'781'248.0);
        // The detailed MLP FLOPs: the router (2 x d x 8) and two SwiGLU experts (2 x 3 x d x d_ff each).
        const double perToken = r.flops.forwardPerSequence.mlp / static_cast<double>(r.scenario.seqLen) / 32;
        QCOMPARE(perToken, 2.0 * 4096 * 8 + 2 * 2.0 * 3 * 4096 * 14336);
    }

    void workloadMatmulFlopsEqualTheDetailedCount()
    {
        // Summed over TP ranks, the workload's model matmul FLOPs are the detailed count for the
        // micro-batch, with the capacity factor at 1 (no padding): the same sum the dense model meets.
        for (std::int64_t tp : {1, 2, 8}) {
            Scenario s = mixtral(tp, 8, 1);
            // With TP, each rank routes its own 1/tp of the tokens (sequence parallelism, which
            // Megatron-LM requires for MoE with TP); without it every rank would route them all.
            s.sequenceParallel = true;
            const Recipe recipe = *findRecipe(s.recipeId);
            const WorkloadInput in = workloadInput(s, recipe.activationBytes, recipe.weightBytes, recipe.gradBytes,
                                                   recipe.optimizerBytes, 15);
            std::vector<WorkloadOp> ops;
            buildWorkload(in, ops);
            const FlopsReport f = computeFlops(s);
            const double expected = 3 * f.forwardPerSequence.total() * static_cast<double>(s.microBatch);
            QVERIFY2(test::near(modelMatmulFlops(ops) * static_cast<double>(tp), expected, 1e-12), qPrintable(QString::number(tp)));
        }
    }

    // Megatron-Core's all-to-all dispatcher (token_dispatcher.py): every routed row is gathered
    // into expert order before it is sent ("permutation 1"), and a rank that holds several experts
    // sorts the received chunks into expert order and back before the combine
    // ("permutation 2", sort_chunks_by_idxs). Mixtral on one rank of TP 1: 4,096 tokens x top-2
    // rows of 4,096 bf16 values, each read and written once, forward and again backward.
    void tokenDispatchPermutesEveryRoutedRow()
    {
        const auto opsOf = [](const Scenario &s) {
            const Recipe recipe = *findRecipe(s.recipeId);
            std::vector<WorkloadOp> ops;
            buildWorkload(workloadInput(s, recipe.activationBytes, recipe.weightBytes, recipe.gradBytes,
                                        recipe.optimizerBytes, 32),
                          ops);
            return ops;
        };
        const auto find = [](const std::vector<WorkloadOp> &ops, const char *name, Phase phase) -> const WorkloadOp * {
            for (const WorkloadOp &op : ops)
                if (qstrcmp(op.name, name) == 0 && op.phase == phase)
                    return &op;
            return nullptr;
        };
        const double rowBytes = 4096.0 * 2 * 4096 * 2;  // tokens x top-2 x d_model x bf16
        const std::vector<WorkloadOp> ep8 = opsOf(mixtral(1, 8, 1));  // one expert per rank
        const WorkloadOp *permute = find(ep8, "token permute (dispatch)", Phase::Forward);
        QVERIFY(permute);
        QCOMPARE(permute->count, 32.0);  // every block is a MoE block
        QCOMPARE(permute->bytes, 2 * rowBytes);
        QCOMPARE(permute->flops, 0.0);
        QCOMPARE(find(ep8, "token permute (dispatch)", Phase::Backward)->bytes, 2 * rowBytes);
        QVERIFY(!find(ep8, "expert chunk sort", Phase::Forward));  // one local expert: nothing to sort
        const std::vector<WorkloadOp> ep4 = opsOf(mixtral(1, 4, 1));  // two experts per rank
        const WorkloadOp *sort = find(ep4, "expert chunk sort", Phase::Forward);
        QVERIFY(sort);
        QCOMPARE(sort->count, 64.0);  // into expert order and back, per block
        QCOMPARE(sort->bytes, 2 * rowBytes);
        QVERIFY(!find(opsOf(mixtral(1, 1, 1)), "expert chunk sort", Phase::Forward));  // no EP: no chunks
    }

    void expertsAreSplitByExpertParallelism()
    {
        // Megatron-LM / DeepSpeed-MoE: each of ep ranks holds experts / ep whole experts, each
        // split / tp; the dense parameters are on every rank (/ tp).
        const ParamBreakdown count = countParams(test::catalog().findPreset(QStringLiteral("mixtral-8x7b"))->shape);
        for (std::int64_t ep : {1, 2, 4, 8}) {
            for (std::int64_t tp : {1, 2}) {
                const Scenario s = mixtral(tp, ep, 0);
                const WorkloadSums sums = blockSums(s, *findRecipe(s.recipeId), 1);
                QCOMPARE(sums.expertParamsPerBlock * static_cast<double>(ep * tp),
                         static_cast<double>(count.perLayer.routedExperts));
                // Attention / tp; the router and the norms are replicated on every TP rank.
                QCOMPARE(sums.paramsPerBlock - sums.expertParamsPerBlock,
                         static_cast<double>(count.perLayer.attention) / static_cast<double>(tp)
                             + static_cast<double>(count.perLayer.router + count.perLayer.norms));
            }
        }
    }

    void zeroShardsExpertStateOverTheExpertDataParallelRanks()
    {
        // ZeRO-1 (Rajbhandari et al. 2019) with experts (DeepSpeed-MoE, Rajbhandari et al. 2022):
        // the dense optimizer state / (dp x cp) = / 32 at tp 2, the experts' / (dp x cp / ep) = / 4.
        const Scenario s = mixtral(2, 8, 1);
        const Report r = test::reportFor(s);
        const WorkloadSums sums = blockSums(s, *findRecipe(s.recipeId), 1);
        const double experts = sums.expertParamsPerBlock * 32;
        const double dense = r.memory.perStage[0].params - experts;
        const double optimizerBytes = r.memory.recipe.optimizerBytes;
        QCOMPARE(r.layout.shardGroup(), qint64(32));
        QCOMPARE(r.layout.expertShardGroup(), qint64(4));
        const Recipe &recipe = r.memory.recipe;
        QVERIFY(test::near(r.memory.perGpu.optimizerAndMasterWeights, dense * optimizerBytes / 32, 1e-12));
        // The experts' own segment: their weights and gradients whole at ZeRO-1, their optimizer state / 4.
        QVERIFY(test::near(r.memory.perGpu.experts,
                           experts * (recipe.weightBytes + recipe.gradBytes) + experts * optimizerBytes / 4, 1e-12));
        QVERIFY(test::near(r.memory.perGpu.params, dense * recipe.weightBytes, 1e-12));
        // A dense model has no experts' segment.
        QCOMPARE(test::reportFor(test::presetScenario("llama3-8b")).memory.perGpu.experts, 0.0);
    }

    void allToAllPerMoeBlock()
    {
        // GShard (Lepikhin et al. 2020): dispatch and combine per MoE block forward, again
        // backward; each GPU sends (n - 1)/n of its routed tokens (NCCL's all-to-all bus factor).
        Scenario s = mixtral(1, 8, 1);
        s.globalBatch = 64;  // one micro-batch per replica
        const Report r = test::reportFor(s);
        const CommOp *a2a = nullptr;
        for (const CommOp &op : r.step.comm)
            if (op.group == CommGroup::Ep)
                a2a = &op;
        QVERIFY(a2a);
        QCOMPARE(a2a->collective, Collective::AllToAll);
        QCOMPARE(a2a->groupSize, qint64(8));
        QCOMPARE(a2a->count, 4.0 * 32);  // 4 per block, 32 blocks, one micro-batch
        const double routed = 4096.0 * 2 * 4096 * r.memory.recipe.activationBytes;  // tokens x top-2 x d
        QCOMPARE(a2a->tensorBytes, routed);
        QCOMPARE(a2a->bytes, a2a->count * routed * 7 / 8);
        QVERIFY(r.step.epExposed > 0);
        // The capacity factor pads the buffer: 1.25 routes 25% more bytes.
        s.capacityFactor = 1.25;
        const Report padded = test::reportFor(s);
        for (const CommOp &op : padded.step.comm)
            if (op.group == CommGroup::Ep)
                QCOMPARE(op.tensorBytes, 1.25 * routed);
    }

    void layoutRules_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("ep");
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<QString>("refusal");
        // Megatron-LM: whole experts per rank, EP ranks drawn from DP x CP; a dense model has none.
        QTest::newRow("ep 3 does not divide 8 experts") << QStringLiteral("mixtral-8x7b") << qint64(3) << qint64(1)
                                                       << qint64(64) << QStringLiteral("must divide experts = 8");
        QTest::newRow("ep 8 > dp x cp 4 (tp 4 on 16)") << QStringLiteral("mixtral-8x7b") << qint64(8) << qint64(4)
                                          << qint64(16) << QStringLiteral("must divide dp x cp = 4 x 1 = 4");
        QTest::newRow("dense model") << QStringLiteral("llama3-8b") << qint64(2) << qint64(1)
                                     << qint64(64) << QStringLiteral("must be 1 for a dense model");
        QTest::newRow("valid") << QStringLiteral("mixtral-8x7b") << qint64(8) << qint64(1) << qint64(64) << QString();
    }

    void layoutRules()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, ep);
        QFETCH(qint64, tp);
        QFETCH(qint64, gpus);
        QFETCH(QString, refusal);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.gpus = gpus;
        s.tp = tp;
        s.ep = ep;
        const auto e = validateLayout(s);
        if (refusal.isEmpty()) {
            QVERIFY(!e);
            return;
        }
        QVERIFY(e);
        QCOMPARE(e->field, QStringLiteral("ep"));
        QVERIFY2(e->message().contains(refusal), qPrintable(e->message()));
    }

    void plannerLearnsExpertParallelism()
    {
        // Mixtral 8x7B on 64 H100s, 2M tokens per step: without EP no layout holds all 8 experts
        // per GPU in 80 GB at this batch with ZeRO < 3; the planner offers ep > 1 and its rows apply it.
        Scenario s = mixtral(1, 1, 0);
        s.globalBatch = 512;
        const Report r = test::reportFor(s);
        PlanOptions options;
        options.top = 20;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        QVERIFY(plan.fitting > 0);
        bool anyEp = false;
        for (const PlannedLayout &p : plan.layouts) {
            anyEp = anyEp || p.ep > 1;
            QCOMPARE(withPlannedLayout(s, p).ep, p.ep);
            QVERIFY(!validateLayout(withPlannedLayout(s, p)));
        }
        QVERIFY(anyEp);
    }

    // With FlashAttention, selective recompute of the attention core reruns nothing, so the
    // planner leaves it out as a copy of no recompute; once a module that does rerun something
    // is chosen (the experts' activation here), selective is a layout of its own, and the plan
    // keeps the modules the start chose.
    void plannerWeighsSelectiveRecomputeOfTheModulesChosen()
    {
        Scenario s = mixtral(1, 1, 0);
        s.globalBatch = 512;
        const Report r = test::reportFor(s);
        PlanOptions options;
        options.top = 1000;
        const auto selectiveIn = [&](const Scenario &start) {
            const PlanReport plan = planLayouts(start, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
            return std::count_if(plan.layouts.cbegin(), plan.layouts.cend(),
                                 [](const PlannedLayout &p) { return p.recompute == Recompute::Selective; });
        };
        QCOMPARE(selectiveIn(s), 0);
        s.recomputeMoeActivation = true;
        QVERIFY(selectiveIn(s) > 0);
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        for (const PlannedLayout &p : plan.layouts)
            QVERIFY(withPlannedLayout(s, p).recomputeMoeActivation);
    }

    void multiTokenPredictionOnTheLastStage()
    {
        // DeepSeek-V3's MTP module (11,610,068,224 parameters, tst_params) trains beside the head:
        // the last pipeline stage holds its parameters and activations and runs its block, its
        // projection and its own head and loss; the other stages do not change.
        Scenario s = test::presetScenario("deepseek-v3");
        s.gpus = 4;
        s.pp = 4;
        s.seqLen = 4096;
        s.microBatch = 1;
        s.flashAttention = true;
        const Report with = test::reportFor(s);
        Scenario none = s;
        none.model.mtpDepth = 0;
        const Report without = test::reportFor(none);
        const ParamBreakdown count = countParams(s.model);
        QCOMPARE(count.mtp, qint64(11'610'068'224));
        for (int stage = 0; stage < 3; ++stage) {
            QCOMPARE(with.memory.perStage[stage].params, without.memory.perStage[stage].params);
            QCOMPARE(with.memory.perStage[stage].bytes.total(), without.memory.perStage[stage].bytes.total());
        }
        QCOMPARE(with.memory.perStage[3].params - without.memory.perStage[3].params, static_cast<double>(count.mtp));
        QVERIFY(with.memory.perStage[3].bytes.activations > without.memory.perStage[3].bytes.activations);
        // The MTP block's routed experts shard as the main blocks' do.
        QVERIFY(with.memory.perStage[3].expertParams > without.memory.perStage[3].expertParams);
        // Its work is on the step of the last stage: with 15 of 61 blocks there and the module,
        // it is the slowest stage.
        QCOMPARE(with.step.stage, std::int64_t{3});
        QVERIFY(with.step.stepSeconds > without.step.stepSeconds);
        // The model FLOPs behind MFU stay the main model's, as DeepSeek counts them apart.
        QCOMPARE(with.flops.perStepDetailed, without.flops.perStepDetailed);
    }
};

QTEST_GUILESS_MAIN(TestMoe)
#include "tst_moe.moc"
