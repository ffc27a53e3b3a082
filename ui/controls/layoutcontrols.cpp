#include "ui/controls/layoutcontrols.h"

#include "ui/widgets/elidingcombobox.h"
#include "core/model/layout.h"
#include "ui/controls/optionform.h"
#include "ui/state/scenariocontroller.h"
#include "core/text/units.h"
#include "core/model/validation.h"
#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include "core/model/fields.h"
#include "ui/controls/fieldcontrols.h"
#include "ui/widgets/textstrip.h"
#include <QStandardItemModel>

#include <algorithm>
#include <numeric>
#include <optional>

namespace napkin::ui {

namespace {

/// Sorted unique values: the usual powers of two up to `limit`, the divisors of `n` up to it,
/// and the current value.
QList<std::int64_t> candidates(std::int64_t n, std::int64_t limit, std::int64_t current)
{
    QList<std::int64_t> out;
    for (std::int64_t v = 1; v <= limit; v *= 2)
        out.append(v);
    for (std::int64_t v = 1; v <= std::min(n, limit); ++v)
        if (n % v == 0)
            out.append(v);
    out.append(current);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// Whether a layout choice is possible, and the rule that forbids it: the scenario's rules and
/// the node against the GPU's fast link (computeReport() checks the same; the rest of the
/// report is not needed to grey an item).
std::optional<Refusal> layoutProblem(const Scenario &s, const Catalog &catalog)
{
    if (auto e = validateScenario(s))
        return e;
    const GpuSpec *gpu = catalog.findGpu(s.gpuId);
    const Interconnect *up = gpu ? catalog.findInterconnect(gpu->scaleUpId) : nullptr;
    if (up && s.gpusPerNode && *s.gpusPerNode > up->domainGpus)
        return Refusal{QStringLiteral("gpus_per_node"),
                               QStringLiteral("must be at most %1, the GPUs %2 connects").arg(up->domainGpus).arg(up->name)};
    return std::nullopt;
}

/// The field each chooser sets, for its undo step's words.
const ScenarioField *chooserField(LayoutControls::Choice c)
{
    switch (c) {
    case LayoutControls::Choice::Tp: return findScenarioField(QStringLiteral("tp"));
    case LayoutControls::Choice::Pp: return findScenarioField(QStringLiteral("pp"));
    case LayoutControls::Choice::Vpp: return findScenarioField(QStringLiteral("vpp"));
    case LayoutControls::Choice::Cp: return findScenarioField(QStringLiteral("cp"));
    case LayoutControls::Choice::GlobalBatch: return findScenarioField(QStringLiteral("global_batch"));
    case LayoutControls::Choice::GpusPerNode: return findScenarioField(QStringLiteral("gpus_per_node"));
    case LayoutControls::Choice::Ep: return findScenarioField(QStringLiteral("ep"));
    case LayoutControls::Choice::Etp: return findScenarioField(QStringLiteral("etp"));
    }
    return nullptr;
}

/// Every field the choosers depend on, in one string: sync() rebuilds them only when it changes.
QString chooserKey(const Scenario &s)
{
    return QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16")
               .arg(s.model.heads).arg(s.model.kvHeads).arg(s.model.layers).arg(s.gpus).arg(s.seqLen)
               .arg(s.microBatch).arg(s.tp).arg(s.pp).arg(s.vpp).arg(s.cp)
               .arg(s.globalBatch.value_or(0)).arg(s.gpusPerNode.value_or(0))
               .arg(s.gpuId, s.interconnectId).arg(s.sequenceParallel).arg(static_cast<int>(s.timeBasis))
           + QString::number(s.paramsOverride.value_or(0))
           + QStringLiteral(" %1 %2 %3 %4 %5").arg(s.model.experts).arg(s.ep).arg(s.capacityFactor).arg(s.epOverlap)
                 .arg(static_cast<int>(s.mode))
           + QString::number(s.dpOverlap) + QString::number(s.tpOverlap) + QStringLiteral(" %1").arg(s.etp.value_or(0));
}

} // namespace

LayoutControls::LayoutControls(ScenarioController *controller, QWidget *parent)
    : QWidget(parent),
      m_controller(controller),
      m_fields(new FieldControls(controller, this)),
      m_tp(new ElidingComboBox(this)),
      m_pp(new ElidingComboBox(this)),
      m_vpp(new ElidingComboBox(this)),
      m_cp(new ElidingComboBox(this)),
      m_globalBatch(new ElidingComboBox(this)),
      m_gpusPerNode(new ElidingComboBox(this)),
      m_ep(new ElidingComboBox(this)),
      m_etp(new ElidingComboBox(this)),
      m_interconnect(new ElidingComboBox(this)),
      m_derived(new TextStrip(this))
{
    // A strip, not a label: its text changes on every tick, and a label would relayout the window.
    m_derived->setLines(3);  // "DP 128 · 16 micro-batches … 16.78M tokens per step" in the controls column
    m_derived->setTextAsToolTip(true);
    m_derived->setAccessibleName(tr("Derived layout"));

    auto *form = new QFormLayout(this);
    m_form = form;
    form->setContentsMargins(0, 0, 0, 0);
    const auto chooserRow = [form](QComboBox *box, const char *key) { form->addRow(describeByField(box, key), box); };
    chooserRow(m_gpusPerNode, "gpus_per_node");
    chooserRow(m_interconnect, "interconnect");
    chooserRow(m_tp, "tp");
    m_sp = static_cast<QCheckBox *>(m_fields->addRow(form, "sp"));
    m_tpOverlap = static_cast<QCheckBox *>(m_fields->addRow(form, "tp_overlap"));
    chooserRow(m_pp, "pp");
    chooserRow(m_vpp, "vpp");
    m_ppSchedule = m_fields->addRow(form, "pp_schedule");
    chooserRow(m_cp, "cp");
    chooserRow(m_ep, "ep");
    chooserRow(m_etp, "etp");
    m_capacity = static_cast<QDoubleSpinBox *>(m_fields->addRow(form, "capacity_factor", {.decimals = 2, .step = 0.05}));
    m_epOverlap = static_cast<QCheckBox *>(m_fields->addRow(form, "ep_overlap"));
    m_epNodeLimit = m_fields->addRow(form, "ep_node_limit");
    m_dpOverlap = static_cast<QCheckBox *>(m_fields->addRow(form, "dp_overlap"));
    m_gradFusion = static_cast<QCheckBox *>(m_fields->addRow(form, "grad_accumulation_fusion"));
    chooserRow(m_globalBatch, "global_batch");
    form->addRow(m_derived);
    m_timeBasis = static_cast<QComboBox *>(m_fields->addRow(form, "time_basis"));
    // Long items (network names) elide rather than widen the controls column.
    for (QComboBox *combo : {m_tp, m_pp, m_vpp, m_cp, m_ep, m_etp, m_globalBatch, m_gpusPerNode, m_interconnect, m_timeBasis})
        combo->setMinimumContentsLength(8);

    const QList<std::pair<QComboBox *, Choice>> boxes = {{m_tp, Choice::Tp}, {m_pp, Choice::Pp}, {m_vpp, Choice::Vpp},
                                                         {m_cp, Choice::Cp}, {m_ep, Choice::Ep}, {m_etp, Choice::Etp},
                                                         {m_globalBatch, Choice::GlobalBatch},
                                                         {m_gpusPerNode, Choice::GpusPerNode}};
    for (const auto &entry : boxes) {
        // Plain copies, not structured bindings: clang 14 cannot capture those in a lambda.
        QComboBox *box = entry.first;
        const Choice which = entry.second;
        connect(box, &QComboBox::activated, this, [this, which, box](int index) {
            const QList<Scenario> &options = m_options[static_cast<int>(which)];
            if (m_syncing || index < 0 || index >= options.size())
                return;
            m_controller->propose(options[index], FieldControls::undoText(*chooserField(which), box->itemText(index)));
        });
    }
    connect(m_interconnect, &QComboBox::activated, this, [this](int index) {
        if (m_syncing)
            return;
        const QString id = m_interconnect->itemData(index).toString();
        proposeChange(m_controller,
                      FieldControls::undoText(*findScenarioField(QStringLiteral("interconnect")),
                                              m_interconnect->itemText(index)),
                      [&](Scenario &s) { s.interconnectId = id; });
    });
    connect(m_controller, &ScenarioController::scenarioChanged, this, &LayoutControls::sync);
    connect(m_controller, &ScenarioController::reportChanged, this, &LayoutControls::showDerived);
    sync(m_controller->scenario());
    if (const auto &r = m_controller->report())
        showDerived(*r);
}

void LayoutControls::showDerived(const Report &r)
{
    const Layout &l = r.layout;
    m_derived->setText(tr("DP %1 · %2 micro-batch%3 of %4 per step (gradient accumulation %2) · %5 tokens per step")
                           .arg(l.dp).arg(l.microBatches).arg(l.microBatches == 1 ? QString() : QStringLiteral("es"))
                           .arg(l.microBatch).arg(fmt::compactCount(static_cast<double>(l.globalBatch * r.scenario.seqLen))));
}

QComboBox *LayoutControls::chooser(Choice c) const
{
    switch (c) {
    case Choice::Tp: return m_tp;
    case Choice::Pp: return m_pp;
    case Choice::Vpp: return m_vpp;
    case Choice::Cp: return m_cp;
    case Choice::GlobalBatch: return m_globalBatch;
    case Choice::GpusPerNode: return m_gpusPerNode;
    case Choice::Ep: return m_ep;
    case Choice::Etp: return m_etp;
    }
    return nullptr;
}

void LayoutControls::fill(Choice which, const QList<std::pair<QString, Scenario>> &options, int current)
{
    QComboBox *box = chooser(which);
    QList<Scenario> &stored = m_options[static_cast<int>(which)];
    stored.clear();
    for (const auto &o : options)
        stored.append(o.second);
    // Items are rebuilt only when their labels change; their enabled state and "why not"
    // tooltip follow the scenario every time.
    QStringList labels;
    for (const auto &o : options)
        labels << o.first;
    QStringList shown;
    for (int i = 0; i < box->count(); ++i)
        shown << box->itemText(i);
    if (shown != labels) {
        box->clear();
        box->addItems(labels);
    }
    auto *model = qobject_cast<QStandardItemModel *>(box->model());
    const Catalog &catalog = m_controller->catalog();
    for (int i = 0; i < options.size(); ++i) {
        const auto problem = layoutProblem(options[i].second, catalog);
        QStandardItem *item = model ? model->item(i) : nullptr;
        if (!item)
            continue;
        item->setEnabled(!problem || i == current);
        item->setToolTip(problem ? tr("Not possible: %1 %2").arg(problem->field, problem->problem) : QString());
    }
    box->setCurrentIndex(current);
}

void LayoutControls::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    sync(m_controller->scenario());
}

void LayoutControls::sync(const Scenario &s)
{
    // Hidden (the group folded away), nothing to show; and the choosers depend on these fields
    // only, so a tokens or width drag costs nothing here.
    if (!isVisible())
        return;
    const QString key = chooserKey(s);
    if (key == m_syncedKey)
        return;
    m_syncedKey = key;
    m_syncing = true;
    offerSplits(s);
    // The data-parallel replicas that the model's split leaves: EP and the global batch follow from them.
    const std::int64_t model = s.tp * s.pp * s.cp;
    const std::int64_t dp = model > 0 && s.gpus % model == 0 ? s.gpus / model : 1;
    offerExperts(s, dp);
    offerGlobalBatch(s, dp);
    syncNode(s);
    showModeRows(s);
    m_fields->sync(s);
    m_sp->setEnabled(s.tp > 1 || s.sequenceParallel);
    m_sp->setToolTip(s.tp > 1 ? m_sp->accessibleDescription()
                              : tr("Needs tensor parallelism (tp > 1): with one TP rank nothing is split."));
    const bool tpOverlapApplies = s.tp > 1 && s.sequenceParallel;
    m_tpOverlap->setEnabled(tpOverlapApplies || s.tpOverlap);
    m_tpOverlap->setToolTip(tpOverlapApplies ? m_tpOverlap->accessibleDescription()
                                             : tr("Needs tensor parallelism with sequence parallelism: the overlap "
                                                  "splits SP's all-gathers and reduce-scatters into chunks."));
    m_syncing = false;
}

void LayoutControls::showModeRows(const Scenario &s)
{
    // Serving splits the model by TP, PP and EP only (inference.h): no sequence parallelism,
    // interleaving, context parallelism, global batch or step-time basis, and no expert capacity
    // padding. Those rows would change nothing shown, so they leave instead.
    const bool training = s.mode == Mode::Training;
    const bool moe = s.model.moe() && !s.paramsOverride;
    for (QWidget *row : {static_cast<QWidget *>(m_sp), static_cast<QWidget *>(m_vpp), m_ppSchedule, static_cast<QWidget *>(m_cp),
                         static_cast<QWidget *>(m_globalBatch), static_cast<QWidget *>(m_derived),
                         static_cast<QWidget *>(m_timeBasis), static_cast<QWidget *>(m_dpOverlap),
                         static_cast<QWidget *>(m_gradFusion), static_cast<QWidget *>(m_tpOverlap)})
        m_form->setRowVisible(row, training);
    m_form->setRowVisible(m_capacity, moe && training);
    m_form->setRowVisible(m_epOverlap, moe && training);
}

void LayoutControls::offer(const Scenario &s, Choice which, const QString &unsetLabel,
                           const QList<std::int64_t> &values, std::optional<std::int64_t> current, Setter set)
{
    // One chooser: an optional first item that leaves the field unset (derived), then the
    // values; each item stands for the scenario with that value.
    QList<std::pair<QString, Scenario>> options;
    int at = 0;
    if (!unsetLabel.isEmpty()) {
        Scenario next = s;
        set(next, std::nullopt);
        options.append({unsetLabel, next});
    }
    for (std::int64_t v : values) {
        Scenario next = s;
        set(next, v);
        if (current == v)
            at = static_cast<int>(options.size());
        options.append({QString::number(v), next});
    }
    fill(which, options, at);
}

void LayoutControls::offerSplits(const Scenario &s)
{
    const std::int64_t heads = std::gcd(s.model.heads, s.model.kvHeads);
    offer(s, Choice::Tp, {}, candidates(heads, std::min<std::int64_t>(64, s.gpus), s.tp), s.tp,
          [](Scenario &n, std::optional<std::int64_t> v) { n.tp = *v; });
    offer(s, Choice::Pp, {}, candidates(s.model.layers, std::min<std::int64_t>({128, s.model.layers, s.gpus}), s.pp), s.pp,
          [](Scenario &n, std::optional<std::int64_t> v) { n.pp = *v; });
    offer(s, Choice::Vpp, {}, candidates(1, 8, s.vpp), s.vpp, [](Scenario &n, std::optional<std::int64_t> v) { n.vpp = *v; });
    offer(s, Choice::Cp, {}, candidates(1, std::min<std::int64_t>(64, s.gpus), s.cp), s.cp,
          [](Scenario &n, std::optional<std::int64_t> v) { n.cp = *v; });
}

void LayoutControls::offerExperts(const Scenario &s, std::int64_t dp)
{
    // Expert parallelism and the capacity factor only mean something for Mixture-of-Experts.
    const bool moe = s.model.moe() && !s.paramsOverride;
    m_form->setRowVisible(m_ep, moe);
    m_form->setRowVisible(m_etp, moe);
    m_form->setRowVisible(m_capacity, moe);
    m_form->setRowVisible(m_epOverlap, moe);
    m_form->setRowVisible(m_epNodeLimit, moe);
    if (!moe)
        return;
    // MoE parallel folding: EP x ETP over the attention's TP x DP x CP ranks.
    const std::int64_t folded = std::max<std::int64_t>(1, s.tp * dp * s.cp);
    const std::int64_t etp = s.etp.value_or(s.tp);
    offer(s, Choice::Ep, {}, candidates(s.model.experts, std::min(s.model.experts, std::max<std::int64_t>(1, folded / etp)), s.ep),
          s.ep, [](Scenario &n, std::optional<std::int64_t> v) { n.ep = *v; });
    offer(s, Choice::Etp, tr("as TP (%1)").arg(s.tp), candidates(folded, std::min<std::int64_t>(folded, 64), etp), s.etp,
          [](Scenario &n, std::optional<std::int64_t> v) { n.etp = v; });
}

void LayoutControls::offerGlobalBatch(const Scenario &s, std::int64_t dp)
{
    // Global batch: one micro-batch per replica (the default), or k of them.
    const std::int64_t perStep = s.microBatch * dp;
    QList<std::int64_t> multiples;
    for (std::int64_t k = 2; k <= 4096 && perStep * k <= limits::maxGlobalBatch; k *= 2)
        multiples.append(perStep * k);
    if (s.globalBatch && !multiples.contains(*s.globalBatch))
        multiples.append(*s.globalBatch);
    std::sort(multiples.begin(), multiples.end());
    offer(s, Choice::GlobalBatch, tr("batch × DP = %1").arg(perStep), multiples, s.globalBatch,
          [](Scenario &n, std::optional<std::int64_t> v) { n.globalBatch = v; });
}

void LayoutControls::syncNode(const Scenario &s)
{
    const Catalog &catalog = m_controller->catalog();
    const GpuSpec *gpu = catalog.findGpu(s.gpuId);
    const std::int64_t node = gpu ? gpu->gpusPerNode : 8;
    offer(s, Choice::GpusPerNode, tr("the GPU's (%1)").arg(node), {1, 2, 4, 8, 16, 32, 64, 72, 128, 256}, s.gpusPerNode,
          [](Scenario &n, std::optional<std::int64_t> v) { n.gpusPerNode = v; });
    if (m_interconnect->count() != catalog.interconnects.size() + 1) {
        m_interconnect->clear();
        m_interconnect->addItem(QString(), QString());
        for (const Interconnect &l : catalog.interconnects)
            m_interconnect->addItem(l.name, l.id);
    }
    m_interconnect->setItemText(0, tr("the GPU's (%1)").arg(gpu ? gpu->scaleOutId : QString()));
    m_interconnect->setCurrentIndex(std::max(0, m_interconnect->findData(s.interconnectId)));
}

} // namespace napkin::ui
