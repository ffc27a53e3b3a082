#include "ui/controls/controlspanel.h"
#include "ui/widgets/rejectedtyping.h"

#include "core/model/fields.h"
#include "core/model/layout.h"
#include "ui/controls/gpuchooser.h"
#include "ui/controls/layoutcontrols.h"
#include "ui/widgets/lazywidget.h"
#include "ui/widgets/linkedslider.h"
#include "ui/controls/modelshapeoptions.h"
#include "ui/controls/moreoptions.h"
#include "ui/controls/servingcontrols.h"
#include "core/model/recipe.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/sectionbox.h"
#include "core/model/shapefix.h"
#include "core/model/validation.h"

#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace napkin::ui {

namespace {
// The sequence slider's reach for models with rotary positions (Llama 3.1's 128K context).
constexpr std::int64_t kSeqSliderMax = 131072;
constexpr std::int64_t kSeqSliderMin = 16;
constexpr std::int64_t kMicroBatchSliderMax = 1024;
} // namespace

ControlsPanel::ControlsPanel(ScenarioController *controller, QWidget *parent)
    : QWidget(parent),
      m_controller(controller),
      m_gpu(new GpuChooser(controller->catalog(), this)),
      m_serving(new ServingControls(controller, this)),
      m_more(new MoreOptions(controller, this)),
      m_moreToggle(new QToolButton(this)),
      m_layout(new LazyWidget([controller](QWidget *parent) { return new LayoutControls(controller, parent); }, this)),
      m_layoutToggle(new QToolButton(this)),
      m_paramsNote(new QLabel(this)),
      m_clearParams(new QPushButton(tr("Count parameters from the shape"), this))
{
    QWidget *main = buildMainSliders();

    auto *gpuBox = new SectionBox(tr("GPU"), this);
    auto *gpuLayout = new QVBoxLayout(gpuBox);
    gpuLayout->addWidget(m_gpu);

    setUpParamsNoteAndMoreToggle();
    QWidget *layoutBox = buildLayoutBox(controller->scenario());

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_serving);
    layout->addWidget(main);
    layout->addWidget(gpuBox);
    layout->addWidget(m_more->setupGroup());
    layout->addWidget(layoutBox);
    layout->addWidget(m_paramsNote);
    layout->addWidget(m_clearParams);
    layout->addWidget(m_moreToggle);
    layout->addWidget(m_more);
    layout->addStretch(1);

    connectControls();
    sync(m_controller->scenario());
}

LayoutControls *ControlsPanel::layoutControls() const
{
    return static_cast<LayoutControls *>(m_layout->content());
}

QWidget *ControlsPanel::buildMainSliders()
{
    using D = NumberSpinBox::Display;
    // Hand-built, not generated from the field table (FieldControls): each is a slider and a spin
    // box linked, reaching less far than the field's range (or on a log scale), a drag is one
    // undo step, and the width carries heads and d_ff with it. The GPU chooser is hand-built too:
    // its items are the GPU catalog with each GPU's memory and peak.
    auto *main = new SectionBox(tr("Model and run"), this);
    auto *mainLayout = new QVBoxLayout(main);
    const int integer = static_cast<int>(D::Integer);
    mainLayout->addWidget(addSlider(Main::Layers, tr("Layers"),
        tr("Number of transformer blocks (L). Parameters, activations and FLOPs grow linearly with it."),
        fieldLo("layers"), fieldHi("layers"), 1, 128, 1, 0, 1, integer));
    mainLayout->addWidget(addSlider(Main::DModel, tr("Width (d_model)"),
        tr("Hidden size (d_model). Parameters grow with its square; heads are kept dividing it."),
        fieldLo("d_model"), fieldHi("d_model"), 64, 16384, 64, 0, 1, integer));
    mainLayout->addWidget(addSlider(Main::Tokens, tr("Training tokens (D)"),
        tr("Tokens seen in training (D). Total FLOPs, time, cost and energy are proportional to it. "
           "Type 300B, 1.5T or 3e11."),
        fieldLo("tokens"), fieldHi("tokens"), 1e6, 1e15, 1, 10, 20, static_cast<int>(D::Compact)));
    mainLayout->addWidget(addSlider(Main::MicroBatch, tr("Micro-batch (sequences per GPU)"),
        tr("Sequences per GPU per forward/backward pass. Activation memory and the roofline "
           "position of every op change with it."),
        fieldLo("batch"), fieldHi("batch"), 1, static_cast<double>(kMicroBatchSliderMax), 1, 2, 1, integer));
    mainLayout->addWidget(addSlider(Main::SeqLen, tr("Sequence length (tokens)"),
        tr("Tokens per sequence. Attention FLOPs and (without FlashAttention) activation memory "
           "grow with its square. GPT-2 models allow at most their position table."),
        fieldLo("seq_len"), fieldHi("seq_len"), static_cast<double>(kSeqSliderMin), static_cast<double>(kSeqSliderMax), 1, 2, 1,
        integer));
    return main;
}

