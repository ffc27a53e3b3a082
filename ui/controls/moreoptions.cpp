#include "ui/controls/moreoptions.h"

#include <algorithm>

#include "ui/widgets/elidingcombobox.h"
#include "core/model/fields.h"
#include "core/model/layout.h"
#include "ui/controls/modelshapeoptions.h"
#include "ui/widgets/numberspinbox.h"
#include "ui/controls/optionform.h"
#include "core/model/recipe.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/sectionbox.h"
#include "core/run/trainingtime.h"
#include "core/text/units.h"
#include "core/model/validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <vector>

namespace napkin::ui {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

MoreOptions::MoreOptions(ScenarioController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_shape(new ModelShapeOptions(controller, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_setup = buildSetupGroup();
    layout->addWidget(m_shape);
    layout->addWidget(buildActivationGroup());
    layout->addWidget(buildComputeGroup());
    // Long entries (recipe names) would otherwise set the width of the whole panel.
    for (QComboBox *combo : findChildren<QComboBox *>()) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(12);
    }
    connect(m_shape, &ModelShapeOptions::notice, this, &MoreOptions::notice);
    connect(m_controller, &ScenarioController::scenarioChanged, this, &MoreOptions::sync);
    sync(m_controller->scenario());
}

WidthRule MoreOptions::widthRule() const
{
    return m_shape->widthRule();
}

QComboBox *MoreOptions::presetBox() const
{
    return m_shape->presetBox();
}

DivisorSpinBox *MoreOptions::headsBox() const
{
    return m_shape->headsBox();
}

QWidget *MoreOptions::buildSetupGroup()
{
    auto *box = new SectionBox(tr("Parallelism and precision"), this);
    auto *form = new QFormLayout(box);
    m_gpus = described(integerBox(static_cast<std::int64_t>(fieldHi("gpus")), 2, box), tr("Number of GPUs"),
                       tr("Data-parallel GPUs. Divides wall-clock time; ZeRO shards model state over them."));
    m_zero = described(new ElidingComboBox(box), tr("ZeRO stage"),
                       tr("ZeRO (Rajbhandari et al. 2019): which model state is sharded over the GPUs. "
                          "The memory chart shows all four stages and marks this one."));
    m_zero->addItem(tr("0 — nothing sharded"));
    m_zero->addItem(tr("1 — optimizer state"));
    m_zero->addItem(tr("2 — + gradients"));
    m_zero->addItem(tr("3 — + parameters"));
    m_recipe = described(new ElidingComboBox(box), tr("Precision and optimizer recipe"),
                         tr("Bytes per parameter for weights, gradients and optimizer state, and the dtype "
                            "whose peak FLOP/s applies"));
    for (const Recipe &r : recipes()) {
        m_recipe->addItem(r.name, r.id);
        m_recipe->setItemData(m_recipe->count() - 1, r.source, Qt::ToolTipRole);
    }
    m_recompute = described(new ElidingComboBox(box), tr("Activation recomputation"),
                            tr("What the backward pass recomputes instead of storing (Korthikanti et al. 2022)"));
    m_recompute->addItem(tr("None"), static_cast<int>(Recompute::None));
    m_recompute->addItem(tr("Selective (attention)"), static_cast<int>(Recompute::Selective));
    m_recompute->addItem(tr("Full (layer inputs only)"), static_cast<int>(Recompute::Full));
    m_offload = described(new ElidingComboBox(box), tr("Offload to CPU"),
                          tr("Move model state to the host's memory: the optimizer state and gradients, stepped on the "
                             "CPU (ZeRO-Offload, Ren et al. 2021; needs ZeRO 1+), or those and the parameters, fetched "
                             "for each micro-batch (ZeRO-Infinity; needs ZeRO 3). Choosing one raises the ZeRO stage "
                             "to what it needs. The GPU bars shrink; the CPU memory per node is in the memory chart's "
                             "legend and the PCIe traffic in the step chart."));
    m_offload->addItem(tr("Nothing"), static_cast<int>(Offload::None));
    m_offload->addItem(tr("Optimizer + grads"), static_cast<int>(Offload::Optimizer));
    m_offload->addItem(tr("+ parameters"), static_cast<int>(Offload::Params));
    m_flash = described(new QCheckBox(tr("FlashAttention"), box), tr("FlashAttention"),
                        tr("Fused attention (Dao et al. 2022): no s x s score matrix in memory; one fused op "
                           "on the roofline"));
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("ZeRO stage"), m_zero);
    form->addRow(tr("Recipe"), m_recipe);
    form->addRow(tr("Recompute"), m_recompute);
    form->addRow(tr("Offload"), m_offload);
    form->addRow(m_flash);

    connect(m_gpus, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set GPUs to %1").arg(v),
                      [&](Scenario &s) { s.gpus = static_cast<std::int64_t>(v); });
    });
    connect(m_zero, &QComboBox::activated, this, [this](int stage) {
        proposeChange(m_controller, tr("Set ZeRO stage %1").arg(stage), [&](Scenario &s) { s.zeroStage = stage; });
    });
    connect(m_recipe, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change recipe"),
                      [&](Scenario &s) { s.recipeId = m_recipe->itemData(index).toString(); });
    });
    connect(m_recompute, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change recompute"), [&](Scenario &s) {
            s.recompute = static_cast<Recompute>(m_recompute->itemData(index).toInt());
        });
    });
    connect(m_offload, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change offload"), [&](Scenario &s) {
            s.offload = static_cast<Offload>(m_offload->itemData(index).toInt());
            s.zeroStage = std::max(s.zeroStage, lowestZeroStage(s.offload));
        });
    });
    connect(m_flash, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, tr("Toggle FlashAttention"), [&](Scenario &s) { s.flashAttention = on; });
    });
    return box;
}

