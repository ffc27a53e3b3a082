#include "ui/views/dashboard.h"

#include "core/report/baseline.h"
#include "core/report/calibration.h"

#include "ui/widgets/banner.h"
#include "ui/widgets/lazywidget.h"
#include "ui/widgets/chartview.h"
#include "ui/views/budgetpanel.h"
#include "ui/views/gputimechart.h"
#include "core/text/formulas.h"
#include "core/report/gputimes.h"
#include "ui/views/layoutpicture.h"
#include "ui/views/memorypanel.h"
#include "ui/views/overviewgrid.h"
#include "ui/views/plannerpanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/views/servingcurve.h"
#include "ui/views/servingmemorypanel.h"
#include "ui/views/stagememorypanel.h"
#include "core/text/layouttext.h"
#include "core/text/stepexplain.h"
#include "ui/views/steptimepanel.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/timepanel.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QChartView>
#include <QComboBox>
#include <QLineEdit>
#include <QCoreApplication>
#include <QEvent>
#include <QGridLayout>
#include <QStackedWidget>
#include <QButtonGroup>
#include <QHBoxLayout>
#include <QToolButton>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace napkin::ui {

namespace {

// The pages fill whatever the dashboard has left, whatever their contents would like: their
// height never depends on their width. Saying so keeps the window's layout pass from asking
// every hidden page's wrapped legends for a height on every slider tick.
class PageTabs final : public QTabWidget
{
public:
    using QTabWidget::QTabWidget;
    bool hasHeightForWidth() const override { return false; }
};

class PageStack final : public QStackedWidget
{
public:
    using QStackedWidget::QStackedWidget;
    bool hasHeightForWidth() const override { return false; }
};

} // namespace

QString scenarioSummary(const Report &r, const Catalog &catalog, bool brief)
{
    const Scenario &s = r.scenario;
    const ModelPreset *preset = catalog.findPreset(s.presetId);
    const QString model = preset && preset->shape == s.model
                              ? preset->name
                              : Dashboard::tr("custom %1 (%2, d_model %3)")
                                    .arg(archName(s.model.arch), fmt::counted(s.model.layers, "layer", "layers"))
                                    .arg(s.model.dModel);
    // Mixture-of-Experts: what a token runs through beside what the GPUs hold.
    const QString params = r.params.active != r.params.total
                               ? Dashboard::tr("%1 params (%2 active)")
                                     .arg(fmt::compactCount(static_cast<double>(r.params.total)),
                                          fmt::compactCount(static_cast<double>(r.params.active)))
                               : Dashboard::tr("%1 params").arg(fmt::compactCount(static_cast<double>(r.params.total)));
    // Brief: the model, its size, the tokens and the GPUs, where the line would lose its GPU
    // (the micro-batch and the dtypes are in the controls beside it).
    if (brief && r.inference)
        return Dashboard::tr("%1 · %2 · %3 + %4 tokens · %5 × %6")
            .arg(model, params).arg(s.promptTokens).arg(s.outputTokens).arg(s.gpus).arg(nameWithoutVendor(r.gpu));
    if (brief)
        return Dashboard::tr("%1 · %2%3 · %4 tokens · %5 × %6")
            .arg(model, params, s.calibration ? Dashboard::tr(" · calibrated") : QString(), fmt::compactCount(s.tokens))
            .arg(s.gpus)
            .arg(nameWithoutVendor(r.gpu));
    if (r.inference)
        return Dashboard::tr("%1 · %2 · serving %3 + %4 tokens · %5 · %6 weights, %7 KV · %8 × %9")
            .arg(model, params)
            .arg(s.promptTokens).arg(s.outputTokens)
            .arg(fmt::counted(r.inference->concurrency, "sequence", "sequences"))
            .arg(numberFormatName(s.weightDtype), numberFormatName(s.kvDtype))
            .arg(s.gpus)
            .arg(nameWithoutVendor(r.gpu));
    // A calibrated scenario says so wherever its step time shows (napkin calibrate).
    const qsizetype runs = s.calibration ? s.calibration->runs.size() : 0;
    // Early in the line, which a narrow window elides from the end.
    const QString calibrated = !s.calibration ? QString()
                               : runs == 1    ? Dashboard::tr(" · calibrated on 1 run")
                                              : Dashboard::tr(" · calibrated on %1 runs").arg(runs);
    return Dashboard::tr("%1 · %2%3 · %4 tokens · micro‑batch %5 × %6 tokens · %7 × %8")
        .arg(model, params, calibrated, fmt::compactCount(s.tokens))
        .arg(s.microBatch).arg(s.seqLen).arg(s.gpus)
        .arg(nameWithoutVendor(r.gpu));
}

