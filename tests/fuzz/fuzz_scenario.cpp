// libFuzzer target over everything a user can feed Napkin: scenario JSON (as a file, as the
// window's remembered settings) and command lines, through computeReport, the JSON and text
// reports and a save/load round trip. It aborts on any non-finite figure, any refusal of more
// than one line, any round-trip mismatch and any remembered scenario the window cannot show.
//
// The first input byte picks the mode; the rest is the payload:
//   0: a scenario file's bytes      1: a command line, arguments separated by NUL bytes
//   2: the window's remembered scenario JSON (read leniently, must always give a valid scenario)
#include "app/commandline.h"
#include "reportchecks.h"
#include "core/io/safefile.h"

#include <QByteArray>
#include <QDir>
#include <QJsonDocument>
#include <QStringList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace napkin;

namespace {

[[noreturn]] void fail(const QString &what, const QByteArray &input)
{
    std::fprintf(stderr, "fuzz_scenario: %s\ninput (hex): %s\n", qPrintable(what), input.toHex().constData());
    std::abort();
}

const Catalog &catalog()
{
    static const Catalog c = [] {
        const auto loaded = loadBuiltinCatalog();
        if (!loaded.ok()) {
            std::fprintf(stderr, "catalog: %s\n", qPrintable(loaded.refusalMessage()));
            std::abort();
        }
        return *loaded;
    }();
    return c;
}

QString scratchFile()
{
    static const QString path = QDir::temp().filePath(QStringLiteral("napkin-fuzz-%1.json").arg(::getpid()));
    return path;
}

void checkRefusal(const QString &message, const QByteArray &input)
{
    if (message.isEmpty())
        fail(QStringLiteral("a refusal without a message"), input);
    if (message.contains(QLatin1Char('\n')) || message.contains(QLatin1Char('\r')))
        fail(QStringLiteral("a refusal of more than one line: ") + message.toHtmlEscaped(), input);
}

/// The report and a file save/load round trip of an accepted scenario.
void checkAccepted(const Scenario &s, const QByteArray &input)
{
    const auto report = computeReport(s, catalog());
    if (!report.ok()) {
        checkRefusal(report.refusalMessage(), input);
        return;
    }
    if (const QString problem = checks::reportProblem(*report, catalog()); !problem.isEmpty())
        fail(problem, input);
    if (auto refused = writeScenarioFile(scratchFile(), s))
        fail(QStringLiteral("cannot save: ") + refused->message(), input);
    const auto back = readScenarioFile(scratchFile(), Scenario{});
    if (!back.ok() || !(*back == s))
        fail(QStringLiteral("a saved scenario does not load back unchanged"), input);
}

void scenarioFile(const QByteArray &payload, const QByteArray &input)
{
    if (writeFileAtomically(scratchFile(), payload))
        fail(QStringLiteral("cannot write the scratch file"), input);
    const auto s = readScenarioFile(scratchFile(), Scenario{});
    if (!s.ok())
        return checkRefusal(s.refusalMessage(), input);
    checkAccepted(*s, input);
}

void commandLine(const QByteArray &payload, const QByteArray &input)
{
    QStringList args;
    for (const QByteArray &a : payload.split('\0'))
        args << QString::fromLocal8Bit(a);
    if (args.size() > 64)
        return;
    const auto parsed = parseCommandLine(args, catalog());
    if (!parsed.ok())
        return checkRefusal(parsed.refusalMessage(), input);
    checkAccepted(parsed->scenario, input);
}

void rememberedScenario(const QByteArray &payload, const QByteArray &input)
{
    const QJsonDocument doc = QJsonDocument::fromJson(payload);
    if (!doc.isObject())
        return;
    const auto [s, replaced] = scenarioFromJsonLenient(doc.object(), catalog());
    if (const auto report = computeReport(s, catalog()); !report.ok())
        fail(QStringLiteral("a remembered scenario the window cannot show: ") + report.refusalMessage(), input);
    for (const QString &r : replaced)
        checkRefusal(r, input);
    checkAccepted(s, input);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0 || size > kMaxScenarioFileBytes)
        return 0;
    const QByteArray input(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const QByteArray payload = input.mid(1);
    switch (data[0] % 3) {
    case 0: scenarioFile(payload, input); break;
    case 1: commandLine(payload, input); break;
    case 2: rememberedScenario(payload, input); break;
    }
    return 0;
}