void ControlsPanel::setUpParamsNoteAndMoreToggle()
{
    m_paramsNote->setWordWrap(true);
    m_paramsNote->setAccessibleName(tr("Parameter count note"));
    m_clearParams->setToolTip(tr("Forget the parameter count given on the command line and count "
                                 "parameters from layers, width and vocabulary"));
    m_clearParams->setAccessibleName(m_clearParams->text());
    m_moreToggle->setText(tr("More settings"));
    m_moreToggle->setCheckable(true);
    m_moreToggle->setChecked(true);
    m_moreToggle->setArrowType(Qt::DownArrow);
    m_moreToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_moreToggle->setToolTip(tr("Show or hide the preset, family, heads, parallelism, precision and cost settings"));
    m_moreToggle->setAccessibleName(tr("Show more settings"));
}

QWidget *ControlsPanel::buildLayoutBox(const Scenario &start)
{
    // Cluster and layout: shown from the start when the scenario already splits the model.
    const bool parallel = start.tp > 1 || start.pp > 1 || start.cp > 1 || start.globalBatch || start.gpusPerNode
                          || !start.interconnectId.isEmpty() || start.timeBasis != TimeBasis::Utilization;
    m_layoutToggle->setText(tr("Cluster and layout"));
    m_layoutToggle->setCheckable(true);
    m_layoutToggle->setChecked(parallel);
    m_layoutToggle->setArrowType(parallel ? Qt::DownArrow : Qt::RightArrow);
    m_layoutToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_layoutToggle->setToolTip(tr("Show or hide GPUs per node, the network, tensor, pipeline and context parallelism, "
                                  "the global batch and the time basis"));
    m_layoutToggle->setAccessibleName(tr("Show cluster and layout"));
    m_layout->setVisible(parallel);
    auto *layoutBox = new SectionBox(this);
    auto *layoutBoxLayout = new QVBoxLayout(layoutBox);
    layoutBoxLayout->addWidget(m_layoutToggle);
    layoutBoxLayout->addWidget(m_layout);
    return layoutBox;
}

