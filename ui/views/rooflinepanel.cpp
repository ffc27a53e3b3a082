#include "ui/views/rooflinepanel.h"

#include "ui/widgets/chartstyle.h"
#include "ui/widgets/chartview.h"
#include "ui/widgets/elidingcombobox.h"
#include "core/text/explain.h"
#include "core/report/gputimes.h"
#include "ui/widgets/logzoom.h"
#include "core/text/units.h"

#include <QChart>
#include <QComboBox>
#include <QEvent>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace napkin::ui {

namespace {

/// Log axes have no place for an op without FLOPs (intensity 0): it moves data only.
bool onLogScale(const RooflineOp &op)
{
    return op.intensity > 0 && op.attainableFlopsPerS > 0;
}

// The roof is drawn far past any visible range so that panning never reveals its ends.
constexpr double kRoofMinIntensity = 1e-6;
constexpr double kRoofMaxIntensity = 1e9;
constexpr double kHoverRadiusPx = 9;
constexpr double kUnit = RooflinePanel::kFlopsPerAxisUnit;

QList<QPointF> roofPoints(double peak, double bandwidth)
{
    const double ridge = peak / bandwidth;
    return {{kRoofMinIntensity, bandwidth * kRoofMinIntensity / kUnit}, {ridge, peak / kUnit},
            {kRoofMaxIntensity, peak / kUnit}};
}
} // namespace

RooflinePanel::RooflinePanel(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_toolbar(new QWidget(this)),
      m_reset(new QPushButton(tr("Reset view"), m_toolbar)),
      m_overlayBox(new ElidingComboBox(m_toolbar)),
      m_legend(new LegendStrip(this)),
      m_chart(newChart()),
      m_view(new ChartView(m_chart, this)),
      m_axisX(new QLogValueAxis),
      m_axisY(new QLogValueAxis),
      m_roof(new QLineSeries),
      m_gemmRoof(new QLineSeries),
      m_ridge(new QScatterSeries),
      m_overlay(new QLineSeries),
      m_pinned(new QScatterSeries),
      m_overlayOps(new QScatterSeries),
      m_overlayRidge(new QScatterSeries)
{
    buildToolbar();
    buildAxes();
    buildRoofs();
    buildOpSeries();
    m_zoom = new LogZoom(m_view, m_roof, m_axisX, m_axisY, kUnit);
    m_legend->setAccessibleName(tr("Roofline legend"));
    // Its entries change with the mode (kinds of op against prefill and decode) and with the
    // figures of a drag: the strip keeps its rows, so the chart above keeps its size.
    m_legend->setKeepsRows(true);
    m_legend->setToolTip(tr("Step: the bottom-up time of one micro-batch on one GPU, each op at max(FLOPs / peak, bytes / bandwidth). Implied MFU: the model FLOPs of that step over that time at peak. The % after each kind: its share of the step."));
    restyle();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_toolbar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);

    connectControls();
}

void RooflinePanel::buildToolbar()
{
    m_reset->setToolTip(tr("Fit the axes to the roof and every op again after zooming or panning"));
    m_reset->setAccessibleName(tr("Reset roofline view"));
    m_overlayBox->setToolTip(tr("Draw a second GPU's roofline for comparison"));
    m_overlayBox->setAccessibleName(tr("Compare with GPU"));
    m_overlayBox->addItem(tr("No comparison"), QString());
    for (const GpuSpec &g : m_catalog.gpus)
        m_overlayBox->addItem(nameWithoutVendor(g), g.id);
    auto *hint = new QLabel(tr("wheel: zoom · drag: pan · hover: details"), m_toolbar);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *bar = new QHBoxLayout(m_toolbar);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_reset);
    m_compareLabel = new QLabel(tr("Compare with:"), m_toolbar);
    bar->addWidget(m_compareLabel);
    bar->addWidget(m_overlayBox);
    bar->addStretch(1);
    bar->addWidget(hint);
}

