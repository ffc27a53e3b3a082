#include "ui/views/servingmemorypanel.h"

#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/legendstrip.h"
#include "ui/widgets/textstrip.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {

QString partName(ServingMemoryPanel::Part part)
{
    switch (part) {
    case ServingMemoryPanel::Part::Weights: return ServingMemoryPanel::tr("Weights");
    case ServingMemoryPanel::Part::Activations: return ServingMemoryPanel::tr("Activations");
    case ServingMemoryPanel::Part::Reserved: return ServingMemoryPanel::tr("Reserved");
    case ServingMemoryPanel::Part::KvInUse: return ServingMemoryPanel::tr("KV in use");
    case ServingMemoryPanel::Part::KvFree: return ServingMemoryPanel::tr("KV free");
    }
    return {};
}

double partBytes(const ServingMemory &m, ServingMemoryPanel::Part part)
{
    switch (part) {
    case ServingMemoryPanel::Part::Weights: return m.weights;
    case ServingMemoryPanel::Part::Activations: return m.activations;
    case ServingMemoryPanel::Part::Reserved: return m.reserved;
    case ServingMemoryPanel::Part::KvInUse: return m.kvInUse;
    case ServingMemoryPanel::Part::KvFree: return std::max(0.0, m.kvFree());
    }
    return 0;
}

} // namespace

ServingMemoryPanel::ServingMemoryPanel(QWidget *parent)
    : QWidget(parent),
      m_summary(new TextStrip(this)),
      m_legend(new LegendStrip(this)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_series(new QStackedBarSeries),
      m_capacity(new QLineSeries),
      m_usable(new QLineSeries),
      m_axisX(new QBarCategoryAxis),
      m_axisY(new QValueAxis),
      m_total(new QGraphicsSimpleTextItem(m_chart))
{
    m_view->setAccessibleName(tr("Serving memory per GPU chart"));
    m_chart->setObjectName(QStringLiteral("servingMemoryChart"));
    m_view->scene()->setObjectName(QStringLiteral("servingMemoryScene"));
    m_view->setMinimumSize(240, 200);
    m_view->setRenderHint(QPainter::Antialiasing, false);
    m_chart->setTitle(tr("Memory per GPU, serving"));
    for (int i = 0; i < kParts; ++i) {
        auto *set = new QBarSet(partName(static_cast<Part>(i)));
        set->append(0);
        set->setColor(palette::servingPart(i));
        set->setBorderColor(palette::servingPart(i).darker(130));
        m_sets[i] = set;
        m_series->append(set);
    }
    m_series->setBarWidth(0.5);
    m_capacity->setPen(QPen(palette::capacity(), 2.5, Qt::DashLine));
    m_usable->setPen(QPen(palette::capacity().darker(150), 1.5, Qt::DotLine));
    m_capacity->append(QList<QPointF>{{-0.5, 0}, {0.5, 0}});
    m_usable->append(QList<QPointF>{{-0.5, 0}, {0.5, 0}});
    m_chart->addSeries(m_series);
    m_chart->addSeries(m_capacity);
    m_chart->addSeries(m_usable);
    m_axisX->append(QStringLiteral("GPU"));
    m_axisX->setGridLineVisible(false);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(m_series), static_cast<QAbstractSeries *>(m_capacity),
                                    static_cast<QAbstractSeries *>(m_usable)}) {
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    }
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    m_total->setZValue(10);
    m_summary->setAccessibleName(tr("KV cache pool"));
    m_summary->setLines(2);
    m_legend->setAccessibleName(tr("Serving memory legend"));
    restyle();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    connect(m_chart, &QChart::plotAreaChanged, this, &ServingMemoryPanel::placeTotal);
}

void ServingMemoryPanel::setReport(const Report &report)
{
    m_report = report;
    refresh();
}

void ServingMemoryPanel::setByteUnit(ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    refresh();
}

QString ServingMemoryPanel::legendText() const
{
    return m_legend->plainText();
}

