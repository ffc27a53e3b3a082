#pragma once

#include "core/model/scenario.h"
#include "core/model/shapefix.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace napkin::ui {

class DivisorSpinBox;
class FieldControls;
class ModelShapeOptions;
class NumberSpinBox;
class ScenarioController;

/// Everything in the scenario besides the main five and the GPU model: parallelism and
/// precision (setupGroup(), placed by the controls panel), then model shape
/// (ModelShapeOptions), activation memory, compute and cost. The rows are generated from the
/// field table (FieldControls) but for the recipe, whose items are the recipe catalog with a
/// source each, and the price, whose box and "Catalog price" check box together say whether it
/// follows the GPU's catalog (null) or is your own.
class MoreOptions final : public QWidget
{
    Q_OBJECT

public:
    explicit MoreOptions(ScenarioController *controller, QWidget *parent = nullptr);

    /// What follows the width: d_ff's ratio, the head dimension (view preferences, not part
    /// of the scenario).
    WidthRule widthRule() const;
    QComboBox *presetBox() const;
    ModelShapeOptions *shapeOptions() const { return m_shape; }
    QComboBox *recipeBox() const { return m_recipe; }
    QComboBox *zeroBox() const { return m_zero; }
    DivisorSpinBox *headsBox() const;
    NumberSpinBox *gpusBox() const { return m_gpus; }
    /// GPUs, ZeRO, recipe, recompute and FlashAttention: placed by the controls panel right
    /// under the GPU, where they stay in view when the rest is folded away.
    QWidget *setupGroup() const { return m_setup; }
    QComboBox *recomputeBox() const { return m_recompute; }
    QComboBox *offloadBox() const { return m_offload; }
    QComboBox *utilizationBasisBox() const { return m_utilizationBasis; }
    QDoubleSpinBox *priceBox() const { return m_price; }
    /// Checked: the price follows the chosen GPU's catalog price; unchecked: the box's value.
    QCheckBox *catalogPriceBox() const { return m_catalogPrice; }

signals:
    void notice(const QString &message);

private:
    QWidget *buildSetupGroup();
    QWidget *buildActivationGroup();
    QWidget *buildComputeGroup();
    /// Inference mode: vLLM's quantization group, KV block size and prefill chunk.
    QWidget *buildServingGroup();
    void sync(const Scenario &s);
    /// The price box shows the price in use and, as its tip, the catalog's with its source.
    void syncPrice(const Scenario &s);

    ScenarioController *m_controller;
    FieldControls *m_fields;
    ModelShapeOptions *m_shape;
    QWidget *m_setup = nullptr;
    QFormLayout *m_setupForm = nullptr;
    QWidget *m_activations = nullptr;
    QWidget *m_servingGroup = nullptr;
    NumberSpinBox *m_gpus = nullptr;
    QComboBox *m_zero = nullptr;
    QComboBox *m_recipe = nullptr;
    QWidget *m_fp8Scaling = nullptr;  ///< shown under an fp8 recipe only
    QWidget *m_crossEntropy = nullptr;  ///< the loss kernel, training only
    QComboBox *m_recompute = nullptr;
    QComboBox *m_offload = nullptr;
    QComboBox *m_utilizationBasis = nullptr;
    QDoubleSpinBox *m_price = nullptr;
    QCheckBox *m_catalogPrice = nullptr;
};

} // namespace napkin::ui
