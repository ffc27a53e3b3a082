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
    for (const GpuSpec &gpu : catalog.gpus)
        m_combo->addItem(gpu.name, gpu.id);
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
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
        refreshTexts();
        emit gpuChosen(gpuId());
    });
    refreshTexts();
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
    refreshTexts();
}

void GpuChooser::setDtype(const QString &dtype)
{
    if (dtype == m_dtype)
        return;
    m_dtype = dtype;
    refreshTexts();
}

void GpuChooser::setByteUnit(ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    refreshTexts();
}

QString GpuChooser::peakText(const std::optional<double> &peak, const QString &dtype) const
{
    return peak ? tr("%1 %2").arg(fmt::flopRate(*peak), dtype) : tr("no %1 peak").arg(m_dtype);
}

void GpuChooser::refreshTexts()
{
    for (int i = 0; i < m_catalog.gpus.size(); ++i) {
        const GpuSpec &g = m_catalog.gpus[i];
        QString dtype;
        const auto peak = g.peakFor(m_dtype, &dtype);
        m_combo->setItemText(i, tr("%1 — %2 · %3 · %4")
                                    .arg(nameWithoutVendor(g), peakText(peak, dtype),
                                         fmt::bandwidth(g.memoryBandwidthBytesPerS),
                                         fmt::bytes(g.memoryBytes, m_unit)));
        const QString price = g.pricePerGpuHourUsd
                                  ? tr("%1 per GPU-hour on demand (%2, seen %3)")
                                        .arg(fmt::usd(*g.pricePerGpuHourUsd), g.priceSource, g.priceDate)
                                  : tr("no price in the catalog");
        m_combo->setItemData(i, tr("%1\nSource: %2\n%3\nPrice: %4").arg(g.name, g.source, g.notes, price),
                             Qt::ToolTipRole);
    }
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
