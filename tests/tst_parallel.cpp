// Parallel training in the core: layout rules, communication volumes, the pipeline bubble and
// in-flight micro-batches, Korthikanti et al. 2022's Figures 1 and 7, and the workload's
// invariants. Every row names its source.
#include "testsupport.h"

#include "core/text/stepexplain.h"
#include "core/text/layouttext.h"
#include "core/workload/comm.h"
#include "core/io/scenariojson.h"
#include "core/model/layout.h"
#include "core/run/memory.h"
#include "core/report/planner.h"
#include "core/workload/stageworkload.h"
#include "core/workload/workload.h"

#include <QRegularExpression>
#include <QProcess>

#include <algorithm>
#include <cstring>
#include <iterator>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::Scenario)

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

/// The ops of one micro-batch on one GPU of the first pipeline stage.
std::vector<WorkloadOp> firstStageOps(const Scenario &s, const Recipe &recipe)
{
    std::vector<WorkloadOp> ops;
    buildWorkload(stageWorkload(s, recipe, 0, QList<double>(1, 0.0)), ops);
    return ops;
}

/// The ops named `name` in `phase`, in the workload's order.
std::vector<WorkloadOp> opsNamed(const std::vector<WorkloadOp> &ops, const char *name, Phase phase)
{
    std::vector<WorkloadOp> found;
    for (const WorkloadOp &op : ops)
        if (op.phase == phase && QLatin1String(op.name) == QLatin1String(name))
            found.push_back(op);
    return found;
}

/// A GPT of Korthikanti et al. 2022, Table 3: seq 2048, vocab 51,200, d_ff = 4h, dropout on,
/// fp16 mixed precision with fp32 gradients (18 bytes per parameter), data-parallel size 1.
Scenario korthikantiGpt(std::int64_t heads, std::int64_t hidden, std::int64_t layers, std::int64_t tp, std::int64_t pp,
                        std::int64_t vpp, std::int64_t microBatch, std::int64_t globalBatch)
{
    Scenario s;
    s.presetId = QStringLiteral("custom");
    s.model.arch = Arch::Gpt2;
    s.model.layers = layers;
    s.model.dModel = hidden;
    s.model.heads = heads;
    s.model.kvHeads = heads;
    s.model.dFf = 4 * hidden;
    s.model.vocab = 51200;
    s.model.maxPositions = 2048;
    s.model.tied = true;
    s.seqLen = 2048;
    s.microBatch = microBatch;
    s.globalBatch = globalBatch;
    s.gpus = tp * pp;
    s.tp = tp;
    s.pp = pp;
    s.vpp = vpp;
    s.dropout = true;
    s.recipeId = QStringLiteral("bf16-mixed-adamw-fp32-grads");
    s.reservedBytes = 0;
    s.gpuId = QStringLiteral("a100-80gb-sxm");
    return s;
}

struct Run {
    int status = -1;
    QByteArray err;
};

Run runNapkin(const QString &args)
{
    QProcess p;
    p.start(QStringLiteral(NAPKIN_BINARY), args.split(QLatin1Char(' ')));
    p.waitForFinished(30000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()};
}

/// The step's collective of that name (nullptr: none).
const CommOp *commOp(const Report &r, const char *name)
{
    const auto it = std::find_if(r.step.comm.cbegin(), r.step.comm.cend(),
                                 [name](const CommOp &op) { return op.name == QLatin1String(name); });
    return it == r.step.comm.cend() ? nullptr : &*it;
}

/// Its buffer's bytes (0: no such collective).
double commTensorBytes(const Report &r, const char *name)
{
    const CommOp *op = commOp(r, name);
    return op ? op->tensorBytes : 0;
}

} // namespace

class TestParallel final : public QObject
{
    Q_OBJECT

private slots:
    // The step's legend names communication as such (a slide reader cannot tell a bare "DP").
    void stepLegendNamesCommunication()
    {
        for (StepComponent c : {StepComponent::ModelComm, StepComponent::ExpertComm, StepComponent::DataComm})
            QVERIFY2(stepComponentShortName(c).endsWith(QStringLiteral(" comm")), qPrintable(stepComponentShortName(c)));
        QCOMPARE(stepComponentShortName(StepComponent::DataComm), QStringLiteral("DP comm"));
    }

    void ringTraffic_data()
    {
        QTest::addColumn<int>("collective");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("perGpu");
        QTest::addColumn<double>("steps");
        // NCCL tests/doc/PERFORMANCE.md: bus bandwidth = algorithm bandwidth x 2(n-1)/n for
        // all-reduce and (n-1)/n for all-gather and reduce-scatter: the bytes each rank sends.
        // Patarasuk & Yuan 2009: a ring all-reduce takes 2(n-1) steps of size/n.
        QTest::newRow("all-reduce, 8 ranks") << int(Collective::AllReduce) << qint64(8) << 1e9 << 1.75e9 << 14.0;
        QTest::newRow("all-reduce, 2 ranks") << int(Collective::AllReduce) << qint64(2) << 1e9 << 1e9 << 2.0;
        QTest::newRow("all-reduce, 1024 ranks") << int(Collective::AllReduce) << qint64(1024) << 1024.0 << 2046.0 << 2046.0;
        QTest::newRow("all-gather, 8 ranks") << int(Collective::AllGather) << qint64(8) << 1e9 << 0.875e9 << 7.0;
        QTest::newRow("reduce-scatter, 4 ranks") << int(Collective::ReduceScatter) << qint64(4) << 1e9 << 0.75e9 << 3.0;
        QTest::newRow("one rank moves nothing") << int(Collective::AllReduce) << qint64(1) << 1e9 << 0.0 << 0.0;
        QTest::newRow("send") << int(Collective::SendRecv) << qint64(2) << 1e6 << 1e6 << 1.0;
    }

    void ringTraffic()
    {
        QFETCH(int, collective);
        QFETCH(qint64, n);
        QFETCH(double, bytes);
        QFETCH(double, perGpu);
        QFETCH(double, steps);
        const auto c = static_cast<Collective>(collective);
        QCOMPARE(ringTrafficBytes(c, bytes, n), perGpu);
        QCOMPARE(ringSteps(c, n), steps);
        // The alpha-beta time: traffic over 100 GB/s plus 10 us per step.
        const double t = collectiveSeconds(c, bytes, n, 1e11, 1e-5);
        QCOMPARE(t, n == 1 && c != Collective::SendRecv ? 0.0 : perGpu / 1e11 + steps * 1e-5);
    }

