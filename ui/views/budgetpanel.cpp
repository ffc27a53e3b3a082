#include "ui/views/budgetpanel.h"

#include "core/io/numberparse.h"
#include "core/report/gputimes.h"
#include "core/model/validation.h"
#include "core/text/budgettext.h"
#include "core/text/layouttext.h"
#include "core/text/units.h"
#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/legendstrip.h"

#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {

constexpr double kCurveScales[3] = {0.1, 1, 10};  // the budget's iso-FLOP curve and its neighbours
constexpr int kCurvePoints = 160;

QColor lawColor(int i)
{
    static const QColor colors[] = {QColor(0xd6, 0x27, 0x28), QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0x94, 0x67, 0xbd)};
    return colors[i % 4];
}

QScatterSeries::MarkerShape lawShape(int i)
{
    static const QScatterSeries::MarkerShape shapes[] = {QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle,
                                                          QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle};
    return shapes[i % 4];
}

QChar lawGlyph(int i)
{
    static const QChar glyphs[] = {QChar(0x25CF), QChar(0x25A0), QChar(0x25B2), QChar(0x25C6)};
    return glyphs[i % 4];
}

} // namespace

BudgetPanel::BudgetPanel(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_pageArea(new QScrollArea(this)),
      m_page(new QWidget(m_pageArea)),
      m_inputs(new QWidget(m_page)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, m_page)),
      m_x(new QLogValueAxis),
      m_y(new QValueAxis),
      m_current(new QScatterSeries),
      m_aware(new QScatterSeries),
      m_legend(new LegendStrip(m_page)),
      m_summary(new QLabel(m_page))
{
    buildInputs(m_inputs);
    m_view->setAccessibleName(tr("Budget chart"));
    m_chart->setObjectName(QStringLiteral("budgetChart"));
    m_view->setMinimumSize(320, 220);
    m_x->setBase(10);
    keepLogLabelsAlike(m_x);
    m_y->setLabelFormat(QStringLiteral("%.2f"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    setFittingAxisTitle(m_chart, m_x, tr("Parameters N"), tr("N"));
    setFittingAxisTitle(m_chart, m_y, tr("Predicted loss (nats per token)"), tr("Loss"));
    const auto attach = [this](QXYSeries *series) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    };
    for (int i = 0; i < 3; ++i) {
        m_curves[i] = new QLineSeries;
        QPen pen(i == 1 ? palette::highlight() : palette::neutral(), i == 1 ? 3 : 1.5, i == 1 ? Qt::SolidLine : Qt::DashLine);
        m_curves[i]->setPen(pen);
        m_curves[i]->setObjectName(i == 1 ? QStringLiteral("budget curve") : QStringLiteral("budget x%1 curve").arg(kCurveScales[i]));
        attach(m_curves[i]);
    }
    for (int i = 0; i < static_cast<int>(scalingLaws().size()); ++i) {
        auto *marks = new QScatterSeries;
        marks->setMarkerShape(lawShape(i));
        marks->setColor(lawColor(i));
        marks->setBorderColor(Qt::white);
        marks->setMarkerSize(13);
        attach(marks);
        m_lawMarks.append(marks);
    }
    m_current->setObjectName(QStringLiteral("this run"));
    m_current->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_current->setColor(Qt::black);
    m_current->setMarkerSize(18);
    attach(m_current);
    m_aware->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_aware->setColor(Qt::transparent);
    m_aware->setBorderColor(QColor(0xff, 0x7f, 0x0e));
    m_aware->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 3));
    m_aware->setMarkerSize(18);
    attach(m_aware);
    styleChart(m_chart, font());
    styleLegend(m_legend, font());
    m_legend->setAccessibleName(tr("Budget legend"));
    m_summary->setWordWrap(true);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("Budget answer"));

    // The chart keeps a readable plot whatever the text size; the answer below scrolls
    // rather than squeezing it (large text on a projector wraps it to many lines).
    m_summaryArea = new QScrollArea(m_page);
    m_summaryArea->setWidget(m_summary);
    m_summaryArea->setWidgetResizable(true);
    m_summaryArea->setFrameShape(QFrame::NoFrame);
    m_summaryArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The page scrolls as a last resort: where even a brief legend and one line of answer
    // leave the chart less than its minimum (large text on a short window), the page keeps
    // every part whole and scrolls, rather than laying the legend over the plot.
    auto *column = new QVBoxLayout(m_page);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);
    column->addWidget(m_inputs);
    column->addWidget(m_view, 3);
    column->addWidget(m_legend);
    column->addWidget(m_summaryArea);
    m_pageArea->setWidget(m_page);
    m_page->installEventFilter(this);
    m_pageArea->setWidgetResizable(true);
    m_pageArea->setFrameShape(QFrame::NoFrame);
    m_pageArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pageArea);
    fitToText();
    connect(m_view, &ChartView::hovered, this, &BudgetPanel::showHover);
    connect(m_view, &ChartView::left, this, [] { QToolTip::hideText(); });
}

