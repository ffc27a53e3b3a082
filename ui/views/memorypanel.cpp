#include "ui/views/memorypanel.h"

#include "ui/widgets/banner.h"
#include "ui/views/fitfix.h"
#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "core/report/gputimes.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QToolButton>
#include <QHBoxLayout>
#include <QChart>
#include <QEvent>
#include <QGridLayout>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {

/// The fit banner's lines: two (the verdict, then the largest micro-batch or the fix), and up to
/// four where a fix needs them to be read whole.
constexpr int kBannerLines = 2;
constexpr int kMostBannerLines = 4;

QString stageLabel(int stage, bool chosen, bool compact = false)
{
    // The bars name their stage; the axis title only explains the marker.
    // No-break spaces: Qt Charts wraps a category label at a space, and the second line is
    // elided away when the plot is short. No space after the ▶ either: a label holding one is
    // elided even when it would fit. Compact (a plot too narrow for the names): the number
    // alone, the axis title saying what it counts.
    const QString name = compact ? QString::number(stage) : MemoryPanel::tr("ZeRO\u00A0%1").arg(stage);
    return chosen ? QStringLiteral("▶") + name : name;
}

} // namespace

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent),
      m_banner(new Banner(this)),
      m_focusButton(new QToolButton(this)),
      m_fix(new FitFix(this)),
      m_legend(new LegendStrip(this)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_series(new QStackedBarSeries),
      m_capacity(new QLineSeries),
      m_pinned(new QLineSeries),
      m_axisX(new QBarCategoryAxis),
      m_axisY(new QValueAxis)
{
    m_banner->setAccessibleName(tr("Fits in GPU memory"));
    m_banner->setToolTip(tr("Whether the chosen ZeRO stage fits in one GPU's memory"));
    m_view->setAccessibleName(tr("Memory per GPU chart"));
    m_view->scene()->setObjectName(QStringLiteral("memoryScene"));
    m_view->setToolTip(QString());
    m_view->setMinimumSize(280, 220);
    // Bars and grid lines are axis-aligned: antialiasing them only costs time. Text keeps its own.
    m_view->setRenderHint(QPainter::Antialiasing, false);
    m_chart->setTitle(tr("Memory per GPU"));
    m_chart->setObjectName(QStringLiteral("memoryChart"));
    buildSeries();
    buildAxes();
    m_legend->setAccessibleName(tr("Memory chart legend"));
    styleChart(m_chart, font());
    styleLegend(m_legend, font());
    for (QGraphicsSimpleTextItem *total : m_totals)
        total->setFont(m_axisX->labelsFont());
    buildFocusMenu();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_top = new QGridLayout;
    m_top->setContentsMargins(0, 0, 0, 0);
    m_top->setSpacing(layout->spacing());
    m_top->setColumnStretch(0, 1);
    placeTopRow(false);
    connect(m_fix, &FitFix::suggestionChanged, this, [this] {
        if (m_report)
            updateBanner();
    });
    connect(m_fix, &FitFix::applyRequested, this, &MemoryPanel::fixChosen);
    layout->addLayout(m_top);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);

    connect(m_chart, &QChart::plotAreaChanged, this, &MemoryPanel::fitStageLabels);
    connect(m_chart, &QChart::plotAreaChanged, this, &MemoryPanel::makeRoomForTotals);
    connect(m_chart, &QChart::plotAreaChanged, this, &MemoryPanel::placeTotals);
    connect(m_view, &ChartView::hovered, this, &MemoryPanel::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
}

void MemoryPanel::buildSeries()
{
    for (int c = 0; c < kMemoryComponents; ++c) {
        auto *set = new QBarSet(componentName(static_cast<MemoryComponent>(c)));
        set->append(QList<qreal>{0, 0, 0, 0});
        set->setColor(palette::component(c));
        set->setBorderColor(palette::component(c).darker(130));
        set->setSelectedColor(palette::faded(palette::component(c)));
        m_sets[c] = set;
        m_series->append(set);
    }
    m_series->setBarWidth(0.6);
    m_capacity->append(QList<QPointF>{{-0.5, 0}, {3.5, 0}});
    m_capacity->setPen(QPen(palette::capacity(), 2.5, Qt::DashLine));
    // The pinned baseline: each stage's total as a dashed outline over the bars.
    m_pinned->setName(tr("Pinned baseline"));
    m_pinned->setPen(QPen(palette::neutral().darker(160), 2, Qt::DashLine));
    m_pinned->setVisible(false);
    m_chart->addSeries(m_series);
    m_chart->addSeries(m_capacity);
    m_chart->addSeries(m_pinned);
}

void MemoryPanel::buildAxes()
{
    m_axisX->append({stageLabel(0, false), stageLabel(1, false), stageLabel(2, false), stageLabel(3, false)});
    // Totals sit above the bars as plain text items: changing axis labels on every update
    // would relayout the whole chart.
    for (auto *&total : m_totals) {
        total = new QGraphicsSimpleTextItem(m_chart);
        total->setZValue(10);
    }
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    setFittingAxisTitle(m_chart, m_axisX, tr("▶ marks the chosen ZeRO stage"), QString());
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_capacity->attachAxis(m_axisX);
    m_capacity->attachAxis(m_axisY);
    m_pinned->attachAxis(m_axisX);
    m_pinned->attachAxis(m_axisY);
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
}

void MemoryPanel::buildFocusMenu()
{
    // A small button with a menu: a combo box wide enough for its longest choice would take
    // the fits banner's room at large text.
    auto *focusMenu = new QMenu(m_focusButton);
    auto *focusGroup = new QActionGroup(m_focusButton);
    const QString focusNames[] = {tr("All stages (up to the tallest bar)"),
                                  tr("Chosen stage and capacity (taller bars cut, marked ↑)"),
                                  tr("Chosen stage only (its split readable)")};
    for (int i = 0; i < 3; ++i) {
        QAction *a = focusMenu->addAction(focusNames[i]);
        a->setCheckable(true);
        a->setChecked(i == 0);
        focusGroup->addAction(a);
        m_focusActions.append(a);
        connect(a, &QAction::triggered, this, [this, i] { setAxisFocus(static_cast<AxisFocus>(i)); });
    }
    m_focusButton->setMenu(focusMenu);
    m_focusButton->setPopupMode(QToolButton::InstantPopup);
    m_focusButton->setText(tr("Axis"));
    m_focusButton->setAccessibleName(tr("Memory axis range"));
    m_focusButton->setToolTip(tr("What the memory axis spans: all stages, the chosen stage and the GPU's "
                                 "capacity, or the chosen stage only"));
}

void MemoryPanel::setReport(const Report &report)
{
    m_report = report;
    m_fix->setReport(report);
    refresh();
}

void MemoryPanel::setByteUnit(ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_fix->setByteUnit(unit);
    refresh();
}

void MemoryPanel::setAxisFocus(AxisFocus focus)
{
    m_focusActions[static_cast<int>(focus)]->setChecked(true);
    if (focus == m_focus)
        return;
    m_focus = focus;
    const bool dragging = m_dragging;
    m_dragging = false;  // the axis must move now, whatever a drag would allow
    refresh();
    m_dragging = dragging;
}

void MemoryPanel::setToolbarVisible(bool visible)
{
    m_focusButton->setVisible(visible);
    m_fix->setActive(visible);
    arrangeTopRow();
}

QString MemoryPanel::totalText(int stage) const
{
    return stage >= 0 && stage < kZeroStages ? m_totals[stage]->text() : QString();
}

QString MemoryPanel::legendText() const
{
    return m_legend->plainText();
}

void MemoryPanel::setDragging(bool dragging)
{
    m_dragging = dragging;
    if (!dragging)
        refresh();  // fit the axis to the data again
}

void MemoryPanel::refresh()
{
    if (!m_report)
        return;
    const double per = bytesPerUnit(m_unit);
    updateBars(per);
    fitValueAxis(wantedAxisMax(per));
    updateStageTotals(per);
    markChosenStage();
    updatePinnedOutline(per);
    updateCapacityLine(per);
    updateLegend();
    setFittingAxisTitle(m_chart, m_axisY, tr("%1 per GPU").arg(fmt::unitName(m_unit)), fmt::unitName(m_unit));
    placeTotals();
    updateBanner();
}

void MemoryPanel::updateBars(double per)
{
    const MemoryReport &mem = m_report->memory;
    for (int stage = 0; stage < kZeroStages; ++stage) {
        const MemoryBreakdown &b = mem.byZeroStage[static_cast<std::size_t>(stage)];
        for (int c = 0; c < kMemoryComponents; ++c) {
            const double v = componentBytes(b, static_cast<MemoryComponent>(c)) / per;
            if (m_sets[c]->at(stage) != v)
                m_sets[c]->replace(stage, v);
        }
    }
}

double MemoryPanel::wantedAxisMax(double per) const
{
    const MemoryReport &mem = m_report->memory;
    const MemoryBreakdown &chosenStage = mem.perGpu;
    double top = m_focus == AxisFocus::ChosenStage ? chosenStage.total() : std::max(mem.capacity, chosenStage.total());
    if (const Report *pinned = m_report->baseline.get())
        top = std::max(top, m_focus == AxisFocus::AllStages ? pinned->memory.byZeroStage[0].total()
                                                            : pinned->memory.perGpu.total());
    if (m_focus == AxisFocus::AllStages)
        for (const MemoryBreakdown &b : mem.byZeroStage)
            top = std::max(top, b.total());
    // Room above the tallest bar and the capacity line for a total's line of text: 8% of the
    // axis, or more where the text is large beside the plot (at text x2 on a 1024x768 window
    // the line of 85.9 GB ran through the totals under it).
    const double plot = m_chart->plotArea().height();
    const double text = QFontMetricsF(m_totals[0]->font()).height() + 6;
    const double headroom = plot > 0 ? std::clamp(text / plot, 0.075, 0.4) : 0.075;
    return (top > 0 ? top : mem.capacity) / (1 - headroom) / per;
}

void MemoryPanel::makeRoomForTotals()
{
    // A plot grown short for its text (a resize, larger text) widens the axis's headroom; it
    // never narrows it here, so that the axis does not swing as the labels settle.
    if (!m_report || m_dragging)
        return;
    const double per = bytesPerUnit(m_unit);
    const double wanted = wantedAxisMax(per);
    if (wanted <= m_axisY->max())
        return;
    fitValueAxis(wanted);
    updateStageTotals(per);
    placeTotals();
}

void MemoryPanel::fitValueAxis(double wanted)
{
    if (!axisCanStay(wanted, m_axisY->max(), m_dragging))
        fitNiceRange(m_axisY, axisTopFor(wanted, m_dragging));
}

void MemoryPanel::updateStageTotals(double per)
{
    const MemoryReport &mem = m_report->memory;
    for (int stage = 0; stage < kZeroStages; ++stage) {
        const MemoryBreakdown &b = mem.byZeroStage[static_cast<std::size_t>(stage)];
        // A bar taller than a focused axis is cut at the top: its total says so with ↑.
        const bool cut = b.total() / per > m_axisY->max();
        const QString total = (cut ? QStringLiteral("↑ ") : QString()) + fmt::bytesIn(b.total(), m_unit, 1);
        m_totalFull[stage] = total;
        m_totalShort[stage] = total.chopped(fmt::unitName(m_unit).size() + 1);
    }
    relabelStages();
}

void MemoryPanel::relabelStages()
{
    const int chosen = m_report ? m_report->memory.zeroStage : -1;
    QStringList labels;
    for (int stage = 0; stage < kZeroStages; ++stage)
        labels << stageLabel(stage, stage == chosen, m_compactStages);
    if (labels != m_axisX->categories())
        m_axisX->setCategories(labels);
}

void MemoryPanel::fitStageLabels()
{
    // Large text on a small window leaves each bar less room than "▶ZeRO 0" takes: Qt Charts
    // would elide it to "▶Ze…", which names no stage. The bars then carry their stage's number
    // and the axis title says what it counts. The room is the plot's width, which the labels
    // do not change, so the choice cannot flip back and forth.
    const qreal room = m_chart->plotArea().width() / kZeroStages;
    if (room <= 0)
        return;
    const QFontMetricsF metrics(m_axisX->labelsFont());
    const bool compact = metrics.horizontalAdvance(stageLabel(0, true)) + 2 * metrics.averageCharWidth() > room;
    if (compact == m_compactStages)
        return;
    m_compactStages = compact;
    setFittingAxisTitle(m_chart, m_axisX, compact ? tr("ZeRO stage (▶ the chosen one)") : tr("▶ marks the chosen ZeRO stage"),
                        compact ? tr("ZeRO stage") : QString());
    relabelStages();
}

void MemoryPanel::markChosenStage()
{
    const int chosen = m_report->memory.zeroStage;
    if (m_markedStage == chosen)
        return;
    m_markedStage = chosen;
    QList<int> others;
    for (int stage = 0; stage < kZeroStages; ++stage)
        if (stage != chosen)
            others.append(stage);
    for (QBarSet *set : m_sets) {
        set->deselectAllBars();
        set->selectBars(others);
    }
}

void MemoryPanel::updatePinnedOutline(double per)
{
    const Report *pinned = m_report->baseline.get();
    // Outline of each pinned stage total: up, across the bar's width, down, along the axis.
    QList<QPointF> outline;
    if (pinned) {
        const double half = m_series->barWidth() / 2;
        for (int stage = 0; stage < kZeroStages; ++stage) {
            const double t = pinned->memory.byZeroStage[static_cast<std::size_t>(stage)].total() / per;
            outline << QPointF(stage - half, 0) << QPointF(stage - half, t) << QPointF(stage + half, t)
                    << QPointF(stage + half, 0);
        }
    }
    if (outline != m_pinned->points())
        m_pinned->replace(outline);
    m_pinned->setVisible(pinned != nullptr);
}

void MemoryPanel::updateCapacityLine(double per)
{
    const MemoryReport &mem = m_report->memory;
    const double cap = mem.capacity / per;
    // Above a focused axis the line is out of sight; the legend still names the capacity.
    m_capacity->setVisible(cap <= m_axisY->max());
    if (m_capacity->at(0).y() != cap)
        m_capacity->replace(QList<QPointF>{{-0.5, cap}, {3.5, cap}});
    m_capacity->setName(tr("Capacity %1").arg(fmt::bytesIn(mem.capacity, m_unit, 1)));
}

void MemoryPanel::updateLegend()
{
    const MemoryReport &mem = m_report->memory;
    const MemoryBreakdown &chosenStage = mem.perGpu;
    // The legend carries the chosen stage's figures: the model state (what ZeRO shards) is
    // summed after the optimizer, then activations and the reserved margin, then the total.
    // Four significant figures, at most three decimals: 0.248, 13.23, 1,146 - a legend that
    // stays two lines with the framework's segment at large text sizes.
    const auto bytes = [this](double b) {
        const double v = std::abs(b) / bytesPerUnit(m_unit);
        const int decimals = v < 10 ? 3 : v < 100 ? 2 : v < 1000 ? 1 : 0;
        return fmt::bytesIn(b, m_unit, decimals);
    };
    // The framework's segment is named wherever a bar holds some (ZeRO-3's gathers): ZeRO 3's
    // orange block had stood unnamed beside a chosen ZeRO 0.
    const bool anyFramework = std::any_of(mem.byZeroStage.begin(), mem.byZeroStage.end(),
                                          [](const MemoryBreakdown &b) { return b.overheads > 0; });
    QList<LegendEntry> legend;
    for (int c = 0; c < kMemoryComponents; ++c) {
        const auto component = static_cast<MemoryComponent>(c);
        if (component == MemoryComponent::Framework && !anyFramework)
            continue;  // named only when a stage holds some (ZeRO-3, or a margin set)
        if (component == MemoryComponent::Experts && chosenStage.experts == 0)
            continue;  // Mixture-of-Experts only
        // Where only other stages hold the framework's segment, its name alone keys the colour
        // (a figure of 0 would take a legend line from the plot at large text).
        const bool nameOnly = component == MemoryComponent::Framework && chosenStage.overheads == 0;
        legend.append({palette::component(c),
                       nameOnly ? componentShortName(component)
                                : tr("%1 %2").arg(componentShortName(component), bytes(componentBytes(chosenStage, component)))});
        if (component == MemoryComponent::Experts || (component == MemoryComponent::Optimizer && chosenStage.experts == 0))
            legend.append({palette::neutral(), tr("= model state %1").arg(bytes(chosenStage.modelState())), QChar()});
    }
    // The pinned baseline's dashed outlines are named on the dashboard's "vs pinned" line.
    legend.append({palette::neutral(), tr("= total %1").arg(bytes(chosenStage.total())), QChar()});
    legend.append({palette::capacity(), tr("Capacity %1").arg(fmt::capacity(mem.capacity)),
                   QChar(0x2501)});
    // Offloaded state is not on the GPU's bars: the legend names where it went.
    if (m_report->scenario.offload != Offload::None)
        legend.append({palette::neutral(), tr("offloaded to CPU: %1 per GPU, %2 per node")
                                               .arg(bytes(mem.perGpu.cpu), bytes(mem.cpuPerNode)), QChar()});

    m_legend->setEntries(legend);
}

void MemoryPanel::updateBanner()
{
    const MemoryReport &mem = m_report->memory;
    const MemoryBreakdown &chosen = mem.perGpu;
    const QString used = fmt::bytesIn(chosen.total(), m_unit, 1);
    const QString capText = fmt::bytesIn(mem.capacity, m_unit, 1);
    const QString share = fmt::percent(chosen.total() / mem.capacity, 0);
    QString batch;
    const double state = chosen.total() - chosen.activations;
    if (state > mem.capacity)
        batch = tr(" · model state alone exceeds the GPU");
    else if (mem.maxMicroBatch && *mem.maxMicroBatch <= 0)
        batch = tr(" · not even one sequence per GPU fits");
    else if (mem.maxMicroBatch && mem.fits)
        batch = tr(" · micro-batch fits up to %1").arg(*mem.maxMicroBatch);
    else if (mem.maxMicroBatch)
        batch = tr(" · would fit at micro-batch %1 or less").arg(*mem.maxMicroBatch);
    m_banner->setToolTip(tr("Whether the chosen ZeRO stage fits in one GPU's memory"));
    m_banner->setBriefText(QString());  // a fix's brief form, only while that fix is shown
    if (mem.fits) {
        m_banner->showMessage(Banner::Level::Good, tr("✔ FITS at ZeRO %1: %2 of %3 (%4)%5")
                                                       .arg(mem.zeroStage).arg(used, capText, share, batch));
    } else {
        QString hint;
        for (int stage = mem.zeroStage + 1; stage < kZeroStages; ++stage)
            if (mem.byZeroStage[static_cast<std::size_t>(stage)].total() <= mem.capacity) {
                hint = tr(" · ZeRO %1 would fit").arg(stage);
                break;
            }
        // The fix, once it has arrived, on a line of its own beside its Apply button; both
        // options in the tooltip.
        const QString fix = m_fix->appliedText();
        if (!fix.isEmpty()) {
            // Short, so that it keeps to the first line in a narrow panel.
            const auto withFix = [&](const QString &change) {
                return tr("✘ DOES NOT FIT: %1 of %2\nFits with %3").arg(used, capText, change);
            };
            m_banner->showMessage(Banner::Level::Bad, withFix(fix));
            // Where even the banner's most lines cannot hold the change, its first two parts and
            // "…", so that the memory and the step stay (large text in a narrow panel).
            m_banner->setBriefText(withFix(m_fix->appliedText(2)));
            m_banner->setToolTip(wrappingToolTip(tr("Does not fit at ZeRO %1: needs %2, the GPU has %3 (%4).\nFits with %5.")
                                                     .arg(mem.zeroStage).arg(used, capText, share, m_fix->fixText())));
            arrangeTopRow();
            return;
        }
        m_banner->showMessage(Banner::Level::Bad, tr("✘ DOES NOT FIT at ZeRO %1: needs %2, GPU has %3 (%4)%5%6")
                                                      .arg(mem.zeroStage).arg(used, capText, share, hint, batch));
    }
    arrangeTopRow();
}

void MemoryPanel::placeTotals()
{
    const QRectF area = m_chart->plotArea();
    // Totals wider than the room between two bars drop their unit, which the axis title
    // names: at large text on a small window "55.9 GB" over one bar ran into "50.8 GB" over
    // the next.
    const double pitch = m_chart->mapToPosition({1, 0}, m_series).x() - m_chart->mapToPosition({0, 0}, m_series).x();
    const QFontMetricsF metrics(m_totals[0]->font());
    double widest = 0;
    for (const QString &text : m_totalFull)
        widest = std::max(widest, metrics.horizontalAdvance(text));
    const bool withUnit = widest + metrics.averageCharWidth() <= pitch;
    for (int stage = 0; stage < kZeroStages; ++stage) {
        const QString &text = withUnit ? m_totalFull[stage] : m_totalShort[stage];
        if (m_totals[stage]->text() != text)
            m_totals[stage]->setText(text);
    }
    QRectF previous;
    for (int stage = 0; stage < kZeroStages; ++stage) {
        QGraphicsSimpleTextItem *item = m_totals[stage];
        double top = 0;
        for (int c = 0; c < kMemoryComponents; ++c)
            top += m_sets[c]->at(stage);
        const QPointF anchor = m_chart->mapToPosition({static_cast<double>(stage), top}, m_series);
        const QRectF text = item->boundingRect();
        double y = std::max(area.top(), anchor.y() - text.height() - 2);
        // A total that would sit on the capacity line moves above it, where both stay readable.
        if (m_capacity->isVisible()) {
            const double line = m_chart->mapToPosition({0, m_capacity->at(0).y()}, m_capacity).y();
            if (line >= y - 1 && line <= y + text.height() + 1)
                y = std::max(area.top(), line - text.height() - 3);
        }
        // Still too close to the total before it (bars of about the same height, little room):
        // this one stands above that one.
        const QRectF here(anchor.x() - text.width() / 2, y, text.width(), text.height());
        if (here.adjusted(-1, -1, 1, 1).intersects(previous))
            y = std::max(area.top(), previous.top() - text.height() - 1);
        item->setPos(anchor.x() - text.width() / 2, y);
        previous = item->mapRectToParent(item->boundingRect());
    }
}

QList<QRectF> MemoryPanel::totalRects() const
{
    QList<QRectF> rects;
    for (const QGraphicsSimpleTextItem *item : m_totals)
        rects << item->mapRectToParent(item->boundingRect());
    return rects;
}

std::optional<MemoryPanel::Segment> MemoryPanel::segmentAt(const QPointF &chartPos) const
{
    if (!m_report || !m_chart->plotArea().contains(chartPos))
        return std::nullopt;
    const QPointF v = m_chart->mapToValue(chartPos, m_series);
    const int stage = static_cast<int>(std::lround(v.x()));
    if (stage < 0 || stage >= kZeroStages || std::fabs(v.x() - stage) > m_series->barWidth() / 2 || v.y() < 0)
        return std::nullopt;
    double base = 0;
    for (int c = 0; c < kMemoryComponents; ++c) {
        base += m_sets[c]->at(stage);
        if (v.y() <= base)
            return Segment{stage, static_cast<MemoryComponent>(c)};
    }
    return std::nullopt;
}

void MemoryPanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    const auto segment = segmentAt(chartPos);
    m_hoverText = segment ? memorySegmentText(*m_report, segment->zeroStage, segment->component, m_unit) : QString();
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

void MemoryPanel::placeTopRow(bool stacked)
{
    // Beside the banner, Apply and Axis: under it where they would cut its fix short (large
    // text in a narrow panel had shown "✘ DOES NOT FIT: 848.6 GB …" and lost the fix's line).
    m_stackedTop = stacked;
    for (QWidget *w : {static_cast<QWidget *>(m_banner), static_cast<QWidget *>(m_fix), static_cast<QWidget *>(m_focusButton)})
        m_top->removeWidget(w);
    if (stacked) {
        m_top->addWidget(m_banner, 0, 0, 1, 3);
        m_top->addWidget(m_fix, 1, 1, Qt::AlignTop);
        m_top->addWidget(m_focusButton, 1, 2, Qt::AlignTop);
    } else {
        m_top->addWidget(m_banner, 0, 0);
        m_top->addWidget(m_fix, 0, 1, Qt::AlignTop);
        m_top->addWidget(m_focusButton, 0, 2, Qt::AlignTop);
    }
}

void MemoryPanel::arrangeTopRow()
{
    int beside = 0;
    for (const QWidget *w : {static_cast<const QWidget *>(m_fix), static_cast<const QWidget *>(m_focusButton)})
        if (w->isVisibleTo(this))
            beside += w->sizeHint().width() + m_top->spacing();
    // Only with a fix offered: its line is what the banner would lose, and a row of buttons
    // under a banner that fits costs the chart a line of its height for the Axis menu alone.
    const int aside = m_banner->linesNeeded(width() - beside);
    const int whole = m_banner->linesNeeded(width());
    const bool fix = m_fix->isVisibleTo(this);
    const bool stacked = fix && aside > kBannerLines && whole < aside;
    if (stacked != m_stackedTop)
        placeTopRow(stacked);
    // The fix is never cut: a new layout named dimension by dimension ("tp 2 · pp 2 (vpp 7) ·
    // cp 4 · SP · ZeRO 2 · selective recompute: 76.2 GB, step 9.10 s") had been elided before
    // its memory and step, even at 1920 px. The banner takes the lines it needs, up to four;
    // otherwise it keeps its two, so that a run crossing the capacity does not move the chart.
    const int needed = stacked ? whole : aside;
    int lines = fix ? std::clamp(needed, kBannerLines, kMostBannerLines) : kBannerLines;
    if (fix && needed > kMostBannerLines) {
        // The brief text stands in (TextStrip::setBriefText): the lines it needs.
        const int room = stacked ? width() : width() - beside;
        lines = std::clamp(m_banner->linesNeededFor(m_banner->briefText(), room), kBannerLines, kMostBannerLines);
    }
    if (lines != m_banner->lines())
        m_banner->setLines(lines);
}

void MemoryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeTopRow();
}

void MemoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        styleChart(m_chart, font());
        styleLegend(m_legend, font());
        for (QGraphicsSimpleTextItem *total : m_totals)
            total->setFont(m_axisX->labelsFont());
        placeTotals();
    }
    QWidget::changeEvent(event);
}


} // namespace napkin::ui
