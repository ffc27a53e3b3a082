#pragma once

#include <QString>

#include <cstdint>

namespace napkin {

/// A refused input: what it is about and what is accepted. Validation, scenario files, the
/// catalog and the command line all refuse with this one type, so the command line, the
/// window's banner and a scenario file's error say the same sentence.
struct Refusal {
    QString field;    ///< scenario JSON key ("d_model"), option ("--size") or file; empty: none
    QString problem;  ///< e.g. "must be an integer from 1 to 1024 (got 0)"
    /// "d_model: must be an integer from 1 to 131072 (got 0)"; the problem alone without a field.
    QString message() const { return field.isEmpty() ? problem : field + QStringLiteral(": ") + problem; }
};

/// User-supplied text made safe for a one-line message: control characters (newlines, tabs,
/// escapes) become \n, \t or \xNN, and text longer than maxShown characters (when
/// positive) is cut with an ellipsis.
QString printable(const QString &text, qsizetype maxShown = 200);

/// "must be an integer from LO to HI (got X)" - one wording everywhere.
QString integerRangeProblem(std::int64_t lo, std::int64_t hi, const QString &got);

} // namespace napkin
