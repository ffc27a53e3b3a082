#include "ui/views/steptimepanel.h"

#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/textstrip.h"
#include "core/text/units.h"

#include <algorithm>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QFontMetricsF>
#include <QHorizontalStackedBarSeries>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <iterator>

namespace napkin::ui {

QColor stepColor(StepComponent c)
{
    // Compute in the op-kind colours of the roofline; communication in purples, the bubble in
    // grey (time nobody uses); the experts' all-to-all in wine, offload traffic in slate, the
    // optimizer in the roofline's optimizer colour.
    static const QColor colors[] = {palette::opKind(static_cast<int>(OpKind::Matmul)),
                                    palette::opKind(static_cast<int>(OpKind::Attention)),
                                    palette::opKind(static_cast<int>(OpKind::Normalization)),
                                    QColor(0x88, 0x44, 0xaa), QColor(0xaa, 0x33, 0x77), QColor(0xcc, 0x99, 0xee),
                                    QColor(0x55, 0x88, 0x88), QColor(0xbb, 0xbb, 0xbb), palette::opKind(static_cast<int>(OpKind::Optimizer))};
    static_assert(std::size(colors) == kStepComponents, "one colour per StepComponent");
    return colors[static_cast<int>(c)];
}

StepTimePanel::StepTimePanel(QWidget *parent)
    : QWidget(parent),
      m_summary(new TextStrip(this)),
      m_run(new TextStrip(this)),
      m_record(new TextStrip(this)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_series(new QHorizontalStackedBarSeries),
      m_axisX(new QValueAxis),
      m_axisY(new QBarCategoryAxis),
      m_legend(new LegendStrip(this))
{
    // The summary is one line, or two where one would cut it (fitTextLines()); the run's two
    // time bases may take two (at large text). The tooltip has the whole text.
    m_summary->setBold(true);
    m_summary->setLines(1);
    m_summary->setTextAsToolTip(true);
    m_summary->setAccessibleName(tr("Estimated step"));
    m_run->setLines(2);
    m_run->setTextAsToolTip(true);
    m_run->setAccessibleName(tr("The run on each time basis"));
    // The estimate's track record against published runs: two or three lines (fitTextLines()),
    // the whole text on hover.
    m_record->setLines(2);
    m_record->setTextAsToolTip(true);
    m_record->setAccessibleName(tr("The estimate's track record"));
    setFittingChartTitle(m_chart, tr("One optimizer step on the slowest stage"), tr("One step"));
    m_chart->setObjectName(QStringLiteral("stepTimeChart"));
    m_view->setAccessibleName(tr("Step-time breakdown chart"));
    m_view->setMinimumSize(280, 140);
    m_view->setRenderHint(QPainter::Antialiasing, false);
    for (int c = 0; c < kStepComponents; ++c) {
        auto *set = new QBarSet(stepComponentName(static_cast<StepComponent>(c)));
        set->append(0);
        set->setColor(stepColor(static_cast<StepComponent>(c)));
        set->setBorderColor(stepColor(static_cast<StepComponent>(c)).darker(130));
        m_sets[c] = set;
        m_series->append(set);
    }
    m_series->setBarWidth(0.6);
    m_chart->addSeries(m_series);
    m_axisY->append(tr("step"));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisX->setTickType(QValueAxis::TicksDynamic);
    m_axisX->setTickAnchor(0);
    m_axisY->setVisible(false);
    m_legend->setAccessibleName(tr("Step-time legend"));
    styleChart(m_chart, font());
    styleLegend(m_legend, font());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_run);
    layout->addWidget(m_record);

    connect(m_chart, &QChart::plotAreaChanged, this, &StepTimePanel::fitTrackRecord);
    connect(m_view, &ChartView::hovered, this, &StepTimePanel::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
}

void StepTimePanel::setDragging(bool dragging)
{
    m_dragging = dragging;
    if (!dragging && m_report)
        setReport(*m_report);  // the release refits the axis
}

void StepTimePanel::setReport(const Report &report)
{
    m_report = report;
    const StepTimeReport &s = report.step;
    // Seconds, milliseconds or microseconds: whichever keeps the step's labels short.
    m_unit = s.stepSeconds >= 1 ? 1 : s.stepSeconds >= 1e-3 ? 1e-3 : 1e-6;
    const QString unitName = m_unit == 1 ? tr("s") : m_unit == 1e-3 ? tr("ms") : tr("µs");
    QList<LegendEntry> legend;
    for (int c = 0; c < kStepComponents; ++c) {
        const auto component = static_cast<StepComponent>(c);
        const double seconds = stepComponentSeconds(s, component);
        if (m_sets[c]->at(0) != seconds / m_unit)
            m_sets[c]->replace(0, seconds / m_unit);
        // Names only: a label whose text changes on every tick relayouts the window; the
        // seconds are in the summary line and on hover.
        legend.append({stepColor(component), stepComponentShortName(component)});
    }
    const double top = s.stepSeconds / m_unit;
    // While a slider is dragged the axis holds still unless the bar leaves it (axisCanStay()).
    if (m_unit != m_axisUnit || !axisCanStay(top, m_axisX->max(), m_dragging)) {
        fitNiceRange(m_axisX, axisTopFor(top, m_dragging));
        m_axisUnit = m_unit;
    }
    // The slowest stage's number is in the summary line above: a title that changes relayouts
    // the whole chart, and the slowest stage can change on every tick of a drag.
    setFittingAxisTitle(m_chart, m_axisX, tr("%1 per optimizer step").arg(unitName), unitName);
    m_legend->setEntries(legend);
    m_summary->setText(stepSummaryText(report));
    // Where two lines would cut the sentence (large text on a tab of its own had read "… MFU
    // 28.5%, HFU 28…"), the figures with fewer words.
    m_summary->setBriefText(stepSummaryText(report, true));
    const QString run = stepRunText(report);
    const QString record = stepTrackRecordText(report);
    m_run->setText(run);
    if (!record.isEmpty())
        m_run->setToolTip(run + QStringLiteral("\n\n") + record);  // the record too, for when it gives way
    m_record->setText(record);
    m_record->setBriefText(stepTrackRecordText(report, true));
    fitTextLines();
}

QString StepTimePanel::legendText() const
{
    return m_legend->plainText();
}

std::optional<StepComponent> StepTimePanel::segmentAt(const QPointF &chartPos) const
{
    if (!m_report || !m_chart->plotArea().contains(chartPos))
        return std::nullopt;
    const QPointF v = m_chart->mapToValue(chartPos, m_series);
    if (std::fabs(v.y()) > m_series->barWidth() / 2 || v.x() < 0)
        return std::nullopt;
    double end = 0;
    for (int c = 0; c < kStepComponents; ++c) {
        end += m_sets[c]->at(0);
        if (v.x() <= end && m_sets[c]->at(0) > 0)
            return static_cast<StepComponent>(c);
    }
    return std::nullopt;
}

void StepTimePanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    const auto segment = segmentAt(chartPos);
    m_hoverText = segment ? stepSegmentText(*m_report, *segment) : QString();
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

void StepTimePanel::fitTrackRecord()
{
    // The track record gives way to the chart: it shows while the plot keeps six lines of its
    // tick labels' text (large text on a short panel hides it; the run line's tooltip keeps it).
    // Each side of the rule counts the record's own height, so showing it cannot hide it again.
    constexpr qreal kReadablePlotLines = 6;
    const qreal line = QFontMetricsF(m_axisX->labelsFont()).height();
    const bool shown = !m_record->isHidden();
    const qreal space = m_record->sizeHint().height() + (layout() ? layout()->spacing() : 0);
    const qreal plotWithRecord = m_chart->plotArea().height() - (shown ? 0 : space);
    const bool fits = plotWithRecord >= kReadablePlotLines * line;
    if (fits != shown)
        m_record->setHidden(!fits);
}

void StepTimePanel::fitTextLines()
{
    if (m_dragging || m_summary->width() <= 1)
        return;
    const int most = m_exporting ? 6 : 2;
    const int lines = std::clamp(m_summary->linesNeeded(m_summary->width()), 1, most);
    if (lines != m_summary->lines())
        m_summary->setLines(lines);
    if (m_exporting) {
        const int runLines = std::clamp(m_run->linesNeeded(m_run->width()), 1, most);
        if (m_run->width() > 1 && runLines != m_run->lines())
            m_run->setLines(runLines);
    }
    // The track record likewise takes a third line where two would cut its sentence
    // (fitTrackRecord() still hides it where the chart needs the room).
    const int recordLines = std::clamp(m_record->linesNeeded(m_record->width()), 2, m_exporting ? most : 3);
    if (m_record->width() > 1 && recordLines != m_record->lines())
        m_record->setLines(recordLines);
}

void StepTimePanel::setExportMode(bool exporting)
{
    m_exporting = exporting;
    fitTextLines();
}

void StepTimePanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitTextLines();
}

void StepTimePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        styleChart(m_chart, font());
        styleLegend(m_legend, font());
        // Once the strips have taken the new font too.
        QTimer::singleShot(0, this, &StepTimePanel::fitTextLines);
    }
    QWidget::changeEvent(event);
}

} // namespace napkin::ui
