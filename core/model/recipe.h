#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace napkin {

/// A precision/optimizer recipe: bytes per parameter for each piece of model state, the
/// bytes of one stored activation element, and the dtypes whose peak FLOP/s the kernels get.
struct Recipe {
    QString id;
    QString name;
    double weightBytes = 0;      ///< per parameter, the copy the forward pass reads
    double gradBytes = 0;        ///< per parameter
    double optimizerBytes = 0;   ///< per parameter: optimizer moments + fp32 master weights
    double activationBytes = 0;  ///< per stored activation element
    /// Key into GpuSpec::peakFlopsPerS, e.g. "bf16": the dtype of every kernel but the linear
    /// layers' GEMMs under FP8, and the peak that MFU and HFU are quoted against.
    QString computeDtype;
    double optimizerFlopsPerParam = 0;  ///< arithmetic of one optimizer update, per parameter
    QString source;
    /// The linear layers' GEMMs (OpKind::Matmul), where they run at another peak than
    /// computeDtype's: "fp8" for FP8 training; empty means computeDtype.
    QString gemmDtype = {};

    QString matmulDtype() const { return gemmDtype.isEmpty() ? computeDtype : gemmDtype; }
};

/// Every recipe Napkin knows, the source document's `bf16-mixed-adamw` first.
const QList<Recipe> &recipes();
std::optional<Recipe> findRecipe(const QString &id);
/// "id1, id2, ..." for error messages that list what is accepted.
QString recipeIdList();

} // namespace napkin
