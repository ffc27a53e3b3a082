#include "ui/widgets/linkedslider.h"

#include <QGridLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
// Log-scale sliders over decades land on two significant digits (3.2e11, not 3.16227e11).
double roundSignificant(double v, int digits)
{
    if (v <= 0)
        return v;
    const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(v)));
    return std::round(v * scale) / scale;
}
} // namespace

LinkedSlider::LinkedSlider(const Config &config, QWidget *parent)
    : QWidget(parent),
      m_config(config),
      m_lowest(config.sliderMin),
      m_label(new QLabel(config.label, this)),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_spin(new NumberSpinBox(config.display, this))
{
    m_slider->setRange(0, lastPosition());
    m_slider->setPageStep(config.logBase > 0 ? config.stepsPerUnit : std::max(1, m_slider->maximum() / 10));
    m_spin->setRange(config.min, config.max);
    m_spin->setSingleStep(config.step);
    m_spin->setStepFactor(config.spinFactor);
    m_spin->setMinimumWidth(90);
    m_spin->setAlignment(Qt::AlignRight);

    m_label->setBuddy(m_spin);
    m_label->setToolTip(config.description);
    m_slider->setToolTip(config.description);
    m_spin->setToolTip(config.description);
    m_slider->setAccessibleName(tr("%1 slider").arg(config.label));
    m_slider->setAccessibleDescription(config.description);
    m_spin->setAccessibleName(config.label);
    m_spin->setAccessibleDescription(config.description);

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_label, 0, 0);
    layout->addWidget(m_spin, 0, 1, Qt::AlignRight);
    layout->addWidget(m_slider, 1, 0, 1, 2);

    connect(m_slider, &QSlider::valueChanged, this, &LinkedSlider::onSliderMoved);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &LinkedSlider::onSpinChanged);
    connect(m_slider, &QSlider::sliderPressed, this, &LinkedSlider::dragStarted);
    connect(m_slider, &QSlider::sliderReleased, this, &LinkedSlider::dragFinished);
}

double LinkedSlider::value() const
{
    return m_spin->value();
}

void LinkedSlider::setValue(double value)
{
    m_syncing = true;
    m_spin->setValue(value);
    m_slider->setValue(positionFor(value));
    m_syncing = false;
}

void LinkedSlider::setSliderMaximum(double max)
{
    if (max == m_config.sliderMax)
        return;
    m_config.sliderMax = max;
    applySliderRange();
}

void LinkedSlider::setSliderMinimum(double min)
{
    if (min == m_lowest)
        return;
    m_lowest = min;
    applySliderRange();
}

void LinkedSlider::setSliderStep(double step)
{
    if (m_config.logBase > 0 || step <= 0 || step == m_config.step)
        return;
    m_config.step = step;
    m_spin->setSingleStep(step);
    applySliderRange();
}

void LinkedSlider::applySliderRange()
{
    m_config.sliderMin = m_config.logBase > 0 ? m_lowest : std::ceil(m_lowest / m_config.step) * m_config.step;
    m_syncing = true;
    m_slider->setRange(0, lastPosition());
    if (m_config.logBase <= 0)
        m_slider->setPageStep(std::max(1, m_slider->maximum() / 10));
    m_slider->setValue(positionFor(m_spin->value()));
    m_syncing = false;
}

int LinkedSlider::lastPosition() const
{
    if (m_config.sliderMax <= m_config.sliderMin)
        return 0;
    // A log slider's last position may stand for a little past a top that is not on its grid
    // (1,000 on one of powers of two); onSliderMoved() gives the top itself there. A linear
    // slider's never passes the top: every position stays a multiple of the step.
    if (m_config.logBase > 0)
        return positionFor(m_config.sliderMax);
    return static_cast<int>(std::floor((m_config.sliderMax - m_config.sliderMin) / m_config.step + 1e-9));
}

double LinkedSlider::valueAt(int position) const
{
    if (m_config.logBase > 0) {
        const double v = m_config.sliderMin
                         * std::pow(m_config.logBase, static_cast<double>(position) / m_config.stepsPerUnit);
        return m_config.logBase == 2 ? std::round(v) : roundSignificant(v, 2);
    }
    return m_config.sliderMin + position * m_config.step;
}

int LinkedSlider::positionFor(double value) const
{
    const double v = std::clamp(value, m_config.sliderMin, m_config.sliderMax);
    if (m_config.logBase > 0)
        return static_cast<int>(std::lround(std::log(v / m_config.sliderMin) / std::log(m_config.logBase)
                                            * m_config.stepsPerUnit));
    return static_cast<int>(std::lround((v - m_config.sliderMin) / m_config.step));
}

void LinkedSlider::onSliderMoved(int position)
{
    if (m_syncing)
        return;
    // The last position may round past a top that is not a power of the log base (1,000).
    const double v = std::clamp(valueAt(position), m_config.min, std::min(m_config.max, m_config.sliderMax));
    m_syncing = true;
    m_spin->setValue(v);
    m_syncing = false;
    emit valueEdited(m_spin->value());
}

void LinkedSlider::onSpinChanged(double value)
{
    if (m_syncing)
        return;
    m_syncing = true;
    m_slider->setValue(positionFor(value));
    m_syncing = false;
    emit valueEdited(value);
}

} // namespace napkin::ui
