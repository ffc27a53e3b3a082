#pragma once

#include "core/model/catalog.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"
#include "core/workload/workload.h"

#include <QList>
#include <QString>

namespace napkin {

QString opKindName(OpKind kind);
QString phaseName(Phase phase);

/// One kernel of a training step on one GPU (a WorkloadOp placed on the GPU's roofline).
/// FLOPs and bytes are per occurrence; `count` is how many times it runs per micro-batch.
struct RooflineOp {
    QString name;
    Phase phase = Phase::Forward;
    OpKind kind = OpKind::Matmul;
    double count = 1;
    double flops = 0;
    double matmulFlops = 0;
    double bytes = 0;
    double intensity = 0;            ///< flops / bytes (Williams et al. 2009)
    double attainableFlopsPerS = 0;  ///< min(peak, bandwidth x intensity)
    bool computeBound = false;       ///< intensity >= ridge
    /// Under the GEMM roof (the recipe's matmul dtype): a GEMM but one an FP8 recipe leaves in
    /// the compute dtype (WorkloadOp::highPrecision).
    bool gemmRoof = false;
    double seconds = 0;              ///< max(flops / peak, bytes / bandwidth), one occurrence
};

/// The roofline of one GPU and where every op of a training step sits on it.
struct RooflineReport {
    QString gpuId;
    double peakFlopsPerS = 0;
    QString peakDtype;
    double bandwidthBytesPerS = 0;
    double ridgeIntensity = 0;       ///< peak / bandwidth: FLOPs per byte where the roofs meet
    /// The linear layers' GEMMs (OpKind::Matmul) sit under the recipe's matmul peak: under FP8 a
    /// second, higher roof with its own ridge; otherwise equal to the three above.
    double gemmPeakFlopsPerS = 0;
    QString gemmPeakDtype;
    double gemmRidgeIntensity = 0;
    bool twoRoofs() const { return gemmPeakFlopsPerS != peakFlopsPerS; }
    /// The roof an op sits under: the GEMM roof (RooflineOp::gemmRoof) or the compute dtype's.
    double peakFor(bool gemmRoof) const { return gemmRoof ? gemmPeakFlopsPerS : peakFlopsPerS; }
    double ridgeFor(bool gemmRoof) const { return gemmRoof ? gemmRidgeIntensity : ridgeIntensity; }
    /// The ops of one micro-batch on one GPU of the slowest pipeline stage (`stage`).
    std::int64_t stage = 0;
    QList<RooflineOp> ops;
    double stepSeconds = 0;          ///< sum of count x seconds: a bottom-up lower bound
    /// Model matmul FLOPs of one micro-batch on this one GPU (forward + backward, no
    /// recompute): the sum of the ops' matmul FLOPs. Per GPU and per micro-batch, unlike
    /// flops.per_step_detailed, which covers every GPU and the whole step.
    double modelFlopsPerStep = 0;
    double impliedMfu = 0;           ///< modelFlopsPerStep / (stepSeconds x GEMM peak)
};

/// Bytes moved assume each operand is read from HBM once and each output written once, at
/// the recipe's dtypes (activations, weights, grads); fused kernels only where stated.
/// `optimizerParams` is the parameters each GPU of every stage updates (after TP, PP, ZeRO).
/// `stage` is the pipeline stage whose GPU is shown: the step's slowest
/// (StepTimeReport::stage), so that one rule, the step's, picks it everywhere.
RooflineReport computeRoofline(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu,
                               const QList<double> &optimizerParams, std::int64_t stage);

/// A workload op placed on a roofline's roofs: its intensity, attainable rate, bound and time.
RooflineOp placeOnRoofline(const WorkloadOp &op, const RooflineReport &r);

/// min(peak, bandwidth x intensity): the roofline bound itself.
double attainable(double peakFlopsPerS, double bandwidthBytesPerS, double intensity);

} // namespace napkin
