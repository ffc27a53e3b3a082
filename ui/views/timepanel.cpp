#include "ui/views/timepanel.h"

#include "core/report/baseline.h"
#include "ui/views/gputimechart.h"
#include "ui/views/servingcurve.h"
#include "core/report/gputimes.h"
#include "core/text/units.h"

#include <QEvent>
#include <QGridLayout>
#include <QStackedWidget>
#include <QHBoxLayout>
#include <QLabel>

#include "ui/widgets/lazywidget.h"
#include "ui/widgets/textstrip.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>

namespace napkin::ui {

namespace {

// More lines than this and a note is a paragraph: it goes to the tooltip instead.
constexpr int kMaxNoteLines = 4;
// Between the figures' rows; closer when that keeps a note on screen.
constexpr int kRowSpacing = 4;
constexpr int kTightRowSpacing = 0;

// The figures' widget. Its resize comes after its grid has placed the notes (a layout acts on
// the resize before the widget's handler), so the notes' width is known when the panel fits them.
class Figures final : public QWidget
{
public:
    using QWidget::QWidget;
    std::function<void()> resized;

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QWidget::resizeEvent(event);
        if (resized)
            resized();
    }
};

} // namespace

TimePanel::TimePanel(const Catalog &catalog, QWidget *parent)
    : QWidget(parent), m_title(new TextStrip(this)), m_figures(new Figures(this)),
      m_chart(new GpuTimeChart(catalog)),
      m_servingGpus(new LazyWidget([&catalog](QWidget *parent) { return new GpuTimeChart(catalog, parent); })),
      m_gpus(new QStackedWidget(this)),
      m_serving(new LazyWidget([](QWidget *parent) { return new ServingCurvePanel(parent); }, this)),
      m_layout(new QHBoxLayout(this))
{
    m_gpus->addWidget(m_chart);
    m_gpus->addWidget(m_servingGpus);
    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(kRowSpacing);
    m_title->setBold(true);
    m_title->setScale(1.15);
    grid->addWidget(m_title, 0, 0, 1, 3);
    for (int i = 0; i < kRows; ++i) {
        auto *name = new QLabel(this);
        m_names[i] = name;
        m_values[i] = new TextStrip(this);
        m_notes[i] = new TextStrip(this);
        m_values[i]->setBold(true);
        m_values[i]->setWidthHint(QStringLiteral("8.888e+88 "));
        m_notes[i]->setForegroundRole(QPalette::PlaceholderText);
        m_notes[i]->setOverflowToToolTip(true);
    }
    m_figures->setLayout(grid);
    placeRows(false);
    grid->setColumnStretch(2, 1);
    setMode(Mode::Training);

    // The figures' text changes on every update; with their size hints ignored the split
    // between figures and chart stays put instead of resizing the chart each time. Their
    // height is the panel's: fitNotes() keeps the rows inside it.
    m_figures->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    static_cast<Figures *>(m_figures)->resized = [this] { fitNotes(); };
    m_layout->setContentsMargins(6, 4, 0, 0);
    m_layout->addWidget(m_figures, 1);
    m_layout->addWidget(m_gpus, 1);
    // Built by the first report in inference mode (setReport()), which it then draws.
    m_serving->hide();
}

ServingCurvePanel *TimePanel::servingChart() const
{
    return static_cast<ServingCurvePanel *>(m_serving->content());
}

QWidget *TimePanel::servingPlace() const
{
    return m_serving;
}

