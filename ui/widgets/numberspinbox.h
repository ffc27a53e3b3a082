#pragma once

#include <QDoubleSpinBox>

namespace napkin::ui {

/// A spin box for whole numbers that spans decades: reads "300B", "3e11", "1,024"; shows
/// plain integers or compact counts; its arrows multiply instead of add when asked.
class NumberSpinBox final : public QDoubleSpinBox
{
    Q_OBJECT

public:
    enum class Display { Integer, Compact };

    explicit NumberSpinBox(Display display, QWidget *parent = nullptr);

    /// Each arrow step multiplies (or divides) by `factor`; 0 keeps additive steps.
    void setStepFactor(double factor) { m_stepFactor = factor; }

    void stepBy(int steps) override;
    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;

private:
    Display m_display;
    double m_stepFactor = 0;
};

} // namespace napkin::ui
