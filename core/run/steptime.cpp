#include "core/run/steptime.h"

#include "core/workload/stageworkload.h"

#include <algorithm>

namespace napkin {

StepMachine stepMachine(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu, Links links)
{
    return stepMachine(s, gpu, links, recipe.computeDtype, recipe.matmulDtype(), s.causalHalving);
}

StepMachine stepMachine(const Scenario &s, const GpuSpec &gpu, Links links, const QString &computeDtype,
                        const QString &gemmDtype, bool causalAttention)
{
    StepMachine m;
    m.peakFlopsPerS = gpu.peakFor(computeDtype).value_or(0);
    m.matmulPeakFlopsPerS = gpu.peakFor(gemmDtype).value_or(0);
    m.bandwidthBytesPerS = gpu.memoryBandwidthBytesPerS;
    // The GEMMs at their dtype's measured figure (FP8 has its own); every other compute kernel
    // at the large-GEMM figure of the compute dtype. A scenario's own figure stands for both.
    m.computeEfficiency = s.efficiencyMatmul.value_or(gpu.efficiencyMatmul);
    const bool fp8Gemms = gemmDtype == QLatin1String("fp8") && gpu.efficiencyMatmulFp8;
    m.matmulEfficiency = s.efficiencyMatmul.value_or(fp8Gemms ? *gpu.efficiencyMatmulFp8 : gpu.efficiencyMatmul);
    m.memoryEfficiency = s.efficiencyMemory.value_or(gpu.efficiencyMemory);
    // A scenario's own matmul efficiency stands for every compute kernel, attention too.
    if (!s.efficiencyMatmul) {
        // Under a causal mask, FlashAttention's causal figures where the GPU has them.
        const bool causal = causalAttention && gpu.efficiencyAttentionCausalForward;
        m.attentionForwardEfficiency =
            (causal ? gpu.efficiencyAttentionCausalForward : gpu.efficiencyAttentionForward).value_or(0);
        m.attentionBackwardEfficiency =
            (causal ? gpu.efficiencyAttentionCausalBackward : gpu.efficiencyAttentionBackward).value_or(0);
        if (gpu.attentionTable) {
            m.attentionTable = &*gpu.attentionTable;
            m.attentionCausal = causal;
        }
    }
    if (s.calibration) {
        m.computeScale = s.calibration->compute;
        m.memoryScale = s.calibration->memory;
        m.commScale = s.calibration->comm;
    }
    m.kernelFixedSeconds = gpu.kernelFixedSeconds.value_or(0);
    m.tpOverlapEfficiency = gpu.tpOverlapEfficiency;
    m.links = links;
    m.links.host = &gpu.hostLink;
    return m;
}

StageCompute stageCompute(const std::vector<WorkloadOp> &ops, const StepMachine &m)
{
    StageCompute c;
    // The GPU's measured large-GEMM fraction for every kernel's FLOPs but FlashAttention's,
    // which has its own (below); the GEMMs take the recipe's matmul peak (FP8), the rest its
    // compute dtype's.
    const double flopRate = m.peakFlopsPerS * m.computeEfficiency / m.computeScale;
    const double gemmRate = m.gemmPeak() * m.matmulEfficiency / m.computeScale;
    const double byteRate = m.bandwidthBytesPerS * m.memoryEfficiency / m.memoryScale;
    // FlashAttention at its own measured share of the compute dtype's peak.
    const auto attentionRate = [&m](double efficiency) {
        return m.peakFlopsPerS * (efficiency > 0 ? efficiency : m.computeEfficiency) / m.computeScale;
    };
    const double flashForwardRate = attentionRate(m.attentionForwardEfficiency);
    const double flashBackwardRate = attentionRate(m.attentionBackwardEfficiency);
    for (const WorkloadOp &op : ops) {
        // A GEMM the FP8 recipe leaves in the compute dtype runs at that dtype's figure.
        double rate = op.runsAtGemmDtype() ? gemmRate
                      : op.fusedAttention ? (op.phase == Phase::Backward ? flashBackwardRate : flashForwardRate)
                                          : flopRate;
        // FlashAttention at its own shape: the papers' speed there relative to head dim 128 and 8k.
        if (op.fusedAttention && m.attentionTable && op.attentionLength > 0)
            rate *= m.attentionTable->relativeSpeed(op.attentionHeadDim, op.attentionLength,
                                                    op.phase == Phase::Backward, m.attentionCausal);
        // Kernels launched one by one pay a fixed time each; CUDA-graph decode steps and the
        // optimizer's multi-tensor kernels do not (StepMachine::kernelFixedSeconds).
        const double fixed = op.phase == Phase::Decode || op.phase == Phase::Optimizer
                                 ? 0
                                 : op.count * op.launches * m.kernelFixedSeconds;
        const double seconds = op.count * std::max(op.flops / rate, op.bytes / byteRate) + fixed;
        c.fixed += fixed;
        if (op.phase == Phase::Optimizer) {
            c.optimizer += seconds;
            continue;
        }
        if (op.phase == Phase::Backward) {
            c.backward += seconds;
            // A linear layer's backward is two GEMMs of equal FLOPs, dX = dY W^T and dW = X^T dY.
            if (op.kind == OpKind::Matmul)
                c.weightGrad += seconds / 2;
        }
        if (op.kind == OpKind::Matmul) {
            c.matmul += seconds;
        } else if (op.kind == OpKind::Attention) {
            c.attention += seconds;
            if (op.phase != Phase::Recompute)
                c.attentionCore += seconds;
        } else {
            c.other += seconds;
        }
    }
    return c;
}

namespace {

StageCompute minus(StageCompute a, const StageCompute &b)
{
    a.matmul -= b.matmul;
    a.attention -= b.attention;
    a.other -= b.other;
    a.backward -= b.backward;
    a.weightGrad -= b.weightGrad;
    a.attentionCore -= b.attentionCore;
    a.optimizer -= b.optimizer;
    a.fixed -= b.fixed;
    return a;
}

StageCompute scaled(StageCompute a, double k)
{
    a.matmul *= k;
    a.attention *= k;
    a.other *= k;
    a.backward *= k;
    a.weightGrad *= k;
    a.attentionCore *= k;
    a.optimizer *= k;
    a.fixed *= k;
    return a;
}

void addTo(StageCompute &a, const StageCompute &b)
{
    a.matmul += b.matmul;
    a.attention += b.attention;
    a.other += b.other;
    a.backward += b.backward;
    a.weightGrad += b.weightGrad;
    a.attentionCore += b.attentionCore;
    a.optimizer += b.optimizer;
    a.fixed += b.fixed;
}

} // namespace

ComputeParts computeParts(const Scenario &s, const Recipe &recipe, const StepMachine &machine)
{
    WorkloadInput in = recipeWorkloadInput(s, recipe);
    in.layers = 1;
    in.optimizerParams = 1;
    const bool denseBlocks = in.denseLayers > 0;
    in.denseLayers = 0;
    thread_local std::vector<WorkloadOp> ops;
    ComputeParts p;
    in.firstStage = false;
    in.lastStage = false;
    buildWorkload(in, ops);
    const StageCompute blockOnly = stageCompute(ops, machine);
    p.optimizerSecondsPerParam = blockOnly.optimizer;
    p.block = blockOnly;
    p.block.optimizer = 0;
    p.denseBlock = p.block;
    if (denseBlocks) {
        in.denseLayers = 1;
        buildWorkload(in, ops);
        p.denseBlock = stageCompute(ops, machine);
        p.denseBlock.optimizer = 0;
        in.denseLayers = 0;
    }
    in.firstStage = true;
    buildWorkload(in, ops);
    p.embedding = minus(stageCompute(ops, machine), blockOnly);
    in.firstStage = false;
    in.lastStage = true;
    buildWorkload(in, ops);
    p.head = minus(stageCompute(ops, machine), blockOnly);
    return p;
}

namespace {

constexpr double kFp8Bytes = 1;  ///< one FP8 element (E4M3 or E5M2)

/// What `comm` seconds of communication cost a step when `compute` seconds of work can hide
/// them: the part compute cannot cover, plus the compute the hidden part slows (added to
/// `contention` too).
double hiddenBehind(double comm, double compute, double &contention)
{
    const double exposed = std::max(0.0, comm - compute);
    const double slowed = overlapContentionSeconds(comm - exposed);
    contention += slowed;
    return exposed + slowed;
}

struct StageTime {
    StageCompute compute;
    double perMicroBatch = 0;  ///< compute + exposed TP, CP, PP, EP
    double tp = 0, cp = 0, pp = 0, ep = 0;  ///< exposed, per micro-batch
    double dp = 0;                  ///< exposed, per step
    double host = 0;                ///< offload traffic exposed, per step
    double contention = 0;          ///< per step: compute slowed by hidden collectives, inside cp, ep and dp
    double bubble = 0;              ///< per step: the pipeline's idle time
    double seconds = 0;             ///< the whole step on this stage
};

class CommSink final
{
public:
    CommSink(QList<CommOp> *out, double scale) : m_out(out), m_scale(scale) {}
    /// Records a collective and returns its seconds per step.
    double add(const QString &name, CommGroup group, Collective c, std::int64_t n, double tensorBytes, double count,
               const Interconnect &link)
    {
        const double one = m_scale * collectiveSeconds(c, tensorBytes, n, link.collectiveBandwidth(), link.latencySeconds);
        return record(name, group, c, n, tensorBytes, count, link.id, one);
    }
    /// Records a ring collective over the group's ranks (Links::ring: the NICs of a node its
    /// ranks share carry the ring together) and returns its seconds per step.
    double addRing(const QString &name, CommGroup group, Collective c, double tensorBytes, double count,
                   const Links::Ring &ring)
    {
        const double one = m_scale * collectiveSeconds(c, tensorBytes, ring.size, ring.bandwidth, ring.link->latencySeconds);
        if (!m_out)
            return one * count;  // the planner's evaluations: no name to build
        return record(name, group, c, ring.size, tensorBytes, count,
                      ring.nics > 1 ? QStringLiteral("%1 x%2").arg(ring.link->id).arg(ring.nics) : ring.link->id, one);
    }
    /// Sets the exposed seconds of the ops added since `from` in proportion to their time.
    void expose(qsizetype from, double exposed, double total)
    {
        if (!m_out)
            return;
        for (qsizetype i = from; i < m_out->size(); ++i)
            (*m_out)[i].exposedSeconds = total > 0 ? (*m_out)[i].seconds * exposed / total : 0;
    }
    /// Records an all-to-all that may span nodes (allToAllSeconds) and returns its seconds per step.
    /// With a node limit, the node-limited dispatch (nodeLimitedAllToAllSeconds) of rows that
    /// carry `copiesPerToken` rows of each token.
    double addAllToAll(const QString &name, CommGroup group, std::int64_t n, std::int64_t inNode, double tensorBytes,
                       double count, const Links &links, double copiesPerToken, std::int64_t nodeLimit)
    {
        const bool spans = inNode < n;
        const Interconnect &up = *links.scaleUp;
        const Interconnect &out = spans ? *links.scaleOut : up;
        const double one = m_scale * nodeLimitedAllToAllSeconds(tensorBytes, copiesPerToken, nodeLimit, n, inNode, up, out);
        if (!m_out)
            return one * count;  // the planner's evaluations: no name to build
        return record(name, group, Collective::AllToAll, n, tensorBytes, count,
                      spans ? QStringLiteral("%1 + %2").arg(up.id, out.id) : up.id, one);
    }
    qsizetype size() const { return m_out ? m_out->size() : 0; }

private:
    /// Appends the op (when ops are collected) and returns its seconds per step: `one` each.
    double record(const QString &name, CommGroup group, Collective c, std::int64_t n, double tensorBytes, double count,
                  const QString &linkId, double one)
    {
        if (m_out && count > 0) {
            CommOp op;
            op.name = name;
            op.group = group;
            op.collective = c;
            op.groupSize = n;
            op.tensorBytes = tensorBytes;
            op.count = count;
            op.bytes = ringTrafficBytes(c, tensorBytes, n) * count;
            op.linkId = linkId;
            op.seconds = one * count;
            m_out->append(op);
        }
        return one * count;
    }

