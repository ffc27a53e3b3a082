#pragma once

#include "core/model/catalog.h"
#include "core/text/units.h"

#include <QString>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;

namespace napkin::ui {

/// Picks the GPU model; every entry shows its peak (for the recipe's dtype), memory
/// bandwidth and memory, and its datasheet source as a tooltip.
class GpuChooser final : public QWidget
{
    Q_OBJECT

public:
    explicit GpuChooser(const Catalog &catalog, QWidget *parent = nullptr);

    QString gpuId() const;
    /// Selects without emitting gpuChosen().
    void setGpuId(const QString &id);
    /// The dtype whose peak the entries show (the recipe's matmul dtype: fp8 under FP8).
    void setDtype(const QString &dtype);
    void setByteUnit(ByteUnit unit);
    QComboBox *comboBox() const { return m_combo; }

signals:
    void gpuChosen(const QString &id);

private:
    /// Every entry's line (peak for the dtype, bandwidth, memory): on a change of dtype or unit.
    void refreshItems();
    /// The chosen GPU's line under the list: on every change.
    void refreshDetails();
    /// "989 TFLOP/s bf16", or "no fp32 peak" (GpuSpec::peakFor()'s rule).
    QString peakText(const std::optional<double> &peak, const QString &dtype) const;
    QString itemText(const GpuSpec &g) const;

    const Catalog &m_catalog;
    QComboBox *m_combo;
    QLabel *m_details;
    QString m_dtype = QStringLiteral("bf16");
    ByteUnit m_unit = ByteUnit::GB;
};

} // namespace napkin::ui