void BudgetPanel::buildInputs(QWidget *row)
{
    m_amount = new QLineEdit(row);
    m_amount->setAccessibleName(tr("Budget amount"));
    m_amount->setToolTip(tr("The training budget, e.g. 5.76e23 FLOPs, 1e6 GPU-hours, 2e6 dollars or 30 days; "
                            "empty: this run's own training compute, 6ND with N the parameters a token runs through "
                            "(a Mixture-of-Experts' active ones), embeddings included, as Hoffmann et al. 2022 count them (the Time and cost tab's 6ND counts Kaplan "
                            "et al. 2020's N, without the embeddings)"));
    m_unit = new QComboBox(row);
    m_unit->setAccessibleName(tr("Budget unit"));
    m_unit->addItem(tr("FLOPs"), int(BudgetUnit::Flops));
    m_unit->addItem(tr("GPU-hours"), int(BudgetUnit::GpuHours));
    m_unit->addItem(tr("US dollars"), int(BudgetUnit::Usd));
    m_unit->addItem(tr("days"), int(BudgetUnit::Days));
    // Every combo follows the text size: one sized at its first show keeps that width
    // at text x2 and cuts its own item.
    m_unit->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_unit->setToolTip(tr("GPU-hours and days (on this run's GPUs) become FLOPs at the GPU's peak x the utilisation; "
                          "dollars at its price per GPU-hour"));
    m_law = new QComboBox(row);
    m_law->setAccessibleName(tr("Scaling law"));
    m_law->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const ScalingLawInfo &info : scalingLaws())
        m_law->addItem(QLatin1String(info.id), int(info.law));
    m_law->setToolTip(tr("besiroglu2024: Hoffmann et al.'s loss form re-fitted by Besiroglu et al. 2024 (the default); "
                         "hoffmann2022: the original approach-3 fit; dubey2024: Llama 3's fit of tokens against compute; "
                         "tokens-per-param: D = r N"));
    m_ratio = new QDoubleSpinBox(row);
    m_ratio->setAccessibleName(tr("Tokens per parameter"));
    m_ratio->setRange(0.1, 100000);
    m_ratio->setDecimals(1);
    m_ratio->setValue(20);
    m_ratio->setPrefix(tr("r = "));
    m_ratio->setToolTip(tr("tokens-per-param: the ratio D / N (Chinchilla: 1.4T / 70B = 20)"));
    m_ratio->setVisible(false);
    m_inference = new QLineEdit(row);
    m_inference->setAccessibleName(tr("Inference tokens"));
    m_inference->setPlaceholderText(tr("0"));
    m_inference->setToolTip(tr("Tokens the model will serve over its life: the model of the same loss with the fewest "
                               "training + inference FLOPs, 6ND + 2N x tokens (Sardana et al. 2023)"));
    // Named for what it does: beside the inputs, "Apply" read as "apply these inputs", and a
    // serving-token count typed in and applied replaced the scenario with the suggestion.
    m_apply = new QPushButton(tr("Set model"), row);
    m_apply->setToolTip(tr("Set the suggested shape and tokens (one undo step)"));
    m_inputsGrid = new QGridLayout(row);
    m_inputsGrid->setContentsMargins(0, 0, 0, 0);
    m_budgetLabel = new QLabel(tr("Budget:"), row);
    m_lawLabel = new QLabel(tr("Law:"), row);
    m_servingLabel = new QLabel(tr("Serving tokens:"), row);
    arrangeInputs();
    for (QLineEdit *edit : {m_amount, m_inference})
        connect(edit, &QLineEdit::editingFinished, this, &BudgetPanel::readInputs);
    for (QComboBox *box : {m_unit, m_law})
        connect(box, &QComboBox::currentIndexChanged, this, &BudgetPanel::readInputs);
    connect(m_ratio, &QDoubleSpinBox::valueChanged, this, &BudgetPanel::readInputs);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (const auto s = appliedScenario())
            emit applyRequested(*s, tr("apply the budget's model"));
    });
}

