#include "ui/views/gputimechart.h"

#include "ui/widgets/barlabels.h"
#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "core/text/units.h"

#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QStackedBarSeries>
#include <QLegend>
#include <QPolygonF>
#include <QToolTip>
#include <QVBoxLayout>
#include <QGraphicsRectItem>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace napkin::ui {

namespace {
constexpr int kFullMark = 0;   // QGraphicsItem::data keys of a bar's mark
constexpr int kShortMark = 1;
} // namespace

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
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_series(new QStackedBarSeries),
      m_set(new QBarSet(tr("Wall-clock time"))),
      m_tooBig(new QBarSet(tr("Wall-clock time, does not fit in memory"))),
      m_axisX(new QValueAxis),
      m_axisY(new QValueAxis)
{
    m_view->setAccessibleName(tr("Time on every GPU chart"));
    m_chart->setObjectName(QStringLiteral("gpuTimeChart"));
    m_view->scene()->setObjectName(QStringLiteral("gpuTimeScene"));
    m_view->setMinimumSize(260, 200);
    m_view->setRenderHint(QPainter::Antialiasing, false);  // axis-aligned bars and grid only
    // Short names stand under one bar per catalog GPU; hover gives the full name and the catalog id.
    QStringList names;
    for (const GpuSpec &g : catalog.gpus) {
        names.append(g.shortName);
        m_set->append(0);
        m_tooBig->append(0);
    }
    m_set->setColor(palette::neutral());
    m_set->setBorderColor(palette::neutral().darker(130));
    m_set->setSelectedColor(palette::highlight());
    // Hatched and grey: told apart by pattern, not by colour alone; the label says it in words.
    m_tooBig->setBrush(QBrush(QColor(0x70, 0x70, 0x70), Qt::BDiagPattern));
    m_tooBig->setBorderColor(QColor(0x70, 0x70, 0x70));
    // Each GPU's bar is in exactly one of the two sets, the other holding 0 there.
    m_series->append(m_set);
    m_series->append(m_tooBig);
    m_series->setBarWidth(0.75);
    m_chart->addSeries(m_series);
    // A value axis, not a category axis: its labels are hidden (BarLabels draws the names), but
    // Qt Charts measures and truncates every category label on each relayout of the chart, and
    // each change of the cost axis relaid all of them (one per catalog GPU) out during a drag.
    m_axisX->setRange(-0.5, static_cast<double>(names.size()) - 0.5);
    m_axisX->setTickCount(2);
    m_axisX->setGridLineVisible(false);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_labels = new BarLabels(m_chart, m_series, m_axisX, names);
    for (int i = 0; i < names.size(); ++i) {
        auto *mark = new QGraphicsSimpleTextItem(m_chart);
        mark->setRotation(-90);  // reads upwards from the axis, one narrow column per bar
        mark->setZValue(11);
        // Behind a mark written over a bar: the plot's own background under the letters.
        auto *backing = new QGraphicsRectItem(mark);
        backing->setFlag(QGraphicsItem::ItemStacksBehindParent);
        backing->setPen(Qt::NoPen);
        backing->hide();
        m_marks.append(mark);
        m_markBackings.append(backing);
    }
    connect(m_chart, &QChart::plotAreaChanged, this, &GpuTimeChart::placeMarks);
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
    if (report.inference) {
        m_times.clear();
        showServing(report);
        return;
    }
    m_serving.clear();
    m_times = timeOnEveryGpu(report, m_catalog);
    double maxSeconds = 0;
    int chosen = -1;
    for (int i = 0; i < m_times.size(); ++i) {
        const GpuTime &t = m_times[i];
        maxSeconds = std::max(maxSeconds, t.seconds);
        if (t.gpuId == report.gpu.id)
            chosen = i;
        const QString mark = !t.hasPeak ? tr("no %1 peak").arg(t.missingDtype)
                             : t.fits ? QString()
                                      : tr("does not fit (%1)").arg(fmt::bytes(t.memoryBytes, ByteUnit::GiB));
        m_marks[i]->setData(kFullMark, mark);
        m_marks[i]->setData(kShortMark, !t.hasPeak ? tr("no peak") : t.fits ? QString() : tr("no fit"));
    }
    // While dragging the unit and the axis stay unless the bars leave them.
    const TimeUnit fitted = unitFor(maxSeconds);
    const bool stay = m_unit.name && axisCanStay(maxSeconds * 1.05 / m_secondsPerUnit, m_axisY->max(), m_dragging);
    const TimeUnit unit = stay ? m_unit : fitted;
    m_unit = unit;
    m_secondsPerUnit = unit.seconds;
    QList<double> values;
    QList<bool> fit;
    for (const GpuTime &t : std::as_const(m_times)) {
        values << t.seconds / unit.seconds;
        fit << t.fits;
    }
    // An axis stays when no GPU has a peak for the dtype (the chosen one always has:
    // computeReport refuses otherwise).
    showBars(values, fit, chosen, stay ? 0 : (maxSeconds > 0 ? axisTopFor(maxSeconds / unit.seconds * 1.05, m_dragging) : 1));
    setFittingAxisTitle(m_chart, m_axisY, tr(unit.name), tr(unit.name));
    // The dtype rule in the title (GpuSpec::peakFor()): "bf16/fp16 peak", or "fp32 peak only";
    // kept to one plain line, which the layout tests measure whole.
    // Utilisation is quoted against the GEMMs' peak: fp8 under FP8 (TimeReport::peakFlopsPerS).
    const QStringList accepted = acceptedPeakDtypes(report.memory.recipe.matmulDtype());
    const QString rule = accepted.size() > 1 ? tr("%1 peak").arg(accepted.join(QLatin1Char('/')))
                                             : tr("%1 peak only").arg(accepted.first());
    // Under the estimated basis each bar is that GPU's estimated step (calibrated where the
    // scenario is), not the utilisation set.
    const QString utilization = report.time.timeBasis != TimeBasis::Estimated
                                    ? tr("%1 %2").arg(fmt::percent(report.scenario.utilizationFraction, 0),
                                                      utilizationBasisName(report.scenario.utilizationBasis).toUpper())
                                : report.scenario.calibration ? tr("estimated, calibrated")
                                                              : tr("estimated step");
    setFittingChartTitle(m_chart, {tr("Every GPU (×%1, %2, %3)").arg(report.scenario.gpus).arg(utilization, rule),
                                   tr("×%1, %2, %3").arg(report.scenario.gpus).arg(utilization, accepted.join(QLatin1Char('/'))),
                                   tr("×%1, %2").arg(report.scenario.gpus).arg(utilization)});
    placeMarks();
}