    QList<CommOp> *m_out;
    double m_scale = 1;  ///< the calibration's communication factor
};

/// One stage's step: its micro-batches with their TP, CP, PP and EP collectives, and, with
/// `stepComm`, the once-a-step DP (or ZeRO) and offload traffic of `stageParams`.
StageTime stageTime(const Scenario &s, const Recipe &recipe, const Layout &l, const StepMachine &machine,
                    const WorkloadInput &in, double stageParams, const ComputeParts &parts, CommSink sink,
                    bool stepComm = true)
{
    StageTime t;
    const double denseL = std::min(in.denseLayers, in.layers);
    t.compute = scaled(parts.block, in.layers - denseL);
    addTo(t.compute, scaled(parts.denseBlock, denseL));
    if (in.firstStage)
        addTo(t.compute, parts.embedding);
    if (in.lastStage)
        addTo(t.compute, parts.head);
    t.compute.optimizer = parts.optimizerSecondsPerParam * in.optimizerParams;
    const double m = static_cast<double>(l.microBatches);
    const double tokens = in.microBatch * in.seqLen / in.cp;
    const double act = tokens * in.dModel * recipe.activationBytes;  // one micro-batch's hidden states on a rank
    const bool full = s.recompute == Recompute::Full;

    if (l.tp > 1) {
        // Shoeybi et al. 2019, Section 3: two all-reduces per block forward (attention and MLP
        // outputs) and two backward; with SP each becomes an all-gather and a reduce-scatter of
        // the same volume (Korthikanti et al. 2022, Section 4.2.2). Full recompute reruns the forward's.
        const Links::Ring ring = machine.links.ring(CommGroup::Tp, l);
        const double perLayer = 4 + (full ? 2 : 0);
        const qsizetype from = sink.size();
        double seconds = 0;
        if (l.sp) {
            // Overlapped under FP8, Transformer Engine gathers FP8: every all-gather it overlaps
            // (the QKV and FC1 inputs forward, the projections' incoming gradients backward) keeps
            // a one-byte buffer (transformer_engine/pytorch/module/base.py, initialize_ub: "Support
            // FP8 userbuffer when (1) AllGather and (2) FP8-GEMM output ReduceScatter", the second
            // only where a configuration asks). The reduce-scatters stay at the activation dtype.
            const bool fp8Gathers = s.tpOverlap && recipe.matmulDtype() == QLatin1String("fp8");
            const double gathered = fp8Gathers ? tokens * in.dModel * kFp8Bytes : act;
            seconds += sink.addRing(QStringLiteral("TP all-gather (SP)"), CommGroup::Tp, Collective::AllGather, gathered,
                                    m * perLayer * in.layers, ring);
            seconds += sink.addRing(QStringLiteral("TP reduce-scatter (SP)"), CommGroup::Tp, Collective::ReduceScatter,
                                    act, m * perLayer * in.layers, ring);
        } else {
            seconds += sink.addRing(QStringLiteral("TP all-reduce"), CommGroup::Tp, Collective::AllReduce, act,
                                    m * perLayer * in.layers, ring);
        }
        // Overlapped (Transformer Engine's userbuffers, --tp-comm-overlap), the collectives run in
        // chunks under the block's GEMMs: what those cannot cover stays exposed, and where the GPU
        // has a measured overlap efficiency E, at least (1 - E) of it does (Flux's ECT measure:
        // the split GEMMs' own slowdown included).
        const double uncovered = std::max(0.0, seconds - m * t.compute.matmul);
        const double exposed = !(l.sp && s.tpOverlap) ? seconds
                               : machine.tpOverlapEfficiency
                                   ? std::max(uncovered, (1 - *machine.tpOverlapEfficiency) * seconds)
                                   : uncovered;
        t.tp = exposed / m;
        sink.expose(from, exposed, seconds);
    }
    if (l.cp > 1) {
        // Ring attention (Liu et al. 2023; Megatron-LM context parallelism): each rank passes its
        // K/V block round the ring, cp - 1 sends forward and twice that backward (K/V and their
        // gradients), hidden behind the attention of the block in hand.
        const Interconnect &link = machine.links.forGroup(CommGroup::Cp, l);
        const double kvBlock = tokens * (in.keyWidth + in.valueWidth) * recipe.activationBytes / in.tp;
        const double sends = static_cast<double>(l.cp - 1) * (3 + (full ? 1 : 0));
        const qsizetype from = sink.size();
        const double seconds = sink.add(QStringLiteral("CP K/V ring exchange"), CommGroup::Cp, Collective::SendRecv, l.cp,
                                        kvBlock, m * sends * in.layers, link);
        double slowed = 0;
        t.cp = hiddenBehind(seconds / m, t.compute.attentionCore, slowed);
        t.contention += m * slowed;
        sink.expose(from, t.cp * m, seconds);
    }
    if (l.pp > 1) {
        // Narayanan et al. 2021, Section 4.1: each micro-batch crosses every chunk boundary once
        // forward and once backward, the scatter/gather optimisation sending 1/tp of it per rank.
        const Interconnect &link = machine.links.forGroup(CommGroup::Pp, l);
        const qsizetype from = sink.size();
        const double seconds = sink.add(QStringLiteral("PP send/recv"), CommGroup::Pp, Collective::SendRecv, 2,
                                        act / static_cast<double>(l.tp), m * 2 * static_cast<double>(l.vpp), link);
        t.pp = seconds / m;
        sink.expose(from, seconds, seconds);
    }
    if (in.experts > 0 && l.ep > 1) {
        // Mixture-of-Experts with expert parallelism (Lepikhin et al. 2020, GShard; Megatron-LM's
        // all-to-all dispatcher): every MoE block sends each token's k routed copies, padded to
        // the capacity, to the ranks holding their experts and brings the outputs back: dispatch
        // and combine forward, and both again for the gradients backward (full recompute reruns
        // the forward pair). Each TP rank moves its 1/tp of the hidden state. Exposed whole unless
        // ep_overlap: without another micro-batch to run, the experts wait for their tokens.
        // ep_node_limit: node-limited dispatch crosses the scale-out link once per node a token
        // reaches (nodeLimitedAllToAllSeconds).
        const double routed = tokens * in.expertsPerToken * in.capacityFactor * in.dModel * recipe.activationBytes / in.tp;
        const double perLayer = 4 + (full ? 2 : 0);
        const qsizetype from = sink.size();
        const double seconds = sink.addAllToAll(QStringLiteral("EP all-to-all"), CommGroup::Ep, l.ep,
                                                Links::membersPerNode(CommGroup::Ep, l), routed,
                                                m * perLayer * (in.layers - denseL), machine.links,
                                                in.expertsPerToken * in.capacityFactor, s.epNodeLimit);
        // DualPipe (DeepSeek-V3 Section 3.2.1) runs one chunk's all-to-all under another's compute:
        // only what the compute cannot cover stays exposed.
        t.ep = (s.epOverlap ? hiddenBehind(seconds, m * t.compute.total(), t.contention) : seconds) / m;
        sink.expose(from, t.ep * m, seconds);
    }
    t.perMicroBatch = t.compute.total() + t.tp + t.cp + t.pp + t.ep;

    const std::int64_t shards = l.shardGroup();
    if (shards > 1 && stepComm) {
        const Links::Ring ring = machine.links.ring(CommGroup::Dp, l);
        const double grads = stageParams * recipe.gradBytes;
        const double weights = stageParams * recipe.weightBytes;
        const qsizetype from = sink.size();
        double seconds = 0;
        if (s.zeroStage == 0) {
            seconds = sink.addRing(QStringLiteral("DP gradient all-reduce"), CommGroup::Dp, Collective::AllReduce,
                                   grads, 1, ring);
            t.dp = s.dpOverlap ? hiddenBehind(seconds, t.compute.backward, t.contention) : seconds;
        } else if (s.zeroStage < 3) {
            // Rajbhandari et al. 2019, Section 7: reduce-scatter the gradients, all-gather the
            // updated parameters.
            seconds = sink.addRing(QStringLiteral("ZeRO gradient reduce-scatter"), CommGroup::Dp,
                                   Collective::ReduceScatter, grads, 1, ring)
                      + sink.addRing(QStringLiteral("ZeRO parameter all-gather"), CommGroup::Dp, Collective::AllGather,
                                     weights, 1, ring);
            // Both hide behind the last micro-batch's backward, in buckets, only with dp_overlap.
            t.dp = s.dpOverlap ? hiddenBehind(seconds, t.compute.backward, t.contention) : seconds;
        } else {
            // Section 7.2.2: ZeRO-3 gathers the parameters for each forward and each backward and
            // reduce-scatters the gradients, every micro-batch.
            seconds = sink.addRing(QStringLiteral("ZeRO-3 parameter all-gather"), CommGroup::Dp, Collective::AllGather,
                                   weights, 2 * m, ring)
                      + sink.addRing(QStringLiteral("ZeRO-3 gradient reduce-scatter"), CommGroup::Dp,
                                     Collective::ReduceScatter, grads, m, ring);
            double slowed = 0;
            t.dp = m * hiddenBehind(seconds / m, t.compute.total(), slowed);
            t.contention += m * slowed;
        }
        sink.expose(from, t.dp, seconds);
    }
    if (s.offload != Offload::None && machine.links.host && stepComm) {
        // ZeRO-Offload (Ren et al. 2021, Section 4): this GPU's partition of the gradients goes
        // to the CPU as the backward produces them (hidden behind it), and the updated
        // parameters come back after the CPU's step (exposed whole). ZeRO-Infinity (Rajbhandari
        // et al. 2021) also fetches the partition of the parameters for each micro-batch's
        // forward and backward, behind that micro-batch's compute. The CPU's own optimizer step
        // is not modelled: the GPU optimizer kernel's time stands in for it.
        const Interconnect &link = machine.links.forGroup(CommGroup::Host, l);
        const double partition = in.optimizerParams;
        const qsizetype from = sink.size();
        const double down = sink.add(QStringLiteral("offload grads to CPU"), CommGroup::Host, Collective::SendRecv, 2,
                                     partition * recipe.gradBytes, 1, link);
        const double up = sink.add(QStringLiteral("offload params from CPU"), CommGroup::Host, Collective::SendRecv,
                                   2, partition * recipe.weightBytes, 1, link);
        t.host = std::max(0.0, down - t.compute.backward) + up;
        double seconds = down + up;
        if (s.offload == Offload::Params && s.zeroStage >= 3) {
            const double fetch = sink.add(QStringLiteral("offload param fetch"), CommGroup::Host,
                                          Collective::SendRecv, 2, partition * recipe.weightBytes, 2 * m, link);
            t.host += m * std::max(0.0, fetch / m - t.compute.total());
            seconds += fetch;
        }
        sink.expose(from, t.host, seconds);
    }
    t.bubble = m * t.perMicroBatch * bubbleFraction(l);
    t.seconds = m * t.perMicroBatch + t.bubble + t.dp + t.host + t.compute.optimizer;
    return t;
}

/// The average of two stages' per-micro-batch figures (a DualPipe rank runs half its
/// micro-batches through each).
StageCompute mean(StageCompute a, const StageCompute &b)
{
    addTo(a, b);
    const double optimizer = a.optimizer - b.optimizer;  // a's alone: the rank's, over both stages
    a = scaled(a, 0.5);
    a.optimizer = optimizer;
    return a;
}

/// Pipeline rank `rank` under DualPipe (DeepSeek-V3, Section 3.2.1): half the step's
/// micro-batches enter at stage 0 and half at stage pp - 1, so the rank runs m / 2 through each
/// of its stages, rank and pp - 1 - rank (rankStages), a forward chunk of one direction beside a
/// backward chunk of the other. Its DP reduction and optimizer cover both stages' parameters
/// (`rankParams`, already summed). Bubble, Table 2: (pp/2 - 1)(F&B + B - 3W), F&B the time of
/// an overlapped forward-backward pair (a micro-batch's compute with its exposed
/// communication), B a full backward chunk and W its weight-gradient part, deferred into the
/// bubble (the zero-bubble split, Qi et al. 2023).
StageTime dualPipeRankTime(const Scenario &s, const Recipe &recipe, const Layout &l, const StepMachine &machine,
                           std::int64_t rank, double rankParams, const QList<double> &optimizerParams,
                           const ComputeParts &parts, QList<CommOp> *comm, double commScale)
{
    Layout half = l;
    half.microBatches = l.microBatches / 2;  // validateLayout: even
    const std::vector<std::int64_t> stages = rankStages(l, rank);
    QList<CommOp> first, second;
    const WorkloadInput inA = stageWorkload(s, recipe, stages.front(), optimizerParams);
    const StageTime a = stageTime(s, recipe, half, machine, inA, rankParams, parts,
                                  CommSink(comm ? &first : nullptr, commScale));
    StageTime t = a;
    if (stages.size() == 2) {
        WorkloadInput inB = stageWorkload(s, recipe, stages.back(), optimizerParams);
        inB.optimizerParams = 0;  // the rank's optimizer is a's, over both stages
        const StageTime b = stageTime(s, recipe, half, machine, inB, 0, parts,
                                      CommSink(comm ? &second : nullptr, commScale), false);
        t.compute = mean(a.compute, b.compute);
        t.tp = (a.tp + b.tp) / 2;
        t.cp = (a.cp + b.cp) / 2;
        t.pp = (a.pp + b.pp) / 2;
        t.ep = (a.ep + b.ep) / 2;
        t.perMicroBatch = (a.perMicroBatch + b.perMicroBatch) / 2;
        t.contention = a.contention + b.contention;
        // The same collectives of the two stages, one entry each, over the rank's micro-batches.
        for (const CommOp &op : second) {
            auto same = std::find_if(first.begin(), first.end(), [&op](const CommOp &o) { return o.name == op.name; });
            if (same == first.end()) {
                first.append(op);
                continue;
            }
            same->count += op.count;
            same->bytes += op.bytes;
            same->seconds += op.seconds;
            same->exposedSeconds += op.exposedSeconds;
        }
    }
    const double m = static_cast<double>(l.microBatches);
    const double pairs = static_cast<double>(l.pp) / 2 - 1;
    t.bubble = pairs * std::max(0.0, t.perMicroBatch + t.compute.backward - 3 * t.compute.weightGrad);
    t.seconds = m * t.perMicroBatch + t.bubble + t.dp + t.host + t.compute.optimizer;
    if (comm)
        *comm = std::move(first);
    return t;
}

} // namespace

StepTimeReport estimateStepTime(const Scenario &s, const Recipe &recipe, const Layout &l, const StepMachine &machine,
                                const QList<double> &stageParams, const QList<double> &optimizerParams,
                                double modelFlopsPerStepAllGpus, double recomputeFlopsPerStepAllGpus, bool listComm,
                                const ComputeParts *given)
{
    StepTimeReport r;
    r.matmulEfficiency = machine.matmulEfficiency;
    r.computeEfficiency = machine.computeEfficiency;
    r.attentionForwardEfficiency = machine.attentionForwardEfficiency;
    r.attentionBackwardEfficiency = machine.attentionBackwardEfficiency;
    r.memoryEfficiency = machine.memoryEfficiency;
    r.kernelFixedSeconds = machine.kernelFixedSeconds;
    const ComputeParts parts = given ? *given : computeParts(s, recipe, machine);
    if (listComm && machine.attentionTable && s.flashAttention) {
        // The FlashAttention figures at this run's shape (what stageCompute ran its kernels at),
        // for the report (the planner asks for the step alone).
        const WorkloadInput in = stageWorkload(s, recipe, 0, optimizerParams);
        r.attentionHeadDim = in.queryWidth / in.heads;
        r.attentionLength = in.seqLen / in.cp;
        r.attentionForwardEfficiency *=
            machine.attentionTable->relativeSpeed(r.attentionHeadDim, r.attentionLength, false, machine.attentionCausal);
        r.attentionBackwardEfficiency *=
            machine.attentionTable->relativeSpeed(r.attentionHeadDim, r.attentionLength, true, machine.attentionCausal);
    }
    StageTime slowest;
    QList<CommOp> comm;
    for (std::int64_t stage : candidateRanks(l)) {
        QList<CommOp> stageComm;
        StageTime t;
        if (l.dualPipe) {
            t = dualPipeRankTime(s, recipe, l, machine, stage, stageParams.value(stage), optimizerParams, parts,
                                 listComm ? &stageComm : nullptr, machine.commScale);
        } else {
            const WorkloadInput in = stageWorkload(s, recipe, stage, optimizerParams);
            t = stageTime(s, recipe, l, machine, in, stageParams.value(stage), parts,
                          CommSink(listComm ? &stageComm : nullptr, machine.commScale));
        }
        if (stage == 0 || t.seconds > slowest.seconds) {
            slowest = t;
            comm = std::move(stageComm);
            r.stage = stage;
        }
    }
    const double m = static_cast<double>(l.microBatches);
    r.microBatches = m;
    r.computeMatmul = m * slowest.compute.matmul;
    r.computeAttention = m * slowest.compute.attention;
    r.computeOther = m * slowest.compute.other;
    r.computeFixed = m * slowest.compute.fixed;
    r.tpExposed = m * slowest.tp;
    r.cpExposed = m * slowest.cp;
    r.ppExposed = m * slowest.pp;
    r.epExposed = m * slowest.ep;
    r.dpExposed = slowest.dp;
    r.hostExposed = slowest.host;
    r.overlapContention = slowest.contention;
    r.bubble = slowest.bubble;
    r.bubbleFraction = slowest.perMicroBatch > 0 ? slowest.bubble / (m * slowest.perMicroBatch) : 0;
    r.optimizer = slowest.compute.optimizer;
    r.stepSeconds = slowest.seconds;
    const double gpus = static_cast<double>(l.gpus());
    // Against the GEMMs' peak (fp8 under FP8): utilisation never passes 100%, and a recipe that
    // doubles the peak halves the time a set MFU gives.
    r.estimatedMfu = modelFlopsPerStepAllGpus / gpus / (r.stepSeconds * machine.gemmPeak());
    r.estimatedHfu = (modelFlopsPerStepAllGpus + recomputeFlopsPerStepAllGpus) / gpus
                     / (r.stepSeconds * machine.gemmPeak());
    r.tokensPerSecondPerGpu = static_cast<double>(l.globalBatch) * static_cast<double>(s.seqLen) / (r.stepSeconds * gpus);
    r.comm = std::move(comm);
    return r;
}

} // namespace napkin
