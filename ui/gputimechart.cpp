#include "gputimechart.h"

#include "barlabels.h"
#include "chartstyle.h"
#include "chartview.h"
#include "gputimes.h"
#include "units.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QBarSeries>
#include <QLegend>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

GpuTimeChart::TimeUnit GpuTimeChart::unitFor(double maxSeconds)
{
    if (maxSeconds < 2 * 3600)
        return {60, QT_TRANSLATE_NOOP("napkin::ui::GpuTimeChart", "minutes")};
    if (maxSeconds < 3 * 86400)
        return {3600, QT_TRANSLATE_NOOP("napkin::ui::GpuTimeChart", "hours")};
    if (maxSeconds < 2 * 365 * 86400)
        return {86400, QT_TRANSLATE_NOOP("napkin::ui::GpuTimeChart", "days")};
    return {365 * 86400, QT_TRANSLATE_NOOP("napkin::ui::GpuTimeChart", "years")};
}

GpuTimeChart::GpuTimeChart(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_chart(new QChart),
      m_view(new ChartView(m_chart, this)),
      m_series(new QBarSeries),
      m_set(new QBarSet(tr("Wall-clock time"))),
      m_axisX(new QBarCategoryAxis),
      m_axisY(new QValueAxis)
{
    m_view->setAccessibleName(tr("Time on every GPU chart"));
    m_chart->setObjectName(QStringLiteral("gpuTimeChart"));
    m_view->scene()->setObjectName(QStringLiteral("gpuTimeScene"));
    m_view->setMinimumSize(260, 200);
    m_view->setRenderHint(QPainter::Antialiasing, false);  // axis-aligned bars and grid only
    // Short names stand under seventeen bars; hover gives the full name and the catalog id.
    QStringList names;
    for (const GpuSpec &g : catalog.gpus) {
        names.append(g.shortName);
        m_set->append(0);
    }
    m_set->setColor(palette::neutral());
    m_set->setBorderColor(palette::neutral().darker(130));
    m_set->setSelectedColor(palette::highlight());
    m_series->append(m_set);
    m_series->setBarWidth(0.75);
    m_chart->addSeries(m_series);
    m_axisX->append(names);
    m_axisX->setGridLineVisible(false);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_chart->legend()->hide();
    m_labels = new BarLabels(m_chart, m_series, m_axisX, names);
    restyle();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    connect(m_view, &ChartView::hovered, this, &GpuTimeChart::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
}

void GpuTimeChart::setReport(const Report &report)
{
    m_report = report;
    const QList<GpuTime> times = timeOnEveryGpu(report, m_catalog);
    m_seconds.clear();
    double maxSeconds = 0;
    int chosen = -1;
    for (int i = 0; i < times.size(); ++i) {
        m_seconds.append(times[i].seconds);
        maxSeconds = std::max(maxSeconds, times[i].seconds);
        if (times[i].gpuId == report.gpu.id)
            chosen = i;
    }
    // While dragging the unit and the axis stay unless the bars leave them.
    const TimeUnit fitted = unitFor(maxSeconds);
    const bool stay = m_unit.name && axisCanStay(maxSeconds * 1.05 / m_secondsPerUnit, m_axisY->max(), m_dragging);
    const TimeUnit unit = stay ? m_unit : fitted;
    m_unit = unit;
    m_secondsPerUnit = unit.seconds;
    for (int i = 0; i < times.size(); ++i) {
        const double v = times[i].seconds / unit.seconds;
        if (m_set->at(i) != v)
            m_set->replace(i, v);
    }
    if (chosen != m_chosen) {
        if (m_chosen >= 0)
            m_set->deselectBar(m_chosen);
        if (chosen >= 0)
            m_set->selectBar(chosen);
        m_chosen = chosen;
    }
    if (!stay) {
        // A whole number of round steps, so the labels are round numbers.
        const double step = niceStep(maxSeconds / unit.seconds * 1.05, 4);
        const double max = std::ceil(maxSeconds / unit.seconds * 1.05 / step) * step;
        if (m_axisY->max() != max || m_axisY->tickInterval() != step) {
            m_axisY->setTickInterval(step);
            m_axisY->setRange(0, max);
        }
    }
    m_axisY->setTitleText(tr(unit.name));
    setChartTitle(m_chart, tr("This run on every GPU (%1 each, %2 %3)")
                               .arg(report.scenario.gpus)
                               .arg(fmt::percent(report.scenario.mfuFraction, 0),
                                    utilizationBasisName(report.scenario.utilizationBasis).toUpper()));
}

void GpuTimeChart::restyle()
{
    styleChart(m_chart, font());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_axisX->setLabelsFont(small);
    m_labels->restyle();
}

void GpuTimeChart::setDragging(bool dragging)
{
    m_dragging = dragging;
    if (!dragging && m_report)
        setReport(*m_report);  // fit unit and axis to the data again
}

std::optional<int> GpuTimeChart::barAt(const QPointF &chartPos) const
{
    if (!m_report || !m_chart->plotArea().contains(chartPos))
        return std::nullopt;
    const QPointF v = m_chart->mapToValue(chartPos, m_series);
    const int bar = static_cast<int>(std::lround(v.x()));
    if (bar < 0 || bar >= m_set->count() || std::fabs(v.x() - bar) > m_series->barWidth() / 2)
        return std::nullopt;
    return bar;
}

void GpuTimeChart::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    const auto index = barAt(chartPos);
    m_hoverText.clear();
    if (index && *index < m_seconds.size()) {
        const GpuSpec &g = m_catalog.gpus[*index];
        QString dtype;
        const double peak = g.peakFor(m_report->memory.recipe.computeDtype, &dtype);
        m_hoverText = tr("%1 (%2): %3\n%4 GPUs × %5 (%6) × %7 MFU\n= training FLOPs %8 ÷ (GPUs × peak × MFU)")
                          .arg(g.name, g.id, fmt::duration(m_seconds[*index])).arg(m_report->scenario.gpus)
                          .arg(fmt::flopRate(peak), dtype, fmt::percent(m_report->scenario.mfuFraction, 0),
                               fmt::sci(m_report->time.trainingFlops));
    }
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

void GpuTimeChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        restyle();
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