void RooflinePanel::buildAxes()
{
    m_view->setAccessibleName(tr("Roofline chart"));
    m_chart->setObjectName(QStringLiteral("rooflineChart"));
    m_view->scene()->setObjectName(QStringLiteral("rooflineScene"));
    m_view->setMinimumSize(320, 240);
    m_axisX->setBase(10);
    m_axisY->setBase(10);
    keepLogLabelsAlike(m_axisX);
    keepLogLabelsAlike(m_axisY);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    setFittingAxisTitle(m_chart, m_axisX, tr("Arithmetic intensity (FLOPs per byte moved)"), tr("FLOPs per byte"));
    setFittingAxisTitle(m_chart, m_axisY, tr("Attainable TFLOP/s"), tr("TFLOP/s"));
}

void RooflinePanel::addToAxes(QXYSeries *series)
{
    m_chart->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
}

void RooflinePanel::buildRoofs()
{
    m_overlay->setPen(QPen(QColor(0x80, 0x80, 0x80), 2, Qt::DashLine));
    m_overlay->append(roofPoints(1, 1));
    m_overlay->setVisible(false);
    addToAxes(m_overlay);
    m_roof->setPen(QPen(QColor(0x20, 0x20, 0x20), 2.5));
    m_roof->append(roofPoints(1, 1));
    addToAxes(m_roof);
    // In the matmuls' colour: the roof that only the GEMM markers sit under.
    m_gemmRoof->setPen(QPen(palette::opKind(static_cast<int>(OpKind::Matmul)), 2.5, Qt::DashLine));
    m_gemmRoof->append(roofPoints(1, 1));
    m_gemmRoof->setVisible(false);
    addToAxes(m_gemmRoof);
}

// The series are added in drawing order: comparison points under the chosen GPU's ops, the
// ridge on top.
void RooflinePanel::buildOpSeries()
{
    for (int k = 0; k < kOpKinds; ++k) {
        const OpMarker marker = opMarker(k);
        m_ops[k] = new QScatterSeries;
        m_ops[k]->setName(opKindTitle(static_cast<OpKind>(k)));
        m_ops[k]->setMarkerShape(marker.shape);
        if (marker.hollow) {
            m_ops[k]->setColor(Qt::transparent);
        } else {
            m_ops[k]->setColor(palette::opKind(k));
            m_ops[k]->setBorderColor(Qt::white);
        }
    }
    buildComparisonSeries();
    // Serving: each phase in a colour and shape of its own, whatever the op's kind.
    const QScatterSeries::MarkerShape shapes[2] = {QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeTriangle};
    const QColor colors[2] = {palette::prefill(), palette::decode()};
    for (int p = 0; p < 2; ++p) {
        m_phases[p] = new QScatterSeries;
        m_phases[p]->setName(phaseName(p == 0 ? Phase::Prefill : Phase::Decode));
        m_phases[p]->setMarkerShape(shapes[p]);
        m_phases[p]->setColor(colors[p]);
        m_phases[p]->setBorderColor(Qt::white);
        addToAxes(m_phases[p]);
    }
    // Hollow markers first, so that a filled one on the same point is drawn inside them.
    for (bool hollow : {true, false})
        for (int k = 0; k < kOpKinds; ++k)
            if (opMarker(k).hollow == hollow)
                addToAxes(m_ops[k]);
    m_ridge->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_ridge->setColor(palette::capacity());
    m_ridge->setBorderColor(Qt::black);
    m_ridge->append(1, 1);
    addToAxes(m_ridge);
}

