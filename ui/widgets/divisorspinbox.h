#pragma once

#include <QSpinBox>

#include <algorithm>
#include <cstdint>

namespace napkin::ui {

/// A spin box whose arrows step through the divisors of another value (heads through the
/// divisors of d_model) that are multiples of a third (tensor parallelism's whole heads), so
/// stepping never makes the shape or its layout invalid. Typing stays free; a typed value
/// that does not divide is refused by core and explained in the banner.
class DivisorSpinBox final : public QSpinBox
{
    Q_OBJECT

public:
    explicit DivisorSpinBox(QWidget *parent = nullptr);

    void setDividend(std::int64_t dividend, std::int64_t multiple = 1)
    {
        m_dividend = dividend;
        m_multiple = std::max<std::int64_t>(1, multiple);
    }
    void stepBy(int steps) override;

private:
    std::int64_t m_dividend = 0;
    std::int64_t m_multiple = 1;
};

} // namespace napkin::ui