namespace {

QString flashAttentionText(const Scenario &s)
{
    return s.flashAttention ? Dashboard::tr("FlashAttention on") : Dashboard::tr("FlashAttention off");
}

/// Serving: what vLLM's arithmetic here depends on, not the training run's recipe, ZeRO,
/// micro-batches and utilisation (an exported serving dashboard had named them).
QStringList servingSettings(const Report &r)
{
    const Scenario &s = r.scenario;
    QStringList items = {
        fmt::counted(s.gpus, "GPU", "GPUs"),
        splitText(r.layout),
        Dashboard::tr("memory utilisation %1").arg(fmt::percent(s.gpuMemoryUtilization, 0)),
        Dashboard::tr("KV blocks of %1 tokens").arg(s.kvBlockTokens),
        Dashboard::tr("prefill chunk %1 tokens").arg(s.prefillChunk),
    };
    if (s.maxNumSeqs < limits::maxConcurrency)  // the default caps nothing
        items << Dashboard::tr("at most %1").arg(fmt::counted(s.maxNumSeqs, "sequence", "sequences"));
    items << flashAttentionText(s);
    return items;
}

QStringList trainingSettings(const Report &r)
{
    const Scenario &s = r.scenario;
    QString recompute;
    switch (s.recompute) {
    case Recompute::None: recompute = Dashboard::tr("no recompute"); break;
    case Recompute::Selective: recompute = Dashboard::tr("selective recompute"); break;
    case Recompute::Full: recompute = Dashboard::tr("full recompute"); break;
    }
    return {
        r.memory.recipe.name,
        Dashboard::tr("ZeRO %1").arg(s.zeroStage),
        fmt::counted(s.gpus, "GPU", "GPUs"),
        layoutLine(r.layout),
        recompute,
        flashAttentionText(s),
        s.includeActivations ? Dashboard::tr("activations counted") : Dashboard::tr("activations not counted"),
        Dashboard::tr("%1 %2").arg(fmt::percent(s.utilizationFraction, 0), utilizationBasisName(s.utilizationBasis).toUpper()),
        Dashboard::tr("sequence %1").arg(s.seqLen),
    };
}

} // namespace

QString scenarioSettings(const Report &r)
{
    const Scenario &s = r.scenario;
    QStringList all = r.inference ? servingSettings(r) : trainingSettings(r);
    if (s.calibration)
        all << calibrationSummary(*s.calibration);
    if (const auto change = baselineChange(r))
        all << Dashboard::tr("vs pinned: %1").arg(baselineChangeText(*change));
    // Non-breaking spaces inside each item: a caption wraps between items, never inside one.
    QStringList kept;
    for (const QString &item : all)
        kept << QString(item).replace(QLatin1Char(' '), QChar(0x00A0));
    return kept.join(QStringLiteral(" · "));
}

Dashboard::Dashboard(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_summary(new TextStrip(this)),
      m_settings(new TextStrip(this)),
      m_formula(new TextStrip(this)),
      m_pinned(new TextStrip(this)),
      m_error(new Banner(this)),
      m_memory(new MemoryPanel(this)),
      m_servingMemory(lazyView([this](QWidget *parent) {
          auto *w = new ServingMemoryPanel(parent);
          w->setByteUnit(m_unit);
          return w;
      })),
      m_memoryCell(new PageStack(this)),
      m_time(new TimePanel(catalog, this)),
      m_roofline(new RooflinePanel(catalog, this)),
      m_stages(lazyView([this](QWidget *parent) {
          auto *w = new StageMemoryPanel(parent);
          w->setByteUnit(m_unit);
          return w;
      })),
      m_step(lazyView([this](QWidget *parent) {
          auto *w = new StepTimePanel(parent);
          w->setDragging(m_dragging);
          return w;
      })),
      m_layoutPicture(lazyView([](QWidget *parent) { return new LayoutPicture(parent); })),
      m_planner(lazyView([this](QWidget *parent) {
          auto *w = new PlannerPanel(m_catalog, parent);
          w->setByteUnit(m_unit);
          w->setSynchronous(m_exporting);
          connect(w, &PlannerPanel::layoutChosen, this, &Dashboard::layoutChosen);
          return w;
      })),
      m_budget(lazyView([this](QWidget *parent) {
          auto *w = new BudgetPanel(m_catalog, parent);
          w->setRequest(m_budgetRequest);
          connect(w, &BudgetPanel::applyRequested, this, &Dashboard::budgetApplied);
          return w;
      })),
      m_pages(new PageStack(this)),
      m_top(new PageStack(m_pages)),
      m_pageBar(new QWidget(this)),
      m_gridPage(new QWidget(m_top)),
      m_grid(new QGridLayout(m_gridPage)),
      m_parallelPage(new QWidget(m_top)),
      m_parallelGrid(new QGridLayout(m_parallelPage)),
      m_tabs(new PageTabs(m_pages))
{
    m_memoryCell->addWidget(m_memory);
    m_memoryCell->addWidget(m_servingMemory);
    setUpStrips();
    setUpPages();
    buildPageBar();
    setUpTabs();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(8);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_pageBar, 0, Qt::AlignBottom);
    layout->addLayout(top);
    layout->addWidget(m_settings);
    layout->addWidget(m_pinned);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_formula);
    layout->addStretch();  // takes the room only while the pages are hidden (below)
    arrange();
    // Until a first report arrives (a window started on a refused scenario), there is nothing
    // to draw: empty charts would only look like a result. The problem banner says why.
    m_pages->hide();
    m_formula->hide();

    setUpRecipients();
    connect(m_roofline, &RooflinePanel::viewChanged, this, &Dashboard::viewOptionsChanged);
    connect(m_memory, &MemoryPanel::fixChosen, this, &Dashboard::layoutChosen);
}