void GpuTimeChart::showServing(const Report &report)
{
    m_serving = servingOnEveryGpu(report, m_catalog);
    double maxCost = 0;
    int chosen = -1;
    QList<double> values;
    QList<bool> fit;
    for (int i = 0; i < m_serving.size(); ++i) {
        const GpuServing &g = m_serving[i];
        if (g.gpuId == report.gpu.id)
            chosen = i;
        const double cost = g.costPerMillionOutputTokensUsd.value_or(0);
        maxCost = std::max(maxCost, cost);
        values << cost;
        fit << true;
        const QString mark = !g.hasPeak ? tr("no bf16 peak")
                             : !g.served ? tr("does not fit (%1)").arg(fmt::bytes(g.memoryBytes, ByteUnit::GiB))
                             : !g.costPerMillionOutputTokensUsd ? tr("no price")
                                                                : QString();
        m_marks[i]->setData(kFullMark, mark);
        m_marks[i]->setData(kShortMark, !g.hasPeak ? tr("no peak") : !g.served ? tr("no fit")
                                                                   : !g.costPerMillionOutputTokensUsd ? tr("no $")
                                                                                                       : QString());
    }
    m_unit = {};
    m_secondsPerUnit = 1;
    const bool stay = axisCanStay(maxCost * 1.05, m_axisY->max(), m_dragging);
    showBars(values, fit, chosen, stay ? 0 : (maxCost > 0 ? axisTopFor(maxCost * 1.05, m_dragging) : 1));
    setFittingAxisTitle(m_chart, m_axisY, tr("$ per million output tokens"), tr("$ / 1M tokens"));
    setFittingChartTitle(m_chart, {tr("Every GPU: cost per million output tokens (×%1, concurrency %2)")
                                       .arg(report.scenario.gpus).arg(fmt::count(report.inference->concurrency)),
                                   tr("$ per 1M output tokens (×%1)").arg(report.scenario.gpus),
                                   tr("$ per 1M tokens (×%1)").arg(report.scenario.gpus)});
    placeMarks();
}