void RooflinePanel::buildComparisonSeries()
{
    // The pinned baseline's ops, under everything else: hollow grey circles.
    m_pinned->setName(tr("Pinned baseline's ops"));
    m_pinned->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_pinned->setMarkerSize(16);
    m_pinned->setColor(Qt::transparent);
    m_pinned->setBorderColor(palette::neutral().darker(160));
    m_pinned->setPen(QPen(palette::neutral().darker(160), 1.5));
    m_pinned->setVisible(false);
    addToAxes(m_pinned);
    // The compared GPU's ops and ridge: small grey points under the chosen GPU's.
    const QColor compared(0x80, 0x80, 0x80);
    m_overlayOps->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_overlayOps->setMarkerSize(7);
    m_overlayOps->setColor(compared);
    m_overlayOps->setBorderColor(Qt::white);
    m_overlayOps->setVisible(false);
    addToAxes(m_overlayOps);
    m_overlayRidge->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_overlayRidge->setMarkerSize(11);
    m_overlayRidge->setColor(Qt::white);
    m_overlayRidge->setBorderColor(compared);
    m_overlayRidge->setPen(QPen(compared, 2.5));
    m_overlayRidge->setVisible(false);
    addToAxes(m_overlayRidge);
}

void RooflinePanel::connectControls()
{
    connect(m_reset, &QPushButton::clicked, this, &RooflinePanel::resetView);
    connect(m_overlayBox, &QComboBox::activated, this,
            [this](int index) { setOverlayGpu(m_overlayBox->itemData(index).toString()); });
    connect(m_view, &ChartView::hovered, this, &RooflinePanel::showHover);
    connect(m_view, &ChartView::left, this, [this] {
        m_hoverText.clear();
        QToolTip::hideText();
    });
    connect(m_zoom, &LogZoom::changed, this, &RooflinePanel::viewChanged);
}

void RooflinePanel::setToolbarVisible(bool visible)
{
    m_toolbar->setVisible(visible);
}

void RooflinePanel::setReport(const Report &report)
{
    m_report = report;
    const RooflineReport &r = report.roofline;
    QList<QPointF> points[kOpKinds];
    QList<QPointF> phasePoints[2];
    for (QList<int> &map : m_pointOps)
        map.clear();
    for (QList<int> &map : m_phasePointOps)
        map.clear();
    const bool serving = report.inference.has_value();
    double minX = r.ridgeIntensity;
    double maxX = r.ridgeIntensity;
    double minY = r.peakFlopsPerS;
    m_offScale.clear();
    for (int i = 0; i < r.ops.size(); ++i) {
        const RooflineOp &op = r.ops[i];
        const int k = static_cast<int>(op.kind);
        if (!onLogScale(op)) {
            // Data movement alone (MoE's token permute): no place on log axes, named in the legend.
            if (!m_offScale.contains(op.name))
                m_offScale.append(op.name);
            continue;
        }
        if (serving) {
            const int p = op.phase == Phase::Decode ? 1 : 0;
            phasePoints[p].append({op.intensity, op.attainableFlopsPerS / kUnit});
            m_phasePointOps[p].append(i);
        } else {
            points[k].append({op.intensity, op.attainableFlopsPerS / kUnit});
            m_pointOps[k].append(i);
        }
        minX = std::min(minX, op.intensity);
        maxX = std::max(maxX, op.intensity);
        minY = std::min(minY, op.attainableFlopsPerS);
    }
    for (int k = 0; k < kOpKinds; ++k)
        m_ops[k]->replace(points[k]);
    for (int p = 0; p < 2; ++p)
        m_phases[p]->replace(phasePoints[p]);
    m_computeBound.clear();
    if (serving) {
        const double from = report.inference->decodeGemmsComputeBoundFrom;
        const std::int64_t most = report.inference->maxConcurrency;
        // Past what the KV pool holds, the crossover is a fact of the GPU that this run cannot reach.
        m_computeBound = from <= 0 ? tr("decode's GEMMs are never compute-bound here")
                         : from > static_cast<double>(most)
                             ? (most < report.inference->kvMaxConcurrency
                                    ? tr("decode's GEMMs compute-bound from ≈ %1 sequences (max_num_seqs runs %2)")
                                    : tr("decode's GEMMs compute-bound from ≈ %1 sequences (only %2 fit)"))
                                   .arg(fmt::number(from), fmt::count(most))
                             : tr("decode's GEMMs are compute-bound from ≈ %1 sequences").arg(fmt::number(from));
    }
    QList<QPointF> pinned;
    if (report.baseline) {
        for (const RooflineOp &op : report.baseline->roofline.ops) {
            if (!onLogScale(op))
                continue;
            pinned.append({op.intensity, op.attainableFlopsPerS / kUnit});
            minX = std::min(minX, op.intensity);
            maxX = std::max(maxX, op.intensity);
            minY = std::min(minY, op.attainableFlopsPerS);
        }
    }
    m_pinned->replace(pinned);
    m_pinned->setVisible(!pinned.isEmpty());
    m_ridge->replace(0, r.ridgeIntensity, r.peakFlopsPerS / kUnit);
    m_ridge->setName(tr("Ridge %1 FLOPs/B").arg(fmt::number(r.ridgeIntensity)));
    const QString dtypes = r.twoRoofs() ? tr("%1, %2 GEMMs").arg(r.peakDtype, r.gemmPeakDtype) : r.peakDtype;
    // Shorter forms for a narrow chart (large text on a small window): the GPU without its
    // dtypes, then the kind of chart alone (the GPU is in the summary above it).
    const QString gpuName = nameWithoutVendor(report.gpu);
    setFittingChartTitle(m_chart, serving ? QStringList{tr("Roofline, serving: %1 (%2)").arg(gpuName, dtypes),
                                                        tr("Roofline, serving: %1").arg(gpuName), tr("Roofline, serving")}
                                          : QStringList{tr("Roofline: %1 (%2)").arg(gpuName, dtypes),
                                                        tr("Roofline: %1").arg(gpuName), tr("Roofline")});
    m_fitX = LogRange::decadesAround(minX, r.twoRoofs() ? std::max(maxX, r.gemmRidgeIntensity) : maxX, 0.25);
    m_fitY = LogRange::decadesAround(minY, std::max(r.peakFlopsPerS, r.gemmPeakFlopsPerS), 0.25);
    refreshRoofs();
}