void Dashboard::setUpStrips()
{
    m_summary->setBold(true);
    m_summary->setTextAsToolTip(true);
    m_summary->setAccessibleName(tr("Scenario summary"));
    m_error->setAccessibleName(tr("Scenario problem"));
    m_settings->setAccessibleName(tr("Scenario settings"));
    m_settings->setLines(2);
    m_settings->hide();
    m_pinned->setTextAsToolTip(true);
    m_pinned->setAccessibleName(tr("Pinned baseline"));
    m_pinned->hide();
    m_formula->setLines(2);
    m_formula->setTextAsToolTip(true);
    m_formula->setAccessibleName(tr("How this is computed"));
    m_formula->setColors(palette().color(QPalette::WindowText), palette().color(QPalette::AlternateBase),
                         palette().color(QPalette::Mid));
    m_error->hide();
}

void Dashboard::setUpPages()
{
    // Both pages alike: the charts' row above the time (or layout and planner) row, which gets less.
    for (QGridLayout *grid : {m_grid, m_parallelGrid}) {
        grid->setContentsMargins(0, 0, 0, 0);
        grid->setSpacing(8);
        grid->setRowStretch(0, 3);
        grid->setRowStretch(1, 2);
        grid->setColumnStretch(0, 1);
        grid->setColumnStretch(1, 1);
    }
    m_top->setAccessibleName(tr("Overview, parallel training and budget"));
    m_top->addWidget(m_gridPage);
    m_top->addWidget(m_parallelPage);
    m_top->addWidget(m_budget);
}

void Dashboard::buildPageBar()
{
    // Two flat buttons no taller than the summary line beside them (a tab bar would be
    // taller, and a style sheet would stop the window's text size from reaching the charts).
    auto *pageLayout = new QHBoxLayout(m_pageBar);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(2);
    auto *pages = new QButtonGroup(m_pageBar);
    const QString pageNames[3] = {tr("Overview"), tr("Parallel training"), tr("Budget")};
    for (int i = 0; i < 3; ++i) {
        auto *button = new QToolButton(m_pageBar);
        button->setText(pageNames[i]);
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setChecked(i == 0);
        button->setAccessibleName(pageNames[i]);
        button->setObjectName(QStringLiteral("page %1").arg(i));
        pages->addButton(button, i);
        pageLayout->addWidget(button);
        m_pageButtons[i] = button;
    }
    m_pageBar->setMaximumHeight(m_summary->sizeHint().height());
    m_pageBar->setToolTip(tr("Overview: memory, roofline, time. Parallel training: memory per pipeline stage, "
                             "the step's breakdown, the layout and the planner. Budget: from a training budget to a model."));
    connect(pages, &QButtonGroup::idClicked, m_top, &QStackedWidget::setCurrentIndex);
    connect(m_top, &QStackedWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && index < 3)
            m_pageButtons[index]->setChecked(true);
    });
}

void Dashboard::setUpTabs()
{
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabbed && !m_arranging) {
            m_tabChosen = true;
            showFormulaOf(m_tabs->currentWidget());
        }
        placeErrorIfShown();  // each page's charts start at their own height, once laid out
    });
    m_tabs->setDocumentMode(true);
    m_tabs->setAccessibleName(tr("Charts, one at a time"));
    m_pages->addWidget(m_top);
    m_pages->addWidget(m_tabs);
    // Either arrangement fits any size; the choice between them is made from the text size.
    m_pages->setMinimumSize(0, 0);
    m_pages->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
}

