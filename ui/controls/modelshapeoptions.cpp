#include "ui/controls/modelshapeoptions.h"

#include "core/model/modelshape.h"

#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/divisorspinbox.h"
#include "ui/widgets/numberspinbox.h"
#include "core/model/fields.h"
#include "ui/controls/fieldcontrols.h"
#include "ui/controls/optionform.h"
#include "core/model/shapefix.h"
#include "core/model/validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>

#include <vector>

namespace napkin::ui {

ModelShapeOptions::ModelShapeOptions(ScenarioController *controller, QWidget *parent)
    : SectionBox(tr("Model shape"), parent), m_controller(controller), m_fields(new FieldControls(controller, this))
{
    auto *form = new QFormLayout(this);
    m_preset = described(new ElidingComboBox(this), tr("Model preset"),
                         tr("Fills every shape field (family, layers, width, heads, kv heads, d_ff, vocabulary) "
                            "from a published model configuration"));
    for (const ModelPreset &p : m_controller->catalog().presets)
        m_preset->addItem(p.name, p.id);
    m_presetState = new QLabel(this);
    m_presetState->setAccessibleName(tr("Preset state"));
    m_presetState->setWordWrap(true);  // a note must not widen the controls column
    // The switches a preset sets that have no control here (QK-norm, biases, windows, latents).
    m_switches = new QLabel(this);
    m_switches->setWordWrap(true);
    m_switches->setAccessibleName(tr("Shape switches"));
    m_switches->setToolTip(tr("Set by the preset, or by the JSON keys and options of the same names "
                              "(napkin --help lists them)"));
    m_heads = new DivisorSpinBox(this);
    m_heads->setRange(static_cast<int>(fieldLo("heads")), static_cast<int>(fieldHi("heads")));
    m_kvHeads = new DivisorSpinBox(this);
    m_kvHeads->setRange(static_cast<int>(fieldLo("kv_heads")), static_cast<int>(fieldHi("kv_heads")));
    m_keepRatio = described(new QCheckBox(tr("d_ff follows width"), this), tr("d_ff follows width"),
                            tr("When width changes, scale d_ff to keep its ratio to d_model"));
    m_keepRatio->setChecked(true);
    m_keepHeadDim = described(new QCheckBox(tr("Heads follow width (keep d_head)"), this),
                              tr("Heads follow width"),
                              tr("When width changes, change the number of heads to keep d_model / heads, as "
                                 "GPT-2 (64) and Llama 2 (128) do at every size; off holds the head count"));
    m_keepHeadDim->setChecked(true);
    form->addRow(tr("Preset"), m_preset);
    form->addRow(QString(), m_presetState);
    m_fields->addRow(form, "arch");
    form->addRow(describeByField(m_heads, "heads"), m_heads);
    form->addRow(describeByField(m_kvHeads, "kv_heads"), m_kvHeads);
    m_fields->addRow(form, "d_ff", {.step = 64});
    m_fields->addRow(form, "vocab", {.step = 256});
    m_fields->addRow(form, "tied");
    m_fields->addRow(form, "experts", {}, [this](Scenario &s) { return followExperts(s); });
    m_fields->addRow(form, "experts_per_token");
    m_fields->addRow(form, "shared_experts");
    m_fields->addRow(form, "expert_d_ff", {.step = 64});
    m_fields->addRow(form, "dense_layers");
    form->addRow(tr("Also"), m_switches);
    form->addRow(m_keepRatio);
    form->addRow(m_keepHeadDim);

    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const ModelPreset *p = m_controller->catalog().findPreset(m_preset->itemData(index).toString());
        if (!p)
            return;
        QString note;
        const Scenario s = applyPreset(m_controller->scenario(), *p, &note);
        m_controller->propose(s, tr("Use preset %1").arg(p->name));
        if (!note.isEmpty())
            emit notice(note);
    });
    connect(m_heads, &QSpinBox::valueChanged, this, [this](int v) {
        QString note;
        proposeChange(m_controller, FieldControls::undoText(*findScenarioField(QStringLiteral("heads")), QString::number(v)),
                      [&](Scenario &s) { s.model = followHeads(s.model, v, &note, s.tp); });
        if (!note.isEmpty())
            emit notice(note);
    });
    connect(m_kvHeads, &QSpinBox::valueChanged, this, [this](int v) {
        proposeChange(m_controller,
                      FieldControls::undoText(*findScenarioField(QStringLiteral("kv_heads")), QString::number(v)),
                      [&](Scenario &s) { s.model.kvHeads = v; });
    });
    connect(m_keepRatio, &QCheckBox::toggled, this, &ModelShapeOptions::widthRuleChanged);
    connect(m_keepHeadDim, &QCheckBox::toggled, this, &ModelShapeOptions::widthRuleChanged);
    connect(m_controller, &ScenarioController::scenarioChanged, this, &ModelShapeOptions::sync);
    sync(m_controller->scenario());
}

