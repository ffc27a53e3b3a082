#pragma once

#include "scenario.h"
#include "validation.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace napkin {

/// The scenario as JSON: the `scenario` object of `napkin report --json` and the file format
/// of File > Save and `--scenario`. Keys are the command-line option names with '_'.
QJsonObject scenarioToJson(const Scenario &s);

/// Applies the keys present in `o` on top of `base`; a missing key keeps the base value.
/// Unknown keys, wrong types and out-of-range values are refused, naming the key.
std::optional<Scenario> scenarioFromJson(const QJsonObject &o, const Scenario &base, ValidationError *error);

/// Reads a scenario file (the whole file is parsed before anything is applied).
std::optional<Scenario> readScenarioFile(const QString &path, const Scenario &base, ValidationError *error);

/// Writes a scenario file atomically (QSaveFile): either the whole new file or the old one.
bool writeScenarioFile(const QString &path, const Scenario &s, QString *error);

} // namespace napkin
