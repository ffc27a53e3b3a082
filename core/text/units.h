#pragma once

#include <QString>

#include <cstdint>

namespace napkin {

/// Decimal GB (1e9, the source document's unit) or binary GiB (2^30).
enum class ByteUnit { GB, GiB };

/// The one place numbers become text for people. Everything else passes base units.
namespace fmt {
QString sci(double v, int decimals = 3);                ///< "2.232e+20" (Python's %.3e)
QString count(std::int64_t v);                          ///< "124,439,808"
QString counted(std::int64_t n, const char *one, const char *many);  ///< "1 GPU", "64 GPUs"
QString compactCount(double v);                         ///< "300B", "1.5T", "124M"
QString bytesIn(double bytes, ByteUnit unit, int decimals = 3);  ///< "0.248 GB"
QString bytes(double bytes, ByteUnit unit = ByteUnit::GB);      ///< adaptive: "248 MB", "80 GiB"
/// A device's memory as sold and as counted in SI units: "80 GiB (85.9 GB)"; "16 GB" when the
/// size is not a whole number of GiB.
QString capacity(double bytes);
/// A count of repetitions: "80" for whole numbers, else three significant digits ("2.5").
QString repeats(double n);
QString flopRate(double flopsPerS);                     ///< "989 TFLOP/s"
QString bandwidth(double bytesPerS);                    ///< "3.35 TB/s"
QString duration(double seconds);                       ///< "18.3 ms", "3.2 days", "41 min", "1.8 years", "12.3K years"
QString energyKwh(double kwh);                          ///< "126 kWh", "3.4 MWh", "1.2 GWh"
QString usd(double v);                                  ///< "$12,345" / "$0.42" / "$0.0031" / "$0.00053" / from $10M "$12.3M"
QString percent(double fraction, int decimals = 1);     ///< "40.0%"
QString number(double v, int significant = 3);          ///< "1.13", "125", "0.00412", "1,757,832"; from 1e9 "2.50e+09"
QString unitName(ByteUnit unit);
} // namespace fmt

constexpr double bytesPerUnit(ByteUnit unit) { return unit == ByteUnit::GB ? 1e9 : 1073741824.0; }

} // namespace napkin
