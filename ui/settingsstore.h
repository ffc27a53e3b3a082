#pragma once

#include "scenario.h"
#include "units.h"

#include <QByteArray>

#include <optional>

namespace napkin::ui::settings {

/// What the window remembers between runs (QSettings, organisation and application "napkin").
/// The scenario is stored as the same JSON a scenario file holds.
std::optional<Scenario> lastScenario();
void saveLastScenario(const Scenario &s);

QByteArray windowGeometry();
void saveWindowGeometry(const QByteArray &geometry);
QByteArray windowState();
void saveWindowState(const QByteArray &state);

ByteUnit byteUnit();
void saveByteUnit(ByteUnit unit);
/// Font size relative to the system font (View > Bigger / Smaller).
double fontScale();
void saveFontScale(double scale);

} // namespace napkin::ui::settings
