#pragma once

#include "catalog.h"
#include "recipe.h"
#include "scenario.h"

#include <QList>
#include <QString>

namespace napkin {

enum class OpKind { Matmul, Attention, Normalization, Elementwise, Loss, Optimizer };
enum class Phase { Forward, Backward, Optimizer };

QString opKindName(OpKind kind);
QString phaseName(Phase phase);

/// One kernel of a training step on one GPU. FLOPs and bytes are per occurrence;
/// `count` is how many times it runs per micro-batch step (e.g. once per layer).
struct RooflineOp {
    QString name;
    Phase phase = Phase::Forward;
    OpKind kind = OpKind::Matmul;
    double count = 1;
    double flops = 0;
    double bytes = 0;
    double intensity = 0;            ///< flops / bytes (Williams et al. 2009)
    double attainableFlopsPerS = 0;  ///< min(peak, bandwidth x intensity)
    bool computeBound = false;       ///< intensity >= ridge
    double seconds = 0;              ///< max(flops / peak, bytes / bandwidth), one occurrence
};

/// The roofline of one GPU and where every op of a training step sits on it.
struct RooflineReport {
    QString gpuId;
    double peakFlopsPerS = 0;
    QString peakDtype;
    double bandwidthBytesPerS = 0;
    double ridgeIntensity = 0;       ///< peak / bandwidth: FLOPs per byte where the roofs meet
    QList<RooflineOp> ops;
    double stepSeconds = 0;          ///< sum of count x seconds: a bottom-up lower bound
    double modelFlopsPerStep = 0;    ///< detailed matmul FLOPs of one micro-batch on one GPU
    double impliedMfu = 0;           ///< modelFlopsPerStep / (stepSeconds x peak)
};

/// Bytes moved assume each operand is read from HBM once and each output written once, at
/// the recipe's dtypes (activations, weights, grads); fused kernels only where stated.
RooflineReport computeRoofline(const Scenario &s, const Recipe &recipe, const GpuSpec &gpu);

/// min(peak, bandwidth x intensity): the roofline bound itself.
double attainable(double peakFlopsPerS, double bandwidthBytesPerS, double intensity);

} // namespace napkin