void TimePanel::setMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    const bool serving = mode == Mode::Inference;
    m_rows = serving ? kServingFigures : kFigures;
    m_title->setText(serving ? tr("Serving figures") : tr("Training time and cost"));
    const QStringList training = {tr("FLOPs, 6ND"), tr("FLOPs, detailed"), tr("FLOPs, HFU"), tr("Wall clock"),
                                  tr("GPU-hours"), tr("GPU-years"), tr("Cost"), tr("Energy")};
    const QStringList trainingTips = {
        tr("6 x non-embedding parameters x training tokens (Kaplan et al. 2020, Section 2.1)"),
        tr("Every forward matmul x 3 (backward = 2 x forward), attention over s x s (or its causal half)"),
        tr("Hardware FLOPs: model FLOPs of the chosen basis + the forward matmuls recomputation runs again, "
           "what HFU counts (Chowdhery et al. 2022, App. B; Korthikanti et al. 2022, Appendix A)"),
        tr("Hardware FLOPs / (GPUs x peak FLOP/s x HFU), or model FLOPs / (GPUs x peak x MFU), as chosen "
           "(Narayanan et al. 2021, eq. 4); both utilisations are shown"),
        tr("GPUs x wall-clock hours"), tr("GPU-hours / (365 x 24)"), tr("GPU-hours x price per GPU-hour"),
        tr("GPUs x board power (TDP) x wall-clock time; no cooling or PUE")};
    const QStringList servingNames = {tr("TTFT"), tr("TPOT"), tr("End to end"), tr("Output"), tr("Input"),
                                      tr("Cost, output"), tr("Cost, input"), tr("Energy"), tr("KV cache")};
    const QStringList servingTips = {
        tr("Time to first token: the step that prefills the request, with the other prompts a step admits "
           "(concurrency / output tokens on average) and the batch's decode"),
        tr("Time per output token: one decode step for every sequence in flight, plus the prefills "
           "interleaved per token"),
        tr("One request from arrival to its last token: TTFT + (output tokens - 1) x TPOT"),
        tr("Output tokens per second of every replica together, at the steady state of continuous batching"),
        tr("Prompt tokens per second of every replica together"),
        tr("Decode's share of the GPU-hours x price, per million output tokens"),
        tr("Prefill's share of the GPU-hours x price, per million prompt tokens"),
        tr("Every GPU at its board power (TDP) for a million output tokens, all of its time: unlike the "
           "cost, not split between prompt and output tokens; no cooling or PUE"),
        tr("Tokens the KV pool holds per replica, and the most sequences of prompt + output tokens it holds")};
    const QStringList &names = serving ? servingNames : training;
    const QStringList &tips = serving ? servingTips : trainingTips;
    for (int i = 0; i < kRows; ++i) {
        const bool shown = i < m_rows;
        m_names[i]->setVisible(shown);
        m_values[i]->setVisible(shown);
        m_notes[i]->setVisible(shown);
        if (!shown)
            continue;
        m_names[i]->setText(names[i]);
        const bool headline = i == (serving ? static_cast<int>(ServingFigure::Tpot) : static_cast<int>(Figure::WallClock));
        m_values[i]->setScale(headline ? 1.35 : 1.0);
        // A headline figure wider than its column ("3,810 years") is drawn smaller rather than
        // cut; the column keeps the notes' room (a wider one had left none at text x2).
        m_values[i]->setShrinkToFit(headline);
        m_values[i]->setAccessibleName(names[i]);
        m_values[i]->setToolTip(tips[i]);
        m_names[i]->setToolTip(tips[i]);
        m_notes[i]->setAccessibleName(tr("%1, details").arg(names[i]));
        m_notes[i]->setToolTip(tips[i]);
    }
    m_gpus->setCurrentWidget(serving ? static_cast<QWidget *>(m_servingGpus) : m_chart);
    placeServingChart();
}

GpuTimeChart *TimePanel::gpuChart() const
{
    return m_mode == Mode::Inference ? static_cast<GpuTimeChart *>(m_servingGpus->content()) : m_chart;
}

QWidget *TimePanel::everyGpuPlace() const
{
    return m_gpus;
}

QString TimePanel::figureName(int row) const
{
    return row >= 0 && row < kRows ? m_names[row]->text() : QString();
}

void TimePanel::placeServingChart()
{
    const bool wanted = m_mode == Mode::Inference && !m_detached;
    if (!wanted) {
        if (m_layout->indexOf(m_serving) >= 0) {
            m_layout->removeWidget(m_serving);
            if (!m_detached)
                m_serving->hide();
        }
        return;
    }
    if (m_layout->indexOf(m_serving) < 0) {
        m_serving->setParent(this);
        m_layout->insertWidget(1, m_serving, 1);
    }
    m_serving->show();
}