void ControlsPanel::connectControls()
{
    connect(m_gpu, &GpuChooser::gpuChosen, this, [this](const QString &id) {
        Scenario s = m_controller->scenario();
        s.gpuId = id;
        const GpuSpec *gpu = m_controller->catalog().findGpu(id);
        m_controller->propose(s, tr("Choose GPU %1").arg(gpu ? gpu->shortName : id));
    });
    connect(m_layoutToggle, &QToolButton::toggled, this, [this](bool on) {
        m_layout->setVisible(on);
        m_layoutToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_moreToggle, &QToolButton::toggled, this, [this](bool on) {
        m_more->setVisible(on);
        m_moreToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_clearParams, &QPushButton::clicked, this, [this] {
        Scenario s = m_controller->scenario();
        s.paramsOverride.reset();
        m_controller->propose(s, tr("Count parameters from the shape"));
    });
    connect(m_more, &MoreOptions::notice, this, &ControlsPanel::notice);
    connect(m_more->shapeOptions(), &ModelShapeOptions::widthRuleChanged, this,
            [this] { fitSliders(m_controller->scenario()); });
    connect(m_controller, &ScenarioController::scenarioChanged, this, &ControlsPanel::sync);
}

LinkedSlider *ControlsPanel::addSlider(Main which, const QString &label, const QString &tip, double min,
                                       double max, double sliderMin, double sliderMax, double step,
                                       double logBase, int stepsPerUnit, int display)
{
    LinkedSlider::Config c;
    c.label = label;
    c.description = tip;
    c.min = min;
    c.max = max;
    c.sliderMin = sliderMin;
    c.sliderMax = sliderMax;
    c.step = step;
    c.logBase = logBase;
    c.stepsPerUnit = stepsPerUnit;
    c.spinFactor = logBase > 0 ? 2 : 0;
    c.display = static_cast<NumberSpinBox::Display>(display);
    auto *s = new LinkedSlider(c, this);
    m_sliders[static_cast<int>(which)] = s;
    connect(s, &LinkedSlider::valueEdited, this, [this, which](double v) { edit(which, v); });
    // A typed value beyond the box's range is not taken: said, not dropped in silence.
    onRejectedTyping(s->spinBox(), [this, label, s, display](const QString &typed) {
        emit notice(tr("%1: %2").arg(label, rejectedTypingText(s->spinBox(), typed,
                                                                static_cast<NumberSpinBox::Display>(display)
                                                                    == NumberSpinBox::Display::Integer)));
    });
    connect(s, &LinkedSlider::dragStarted, this, [this] {
        m_dragBase = m_controller->scenario();
        m_controller->beginInteraction();
    });
    connect(s, &LinkedSlider::dragFinished, this, [this] {
        m_controller->endInteraction();
        if (!m_pendingNotice.isEmpty())
            emit notice(std::exchange(m_pendingNotice, QString()));
    });
    return s;
}

LinkedSlider *ControlsPanel::slider(Main which) const
{
    return m_sliders[static_cast<int>(which)];
}

void ControlsPanel::setByteUnit(ByteUnit unit)
{
    m_gpu->setByteUnit(unit);
}

void ControlsPanel::edit(Main which, double value)
{
    Scenario s = m_controller->scenario();
    const auto n = static_cast<std::int64_t>(std::llround(value));
    QString note;
    QString what;
    switch (which) {
    case Main::Layers:
        s.model.layers = n;
        what = tr("Set layers to %1").arg(n);
        break;
    case Main::DModel:
        // During a drag, heads and d_ff follow from the shape the drag began with, so
        // dragging away and back restores them instead of drifting.
        s.model = followWidth(m_controller->interacting() ? m_dragBase.model : s.model, n, widthRule(s), &note);
        what = tr("Set d_model to %1").arg(n);
        break;
    case Main::Tokens:
        s.tokens = value;
        what = tr("Set training tokens to %1").arg(fmt::compactCount(value));
        break;
    case Main::MicroBatch:
        s.microBatch = n;
        what = tr("Set micro-batch to %1").arg(n);
        break;
    case Main::SeqLen:
        s.seqLen = n;
        what = tr("Set sequence length to %1").arg(n);
        break;
    }
    const Scenario before = m_controller->scenario();
    m_controller->propose(s, what, static_cast<int>(which));
    // Only a change of heads is news; d_ff following the width is what the checkbox promises.
    // During a drag the news waits for the release: one message, relative to where it began.
    if (s.model.heads != before.model.heads || s.model.kvHeads != before.model.kvHeads) {
        const QString text = tr("d_model %1: %2").arg(n).arg(note);
        if (m_controller->interacting())
            m_pendingNotice = text;
        else
            emit notice(text);
    }
}

void ControlsPanel::sync(const Scenario &s)
{
    fitSliders(s);
    slider(Main::Layers)->setValue(static_cast<double>(s.model.layers));
    slider(Main::DModel)->setValue(static_cast<double>(s.model.dModel));
    slider(Main::Tokens)->setValue(s.tokens);
    slider(Main::MicroBatch)->setValue(static_cast<double>(s.microBatch));
    slider(Main::SeqLen)->setValue(static_cast<double>(s.seqLen));
    // Serving has prompt and output tokens and its own concurrency: the run's tokens, micro-batch
    // and sequence are training's alone.
    const bool training = s.mode == Mode::Training;
    for (Main which : {Main::Tokens, Main::MicroBatch, Main::SeqLen})
        slider(which)->setVisible(training);
    m_gpu->setGpuId(s.gpuId);
    if (const auto recipe = findRecipe(s.recipeId))
        m_gpu->setDtype(recipe->matmulDtype());  // under FP8 the GEMMs' peak, the one that sets the pace
    m_paramsNote->setVisible(s.paramsOverride.has_value());
    m_clearParams->setVisible(s.paramsOverride.has_value());
    if (s.paramsOverride)
        m_paramsNote->setText(tr("The parameter count is fixed at %1 (given directly), so layers and "
                                 "width change activations and attention FLOPs only.")
                                  .arg(fmt::count(*s.paramsOverride)));
}

WidthRule ControlsPanel::widthRule(const Scenario &s) const
{
    WidthRule rule = m_more->widthRule();
    rule.headMultiple = s.tp;
    return rule;
}

void ControlsPanel::fitSliders(const Scenario &s)
{
    // Nothing here moves during a drag of these sliders (tp, pp, vpp, cp, the global batch
    // and d_head hold still), so the grid under the pointer stays put.
    slider(Main::DModel)->setSliderStep(static_cast<double>(widthStep(s.model, widthRule(s))));
    // Mixture-of-Experts: the dense blocks are among the layers.
    slider(Main::Layers)->setSliderMinimum(
        static_cast<double>(std::max(fewestLayers(s), s.model.moe() ? s.model.denseLayers : 1)));
    // The sequence slider doubles from its bottom: from a multiple of 2 x cp, every position is one.
    const std::int64_t seqMultiple = seqLenMultiple(s);
    std::int64_t seqLowest = seqMultiple;
    while (seqLowest < kSeqSliderMin)
        seqLowest *= 2;
    // A learned position table ends the sequence slider: GPT-2 has no positions past it.
    const std::int64_t seqTop = s.model.arch == Arch::Gpt2 ? std::min(s.model.maxPositions, kSeqSliderMax) : kSeqSliderMax;
    slider(Main::SeqLen)->setSliderMinimum(static_cast<double>(seqLowest));
    slider(Main::SeqLen)->setSliderMaximum(static_cast<double>(std::max(seqLowest, seqTop / seqMultiple * seqMultiple)));
    // Powers of two: if one makes up the global batch, so does every smaller one.
    std::int64_t microTop = kMicroBatchSliderMax;
    while (microTop > 1 && !microBatchFits(s, microTop))
        microTop /= 2;
    slider(Main::MicroBatch)->setSliderMaximum(static_cast<double>(microTop));
}

} // namespace napkin::ui
