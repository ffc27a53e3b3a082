#include "ui/views/stagememorypanel.h"

#include "core/text/layouttext.h"

#include "ui/widgets/barlabels.h"

#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QPen>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {

constexpr std::int64_t kAllStagesUpTo = 32;
constexpr std::int64_t kSampledStages = 16;

QList<std::int64_t> stagesToShow(std::int64_t pp, std::int64_t worst)
{
    QList<std::int64_t> out;
    if (pp <= kAllStagesUpTo) {
        for (std::int64_t i = 0; i < pp; ++i)
            out.append(i);
        return out;
    }
    for (std::int64_t k = 0; k < kSampledStages; ++k)
        out.append(k * (pp - 1) / (kSampledStages - 1));
    if (!out.contains(worst)) {
        // Keep 16: the worst replaces a neighbour, never the first or the last stage.
        out.append(worst);
        std::sort(out.begin(), out.end());
        const qsizetype at = out.indexOf(worst);
        out.removeAt(at + 1 < out.size() - 1 ? at + 1 : at - 1);
    }
    return out;
}

} // namespace

StageMemoryPanel::StageMemoryPanel(QWidget *parent)
    : QWidget(parent),
      m_legend(new LegendStrip(this)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_series(new QStackedBarSeries),
      m_capacity(new QLineSeries),
      m_axisX(new QBarCategoryAxis),
      m_axisY(new QValueAxis)
{
    m_chart->setObjectName(QStringLiteral("stageMemoryChart"));
    m_view->setAccessibleName(tr("Memory per pipeline stage chart"));
    m_view->setMinimumSize(280, 200);
    m_view->setRenderHint(QPainter::Antialiasing, false);
    for (int c = 0; c < kMemoryComponents; ++c) {
        auto *set = new QBarSet(componentName(static_cast<MemoryComponent>(c)));
        set->setColor(palette::component(c));
        set->setBorderColor(palette::component(c).darker(130));
        m_sets[c] = set;
        m_series->append(set);
    }
    m_series->setBarWidth(0.7);
    m_capacity->setPen(QPen(palette::capacity(), 2.5, Qt::DashLine));
    m_chart->addSeries(m_series);
    m_chart->addSeries(m_capacity);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_capacity->attachAxis(m_axisX);
    m_capacity->attachAxis(m_axisY);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_legend->setAccessibleName(tr("Stage memory legend"));
    styleChart(m_chart, font());
    // The stage numbers are drawn by hand: the axis' own labels elide anything wider than a
    // bar (two-digit stages of a 16-stage pipeline at 1280 px read "…"). Its title would sit
    // where they are drawn; the chart's title names the axis, the legend the worst stage.
    m_labels = new BarLabels(m_chart, m_series, m_axisX, {});
    m_axisX->setTitleVisible(false);
    styleLegend(m_legend, font());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    connect(m_view, &ChartView::hovered, this, &StageMemoryPanel::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
}

void StageMemoryPanel::setReport(const Report &report)
{
    m_report = report;
    refresh();
}

void StageMemoryPanel::setByteUnit(ByteUnit unit)
{
    m_unit = unit;
    refresh();
}

void StageMemoryPanel::refresh()
{
    if (!m_report)
        return;
    const MemoryReport &mem = m_report->memory;
    const double unit = bytesPerUnit(m_unit);
    const QList<std::int64_t> shown = stagesToShow(mem.layout.pp, mem.worstStage);
    QStringList labels;
    for (std::int64_t i : shown)
        labels << (i == mem.worstStage ? QStringLiteral("▶%1").arg(i) : QString::number(i));
    double top = 0;
    for (int c = 0; c < kMemoryComponents; ++c) {
        QList<qreal> values;
        for (std::int64_t i : shown)
            values.append(componentBytes(mem.perStage[i].bytes, static_cast<MemoryComponent>(c)) / unit);
        if (shown != m_shown || m_sets[c]->count() != values.size()) {
            m_sets[c]->remove(0, m_sets[c]->count());
            m_sets[c]->append(values);
        } else {
            for (qsizetype k = 0; k < values.size(); ++k)
                if (m_sets[c]->at(k) != values[k])
                    m_sets[c]->replace(k, values[k]);
        }
    }
    for (std::int64_t i : shown)
        top = std::max(top, mem.perStage[i].bytes.total() / unit);
    if (labels != m_axisX->categories())
        m_axisX->setCategories(labels);
    m_labels->setTexts(labels);
    m_shown = shown;
    const double cap = mem.capacity / unit;
    fitNiceRange(m_axisY, std::max(top, cap) * 1.08);
    m_capacity->replace(QList<QPointF>{{-0.5, cap}, {static_cast<double>(shown.size()) - 0.5, cap}});
    const Layout &l = mem.layout;
    const StageMemory &worst = mem.perStage[mem.worstStage];
    setFittingChartTitle(m_chart,
                         shown.size() < l.pp ? tr("Memory per GPU, %1 of %2 pipeline stages (ZeRO %3)").arg(shown.size()).arg(l.pp).arg(mem.zeroStage)
                         : l.dualPipe ? tr("Memory per GPU by pipeline rank (DualPipe, ZeRO %1)").arg(mem.zeroStage)
                                      : tr("Memory per GPU by pipeline stage (ZeRO %1)").arg(mem.zeroStage),
                         tr("Per pipeline stage"));
    setFittingAxisTitle(m_chart, m_axisY, tr("%1 per GPU").arg(fmt::unitName(m_unit)), fmt::unitName(m_unit));
    QList<LegendEntry> legend;
    for (int c = 0; c < kMemoryComponents; ++c) {
        const auto component = static_cast<MemoryComponent>(c);
        if (component == MemoryComponent::Framework && worst.bytes.overheads == 0)
            continue;
        if (component == MemoryComponent::Experts && worst.bytes.experts == 0)
            continue;  // Mixture-of-Experts only
        legend.append({palette::component(c), componentShortName(component)});
    }
    legend.append({palette::capacity(), tr("Capacity %1").arg(fmt::capacity(mem.capacity)), QChar(0x2501)});
    // The worst stage, marked ▶ under its bar; each stage's own figures are on hover.
    legend.append({palette().color(QPalette::WindowText),
                   tr("worst: %1, %2, %3 micro-batches in flight, %4")
                       .arg(pipelineRankText(l, mem.worstStage), fmt::counted(worst.layers, "layer", "layers"))
                       .arg(fmt::number(worst.inFlightMicroBatches))
                       .arg(fmt::bytesIn(worst.bytes.total(), m_unit, 1)),
                   QChar(0x25B6)});
    m_legend->setEntries(legend);
}

void StageMemoryPanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    m_hoverText.clear();
    if (m_report && m_chart->plotArea().contains(chartPos)) {
        const QPointF v = m_chart->mapToValue(chartPos, m_series);
        const int k = static_cast<int>(std::lround(v.x()));
        if (k >= 0 && k < m_shown.size() && std::fabs(v.x() - k) <= m_series->barWidth() / 2) {
            const StageMemory &st = m_report->memory.perStage[m_shown[k]];
            QString who = pipelineRankText(m_report->memory.layout, st.stage);
            who[0] = who[0].toUpper();
            m_hoverText = tr("%1: %2 layers, %3 parameters on this GPU, %4 micro-batches in flight\n"
                             "params %5 + grads %6 + optimizer %7 + experts %12 + activations %8 + framework %9 + reserved %10 = %11")
                              .arg(who).arg(st.layers)
                              .arg(fmt::count(static_cast<std::int64_t>(std::llround(st.params))), fmt::number(st.inFlightMicroBatches),
                                   fmt::bytesIn(st.bytes.params, m_unit, 2), fmt::bytesIn(st.bytes.grads, m_unit, 2),
                                   fmt::bytesIn(st.bytes.optimizerAndMasterWeights, m_unit, 2),
                                   fmt::bytesIn(st.bytes.activations, m_unit, 2), fmt::bytesIn(st.bytes.overheads, m_unit, 2))
                              .arg(fmt::bytesIn(st.bytes.reserved, m_unit, 2), fmt::bytesIn(st.bytes.total(), m_unit, 2),
                                   fmt::bytesIn(st.bytes.experts, m_unit, 2));
        }
    }
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

QStringList StageMemoryPanel::stageLabels() const
{
    return m_labels->texts();
}

void StageMemoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        styleChart(m_chart, font());
        styleLegend(m_legend, font());
        m_labels->restyle();
    }
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