void Dashboard::showFormulaOf(const QWidget *page)
{
    // One chart at a time: the formula under it is that chart's, until a control changes
    // another figure (a training page's; serving has one formula for all of them).
    if (!m_lastReport || m_lastReport->inference)
        return;
    std::optional<FormulaTopic> topic;
    if (page == m_memoryCell || page == m_stages)
        topic = FormulaTopic::ModelState;
    else if (page == m_roofline)
        topic = FormulaTopic::Roofline;
    else if (page == m_time || page == m_step || page == m_time->everyGpuPlace())
        topic = FormulaTopic::Time;
    if (!topic || *topic == m_topic)
        return;
    m_topic = *topic;
    m_formula->setText(formulaText(*m_lastReport, m_topic, m_unit));
}

void Dashboard::setUpRecipients()
{
    m_recipients = {
        {{m_memory}, [this](const Report &r) { m_memory->setReport(r); }},
        {{m_servingMemory}, [this](const Report &r) {
             if (r.inference)
                 servingMemory()->setReport(r);
         }, false, m_servingMemory},
        // The every-GPU chart and the serving curve are the time panel's, or tabs of their own
        // when the views are tabs.
        {{m_time, m_time->everyGpuPlace(), m_time->servingPlace()}, [this](const Report &r) { m_time->setReport(r); }},
        {{m_roofline}, [this](const Report &r) { m_roofline->setReport(r); }},
        {{m_stages}, [this](const Report &r) { stages()->setReport(r); }, false, m_stages},
        {{m_step}, [this](const Report &r) { step()->setReport(r); }, false, m_step},
        {{m_layoutPicture}, [this](const Report &r) { layoutView()->setReport(r); }, false, m_layoutPicture},
        {{m_planner}, [this](const Report &r) { planner()->setReport(r); }, false, m_planner},
        {{m_budget}, [this](const Report &r) { budget()->setReport(r); }, false, m_budget},
    };
    for (const Recipient &recipient : std::as_const(m_recipients))
        for (QWidget *w : recipient.shownAs)
            w->installEventFilter(this);
}

void Dashboard::setReport(const Report &report)
{
    if (!m_lastReport) {
        m_pages->show();
        m_formula->show();
    }
    m_summary->setText(scenarioSummary(report, m_catalog));
    m_summary->setBriefText(scenarioSummary(report, m_catalog, true));
    m_settings->setText(scenarioSettings(report));
    const auto change = baselineChange(report);
    if (change) {
        // The differences first: a narrow window elides the end, and the tooltip has it all.
        m_pinned->setText(tr("╌○ vs pinned: %1 · pinned: %2")
                              .arg(baselineChangeText(*change), scenarioSummary(*report.baseline, m_catalog)));
    }
    if (m_pinned->isVisibleTo(this) != change.has_value()) {
        m_pinned->setVisible(change.has_value());
        m_summary->setLines(m_tabbed && !change ? 2 : 1);
        m_formula->setLines(m_tabbed && change ? 1 : 2);
        arrange();
    }
    if (m_lastReport)
        m_topic = topicOfChange(m_lastReport->scenario, report.scenario, m_topic);
    // Serving's figures have one formula of their own; training's topics return with the mode.
    if (report.inference)
        m_topic = FormulaTopic::Serving;
    else if (m_topic == FormulaTopic::Serving)
        m_topic = FormulaTopic::ModelState;
    m_lastReport = report;
    showMode(report.scenario.mode);
    m_formula->setText(formulaText(report, m_topic, m_unit));
    for (Recipient &recipient : m_recipients) {
        recipient.stale = true;
        // Before the window is shown (and offscreen, for a picture) every view is drawn.
        if ((!window()->isVisible() && recipient.beforeShown) || recipient.seen())
            deliver(recipient);
    }
}

QWidget *Dashboard::memoryCell() const
{
    return m_memoryCell;
}

LazyWidget *Dashboard::lazyView(std::function<QWidget *(QWidget *parent)> build)
{
    return new LazyWidget(std::move(build), this);
}

QWidget *Dashboard::caughtUp(LazyWidget *place)
{
    QWidget *view = place->content();
    for (Recipient &recipient : m_recipients)
        if (recipient.lazy == place)
            deliver(recipient);
    return view;
}

ServingMemoryPanel *Dashboard::servingMemory() const { return static_cast<ServingMemoryPanel *>(m_servingMemory->content()); }
StageMemoryPanel *Dashboard::stages() const { return static_cast<StageMemoryPanel *>(m_stages->content()); }
StepTimePanel *Dashboard::step() const { return static_cast<StepTimePanel *>(m_step->content()); }
LayoutPicture *Dashboard::layoutView() const { return static_cast<LayoutPicture *>(m_layoutPicture->content()); }
PlannerPanel *Dashboard::planner() const { return static_cast<PlannerPanel *>(m_planner->content()); }
BudgetPanel *Dashboard::budget() const { return static_cast<BudgetPanel *>(m_budget->content()); }

