#pragma once

#include "app/command.h"
#include "core/model/catalog.h"
#include "core/model/refusal.h"

#include <QString>
#include <QStringList>

namespace napkin {

/// Parses arguments after the program name. Precedence: the `--scenario` file, then
/// `--preset`, then every other option, whatever their order on the line. A refusal names the
/// option and what it accepts, on one line (exit status 2).
Result<Command> parseCommandLine(const QStringList &args, const Catalog &catalog);

/// The option that sets a scenario JSON field ("d_model" -> "--d-model").
QString optionForField(const QString &field);

/// A core refusal (validation, a scenario file, the report) as the command line says it: its
/// JSON key becomes the option ("d_model: ..." -> "--d-model: ...").
Refusal onCommandLine(const Refusal &refusal);

QString helpText();

} // namespace napkin