QWidget *MoreOptions::buildActivationGroup()
{
    auto *box = new SectionBox(tr("Activations and reserved memory"), this);
    auto *form = new QFormLayout(box);
    m_activations = described(new QCheckBox(tr("Count activations"), box), tr("Count activation memory"),
                              tr("Include activation memory in the per-GPU total"));
    m_activationModel = described(new ElidingComboBox(box), tr("Activation memory model"),
                                  tr("Korthikanti et al. 2022's formula, or what autograd keeps in Napkin's "
                                     "reference PyTorch decoders (measured, tests/validation)"));
    m_activationModel->addItem(tr("Korthikanti et al. 2022"), static_cast<int>(ActivationModel::Korthikanti));
    m_activationModel->addItem(tr("As in PyTorch (measured)"), static_cast<int>(ActivationModel::PyTorch));
    m_dropout = described(new QCheckBox(tr("Dropout layers"), box), tr("Dropout layers"),
                          tr("Dropout masks and outputs kept for backward, in both activation models (Korthikanti et al. 2022 train with dropout)"));
    form->addRow(m_activations);
    form->addRow(tr("Model"), m_activationModel);
    form->addRow(m_dropout);
    m_reserved = described(new QDoubleSpinBox(box), tr("Reserved per GPU"),
                           tr("Memory each GPU holds besides the model: CUDA context, kernels and library "
                              "handles. Default 1343 MiB, what nvidia-smi shows once PyTorch's first tensor "
                              "loads them (Hugging Face Transformers docs, \"Model training anatomy\"); "
                              "0 for the source document's accounting."));
    m_reserved->setRange(fieldLo("reserved_bytes") / kMiB, fieldHi("reserved_bytes") / kMiB);
    m_reserved->setDecimals(0);
    m_reserved->setSuffix(QStringLiteral(" MiB"));
    m_reserved->setSingleStep(128);
    m_reserved->setKeyboardTracking(false);
    form->addRow(tr("Reserved / GPU"), m_reserved);
    connect(m_reserved, &QDoubleSpinBox::valueChanged, this, [this](double mib) {
        proposeChange(m_controller, tr("Set reserved memory"), [&](Scenario &s) { s.reservedBytes = mib * kMiB; });
    });

    connect(m_activations, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, tr("Toggle activations"), [&](Scenario &s) { s.includeActivations = on; });
    });
    connect(m_activationModel, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change activation model"), [&](Scenario &s) {
            s.activationModel = static_cast<ActivationModel>(m_activationModel->itemData(index).toInt());
        });
    });
    connect(m_dropout, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, tr("Toggle dropout"), [&](Scenario &s) { s.dropout = on; });
    });
    return box;
}