void GpuTimeChart::showBars(const QList<double> &values, const QList<bool> &fit, int chosen, double top)
{
    for (int i = 0; i < values.size(); ++i) {
        const double fitting = fit[i] ? values[i] : 0;
        const double tooBig = fit[i] ? 0 : values[i];
        if (m_set->at(i) != fitting)
            m_set->replace(i, fitting);
        if (m_tooBig->at(i) != tooBig)
            m_tooBig->replace(i, tooBig);
    }
    if (chosen != m_chosen) {
        // The chosen GPU: its bar in the highlight colour, and ▶ before its name as on the
        // memory chart, which still shows when its bar is hatched (the run does not fit it).
        if (m_chosen >= 0) {
            m_set->deselectBar(m_chosen);
            m_labels->setText(m_chosen, m_catalog.gpus[m_chosen].shortName);
        }
        if (chosen >= 0) {
            m_set->selectBar(chosen);
            m_labels->setText(chosen, QStringLiteral("▶") + m_catalog.gpus[chosen].shortName);
        }
        m_chosen = chosen;
    }
    if (top > 0)
        fitNiceRange(m_axisY, top, 4);  // a whole number of round steps: round labels
}

QStringList GpuTimeChart::marks() const
{
    QStringList out;
    for (const QGraphicsSimpleTextItem *mark : m_marks)
        out << mark->data(kFullMark).toString();
    return out;
}

QRectF GpuTimeChart::markRect(int i) const
{
    return m_marks.value(i) ? m_marks[i]->mapRectToParent(m_marks[i]->boundingRect()) : QRectF();
}

bool GpuTimeChart::markBacked(int i) const
{
    return i >= 0 && i < m_markBackings.size() && m_markBackings[i]->isVisible();
}