void BudgetPanel::setInputsVisible(bool visible)
{
    m_inputs->setVisible(visible);
}

void BudgetPanel::setReport(const Report &report)
{
    m_report = report;
    recompute();
}

void BudgetPanel::setRequest(const BudgetRequest &request)
{
    m_request = request;
    const QSignalBlocker blocks[] = {QSignalBlocker(m_amount), QSignalBlocker(m_unit), QSignalBlocker(m_law),
                                     QSignalBlocker(m_ratio), QSignalBlocker(m_inference)};
    m_amount->setText(request.amount > 0 ? QString::number(request.amount, 'g', 6) : QString());
    m_unit->setCurrentIndex(m_unit->findData(int(request.unit)));
    m_law->setCurrentIndex(m_law->findData(int(request.law)));
    m_ratio->setValue(request.tokensPerParam);
    m_ratio->setVisible(request.law == ScalingLaw::TokensPerParam && m_inputs->isVisibleTo(this));
    arrangeInputs();
    m_inference->setText(request.inferenceTokens > 0 ? QString::number(request.inferenceTokens, 'g', 6) : QString());
    recompute();
}

void BudgetPanel::readInputs()
{
    m_inputProblem.clear();
    BudgetRequest r = m_request;
    r.unit = static_cast<BudgetUnit>(m_unit->currentData().toInt());
    r.law = static_cast<ScalingLaw>(m_law->currentData().toInt());
    r.tokensPerParam = m_ratio->value();
    m_ratio->setVisible(r.law == ScalingLaw::TokensPerParam);
    arrangeInputs();
    const QString amount = m_amount->text().trimmed();
    const auto parsedAmount = amount.isEmpty() ? std::optional<double>(0) : parseReal(amount);
    const QString inference = m_inference->text().trimmed();
    const auto parsedInference = inference.isEmpty() ? std::optional<double>(0) : parseReal(inference);
    if (!parsedAmount || *parsedAmount < 0)
        m_inputProblem = tr("Budget: must be a number above 0, or empty for this run's compute (got '%1')").arg(amount);
    else if (!parsedInference || *parsedInference < 0)
        m_inputProblem = tr("Serving tokens: must be a number from 0 (got '%1')").arg(inference);
    if (m_inputProblem.isEmpty()) {
        r.amount = *parsedAmount;
        r.inferenceTokens = *parsedInference;
        m_request = r;
    }
    recompute();
}