void TimePanel::setFiguresAbove(bool above)
{
    m_above = above;
    m_layout->setDirection(above ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    m_layout->setStretchFactor(m_figures, above ? 0 : 1);
    if (m_layout->indexOf(m_serving) >= 0)
        m_layout->setStretchFactor(m_serving, 1);
    m_figures->setSizePolicy(QSizePolicy::Ignored, above ? QSizePolicy::Maximum : QSizePolicy::Ignored);
    fitNotes();
}

void TimePanel::setChartDetached(bool detached)
{
    m_detached = detached;
    if (detached) {
        m_layout->removeWidget(m_gpus);
    } else if (m_layout->indexOf(m_gpus) < 0) {
        m_gpus->setParent(this);
        m_layout->addWidget(m_gpus, 1);
        m_gpus->show();
    }
    placeServingChart();
    fitNotes();
}

void TimePanel::setTitleVisible(bool visible)
{
    m_title->setVisible(visible);
    fitNotes();
}

void TimePanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitNotes();
}

void TimePanel::placeRows(bool stacked)
{
    auto *grid = static_cast<QGridLayout *>(m_figures->layout());
    for (int i = 0; i < kRows; ++i)
        for (QWidget *w : {static_cast<QWidget *>(m_names[i]), static_cast<QWidget *>(m_values[i]),
                           static_cast<QWidget *>(m_notes[i])})
            grid->removeWidget(w);
    // A note of several lines hangs from its row's first line, as a form's field does: centred
    // on its row, a three-line note reached up beside the row above ("per million output
    // tokens, at $3.99 per GPU-hour" seemed to explain Output, not Cost).
    for (int i = 0; i < kRows; ++i) {
        const int row = stacked ? 2 * i + 1 : i + 1;
        grid->addWidget(m_names[i], row, 0, Qt::AlignTop);
        grid->addWidget(m_values[i], row, 1, Qt::AlignTop);
        if (stacked)
            grid->addWidget(m_notes[i], row + 1, 0, 1, 3, Qt::AlignTop);
        else
            grid->addWidget(m_notes[i], row, 2, Qt::AlignTop);
    }
    for (int row = 0; row <= 2 * kRows + 1; ++row)
        grid->setRowStretch(row, 0);
    grid->setRowStretch(stacked ? 2 * kRows + 1 : kRows + 1, 1);
    m_stacked = stacked;
}