void GpuTimeChart::placeMarks()
{
    const QRectF area = m_chart->plotArea();
    // Written upwards, a mark stands on its bar's top where it fits there (a hatched bar under
    // the text made it hard to read); else it starts on the axis, over the bar, on a backing of
    // its own. Every mark takes one form, the first that all of them fit in: the full text on
    // the bars, the short one on the bars, the short one anywhere, else a cross (the tooltip
    // always has the whole story). Mixed forms read as different states: "no fit" beside
    // "does not fit (16.0 GiB)".
    const int count = static_cast<int>(m_marks.size());
    QList<double> barTops(count, area.bottom());
    for (int i = 0; i < count && !area.isEmpty(); ++i)
        barTops[i] = std::clamp(m_chart->mapToPosition(QPointF(i, m_set->at(i) + m_tooBig->at(i)), m_series).y(),
                                area.top(), area.bottom());
    // Where the names under the bars are thinned (every second one drawn), a mark over a bar
    // without its name says whose it is: "H800: no price" beside an unnamed slot had read as
    // its neighbour's.
    const QList<QPolygonF> names = m_labels->labelShapes();
    const auto textOf = [this, &names](int i, MarkForm form) {
        const QString full = m_marks[i]->data(kFullMark).toString();
        if (full.isEmpty())
            return QString();
        const QString text = form == MarkForm::Full    ? full
                             : form == MarkForm::Brief ? m_marks[i]->data(kShortMark).toString()
                                                       : QStringLiteral("✗");
        const bool named = i >= names.size() || !names[i].isEmpty();
        return named || form == MarkForm::Cross ? text : tr("%1: %2").arg(m_catalog.gpus[i].shortName, text);
    };
    const auto fitsOnBar = [&](int i, const QString &text) {
        return markWidth(m_marks[i], text) <= barTops[i] - area.top() - 6;
    };
    const auto fitsOnAxis = [&](int i, const QString &text) {
        return markWidth(m_marks[i], text) <= area.bottom() - area.top() - 6;
    };
    MarkForm form = MarkForm::Cross;
    bool onBarsOnly = false;
    for (const auto &[candidate, barsOnly] : {std::pair{MarkForm::Full, true}, std::pair{MarkForm::Brief, true},
                                              std::pair{MarkForm::Brief, false}}) {
        bool all = true;
        for (int i = 0; i < count && all; ++i) {
            const QString text = textOf(i, candidate);
            all = text.isEmpty() || fitsOnBar(i, text) || (!barsOnly && fitsOnAxis(i, text));
        }
        if (all) {
            form = candidate;
            onBarsOnly = barsOnly;
            break;
        }
    }
    // Each mark is a line of text wide: where bars stand closer than that (large text on a
    // small window), a mark that would touch the one before it is left out, its hatched bar
    // and its tooltip saying the same.
    double lastRight = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
        QGraphicsSimpleTextItem *mark = m_marks[i];
        QString shown = textOf(i, form);
        const bool onBar = onBarsOnly || (!shown.isEmpty() && fitsOnBar(i, shown));
        const double x = m_chart->mapToPosition(QPointF(i, 0), m_series).x();
        const double half = QFontMetricsF(mark->font()).height() / 2;
        if (!shown.isEmpty() && x - half < lastRight + 1)
            shown.clear();
        if (!shown.isEmpty())
            lastRight = x + half;
        if (mark->text() != shown)
            mark->setText(shown);
        QGraphicsRectItem *backing = m_markBackings[i];
        const bool backed = !shown.isEmpty() && !onBar && barTops[i] < area.bottom() - 1;
        backing->setVisible(backed);
        if (shown.isEmpty() || area.isEmpty())
            continue;
        if (backed)
            backing->setRect(mark->boundingRect().adjusted(-1, 0, 1, 0));
        // Turned -90°, the text's height lies along x: centre it on the bar, start above the axis.
        mark->setPos(x - mark->boundingRect().height() / 2, (onBar ? barTops[i] : area.bottom()) - 3);
    }
}

QStringList GpuTimeChart::shownMarks() const
{
    QStringList out;
    for (const QGraphicsSimpleTextItem *mark : m_marks)
        out << mark->text();
    return out;
}

double GpuTimeChart::markWidth(const QGraphicsSimpleTextItem *mark, const QString &text) const
{
    // Every relayout of the chart places the marks again, several times in a mode switch;
    // the same few texts ("no fit", "does not fit (80 GB)") are measured once per font.
    auto it = m_markWidths.constFind(text);
    if (it == m_markWidths.cend())
        it = m_markWidths.insert(text, QFontMetricsF(mark->font()).horizontalAdvance(text));
    return *it;
}

int GpuTimeChart::widthForTiltedNames() const
{
    const QRectF plot = m_chart->plotArea();
    // Before the first layout, room for a tick label and the axis title.
    const double beside = plot.width() > 0 ? m_view->width() - plot.width() : 6.0 * fontMetrics().height();
    return static_cast<int>(std::ceil(m_labels->plotWidthFor(45) + beside));
}