void BudgetPanel::recompute()
{
    if (!m_report)
        return;
    m_problem = m_inputProblem;
    if (!m_problem.isEmpty()) {
        m_budget.reset();
        showCurves();
        showSummary();
        return;
    }
    BudgetRequest r = m_request;
    if (!(r.amount > 0)) {
        // Empty: this run's own compute, in FLOPs whatever the unit box says.
        r.unit = BudgetUnit::Flops;
        r.amount = scenarioBudgetFlops(m_report->scenario);
        // Its N said: a token's parameters with the embeddings (Hoffmann et al.), which the time
        // panel's 6ND leaves out (Kaplan et al.); the two had read as one figure twice.
        m_amount->setPlaceholderText(tr("this run, %3 = 6 × %1 (N with embeddings) × %2")
                                         .arg(fmt::compactCount(static_cast<double>(m_report->params.active)),
                                              fmt::compactCount(static_cast<double>(m_report->scenario.tokens)),
                                              fmt::sci(r.amount, 2)));
    }
    const auto budget = computeBudget(m_report->scenario, m_catalog, r);
    if (budget.ok()) {
        m_budget = *budget;
    } else {
        m_budget.reset();
        // Named as the page names its inputs ("Budget: ...", not the command line's "flops: ...").
        Refusal refusal = budget.refusal();
        const QString field = refusal.field;
        if (field == QLatin1String("flops") || field == QLatin1String("gpu_hours") || field == QLatin1String("usd")
            || field == QLatin1String("days"))
            refusal.field = tr("Budget");
        else if (field == QLatin1String("inference_tokens"))
            refusal.field = tr("Serving tokens");
        else if (field == QLatin1String("tokens_per_param"))
            refusal.field = tr("Tokens per parameter");
        m_problem = refusal.message();
    }
    showCurves();
    showSummary();
}

