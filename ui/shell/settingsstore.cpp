#include "ui/shell/settingsstore.h"

#include "core/io/scenariojson.h"

#include <QJsonDocument>
#include <QSettings>

namespace napkin::ui::settings {

namespace {

QSettings store()
{
    return QSettings(QStringLiteral("napkin"), QStringLiteral("napkin"));
}

const QString kScenario = QStringLiteral("lastScenario");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kUnit = QStringLiteral("view/byteUnit");
const QString kFontScale = QStringLiteral("view/fontScale");

} // namespace

std::optional<LenientScenario> lastScenario(const Catalog &catalog)
{
    const QByteArray json = store().value(kScenario).toByteArray();
    if (json.isEmpty())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject())
        return std::nullopt;
    // A stale or hand-edited entry keeps what is valid rather than failing start-up.
    return scenarioFromJsonLenient(doc.object(), catalog);
}

void saveLastScenario(const Scenario &s)
{
    store().setValue(kScenario, QJsonDocument(scenarioToJson(s)).toJson(QJsonDocument::Compact));
}

QByteArray windowGeometry()
{
    return store().value(kGeometry).toByteArray();
}

void saveWindowGeometry(const QByteArray &geometry)
{
    store().setValue(kGeometry, geometry);
}

QByteArray windowState()
{
    return store().value(kState).toByteArray();
}

void saveWindowState(const QByteArray &state)
{
    store().setValue(kState, state);
}

ByteUnit byteUnit()
{
    return store().value(kUnit).toString() == QLatin1String("GiB") ? ByteUnit::GiB : ByteUnit::GB;
}

void saveByteUnit(ByteUnit unit)
{
    store().setValue(kUnit, fmt::unitName(unit));
}

double fontScale()
{
    bool ok = false;
    const double s = store().value(kFontScale, 1.0).toDouble(&ok);
    return ok && s >= 0.5 && s <= 3 ? s : 1.0;
}

void saveFontScale(double scale)
{
    store().setValue(kFontScale, scale);
}

} // namespace napkin::ui::settings
