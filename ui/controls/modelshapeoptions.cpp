#include "ui/controls/modelshapeoptions.h"

#include "core/model/modelshape.h"

#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/divisorspinbox.h"
#include "core/model/fields.h"
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
    : SectionBox(tr("Model shape"), parent), m_controller(controller)
{
    auto *form = new QFormLayout(this);
    m_preset = described(new ElidingComboBox(this), tr("Model preset"),
                         tr("Fills every shape field (family, layers, width, heads, kv heads, d_ff, vocabulary) "
                            "from a published model configuration"));
    for (const ModelPreset &p : m_controller->catalog().presets)
        m_preset->addItem(p.name, p.id);
    m_presetState = new QLabel(this);
    m_presetState->setAccessibleName(tr("Preset state"));
    // The switches a preset sets that have no control here (QK-norm, biases, windows, latents).
    m_switches = new QLabel(this);
    m_switches->setWordWrap(true);
    m_switches->setAccessibleName(tr("Shape switches"));
    m_switches->setToolTip(tr("Set by the preset, or by the JSON keys and options of the same names "
                              "(napkin --help lists them)"));
    m_family = described(new ElidingComboBox(this), tr("Model family"),
                         tr("GPT-2: LayerNorm, GELU MLP, learned positions, biases. "
                            "Llama: RMSNorm, SwiGLU MLP (three matrices), no biases."));
    m_family->addItem(tr("GPT-2"), static_cast<int>(Arch::Gpt2));
    m_family->addItem(tr("Llama"), static_cast<int>(Arch::Llama));
    m_heads = described(new DivisorSpinBox(this), tr("Attention heads"),
                        tr("Attention heads; must divide d_model. The arrows step through the divisors."));
    m_heads->setRange(static_cast<int>(fieldLo("heads")), static_cast<int>(fieldHi("heads")));
    m_kvHeads = described(new DivisorSpinBox(this), tr("Key/value heads"),
                          tr("Key/value heads (grouped-query attention); must divide the heads. "
                             "Equal to heads is ordinary multi-head attention."));
    m_kvHeads->setRange(static_cast<int>(fieldLo("kv_heads")), static_cast<int>(fieldHi("kv_heads")));
    m_dFf = described(integerBox(static_cast<std::int64_t>(fieldHi("d_ff")), 0, this), tr("MLP width (d_ff)"),
                      tr("Hidden width of the MLP block (d_ff); usually 4 x d_model for GPT-2"));
    m_dFf->setSingleStep(64);
    m_vocab = described(integerBox(static_cast<std::int64_t>(fieldHi("vocab")), 0, this), tr("Vocabulary size"),
                        tr("Vocabulary size: sets the embedding and LM-head parameters and the logits memory"));
    m_vocab->setSingleStep(256);
    m_tied = described(new QCheckBox(tr("Tied embeddings"), this), tr("Tied embeddings"),
                       tr("Share the token embedding with the LM head (GPT-2 does, Llama does not)"));
    m_experts = described(integerBox(static_cast<std::int64_t>(fieldHi("experts")), 0, this), tr("Routed experts"),
                          tr("Mixture-of-Experts: routed expert MLPs per block (Mixtral 8, DeepSeek-V3 256); 0 is a "
                             "dense MLP of d_ff"));
    m_experts->setRange(fieldLo("experts"), fieldHi("experts"));
    m_topK = described(integerBox(static_cast<std::int64_t>(fieldHi("experts_per_token")), 0, this),
                       tr("Experts per token"),
                       tr("Routed experts each token goes to (top-k): its compute and activations; every expert's "
                          "weights are still held"));
    m_shared = described(integerBox(static_cast<std::int64_t>(fieldHi("shared_experts")), 0, this),
                         tr("Shared experts"), tr("Experts every token goes through besides its top-k (DeepSeek-V3: 1)"));
    m_shared->setRange(fieldLo("shared_experts"), fieldHi("shared_experts"));
    m_expertDff = described(integerBox(static_cast<std::int64_t>(fieldHi("expert_d_ff")), 0, this),
                            tr("Expert width"), tr("Hidden width of one expert's MLP; 0 uses d_ff"));
    m_expertDff->setRange(fieldLo("expert_d_ff"), fieldHi("expert_d_ff"));
    m_expertDff->setSingleStep(64);
    m_denseLayers = described(integerBox(static_cast<std::int64_t>(fieldHi("dense_layers")), 0, this),
                              tr("Dense blocks first"),
                              tr("The first blocks keep a dense MLP of d_ff (DeepSeek-V3: 3); the rest are MoE blocks"));
    m_denseLayers->setRange(fieldLo("dense_layers"), fieldHi("dense_layers"));
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
    form->addRow(tr("Family"), m_family);
    form->addRow(tr("Heads"), m_heads);
    form->addRow(tr("KV heads"), m_kvHeads);
    form->addRow(tr("d_ff"), m_dFf);
    form->addRow(tr("Vocabulary"), m_vocab);
    form->addRow(m_tied);
    form->addRow(tr("Experts"), m_experts);
    form->addRow(tr("Top-k"), m_topK);
    form->addRow(tr("Shared"), m_shared);
    form->addRow(tr("Expert d_ff"), m_expertDff);
    form->addRow(tr("Dense first"), m_denseLayers);
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
    connect(m_family, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change family"),
                      [&](Scenario &s) { s.model.arch = static_cast<Arch>(m_family->itemData(index).toInt()); });
    });
    connect(m_heads, &QSpinBox::valueChanged, this, [this](int v) {
        QString note;
        proposeChange(m_controller, tr("Set heads to %1").arg(v),
                      [&](Scenario &s) { s.model = followHeads(s.model, v, &note); });
        if (!note.isEmpty())
            emit notice(note);
    });
    connect(m_kvHeads, &QSpinBox::valueChanged, this, [this](int v) {
        proposeChange(m_controller, tr("Set kv heads to %1").arg(v), [&](Scenario &s) { s.model.kvHeads = v; });
    });
    connect(m_dFf, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set d_ff"), [&](Scenario &s) { s.model.dFf = static_cast<std::int64_t>(v); });
    });
    connect(m_vocab, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set vocabulary"),
                      [&](Scenario &s) { s.model.vocab = static_cast<std::int64_t>(v); });
    });
    connect(m_experts, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const auto experts = static_cast<std::int64_t>(v);
        QString note;
        proposeChange(m_controller, tr("Set experts to %1").arg(experts), [&](Scenario &s) {
            s.model.experts = experts;
            // Fewer experts than the top-k, or than expert parallelism divides: follow them down.
            if (experts > 0 && s.model.expertsPerToken > experts) {
                note = tr("experts per token %1 → %2, the experts there are").arg(s.model.expertsPerToken).arg(experts);
                s.model.expertsPerToken = experts;
            }
            if (s.ep > 1 && (experts == 0 || experts % s.ep != 0)) {
                note += (note.isEmpty() ? QString() : QStringLiteral("; "))
                        + tr("expert parallelism %1 → 1").arg(s.ep);
                s.ep = 1;
            }
        });
        if (!note.isEmpty())
            emit notice(note);
    });
    connect(m_topK, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set experts per token"),
                      [&](Scenario &s) { s.model.expertsPerToken = static_cast<std::int64_t>(v); });
    });
    connect(m_shared, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set shared experts"),
                      [&](Scenario &s) { s.model.sharedExperts = static_cast<std::int64_t>(v); });
    });
    connect(m_expertDff, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set expert width"),
                      [&](Scenario &s) { s.model.expertDff = static_cast<std::int64_t>(v); });
    });
    connect(m_denseLayers, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set dense blocks"),
                      [&](Scenario &s) { s.model.denseLayers = static_cast<std::int64_t>(v); });
    });
    connect(m_tied, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, tr("Tie embeddings"), [&](Scenario &s) { s.model.tied = on; });
    });
    connect(m_controller, &ScenarioController::scenarioChanged, this, &ModelShapeOptions::sync);
    sync(m_controller->scenario());
}