RooflineReport RooflinePanel::servingRoofline(const GpuSpec &other) const
{
    // The same serving scenario on the compared GPU, on its own links; where it does not serve
    // (the pool is empty there), its roof alone.
    Scenario s = m_report->scenario;
    s.gpuId = other.id;
    const Interconnect *up = m_catalog.findInterconnect(other.scaleUpId);
    const Interconnect *net = m_catalog.findInterconnect(s.interconnectId.isEmpty() ? other.scaleOutId : s.interconnectId);
    if (up && net)
        if (const auto served = computeInference(s, other, *up, *net); served.ok())
            return served->roofline;
    RooflineReport roof;
    roof.peakFlopsPerS = other.peakFor(QStringLiteral("bf16")).value_or(1);
    roof.bandwidthBytesPerS = other.memoryBandwidthBytesPerS;
    roof.ridgeIntensity = roof.peakFlopsPerS / roof.bandwidthBytesPerS;
    return roof;
}

void RooflinePanel::refreshRoofs()
{
    if (!m_report)
        return;
    const RooflineReport &r = m_report->roofline;
    m_roof->replace(roofPoints(r.peakFlopsPerS, r.bandwidthBytesPerS));
    m_roof->setName(r.twoRoofs() ? tr("Roof (%3): %1, %2").arg(fmt::flopRate(r.peakFlopsPerS),
                                                                fmt::bandwidth(r.bandwidthBytesPerS), r.peakDtype)
                                 : tr("Roof: %1, %2").arg(fmt::flopRate(r.peakFlopsPerS), fmt::bandwidth(r.bandwidthBytesPerS)));
    m_gemmRoof->setVisible(r.twoRoofs());
    if (r.twoRoofs()) {
        m_gemmRoof->replace(roofPoints(r.gemmPeakFlopsPerS, r.bandwidthBytesPerS));
        m_gemmRoof->setName(tr("GEMM roof (%1): %2, ridge %3 FLOPs/B")
                                .arg(r.gemmPeakDtype, fmt::flopRate(r.gemmPeakFlopsPerS), fmt::number(r.gemmRidgeIntensity)));
    }
    const GpuSpec *other = m_overlayId.isEmpty() ? nullptr : m_catalog.findGpu(m_overlayId);
    LogRange fitY = m_fitY;  // a second roof above the first raises the top
    m_overlayStep.clear();
    QString dtype;
    // A GPU without a peak for the recipe's dtype gets no roof (never one from another dtype).
    const Recipe &recipe = m_report->memory.recipe;
    const auto otherPeak = other ? other->peakFor(recipe.computeDtype, &dtype) : std::nullopt;
    if (!otherPeak || !hasRecipePeaks(*other, recipe))
        other = nullptr;
    if (other) {
        // The same step on the compared GPU: its roof, its ridge and where its ops land.
        const RooflineReport o = m_report->inference ? servingRoofline(*other)
                                                     : computeRoofline(m_report->scenario, m_report->memory.recipe, *other,
                                                                       optimizerParams(m_report->scenario, m_report->layout,
                                                                                       stageParams(m_report->memory),
                                                                                       stageExpertParams(m_report->memory)),
                                                                       m_report->step.stage);
        m_overlay->replace(roofPoints(o.peakFlopsPerS, o.bandwidthBytesPerS));
        m_overlay->setName(tr("%1: %2, %3").arg(nameWithoutVendor(*other), fmt::flopRate(o.peakFlopsPerS),
                                                fmt::bandwidth(o.bandwidthBytesPerS)));
        QList<QPointF> points;
        for (const RooflineOp &op : o.ops)
            if (onLogScale(op))
                points.append({op.intensity, op.attainableFlopsPerS / kUnit});
        m_overlayOps->replace(points);
        m_overlayOps->setName(tr("%1 ops").arg(other->shortName));
        m_overlayRidge->replace(QList<QPointF>{{o.ridgeIntensity, o.peakFlopsPerS / kUnit}});
        m_overlayRidge->setName(tr("%1 ridge %2 FLOPs/B").arg(other->shortName, fmt::number(o.ridgeIntensity)));
        m_overlayStep = stepSummary(o, other->shortName);
        fitY.hi = std::max(fitY.hi, LogRange::decadesAround(o.peakFlopsPerS, o.peakFlopsPerS, 0.25).hi);
        double lowest = o.peakFlopsPerS;
        for (const RooflineOp &op : o.ops)
            if (onLogScale(op))
                lowest = std::min(lowest, op.attainableFlopsPerS);
        fitY.lo = std::min(fitY.lo, LogRange::decadesAround(lowest, o.peakFlopsPerS, 0.25).lo);
    }
    m_overlay->setVisible(other != nullptr);
    m_overlayOps->setVisible(other != nullptr);
    m_overlayRidge->setVisible(other != nullptr);
    m_zoom->setFit(m_fitX, fitY);
    refreshLegend();
}