QWidget *MoreOptions::buildComputeGroup()
{
    auto *box = new SectionBox(tr("Compute and cost"), this);
    auto *form = new QFormLayout(box);
    m_basis = described(new ElidingComboBox(box), tr("FLOPs basis"),
                        tr("Which training-FLOPs figure drives the time: every matmul x 3 (detailed) or "
                           "6 N D (Kaplan et al. 2020)"));
    m_basis->addItem(tr("Detailed (matmuls x 3)"), static_cast<int>(FlopsBasis::Detailed));
    m_basis->addItem(tr("6ND (Kaplan et al. 2020)"), static_cast<int>(FlopsBasis::SixND));
    m_causal = described(new QCheckBox(tr("Causal halving"), box), tr("Causal halving"),
                         tr("Count only the lower triangle of the attention score matmuls"));
    m_mfu = described(new QDoubleSpinBox(box), tr("Utilisation"),
                      tr("Achieved fraction of peak FLOP/s, of the kind chosen above it; 30-50% MFU is "
                         "typical for large runs"));
    m_utilizationBasis = described(new ElidingComboBox(box), tr("Utilisation basis"),
                                   tr("What the utilisation counts (Chowdhery et al. 2022, App. B). HFU: hardware "
                                      "FLOPs, with the forward that recomputation runs again, so recompute costs "
                                      "time. MFU: model FLOPs only, so recompute changes memory but not time."));
    m_utilizationBasis->addItem(tr("HFU (counts recompute)"), static_cast<int>(UtilizationBasis::Hfu));
    m_utilizationBasis->addItem(tr("MFU (model FLOPs)"), static_cast<int>(UtilizationBasis::Mfu));
    m_mfu->setRange(fieldLo("mfu") * 100, fieldHi("mfu") * 100);
    m_mfu->setDecimals(1);
    m_mfu->setSuffix(QStringLiteral(" %"));
    m_mfu->setKeyboardTracking(false);
    m_price = described(new QDoubleSpinBox(box), tr("Price per GPU-hour"),
                        tr("Rental price of one GPU for one hour, in US dollars"));
    m_price->setRange(fieldLo("price"), fieldHi("price"));
    m_price->setDecimals(2);
    m_price->setPrefix(QStringLiteral("$ "));
    m_price->setSingleStep(0.25);
    m_price->setKeyboardTracking(false);
    m_catalogPrice = described(new QCheckBox(tr("Catalog price"), box), tr("Use the catalog price"),
                               tr("Follow the chosen GPU's typical on-demand price from the catalog; editing "
                                  "the price sets your own"));
    form->addRow(tr("FLOPs basis"), m_basis);
    form->addRow(m_causal);
    // The kind and its value as one field: two rows, so that the kind's name is never clipped
    // at the largest text sizes.
    form->addRow(tr("Utilisation"), m_utilizationBasis);
    form->addRow(QString(), m_mfu);
    form->addRow(tr("Price / GPU-hour"), m_price);
    form->addRow(QString(), m_catalogPrice);

    connect(m_basis, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change FLOPs basis"), [&](Scenario &s) {
            s.flopsBasis = static_cast<FlopsBasis>(m_basis->itemData(index).toInt());
        });
    });
    connect(m_causal, &QCheckBox::toggled, this, [this](bool on) {
        proposeChange(m_controller, tr("Toggle causal halving"), [&](Scenario &s) { s.causalHalving = on; });
    });
    connect(m_mfu, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set utilisation"), [&](Scenario &s) { s.mfuFraction = v / 100; });
    });
    connect(m_utilizationBasis, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, tr("Change utilisation basis"), [&](Scenario &s) {
            s.utilizationBasis = static_cast<UtilizationBasis>(m_utilizationBasis->itemData(index).toInt());
        });
    });
    connect(m_price, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller, tr("Set price"), [&](Scenario &s) { s.pricePerGpuHourUsd = v; });
    });
    connect(m_catalogPrice, &QCheckBox::toggled, this, [this](bool on) {
        // Unticking keeps the catalog price (unrounded, not the box's two decimals) as the
        // user's own, ready to edit.
        proposeChange(m_controller, on ? tr("Use the catalog price") : tr("Set price"), [&](Scenario &s) {
            const GpuSpec *gpu = m_controller->catalog().findGpu(s.gpuId);
            const std::optional<double> catalog = gpu ? gpu->pricePerGpuHourUsd : std::nullopt;
            if (on)
                s.pricePerGpuHourUsd.reset();
            else
                s.pricePerGpuHourUsd = catalog.value_or(m_price->value());
        });
    });
    return box;
}