WidthRule ModelShapeOptions::widthRule() const
{
    return {.keepFfRatio = m_keepRatio->isChecked(), .keepHeadDim = m_keepHeadDim->isChecked()};
}

void ModelShapeOptions::sync(const Scenario &s)
{
    const QList<QObject *> all = {m_preset, m_family, m_heads, m_kvHeads, m_dFf, m_vocab, m_tied,
                                  m_experts, m_topK, m_shared, m_expertDff, m_denseLayers};
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
    m_family->setCurrentIndex(m_family->findData(static_cast<int>(s.model.arch)));
    m_heads->setDividend(s.model.dModel);
    m_heads->setValue(static_cast<int>(s.model.heads));
    m_kvHeads->setDividend(s.model.heads);
    m_kvHeads->setValue(static_cast<int>(s.model.kvHeads));
    m_dFf->setValue(static_cast<double>(s.model.dFf));
    m_vocab->setValue(static_cast<double>(s.model.vocab));
    m_tied->setChecked(s.model.tied);
    m_experts->setValue(static_cast<double>(s.model.experts));
    // Top-k stops at the experts there are; the expert fields rest while the MLP is dense.
    const bool moe = s.model.moe();
    m_topK->setMaximum(static_cast<double>(moe ? s.model.experts : fieldHi("experts_per_token")));
    m_topK->setValue(static_cast<double>(s.model.expertsPerToken));
    m_shared->setValue(static_cast<double>(s.model.sharedExperts));
    m_expertDff->setValue(static_cast<double>(s.model.expertDff));
    m_denseLayers->setMaximum(static_cast<double>(s.model.layers));
    m_denseLayers->setValue(static_cast<double>(s.model.denseLayers));
    for (QWidget *w : {static_cast<QWidget *>(m_topK), static_cast<QWidget *>(m_shared), static_cast<QWidget *>(m_expertDff),
                       static_cast<QWidget *>(m_denseLayers)})
        w->setEnabled(moe);
}

} // namespace napkin::ui
