#pragma once

#include "core/model/catalog.h"
#include "core/model/scenario.h"
#include "core/model/validation.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace napkin {

/// The scenario as JSON: the `scenario` object of `napkin report --json` and the file format
/// of File > Save and `--scenario`. Keys are the command-line option names with '_'.
QJsonObject scenarioToJson(const Scenario &s);
/// A calibration as scenario files keep it: {compute, memory, comm, runs: [...], date, note}.
QJsonObject calibrationToJson(const Calibration &c);

/// The first key that appears twice in one object of well-formed JSON text, if any: a JSON
/// parser keeps the last silently, so `{"layers": 4, "layers": 8}` would read as 8 layers.
/// Keys are compared as written (an escaped spelling of the same key is not caught).
std::optional<QString> duplicateJsonKey(const QByteArray &json);

/// Applies the keys present in `o` on top of `base`; a missing key keeps the base value.
/// Unknown keys, wrong types and out-of-range values are refused, naming the key.
Result<Scenario> scenarioFromJson(const QJsonObject &o, const Scenario &base);

/// Like scenarioFromJson() over the defaults, but never refuses: a field that is unknown,
/// invalid or names a GPU or recipe no longer in the catalog is dropped (its default kept) and
/// described in `replaced` ("gpu \"h999\" is not in the catalog: using h100-sxm"). For the
/// window's remembered scenario, which may predate the running version.
struct LenientScenario {
    Scenario scenario;
    QStringList replaced;  ///< one sentence per field dropped, in the order they were dropped
};
LenientScenario scenarioFromJsonLenient(const QJsonObject &o, const Catalog &catalog);

/// Reads a scenario file (the whole file is parsed before anything is applied). Only regular
/// files of at most kMaxScenarioFileBytes (1 MiB) are read; FIFOs and devices are refused unopened.
Result<Scenario> readScenarioFile(const QString &path, const Scenario &base);

/// Writes a scenario file atomically (writeFileAtomically): either the whole new file or the old one.
std::optional<Refusal> writeScenarioFile(const QString &path, const Scenario &s);

} // namespace napkin