void BudgetPanel::showCurves()
{
    if (!m_budget) {
        // Nothing to draw: a refused budget leaves no curve, mark or legend of the last one
        // standing beside its refusal (the chart had kept "2.24e+20 FLOPs (the budget)" and
        // the star of a run since changed).
        for (QLineSeries *curve : m_curves)
            curve->clear();
        for (QScatterSeries *marks : m_lawMarks)
            marks->clear();
        m_current->clear();
        m_aware->clear();
        m_fullLegend.clear();
        m_briefLegend.clear();
        m_x->setLabelsVisible(false);  // no ticks of a range nothing is drawn over
        m_y->setLabelsVisible(false);
        fitChartHeight();
        setFittingChartTitle(m_chart, {tr("Loss at a fixed budget: no budget to draw (see below)"),
                                       tr("No budget to draw (see below)"), tr("No budget")});
        return;
    }
    const BudgetReport &b = *m_budget;
    m_x->setLabelsVisible(true);
    m_y->setLabelsVisible(true);
    const LossCoefficients &c = lossCoefficients(b.request.law);
    // The curves span the axis: the optima's neighbourhood and this run's model, which a
    // slider at its far end puts beyond it (the star had stood past the curves' end).
    // The laws are fitted to dense models: a Mixture-of-Experts stands at the parameters a
    // token runs through, on its budget's curve (at its total it had stood off the curve, at
    // 25x the compute it ran).
    const double runParams = static_cast<double>(m_report->params.active);
    const double nLow = std::min(computeOptimal(c, b.flops * kCurveScales[0]).params / 20, runParams / 2);
    const double nHigh = std::max(computeOptimal(c, b.flops * kCurveScales[2]).params * 20, runParams * 2);
    double lowest = INFINITY;
    for (int i = 0; i < 3; ++i) {
        const double flops = b.flops * kCurveScales[i];
        QList<QPointF> points;
        points.reserve(kCurvePoints);
        for (int k = 0; k < kCurvePoints; ++k) {
            const double n = nLow * std::pow(nHigh / nLow, static_cast<double>(k) / (kCurvePoints - 1));
            const double loss = predictedLoss(c, n, flops / (6 * n));
            points.append({n, loss});
            lowest = std::min(lowest, loss);
        }
        m_curves[i]->replace(points);
    }
    const auto onCurve = [&](double n) { return QPointF(n, predictedLoss(c, n, b.flops / (6 * n))); };
    // The chosen law's optimum filled and larger, the others as outlines: where the laws agree
    // their marks fall on one another, and a filled diamond had hidden the answer's dot.
    for (int i = 0; i < b.laws.size() && i < m_lawMarks.size(); ++i) {
        QScatterSeries *marks = m_lawMarks[i];
        const bool chosen = b.laws[i].law == b.request.law;
        if (marks->property("chosen").toBool() != chosen || !marks->property("chosen").isValid()) {
            marks->setProperty("chosen", chosen);
            marks->setMarkerSize(chosen ? 15 : 12);
            marks->setColor(chosen ? lawColor(i) : QColor(Qt::transparent));
            marks->setPen(QPen(chosen ? QColor(Qt::white) : lawColor(i), chosen ? 1 : 2));
        }
        marks->replace({onCurve(b.laws[i].optimal.params)});
    }
    const Report &r = *m_report;
    const QPointF current(runParams, predictedLoss(c, runParams, r.scenario.tokens));
    m_current->replace({current});
    m_aware->replace(b.inferenceAware ? QList<QPointF>{QPointF(b.inferenceAware->params, b.predictedLoss)} : QList<QPointF>{});
    m_x->setRange(nLow, nHigh);
    // Round ticks: the curves' floor to half a nat above it (the current model's point too,
    // up to 3 nats), in steps of niceStep().
    const double bottom = std::floor((lowest - 0.05) * 10) / 10;
    const double top = std::max(lowest + 0.5, std::min(current.y() + 0.1, lowest + 3));
    const double step = niceStep(top - bottom, 5);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(bottom);
    m_y->setTickInterval(step);
    m_y->setRange(bottom, bottom + std::ceil((top - bottom) / step) * step);

    // The legend in full, and in short for a panel too short for it beside the chart (large
    // text on a small window): the figures the short one leaves out are in the answer below
    // and on each mark's hover.
    QList<LegendEntry> &legend = m_fullLegend;
    QList<LegendEntry> &brief = m_briefLegend;
    legend.clear();
    brief.clear();
    const QChar line(0x2501);
    legend.append({palette::highlight(), tr("%1 FLOPs (the budget)").arg(fmt::sci(b.flops, 2)), line});
    brief.append({palette::highlight(), tr("%1 FLOPs").arg(fmt::sci(b.flops, 2)), line});
    legend.append({palette::neutral(), tr("×0.1 and ×10"), QChar(0x2504)});
    brief.append({palette::neutral(), tr("×0.1, ×10"), QChar(0x2504)});
    for (int i = 0; i < b.laws.size(); ++i) {
        const QString id = QLatin1String(scalingLawInfo(b.laws[i].law).id);
        legend.append({lawColor(i), tr("%1: N = %2").arg(id, fmt::compactCount(b.laws[i].optimal.params)), lawGlyph(i)});
        brief.append({lawColor(i), id, lawGlyph(i)});
    }
    const QString runText = r.params.active < r.params.total ? tr("this run: %1 active on %2 tokens")
                                                             : tr("this run: %1 on %2 tokens");
    legend.append({Qt::black, runText.arg(fmt::compactCount(runParams), fmt::compactCount(r.scenario.tokens)),
                   QChar(0x2605)});
    brief.append({Qt::black, tr("this run"), QChar(0x2605)});
    if (b.inferenceAware) {
        legend.append({QColor(0xff, 0x7f, 0x0e), tr("serving %1 tokens: N = %2")
                                                      .arg(fmt::compactCount(b.request.inferenceTokens),
                                                           fmt::compactCount(b.inferenceAware->params)), QChar(0x25CB)});
        brief.append({QColor(0xff, 0x7f, 0x0e), tr("with serving"), QChar(0x25CB)});
    }
    fitChartHeight();
    const QString law = QLatin1String(scalingLawInfo(b.request.law).id);
    setFittingChartTitle(m_chart, {tr("Loss at a fixed budget (%1): the minimum is the compute-optimal model").arg(law),
                                   tr("Loss at a fixed budget (%1)").arg(law), tr("Loss at a fixed budget")});
}