void TimePanel::fitNotes()
{
    auto *grid = static_cast<QGridLayout *>(m_figures->layout());
    // The note column's width, from the figures' own widths (the grid's last placement may be
    // another mode's): beside the figures where it keeps a dozen characters, else under them.
    const QMargins outer = grid->contentsMargins();
    int names = 0;
    int values = 0;
    for (int i = 0; i < m_rows; ++i) {
        names = std::max(names, m_names[i]->sizeHint().width());
        values = std::max(values, m_values[i]->sizeHint().width());
    }
    const int across = m_figures->width() - outer.left() - outer.right();
    const int beside = across - names - values - 2 * grid->horizontalSpacing();
    const bool stacked = beside < 12 * m_notes[0]->fontMetrics().averageCharWidth();
    if (stacked != m_stacked)
        placeRows(stacked);
    const int width = stacked ? across : beside;
    if (width <= 1)
        return;
    // Above the chart the figures take at most half the panel; beside it or alone, all of it.
    const int room = m_above && !m_detached ? height() / 2 : m_figures->height();
    const QMargins margins = grid->contentsMargins();
    const int line = m_notes[0]->lineHeight();
    int rowHeight[kRows];
    int need[kRows];
    int order[kRows];
    int rows = margins.top() + margins.bottom() + (m_title->isHidden() ? 0 : m_title->sizeHint().height());
    for (int i = 0; i < m_rows; ++i) {
        rowHeight[i] = std::max({m_names[i]->sizeHint().height(), m_values[i]->sizeHint().height(), line});
        rows += rowHeight[i];
        // Under its figure a note takes a row of its own, one line at least; an empty one none.
        const bool empty = m_notes[i]->text().isEmpty();
        if (m_notes[i]->isVisibleTo(m_figures) != !(stacked && empty))
            m_notes[i]->setVisible(!(stacked && empty));
        if (stacked && !empty)
            rows += line;
        need[i] = m_notes[i]->linesNeeded(width);
        order[i] = i;
    }
    // The notes that need more lines get them cheapest first, so that as many as possible are
    // whole; what costs more room than is left stays on one line, its text in the tooltip.
    const auto extra = [&](int i) { return stacked ? (need[i] - 1) * line : std::max(0, need[i] * line - rowHeight[i]); };
    std::stable_sort(order, order + m_rows, [&](int a, int b) { return extra(a) < extra(b); });
    int lines[kRows];
    const auto plan = [&](int spacing) {
        const int gaps = (m_title->isHidden() ? m_rows - 1 : m_rows) * (stacked ? 2 : 1);
        int spare = room - rows - gaps * spacing;
        bool whole = true;
        for (int i : std::span(order, static_cast<std::size_t>(m_rows))) {
            lines[i] = 1;
            if (need[i] > 1 && need[i] <= kMaxNoteLines && extra(i) <= spare) {
                lines[i] = need[i];
                spare -= extra(i);
            }
            whole &= lines[i] == need[i];
        }
        return whole;
    };
    // Rows closer together before a note leaves for its tooltip.
    const int spacing = plan(kRowSpacing) ? kRowSpacing : kTightRowSpacing;
    if (spacing != kRowSpacing)
        plan(spacing);
    if (grid->verticalSpacing() != spacing)
        grid->setVerticalSpacing(spacing);
    for (int i = 0; i < m_rows; ++i)
        if (m_notes[i]->lines() != lines[i])
            m_notes[i]->setLines(lines[i]);
}

void TimePanel::setExportMode(bool exporting)
{
    for (TextStrip *note : m_notes)
        note->setOverflowToToolTip(!exporting);
}

void TimePanel::setReport(const Report &r)
{
    setMode(r.scenario.mode);
    if (r.inference)
        showServing(r);
    else
        showTraining(r);
    fitNotes();
    gpuChart()->setReport(r);
    if (r.inference || m_serving->isVisible())
        servingChart()->setReport(r);
}

