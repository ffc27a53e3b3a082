#include "core/io/numberparse.h"

#include <cmath>

namespace napkin {

std::optional<double> parseReal(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);  // C locale: '.' decimal point only
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<double> parseCount(const QString &text)
{
    QString t = text.trimmed();
    t.remove(QLatin1Char(','));
    t.remove(QLatin1Char('_'));
    if (t.isEmpty())
        return std::nullopt;
    double scale = 1;
    switch (t.back().toUpper().unicode()) {
    case 'K': scale = 1e3; break;
    case 'M': scale = 1e6; break;
    case 'B': case 'G': scale = 1e9; break;
    case 'T': scale = 1e12; break;
    default: break;
    }
    if (scale != 1)
        t.chop(1);
    const auto v = parseReal(t);
    if (!v || *v < 0)
        return std::nullopt;
    const double scaled = *v * scale;
    if (!std::isfinite(scaled))
        return std::nullopt;
    return scaled;
}

std::optional<std::int64_t> parseInteger(const QString &text, std::int64_t lo, std::int64_t hi)
{
    const auto v = parseCount(text);
    if (!v || std::floor(*v) != *v || *v < static_cast<double>(lo) || *v > static_cast<double>(hi))
        return std::nullopt;
    return static_cast<std::int64_t>(*v);
}

} // namespace napkin
