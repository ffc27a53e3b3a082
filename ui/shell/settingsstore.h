#pragma once

#include "core/io/scenariojson.h"
#include "core/model/catalog.h"
#include "core/model/scenario.h"
#include "core/text/units.h"

#include <QByteArray>
#include <QStringList>

#include <optional>

namespace napkin::ui::settings {

/// What the window remembers between runs (QSettings, organisation and application "napkin").
/// The scenario is stored as the same JSON a scenario file holds. Fields that are invalid or
/// name a GPU or recipe no longer in the catalog fall back to their defaults, each described
/// in `replaced`; nullopt only when nothing readable was saved.
std::optional<LenientScenario> lastScenario(const Catalog &catalog);
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
