#pragma once

#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <variant>

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

/// A value, or the refusal that stands in its place (the shape of qBittorrent's
/// `nonstd::expected<T, QString>`, with the field named). A check that makes no value answers
/// `std::optional<Refusal>` instead: the refusal, or nothing. There is deliberately no
/// conversion to bool: `ok()` says which, so no caller can read "refused" as "true".
template <typename T>
class [[nodiscard]] Result final
{
public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
    Result(Refusal refusal) : m_state(std::in_place_index<1>, std::move(refusal)) {}

    bool ok() const { return m_state.index() == 0; }
    const T &value() const & { return std::get<0>(m_state); }
    T &value() & { return std::get<0>(m_state); }
    T &&value() && { return std::get<0>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }
    /// The refusal; only when !ok().
    const Refusal &refusal() const { return std::get<1>(m_state); }
    /// The refusal's sentence, or an empty string when there is a value (for messages).
    QString refusalMessage() const { return ok() ? QString() : refusal().message(); }

private:
    std::variant<T, Refusal> m_state;
};

/// The sentence of a refusal that may not have happened: empty when there is none.
inline QString messageOf(const std::optional<Refusal> &refusal) { return refusal ? refusal->message() : QString(); }

/// User-supplied text made safe for a one-line message: control characters (newlines, tabs,
/// escapes) become \n, \t or \xNN, and text longer than maxShown characters (when
/// positive) is cut with an ellipsis.
QString printable(const QString &text, qsizetype maxShown = 200);

/// "must be an integer from LO to HI (got X)" - one wording everywhere.
QString integerRangeProblem(std::int64_t lo, std::int64_t hi, const QString &got);

/// A refused JSON value as the refusal quotes it: "\"abc\"", 42, true, [1,2].
QString describeValue(const QJsonValue &v);

} // namespace napkin