void MoreOptions::sync(const Scenario &s)
{
    const QList<QObject *> all = {m_gpus, m_zero, m_recipe, m_recompute, m_offload, m_flash, m_activations,
                                  m_activationModel, m_dropout, m_basis, m_causal, m_mfu, m_utilizationBasis, m_price,
                                  m_catalogPrice, m_reserved};
    std::vector<QSignalBlocker> blockers;
    blockers.reserve(all.size());
    for (QObject *o : all)
        blockers.emplace_back(o);
    m_gpus->setValue(static_cast<double>(s.gpus));
    m_zero->setCurrentIndex(s.zeroStage);
    m_recipe->setCurrentIndex(m_recipe->findData(s.recipeId));
    m_recompute->setCurrentIndex(m_recompute->findData(static_cast<int>(s.recompute)));
    m_offload->setCurrentIndex(m_offload->findData(static_cast<int>(s.offload)));
    m_flash->setChecked(s.flashAttention);
    m_activations->setChecked(s.includeActivations);
    m_activationModel->setCurrentIndex(m_activationModel->findData(static_cast<int>(s.activationModel)));
    m_activationModel->setEnabled(s.includeActivations);
    m_dropout->setChecked(s.dropout);
    m_dropout->setEnabled(s.includeActivations);
    m_basis->setCurrentIndex(m_basis->findData(static_cast<int>(s.flopsBasis)));
    m_causal->setChecked(s.causalHalving);
    m_mfu->setValue(s.mfuFraction * 100);
    m_utilizationBasis->setCurrentIndex(m_utilizationBasis->findData(static_cast<int>(s.utilizationBasis)));
    m_reserved->setValue(s.reservedBytes / kMiB);
    syncPrice(s);
}

void MoreOptions::syncPrice(const Scenario &s)
{
    const GpuSpec *gpu = m_controller->catalog().findGpu(s.gpuId);
    const PriceChoice catalog = gpu ? catalogPrice(*gpu) : PriceChoice{};
    const QString catalogText = catalog.usdPerGpuHour
                                    ? tr("Catalog price: %1 per GPU-hour on demand (%2)")
                                          .arg(fmt::usd(*catalog.usdPerGpuHour), priceOriginText(catalog))
                                    : tr("The catalog has no price for this GPU");
    m_catalogPrice->setChecked(!s.pricePerGpuHourUsd);
    // At the bottom of the range, "no price" stands for a missing catalog price, never for $0 set.
    m_price->setSpecialValueText(!s.pricePerGpuHourUsd && !catalog.usdPerGpuHour ? tr("no price") : QString());
    m_price->setValue(s.pricePerGpuHourUsd.value_or(catalog.usdPerGpuHour.value_or(0)));
    const QString tip = s.pricePerGpuHourUsd ? tr("Rental price of one GPU for one hour, in US dollars, set by you. %1")
                                                   .arg(catalogText)
                                             : catalogText;
    m_price->setToolTip(tip);
    m_price->setAccessibleDescription(tip);
}

} // namespace napkin::ui
