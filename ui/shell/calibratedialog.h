#pragma once

#include "core/model/scenario.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace napkin {
struct Catalog;
}

namespace napkin::ui {

/// Edit > Calibrate from a Measured Run…: the step time measured for the current scenario (and,
/// if known, its peak memory), fitted as `napkin calibrate` does. A refused fit is said in the
/// dialog, which stays open; an accepted one is calibrated().
class CalibrateDialog final : public QDialog
{
    Q_OBJECT

public:
    CalibrateDialog(const Scenario &scenario, const Catalog &catalog, QWidget *parent = nullptr);

    QDoubleSpinBox *stepSeconds() const { return m_step; }
    QDoubleSpinBox *peakGb() const { return m_peak; }
    QCheckBox *peakKnown() const { return m_peakKnown; }
    /// The refusal of the last fit, empty when none.
    QString problem() const;
    /// After accept(): the scenario with its calibration.
    std::optional<Scenario> calibrated() const { return m_result; }

    void accept() override;

private:
    Scenario m_scenario;
    const Catalog &m_catalog;
    QDoubleSpinBox *m_step;
    QCheckBox *m_peakKnown;
    QDoubleSpinBox *m_peak;
    QLabel *m_problem;
    std::optional<Scenario> m_result;
};

} // namespace napkin::ui
