#include "ui/controls/moreoptions.h"

#include <algorithm>

#include "ui/widgets/elidingcombobox.h"
#include "core/model/fields.h"
#include "ui/controls/fieldcontrols.h"
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

namespace napkin::ui {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
/// Selective recompute's module fields, in the order the form shows them.
constexpr const char *kRecomputeModuleKeys[] = {"recompute_core_attn", "recompute_layernorm", "recompute_moe_act",
                                                "recompute_mla_up_proj"};
}

MoreOptions::MoreOptions(ScenarioController *controller, QWidget *parent)
    : QWidget(parent),
      m_controller(controller),
      m_fields(new FieldControls(controller, this)),
      m_shape(new ModelShapeOptions(controller, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_setup = buildSetupGroup();
    layout->addWidget(m_shape);
    m_activations = buildActivationGroup();
    layout->addWidget(m_activations);
    m_servingGroup = buildServingGroup();
    layout->addWidget(m_servingGroup);
    layout->addWidget(buildComputeGroup());
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
    m_setupForm = form;
    m_gpus = static_cast<NumberSpinBox *>(m_fields->addRow(form, "gpus", {.stepFactor = 2}));
    m_zero = static_cast<QComboBox *>(m_fields->addRow(form, "zero"));
    // Hand-built: its items are the recipe catalog, each with its source as tooltip.
    m_recipe = new ElidingComboBox(box);
    form->addRow(describeByField(m_recipe, "recipe"), m_recipe);
    for (const Recipe &r : recipes()) {
        m_recipe->addItem(r.name, r.id);
        m_recipe->setItemData(m_recipe->count() - 1, r.source, Qt::ToolTipRole);
    }
    m_fp8Scaling = m_fields->addRow(form, "fp8_scaling");
    m_crossEntropy = m_fields->addRow(form, "cross_entropy");
    m_recompute = static_cast<QComboBox *>(m_fields->addRow(form, "recompute"));
    // Selective recompute's modules (Megatron-Core's --recompute-modules), under the choice.
    for (const char *key : kRecomputeModuleKeys)
        m_fields->addRow(form, key);
    // An offload needs a ZeRO stage that shards what it moves: choosing one raises the stage.
    m_offload = static_cast<QComboBox *>(m_fields->addRow(form, "offload", {}, [](Scenario &s) {
        s.zeroStage = std::max(s.zeroStage, lowestZeroStage(s.offload));
        return QString();
    }));
    m_fields->addRow(form, "flash");

    connect(m_recipe, &QComboBox::activated, this, [this](int index) {
        proposeChange(m_controller, FieldControls::undoText(*findScenarioField(QStringLiteral("recipe")),
                                                            m_recipe->itemText(index)),
                      [&](Scenario &s) { s.recipeId = m_recipe->itemData(index).toString(); });
    });
    return box;
}

QWidget *MoreOptions::buildActivationGroup()
{
    auto *box = new SectionBox(tr("Activations and reserved memory"), this);
    auto *form = new QFormLayout(box);
    m_fields->addRow(form, "activations");
    m_fields->addRow(form, "activation_model");
    m_fields->addRow(form, "dropout");
    m_fields->addRow(form, "reserved_bytes", {.scale = 1 / kMiB, .step = 128, .suffix = " MiB"});
    return box;
}

QWidget *MoreOptions::buildServingGroup()
{
    auto *box = new SectionBox(tr("Serving engine"), this);
    auto *form = new QFormLayout(box);
    m_fields->addRow(form, "quant_group", {.stepFactor = 2});
    m_fields->addRow(form, "kv_block_tokens", {.stepFactor = 2});
    m_fields->addRow(form, "prefill_chunk", {.stepFactor = 2});
    m_fields->addRow(form, "max_num_seqs", {.stepFactor = 2});
    return box;
}

QWidget *MoreOptions::buildComputeGroup()
{
    auto *box = new SectionBox(tr("Compute and cost"), this);
    auto *form = new QFormLayout(box);
    m_fields->addRow(form, "flops_basis");
    m_fields->addRow(form, "causal");
    // The kind and its value as two rows, so that the kind's name is never clipped at the
    // largest text sizes.
    m_utilizationBasis = static_cast<QComboBox *>(m_fields->addRow(form, "utilization_basis"));
    m_fields->addRow(form, "mfu", {.scale = 100, .decimals = 1, .suffix = " %"});
    // Hand-built: the box shows the price in use (the catalog's while the field is null), and the
    // check box beside it says which.
    m_price = new QDoubleSpinBox(box);
    const QString priceLabel = describeByField(m_price, "price");
    m_price->setRange(fieldLo("price"), fieldHi("price"));
    m_price->setDecimals(2);
    m_price->setPrefix(QStringLiteral("$ "));
    m_price->setSingleStep(0.25);
    m_price->setKeyboardTracking(false);
    m_catalogPrice = described(new QCheckBox(tr("Catalog price"), box), tr("Use the catalog price"),
                               tr("Follow the chosen GPU's typical on-demand price from the catalog; editing "
                                  "the price sets your own"));
    form->addRow(priceLabel, m_price);
    form->addRow(QString(), m_catalogPrice);

    connect(m_price, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        proposeChange(m_controller,
                      FieldControls::undoText(*findScenarioField(QStringLiteral("price")), m_price->textFromValue(v)),
                      [&](Scenario &s) { s.pricePerGpuHourUsd = v; });
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
    m_fields->sync(s);
    // The activation model and dropout only matter while activations are counted.
    m_fields->control("activation_model")->setEnabled(s.includeActivations);
    m_fields->control("dropout")->setEnabled(s.includeActivations);
    // Serving keeps no optimizer state, gradients or saved activations: the precision and
    // optimizer recipe, ZeRO, recompute, offload and the activation models are training's alone
    // (serving's precision is its weights' and KV cache's dtypes, in the serving group).
    const bool training = s.mode == Mode::Training;
    for (QWidget *w : {static_cast<QWidget *>(m_recipe), static_cast<QWidget *>(m_zero),
                       static_cast<QWidget *>(m_recompute), static_cast<QWidget *>(m_offload), m_crossEntropy})
        m_setupForm->setRowVisible(w, training);
    // The FP8 scaling recipe only matters to the FP8 GEMMs of a training recipe.
    const std::optional<Recipe> recipe = findRecipe(s.recipeId);
    m_setupForm->setRowVisible(m_fp8Scaling, training && recipe && recipe->matmulDtype() == QLatin1String("fp8"));
    // Selective recompute's modules show under it, each where the model has it.
    const bool selective = training && s.recompute == Recompute::Selective;
    const bool moduleShown[] = {true, true, s.model.experts > 0, s.model.kvLoraRank > 0};
    for (std::size_t i = 0; i < std::size(kRecomputeModuleKeys); ++i)
        m_setupForm->setRowVisible(m_fields->control(kRecomputeModuleKeys[i]), selective && moduleShown[i]);
    m_activations->setVisible(training);
    m_servingGroup->setVisible(!training);
    const QSignalBlocker recipeBox(m_recipe);
    const QSignalBlocker price(m_price);
    const QSignalBlocker catalogPrice(m_catalogPrice);
    m_recipe->setCurrentIndex(m_recipe->findData(s.recipeId));
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