void BudgetPanel::showSummary()
{
    if (!m_problem.isEmpty() || !m_budget) {
        m_summary->setText(QStringLiteral("⚠ ") + m_problem);
        m_summary->setForegroundRole(QPalette::Text);
        m_apply->setEnabled(false);
        fitSummary();
        return;
    }
    const BudgetReport &b = *m_budget;
    const QString gpu = m_report ? nameWithoutVendor(m_report->gpu) : QString();
    QStringList lines;
    // The answer first: where large text leaves the answer one line (it scrolls), that line
    // is N and D, not the budget the user typed.
    lines << tr("N = %1, D = %2 (%3 tokens per parameter), loss %4 · %5 at a budget of %6")
                 .arg(fmt::compactCount(b.optimal.params), fmt::compactCount(b.optimal.tokens),
                      fmt::number(b.optimal.tokensPerParam(), 3), QString::number(b.predictedLoss, 'f', 3),
                      QLatin1String(scalingLawInfo(b.request.law).id), budgetAmountText(b, gpu));
    if (b.inferenceAware)
        lines << tr("Serving %1 tokens: %2 on %3 tokens, %4x smaller, %5 fewer total FLOPs (Sardana et al. 2023)")
                     .arg(fmt::compactCount(b.request.inferenceTokens), fmt::compactCount(b.inferenceAware->params),
                          fmt::compactCount(b.inferenceAware->tokens), fmt::number(b.optimal.params / b.inferenceAware->params, 3),
                          fmt::percent(1 - b.totalFlopsInferenceAware / b.totalFlopsOptimal));
    QString run = b.fits ? tr("fits with %1").arg(plannedLayoutWords(*b.layout)) : tr("does not fit with any planned layout");
    run += tr(" · %1, %2 GPU-hours").arg(fmt::duration(b.seconds), fmt::number(b.gpuHours, 3));
    if (b.costUsd)
        run += tr(", %1").arg(fmt::usd(*b.costUsd));
    lines << tr("Suggested: %1 = %2 parameters · on %3 × %4: %5")
                 .arg(shapeText(b.shape), fmt::compactCount(static_cast<double>(b.shapeParams)), fmt::count(b.run.gpus), gpu, run);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_summary->setToolTip(budgetText(b, gpu));
    m_apply->setEnabled(true);
    fitSummary();
}

std::optional<Scenario> BudgetPanel::appliedScenario() const
{
    if (!m_budget || !m_report)
        return std::nullopt;
    Scenario s = m_report->scenario;
    s.model = m_budget->shape;
    s.paramsOverride.reset();
    s.presetId = m_budget->run.presetId;
    s.tokens = m_budget->run.tokens;
    // The current layout where it can take the shape (a dense model: no expert parallelism).
    s.ep = 1;
    if (validateScenario(s))
        s = m_budget->run;
    s.baseline = m_report->scenario.baseline;
    return s;
}

void BudgetPanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    if (!m_budget)
        return;
    QString text;
    double best = 14;  // pixels
    const auto consider = [&](const QPointF &value, const QString &what) {
        const QPointF at = m_chart->mapToPosition(value);
        const double d = std::hypot(at.x() - chartPos.x(), at.y() - chartPos.y());
        if (d < best) {
            best = d;
            text = what;
        }
    };
    for (int i = 0; i < m_budget->laws.size() && i < m_lawMarks.size(); ++i) {
        const LawOptimum &o = m_budget->laws[i];
        if (!m_lawMarks[i]->points().isEmpty())
            consider(m_lawMarks[i]->points().first(),
                     tr("%1 (%2)\nN = %3, D = %4, %5 tokens per parameter")
                         .arg(QLatin1String(scalingLawInfo(o.law).id), QLatin1String(scalingLawInfo(o.law).source),
                              fmt::compactCount(o.optimal.params), fmt::compactCount(o.optimal.tokens),
                              fmt::number(o.optimal.tokensPerParam(), 3)));
    }
    if (!m_current->points().isEmpty())
        consider(m_current->points().first(), tr("This run: its parameters and tokens, at its own compute"));
    if (!m_aware->points().isEmpty())
        consider(m_aware->points().first(), tr("The same loss with the fewest training + inference FLOPs"));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, text, m_view);
}