void RooflinePanel::refreshLegend()
{
    QList<LegendEntry> entries;
    if (m_report && m_report->inference) {
        refreshServingLegend(entries);
        return;
    }
    if (m_report) {
        // With a pinned baseline the step entry also names its hollow circles and its step.
        QString step = stepSummary(m_report->roofline);
        if (m_report->baseline && m_pinned->isVisible())
            step += tr(" (○ pinned: %1)").arg(fmt::duration(m_report->baseline->roofline.stepSeconds));
        entries.append({palette::neutral(), step, QChar()});
    }
    entries.append({m_roof->pen().color(), m_roof->name(), QChar(0x2501)});
    if (m_gemmRoof->isVisible())
        entries.append({m_gemmRoof->pen().color(), m_gemmRoof->name(), QChar(0x254D)});
    if (m_overlay->isVisible()) {
        entries.append({m_overlay->pen().color(), m_overlay->name(), QChar(0x254D)});
        entries.append({m_overlayOps->color(), m_overlayOps->name(), QChar(0x25CF)});
        entries.append({m_overlayRidge->borderColor(), m_overlayRidge->name(), QChar(0x25A1)});
        entries.append({palette::neutral(), m_overlayStep, QChar()});
    }
    entries.append({m_ridge->color(), m_ridge->name()});

    // Each kind with its share of the bottom-up step time; the first says of what, since the
    // time panel beside it gives attention's share of the FLOPs, a different figure.
    const QList<double> shares = m_report ? kindStepShares(m_report->roofline) : QList<double>(kOpKinds, 0.0);
    for (int k = 0; k < kOpKinds; ++k)
        entries.append({palette::opKind(k),
                        (k == 0 ? tr("%1 %2 of the step") : tr("%1 %2")).arg(m_ops[k]->name(), fmt::percent(shares[k], 0)),
                        opMarker(k).glyph});
    // Last, so that no kind's share reads as one more name of its list.
    appendOffScale(entries);
    m_legend->setEntries(entries);
}