NumberSpinBox *ModelShapeOptions::expertsBox() const
{
    return m_fields->control<NumberSpinBox>("experts");
}

NumberSpinBox *ModelShapeOptions::topKBox() const
{
    return m_fields->control<NumberSpinBox>("experts_per_token");
}

QString ModelShapeOptions::followExperts(Scenario &s) const
{
    const std::int64_t experts = s.model.experts;
    QString note;
    if (experts > 0 && s.model.expertsPerToken > experts) {
        note = tr("experts per token %1 → %2, the experts there are").arg(s.model.expertsPerToken).arg(experts);
        s.model.expertsPerToken = experts;
    }
    if (s.ep > 1 && (experts == 0 || experts % s.ep != 0)) {
        note += (note.isEmpty() ? QString() : QStringLiteral("; ")) + tr("expert parallelism %1 → 1").arg(s.ep);
        s.ep = 1;
    }
    return note;
}

WidthRule ModelShapeOptions::widthRule() const
{
    return {.keepFfRatio = m_keepRatio->isChecked(), .keepHeadDim = m_keepHeadDim->isChecked()};
}

void ModelShapeOptions::sync(const Scenario &s)
{
    auto *topK = m_fields->control<NumberSpinBox>("experts_per_token");
    auto *dense = m_fields->control<NumberSpinBox>("dense_layers");
    const QList<QObject *> all = {m_preset, m_heads, m_kvHeads, topK, dense};
    std::vector<QSignalBlocker> blockers;
    blockers.reserve(all.size());
    for (QObject *o : all)
        blockers.emplace_back(o);
    m_preset->setCurrentIndex(m_preset->findData(s.presetId));
    const ModelPreset *preset = m_controller->catalog().findPreset(s.presetId);
    const bool modified = !preset || preset->shape != s.model;
    m_presetState->setText(modified ? tr("(shape edited since the preset)") : QString());
    m_presetState->setVisible(modified);
    const QStringList switches = shapeSwitches(s.model);
    m_switches->setText(switches.join(QStringLiteral(" · ")));
    if (auto *form = qobject_cast<QFormLayout *>(layout()))
        form->setRowVisible(m_switches, !switches.isEmpty());
    // Under tensor parallelism the arrows skip head counts it cannot split.
    m_heads->setDividend(s.model.dModel, s.tp);
    m_heads->setValue(static_cast<int>(s.model.heads));
    m_kvHeads->setDividend(s.model.heads, s.tp);
    m_kvHeads->setValue(static_cast<int>(s.model.kvHeads));
    // Top-k stops at the experts there are, dense blocks at the layers; the expert fields rest
    // while the MLP is dense.
    const bool moe = s.model.moe();
    topK->setMaximum(static_cast<double>(moe ? s.model.experts : fieldHi("experts_per_token")));
    dense->setMaximum(static_cast<double>(s.model.layers));
    m_fields->sync(s);
    for (const char *key : {"experts_per_token", "shared_experts", "expert_d_ff", "dense_layers"})
        m_fields->control(key)->setEnabled(moe);
}

} // namespace napkin::ui
