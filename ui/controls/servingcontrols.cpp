#include "ui/controls/servingcontrols.h"

#include "core/model/fields.h"
#include "core/model/limits.h"
#include "ui/controls/fieldcontrols.h"
#include "ui/controls/optionform.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/linkedslider.h"
#include "ui/widgets/sectionbox.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
constexpr int kConcurrencyKey = 100;  // the drag's merge key, apart from ControlsPanel::Main's
}

ServingControls::ServingControls(ScenarioController *controller, QWidget *parent)
    : QWidget(parent),
      m_controller(controller),
      m_fields(new FieldControls(controller, this)),
      m_modeGroup(new QButtonGroup(this)),
      m_box(new SectionBox(tr("Serving"), this)),
      m_concurrency(nullptr),
      m_max(nullptr)
{
    // The switch: two buttons side by side, each the whole choice in one click.
    const ScenarioField *modeField = findScenarioField(QStringLiteral("mode"));
    auto *modeRow = new QWidget(this);
    auto *modeLayout = new QHBoxLayout(modeRow);
    modeLayout->setContentsMargins(0, 0, 0, 0);
    modeLayout->setSpacing(0);
    const QString names[2] = {tr("Training"), tr("Inference")};
    for (int i = 0; i < 2; ++i) {
        auto *button = new QToolButton(modeRow);
        button->setText(names[i]);
        button->setCheckable(true);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        described(button, tr("%1 mode").arg(names[i]), FieldControls::tip(*modeField));
        m_modeGroup->addButton(button, i);
        modeLayout->addWidget(button);
        m_modes[i] = button;
    }
    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) { setMode(static_cast<Mode>(id)); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(modeRow);
    layout->addWidget(m_box);

    // The serving rows are built the first time inference mode shows them (or one is asked
    // for): training, the mode a window starts in, never does.
    m_box->hide();
    connect(m_controller, &ScenarioController::scenarioChanged, this, &ServingControls::sync);
    connect(m_controller, &ScenarioController::reportChanged, this, &ServingControls::fitConcurrency);
    sync(m_controller->scenario());
}

void ServingControls::buildBox()
{
    if (m_concurrency)
        return;
    auto *form = new QFormLayout(m_box);
    m_fields->addRow(form, "prompt_tokens", {.stepFactor = 2});
    m_fields->addRow(form, "output_tokens", {.stepFactor = 2});

    LinkedSlider::Config c;
    const ScenarioField *concurrency = findScenarioField(QStringLiteral("concurrency"));
    c.label = FieldControls::label(*concurrency);
    c.description = FieldControls::tip(*concurrency);
    c.min = fieldLo("concurrency");
    c.max = fieldHi("concurrency");
    c.sliderMin = 1;
    c.sliderMax = 256;
    c.logBase = 2;
    c.stepsPerUnit = 2;
    c.spinFactor = 2;
    m_concurrency = new LinkedSlider(c, m_box);
    form->addRow(m_concurrency);
    m_max = described(new QCheckBox(tr("As many as the KV cache holds (max)"), m_box), tr("Maximum concurrency"),
                      tr("Decode as many sequences as the KV pool holds at prompt + output tokens, at most "
                         "max_num_seqs (More options)"));
    form->addRow(m_max);
    m_fields->addRow(form, "weight_dtype");
    m_fields->addRow(form, "kv_dtype");
    m_fields->addRow(form, "gpu_memory_utilization", {.scale = 100, .decimals = 0, .step = 1, .suffix = " %"});

    connect(m_concurrency, &LinkedSlider::valueEdited, this, &ServingControls::editConcurrency);
    connect(m_concurrency, &LinkedSlider::dragStarted, m_controller, &ScenarioController::beginInteraction);
    connect(m_concurrency, &LinkedSlider::dragFinished, m_controller, &ScenarioController::endInteraction);
    connect(m_max, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, on ? tr("Set concurrency to max") : tr("Set concurrency to %1").arg(m_concurrency->value()),
                      [&](Scenario &s) {
                          if (on)
                              s.concurrency.reset();
                          else
                              s.concurrency = static_cast<std::int64_t>(std::llround(m_concurrency->value()));
                      });
    });
    for (QComboBox *combo : m_box->findChildren<QComboBox *>())
        combo->setMinimumContentsLength(8);
    // Caught up with the scenario and report of now.
    sync(m_controller->scenario());
    if (m_controller->report())
        fitConcurrency(*m_controller->report());
}

LinkedSlider *ServingControls::concurrencySlider() const
{
    const_cast<ServingControls *>(this)->buildBox();
    return m_concurrency;
}

QCheckBox *ServingControls::maxConcurrencyBox() const
{
    const_cast<ServingControls *>(this)->buildBox();
    return m_max;
}

FieldControls *ServingControls::fields() const
{
    const_cast<ServingControls *>(this)->buildBox();
    return m_fields;
}

void ServingControls::setMode(Mode mode)
{
    if (m_controller->scenario().mode == mode)
        return;
    // Only the mode: the model, the GPU and the layout stay as they are.
    proposeChange(m_controller,
                  mode == Mode::Inference ? tr("Switch to inference mode") : tr("Switch to training mode"),
                  [mode](Scenario &s) { s.mode = mode; });
}

void ServingControls::editConcurrency(double value)
{
    const auto n = std::clamp<std::int64_t>(std::llround(value), 1, limits::maxConcurrency);
    Scenario s = m_controller->scenario();
    s.concurrency = n;
    m_controller->propose(s, tr("Set concurrency to %1").arg(n), kConcurrencyKey);
}

void ServingControls::sync(const Scenario &s)
{
    const QSignalBlocker blocker(m_modeGroup);
    m_modes[static_cast<int>(s.mode)]->setChecked(true);
    if (s.mode == Mode::Inference)
        buildBox();  // syncs the rows it builds, then comes back here
    m_box->setVisible(s.mode == Mode::Inference);
    if (!m_concurrency)
        return;
    m_fields->sync(s);
    const QSignalBlocker maxBlocker(m_max);
    m_max->setChecked(!s.concurrency);
    if (s.concurrency)
        m_concurrency->setValue(static_cast<double>(*s.concurrency));
    else if (const auto &r = m_controller->report(); r && r->inference)
        m_concurrency->setValue(static_cast<double>(r->inference->maxConcurrency));
}

void ServingControls::fitConcurrency(const Report &r)
{
    if (!r.inference || !m_concurrency)
        return;
    // Up to the most the pool holds: a position past it would be a concurrency core refuses.
    m_concurrency->setSliderMaximum(static_cast<double>(std::max<std::int64_t>(1, r.inference->maxConcurrency)));
    // Say which limit "max" is: the pool, or the scheduler's cap below it.
    m_max->setText(r.inference->maxConcurrency < r.inference->kvMaxConcurrency ? tr("As many as max_num_seqs allows (max)")
                                                                               : tr("As many as the KV cache holds (max)"));
    if (!r.scenario.concurrency)
        m_concurrency->setValue(static_cast<double>(r.inference->maxConcurrency));
}

} // namespace napkin::ui