void RooflinePanel::refreshServingLegend(QList<LegendEntry> &entries)
{
    const InferenceReport &inf = *m_report->inference;
    entries.append({palette::prefill(), tr("prefill: one request's %1 prompt tokens, %2")
                                            .arg(m_report->scenario.promptTokens).arg(fmt::duration(inf.prefillSeconds)),
                    QChar(0x25CF)});
    entries.append({palette::decode(), tr("decode: one token for %1 sequences, %2")
                                           .arg(fmt::count(inf.concurrency)).arg(fmt::duration(inf.decodeStepSeconds)),
                    QChar(0x25B2)});
    entries.append({palette::neutral(), m_computeBound, QChar()});
    entries.append({m_roof->pen().color(), m_roof->name(), QChar(0x2501)});
    if (m_gemmRoof->isVisible())
        entries.append({m_gemmRoof->pen().color(), m_gemmRoof->name(), QChar(0x254D)});
    if (m_overlay->isVisible()) {
        entries.append({m_overlay->pen().color(), m_overlay->name(), QChar(0x254D)});
        if (m_overlayOps->isVisible())
            entries.append({m_overlayOps->color(), m_overlayOps->name(), QChar(0x25CF)});
    }
    entries.append({m_ridge->color(), m_ridge->name()});
    appendOffScale(entries);
    m_legend->setEntries(entries);
}

void RooflinePanel::appendOffScale(QList<LegendEntry> &entries) const
{
    if (m_offScale.isEmpty())
        return;
    // ⊘: an entry of its own, not a tail of the one before; each op an entry after it, so that
    // a long list wraps between names rather than being cut ("…, expert chunk…" for a MoE).
    entries.append({palette::neutral(), tr("not drawn, 0 FLOPs (data movement only):"), QChar(0x2298)});
    for (qsizetype i = 0; i < m_offScale.size(); ++i)
        entries.append({palette::neutral(), i + 1 < m_offScale.size() ? m_offScale[i] + QLatin1Char(',') : m_offScale[i], QChar()});
}

void RooflinePanel::setOverlayGpu(const QString &gpuId)
{
    m_overlayId = gpuId;
    const int index = m_overlayBox->findData(gpuId);
    m_overlayBox->setCurrentIndex(std::max(0, index));
    refreshRoofs();
    emit viewChanged();
}

void RooflinePanel::setRanges(const std::optional<LogRange> &x, const std::optional<LogRange> &y)
{
    m_zoom->setUserRanges(x, y);
}

void RooflinePanel::resetView()
{
    m_zoom->reset();
}

std::optional<LogRange> RooflinePanel::xRange() const
{
    return m_zoom->userX();
}

