#include "ui/widgets/logrange.h"

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {
// Keeps a zoom from collapsing to nothing or escaping to where double loses meaning.
constexpr double kMinSpanDecades = 0.05;
constexpr double kMaxSpanDecades = 30;
constexpr double kMinLog = -30;
constexpr double kMaxLog = 30;
} // namespace

LogRange LogRange::zoomed(double anchor, double factor) const
{
    const double l = std::log10(lo);
    const double h = std::log10(hi);
    const double a = std::clamp(std::log10(anchor), l, h);
    const double span = std::clamp((h - l) * factor, kMinSpanDecades, kMaxSpanDecades);
    const double f = h > l ? (a - l) / (h - l) : 0.5;
    const double nl = std::clamp(a - f * span, kMinLog, kMaxLog - span);
    return {std::pow(10.0, nl), std::pow(10.0, nl + span)};
}

LogRange LogRange::panned(double fraction) const
{
    const double l = std::log10(lo);
    const double h = std::log10(hi);
    const double shift = (h - l) * fraction;
    const double nl = std::clamp(l + shift, kMinLog, kMaxLog - (h - l));
    return {std::pow(10.0, nl), std::pow(10.0, nl + (h - l))};
}

LogRange LogRange::decadesAround(double lo, double hi, double marginDecades)
{
    const double l = std::floor(std::log10(lo) - marginDecades);
    const double h = std::ceil(std::log10(hi) + marginDecades);
    return {std::pow(10.0, l), std::pow(10.0, std::max(h, l + 1))};
}

} // namespace napkin::ui
