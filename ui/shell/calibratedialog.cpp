#include "ui/shell/calibratedialog.h"

#include "core/report/calibration.h"
#include "core/report/report.h"
#include "core/text/units.h"

#include <QCheckBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace napkin::ui {

namespace {

/// Seconds without trailing zeros: "10.03 s", not "10.030000 s"; a step of 100 µs still
/// keeps its digits (six decimals are accepted as typed).
class SecondsBox final : public QDoubleSpinBox
{
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override
    {
        QString text = locale().toString(value, 'f', decimals());
        const QChar point = locale().decimalPoint().front();
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(1);
        }
        return text;
    }
};

/// The estimate to four significant digits, as a starting value to edit.
double roundedToFour(double v)
{
    return v > 0 ? QString::number(v, 'g', 4).toDouble() : v;
}

} // namespace

CalibrateDialog::CalibrateDialog(const Scenario &scenario, const Catalog &catalog, QWidget *parent)
    : QDialog(parent),
      m_scenario(scenario),
      m_catalog(catalog),
      m_step(new SecondsBox(this)),
      m_peakKnown(new QCheckBox(tr("Peak memory per GPU (GB)"), this)),
      m_peak(new QDoubleSpinBox(this)),
      m_problem(new QLabel(this))
{
    setWindowTitle(tr("Calibrate from a Measured Run"));
    Scenario plain = scenario;
    plain.calibration.reset();
    const auto report = computeReport(plain, catalog);
    const double estimated = report.ok() ? report->step.stepSeconds : 1;
    auto *intro = new QLabel(tr("Measure one optimizer step of this scenario (the same model, GPUs, layout and batch) "
                                "and enter it here. Napkin fits three factors (compute, memory traffic, "
                                "communication) so that its estimated step, now %1, meets yours: the smallest change "
                                "that explains the run. The run's time then follows the calibrated step, and every view says so.")
                                 .arg(fmt::duration(estimated)),
                             this);
    intro->setWordWrap(true);
    m_step->setDecimals(6);
    m_step->setRange(0, 1e6);
    m_step->setSuffix(tr(" s"));
    m_step->setValue(roundedToFour(estimated));
    m_step->setAccessibleName(tr("Measured step time in seconds"));
    m_peak->setDecimals(2);
    m_peak->setRange(0.01, 1e6);
    m_peak->setValue(report.ok() ? report->memory.perGpu.total() / 1e9 : 1);
    m_peak->setEnabled(false);
    m_peak->setToolTip(tr("torch.cuda.max_memory_allocated() or nvidia-smi's figure, shown beside the estimate"));
    connect(m_peakKnown, &QCheckBox::toggled, m_peak, &QWidget::setEnabled);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Measured step time"), m_step);
    form->addRow(m_peakKnown, m_peak);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Calibrate"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
}

QString CalibrateDialog::problem() const
{
    return m_problem->isVisible() || !m_problem->isHidden() ? m_problem->text() : QString();
}

void CalibrateDialog::accept()
{
    MeasuredRun run;
    run.label = tr("measured in the window");
    run.scenario = m_scenario;
    run.stepSeconds = m_step->value();
    if (m_peakKnown->isChecked())
        run.peakBytes = m_peak->value() * 1e9;
    const auto fit = calibrate({run}, m_catalog, QDate::currentDate().toString(Qt::ISODate));
    if (!fit.ok()) {
        m_problem->setText(fit.refusalMessage());
        m_problem->show();
        return;
    }
    m_problem->hide();
    m_problem->clear();
    Scenario s = m_scenario;
    s.calibration = *fit;
    // The run is then timed by its calibrated step, not by a utilisation typed in.
    s.timeBasis = TimeBasis::Estimated;
    m_result = s;
    QDialog::accept();
}

} // namespace napkin::ui
