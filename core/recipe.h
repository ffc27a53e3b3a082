#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace napkin {

/// A precision/optimizer recipe: bytes per parameter for each piece of model state, the
/// bytes of one stored activation element, and the dtype whose peak FLOP/s the matmuls get.
struct Recipe {
    QString id;
    QString name;
    double weightBytes = 0;      ///< per parameter, the copy the forward pass reads
    double gradBytes = 0;        ///< per parameter
    double optimizerBytes = 0;   ///< per parameter: optimizer moments + fp32 master weights
    double activationBytes = 0;  ///< per stored activation element
    QString computeDtype;        ///< key into GpuSpec::peakFlopsPerS, e.g. "bf16"
    double optimizerFlopsPerParam = 0;  ///< arithmetic of one optimizer update, per parameter
    QString source;
};

/// Every recipe Napkin knows, the source document's `bf16-mixed-adamw` first.
const QList<Recipe> &recipes();
std::optional<Recipe> findRecipe(const QString &id);
/// "id1, id2, ..." for error messages that list what is accepted.
QString recipeIdList();

} // namespace napkin
