#include "ui/controls/gpuchooser.h"

#include "ui/widgets/elidingcombobox.h"
#include "core/report/gputimes.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace napkin::ui {

GpuChooser::GpuChooser(const Catalog &catalog, QWidget *parent)
    : QWidget(parent), m_catalog(catalog), m_combo(new ElidingComboBox(this)), m_details(new QLabel(this))
{
    // Each entry with its line and tooltip from the start: setting them after adding (one
    // model change and relayout each) cost more than the rest of the chooser at start-up.
    for (const GpuSpec &gpu : catalog.gpus) {
        m_combo->addItem(itemText(gpu), gpu.id);
        const QString price = gpu.pricePerGpuHourUsd
                                  ? tr("%1 per GPU-hour on demand (%2, seen %3)")
                                        .arg(fmt::usd(*gpu.pricePerGpuHourUsd), gpu.priceSource, gpu.priceDate)
                                  : tr("no price in the catalog");
        m_combo->setItemData(m_combo->count() - 1,
                             tr("%1\nSource: %2\n%3\nPrice: %4").arg(gpu.name, gpu.source, gpu.notes, price),
                             Qt::ToolTipRole);
    }
    m_combo->setMinimumContentsLength(16);
    const QString tip = tr("GPU model: sets the peak FLOP/s, memory bandwidth and memory per GPU "
                           "used by every chart. Each entry lists peak (dense, for the recipe's "
                           "dtype) · bandwidth · memory.");
    m_combo->setToolTip(tip);
    m_combo->setAccessibleName(tr("GPU model"));
    m_combo->setAccessibleDescription(tip);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAccessibleName(tr("Chosen GPU's specifications"));
    m_details->setToolTip(tr("Peak, bandwidth, memory and board power of the chosen GPU"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_combo);
    layout->addWidget(m_details);

    connect(m_combo, &QComboBox::currentIndexChanged, this, [this] {
        refreshDetails();
        emit gpuChosen(gpuId());
    });
    refreshDetails();
}

QString GpuChooser::gpuId() const
{
    return m_combo->currentData().toString();
}

void GpuChooser::setGpuId(const QString &id)
{
    const int index = m_combo->findData(id);
    if (index < 0 || index == m_combo->currentIndex())
        return;
    const QSignalBlocker block(m_combo);
    m_combo->setCurrentIndex(index);
    refreshDetails();
}

void GpuChooser::setDtype(const QString &dtype)
{
    if (dtype == m_dtype)
        return;
    m_dtype = dtype;
    refreshItems();
    refreshDetails();
}

void GpuChooser::setByteUnit(ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    refreshItems();
    refreshDetails();
}

QString GpuChooser::peakText(const std::optional<double> &peak, const QString &dtype) const
{
    return peak ? tr("%1 %2").arg(fmt::flopRate(*peak), dtype) : tr("no %1 peak").arg(m_dtype);
}

QString GpuChooser::itemText(const GpuSpec &g) const
{
    QString dtype;
    const auto peak = g.peakFor(m_dtype, &dtype);
    return tr("%1 — %2 · %3 · %4")
        .arg(nameWithoutVendor(g), peakText(peak, dtype), fmt::bandwidth(g.memoryBandwidthBytesPerS),
             fmt::bytes(g.memoryBytes, m_unit));
}

void GpuChooser::refreshItems()
{
    for (int i = 0; i < m_catalog.gpus.size(); ++i)
        m_combo->setItemText(i, itemText(m_catalog.gpus[i]));
}

void GpuChooser::refreshDetails()
{
    const GpuSpec *g = m_catalog.findGpu(gpuId());
    if (!g)
        return;
    QString dtype;
    const auto peak = g->peakFor(m_dtype, &dtype);
    m_details->setText(tr("Peak %1 (dense) · bandwidth %2 · memory %3 · %4 W")
                           .arg(peakText(peak, dtype), fmt::bandwidth(g->memoryBandwidthBytesPerS),
                                fmt::bytes(g->memoryBytes, m_unit), fmt::number(g->tdpWatts)));
}

} // namespace napkin::ui