void ServingMemoryPanel::refresh()
{
    if (!m_report || !m_report->inference)
        return;
    const InferenceReport &inf = *m_report->inference;
    const ServingMemory &m = inf.memory;
    const double per = bytesPerUnit(m_unit);
    for (int i = 0; i < kParts; ++i) {
        const double v = partBytes(m, static_cast<Part>(i)) / per;
        if (m_sets[i]->at(0) != v)
            m_sets[i]->replace(0, v);
    }
    fitNiceRange(m_axisY, std::max({m.capacity, m.total(), m.usable}) * 1.08 / per);
    m_capacity->replace(QList<QPointF>{{-0.5, m.capacity / per}, {0.5, m.capacity / per}});
    m_usable->replace(QList<QPointF>{{-0.5, m.usable / per}, {0.5, m.usable / per}});
    const QString gpu = inf.replicaGpus > 1 ? tr("%1, 1 of %2").arg(m_report->gpu.shortName).arg(inf.replicaGpus)
                                            : m_report->gpu.shortName;
    if (m_axisX->categories() != QStringList{gpu})
        m_axisX->setCategories({gpu});
    setFittingAxisTitle(m_chart, m_axisY, tr("%1 per GPU").arg(fmt::unitName(m_unit)), fmt::unitName(m_unit));
    const auto bytes = [this](double b) {
        const double v = std::abs(b) / bytesPerUnit(m_unit);
        return fmt::bytesIn(b, m_unit, v < 10 ? 2 : v < 100 ? 1 : 0);
    };
    QList<LegendEntry> legend;
    for (int i = 0; i < kParts; ++i)
        legend.append({palette::servingPart(i), tr("%1 %2").arg(partName(static_cast<Part>(i)), bytes(partBytes(m, static_cast<Part>(i))))});
    legend.append({m_usable->pen().color(), tr("Usable %1 (%2)").arg(bytes(m.usable),
                                                                    fmt::percent(m_report->scenario.gpuMemoryUtilization, 0)),
                   QChar(0x2504)});
    legend.append({palette::capacity(), tr("Capacity %1").arg(fmt::capacity(m.capacity)), QChar(0x2501)});
    m_legend->setEntries(legend);
    m_totalFull = tr("KV pool %1").arg(bytes(m.kvPool));
    m_totalShort = tr("KV %1").arg(bytes(m.kvPool));
    const QString capped = inf.maxConcurrency < inf.kvMaxConcurrency
                               ? tr(" (max_num_seqs; the pool holds %1)").arg(fmt::count(inf.kvMaxConcurrency))
                               : QString();
    m_summary->setText(tr("KV cache: %1 tokens per replica (%2 per token per GPU) · %3 of %4 sequences in flight%5, "
                          "%6 tokens each")
                           .arg(fmt::compactCount(inf.kvCapacityTokens), fmt::bytes(inf.kvBytesPerTokenPerGpu, m_unit))
                           .arg(fmt::count(inf.concurrency))
                           .arg(fmt::count(inf.maxConcurrency))
                           .arg(capped)
                           .arg(m_report->scenario.promptTokens + m_report->scenario.outputTokens));
    placeTotal();
}

void ServingMemoryPanel::placeTotal()
{
    if (!m_report || !m_report->inference)
        return;
    // Beside the bar, level with the middle of the pool. Where "KV pool 1.50 GB" has no room
    // there (large text on a small window, where it had been drawn over the bar), the bar
    // narrows to a third of the plot, then the label drops "pool", then it takes two lines as
    // the bar narrows to a fifth.
    const ServingMemory &m = m_report->inference->memory;
    const double per = bytesPerUnit(m_unit);
    const QRectF area = m_chart->plotArea();
    const QFontMetricsF metrics(m_total->font());
    constexpr double kBarWidth = 0.5;
    const QString twoLines = m_totalShort.section(QLatin1Char(' '), 0, 0) + QLatin1Char('\n')
                             + m_totalShort.section(QLatin1Char(' '), 1);
    QString label;
    double bar = kBarWidth;
    for (const auto &[candidate, narrowest] :
         {std::pair{m_totalFull, 0.33}, std::pair{m_totalShort, 0.25}, std::pair{twoLines, 0.2}}) {
        label = candidate;
        double widest = 0;
        for (const QString &line : candidate.split(QLatin1Char('\n')))
            widest = std::max(widest, metrics.horizontalAdvance(line));
        // One category spans the plot: the bar's fraction of it leaves (1 - bar) / 2 each side.
        const double fits = area.width() > 0 ? 1 - 2 * (widest + 8) / area.width() : kBarWidth;
        bar = std::clamp(fits, narrowest, kBarWidth);
        if (fits >= narrowest)
            break;
    }
    if (m_series->barWidth() != bar)
        m_series->setBarWidth(bar);
    if (m_total->text() != label)
        m_total->setText(label);
    const double middle = (m.weights + m.activations + m.reserved + m.kvPool / 2) / per;
    const QPointF at = m_chart->mapToPosition({m_series->barWidth() / 2, middle}, m_series);
    const QRectF text = m_total->boundingRect();
    const double x = std::min(at.x() + 6, area.right() - text.width() - 2);
    // A thin pool puts its middle next to the usable line: the label then hangs just under the
    // line instead of across it (the capacity line is above the usable one).
    const double usableY = m_chart->mapToPosition({0, m.usable / per}, m_series).y();
    double y = at.y() - text.height() / 2;
    if (y < usableY + 2 && y + text.height() > usableY - 2)
        y = usableY + 2;
    m_total->setPos(std::max(area.left(), x), std::min(y, area.bottom() - text.height()));
}

QString ServingMemoryPanel::poolLabel() const
{
    return m_total->text();
}

QRectF ServingMemoryPanel::poolLabelRect() const
{
    return m_total->mapRectToParent(m_total->boundingRect());
}

double ServingMemoryPanel::barRight() const
{
    return m_chart->mapToPosition({m_series->barWidth() / 2, 0}, m_series).x();
}

void ServingMemoryPanel::restyle()
{
    styleChart(m_chart, font());
    styleLegend(m_legend, font());
    m_total->setFont(m_axisX->labelsFont());
    placeTotal();
}

void ServingMemoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        restyle();
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