ServingMemoryPanel *Dashboard::servingMemoryPanel() { return static_cast<ServingMemoryPanel *>(caughtUp(m_servingMemory)); }
StageMemoryPanel *Dashboard::stageMemoryPanel() { return static_cast<StageMemoryPanel *>(caughtUp(m_stages)); }
StepTimePanel *Dashboard::stepTimePanel() { return static_cast<StepTimePanel *>(caughtUp(m_step)); }
LayoutPicture *Dashboard::layoutPicture() { return static_cast<LayoutPicture *>(caughtUp(m_layoutPicture)); }
PlannerPanel *Dashboard::plannerPanel() { return static_cast<PlannerPanel *>(caughtUp(m_planner)); }
BudgetPanel *Dashboard::budgetPanel() { return static_cast<BudgetPanel *>(caughtUp(m_budget)); }

bool Dashboard::parallelViewsBuilt() const
{
    return m_stages->isBuilt() || m_step->isBuilt() || m_layoutPicture->isBuilt() || m_planner->isBuilt();
}

bool Dashboard::budgetBuilt() const
{
    return m_budget->isBuilt();
}

ServingCurvePanel *Dashboard::servingCurve() const
{
    return m_time->servingChart();
}

void Dashboard::showMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    const bool serving = mode == Mode::Inference;
    m_memoryCell->setCurrentWidget(serving ? static_cast<QWidget *>(m_servingMemory) : m_memory);
    // The Parallel training page plans a training run: its stages, step and planner say
    // nothing about serving, so in inference mode it is greyed, and left if it was shown.
    if (serving && m_top->currentWidget() == m_parallelPage)
        m_top->setCurrentWidget(m_gridPage);
    enableTrainingViews();
    // Tabs: the serving curve has a tab of its own in inference mode only, after the time panel's.
    if (m_tabbed) {
        const int index = m_tabs->indexOf(m_time->servingPlace());
        if (serving && index < 0)
            m_tabs->insertTab(m_tabs->indexOf(m_time) + 1, m_time->servingPlace(), tr("Serving"));
        else if (!serving && index >= 0)
            m_tabs->removeTab(index);
    }
}

void Dashboard::enableTrainingViews()
{
    const bool training = m_mode != Mode::Inference;
    m_pageButtons[1]->setEnabled(training);
    m_pageButtons[1]->setToolTip(training ? QString()
                                          : tr("Training's pipeline stages, step and planner: switch to Training to see them"));
    for (QWidget *view : {static_cast<QWidget *>(m_stages), static_cast<QWidget *>(m_step),
                          static_cast<QWidget *>(m_layoutPicture), static_cast<QWidget *>(m_planner)}) {
        const int index = m_tabs->indexOf(view);
        if (index >= 0)
            m_tabs->setTabEnabled(index, training);
    }
}

bool Dashboard::Recipient::seen() const
{
    return std::any_of(shownAs.begin(), shownAs.end(), [](const QWidget *w) { return w->isVisible(); });
}

void Dashboard::deliver(Recipient &recipient)
{
    if (recipient.stale && m_lastReport) {
        recipient.stale = false;
        recipient.take(*m_lastReport);
    }
}

bool Dashboard::eventFilter(QObject *watched, QEvent *event)
{
    // A view coming into sight (its page or tab chosen) catches up before it is painted.
    if (event->type() == QEvent::Show)
        for (Recipient &recipient : m_recipients)
            if (recipient.stale && recipient.shownAs.contains(watched))
                deliver(recipient);
    return QWidget::eventFilter(watched, event);
}

void Dashboard::setError(const QString &message)
{
    if (message.isEmpty()) {
        m_error->hide();
        pushPage(nullptr, 0);
        return;
    }
    m_error->showMessage(Banner::Level::Error,
                         m_lastReport ? tr("⚠ Not recomputed — %1. The charts still show the last valid scenario.").arg(message)
                                      : tr("⚠ Nothing computed — %1. The charts appear once the scenario is valid.").arg(message));
    placeError();
}

void Dashboard::setArrangement(Arrangement arrangement)
{
    m_arrangement = arrangement;
    arrange();
}

Dashboard::Arrangement Dashboard::currentArrangement() const
{
    return m_tabbed ? Arrangement::Tabs : Arrangement::Grid;
}

