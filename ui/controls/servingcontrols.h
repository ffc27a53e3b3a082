#pragma once

#include "core/model/scenario.h"
#include "core/report/report.h"

#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QToolButton;

namespace napkin::ui {

class FieldControls;
class LinkedSlider;
class NumberSpinBox;
class ScenarioController;

/// The mode switch (Training | Inference) and, in inference mode, what a serving scenario adds:
/// prompt and output tokens, concurrency (a slider up to the most sequences the KV pool holds,
/// or "max"), weight and KV-cache number formats and the memory utilisation. The rows come from
/// the field table (FieldControls) but for concurrency, whose slider's reach is the report's.
class ServingControls final : public QWidget
{
    Q_OBJECT

public:
    explicit ServingControls(ScenarioController *controller, QWidget *parent = nullptr);

    /// The two checkable buttons of the switch, in kModeNames order.
    QToolButton *modeButton(Mode mode) const { return m_modes[static_cast<int>(mode)]; }
    /// The serving rows: shown only in inference mode.
    QWidget *servingBox() const { return m_box; }
    /// The rows below are built the first time inference mode shows them, or when asked for.
    LinkedSlider *concurrencySlider() const;
    /// Checked: concurrency null, the most sequences the KV pool holds.
    QCheckBox *maxConcurrencyBox() const;
    FieldControls *fields() const;

private:
    void setMode(Mode mode);
    /// Builds the serving rows into the box, once.
    void buildBox();
    void editConcurrency(double value);
    void sync(const Scenario &s);
    /// The slider reaches the report's most sequences per replica: every position is accepted.
    void fitConcurrency(const Report &r);

    ScenarioController *m_controller;
    FieldControls *m_fields;
    QToolButton *m_modes[2] = {};
    QButtonGroup *m_modeGroup;
    QWidget *m_box;
    LinkedSlider *m_concurrency;
    QCheckBox *m_max;
};

} // namespace napkin::ui
