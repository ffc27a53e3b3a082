#pragma once

#include "core/model/scenario.h"
#include "core/model/shapefix.h"

#include "ui/widgets/sectionbox.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace napkin::ui {

class DivisorSpinBox;
class FieldControls;
class NumberSpinBox;
class ScenarioController;

/// The "Model shape" group of the options: preset, family, heads, kv heads, d_ff, vocabulary,
/// tied embeddings, and the Mixture-of-Experts fields (routed experts, top-k, shared experts,
/// expert width). Heads keep dividing the width and kv heads the heads (core/shapefix).
/// The rows are generated from the field table (FieldControls) but for the preset, whose items
/// are the catalog's models and which sets the whole shape, and the heads and kv heads, whose
/// arrows step through the divisors of what they divide that tensor parallelism splits
/// (DivisorSpinBox) and whose heads carry kv heads with them.
class ModelShapeOptions final : public SectionBox
{
    Q_OBJECT

public:
    explicit ModelShapeOptions(ScenarioController *controller, QWidget *parent = nullptr);
    /// The preset's switches that have no control here, one line; hidden when there are none.
    QLabel *switchesLabel() const { return m_switches; }

    /// What follows the width: d_ff's ratio, the head dimension (view preferences, not part
    /// of the scenario).
    WidthRule widthRule() const;
    QComboBox *presetBox() const { return m_preset; }
    DivisorSpinBox *headsBox() const { return m_heads; }
    NumberSpinBox *expertsBox() const;
    NumberSpinBox *topKBox() const;

signals:
    /// What an edit changed besides the field itself ("kv heads 8 → 4 ...").
    void notice(const QString &message);
    /// A "follows width" checkbox was toggled: the width slider's step may change.
    void widthRuleChanged();

private:
    void sync(const Scenario &s);

    /// Fewer experts than the top-k or than expert parallelism divides: those follow them down.
    QString followExperts(Scenario &s) const;

    ScenarioController *m_controller;
    FieldControls *m_fields;
    QComboBox *m_preset;
    QLabel *m_switches = nullptr;
    QLabel *m_presetState;
    DivisorSpinBox *m_heads;
    DivisorSpinBox *m_kvHeads;
    QCheckBox *m_keepRatio;
    QCheckBox *m_keepHeadDim;
};

} // namespace napkin::ui
