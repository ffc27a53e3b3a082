#pragma once

#include "core/model/scenario.h"
#include "core/model/refusal.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace napkin {

/// How a scenario field is written and checked.
enum class FieldKind {
    Integer,  ///< a whole number in [lo, hi]
    Real,     ///< a finite number in [lo, hi] (or (lo, hi] when loExclusive)
    Count,    ///< a Real the command line also takes as 300B, 1.5T or 3e11
    Flag,     ///< true or false; on the command line --option and --offOption
    Choice,   ///< one of choices()
    Text,     ///< a non-empty string (catalog ids are checked against the catalog elsewhere)
};

/// Where a field sits in --help and in the window.
enum class FieldGroup { Model, Run, Parallel };

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
    const char *valueName;    ///< "N", "F", "ID" in --help
    const char *help;         ///< one line: what it is, what null means
    QStringList (*choices)() = nullptr;
    QJsonValue (*get)(const Scenario &) = nullptr;
    void (*set)(Scenario &, const QJsonValue &) = nullptr;  ///< the value already passed checkValue()
    bool shape = false;       ///< part of the model shape (checked for presets too)
};

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
