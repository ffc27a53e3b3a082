#pragma once

#include "scenario.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace napkin::ui {

class DivisorSpinBox;
class NumberSpinBox;
class ScenarioController;

/// Everything in the scenario besides the main five and the GPU model, in three groups:
/// model shape, parallelism and memory, compute and cost.
class MoreOptions final : public QWidget
{
    Q_OBJECT

public:
    explicit MoreOptions(ScenarioController *controller, QWidget *parent = nullptr);

    /// Whether changing width also scales d_ff (a view preference, not part of the scenario).
    bool keepsFfRatio() const;
    QComboBox *presetBox() const { return m_preset; }
    QComboBox *zeroBox() const { return m_zero; }
    DivisorSpinBox *headsBox() const { return m_heads; }
    NumberSpinBox *gpusBox() const { return m_gpus; }

signals:
    void notice(const QString &message);

private:
    QWidget *buildModelGroup();
    QWidget *buildMemoryGroup();
    QWidget *buildComputeGroup();
    void change(const QString &what, const std::function<void(Scenario &)> &apply);
    void sync(const Scenario &s);

    ScenarioController *m_controller;
    QComboBox *m_preset = nullptr;
    QLabel *m_presetState = nullptr;
    QComboBox *m_family = nullptr;
    DivisorSpinBox *m_heads = nullptr;
    DivisorSpinBox *m_kvHeads = nullptr;
    NumberSpinBox *m_dFf = nullptr;
    NumberSpinBox *m_vocab = nullptr;
    QCheckBox *m_tied = nullptr;
    QCheckBox *m_keepRatio = nullptr;
    NumberSpinBox *m_gpus = nullptr;
    QComboBox *m_zero = nullptr;
    QComboBox *m_recipe = nullptr;
    QComboBox *m_recompute = nullptr;
    QCheckBox *m_flash = nullptr;
    QCheckBox *m_activations = nullptr;
    QComboBox *m_activationModel = nullptr;
    QCheckBox *m_dropout = nullptr;
    QComboBox *m_basis = nullptr;
    QCheckBox *m_causal = nullptr;
    QDoubleSpinBox *m_mfu = nullptr;
    QDoubleSpinBox *m_price = nullptr;
};

} // namespace napkin::ui
