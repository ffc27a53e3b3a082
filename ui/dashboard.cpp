#include "dashboard.h"

#include "banner.h"
#include "chartview.h"
#include "textstrip.h"
#include "memorypanel.h"
#include "rooflinepanel.h"
#include "timepanel.h"

#include <QGridLayout>

#include <algorithm>
#include <QLabel>

namespace napkin::ui {

QString scenarioSummary(const Report &r, const Catalog &catalog)
{
    const Scenario &s = r.scenario;
    const ModelPreset *preset = catalog.findPreset(s.presetId);
    const QString model = preset && preset->shape == s.model
                              ? preset->name
                              : Dashboard::tr("custom %1 (%2 layers, d_model %3)")
                                    .arg(archName(s.model.arch)).arg(s.model.layers).arg(s.model.dModel);
    return Dashboard::tr("%1 · %2 params · %3 tokens · micro-batch %4 × %5 tokens · %6 × %7")
        .arg(model, fmt::compactCount(static_cast<double>(r.params.total)), fmt::compactCount(s.tokens))
        .arg(s.microBatch).arg(s.seqLen).arg(s.gpus)
        .arg(r.gpu.name);
}

Dashboard::Dashboard(const Catalog &catalog, QWidget *parent)
    : QWidget(parent),
      m_catalog(catalog),
      m_summary(new TextStrip(this)),
      m_error(new Banner(this)),
      m_memory(new MemoryPanel(this)),
      m_time(new TimePanel(catalog, this)),
      m_roofline(new RooflinePanel(catalog, this))
{
    m_summary->setBold(true);
    m_summary->setTextAsToolTip(true);
    m_summary->setAccessibleName(tr("Scenario summary"));
    m_error->setAccessibleName(tr("Scenario problem"));
    m_error->hide();

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setSpacing(8);
    grid->addWidget(m_summary, 0, 0, 1, 2);
    grid->addWidget(m_memory, 1, 0);
    grid->addWidget(m_roofline, 1, 1);
    grid->addWidget(m_time, 2, 0, 1, 2);
    grid->setRowStretch(1, 3);
    grid->setRowStretch(2, 2);
    grid->setRowMinimumHeight(2, 240);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    connect(m_roofline, &RooflinePanel::viewChanged, this, &Dashboard::viewOptionsChanged);
}

void Dashboard::setReport(const Report &report)
{
    m_summary->setText(scenarioSummary(report, m_catalog));
    m_memory->setReport(report);
    m_time->setReport(report);
    m_roofline->setReport(report);
}

void Dashboard::setError(const QString &message)
{
    if (message.isEmpty()) {
        m_error->hide();
        return;
    }
    m_error->showMessage(Banner::Level::Error,
                         tr("⚠ Not recomputed — %1. The charts still show the last valid scenario.").arg(message));
    placeError();
    m_error->raise();
}

void Dashboard::placeError()
{
    // The problem banner floats over the top of the charts instead of taking a row: a value
    // refused in the middle of a drag must not make everything below it jump.
    const QRect top = m_summary->geometry();
    const int y = top.bottom() + 4;
    const int chartsTop = m_memory->mapTo(this, m_memory->view()->geometry().topLeft()).y() - 2;
    m_error->setGeometry(top.left(), y, top.width(), std::max(m_error->sizeHint().height(), chartsTop - y));
}

void Dashboard::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeError();
}

void Dashboard::setViewOptions(const ViewOptions &options)
{
    m_unit = options.unit;
    m_memory->setByteUnit(options.unit);
    m_roofline->setOverlayGpu(options.overlayGpuId);
    m_roofline->setRanges(options.rooflineX, options.rooflineY);
}

ViewOptions Dashboard::viewOptions() const
{
    ViewOptions o;
    o.unit = m_unit;
    o.rooflineX = m_roofline->xRange();
    o.rooflineY = m_roofline->yRange();
    o.overlayGpuId = m_roofline->overlayGpu();
    return o;
}

void Dashboard::setDragging(bool dragging)
{
    m_memory->setDragging(dragging);
    m_time->setDragging(dragging);
}

void Dashboard::setExportMode(bool exporting)
{
    m_roofline->setToolbarVisible(!exporting);
}

} // namespace napkin::ui
