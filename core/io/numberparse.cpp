#include "core/io/numberparse.h"

#include <QRegularExpression>

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
    // Separators group the whole part's digits in threes ("1,000", "124_000_000"), or are
    // refused: taken out anywhere, "12,5e6" (a decimal comma) had read as 125e6 and "1,2" as 12.
    if (t.contains(QLatin1Char(',')) || t.contains(QLatin1Char('_'))) {
        static const QRegularExpression grouped(QStringLiteral("^\\d{1,3}([,_]\\d{3})+(\\.\\d*)?([eE][+-]?\\d+)?[kKmMbBgGtT]?$"));
        if (!grouped.match(t).hasMatch())
            return std::nullopt;
        t.remove(QLatin1Char(','));
        t.remove(QLatin1Char('_'));
    }
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
