#pragma once

#include "core/model/scenario.h"
#include "core/model/refusal.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>
#include <span>
#include <vector>

namespace napkin {

/// How a scenario field is written and checked.
enum class FieldKind {
    Integer,  ///< a whole number in [lo, hi]
    Real,     ///< a finite number in [lo, hi] (or (lo, hi] when loExclusive)
    Count,    ///< a Real the command line also takes as 300B, 1.5T or 3e11
    Flag,     ///< true or false; on the command line --option and --offOption
    Choice,   ///< one of choices()'s names
    Text,     ///< a non-empty string (catalog ids are checked against the catalog elsewhere)
};

/// Where a field sits in --help and in the window.
enum class FieldGroup { Model, Run, Parallel, Serving };

/// Which formula the window's "how this is computed" strip shows (core/text/formulas.h). It
/// lives here, one per field, so that a change to any field names its formula; the strip's text
/// stays in core/text.
enum class FormulaTopic { Params, Flops, ModelState, Activations, Time, Cost, Roofline, Serving };

/// One scenario field, described once: its JSON key, command-line option, range, default
/// (the value in Scenario{}), help, and how to read and write it. Scenario JSON, validation,
/// the command line, its --help and the window's controls all read this table.
struct ScenarioField {
    const char *key;          ///< JSON key and the name refusals give ("seq_len")
    const char *option;       ///< command-line option without "--" ("seq-len"); nullptr: JSON only
    const char *offOption;    ///< Flag: the option that sets false ("no-flash"); else nullptr
    FieldKind kind;
    FieldGroup group;
    double lo = 0;
    double hi = 0;
    bool loExclusive = false;
    bool nullable = false;    ///< JSON null (and an unset optional) means "derived": see help
    const char *valueName;    ///< "N", "F", "ID" in --help; nullptr for a Choice: its names
    const char *help;         ///< one line: what it is, what null means
    FormulaTopic topic;       ///< the formula a change to it is about
    const char *label;        ///< the window's name: form row, accessible name, "Set <label> to 4"
    const char *tip;          ///< the window's tooltip; nullptr: help
    /// A Choice's values (an enum's one table of names and labels, core/model/scenario.h); an
    /// Integer with choices is chosen from their labels in the window (the ZeRO stage).
    std::span<const EnumEntry> (*choices)() = nullptr;
    QJsonValue (*get)(const Scenario &) = nullptr;
    void (*set)(Scenario &, const QJsonValue &) = nullptr;  ///< the value already passed checkValue()
    bool shape = false;       ///< part of the model shape (checked for presets too)
    /// A nullable field's word for null on the command line ("max" for --concurrency); nullptr: none.
    const char *nullWord = nullptr;
};

/// A table as a field's choices: `choicesOf<kRecomputeNames>`.
template <const auto &table>
std::span<const EnumEntry> choicesOf()
{
    return table;
}

/// A field's choice names ("none", "selective", "full"); empty when it has no choices.
QStringList choiceNames(const ScenarioField &f);

/// The window's tooltip for a field: its tip, or else its help.
inline const char *fieldTip(const ScenarioField &f)
{
    return f.tip ? f.tip : f.help;
}

/// Every field, in the order they are checked and listed.
const std::vector<ScenarioField> &scenarioFields();
const ScenarioField *findScenarioField(const QString &key);
/// The accepted range of a numeric field, for controls (the key must be in the table).
double fieldLo(const char *key);
double fieldHi(const char *key);

/// Type and range of a JSON value for the field; nothing when it is acceptable, else the
/// refusal naming the field: "layers: must be an integer from 1 to 1024 (got 0)".
std::optional<Refusal> checkValue(const ScenarioField &f, const QJsonValue &v);

/// A range bound as people write it: 1e16, 0.001, 10000.
QString boundText(double x);

/// "an integer from 1 to 1024", "a number from above 0 to 1", "true or false", "one of a, b".
QString acceptedText(const ScenarioField &f);

/// The default, as --help prints it: "1024", "off", "korthikanti", "none (the GPU's)".
QString defaultText(const ScenarioField &f);

/// Checks every field's type and range on a scenario (the shape fields only, when asked).
std::optional<Refusal> checkFields(const Scenario &s, bool shapeOnly);

} // namespace napkin