void BudgetPanel::arrangeInputs()
{
    // One row where it fits with a dozen characters in each number field; else two, the
    // serving tokens and Apply below; else three, the budget, the law and the serving tokens
    // each on its own row (large text in a narrow window). Each is tried, and measured as laid
    // out: the labels and boxes share columns, so no sum of their widths says what a row takes.
    // What each arrangement takes is measured once for a text size and the inputs shown;
    // a resize then only re-places them where the arrangement changes.
    QScrollBar *const bar = m_pageArea->verticalScrollBar();
    const int room = width() - (bar->isVisibleTo(this) ? bar->sizeHint().width() : 0);
    const QString measuredFor = font().key() + (m_ratio->isHidden() ? QStringLiteral("|") : QStringLiteral("|ratio"));
    if (measuredFor != m_inputsMeasuredFor) {
        for (int rows = 1; rows <= 3; ++rows) {
            placeInputs(rows);
            m_inputsGrid->invalidate();
            m_inputsWidth[rows - 1] = m_inputsGrid->minimumSize().width();
        }
        m_inputRows = 3;
        m_inputsMeasuredFor = measuredFor;
    }
    int rows = 1;
    while (rows < 3 && room > 0 && m_inputsWidth[rows - 1] > room)
        ++rows;
    if (rows != m_inputRows) {
        placeInputs(rows);
        m_inputRows = rows;
    }
}

void BudgetPanel::placeInputs(int rows)
{
    // Three rows are for a narrow page: there each number field takes the row's room left, and
    // asks for no more than six characters, so that the page never grows wider than its window.
    const int chars = 12 * fontMetrics().averageCharWidth();
    for (QLineEdit *edit : {m_amount, m_inference})
        edit->setMinimumWidth(rows == 3 ? chars / 2 : chars);
    QWidget *const all[] = {m_budgetLabel, m_amount, m_unit, m_lawLabel, m_law, m_ratio, m_servingLabel, m_inference, m_apply};
    for (QWidget *w : all)
        m_inputsGrid->removeWidget(w);
    for (int c = 0; c < 9; ++c)
        m_inputsGrid->setColumnStretch(c, 0);
    if (rows == 3) {
        // label | field (stretches) | companion: the unit, Apply. The law's names are the
        // widest, so its box spans both; the ratio (tokens-per-param only) takes a row below.
        m_inputsGrid->addWidget(m_budgetLabel, 0, 0);
        m_inputsGrid->addWidget(m_amount, 0, 1);
        m_inputsGrid->addWidget(m_unit, 0, 2);
        m_inputsGrid->addWidget(m_lawLabel, 1, 0);
        m_inputsGrid->addWidget(m_law, 1, 1, 1, 2);
        m_inputsGrid->addWidget(m_ratio, 2, 1, 1, 2);
        m_inputsGrid->addWidget(m_servingLabel, 3, 0);
        m_inputsGrid->addWidget(m_inference, 3, 1);
        m_inputsGrid->addWidget(m_apply, 3, 2);
        m_inputsGrid->setColumnStretch(1, 1);
        return;
    }
    for (int i = 0; i < 6; ++i)
        m_inputsGrid->addWidget(all[i], 0, i);
    if (rows == 2) {
        m_inputsGrid->addWidget(m_servingLabel, 1, 0);
        m_inputsGrid->addWidget(m_inference, 1, 1);
        m_inputsGrid->addWidget(m_apply, 1, 2);
    } else {
        for (int i = 6; i < 9; ++i)
            m_inputsGrid->addWidget(all[i], 0, i);
    }
    m_inputsGrid->setColumnStretch(1, 2);
    if (rows == 1)
        m_inputsGrid->setColumnStretch(7, 1);
}

void BudgetPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeInputs();
    fitChartHeight();
    fitSummary();
}

void BudgetPanel::fitChartHeight()
{
    // The chart asks for thirteen lines and keeps at least eleven (six of them plot). Where
    // the inputs, the legend and two lines of the answer leave it less, the legend names its
    // entries without their figures, and then the answer keeps one line (it scrolls; its
    // tooltip has it whole). Below that the page scrolls: at text x2 on a 1024x768 projector
    // the chart's minimum had pushed the legend over the plot, and then cut the answer.
    const QLayout *box = m_page->layout();
    if (!box || !layout())
        return;  // still being built: the first resize comes after the layout
    const int line = fontMetrics().height();
    const QMargins m = box->contentsMargins();
    const int fixed = m.top() + m.bottom() + 3 * box->spacing() + m_inputs->sizeHint().height();
    constexpr int kChartLines = 11;
    // Whole lines of the answer, none cut through (its own scroll bar shows the rest).
    const int answerLine = fontMetrics().lineSpacing();  // the answer is in the page's font
    int answer = 2 * answerLine;
    // contentsRect(): under an error banner the dashboard moves the page's contents down.
    const auto room = [&] { return contentsRect().height() - fixed - answer - m_legend->sizeHint().height(); };
    m_legend->setEntries(m_fullLegend);
    if (room() < kChartLines * line)
        m_legend->setEntries(m_briefLegend);
    if (room() < kChartLines * line)
        answer = answerLine;
    const int chart = std::clamp(room(), kChartLines * line, 13 * line);
    if (m_view->minimumHeight() != chart)
        m_view->setMinimumHeight(chart);
    // The answer takes the whole lines left beside the chart's thirteen, up to all of its own.
    const int width = std::max(1, m_summaryArea->width() - m_summaryArea->verticalScrollBar()->sizeHint().width());
    const int ownLines = (m_summary->heightForWidth(width) + answerLine - 1) / answerLine;
    const int spareLines = (contentsRect().height() - fixed - m_legend->sizeHint().height() - 13 * line) / answerLine;
    answer = std::max(answer, std::min(spareLines, ownLines) * answerLine);
    if (m_summaryArea->minimumHeight() != answer || m_summaryArea->maximumHeight() != answer)
        m_summaryArea->setFixedHeight(answer);
    // The page's least height, said outright: the legend and the answer wrap to the width, which
    // a layout's minimum does not follow.
    const int least = fixed + chart + answer + m_legend->sizeHint().height();
    if (m_page->minimumHeight() != least)
        m_page->setMinimumHeight(least);
}

bool BudgetPanel::eventFilter(QObject *watched, QEvent *event)
{
    // The legend's rows follow its width, known only once the page is laid out.
    if (watched == m_page && event->type() == QEvent::LayoutRequest)
        fitChartHeight();
    return QWidget::eventFilter(watched, event);
}

void BudgetPanel::fitSummary()
{
    // Its height is whole lines of the page's room (fitChartHeight), now for the new text.
    fitChartHeight();
}

void BudgetPanel::fitToText()
{
    // A title, six lines of plot, tick labels and the axis title; the answer at least two lines.
    const int line = fontMetrics().height();
    m_view->setMinimumHeight(13 * line);
    fitChartHeight();
    fitSummary();
}

void BudgetPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        styleChart(m_chart, font());
        styleLegend(m_legend, font());
        fitToText();
        arrangeInputs();
    }
    if (event->type() == QEvent::ContentsRectChange) {
        fitChartHeight();
        fitSummary();
    }
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
