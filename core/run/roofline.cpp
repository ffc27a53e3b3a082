#include "core/run/roofline.h"

#include "core/model/layout.h"
#include "core/workload/stageworkload.h"

#include <algorithm>

namespace napkin {

QString opKindName(OpKind kind)
{
    switch (kind) {
    case OpKind::Matmul: return QStringLiteral("matmul");
    case OpKind::Attention: return QStringLiteral("attention");
    case OpKind::Normalization: return QStringLiteral("normalization");
    case OpKind::Elementwise: return QStringLiteral("elementwise");
    case OpKind::Loss: return QStringLiteral("loss");
    case OpKind::Optimizer: return QStringLiteral("optimizer");
    }
    return {};
}

QString phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return QStringLiteral("forward");
    case Phase::Backward: return QStringLiteral("backward");
    case Phase::Recompute: return QStringLiteral("recompute");
    case Phase::Optimizer: return QStringLiteral("optimizer");
    case Phase::Prefill: return QStringLiteral("prefill");
    case Phase::Decode: return QStringLiteral("decode");
    }
    return {};
}

double attainable(double peakFlopsPerS, double bandwidthBytesPerS, double intensity)
{
    return std::min(peakFlopsPerS, bandwidthBytesPerS * intensity);
}

namespace {

double opSeconds(const WorkloadOp &op, const RooflineReport &r)
{
    return std::max(op.flops / r.peakFor(op.runsAtGemmDtype()), op.bytes / r.bandwidthBytesPerS);
}

} // namespace

RooflineOp placeOnRoofline(const WorkloadOp &w, const RooflineReport &r)
{
    RooflineOp op;
    op.name = QString::fromLatin1(w.name);
    op.phase = w.phase;
    op.kind = w.kind;
    op.count = w.count;
    op.flops = w.flops;
    op.matmulFlops = w.matmulFlops;
    op.bytes = w.bytes;
    op.intensity = op.flops / op.bytes;
    op.gemmRoof = w.runsAtGemmDtype();
    op.attainableFlopsPerS = attainable(r.peakFor(op.gemmRoof), r.bandwidthBytesPerS, op.intensity);
    op.computeBound = op.intensity >= r.ridgeFor(op.gemmRoof);
    op.seconds = opSeconds(w, r);
    return op;
}

RooflineReport computeRoofline(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu,
                               const QList<double> &optimizerParams, std::int64_t stage)
{
    RooflineReport r;
    r.gpuId = gpu.id;
    r.peakFlopsPerS = gpu.peakFor(recipe.computeDtype, &r.peakDtype).value_or(0);  // computeReport refuses none
    r.bandwidthBytesPerS = gpu.memoryBandwidthBytesPerS;
    r.ridgeIntensity = r.peakFlopsPerS / r.bandwidthBytesPerS;
    r.gemmPeakFlopsPerS = gpu.peakFor(recipe.matmulDtype(), &r.gemmPeakDtype).value_or(0);
    r.gemmRidgeIntensity = r.gemmPeakFlopsPerS / r.bandwidthBytesPerS;

    // The stage the step found slowest: its GPU is the one shown.
    std::vector<WorkloadOp> slowest;
    buildWorkload(stageWorkload(s, recipe, stage, optimizerParams), slowest);
    r.stage = stage;
    r.modelFlopsPerStep = modelMatmulFlops(slowest);
    r.ops.reserve(static_cast<qsizetype>(slowest.size()));
    for (const WorkloadOp &w : slowest) {
        const RooflineOp op = placeOnRoofline(w, r);
        r.stepSeconds += op.count * op.seconds;
        r.ops.append(op);
    }
    r.impliedMfu = r.modelFlopsPerStep / (r.stepSeconds * r.gemmPeakFlopsPerS);
    return r;
}

} // namespace napkin