QSize Dashboard::minimumChartSize() const
{
    // In lines of the current text: a title, five tick labels and an axis title down the side,
    // about 22 characters of tick labels and plot across (four bars keep their names whole),
    // three legend rows.
    const int line = fontMetrics().height();
    return {26 * line, 15 * line};
}

void Dashboard::arrange()
{
    const QMargins m = layout() ? layout()->contentsMargins() : QMargins();
    // The page's height without the formula strip, whose own height follows from it (below).
    const int withoutFormula = height() - m.top() - m.bottom() - m_summary->sizeHint().height() - 8
                               - (m_settings->isVisibleTo(this) ? m_settings->sizeHint().height() + 8 : 0)
                               - (m_pinned->isVisibleTo(this) ? m_pinned->sizeHint().height() + 8 : 0);
    const QSize pages(width() - m.left() - m.right(),
                      withoutFormula - (m_formula->isVisibleTo(this) ? m_formula->sizeHint().height() + 8 : 0));
    const int fit = pageColumnsFor(pages, minimumChartSize(), m_grid->spacing(), timeColumnWidth(m_time));
    // A picture keeps the two columns its design size was laid out for (chartrender.cpp).
    const int columns = m_arrangement == Arrangement::Tabs ? 1 : m_arrangement == Arrangement::Grid ? 2 : fit;
    const bool tabbed = columns < 2;
    // Tabs with a pinned line, or on a page short for its text (a 1024x768 projector at text
    // x2, where the legends wrap): the formula keeps one line (elided; its tooltip has it all),
    // so the chart keeps room for its tick labels. Measured without the formula, whose own
    // height would otherwise flip the choice back and forth.
    const int pageLines = withoutFormula / std::max(1, fontMetrics().height());
    const int formulaLines = tabbed && (m_pinned->isVisibleTo(this) || pageLines < 24) ? 1 : 2;
    if (m_formula->lines() != formulaLines)
        m_formula->setLines(formulaLines);
    if (tabbed == m_tabbed && (tabbed || columns == m_columns) && (m_grid->count() > 0 || m_tabs->count() > 0))
        return;
    m_tabbed = tabbed;
    if (!tabbed)
        m_columns = columns;
    // Large text: the summary wraps to a second line instead of losing its GPU.
    // With a pinned baseline its line takes the second one (the GPU is in the controls too).
    m_summary->setLines(tabbed && !m_pinned->isVisibleTo(this) ? 2 : 1);
    // The every-GPU chart gets a tab of its own: beside the figures it would be too narrow.
    if (tabbed)
        m_time->setChartDetached(true);
    m_time->setTitleVisible(!tabbed);
    // The view in sight stays in sight: the tab of the page shown, or the page of the tab the
    // user chose (a page chosen before the window was first laid out stays chosen).
    m_arranging = true;
    // The Budget leaves the pages while it is a tab, which moves the page switch off it.
    if (tabbed && m_top->currentWidget() == m_budget)
        m_budgetWasPage = true;
    QWidget *current = m_tabs->currentWidget();
    if (!current)
        current = m_top->currentWidget() == m_parallelPage ? static_cast<QWidget *>(m_stages)
                  : m_top->currentWidget() == m_budget       ? static_cast<QWidget *>(m_budget)
                                                             : m_memoryCell;
    const bool parallelInSight = current == m_stages || current == m_step || current == m_layoutPicture || current == m_planner;
    m_tabs->clear();
    m_pageBar->setVisible(!tabbed && !m_exporting);
    m_pageBar->setMaximumHeight(m_summary->sizeHint().height());  // never taller than the summary
    if (tabbed) {
        m_tabs->addTab(m_memoryCell, tr("Memory"));
        m_tabs->addTab(m_roofline, tr("Roofline"));
        m_tabs->addTab(m_time, tr("Time and cost"));
        if (m_mode == Mode::Inference)
            m_tabs->addTab(m_time->servingPlace(), tr("Serving"));
        m_tabs->addTab(m_time->everyGpuPlace(), tr("Every GPU"));
        m_tabs->addTab(m_stages, tr("Stages"));
        m_tabs->addTab(m_step, tr("Step"));
        m_tabs->addTab(m_layoutPicture, tr("Layout"));
        m_tabs->addTab(m_planner, tr("Planner"));
        m_tabs->addTab(m_budget, tr("Budget"));
        if (current)
            m_tabs->setCurrentWidget(current);
        m_tabChosen = false;
        m_pages->setCurrentWidget(m_tabs);
    } else {
        placeOverview(m_grid, m_columns, m_memoryCell, m_roofline, m_time);
        m_parallelGrid->addWidget(m_stages, 0, 0);
        m_parallelGrid->addWidget(m_step, 0, 1);
        m_parallelGrid->addWidget(m_layoutPicture, 1, 0);
        m_parallelGrid->addWidget(m_planner, 1, 1);
        if (m_top->indexOf(m_budget) < 0)
            m_top->addWidget(m_budget);
        for (QWidget *w : {static_cast<QWidget *>(m_memoryCell), static_cast<QWidget *>(m_roofline),
                           static_cast<QWidget *>(m_time), static_cast<QWidget *>(m_stages),
                           static_cast<QWidget *>(m_step), static_cast<QWidget *>(m_layoutPicture),
                           static_cast<QWidget *>(m_planner)})
            w->show();
        // The page of the tab the user chose; else the page as it stands (one chosen before the
        // window was first laid out stays chosen), the Budget's back where it had been the page
        // (taken out of the pages as a tab, it had left the switch on Parallel training).
        if (m_tabChosen)
            m_top->setCurrentWidget(current == m_budget ? m_budget : parallelInSight ? m_parallelPage : m_gridPage);
        else if (m_budgetWasPage)
            m_top->setCurrentWidget(m_budget);
        m_budgetWasPage = false;
        m_pages->setCurrentWidget(m_top);
    }
    m_arranging = false;
    enableTrainingViews();
    placeError();
}