    // Collectives run at the bus bandwidth NCCL measures, not the line rate: an 8-way TP
    // all-reduce on H100's NVLink 4 moves 2(n - 1)/n of the buffer at 450 GB/s x 0.824 (NCCL's
    // per-link model, 20.6 of 25 GB/s; interconnects.json), plus 2(n - 1) ring steps of latency.
    void collectivesRunAtTheMeasuredBusBandwidth()
    {
        Scenario s = test::presetScenario("llama3-70b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.tp = 8;
        s.sequenceParallel = false;
        s.timeBasis = TimeBasis::Estimated;
        const Report r = test::reportFor(s);
        const Interconnect *link = test::catalog().findInterconnect(QStringLiteral("nvlink4"));
        QVERIFY(link);
        QCOMPARE(link->collectiveEfficiency, 0.824);
        const CommOp *tp = commOp(r, "TP all-reduce");
        QVERIFY(tp);
        QCOMPARE(tp->linkId, QStringLiteral("nvlink4"));
        const double one = 2.0 * 7 / 8 * tp->tensorBytes / (450e9 * 0.824) + 14 * link->latencySeconds;
        QCOMPARE_LT(std::abs(tp->seconds / (one * tp->count) - 1), 1e-12);
    }

    // Node-limited dispatch (DeepSeek-V3, Section 3.2.2): a token whose 8 routed rows reach at
    // most 4 of the EP group's 8 nodes crosses InfiniBand once per remote node, 4 x 7/8 = 3.5
    // times, against 8 x 7/8 = 7 rows sent one by one, and every row but the receiving GPU's
    // own crosses NVLink. No limit, or one node: the plain all-to-all.
    void nodeLimitedDispatchCrossesOncePerNode()
    {
        const Interconnect *up = test::catalog().findInterconnect(QStringLiteral("nvlink4-h800"));
        const Interconnect *out = test::catalog().findInterconnect(QStringLiteral("ib-ndr"));
        QVERIFY(up && out);
        const double rows = 8;
        const double bytes = 1e9;  // 8 rows of each token on this GPU
        const double latency = 63 * std::max(up->latencySeconds, out->latencySeconds);
        const double across = bytes / rows * 4 * 7.0 / 8 / out->collectiveBandwidth();
        const double within = bytes * 7.0 / 8 / up->collectiveBandwidth();
        QVERIFY(across > within);  // 50 GB/s InfiniBand against 160 GB/s NVLink (Section 3.2.2)
        const double limited = nodeLimitedAllToAllSeconds(bytes, rows, 4, 64, 8, *up, *out);
        QCOMPARE_LT(std::abs(limited / (across + latency) - 1), 1e-12);
        const double plain = allToAllSeconds(bytes, 64, 8, *up, *out);
        QCOMPARE_LT(std::abs(plain / (bytes * 56 / 64 / out->collectiveBandwidth() + latency) - 1), 1e-12);
        QCOMPARE(nodeLimitedAllToAllSeconds(bytes, rows, 0, 64, 8, *up, *out), plain);
        QCOMPARE(nodeLimitedAllToAllSeconds(bytes, rows, 4, 8, 8, *up, *up), allToAllSeconds(bytes, 8, 8, *up, *up));
        // A limit above the group's nodes reaches every node: 8 x 7/8 crossings, as many as rows.
        QCOMPARE_LT(std::abs(nodeLimitedAllToAllSeconds(bytes, rows, 16, 64, 8, *up, *out) / plain - 1), 1e-12);
        // Two rows a token (top-2) reach at most two nodes, whatever the limit: InfiniBand carries
        // what the plain all-to-all sends, and only the NVLink fan-out is added.
        const double top2 = nodeLimitedAllToAllSeconds(bytes, 2, 4, 64, 8, *up, *out);
        QCOMPARE_LT(std::abs(top2 / plain - 1), 1e-12);
    }

    // The DP reduction hides behind the last micro-batch's backward with dp_overlap (PyTorch
    // DDP, Megatron-Core's --overlap-grad-reduce) and is exposed whole without it.
    void dpOverlapHidesTheReductionBehindTheBackward()
    {
        Scenario s = test::presetScenario("gpt2-small");
        s.gpuId = QStringLiteral("a100-80gb-sxm");
        s.gpus = 16;  // two nodes: the all-reduce crosses InfiniBand
        s.microBatch = 8;
        s.timeBasis = TimeBasis::Estimated;
        s.dpOverlap = false;
        const Report exposed = test::reportFor(s);
        const CommOp *ar = commOp(exposed, "DP gradient all-reduce");
        QVERIFY(ar);
        QCOMPARE(exposed.step.dpExposed, ar->seconds);
        s.dpOverlap = true;
        const Report hidden = test::reportFor(s);
        QCOMPARE_LT(hidden.step.dpExposed, exposed.step.dpExposed);
        QCOMPARE(hidden.step.stepSeconds - hidden.step.dpExposed, exposed.step.stepSeconds - exposed.step.dpExposed);
        // Hidden whole, it still slows the backward it runs beside: compute beside a collective
        // runs 18.9% slower (Lee et al. 2025, arXiv 2507.03114, the average over A100, H100, MI250
        // and MI210), so the step pays H x 0.189 / 1.189 for H seconds hidden.
        QVERIFY(ar->seconds < hidden.step.computeMatmul / hidden.step.microBatches);  // fits behind the backward
        QCOMPARE_LT(std::abs(hidden.step.dpExposed / (ar->seconds * 0.189 / 1.189) - 1), 1e-12);
        QCOMPARE(hidden.step.overlapContention, hidden.step.dpExposed);
        QCOMPARE(exposed.step.overlapContention, 0.0);
        // The step chart's explanations of the communication segments say so, every placeholder filled.
        for (const StepComponent c : {StepComponent::ModelComm, StepComponent::ExpertComm, StepComponent::DataComm}) {
            const QString text = stepSegmentText(hidden, c);
            QVERIFY2(text.contains(QLatin1String("18.9% slower")) && text.contains(QLatin1String("Lee et al. 2025")),
                     qPrintable(text));
            QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("%\\d"))), qPrintable(text));
        }
        // The scenario file keeps the switch, under the JSON key "dp_overlap".
        s.dpOverlap = false;
        const QJsonObject saved = scenarioToJson(s);
        QCOMPARE(saved.value(QStringLiteral("dp_overlap")).toBool(true), false);
        QCOMPARE(scenarioFromJson(saved, Scenario{})->dpOverlap, false);
    }

    // A ring across nodes runs one channel per NIC (NCCL src/graph/search.cc; tuning.cc: a ring's
    // bus bandwidth is its channels x each channel's inter-node bandwidth), so the k ranks of a
    // group on one node carry its share of the ring over k NICs together, capped by the NVLink
    // that joins them. 32 A100s in 4 DGX nodes (one HDR NIC per GPU, 25 GB/s x 0.94): DP 32 at
    // TP 1 has 8 ranks a node, 8 x 23.5 = 188 GB/s (under NVLink 3's measured 200 GB/s); at TP 4,
    // 2 ranks a node, 47 GB/s; at TP 8, one, 23.5 GB/s. Inside a node the NVLink's own figure.
    void ringsAcrossNodesUseEveryNicTheirRanksHold_data()
    {
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<qint64>("nics");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<QString>("label");
        QTest::newRow("dp 32 at tp 1: 8 NICs a node") << qint64(1) << qint64(8) << 8 * 25e9 * 0.94 << "ib-hdr x8";
        QTest::newRow("dp 8 at tp 4: 2 NICs a node") << qint64(4) << qint64(2) << 2 * 25e9 * 0.94 << "ib-hdr x2";
        QTest::newRow("dp 4 at tp 8: one NIC") << qint64(8) << qint64(1) << 25e9 * 0.94 << "ib-hdr";
    }
    void ringsAcrossNodesUseEveryNicTheirRanksHold()
    {
        QFETCH(qint64, tp);
        QFETCH(qint64, nics);
        QFETCH(double, bandwidth);
        QFETCH(QString, label);
        Scenario s = test::presetScenario("gpt2-small");
        s.model.heads = s.model.kvHeads = 16;  // whole heads on 8 TP ranks
        s.gpuId = QStringLiteral("a100-80gb-sxm");
        s.gpus = 32;
        s.tp = tp;
        s.microBatch = 8;
        s.dpOverlap = false;
        const Report r = test::reportFor(s);
        const Links links{&r.scaleUp, &r.scaleOut};
        const Links::Ring ring = links.ring(CommGroup::Dp, r.memory.layout);
        QCOMPARE(ring.nics, nics);
        QCOMPARE_LT(std::abs(ring.bandwidth / bandwidth - 1), 1e-12);
        const CommOp *ar = commOp(r, "DP gradient all-reduce");
        QVERIFY(ar);
        QCOMPARE(ar->linkId, label);
        const double n = 32.0 / static_cast<double>(tp);
        const double one = 2 * (n - 1) / n * ar->tensorBytes / bandwidth + 2 * (n - 1) * r.scaleOut.latencySeconds;
        QCOMPARE_LT(std::abs(ar->seconds / one - 1), 1e-12);
        // Inside one node the ring is NVLink's alone.
        s.gpus = 8;
        s.tp = 1;
        const Report node = test::reportFor(s);
        const Links inNode{&node.scaleUp, &node.scaleOut};
        QCOMPARE(inNode.ring(CommGroup::Dp, node.memory.layout).bandwidth, node.scaleUp.collectiveBandwidth());
    }

    // Without gradient-accumulation fusion each micro-batch after the first writes its weight
    // gradients apart and PyTorch's AccumulateGrad adds them to the earlier ones' (torch/csrc/
    // autograd/functions/accumulate_grad.h: variable.grad += new_grad): per parameter it reads
    // the new gradient (2 B) and the sum (2 B at bf16) and writes the sum (2 B), m - 1 times a
    // step. GPT-2 small (124M, tied) on one A100 at 4 micro-batches: 3 x 124.4M x 6 B = 2.24 GB
    // at the A100 80GB's 2,039 GB/s x 0.863 measured streaming, 1.27 ms, plus the A100's fixed
    // 5.7 us for each add launched: one per op that owns parameters, 74 (the embedding, six per
    // block over 12 blocks, the final LayerNorm; the head is tied), 3 x 74 x 5.7 us = 1.27 ms.
    // Fused (Megatron-LM's --gradient-accumulation-fusion, Transformer Engine's main_grad), the
    // GEMM adds as it writes: nothing more.
    void unfusedGradientAccumulationReadsAndWritesTheGradients()
    {
        Scenario s = test::presetScenario("gpt2-small");
        s.gpuId = QStringLiteral("a100-80gb-sxm");
        s.gpus = 1;
        s.microBatch = 8;
        s.globalBatch = 32;
        s.timeBasis = TimeBasis::Estimated;
        const Report fused = test::reportFor(s);
        s.gradAccumulationFusion = false;
        const Report unfused = test::reportFor(s);
        const double params = static_cast<double>(fused.params.total);
        QCOMPARE_GT(params, 124e6);
        QCOMPARE_LT(params, 125e6);
        const double bytes = 3 * params * (2 + 2 + 2);
        const double seconds = bytes / (2039e9 * 0.863) + 3 * 74 * 5.7e-6;
        QCOMPARE_LT(std::abs((unfused.step.stepSeconds - fused.step.stepSeconds) / seconds - 1), 1e-9);
        // The roofline lists it among one micro-batch's ops: 3 of 4 micro-batches add.
        const auto op = std::find_if(unfused.roofline.ops.cbegin(), unfused.roofline.ops.cend(),
                                     [](const RooflineOp &o) { return o.name == QLatin1String("gradient accumulation"); });
        QVERIFY(op != unfused.roofline.ops.cend());
        QCOMPARE(op->count, 0.75);
        QCOMPARE(op->bytes, 6 * params);
        QVERIFY(std::none_of(fused.roofline.ops.cbegin(), fused.roofline.ops.cend(),
                             [](const RooflineOp &o) { return o.name == QLatin1String("gradient accumulation"); }));
        // One micro-batch a step has nothing to add to.
        s.globalBatch = 8;
        Scenario one = s;
        one.gradAccumulationFusion = true;
        QCOMPARE(test::reportFor(s).step.stepSeconds, test::reportFor(one).step.stepSeconds);
        // The scenario file keeps the switch, under the JSON key "grad_accumulation_fusion".
        const QJsonObject saved = scenarioToJson(s);
        QCOMPARE(saved.value(QStringLiteral("grad_accumulation_fusion")).toBool(true), false);
        QCOMPARE(scenarioFromJson(saved, Scenario{})->gradAccumulationFusion, false);
    }

    // Megatron-LM's --tp-comm-overlap runs SP's all-gathers and reduce-scatters in chunks under
    // the block's GEMMs: what the GEMMs cannot cover stays exposed, and where the GPU has a
    // measured overlap efficiency E, at least (1 - E) of the communication does. Flux (Chang et
    // al. 2024, Section 6) measured Transformer Engine's overlap at 20% on H800 NVLink (the H100
    // takes it) and -61% on A100 NVLink: slower than none. It needs SP; without SP the
    // collectives stay between dependent kernels, exposed whole.
    void tpOverlapHidesTheCollectivesBehindTheGemms()
    {
        Scenario s = test::presetScenario("llama3-70b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.tp = 8;
        s.sequenceParallel = true;
        s.microBatch = 1;
        s.timeBasis = TimeBasis::Estimated;
        const Report exposed = test::reportFor(s);
        const double tpSeconds = test::commSeconds(exposed, CommGroup::Tp);
        QVERIFY(tpSeconds > 0);
        QCOMPARE_LT(std::abs(exposed.step.tpExposed / tpSeconds - 1), 1e-12);
        s.tpOverlap = true;
        const Report hidden = test::reportFor(s);
        QCOMPARE(hidden.gpu.tpOverlapEfficiency.value_or(0), 0.20);
        QVERIFY(hidden.gpu.tpOverlapSource.contains(QLatin1String("2406.06858")));
        const double expected = std::max(tpSeconds - hidden.step.computeMatmul, 0.8 * tpSeconds);
        QCOMPARE_LT(std::abs(hidden.step.tpExposed - expected), 1e-12);
        QCOMPARE_LT(hidden.step.stepSeconds, exposed.step.stepSeconds);
        // A GPU without a measurement: the GEMMs cover all they can.
        s.gpuId = QStringLiteral("b200");
        const Report b200 = test::reportFor(s);
        QVERIFY(!b200.gpu.tpOverlapEfficiency);
        const double b200Tp = test::commSeconds(b200, CommGroup::Tp);
        QCOMPARE_LT(std::abs(b200.step.tpExposed - std::max(0.0, b200Tp - b200.step.computeMatmul)), 1e-12);
        // On an A100 the measured overlap is slower than none.
        s.gpuId = QStringLiteral("a100-80gb-sxm");
        const Report a100 = test::reportFor(s);
        s.tpOverlap = false;
        const Report a100Plain = test::reportFor(s);
        QCOMPARE_LT(std::abs(a100.step.tpExposed / a100Plain.step.tpExposed - 1.61), 1e-12);
        QVERIFY(a100.step.stepSeconds > a100Plain.step.stepSeconds);
        s.gpuId = QStringLiteral("h100-sxm");
        s.tpOverlap = true;
        s.sequenceParallel = false;  // no SP: nothing to split into chunks
        const Report noSp = test::reportFor(s);
        const double noSpTp = test::commSeconds(noSp, CommGroup::Tp);
        QCOMPARE_LT(std::abs(noSp.step.tpExposed / noSpTp - 1), 1e-12);
    }

    // FlashAttention runs at its own measured share of the peak (the FlashAttention-3 paper's
    // 646 and 559 TFLOP/s on H100 at head dim 128, gpus.json), every other kernel at the GEMM
    // efficiency; a scenario's own --efficiency-matmul stands for every compute kernel.
    void flashAttentionRunsAtItsMeasuredEfficiency()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.flashAttention = true;
        s.seqLen = 8192;
        s.microBatch = 1;
        const Report r = test::reportFor(s);
        QCOMPARE(r.gpu.efficiencyAttentionForward.value_or(0), 0.653);
        QCOMPARE(r.gpu.efficiencyAttentionBackward.value_or(0), 0.565);
        QVERIFY(r.gpu.efficiencyAttentionSource.contains(QLatin1String("FlashAttention-3")));
        const std::vector<WorkloadOp> ops = firstStageOps(s, r.memory.recipe);
        const auto attentionSeconds = [&ops](const StepMachine &m, double forward, double backward) {
            double sum = 0;
            for (const WorkloadOp &op : ops)
                if (op.kind == OpKind::Attention) {
                    const double e = op.fusedAttention ? (op.phase == Phase::Backward ? backward : forward)
                                                       : m.computeEfficiency;
                    sum += op.count * std::max(op.flops / (m.peakFlopsPerS * e),
                                               op.bytes / (m.bandwidthBytesPerS * m.memoryEfficiency))
                           + op.count * m.kernelFixedSeconds;
                }
            return sum;
        };
        QVERIFY(std::any_of(ops.cbegin(), ops.cend(), [](const WorkloadOp &op) { return op.fusedAttention; }));
        const StepMachine m = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
        QCOMPARE_LT(std::abs(stageCompute(ops, m).attention / attentionSeconds(m, 0.653, 0.565) - 1), 1e-12);
        // Under a causal mask, the causal figures: FlashAttention-3's forward at 602 TFLOP/s
        // (0.609) and its backward at 0.960 of the non-causal (0.542).
        QVERIFY(!s.causalHalving);
        s.causalHalving = true;
        const StepMachine causal = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
        QCOMPARE(causal.attentionForwardEfficiency, 0.609);
        QCOMPARE(causal.attentionBackwardEfficiency, 0.542);
        QCOMPARE(r.gpu.efficiencyAttentionCausalForward.value_or(0), 0.609);
        s.causalHalving = false;
        s.efficiencyMatmul = 0.7;
        const StepMachine set = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
        QCOMPARE_LT(std::abs(stageCompute(ops, set).attention / attentionSeconds(set, 0.7, 0.7) - 1), 1e-12);
        s.causalHalving = true;  // a scenario's own efficiency stands for causal attention too
        QCOMPARE(stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut}).attentionForwardEfficiency, 0.0);
        // The B200 runs FlashAttention-4's Blackwell kernels' speed (pull request #2280 of the
        // FlashAttention repository: 1534.8 and 1359.8 TFLOP/s, causal 1418.1 and 1208.6, of 2250),
        // not its GEMMs' figure, which it took before.
        s.efficiencyMatmul.reset();
        s.gpuId = QStringLiteral("b200");
        const Report b200 = test::reportFor(s);
        QVERIFY(b200.gpu.efficiencyAttentionSource.contains(QLatin1String("FlashAttention-4")));
        const StepMachine blackwell = stepMachine(s, b200.memory.recipe, b200.gpu, Links{&b200.scaleUp, &b200.scaleOut});
        QCOMPARE_LT(std::abs(blackwell.attentionForwardEfficiency * 2250 / 1418.1 - 1), 1e-3);
        QCOMPARE_LT(std::abs(blackwell.attentionBackwardEfficiency * 2250 / 1208.6 - 1), 1e-3);
        QCOMPARE_LT(blackwell.attentionForwardEfficiency, blackwell.matmulEfficiency);
        QCOMPARE(b200.gpu.efficiencyAttentionForward.value_or(0), 0.682);
        QCOMPARE(b200.gpu.efficiencyAttentionBackward.value_or(0), 0.604);
    }

    // Rotary position embedding (Su et al. 2021) turns every query and key element in each
    // block of the llama family, read once and written once: Llama 3 8B at 4,096 tokens rotates
    // 4,096 x (4,096 + 1,024) elements per block, half of them per rank at TP 2; DeepSeek-V3
    // (MLA) only its decoupled RoPE part, 128 heads x 64 and one shared 64-wide key. GPT-2's
    // learned positions have no such kernel.
    void ropeRotatesQueriesAndKeys()
    {
        const auto rope = [](const Scenario &s) {
            const std::vector<WorkloadOp> found =
                opsNamed(firstStageOps(s, test::reportFor(s).memory.recipe), "RoPE (Q, K)", Phase::Forward);
            return found.empty() ? WorkloadOp{} : found.front();
        };
        Scenario llama = test::presetScenario("llama3-8b");
        llama.seqLen = 4096;
        llama.microBatch = 1;
        const WorkloadOp whole = rope(llama);
        QCOMPARE(whole.count, 32.0);
        QCOMPARE(whole.bytes, 4096.0 * (4096 + 1024) * 2 * 2);
        QCOMPARE(whole.flops, 4096.0 * (4096 + 1024) * 3);
        QCOMPARE(whole.savedBytes, 0.0);
        llama.tp = 2;
        QCOMPARE(rope(llama).bytes, whole.bytes / 2);
        Scenario deepseek = test::presetScenario("deepseek-v3");
        deepseek.seqLen = 4096;
        deepseek.microBatch = 1;
        QCOMPARE(rope(deepseek).flops, 4096.0 * (128 * 64 + 64) * 3);
        QCOMPARE(rope(test::presetScenario("gpt2-small")).count, 1.0);  // absent: the empty op
        QCOMPARE(rope(test::presetScenario("gpt2-small")).flops, 0.0);
    }

    // Each kernel launched one by one pays a fixed time on top of its roofline time: 5.7 us on
    // sm_90 beside the H100's realistic GEMM efficiency (0.728), 6.2 us on sm_100 beside the
    // B200's (0.672), each fitted to OpenXLA's measured GEMM table (matmul_interpolator_data.h,
    // bf16, batch 1). A fit check, not a validation: the rows below are from the table t0 came
    // from, and they span small to large shapes (throughputs in FLOP/s, as the table prints them).
    // The B200's smallest GEMM, launch-bound, is its worst row (+26%); its 125 rows average 8.7%.
    void kernelTimeMeetsTheMeasuredGemmTable_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("m");
        QTest::addColumn<double>("n");
        QTest::addColumn<double>("k");
        QTest::addColumn<double>("measuredFlopsPerS");
        QTest::addColumn<double>("fixedSeconds");
        QTest::addColumn<double>("tolerance");
        const auto row = [](const char *gpu, double m, double n, double k, double flops, double fixed, double tolerance) {
            QTest::addRow("%s %gx%gx%g", gpu, m, n, k) << QString::fromLatin1(gpu) << m << n << k << flops << fixed << tolerance;
        };
        row("h100-sxm", 256, 256, 256, 6721641025641.0, 5.7e-6, 0.20);
        row("h100-sxm", 512, 512, 512, 43577184415584.0, 5.7e-6, 0.20);
        row("h100-sxm", 1024, 1024, 1024, 252764082862523.0, 5.7e-6, 0.20);
        row("h100-sxm", 256, 4096, 4096, 418449658612626.0, 5.7e-6, 0.20);
        row("h100-sxm", 4096, 256, 4096, 398863976225854.0, 5.7e-6, 0.20);
        row("h100-sxm", 2048, 4096, 1024, 596523235555555.0, 5.7e-6, 0.20);
        row("h100-sxm", 4096, 4096, 4096, 780193877565849.0, 5.7e-6, 0.20);
        // sm_100_B200, read in ROCm/xla at commit ea2c45f2.
        row("b200", 256, 256, 256, 6765006451612.0, 6.2e-6, 0.30);
        row("b200", 512, 512, 512, 48480306303052.0, 6.2e-6, 0.20);
        row("b200", 1024, 1024, 1024, 288020875536480.0, 6.2e-6, 0.20);
        row("b200", 256, 4096, 4096, 651394145142943.0, 6.2e-6, 0.20);
        row("b200", 4096, 256, 4096, 645132151107773.0, 6.2e-6, 0.20);
        row("b200", 2048, 4096, 1024, 911350548193729.0, 6.2e-6, 0.20);
        row("b200", 4096, 4096, 4096, 1416867213789406.0, 6.2e-6, 0.20);
    }
    void kernelTimeMeetsTheMeasuredGemmTable()
    {
        QFETCH(QString, gpu);
        QFETCH(double, m);
        QFETCH(double, n);
        QFETCH(double, k);
        QFETCH(double, measuredFlopsPerS);
        QFETCH(double, fixedSeconds);
        QFETCH(double, tolerance);
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = gpu;
        const Report r = test::reportFor(s);
        QVERIFY(r.gpu.kernelFixedSource.contains(QLatin1String("matmul_interpolator_data.h")));
        const StepMachine machine = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
        QCOMPARE(machine.kernelFixedSeconds, fixedSeconds);
        WorkloadOp gemm;  // (m x k)(k x n) in bf16: 2mkn FLOPs, each operand read once, the output written once
        gemm.flops = gemm.matmulFlops = 2 * m * n * k;
        gemm.bytes = 2 * (m * k + k * n + m * n);
        const double estimated = stageCompute({gemm}, machine).matmul;
        const double measured = gemm.flops / measuredFlopsPerS;
        qInfo("%-28s measured %7.1f us  estimated %7.1f us  (%+.1f%%)", QTest::currentDataTag(), measured * 1e6,
              estimated * 1e6, 100 * (estimated / measured - 1));
        QCOMPARE_LT(std::abs(estimated / measured - 1), tolerance);
    }

    // FlashAttention runs at the FlashAttention-3 paper's measured speed for its own head dim and
    // length on H100 (gpus.json efficiency_attention_table): GPT-2 small's heads of 64 over 1,024
    // causal tokens reach 265 TFLOP/s forward against Llama 3 8B's heads of 128 over 8,192 at
    // 602 (Shah et al. 2024, Figure 5); a CP rank's share of the sequence is its length.
    void attentionRunsAtItsShapesMeasuredSpeed()
    {
        const auto achieved = [](const char *preset, std::int64_t seqLen, std::int64_t cp, Phase phase) {
            Scenario s = test::presetScenario(preset);
            s.gpuId = QStringLiteral("h100-sxm");
            s.flashAttention = true;
            s.causalHalving = true;
            s.seqLen = seqLen;
            s.model.maxPositions = std::max(s.model.maxPositions, seqLen);
            s.gpus = cp;
            s.cp = cp;
            s.microBatch = 1;
            s.globalBatch = 1;
            const Report r = test::reportFor(s);
            const StepMachine m = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
            WorkloadOp fa = opsNamed(firstStageOps(s, r.memory.recipe), "FlashAttention", phase).front();
            fa.count = 1;
            fa.launches = 0;  // the kernel's own rate, without the fixed time per launch
            return fa.flops / stageCompute({fa}, m).attention / 1e12;
        };
        // The op's FLOPs carry the softmax beside the paper's 4 s^2 d h: within 1% of the paper's rate.
        const double llama = achieved("llama3-8b", 8192, 1, Phase::Forward);
        const double gpt2 = achieved("gpt2-small", 1024, 1, Phase::Forward);
        qInfo("FlashAttention forward on H100: Llama 3 8B at 8k %.0f, GPT-2 small at 1k %.0f TFLOP/s", llama, gpt2);
        QCOMPARE_LT(std::abs(llama / 602 - 1), 0.01);
        QCOMPARE_LT(std::abs(gpt2 / 265 - 1), 0.01);
        // CP 4 over 8k: each rank's kernels run over 2,048 tokens (521 TFLOP/s causal).
        QCOMPARE_LT(std::abs(achieved("llama3-8b", 8192, 4, Phase::Forward) / 521 - 1), 0.01);
        // Backward, causal: 559 x 0.960 (the catalog's causal backward) at 8k.
        QCOMPARE_LT(std::abs(achieved("llama3-8b", 8192, 1, Phase::Backward) / (0.542 * 989.5) - 1), 0.01);
        // The step's explanation states the figures at the run's shape.
        Scenario small = test::presetScenario("gpt2-small");
        small.gpuId = QStringLiteral("h100-sxm");
        small.flashAttention = true;
        small.causalHalving = true;
        const Report r = test::reportFor(small);
        QCOMPARE_LT(std::abs(r.step.attentionForwardEfficiency * 989.5 / 265 - 1), 0.01);
        const QString text = stepSegmentText(r, StepComponent::Matmul);
        QVERIFY2(text.contains(QLatin1String("at heads of 64 over 1,024 tokens")), qPrintable(text));
    }

    // The rule: a TP-split GEMM of a narrow model, or one micro-batch over a short CP
    // chunk, reaches a smaller share of the peak than a large square GEMM: the fixed time is a
    // larger part of a short kernel.
    void smallGemmsReachLessOfThePeak()
    {
        const auto achieved = [](std::int64_t tp, std::int64_t cp, std::int64_t microBatch, std::int64_t seqLen) {
            Scenario s = test::presetScenario("llama3-8b");
            s.gpuId = QStringLiteral("h100-sxm");
            s.gpus = tp * cp;
            s.tp = tp;
            s.cp = cp;
            s.sequenceParallel = tp > 1;
            s.microBatch = microBatch;
            s.seqLen = seqLen;
            s.globalBatch = microBatch;
            const Report r = test::reportFor(s);
            const StepMachine m = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
            WorkloadOp qkv = opsNamed(firstStageOps(s, r.memory.recipe), "QKV projection", Phase::Forward).front();
            qkv.count = 1;
            return qkv.flops / (stageCompute({qkv}, m).matmul * m.gemmPeak());
        };
        const double large = achieved(1, 1, 4, 8192);   // 32,768 x 4,096 x 6,144
        const double tpSplit = achieved(8, 1, 1, 2048);  // 2,048 x 4,096 x 768
        const double cpChunk = achieved(1, 8, 1, 8192);  // 1,024 x 4,096 x 6,144
        qInfo("QKV share of the peak: large %.3f, TP 8 at 2k %.3f, CP 8 at 8k %.3f", large, tpSplit, cpChunk);
        QCOMPARE_LT(std::abs(large - 0.728), 0.01);  // the large GEMM is at the measured figure, less a sliver
        QCOMPARE_LT(tpSplit, large - 0.1);
        QCOMPARE_LT(cpChunk, large - 0.02);
    }

    // Decode steps replay a CUDA graph: no fixed time per kernel. A prefill split into chunks
    // launches every kernel once per chunk; the optimizer's multi-tensor kernels pay none.
    void fixedKernelTimeFollowsTheLaunches()
    {
        StepMachine m;
        m.peakFlopsPerS = 1e15;
        m.bandwidthBytesPerS = 1e12;
        m.kernelFixedSeconds = 5e-6;
        WorkloadOp op;
        op.kind = OpKind::Elementwise;
        op.count = 10;
        op.bytes = 1e6;  // 1 us at 1 TB/s
        op.phase = Phase::Forward;
        QCOMPARE_LT(std::abs(stageCompute({op}, m).other - 10 * (1e-6 + 5e-6)), 1e-15);
        op.phase = Phase::Prefill;
        op.launches = 3;
        QCOMPARE_LT(std::abs(stageCompute({op}, m).other - (10 * 1e-6 + 30 * 5e-6)), 1e-15);
        QCOMPARE_LT(std::abs(stageCompute({op}, m).fixed - 30 * 5e-6), 1e-15);
        op.phase = Phase::Decode;
        QCOMPARE_LT(std::abs(stageCompute({op}, m).other - 10 * 1e-6), 1e-15);
        op.phase = Phase::Optimizer;
        op.launches = 1;
        QCOMPARE(stageCompute({op}, m).fixed, 0.0);
        // A linear layer's backward is two GEMMs, dX = dY W^T and dW = X^T dY, each its own
        // launch (and a grouped GEMM's two, one per gradient); its forward is one.
        Scenario s = test::presetScenario("qwen3-30b-a3b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.ep = 8;
        int backward = 0;
        for (const WorkloadOp &w : firstStageOps(s, test::reportFor(s).memory.recipe)) {
            if (w.kind != OpKind::Matmul || w.phase == Phase::Optimizer)
                continue;
            QCOMPARE(w.launches, w.phase == Phase::Backward ? 2.0 : 1.0);
            backward += w.phase == Phase::Backward;
        }
        QVERIFY(backward >= 5);  // QKV, output, router, the experts' up and down, the head
    }

    // Context parallelism as Transformer Engine rings it (AttnFuncWithCPAndKVP2P): an attention
    // kernel per ring step each way; forward, the first step's output is rescaled (a read and a
    // write) and each later step's merged into it by the log-sum-exps (two reads and a write,
    // with an LSE kernel beside it); backward, each step's dQ, dK and dV are added into the
    // running ones (a copy first). Llama 3 8B at CP 4, 8,192 tokens, causal: a rank's 2,048
    // queries of 4,096 wide; a later step covers all of them on the ranks below the diagonal and
    // half above it, 3/4 on average over the four ranks ((0 + 1/2 x 3) + (1 + 1/2 x 2) + ... ) / 4 / 3.
    void contextParallelRingStepsAreKernels()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 4;
        s.cp = 4;
        s.seqLen = 8192;
        s.microBatch = 1;
        s.flashAttention = true;
        s.causalHalving = true;
        const Recipe recipe = test::reportFor(s).memory.recipe;
        const auto ops = firstStageOps(s, recipe);
        const double layers = 32;
        for (const Phase phase : {Phase::Forward, Phase::Backward}) {
            const auto flash = opsNamed(ops, "FlashAttention", phase);
            QCOMPARE(flash.size(), std::size_t(1));
            QCOMPARE(flash[0].launches, 4.0);
        }
        double laterShare = 0;  // rank r: r later steps whole, 3 - r halved
        for (int r = 0; r < 4; ++r)
            laterShare += (r + 0.5 * (3 - r)) / 3.0 / 4;
        QCOMPARE(laterShare, 0.75);
        const double tokens = 8192.0 / 4;
        const double out = tokens * 4096;
        const auto merge = opsNamed(ops, "CP partial-output merge", Phase::Forward);
        QCOMPARE(merge.size(), std::size_t(1));
        QCOMPARE(merge[0].count, layers);
        QCOMPARE(merge[0].bytes, 2 * (2 * out + 3 * 3 * laterShare * out));  // bf16
        QCOMPARE(merge[0].launches, 4.0 + 3.0);
        const auto sum = opsNamed(ops, "CP partial-gradient sum", Phase::Backward);
        QCOMPARE(sum.size(), std::size_t(1));
        const double grads = tokens * (4096 + 1024 + 1024);  // dQ, dK, dV (8 K/V heads of 128)
        QCOMPARE(sum[0].bytes, 2 * (2 * grads + 3 * 3 * laterShare * grads));
        QCOMPARE(sum[0].launches, 3 * 4.0);
        // No ring, no merges: one kernel each way.
        s.cp = 1;
        const auto whole = firstStageOps(s, recipe);
        QVERIFY(opsNamed(whole, "CP partial-output merge", Phase::Forward).empty());
        QCOMPARE(opsNamed(whole, "FlashAttention", Phase::Forward)[0].launches, 1.0);
        // Full recompute runs the ring again, its kernels with it.
        s.cp = 4;
        s.recompute = Recompute::Full;
        const auto again = firstStageOps(s, recipe);
        QCOMPARE(opsNamed(again, "FlashAttention", Phase::Recompute)[0].launches, 4.0);
        QCOMPARE(opsNamed(again, "CP partial-output merge", Phase::Recompute)[0].launches, 7.0);
    }

    // FP8 GEMMs run at FP8's own measured share of the fp8 peak (SemiAnalysis's GEMMs of Llama
    // 70B training, N(0, 1) inputs: H100 ~1,280 of 1,979 TFLOP/s, 0.647), every other kernel at
    // the bf16 figure (~720 of 989.5, 0.728);
    // a scenario's own efficiency stands for both. The LM head is not an FP8 GEMM: Megatron-Core's
    // output layer is a plain tensor_parallel.ColumnParallelLinear (megatron/core/models/gpt/
    // gpt_model.py), outside the FP8 autocast its TransformerBlock enters, so it runs in bf16.
    void fp8GemmsRunAtTheirOwnEfficiency()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        const Report r = test::reportFor(s);
        QCOMPARE(r.gpu.efficiencyMatmulFp8.value_or(0), 0.647);
        QVERIFY(r.gpu.efficiencyMatmulFp8Source.contains(QLatin1String("1,280 TFLOP/s")));
        QCOMPARE(r.step.matmulEfficiency, 0.647);
        QCOMPARE(r.step.computeEfficiency, 0.728);
        const StepMachine m = stepMachine(s, r.memory.recipe, r.gpu, Links{&r.scaleUp, &r.scaleOut});
        const std::vector<WorkloadOp> ops = firstStageOps(s, r.memory.recipe);
        double gemms = 0;
        int heads = 0;
        for (const WorkloadOp &op : ops) {
            if (op.kind != OpKind::Matmul || op.phase == Phase::Optimizer)
                continue;
            const bool head = std::strcmp(op.name, "LM head") == 0;
            heads += head;
            QCOMPARE(op.highPrecision, head);
            const double rate = head ? 989.5e12 * 0.728 : 1979e12 * 0.647;
            gemms += op.count * std::max(op.flops / rate, op.bytes / (m.bandwidthBytesPerS * m.memoryEfficiency))
                     + op.count * (op.phase == Phase::Backward ? 2 : 1) * 5.7e-6;  // sm_90's fixed time per GEMM: dX and dW backward
        }
        QCOMPARE(heads, 2);  // its forward and backward
        QCOMPARE_LT(std::abs(stageCompute(ops, m).matmul / gemms - 1), 1e-12);
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        QCOMPARE(test::reportFor(s).step.matmulEfficiency, 0.728);
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        s.efficiencyMatmul = 0.6;
        QCOMPARE(test::reportFor(s).step.matmulEfficiency, 0.6);
        QCOMPARE(test::reportFor(s).step.computeEfficiency, 0.6);
    }

    // NeMo's performance recipes run FP8 GEMMs with the gradient buffer in bf16
    // (grad_reduce_in_fp32 = False): the same FP8 GEMM rate as the fp32-grad recipe, half its
    // gradient memory and half the bytes ZeRO's reduce-scatter moves (Llama 3 8B, 8 H100s, ZeRO 1).
    void fp8WithBf16GradsReducesHalfTheGradientBytes()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.zeroStage = 1;
        const auto reduceScatter = [](const Report &r) { return commTensorBytes(r, "ZeRO gradient reduce-scatter"); };
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        const Report fp32Grads = test::reportFor(s);
        s.recipeId = QStringLiteral("fp8-mixed-adamw-bf16-grads");
        const Report bf16Grads = test::reportFor(s);
        QCOMPARE(bf16Grads.step.matmulEfficiency, 0.647);
        QCOMPARE(bf16Grads.memory.perGpu.grads, bf16Grads.memory.perGpu.params);  // 2 B each, ZeRO 1 leaves both whole
        QCOMPARE(fp32Grads.memory.perGpu.grads, 2 * bf16Grads.memory.perGpu.grads);
        QVERIFY(reduceScatter(bf16Grads) > 0);
        QCOMPARE(reduceScatter(fp32Grads), 2 * reduceScatter(bf16Grads));
    }

    // Transformer Engine's overlapped all-gathers keep FP8 buffers under FP8 (module/base.py,
    // initialize_ub: "Support FP8 userbuffer when (1) AllGather and (2) FP8-GEMM output
    // ReduceScatter"): Llama 3 8B at TP 4 with SP, 8,192 tokens a micro-batch, gathers
    // 8,192 x 4,096 one-byte elements and reduce-scatters them at two bytes. Without the overlap,
    // or in bf16, both move two bytes.
    void fp8OverlappedGathersMoveOneByte()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.tp = 4;
        s.sequenceParallel = true;
        s.tpOverlap = true;
        s.seqLen = 8192;
        s.microBatch = 1;
        s.recipeId = QStringLiteral("fp8-mixed-adamw-bf16-grads");
        const double elements = 8192.0 * 4096;
        const Report fp8 = test::reportFor(s);
        QCOMPARE(commTensorBytes(fp8, "TP all-gather (SP)"), elements * 1);
        QCOMPARE(commTensorBytes(fp8, "TP reduce-scatter (SP)"), elements * 2);
        s.tpOverlap = false;
        QCOMPARE(commTensorBytes(test::reportFor(s), "TP all-gather (SP)"), elements * 2);
        s.tpOverlap = true;
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        QCOMPARE(commTensorBytes(test::reportFor(s), "TP all-gather (SP)"), elements * 2);
    }

    // Under FP8 (Transformer Engine), each GEMM's input and, in backward, its incoming gradient
    // are cast to FP8 with a transposed copy (Hopper's FP8 GEMMs take only the TN layout): a
    // kernel that reads the bf16 tensor and writes two one-byte copies, 4 bytes per element.
    // Llama 3 8B at 4,096 tokens: the QKV projection's input is 4,096 x 4,096 and its output
    // 4,096 x 6,144 (32 query heads + 2 x 8 K/V heads of 128). bf16 recipes have no casts.
    void fp8GemmsBringTheirCastKernels()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.seqLen = 4096;
        s.microBatch = 1;
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        std::vector<WorkloadOp> ops = firstStageOps(s, test::reportFor(s).memory.recipe);
        const std::vector<WorkloadOp> qkv = opsNamed(ops, "QKV projection", Phase::Forward);
        QVERIFY(!qkv.empty());
        // The cast ops follow their GEMM: the first input cast is the QKV projection's.
        const std::vector<WorkloadOp> inputs = opsNamed(ops, "FP8 cast (input)", Phase::Forward);
        const std::vector<WorkloadOp> grads = opsNamed(ops, "FP8 cast (grad)", Phase::Backward);
        QVERIFY(!inputs.empty());
        QCOMPARE(inputs.size(), grads.size());
        QCOMPARE(inputs.front().bytes, 4096.0 * 4096 * 4);
        QCOMPARE(grads.front().bytes, 4096.0 * 6144 * 4);
        QCOMPARE(inputs.front().count, qkv.front().count);
        QCOMPARE(inputs.front().kind, OpKind::Elementwise);
        // One pair per FP8 GEMM: as many as the forward matmul ops but the LM head's, which runs
        // in bf16 outside the FP8 autocast (fp8GemmsRunAtTheirOwnEfficiency).
        const auto gemms = std::count_if(ops.cbegin(), ops.cend(), [](const WorkloadOp &op) {
            return op.kind == OpKind::Matmul && op.phase == Phase::Forward && std::strcmp(op.name, "LM head") != 0;
        });
        QCOMPARE(static_cast<qsizetype>(inputs.size()), static_cast<qsizetype>(gemms));
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        ops = firstStageOps(s, test::reportFor(s).memory.recipe);
        QVERIFY(opsNamed(ops, "FP8 cast (input)", Phase::Forward).empty());
        QVERIFY(opsNamed(ops, "FP8 cast (grad)", Phase::Backward).empty());
    }

    // FP8 current scaling (Transformer Engine's Float8CurrentScalingQuantizer::quantize_impl,
    // transformer_engine/pytorch/csrc/quantizer.cpp): an amax kernel and a scale kernel before each
    // cast. The amax reads the bf16 tensor again, except where its producer measured it
    // (quantize_with_amax): the norm before the QKV projection and the MLP, the activation before
    // the MLP's down projection, and the activation's backward before the up projection's
    // gradient. Llama 3 8B at 4,096 tokens: four tensors a block read once more, the QKV
    // projection's gradient (6,144 wide), the output projection's input and gradient and the
    // MLP down projection's gradient (4,096 wide each), and 12 more kernels.
    void fp8CurrentScalingMeasuresEachAmaxFirst()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.seqLen = 4096;
        s.microBatch = 1;
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        const Recipe recipe = test::reportFor(s).memory.recipe;
        const auto amaxOps = [&recipe](const Scenario &sc) {
            std::vector<WorkloadOp> all = firstStageOps(sc, recipe), out;
            std::copy_if(all.cbegin(), all.cend(), std::back_inserter(out),
                         [](const WorkloadOp &op) { return std::strncmp(op.name, "FP8 amax", 8) == 0; });
            return out;
        };
        QVERIFY(amaxOps(s).empty());  // delayed scaling, the default
        s.fp8Scaling = Fp8Scaling::Current;
        const std::vector<WorkloadOp> ops = amaxOps(s);
        double bytesPerLayer = 0, launchesPerLayer = 0;
        for (const WorkloadOp &op : ops) {
            QCOMPARE(op.count, 32.0);  // every block, none of the bf16 head
            bytesPerLayer += op.bytes;
            launchesPerLayer += op.launches;
        }
        QCOMPARE(bytesPerLayer, 4096.0 * (6144 + 3 * 4096) * 2);
        QCOMPARE(launchesPerLayer, 12.0);
        // It costs step time, and nothing under a bf16 recipe.
        s.gpuId = QStringLiteral("b200");
        s.timeBasis = TimeBasis::Estimated;
        const double current = test::reportFor(s).step.stepSeconds;
        s.fp8Scaling = Fp8Scaling::Delayed;
        QCOMPARE_GT(current, test::reportFor(s).step.stepSeconds);
        s.recipeId = QStringLiteral("bf16-mixed-adamw");
        const double bf16 = test::reportFor(s).step.stepSeconds;
        s.fp8Scaling = Fp8Scaling::Current;
        QCOMPARE(test::reportFor(s).step.stepSeconds, bf16);
    }

    void lossKernelMovesWhatItsCodeMoves_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("forwardBytes");   // per logit, bf16 logits (a = 2, fp32 F = 4)
        QTest::addColumn<double>("backwardBytes");
        QTest::addColumn<double>("forwardLaunches");
        QTest::addColumn<double>("backwardLaunches");
        QTest::addColumn<double>("keptBytes");
        // Megatron-LM's vocab_parallel_cross_entropy on output.float() (megatron/mpu/
        // cross_entropy.py): cast a + F, max F, subtract in place 2F, exp in place 2F, sum F,
        // divide in place 2F; backward the in-place multiply 2F and autograd's cast back F + a.
        QTest::newRow("unfused") << int(CrossEntropy::Unfused) << 38.0 << 14.0 << 6.0 << 2.0 << 4.0;
        // Megatron-Core's fused_vocab_parallel_cross_entropy (megatron/core/fusions/
        // fused_cross_entropy.py): the cast beside the max a + F, exp(x - max) in place 2F, the
        // row sum F, the divide in place 2F; backward as above.
        QTest::newRow("fused") << int(CrossEntropy::Fused) << 26.0 << 14.0 << 4.0 << 2.0 << 4.0;
        // Transformer Engine's parallel_cross_entropy (transformer_engine/pytorch/triton/
        // cross_entropy.py): an online-softmax read a, a second read writing the gradient in
        // place 2a; backward the per-token multiply in place 2a. It keeps that bf16 gradient.
        QTest::newRow("te") << int(CrossEntropy::TransformerEngine) << 6.0 << 4.0 << 2.0 << 1.0 << 2.0;
    }

    // The loss over Llama 3 8B's 128,256-wide logits at 4,096 tokens and TP 2: each of the three
    // paths moves the bytes its code reads and writes, in its kernels, and keeps what its
    // backward reads.
    void lossKernelMovesWhatItsCodeMoves()
    {
        QFETCH(int, kind);
        QFETCH(double, forwardBytes);
        QFETCH(double, backwardBytes);
        QFETCH(double, forwardLaunches);
        QFETCH(double, backwardLaunches);
        QFETCH(double, keptBytes);
        Scenario s = test::presetScenario("llama3-8b");
        s.seqLen = 4096;
        s.microBatch = 1;
        s.gpus = 2;
        s.tp = 2;
        s.crossEntropy = static_cast<CrossEntropy>(kind);
        const std::vector<WorkloadOp> ops = firstStageOps(s, test::reportFor(s).memory.recipe);
        const std::vector<WorkloadOp> forward = opsNamed(ops, "cross-entropy loss", Phase::Forward);
        const std::vector<WorkloadOp> backward = opsNamed(ops, "cross-entropy loss", Phase::Backward);
        QCOMPARE(forward.size(), std::size_t(1));
        QCOMPARE(backward.size(), std::size_t(1));
        const double logits = 4096.0 * 128256 / 2;
        QCOMPARE(forward.front().bytes, forwardBytes * logits);
        QCOMPARE(backward.front().bytes, backwardBytes * logits);
        QCOMPARE(forward.front().launches, forwardLaunches);
        QCOMPARE(backward.front().launches, backwardLaunches);
        QCOMPARE(forward.front().savedBytes, keptBytes * logits);
        // A slower loss kernel is a longer step, nothing else moving.
        s.timeBasis = TimeBasis::Estimated;
        const double step = test::reportFor(s).step.stepSeconds;
        s.crossEntropy = CrossEntropy::TransformerEngine;
        if (kind != int(CrossEntropy::TransformerEngine))
            QCOMPARE_GT(step, test::reportFor(s).step.stepSeconds);
    }

    void bubble_data()
    {
        QTest::addColumn<qint64>("pp");
        QTest::addColumn<qint64>("vpp");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<double>("bubble");
        // Narayanan et al. 2021, Section 2.2.1: 1F1B's bubble is (p - 1)/m of the ideal time;
        // Section 2.2.2: interleaving v chunks per rank divides it by v.
        QTest::newRow("1F1B p 8, m 64") << qint64(8) << qint64(1) << qint64(64) << 7.0 / 64;
        QTest::newRow("interleaved p 8, v 2, m 64") << qint64(8) << qint64(2) << qint64(64) << 7.0 / 128;
        // Llama 3 (Dubey et al. 2024), Section 3.3.2: bubble ratio (PP - 1)/(V x M); Table 4's
        // 16,384-GPU row has PP 16 and 16 sequences per DP group at micro-batch 1.
        QTest::newRow("Llama 3 405B, PP 16, M 16") << qint64(16) << qint64(1) << qint64(16) << 15.0 / 16;
        QTest::newRow("no pipeline") << qint64(1) << qint64(1) << qint64(4) << 0.0;
    }

    void bubble()
    {
        QFETCH(qint64, pp);
        QFETCH(qint64, vpp);
        QFETCH(qint64, m);
        QFETCH(double, bubble);
        Layout l;
        l.pp = pp;
        l.vpp = vpp;
        l.microBatches = m;
        QCOMPARE(bubbleFraction(l), bubble);
    }

    void inFlight_data()
    {
        QTest::addColumn<qint64>("pp");
        QTest::addColumn<qint64>("vpp");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("stage");
        QTest::addColumn<double>("microBatches");
        // Narayanan et al. 2021, Section 2.2.1: in 1F1B stage i holds p - i micro-batches.
        QTest::newRow("1F1B first stage") << qint64(8) << qint64(1) << qint64(64) << qint64(0) << 8.0;
        QTest::newRow("1F1B last stage") << qint64(8) << qint64(1) << qint64(64) << qint64(7) << 1.0;
        // Megatron-LM's theoretical_memory_usage: with fewer micro-batches than stages the first
        // stage holds m of them (its min(1, m / p) discount).
        QTest::newRow("1F1B m < p") << qint64(8) << qint64(1) << qint64(4) << qint64(0) << 4.0;
        // Korthikanti et al. 2022, Section 4.2.3: interleaving holds 1 + (p - 1)/(p m) times more
        // on the first stage (m there is the chunks per rank): 8 x (1 + 7/24).
        QTest::newRow("interleaved p 8, v 3") << qint64(8) << qint64(3) << qint64(64) << qint64(0) << 8.0 * (1 + 7.0 / 24);
        QTest::newRow("interleaved p 16, v 2") << qint64(16) << qint64(2) << qint64(64) << qint64(0) << 16.0 * (1 + 15.0 / 32);
    }

    void inFlight()
    {
        QFETCH(qint64, pp);
        QFETCH(qint64, vpp);
        QFETCH(qint64, m);
        QFETCH(qint64, stage);
        QFETCH(double, microBatches);
        Layout l;
        l.pp = pp;
        l.vpp = vpp;
        l.microBatches = m;
        QCOMPARE(inFlightMicroBatches(l, stage), microBatches);
    }

    void stageSplit()
    {
        // Uneven stages: the extra layers go to stages 1, 2, ..., never to the first. Llama 3
        // 405B's 126 layers on 16 stages come out as Meta ran them (Dubey et al. 2024, Section
        // 3.3.2: one layer fewer on the first and the last stage).
        QCOMPARE(stageLayers(126, 16), (std::vector<std::int64_t>{7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7}));
        QCOMPARE(stageLayers(80, 8), std::vector<std::int64_t>(8, 10));
        QCOMPARE(stageLayers(5, 5), std::vector<std::int64_t>(5, 1));
    }

    void layoutRules_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        // One line, status 2, naming the rule: the four, and the batch rules.
        QTest::newRow("tp not dividing heads") << QStringLiteral("report --preset gpt2-small --gpus 8 --tp 8")
                                               << QStringLiteral("napkin: --tp: must divide heads = 12");
        QTest::newRow("tp not dividing kv_heads") << QStringLiteral("report --preset llama3-8b --gpus 16 --tp 16")
                                                  << QStringLiteral("napkin: --tp: must divide kv_heads = 8");
        QTest::newRow("product above the GPUs") << QStringLiteral("report --preset llama3-8b --gpus 8 --tp 4 --pp 4")
                                                << QStringLiteral("napkin: --gpus: must be at least tp x pp x cp = 16 (got 8)");
        QTest::newRow("product not dividing") << QStringLiteral("report --preset llama3-8b --gpus 24 --tp 8 --pp 2")
                                              << QStringLiteral("napkin: --gpus: must be a multiple of tp x pp x cp = 16");
        QTest::newRow("pp above the layers") << QStringLiteral("report --preset gpt2-small --gpus 16 --pp 16")
                                             << QStringLiteral("napkin: --pp: must be at most layers = 12");
        QTest::newRow("cp not dividing the sequence") << QStringLiteral("report --preset llama3-8b --seq-len 1000 --gpus 8 --cp 8")
                                                      << QStringLiteral("napkin: --cp: must divide seq_len = 1000 into 2 x cp");
        QTest::newRow("global batch") << QStringLiteral("report --preset llama3-8b --gpus 8 --batch 2 --global-batch 20")
                                      << QStringLiteral("napkin: --global-batch: must be a multiple of batch x dp = 2 x 8 = 16");
        QTest::newRow("vpp without pp") << QStringLiteral("report --preset llama3-8b --gpus 8 --vpp 2")
                                        << QStringLiteral("napkin: --vpp: must be 1 when pp = 1");
        QTest::newRow("interleaving needs m divisible by pp")
            << QStringLiteral("report --preset llama3-8b --gpus 8 --pp 4 --vpp 2 --batch 1 --global-batch 6")
            << QStringLiteral("napkin: --vpp: needs micro-batches per step (3) to be a multiple of pp = 4");
        QTest::newRow("node beyond the NVLink domain") << QStringLiteral("report --preset llama3-8b --gpus 16 --gpus-per-node 16")
                                                       << QStringLiteral("napkin: --gpus-per-node: must be at most 8");
        QTest::newRow("unknown interconnect") << QStringLiteral("report --interconnect ib-9000")
                                              << QStringLiteral("napkin: --interconnect: must be one of nvlink2,");
        QTest::newRow("efficiency 0") << QStringLiteral("report --efficiency-matmul 0")
                                      << QStringLiteral("napkin: --efficiency-matmul: must be a number from above 0 to 1");
        QTest::newRow("a bare parameter count has no layers to split") << QStringLiteral("report --params 124e6 --gpus 8 --tp 2")
                                                                       << QStringLiteral("napkin: --tp: must be 1, and pp too");
        // MoE parallel folding: NVIDIA's Qwen3-235B-A22B recipe runs TP 2 x PP 8 x EP 32 on 256
        // GPUs (DP 16) with expert TP 1; without --etp, EP comes from DP x CP only.
        QTest::newRow("EP beyond DP x CP without folding")
            << QStringLiteral("report --preset qwen3-235b-a22b --gpus 256 --tp 2 --pp 8 --ep 32")
            << QStringLiteral("napkin: --ep: must divide dp x cp = 16 x 1 = 16");
        QTest::newRow("EP x ETP beyond TP x DP x CP")
            << QStringLiteral("report --preset qwen3-235b-a22b --gpus 256 --tp 2 --pp 8 --ep 32 --etp 2")
            << QStringLiteral("napkin: --etp: ep x etp = 32 x 2 = 64 must divide tp x dp x cp = 2 x 16 x 1 = 32");
        QTest::newRow("expert TP on a dense model") << QStringLiteral("report --preset llama3-8b --gpus 8 --tp 2 --etp 2")
                                                    << QStringLiteral("napkin: --etp: must be 1 or unset for a dense model");
        // deepseek-ai/DualPipe, dualpipe.py: "num_ranks % 2 == 0", "num_chunks % 2 == 0 and
        // num_chunks >= num_ranks * 2".
        QTest::newRow("DualPipe on an odd pipeline")
            << QStringLiteral("report --preset llama3-8b --gpus 6 --pp 3 --batch 1 --global-batch 24 --pp-schedule dualpipe")
            << QStringLiteral("napkin: --pp-schedule: \"dualpipe\" needs an even pp");
        QTest::newRow("DualPipe interleaved")
            << QStringLiteral("report --preset llama3-8b --gpus 8 --pp 4 --vpp 2 --batch 1 --global-batch 16 --pp-schedule dualpipe")
            << QStringLiteral("napkin: --pp-schedule: \"dualpipe\" needs vpp = 1");
        QTest::newRow("DualPipe with fewer than 2 x pp micro-batches")
            << QStringLiteral("report --preset llama3-8b --gpus 8 --pp 4 --batch 1 --global-batch 12 --pp-schedule dualpipe")
            << QStringLiteral("napkin: --pp-schedule: \"dualpipe\" needs an even number of micro-batches per step, at "
                              "least 2 x pp = 8, half entering from each end: raise global_batch (got 6)");
    }

    // DualPipe (DeepSeek-V3, Section 3.2.1 and Table 2; deepseek-ai/DualPipe's README table):
    // rank i holds stages i and pp - 1 - i, "2x" the parameters and "PP + 1" micro-batches of
    // activations per device, and a bubble of (PP/2 - 1)(F&B + B - 3W): none at all with two
    // stages, where 1F1B idles one micro-batch.
    void dualPipeFollowsTable2()
    {
        Scenario s = test::presetScenario("llama3-8b");  // 32 layers: 4 a stage on 8 stages
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 8;
        s.pp = 8;
        s.seqLen = 4096;
        s.flashAttention = true;
        s.microBatch = 1;
        s.globalBatch = 32;
        s.timeBasis = TimeBasis::Estimated;
        const Report one = test::reportFor(s);
        s.ppSchedule = PipelineSchedule::DualPipe;
        const Report dual = test::reportFor(s);
        QVERIFY(dual.layout.dualPipe && !one.layout.dualPipe);
        for (qsizetype i = 0; i < 8; ++i) {
            const StageMemory &st = dual.memory.perStage[i];
            QCOMPARE(st.params, one.memory.perStage[i].params + one.memory.perStage[7 - i].params);
            QCOMPARE(st.inFlightMicroBatches, 9.0);  // PP + 1
            QCOMPARE(st.layers, 8);
        }
        // A middle rank holds two stages alike: twice the parameters of one.
        QCOMPARE(dual.memory.perStage[3].params, 2 * one.memory.perStage[3].params);
        // Activations: 9 micro-batches of 4 layers (two stages' worth at 4.5 each) against 1F1B's
        // first stage holding 8 of its 4 layers plus the embedding's.
        QVERIFY(dual.memory.perStage[3].bytes.activations > one.memory.perStage[3].bytes.activations);
        // The bubble shrinks from 7 micro-batches' time to 3 pairs' (F&B + B - 3W).
        QVERIFY(dual.step.bubble > 0);
        QVERIFY(dual.step.bubble < one.step.bubble * 3.0 / 7);
        QVERIFY(dual.step.stepSeconds < one.step.stepSeconds);
        // The work is the same: rank 0 runs half the micro-batches through stage 0 (with the
        // embedding) and half through stage 7 (with the head), 1F1B's slowest stage all of them.
        QVERIFY(dual.step.computeMatmul < one.step.computeMatmul);

        // Two stages: (2/2 - 1) pairs, no bubble; 1F1B idles (pp - 1)/m of the step.
        s.pp = 2;
        s.globalBatch = 16;  // DP 4: 4 micro-batches, 2 x pp
        const Report twoDual = test::reportFor(s);
        QCOMPARE(twoDual.step.bubble, 0.0);
        QCOMPARE(twoDual.step.bubbleFraction, 0.0);
        s.ppSchedule = PipelineSchedule::OneFOneB;
        const Report twoOne = test::reportFor(s);
        QCOMPARE(twoOne.step.bubbleFraction, 1.0 / 4);
        // Serving runs no schedule of micro-batches: an odd pipeline is no refusal there, and the
        // schedule changes nothing.
        Scenario serving = s;
        serving.mode = Mode::Inference;
        serving.pp = 3;
        serving.gpus = 6;
        serving.globalBatch.reset();
        const Report servedDual = test::reportFor(serving);
        serving.ppSchedule = PipelineSchedule::OneFOneB;
        QCOMPARE(test::reportFor(serving).inference->ttftSeconds, servedDual.inference->ttftSeconds);
        QVERIFY(!servedDual.layout.dualPipe);
        // Without a pipeline the schedule changes nothing.
        s.pp = 1;
        const Report flat = test::reportFor(s);
        s.ppSchedule = PipelineSchedule::DualPipe;
        QCOMPARE(test::reportFor(s).step.stepSeconds, flat.step.stepSeconds);
    }

    // MoE parallel folding (Megatron-Core; Liu et al. 2025): the published Qwen3-235B-A22B layout
    // is accepted, its experts split 32 ways with no expert TP, and ZeRO shards the expert state
    // over tp x dp x cp / (ep x etp) = 1 rank. Each rank computes its own tokens' expert rows
    // whatever the expert TP: etp only moves where the weights sit.
    void moeParallelFolding()
    {
        Scenario s = test::presetScenario("qwen3-235b-a22b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 256;
        s.tp = 2;
        s.pp = 8;
        s.ep = 32;
        s.etp = 1;
        s.sequenceParallel = true;
        s.seqLen = 4096;
        s.globalBatch = 2048;
        s.timeBasis = TimeBasis::Estimated;
        const Report r = test::reportFor(s);
        QCOMPARE(r.layout.etp, 1);
        QCOMPARE(r.layout.expertShardGroup(), 1);
        QVERIFY(splitText(r.layout).endsWith(QLatin1String("etp 1")));
        // 8 of the 32 EP ranks share a node (EP ranks next to each other with etp 1).
        QCOMPARE(Links::membersPerNode(CommGroup::Ep, r.layout), 8);

        Scenario a = test::presetScenario("qwen3-30b-a3b");  // 128 experts
        a.gpus = 8;
        a.tp = 2;
        a.ep = 4;
        a.sequenceParallel = true;
        Scenario b = a;
        b.etp = 1;  // folded: EP 4 x ETP 1 over TP 2 x DP 4
        const Recipe recipe = test::reportFor(a).memory.recipe;
        const auto expertSums = [&recipe](const Scenario &sc, double *flops, double *weights) {
            for (const WorkloadOp &op : firstStageOps(sc, recipe))
                if (op.expert && op.kind == OpKind::Matmul) {
                    *flops += op.count * op.flops;
                    *weights += op.count * op.params;
                }
        };
        double flopsA = 0, flopsB = 0, weightsA = 0, weightsB = 0;
        expertSums(a, &flopsA, &weightsA);
        expertSums(b, &flopsB, &weightsB);
        QVERIFY(test::reportFor(b).layout.expertShardGroup() == 2);  // 2 x 4 x 1 / (4 x 1)
        QVERIFY(flopsA > 0);
        QCOMPARE_LT(std::abs(flopsB / flopsA - 1), 1e-12);
        QCOMPARE_LT(std::abs(weightsB / weightsA - 2), 1e-12);  // each expert whole instead of halved
    }

    void layoutRules()
    {
        QFETCH(QString, args);
        QFETCH(QString, message);
        const Run r = runNapkin(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.startsWith(message.toUtf8()) && r.err.count('\n') == 1, r.err.constData());
    }

    // The bounds the window's sliders keep to are validateLayout()'s rules, stated once more:
    // on a grid of layouts, the value at each bound is accepted and the one past it refused.
    void sliderBoundsAreTheLayoutRules()
    {
        const ModelShape shape = test::catalog().findPreset(QStringLiteral("llama3-8b"))->shape;
        int checked = 0;
        for (std::int64_t pp : {1, 2, 4, 8})
            for (std::int64_t vpp : {1, 2, 3})
                for (std::int64_t cp : {1, 2, 8})
                    for (std::int64_t global : {0, 64, 96}) {
                        Scenario s;
                        s.model = shape;
                        s.gpus = 64;
                        s.pp = pp;
                        s.vpp = pp > 1 ? vpp : 1;
                        s.cp = cp;
                        s.microBatch = 1;
                        if (global)
                            s.globalBatch = global;
                        s.seqLen = 4096;
                        if (validateLayout(s))
                            continue;  // the layout itself is refused: no bounds to speak of
                        ++checked;
                        const std::string where = QStringLiteral("pp %1 vpp %2 cp %3 global %4")
                                                      .arg(pp).arg(s.vpp).arg(cp).arg(global).toStdString();
                        Scenario at = s;
                        at.model.layers = fewestLayers(s);
                        QVERIFY2(!validateLayout(at), where.c_str());
                        if (at.model.layers > 1) {
                            --at.model.layers;
                            QVERIFY2(validateLayout(at), where.c_str());
                        }
                        at = s;
                        at.seqLen = 3 * seqLenMultiple(s);
                        QVERIFY2(!validateLayout(at), where.c_str());
                        if (seqLenMultiple(s) > 1) {
                            at.seqLen += 1;
                            QVERIFY2(validateLayout(at), where.c_str());
                        }
                        for (std::int64_t micro = 1; micro <= 64; ++micro) {
                            at = s;
                            at.microBatch = micro;
                            QVERIFY2(microBatchFits(s, micro) == !validateLayout(at),
                                     (where + " micro-batch " + std::to_string(micro)).c_str());
                        }
                    }
        QVERIFY(checked > 20);
    }

    // Korthikanti et al. 2022, Figure 1, as the paper's formulas give it (Calculon's validation
    // reference, calculon-ai/calculon@caa4b11, validation/: tests/validation/korthikanti_2022.md):
    // parameters + optimizer 18 bytes x 12 L h^2 / (t p) (no embedding, so compared with a
    // stage that holds none), and first-stage activations, Table 2's row x L x (1 + (p - 1)/(p v)).
    void korthikantiFigure1_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<double>("paramsAndOptimizerGiB");
        QTest::addColumn<double>("baselineGiB");
        QTest::addColumn<double>("presentWorkGiB");
        QTest::newRow("22B, t 8") << korthikantiGpt(64, 6144, 48, 8, 1, 1, 4, 4) << 45.5625 << 59.25 << 9.5625;
        QTest::newRow("175B, t 8 p 8 v 3") << korthikantiGpt(96, 12288, 96, 8, 8, 3, 1, 64) << 45.5625 << 66.84375 << 12.3515625;
        QTest::newRow("530B, t 8 p 35 v 3") << korthikantiGpt(128, 20480, 105, 8, 35, 3, 1, 280) << 31.640625 << 114.0234375
                                            << 23.076171875;
        QTest::newRow("1T, t 8 p 64") << korthikantiGpt(160, 25600, 128, 8, 64, 1, 1, 512) << 32.958984375 << 131.25 << 26.5625;
    }

    void korthikantiFigure1()
    {
        QFETCH(Scenario, scenario);
        QFETCH(double, paramsAndOptimizerGiB);
        QFETCH(double, baselineGiB);
        QFETCH(double, presentWorkGiB);
        // Baseline: tensor parallelism alone, nothing recomputed.
        const Report base = test::reportFor(scenario);
        const MemoryReport &m = base.memory;
        // A stage with no embedding or head (stage 1 when there are three or more), or the
        // only stage, whose 51,200 x h token table adds 1.4% for 22B.
        const StageMemory &plain = m.perStage[m.layout.pp > 2 ? 1 : 0];
        const double state = plain.bytes.modelState() / kGiB;
        const double baseline = m.perStage[0].bytes.activations / kGiB;
        // Present work: sequence parallelism and selective recompute.
        Scenario present = scenario;
        present.sequenceParallel = true;
        present.recompute = Recompute::Selective;
        const double presentWork = test::reportFor(present).memory.perStage[0].bytes.activations / kGiB;
        qInfo("params+optimizer %.4f GiB (%.4f, %+.2f%%), baseline %.4f GiB (%.4f, %+.2f%%), present %.4f GiB (%.4f, %+.2f%%)",
              state, paramsAndOptimizerGiB, (state / paramsAndOptimizerGiB - 1) * 100, baseline, baselineGiB,
              (baseline / baselineGiB - 1) * 100, presentWork, presentWorkGiB, (presentWork / presentWorkGiB - 1) * 100);
        QVERIFY(test::near(state, paramsAndOptimizerGiB, 0.03));
        QVERIFY(test::near(baseline, baselineGiB, 0.03));
        QVERIFY(test::near(presentWork, presentWorkGiB, 0.03));
    }

    // Korthikanti et al. 2022, Figure 7: a block's activation memory under each technique as a
    // share of tensor parallelism alone (the reference values tests/validation/korthikanti_2022.md
    // lists from Calculon's validation, within 0.14 points of Table 2's ratios).
    void korthikantiFigure7_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<double>("sequenceParallel");
        QTest::addColumn<double>("selective");
        QTest::addColumn<double>("both");
        QTest::addColumn<double>("full");
        QTest::newRow("22B") << korthikantiGpt(64, 6144, 48, 8, 1, 1, 4, 4) << 66.84 << 49.42 << 16.18 << 7.64;
        QTest::newRow("175B") << korthikantiGpt(96, 12288, 96, 8, 8, 3, 1, 64) << 62.04 << 56.53 << 18.49 << 8.71;
        QTest::newRow("530B") << korthikantiGpt(128, 20480, 105, 8, 35, 3, 1, 280) << 58.31 << 62.04 << 20.27 << 9.42;
        QTest::newRow("1T") << korthikantiGpt(160, 25600, 128, 8, 64, 1, 1, 512) << 58.31 << 62.04 << 20.27 << 9.42;
    }

    void korthikantiFigure7()
    {
        QFETCH(Scenario, scenario);
        QFETCH(double, sequenceParallel);
        QFETCH(double, selective);
        QFETCH(double, both);
        QFETCH(double, full);
        const auto perLayer = [&](bool sp, Recompute r) {
            Scenario v = scenario;
            v.sequenceParallel = sp;
            v.recompute = r;
            return test::reportFor(v).memory.activations.perLayer;
        };
        const double none = perLayer(false, Recompute::None);
        const double rows[][2] = {{perLayer(true, Recompute::None), sequenceParallel},
                                  {perLayer(false, Recompute::Selective), selective},
                                  {perLayer(true, Recompute::Selective), both},
                                  {perLayer(false, Recompute::Full), full}};
        for (const auto &row : rows) {
            const double percent = 100 * row[0] / none;
            QVERIFY2(test::near(percent, row[1], 0.03), qPrintable(QStringLiteral("%1%% vs %2%%").arg(percent).arg(row[1])));
        }
    }

    // The workload is the one description of the transformer: its matmul FLOPs add up to the
    // detailed count, split exactly by TP, and its stages' parameters to the model's.
    void workloadInvariants_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("flash");
        QTest::newRow("gpt2-small") << QStringLiteral("gpt2-small") << false << false;
        QTest::newRow("gpt2-xl causal") << QStringLiteral("gpt2-xl") << true << false;
        QTest::newRow("llama3-8b flash") << QStringLiteral("llama3-8b") << false << true;
        QTest::newRow("llama2-70b causal flash") << QStringLiteral("llama2-70b") << true << true;
    }

    void workloadInvariants()
    {
        QFETCH(QString, preset);
        QFETCH(bool, causal);
        QFETCH(bool, flash);
        Scenario s = test::presetScenario(preset.toLatin1().constData());
        s.causalHalving = causal;
        s.flashAttention = flash;
        s.microBatch = 2;
        s.seqLen = 512;
        const Report r = test::reportFor(s);
        const double detailedPerMicroBatch = 3 * r.flops.forwardPerSequence.total() * 2;
        const Recipe recipe = r.memory.recipe;
        // One GPU holding everything: the roofline's matmul FLOPs are the detailed count.
        QVERIFY(test::near(r.roofline.modelFlopsPerStep, detailedPerMicroBatch, 1e-12));
        // TP 8 (heads 12, 25, 32, 64 and kv_heads all admit some TP; use their largest common
        // power of two up to 8): every matmul splits, so tp ranks together do the same work.
        std::int64_t tp = 1;
        while (tp < 8 && s.model.heads % (2 * tp) == 0 && s.model.kvHeads % (2 * tp) == 0)
            tp *= 2;
        // PP 4 over the stages: the stages' matmul FLOPs add up to the whole model's.
        Scenario split = s;
        split.tp = tp;
        split.pp = 4;
        split.gpus = tp * 4;
        std::vector<WorkloadOp> ops;
        double sum = 0;
        for (std::int64_t stage = 0; stage < 4; ++stage) {
            buildWorkload(stageWorkload(split, recipe, stage, QList<double>(4, 0.0)), ops);
            sum += modelMatmulFlops(ops) * static_cast<double>(tp);
        }
        QVERIFY2(test::near(sum, detailedPerMicroBatch, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(detailedPerMicroBatch)));
        // Parameters: the stages of one TP rank at tp = 1 hold the model, plus the last stage's
        // copy of a tied token table.
        Scenario stages = s;
        stages.pp = 4;
        stages.gpus = 4;
        const Layout l = deriveLayout(stages, 8);
        double params = 0;
        for (double p : stageParams(stages, l))
            params += p;
        const double tiedCopy = s.model.tied ? static_cast<double>(s.model.vocab * s.model.dModel) : 0;
        QCOMPARE(params, static_cast<double>(r.params.total) + tiedCopy);
    }

    // The planner searches MoE parallel folding: with TP > 1 it tries expert TP equal to TP and
    // expert TP 1, whose EP may reach TP x DP x CP. For Qwen3-235B-A22B on 256 H100s it finds
    // layouts with EP beyond DP x CP, and applying one gives a scenario that validates.
    void plannerSearchesMoeParallelFolding()
    {
        Scenario s = test::presetScenario("qwen3-235b-a22b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 256;
        s.seqLen = 4096;
        s.globalBatch = 2048;
        s.flashAttention = true;
        s.recipeId = QStringLiteral("fp8-mixed-adamw");
        s.tp = 2;
        s.pp = 8;
        s.ep = 8;
        s.sequenceParallel = true;
        const Report r = test::reportFor(s);
        PlanOptions options;
        options.top = 1 << 20;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        const auto folded = std::find_if(plan.layouts.cbegin(), plan.layouts.cend(), [](const PlannedLayout &p) {
            return p.fits && p.etp == 1 && p.tp > 1 && p.ep > p.dp * p.cp;
        });
        QVERIFY(folded != plan.layouts.cend());
        const Scenario applied = withPlannedLayout(s, *folded);
        QCOMPARE(applied.etp.value_or(0), 1);
        const auto refused = validateLayout(applied);
        QVERIFY2(!refused, refused ? qPrintable(refused->problem) : "");
        QVERIFY(plannedLayoutText(*folded).contains(QLatin1String("etp 1")));
        // A layout at expert TP = TP leaves the scenario's etp unset.
        const auto plain = std::find_if(plan.layouts.cbegin(), plan.layouts.cend(),
                                        [](const PlannedLayout &p) { return p.fits && p.etp == p.tp && p.tp > 1; });
        QVERIFY(plain != plan.layouts.cend());
        QVERIFY(!withPlannedLayout(s, *plain).etp);
    }

    void layoutOneIsUnchanged()
    {
        // tp = pp = cp = 1 leaves every figure as before layouts: one stage, the same per-GPU
        // memory as the ZeRO table, the batch x GPUs tokens per step.
        Scenario s = test::presetScenario("llama2-7b");
        s.gpus = 8;
        s.zeroStage = 1;
        const Report r = test::reportFor(s);
        QCOMPARE(r.memory.perStage.size(), qsizetype(1));
        QCOMPARE(r.memory.perGpu.total(), r.memory.byZeroStage[1].total());
        QCOMPARE(r.flops.tokensPerStep, 8.0 * 1024 * 8);
        QCOMPARE(r.layout.dp, std::int64_t{8});
    }

    void planner()
    {
        // Llama 3 70B on 64 H100s at sequence 8192, 1M tokens per step.
        Scenario s = test::presetScenario("llama3-70b");
        s.gpuId = QStringLiteral("h100-sxm");
        s.gpus = 64;
        s.seqLen = 8192;
        s.microBatch = 1;
        s.globalBatch = 128;
        s.flashAttention = true;
        const Report r = test::reportFor(s);
        PlanOptions options;
        options.top = 20;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        QVERIFY(plan.fitting > 0);
        QCOMPARE(plan.layouts.size(), qsizetype(20));
        for (qsizetype i = 0; i < plan.layouts.size(); ++i) {
            const PlannedLayout &p = plan.layouts[i];
            QVERIFY(p.fits);
            QVERIFY(p.worstStageBytes <= r.gpu.memoryBytes);
            QCOMPARE(p.tp * p.pp * p.cp * p.dp, std::int64_t{64});
            QVERIFY(p.tp <= 8);  // within the NVLink domain
            if (i > 0) {
                const PlannedLayout &q = plan.layouts[i - 1];
                QVERIFY(p.stepSeconds >= q.stepSeconds);
                // A tie goes to the simpler layout (fewer splits, lower CP, then PP), then to
                // the one with more memory to spare.
                const auto splits = [](const PlannedLayout &x) {
                    return int(x.tp > 1) + int(x.pp > 1) + int(x.vpp > 1) + int(x.cp > 1) + int(x.ep > 1);
                };
                if (std::abs(p.stepSeconds - q.stepSeconds) <= 1e-9 * q.stepSeconds)
                    QVERIFY(std::tuple(splits(q), q.cp, q.pp, q.worstStageBytes) <= std::tuple(splits(p), p.cp, p.pp, p.worstStageBytes));
            }
            QVERIFY(!p.reason.isEmpty());
            QVERIFY2(!p.reason.contains(QLatin1String("expert")), qPrintable(p.reason));  // a dense model: no experts to name
        }
        QVERIFY(!plan.currentRank);  // tp 1 x dp 64 holds 70B whole on every GPU: does not fit
        // Applying the best layout makes the scenario rank first, and the report agrees with the
        // planner on its memory and step.
        const PlannedLayout &best = plan.layouts.first();
        const Scenario applied = withPlannedLayout(s, best);
        const Report after = test::reportFor(applied);
        QCOMPARE(after.memory.perGpu.total(), best.worstStageBytes);
        QCOMPARE(after.step.stepSeconds, best.stepSeconds);
        const PlanReport again = planLayouts(applied, after.gpu, after.memory.recipe, after.scaleUp, after.scaleOut, options);
        QCOMPARE(again.currentRank.value_or(0), std::int64_t{1});
        // Every listed layout, applied, is ranked where it stands, ties included (ZeRO 1 after
        // ZeRO 2 at the same step had been ranked one place higher, beside the tied layout).
        for (qsizetype i = 1; i < plan.layouts.size(); ++i) {
            const Scenario layout = withPlannedLayout(s, plan.layouts[i]);
            const PlanReport own = planLayouts(layout, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
            QCOMPARE(own.currentRank.value_or(0), std::int64_t{i + 1});
        }
    }

    // Each layout's reason names the part of the step where it differs most: on one GPU there
    // is no pipeline, so micro-batch 8 against 4 is told as compute, never as "pipeline bubble
    // 0 s against 0 s".
    void plannerReasonsNameThePartThatDiffers()
    {
        Scenario s;  // GPT-2 small on one H100: tp 1 x pp 1 x dp 1, layouts differ in micro-batch, ZeRO, recompute
        s.gpus = 1;
        s.globalBatch = 8;
        const Report r = test::reportFor(s);
        PlanOptions options;
        options.top = 12;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        QVERIFY(plan.layouts.size() > 2);
        bool compute = false;
        for (const PlannedLayout &p : plan.layouts) {
            QCOMPARE(p.pp, std::int64_t{1});
            QVERIFY2(!p.reason.contains(QLatin1String("pipeline bubble")), qPrintable(p.reason));
            compute |= p.reason.contains(QLatin1String("compute and optimizer step"));
        }
        QVERIFY(compute);
    }

    // The window's fit banner names what a fix changes, not the whole layout: the planner's row
    // for Llama 3 8B on 8 H100s at micro-batch 8 (188 GB a GPU) keeps tp 1 · pp 1 · cp 1 · dp 8.
    void fixNamesWhatItChanges()
    {
        Scenario s = test::presetScenario("llama3-8b");
        s.seqLen = 1024;
        s.microBatch = 8;
        PlannedLayout p;
        p.dp = 8;
        p.zeroStage = 2;
        p.microBatch = 4;
        QCOMPARE(plannedChangeText(p, s), QStringLiteral("ZeRO 2 · micro-batch 4"));
        // A new split names its dimensions (dp follows), SP where TP brings it, then the rest.
        p.tp = 2;
        p.pp = 4;
        p.vpp = 7;
        p.dp = 1;
        p.sp = true;
        p.recompute = Recompute::Full;
        QCOMPARE(plannedChangeText(p, s),
                 QStringLiteral("tp 2 · pp 4 (vpp 7) · SP · ZeRO 2 · micro-batch 4 · full recompute"));
        // Nothing changed: the whole layout.
        PlannedLayout same;
        same.dp = 8;
        same.microBatch = 8;
        QCOMPARE(plannedChangeText(same, s), plannedLayoutText(same));
        // Where the scenario's layout fits nothing, the suggestion's change reads so too.
        const Report r = test::reportFor(s);
        QVERIFY(!r.memory.fits);
        const auto fix = suggestFit(r);
        QVERIFY(fix && fix->layout);
        QVERIFY2(!plannedChangeText(*fix->layout, s).contains(QLatin1String("dp ")),
                 qPrintable(plannedChangeText(*fix->layout, s)));
    }

    // The planner plans from any start: Llama 3.1 405B on 16,384 H100s with Meta's 2,048
    // sequences per step (Dubey et al. 2024, Table 4: 16M tokens at 8,192), which the starting
    // layout (8 sequences on each of 16,384 data-parallel GPUs) cannot split. The current
    // entry says why; every planned layout takes the batch.
    void plannerPlansFromAnyStart()
    {
        Scenario s = test::presetScenario("llama3.1-405b");
        s.gpus = 16384;
        s.seqLen = 8192;
        s.globalBatch = 2048;
        s.flashAttention = true;
        QVERIFY(validateLayout(s).has_value());
        const Report r = test::reportFor(withSimplestLayout(s));
        PlanOptions options;
        options.top = 5;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        QVERIFY(plan.currentProblem.has_value());
        QCOMPARE(plan.currentProblem->field, QStringLiteral("global_batch"));
        QVERIFY(!plan.currentRank);
        QCOMPARE(plan.globalBatch, std::int64_t{2048});
        QVERIFY(plan.fitting > 0);
        for (const PlannedLayout &p : plan.layouts) {
            QVERIFY(p.fits);
            const auto report = computeReport(withPlannedLayout(s, p), test::catalog());
            QVERIFY2(report.ok(), qPrintable(report.refusalMessage()));
            QCOMPARE(report->layout.globalBatch, std::int64_t{2048});
        }
    }

    void plannerKeepsTheOffloadsZeroStage()
    {
        // Offload needs ZeRO 1+ (ZeRO-Offload) or 3 (ZeRO-Infinity): every planned layout is one
        // the scenario can take, and the plan's memory counts the offloaded state off the GPU.
        Scenario s = test::presetScenario("llama3-70b");
        s.gpus = 16;
        s.seqLen = 4096;
        s.microBatch = 1;
        s.globalBatch = 64;
        s.flashAttention = true;
        for (Offload offload : {Offload::Optimizer, Offload::Params}) {
            s.offload = offload;
            s.zeroStage = 3;
            const Report r = test::reportFor(s);
            PlanOptions options;
            options.top = 50;
            const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
            QVERIFY(plan.fitting > 0);
            for (const PlannedLayout &p : plan.layouts) {
                QVERIFY(p.zeroStage >= (offload == Offload::Params ? 3 : 1));
                const Scenario applied = withPlannedLayout(s, p);
                const auto report = computeReport(applied, test::catalog());
                QVERIFY2(report.ok(), qPrintable(report.refusalMessage()));
                QCOMPARE(report->memory.perGpu.total(), p.worstStageBytes);
            }
        }
    }

    void appliedPlansKeepTheGlobalBatchTheyWerePlannedAt()
    {
        // A global batch left to follow batch x dp (the window's default) is the one the plan
        // keeps: Llama 3 70B on 64 GPUs at tp 4 x pp 4 and micro-batch 8 runs 32 sequences a
        // step. Its best fitting plans run micro-batch 1 at DP 4 (tp 2 x pp 8, interleaved):
        // applied, each must still run 32 sequences, so 8 micro-batches a multiple of pp.
        // Applied plans had followed the new micro-batch and DP to 4 sequences, 1 micro-batch,
        // which interleaving refuses.
        Scenario s = test::presetScenario("llama3-70b");
        s.gpus = 64;
        s.tp = 4;
        s.pp = 4;
        QVERIFY(!s.globalBatch);
        const Report r = test::reportFor(s);
        QCOMPARE(r.layout.globalBatch, std::int64_t{32});
        PlanOptions options;
        options.top = 50;
        const PlanReport plan = planLayouts(s, r.gpu, r.memory.recipe, r.scaleUp, r.scaleOut, options);
        QCOMPARE(plan.globalBatch, std::int64_t{32});
        bool changedMicroBatch = false;
        for (const PlannedLayout &p : plan.layouts) {
            QCOMPARE(p.globalBatch, std::int64_t{32});
            const Scenario applied = withPlannedLayout(s, p);
            changedMicroBatch = changedMicroBatch || p.microBatch * p.dp != 32;
            // Where batch x dp still gives the planned batch, the batch keeps following it.
            QCOMPARE(applied.globalBatch.has_value(), p.microBatch * p.dp != 32);
            const auto report = computeReport(applied, test::catalog());
            QVERIFY2(report.ok(), qPrintable(report.refusalMessage()));
            QCOMPARE(report->layout.globalBatch, std::int64_t{32});
            QCOMPARE(report->layout.microBatches * p.microBatch * p.dp, std::int64_t{32});
        }
        QVERIFY(changedMicroBatch);  // the case that broke: a plan at another batch x dp
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
