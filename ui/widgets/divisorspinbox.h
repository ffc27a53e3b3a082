#pragma once

#include <QSpinBox>

#include <cstdint>

namespace napkin::ui {

/// A spin box whose arrows step through the divisors of another value (heads through the
/// divisors of d_model), so stepping never makes the shape invalid. Typing stays free; a
/// typed value that does not divide is refused by core and explained in the banner.
class DivisorSpinBox final : public QSpinBox
{
    Q_OBJECT

public:
    explicit DivisorSpinBox(QWidget *parent = nullptr);

    void setDividend(std::int64_t dividend) { m_dividend = dividend; }
    void stepBy(int steps) override;

private:
    std::int64_t m_dividend = 0;
};

} // namespace napkin::ui
