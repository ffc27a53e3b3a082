#pragma once

#include "core/model/scenario.h"
#include "core/model/shapefix.h"
#include "core/text/units.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QToolButton;

namespace napkin::ui {

class GpuChooser;
class LayoutControls;
class LazyWidget;
class LinkedSlider;
class MoreOptions;
class ScenarioController;
class ServingControls;

/// The left-hand panel: the five main slider/spin pairs and the GPU chooser up front, the
/// rest of the scenario grouped below. Edits become proposals to the controller; the panel
/// redraws itself from the controller's scenario, never from its own state.
class ControlsPanel final : public QWidget
{
    Q_OBJECT

public:
    enum class Main { Layers, DModel, Tokens, MicroBatch, SeqLen };

    explicit ControlsPanel(ScenarioController *controller, QWidget *parent = nullptr);

    LinkedSlider *slider(Main which) const;
    GpuChooser *gpuChooser() const { return m_gpu; }
    MoreOptions *moreOptions() const { return m_more; }
    /// Built the first time the cluster and layout section is opened, or asked for.
    LayoutControls *layoutControls() const;
    /// The mode switch and, in inference mode, the serving rows.
    ServingControls *servingControls() const { return m_serving; }
    /// Shows or hides the cluster and layout group.
    QToolButton *layoutToggle() const { return m_layoutToggle; }
    void setByteUnit(ByteUnit unit);

signals:
    /// Something was adjusted on the user's behalf (for the status bar).
    void notice(const QString &message);

private:
    // The constructor's parts, in the order it calls them.
    /// The "Model and run" box: the five slider/spin pairs.
    QWidget *buildMainSliders();
    void setUpParamsNoteAndMoreToggle();
    /// The folding "Cluster and layout" box, open when `start` already splits the model.
    QWidget *buildLayoutBox(const Scenario &start);
    void connectControls();

    LinkedSlider *addSlider(Main which, const QString &label, const QString &tip, double min, double max,
                            double sliderMin, double sliderMax, double step, double logBase,
                            int stepsPerUnit, int display);
    void edit(Main which, double value);
    void sync(const Scenario &s);
    /// The sliders' ranges and steps to what the layout accepts, so that no position is a
    /// scenario core refuses (the width in multiples tensor parallelism splits, at least a
    /// layer per pipeline chunk, sequences in 2 x cp chunks, micro-batches that make up the
    /// global batch).
    void fitSliders(const Scenario &s);
    /// What the width carries with it: the shape options' checkboxes, and heads that tp divides.
    WidthRule widthRule(const Scenario &s) const;

    ScenarioController *m_controller;
    LinkedSlider *m_sliders[5] = {};
    GpuChooser *m_gpu;
    ServingControls *m_serving;
    MoreOptions *m_more;
    QToolButton *m_moreToggle;
    LazyWidget *m_layout;  ///< holds the LayoutControls
    QToolButton *m_layoutToggle;
    QLabel *m_paramsNote;
    QPushButton *m_clearParams;
    Scenario m_dragBase;  // the scenario when the current drag began
    QString m_pendingNotice;
};

} // namespace napkin::ui