void TimePanel::showTraining(const Report &r)
{
    // A run that does not fit has no time or cost of its own: the figures are what it would
    // take if it did, and the title says so (they had stood beside "DOES NOT FIT" unqualified).
    m_title->setText(r.memory.fits ? tr("Training time and cost") : tr("Training time and cost, if it fit in memory"));
    m_title->setToolTip(r.memory.fits ? QString()
                                      : tr("This layout needs %1 per GPU of the %2 it has; see Memory for what fits")
                                            .arg(fmt::bytes(r.memory.perGpu.total()), fmt::bytes(r.memory.capacity)));
    const auto set = [this](Figure f, const QString &value, const QString &note) {
        const int i = static_cast<int>(f);
        if (m_values[i]->text() != value)
            m_values[i]->setText(value);
        if (m_notes[i]->text() != note)
            m_notes[i]->setText(note);
    };
    const bool sixNd = r.time.basis == FlopsBasis::SixND;
    const QString used = tr("◀ used");
    set(Figure::Flops6nd, fmt::sci(r.flops.training6nd),
        (sixNd ? used + QStringLiteral(" · ") : QString())
            + (r.scenario.paramsOverride ? tr("6 × %1 × %2, N as given") : tr("6 × %1 × %2, N without embeddings (Kaplan et al.)"))
                  .arg(fmt::compactCount(static_cast<double>(r.params.activeNonEmbedding)),
                       fmt::compactCount(r.scenario.tokens)));
    set(Figure::FlopsDetailed, fmt::sci(r.flops.trainingChosenDetailed()),
        (sixNd ? QString() : used + QStringLiteral(" · "))
            + (r.flops.causal ? tr("attention %1, causal half") : tr("attention %1, full s²"))
                  .arg(fmt::percent(r.flops.attentionShare, 0)));
    const TimeReport &t = r.time;
    set(Figure::HardwareFlops, fmt::sci(t.hardwareFlops),
        t.recomputeFlops <= 0
            ? tr("nothing recomputed: equals the model FLOPs")
            : tr("+%1 recomputed (%2)").arg(fmt::percent(t.recomputeFlops / t.trainingFlops, 1),
                                            r.scenario.recompute == Recompute::Full ? tr("full") : tr("selective")));
    const bool hfu = t.utilizationBasis == UtilizationBasis::Hfu;
    // The utilisation the user set comes first, where it is read first.
    const QString mfu = tr("MFU %1").arg(fmt::percent(t.mfuFraction, 1));
    const QString hfuText = tr("HFU %1").arg(fmt::percent(t.hfuFraction, 1));
    // The pinned run's figure comes first in the note, beside the new one.
    const Report *pinned = r.baseline.get();
    const auto change = baselineChange(r);
    const QString pinnedTime = pinned ? tr("pinned %1, %2 · ").arg(fmt::duration(pinned->time.seconds), signedPercent(change->time))
                                      : QString();
    // Under the estimated basis the utilisation is what the estimated step implies, not the
    // one set (a calibrated run had read "HFU 14.1% (set)" beside a set 40%).
    const int runs = r.scenario.calibration ? static_cast<int>(r.scenario.calibration->runs.size()) : 0;
    const QString origin = t.timeBasis != TimeBasis::Estimated ? tr("set")
                           : runs == 0                         ? tr("estimated step")
                           : runs == 1                         ? tr("estimated step, calibrated on 1 run")
                                                               : tr("estimated step, calibrated on %1 runs").arg(runs);
    // A set utilisation the estimated step is far from (40% HFU for a model too small to reach
    // it: 19 ms against 33 s) says so beside the time it gives.
    const double apart = t.secondsUtilization > 0 ? t.secondsEstimated / t.secondsUtilization : 1;
    const QString estimate = t.timeBasis != TimeBasis::Estimated && (apart > 2 || apart < 0.5)
                                 ? tr(" · the estimated step gives %1 (Step tab)").arg(fmt::duration(t.secondsEstimated))
                                 : QString();
    set(Figure::WallClock, fmt::duration(t.seconds),
        pinnedTime + tr("%1 (%2) · %3 · %4 × %5%6")
            .arg(hfu ? hfuText : mfu, origin, hfu ? mfu : hfuText)
            .arg(t.gpus)
            .arg(nameWithoutVendor(r.gpu), estimate));
    set(Figure::GpuHours, fmt::number(r.time.gpuHours), QString());
    set(Figure::GpuYears, fmt::number(r.time.gpuYears), QString());
    const QString pinnedCost = pinned && pinned->time.costUsd && change && change->cost
                                   ? tr("pinned %1, %2 · ").arg(fmt::usd(*pinned->time.costUsd), signedPercent(*change->cost))
                                   : QString();
    if (r.time.costUsd)
        set(Figure::Cost, fmt::usd(*r.time.costUsd),
            pinnedCost + (r.time.price.origin == PriceOrigin::Catalog
                              ? tr("at %1 per GPU-hour, on demand (%2)").arg(fmt::usd(*r.time.price.usdPerGpuHour), r.time.price.date)
                              : tr("at %1 per GPU-hour (set)").arg(fmt::usd(*r.time.price.usdPerGpuHour))));
    else
        set(Figure::Cost, tr("no price"), tr("the catalog has none for %1: set one").arg(r.gpu.shortName));
    set(Figure::Energy, fmt::energyKwh(r.time.energyKwh),
        tr("%1 × %2 W, no cooling").arg(r.time.gpus).arg(fmt::number(r.gpu.tdpWatts)));
}