std::optional<LogRange> RooflinePanel::yRange() const
{
    return m_zoom->userY();
}

QPointF RooflinePanel::opPosition(int opIndex) const
{
    const RooflineOp &op = m_report->roofline.ops[opIndex];
    QScatterSeries *series = m_report->inference ? m_phases[op.phase == Phase::Decode ? 1 : 0]
                                                       : m_ops[static_cast<int>(op.kind)];
    return m_chart->mapToPosition({op.intensity, op.attainableFlopsPerS / kUnit}, series);
}

QString RooflinePanel::legendText() const
{
    return m_legend->plainText();
}

QList<int> RooflinePanel::opsAt(const QPointF &chartPos) const
{
    if (!m_report || !m_chart->plotArea().contains(chartPos))
        return {};
    QList<std::pair<double, int>> hits;
    const auto look = [&](QScatterSeries *series, const QList<int> &ops) {
        const QList<QPointF> points = series->points();
        for (int p = 0; p < points.size(); ++p) {
            const QPointF d = m_chart->mapToPosition(points[p], series) - chartPos;
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (distance <= kHoverRadiusPx * kHoverRadiusPx)
                hits.append({distance, ops[p]});
        }
    };
    for (int k = 0; k < kOpKinds; ++k)
        look(m_ops[k], m_pointOps[k]);
    for (int p = 0; p < 2; ++p)
        look(m_phases[p], m_phasePointOps[p]);
    std::stable_sort(hits.begin(), hits.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<int> out;
    for (const auto &hit : hits)
        out.append(hit.second);
    return out;
}

std::optional<int> RooflinePanel::opAt(const QPointF &chartPos) const
{
    const QList<int> ops = opsAt(chartPos);
    return ops.isEmpty() ? std::nullopt : std::optional<int>(ops.first());
}

void RooflinePanel::showHover(const QPointF &chartPos, const QPoint &globalPos)
{
    m_hoverText = m_report ? opsTooltip(opsAt(chartPos), m_report->roofline) : QString();
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_view);
}

void RooflinePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        restyle();
        fitToolbar();
    }
    QWidget::changeEvent(event);
}

void RooflinePanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitToolbar();
}

void RooflinePanel::fitToolbar()
{
    // Large text on a narrow panel cannot hold "Reset view", "Compare with:" and the GPU list
    // side by side; rather than clip the label ("Compare wit"), the button says "Reset" (its
    // tooltip says the rest). Decided on the widths with the long text, so it cannot flip.
    const QFontMetrics metrics(m_reset->font());
    const int longReset = m_reset->sizeHint().width() - metrics.horizontalAdvance(m_reset->text())
                          + metrics.horizontalAdvance(tr("Reset view"));
    const int spacing = m_toolbar->layout() ? m_toolbar->layout()->spacing() : 6;
    const int needed = longReset + m_compareLabel->sizeHint().width() + m_overlayBox->minimumSizeHint().width() + 3 * spacing;
    const QString text = m_toolbar->width() >= needed ? tr("Reset view") : tr("Reset");
    if (m_reset->text() != text)
        m_reset->setText(text);
}

void RooflinePanel::restyle()
{
    styleChart(m_chart, font());
    styleLegend(m_legend, font());
    // Markers grow with the text (View > Bigger text, large exports) so that they keep their
    // weight beside the labels.
    const double scale = std::max(1.0, QFontMetricsF(font()).height() / QFontMetricsF(QGuiApplication::font()).height());
    for (int k = 0; k < kOpKinds; ++k) {
        const OpMarker marker = opMarker(k);
        m_ops[k]->setMarkerSize(marker.size * scale);
        if (marker.hollow)
            m_ops[k]->setPen(QPen(palette::opKind(k), 2 * scale));
    }
    for (QScatterSeries *phase : m_phases)
        phase->setMarkerSize(11 * scale);
    m_ridge->setMarkerSize(13 * scale);
}

} // namespace napkin::ui
