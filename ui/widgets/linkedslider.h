#pragma once

#include "ui/widgets/numberspinbox.h"

#include <QString>
#include <QWidget>

class QLabel;
class QSlider;

namespace napkin::ui {

/// A labelled slider and spin box showing one number, kept in step both ways. The spin box
/// holds the exact value over the full accepted range; the slider covers the useful range,
/// linearly or on a log scale where that range spans decades.
class LinkedSlider final : public QWidget
{
    Q_OBJECT

public:
    struct Config {
        QString label;
        QString description;     ///< tooltip: what changing it does
        double min = 1;          ///< spin box range
        double max = 100;
        double sliderMin = 1;    ///< slider range (within the spin box range)
        double sliderMax = 100;
        double step = 1;         ///< linear: value per slider position and arrow step
        double logBase = 0;      ///< > 0: slider position p means sliderMin x logBase^(p / stepsPerUnit)
        int stepsPerUnit = 1;
        double spinFactor = 0;   ///< > 0: spin arrows multiply by this
        NumberSpinBox::Display display = NumberSpinBox::Display::Integer;
    };

    explicit LinkedSlider(const Config &config, QWidget *parent = nullptr);

    double value() const;
    /// Shows `value` without emitting valueEdited().
    void setValue(double value);

    /// The slider's top value (the spin box keeps its full range, where a typed value out of
    /// the model's reach gets the core's explanation rather than a silent clamp). The last
    /// position is the last value of the slider's grid that does not pass it.
    void setSliderMaximum(double max);
    double sliderMaximum() const { return m_config.sliderMax; }
    /// The slider's bottom value; a linear slider starts at the first multiple of its step
    /// from there, so that every position is a multiple of the step.
    void setSliderMinimum(double min);
    double sliderMinimum() const { return m_config.sliderMin; }
    /// A linear slider's value per position, which its spin box's arrows step by too: the
    /// slider offers only the multiples of it (widths that tensor parallelism can split).
    void setSliderStep(double step);
    double sliderStep() const { return m_config.step; }

    QSlider *slider() const { return m_slider; }
    NumberSpinBox *spinBox() const { return m_spin; }

    /// The value a slider position stands for, and the position nearest a value.
    double valueAt(int position) const;
    int positionFor(double value) const;

signals:
    /// The user changed the value, through either control.
    void valueEdited(double value);
    void dragStarted();
    void dragFinished();

private:
    void applySliderRange();
    int lastPosition() const;
    void onSliderMoved(int position);
    void onSpinChanged(double value);

    Config m_config;
    double m_lowest;  ///< the bottom asked for; a linear slider's starts at a multiple of the step
    QLabel *m_label;
    QSlider *m_slider;
    NumberSpinBox *m_spin;
    bool m_syncing = false;
};

} // namespace napkin::ui