void GpuTimeChart::restyle()
{
    styleChart(m_chart, font());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_axisX->setLabelsFont(small);
    m_labels->restyle();
    for (QGraphicsSimpleTextItem *mark : m_marks) {
        mark->setFont(small);
        mark->setBrush(m_axisX->labelsBrush());
    }
    const QBrush plot = m_chart->isPlotAreaBackgroundVisible() ? m_chart->plotAreaBackgroundBrush() : m_chart->backgroundBrush();
    for (QGraphicsRectItem *backing : m_markBackings)
        backing->setBrush(plot);
    m_markWidths.clear();
    placeMarks();
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
    if (index && *index < m_serving.size())
        m_hoverText = servingHover(*index);
    if (index && *index < m_times.size()) {
        const GpuSpec &g = m_catalog.gpus[*index];
        const GpuTime &t = m_times[*index];
        const QString dtype = t.missingDtype;
        const QString basis = utilizationBasisName(m_report->scenario.utilizationBasis).toUpper();
        if (!t.hasPeak) {
            m_hoverText = tr("%1 (%2): no time\nThe catalog lists no %3 peak for it; a %3 recipe is never "
                             "timed at another dtype's rate")
                              .arg(g.name, g.id, acceptedPeakDtypes(dtype).join(tr(" or ")));
        } else {
            const bool hfu = m_report->scenario.utilizationBasis == UtilizationBasis::Hfu;
            m_hoverText = tr("%1 (%2): %3\n%4 GPUs × %5 (%6) × %7 %8\n= %9 FLOPs %10 ÷ (GPUs × peak × %8)")
                              .arg(g.name, g.id, fmt::duration(t.seconds)).arg(m_report->scenario.gpus)
                              .arg(fmt::flopRate(t.peakFlopsPerS), t.peakDtype,
                                   fmt::percent(m_report->scenario.utilizationFraction, 0), basis,
                                   hfu ? tr("hardware") : tr("model"),
                                   fmt::sci(hfu ? m_report->time.hardwareFlops : m_report->time.trainingFlops));
            m_hoverText += t.costUsd ? tr("\nCost %1 at %2 per GPU-hour (%3)")
                                           .arg(fmt::usd(*t.costUsd), fmt::usd(*t.price.usdPerGpuHour),
                                                priceOriginText(t.price))
                                     : tr("\nCost: no price in the catalog");
        }
        m_hoverText += t.fits ? tr("\nMemory: fits, %1 of %2 per GPU")
                                    .arg(fmt::bytes(t.neededBytes, ByteUnit::GiB), fmt::bytes(t.memoryBytes, ByteUnit::GiB))
                              : tr("\nMemory: does not fit (needs %1 per GPU, has %2)")
                                    .arg(fmt::bytes(t.neededBytes, ByteUnit::GiB), fmt::bytes(t.memoryBytes, ByteUnit::GiB));
    }
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

QString GpuTimeChart::servingHover(int index) const
{
    const GpuSpec &g = m_catalog.gpus[index];
    const GpuServing &v = m_serving[index];
    if (!v.served)
        return tr("%1 (%2): does not serve this scenario\n%3").arg(g.name, g.id, v.reason);
    QString text = tr("%1 (%2): %3 output tokens/s at concurrency up to %4, %5 per output token")
                       .arg(g.name, g.id, fmt::number(v.outputTokensPerS)).arg(fmt::count(v.maxConcurrency))
                       .arg(fmt::duration(v.tpotSeconds));
    text += v.costPerMillionOutputTokensUsd
                ? tr("\nCost %1 per million output tokens at %2 per GPU-hour (%3)")
                      .arg(fmt::usd(*v.costPerMillionOutputTokensUsd), fmt::usd(*v.price.usdPerGpuHour),
                           priceOriginText(v.price))
                : tr("\nCost: no price in the catalog");
    return text;
}

void GpuTimeChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        restyle();
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
