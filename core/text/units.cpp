#include "core/text/units.h"

#include <QLocale>

#include <cmath>

namespace napkin::fmt {

namespace {

// Fixed C-locale grouping so output does not depend on the user's LANG.
QString grouped(double v, int decimals)
{
    QLocale c(QLocale::C);
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(v, 'f', decimals);
}

QString scaled(double v, const char *const *units, int unitCount, double step, const QString &suffix)
{
    int i = 0;
    double x = v;
    while (i + 1 < unitCount && std::fabs(x) >= step) {
        x /= step;
        ++i;
    }
    return number(x) + QLatin1Char(' ') + QLatin1String(units[i]) + suffix;
}

} // namespace

QString sci(double v, int decimals)
{
    return QString::number(v, 'e', decimals);
}

QString count(std::int64_t v)
{
    return grouped(static_cast<double>(v), 0);
}

QString number(double v, int significant)
{
    if (v == 0)
        return QStringLiteral("0");
    // Whole numbers keep their digits, grouped, up to a billion: "1,757,832 tok/s" beside
    // "877,716 tok/s", where the millions had switched to "1.76e+06".
    const double a = std::fabs(v);
    if (a >= 1e9 || a < 1e-3)
        return sci(v, significant - 1);
    const int digitsBefore = static_cast<int>(std::floor(std::log10(a))) + 1;
    const int decimals = std::max(0, significant - digitsBefore);
    return grouped(v, decimals);
}

QString counted(std::int64_t n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(grouped(static_cast<double>(n), 0), QLatin1String(n == 1 ? one : many));
}

QString compactCount(double v)
{
    // Past trillions in powers of ten: "Q" read as quadrillion to some and as SI's quetta
    // (1e30) to others.
    if (std::fabs(v) >= 999.95e12)
        return QString::number(v, 'g', 4).replace(QStringLiteral("e+"), QStringLiteral("e"));
    static const char *const units[] = {"", "K", "M", "B", "T"};
    int i = 0;
    while (i < 4 && std::fabs(v) >= 1000) {
        v /= 1000;
        ++i;
    }
    QString s = QString::number(v, 'g', 4);
    return s + QLatin1String(units[i]);
}

QString unitName(ByteUnit unit)
{
    return unit == ByteUnit::GB ? QStringLiteral("GB") : QStringLiteral("GiB");
}

QString bytesIn(double b, ByteUnit unit, int decimals)
{
    return grouped(b / bytesPerUnit(unit), decimals) + QLatin1Char(' ') + unitName(unit);
}

QString bytes(double b, ByteUnit unit)
{
    if (unit == ByteUnit::GB) {
        static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        return scaled(b, units, 7, 1000, QString());
    }
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    return scaled(b, units, 7, 1024, QString());
}

QString capacity(double b)
{
    const double gib = b / bytesPerUnit(ByteUnit::GiB);
    if (gib >= 1 && gib == std::floor(gib))
        return QStringLiteral("%1 GiB (%2)").arg(grouped(gib, 0), bytesIn(b, ByteUnit::GB, 1));
    return bytesIn(b, ByteUnit::GB, 1);
}

QString repeats(double n)
{
    return n == std::floor(n) && std::fabs(n) < 1e15 ? grouped(n, 0) : QString::number(n, 'g', 3);
}

QString flopRate(double f)
{
    static const char *const units[] = {"", "k", "M", "G", "T", "P", "E"};
    return scaled(f, units, 7, 1000, QStringLiteral("FLOP/s"));
}

QString bandwidth(double b)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    return scaled(b, units, 6, 1000, QStringLiteral("/s"));
}

QString duration(double s)
{
    if (s > 0 && s < 1e-3)
        return number(s * 1e6) + QStringLiteral(" µs");
    if (s > 0 && s < 1)
        return number(s * 1e3) + QStringLiteral(" ms");
    if (s < 120)
        return number(s) + QStringLiteral(" s");
    if (s < 2 * 3600)
        return number(s / 60) + QStringLiteral(" min");
    if (s < 2 * 86400)
        return number(s / 3600) + QStringLiteral(" h");
    if (s < 365 * 86400)
        return number(s / 86400) + QStringLiteral(" days");
    // Beyond 10,000 years (a slider at its far end) in thousands and millions, so that the
    // figure keeps to the width of its column ("12.3K years", not "12,300 years").
    const double years = s / (365 * 86400);
    return (years >= 1e4 ? compactCount(years) : number(years)) + QStringLiteral(" years");
}

QString energyKwh(double kwh)
{
    static const char *const units[] = {"kWh", "MWh", "GWh", "TWh"};
    return scaled(kwh, units, 4, 1000, QString());
}

QString usd(double v)
{
    // From ten million in millions, billions and trillions ("$1.07B"), which keep to a figure's
    // column where "$1,065,483,735" was cut.
    if (std::fabs(v) >= 1e7)
        return QLatin1Char('$') + compactCount(v);
    // Under a cent with two significant digits ("$0.0031"), where two decimals said "$0.00"
    // (a serving run's cost per million prompt tokens).
    // Written out to a millionth of a cent ("$0.00053", where "$5.3e-04" stood beside "$0.0090").
    if (v != 0 && std::fabs(v) < 0.01) {
        if (std::fabs(v) < 1e-8)
            return QLatin1Char('$') + sci(v, 1);
        const int decimals = 1 - static_cast<int>(std::floor(std::log10(std::fabs(v))));
        return QLatin1Char('$') + QString::number(v, 'f', decimals);
    }
    return QLatin1Char('$') + (std::fabs(v) >= 100 ? grouped(v, 0) : grouped(v, 2));
}

QString percent(double fraction, int decimals)
{
    // A share too small for the decimals asked keeps two significant digits rather than read
    // as nothing ("MFU 0.0%" on every row of a plan for a tiny model).
    const double v = fraction * 100;
    if (v != 0 && std::fabs(v) < 0.5 * std::pow(10.0, -decimals))
        return QString::number(v, 'g', 2) + QLatin1Char('%');
    return grouped(v, decimals) + QLatin1Char('%');
}

} // namespace napkin::fmt