void Dashboard::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_pageBar->setMaximumHeight(m_summary->sizeHint().height());
        arrange();
    }
}

void Dashboard::placeError()
{
    // The problem banner floats over the top of the charts instead of taking a row: a value
    // refused in the middle of a drag must not make everything below it jump. It shows the
    // whole message, across the dashboard and in as many lines as it takes (a refusal names
    // the field, the numbers and the fix; cut at two lines it read "Not recomputed —
    // gpu_memory_utilization: leaves no room for"). Page tabs stay in sight and clickable
    // above it; below, it ends on the edge of a chart or of a chart's title, never across a
    // line of text (at 1.5x text a three-line refusal cut the page summary under it in half).
    const QRect top = m_settings->isVisibleTo(this) ? m_settings->geometry() : m_summary->geometry();
    const int y = m_tabbed && m_pages->isVisibleTo(this)
                      ? m_pages->geometry().top() + m_tabs->tabBar()->geometry().bottom() + 3
                      : top.bottom() + 4;
    const int width = contentsRect().width() - 2 * top.left();
    m_error->setLines(std::clamp(m_error->linesNeeded(width), 2, 8));
    const int natural = y + m_error->sizeHint().height();
    int bottom = natural;
    if (m_lastReport) {
        // Over the tops of the charts, which show the last valid scenario. Whatever the edge
        // would cross along its length decides where it ends: a line of text (a label, a text
        // strip) is covered whole; a chart is covered down to its plot when the edge would
        // cross its title or top value label, and plainly otherwise.
        const int line = fontMetrics().height();
        for (int x = top.left() + 2; x < top.left() + width; x += line) {
            const QPoint at = m_pages->mapFrom(this, QPoint(x, natural));
            QWidget *crossed = m_pages->childAt(at);
            if (!crossed)
                continue;
            const QChartView *chart = nullptr;
            for (QWidget *up = crossed; up && up != m_pages && !chart; up = up->parentWidget())
                chart = qobject_cast<const QChartView *>(up);
            if (chart && chart->chart()) {
                // A chart first fits its view when painted: the edge follows its plot then.
                connect(chart->chart(), &QChart::plotAreaChanged, this, &Dashboard::placeErrorIfShown,
                        Qt::UniqueConnection);
                // Half a line past the plot's top edge: the top value label sits centred on it.
                const int plotTop = chart->mapTo(this, chart->mapFromScene(chart->chart()->plotArea().topLeft())).y()
                                    + chart->fontMetrics().height() / 2 + 1;
                if (plotTop < natural + 8 * line)
                    bottom = std::max(bottom, plotTop);
            } else if (crossed->height() <= 4 * line) {
                bottom = std::max(bottom, crossed->mapTo(this, QPoint(0, crossed->height())).y() + 1);
            }
        }
    }
    // A page's inputs are never covered (the Budget page's fields sit right under its tab,
    // and the banner had hidden them): that page moves down under the banner instead, which
    // keeps its own height there. Whether it must is judged where its inputs stand unmoved.
    QWidget *page = m_error->isVisibleTo(this) && m_pages->isVisibleTo(this)
                        ? (m_tabbed ? m_tabs->currentWidget() : m_top->currentWidget())
                        : nullptr;
    int push = 0;
    if (page) {
        const int moved = page == m_pushedPage ? m_push : 0;
        const QRect over(top.left(), y, width, natural - y);
        for (const QWidget *w : page->findChildren<QWidget *>()) {
            const bool input = qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QComboBox *>(w)
                               || qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractButton *>(w);
            if (!input || !w->isVisibleTo(page))
                continue;
            if (QRect(w->mapTo(this, QPoint(0, 0)) - QPoint(0, moved), w->size()).intersects(over)) {
                push = natural + 4 - page->mapTo(this, QPoint(0, 0)).y();
                break;
            }
        }
    }
    pushPage(page, std::max(0, push));
    if (push > 0)
        bottom = natural;
    m_error->setGeometry(top.left(), y, width, bottom - y);
    m_error->raise();
}

