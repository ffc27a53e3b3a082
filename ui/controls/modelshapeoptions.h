#pragma once

#include "core/model/scenario.h"
#include "core/model/shapefix.h"

#include "ui/widgets/sectionbox.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace napkin::ui {

class DivisorSpinBox;
class NumberSpinBox;
class ScenarioController;

/// The "Model shape" group of the options: preset, family, heads, kv heads, d_ff, vocabulary,
/// tied embeddings, and the Mixture-of-Experts fields (routed experts, top-k, shared experts,
/// expert width). Heads keep dividing the width and kv heads the heads (core/shapefix).
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
    NumberSpinBox *expertsBox() const { return m_experts; }
    NumberSpinBox *topKBox() const { return m_topK; }

signals:
    /// What an edit changed besides the field itself ("kv heads 8 → 4 ...").
    void notice(const QString &message);

private:
    void sync(const Scenario &s);

    ScenarioController *m_controller;
    QComboBox *m_preset;
    QLabel *m_switches = nullptr;
    QLabel *m_presetState;
    QComboBox *m_family;
    DivisorSpinBox *m_heads;
    DivisorSpinBox *m_kvHeads;
    NumberSpinBox *m_dFf;
    NumberSpinBox *m_vocab;
    QCheckBox *m_tied;
    NumberSpinBox *m_experts;
    NumberSpinBox *m_topK;
    NumberSpinBox *m_shared;
    NumberSpinBox *m_expertDff;
    NumberSpinBox *m_denseLayers;
    QCheckBox *m_keepRatio;
    QCheckBox *m_keepHeadDim;
};

} // namespace napkin::ui
