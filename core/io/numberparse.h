#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace napkin {

/// Parses a positive count written as people write them: "300e9", "3e11", "300B", "1.5T",
/// "124M", "7k", "1,000". Suffixes K/M/B/T are powers of 1000 (B = billion, as in token
/// counts). Returns nullopt for anything else, including NaN, infinity and negatives.
std::optional<double> parseCount(const QString &text);

/// parseCount() that must also be a whole number in [lo, hi].
std::optional<std::int64_t> parseInteger(const QString &text, std::int64_t lo, std::int64_t hi);

/// A plain decimal number ("0.4", "2.5", "1e-3"); finite only.
std::optional<double> parseReal(const QString &text);

} // namespace napkin