void Dashboard::showNextPage(int step)
{
    if (!m_tabbed) {
        // As the page switch: a greyed page (Parallel training while serving) is passed over.
        const int n = m_top->count();
        for (int i = 1; i <= n; ++i) {
            const int next = ((m_top->currentIndex() + i * step) % n + n) % n;
            if (next >= static_cast<int>(std::size(m_pageButtons)) || !m_pageButtons[next] || m_pageButtons[next]->isEnabled()) {
                m_top->setCurrentIndex(next);
                return;
            }
        }
        return;
    }
    const int n = m_tabs->count();
    for (int i = 1; i <= n; ++i) {
        const int next = ((m_tabs->currentIndex() + i * step) % n + n) % n;
        if (m_tabs->isTabEnabled(next)) {
            m_tabs->setCurrentIndex(next);
            return;
        }
    }
}

void Dashboard::pushPage(QWidget *page, int push)
{
    if (m_pushedPage && (m_pushedPage != page || push <= 0)) {
        m_pushedPage->setContentsMargins(m_pushedFrom);
        m_pushedPage = nullptr;
        m_push = 0;
    }
    if (!page || push <= 0 || (page == m_pushedPage && push == m_push))
        return;
    if (!m_pushedPage)
        m_pushedFrom = page->contentsMargins();
    m_pushedPage = page;
    m_push = push;
    page->setContentsMargins(m_pushedFrom.left(), m_pushedFrom.top() + push, m_pushedFrom.right(), m_pushedFrom.bottom());
}

void Dashboard::placeErrorIfShown()
{
    if (m_error->isVisibleTo(this))
        QMetaObject::invokeMethod(this, &Dashboard::placeError, Qt::QueuedConnection);
}

void Dashboard::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
    placeError();
}

void Dashboard::setViewOptions(const ViewOptions &options)
{
    m_unit = options.unit;
    if (m_lastReport)
        m_formula->setText(formulaText(*m_lastReport, m_topic, m_unit));
    m_memory->setByteUnit(options.unit);
    if (m_servingMemory->isBuilt())
        servingMemory()->setByteUnit(options.unit);
    if (m_stages->isBuilt())
        stages()->setByteUnit(options.unit);
    if (m_planner->isBuilt())
        planner()->setByteUnit(options.unit);
    m_memory->setAxisFocus(options.memoryFocus);
    m_roofline->setOverlayGpu(options.overlayGpuId);
    m_roofline->setRanges(options.rooflineX, options.rooflineY);
    if (m_budget->isBuilt()) {
        if (options.budget != budget()->request())
            budget()->setRequest(options.budget);
    } else {
        m_budgetRequest = options.budget;
    }
}

ViewOptions Dashboard::viewOptions() const
{
    ViewOptions o;
    o.unit = m_unit;
    o.rooflineX = m_roofline->xRange();
    o.rooflineY = m_roofline->yRange();
    o.overlayGpuId = m_roofline->overlayGpu();
    o.memoryFocus = m_memory->axisFocus();
    o.budget = m_budget->isBuilt() ? budget()->request() : m_budgetRequest;
    return o;
}

void Dashboard::setDragging(bool dragging)
{
    m_dragging = dragging;
    m_memory->setDragging(dragging);
    m_time->setDragging(dragging);
    if (m_step->isBuilt())
        step()->setDragging(dragging);
}

void Dashboard::setExportMode(bool exporting)
{
    m_roofline->setToolbarVisible(!exporting);
    m_memory->setToolbarVisible(!exporting);
    m_time->setExportMode(exporting);
    // A picture shows every chart at once, whatever the window is doing: the overview.
    setArrangement(exporting ? Arrangement::Grid : Arrangement::Auto);
    m_exporting = exporting;
    if (exporting)
        m_top->setCurrentWidget(m_gridPage);
    m_pageBar->setVisible(!exporting && !m_tabbed);
    if (m_planner->isBuilt())
        planner()->setSynchronous(exporting);
    // On screen the controls say it; a picture must say under which settings its numbers hold.
    m_settings->setVisible(exporting);
    m_formula->setVisible(!exporting);
}

} // namespace napkin::ui