void TimePanel::showServing(const Report &r)
{
    const auto set = [this](ServingFigure f, const QString &value, const QString &note) {
        const int i = static_cast<int>(f);
        if (m_values[i]->text() != value)
            m_values[i]->setText(value);
        if (m_notes[i]->text() != note)
            m_notes[i]->setText(note);
    };
    const InferenceReport &inf = *r.inference;
    const Scenario &s = r.scenario;
    const double gpus = static_cast<double>(std::max<std::int64_t>(1, s.gpus));
    const auto tokensPerS = [](double v) { return tr("%1 tok/s").arg(fmt::number(v)); };
    set(ServingFigure::Ttft, fmt::duration(inf.ttftSeconds),
        tr("its prefill of %1 tokens %2 · %3 prompts prefilled a step · prefills take %4 of the GPUs' time")
            .arg(s.promptTokens)
            .arg(fmt::duration(inf.prefillSeconds),
                 fmt::number(static_cast<double>(inf.concurrency) / static_cast<double>(std::max<std::int64_t>(1, s.outputTokens))),
                 fmt::percent(inf.prefillShare, 0)));
    set(ServingFigure::Tpot, fmt::duration(inf.tpotSeconds),
        tr("one decode step of %1 sequences %2 (communication %3) + the batch's prefills %4 a token")
            .arg(fmt::count(inf.concurrency), fmt::duration(inf.decodeStepSeconds), fmt::duration(inf.decodeCommSeconds),
                 fmt::duration(std::max(0.0, inf.tpotSeconds - inf.decodeStepSeconds))));
    set(ServingFigure::EndToEnd, fmt::duration(inf.e2eSeconds),
        tr("TTFT + %1 × TPOT, %2 prompt + %3 output tokens").arg(s.outputTokens - 1).arg(s.promptTokens).arg(s.outputTokens));
    set(ServingFigure::OutputRate, tokensPerS(inf.outputTokensPerS),
        tr("%1 per GPU · replicas: %2 × %3 GPUs")
            .arg(tokensPerS(inf.outputTokensPerSPerGpu), QString::number(inf.replicas), QString::number(inf.replicaGpus)));
    set(ServingFigure::InputRate, tokensPerS(inf.inputTokensPerS),
        tr("%1 per GPU").arg(tokensPerS(inf.inputTokensPerS / gpus)));
    const QString price = r.time.price.usdPerGpuHour ? tr("at %1 per GPU-hour").arg(fmt::usd(*r.time.price.usdPerGpuHour))
                                                     : tr("the catalog has no price for %1: set one").arg(r.gpu.shortName);
    set(ServingFigure::CostOutput,
        inf.costPerMillionOutputTokensUsd ? fmt::usd(*inf.costPerMillionOutputTokensUsd) : tr("no price"),
        tr("decode's share of the GPU time, per million output tokens, %1").arg(price));
    set(ServingFigure::CostInput,
        inf.costPerMillionInputTokensUsd ? fmt::usd(*inf.costPerMillionInputTokensUsd) : tr("no price"),
        tr("prefill's share of the GPU time, per million prompt tokens, %1").arg(price));
    set(ServingFigure::Energy, fmt::energyKwh(inf.energyPerMillionOutputTokensJoules / 3.6e6),
        tr("per million output tokens, all the GPU time (prefills too), %1 × %2 W, no cooling")
            .arg(fmt::count(s.gpus), fmt::number(r.gpu.tdpWatts)));
    set(ServingFigure::KvCapacity, tr("%1 tokens").arg(fmt::compactCount(inf.kvCapacityTokens)),
        tr("per replica · max concurrency %1 sequences of %2 tokens · %3 per token")
            .arg(fmt::count(inf.maxConcurrency))
            .arg(s.promptTokens + s.outputTokens)
            .arg(fmt::bytes(inf.kvBytesPerToken)));
}

void TimePanel::setDragging(bool dragging)
{
    m_chart->setDragging(dragging);
    if (m_servingGpus->isBuilt())
        static_cast<GpuTimeChart *>(m_servingGpus->content())->setDragging(dragging);
}

} // namespace napkin::ui
