// napkin: the command line and the desktop window's entry point.
#include "app/commandline.h"
#include "ui/views/chartrender.h"
#include "ui/shell/gui.h"
#include "ui/shell/startupheap.h"
#include "core/report/report.h"
#include "core/report/suggestion.h"
#include "core/io/budgetjson.h"
#include "core/io/reportjson.h"
#include "core/text/budgettext.h"
#include "app/reporttext.h"
#include "app/calibratetext.h"
#include "core/io/measuredruns.h"
#include "core/io/scenariojson.h"
#include "core/model/layout.h"
#include "core/model/validation.h"

#include <QApplication>
#include <QDate>
#include <QDir>
#include <QJsonDocument>

#include <cstdio>

using namespace napkin;

namespace {

void print(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<size_t>(bytes.size()), stream);
    std::fflush(stream);
}

// The one place a refusal becomes an exit status: one line on stderr, whatever the user typed
// escaped (printable()), and status 2.
int refuse(const Refusal &refusal)
{
    print(stderr, QStringLiteral("napkin: ") + printable(refusal.message(), -1) + QLatin1Char('\n'));
    return 2;
}

int printReport(const Command &c, const Catalog &catalog)
{
    const auto report = computeReport(c.scenario, catalog);
    if (!report.ok())
        return refuse(onCommandLine(report.refusal()));
    // A run that does not fit gets the planner's fix and the lightest single change.
    const auto suggestion = suggestFit(*report);
    if (c.json)
        print(stdout, QString::fromUtf8(QJsonDocument(reportToJson(*report, suggestion)).toJson(QJsonDocument::Indented)));
    else
        print(stdout, reportText(*report, catalog, c.unit, suggestion));
    return 0;
}

int printPlan(const Command &c, const Catalog &catalog)
{
    // Validates all but the layout and resolves the ids and links: the planner plans from any
    // layout, and its "current" entry says why the scenario's own is not one.
    const auto report = computeReport(withSimplestLayout(c.scenario), catalog);
    if (!report.ok())
        return refuse(onCommandLine(report.refusal()));
    PlanOptions options;
    options.top = c.planTop;
    options.tpBeyondNode = c.planTpBeyondNode;
    const PlanReport plan = planLayouts(c.scenario, report->gpu, report->memory.recipe, report->scaleUp,
                                        report->scaleOut, options);
    if (c.json)
        print(stdout, QString::fromUtf8(QJsonDocument(planToJson(plan)).toJson(QJsonDocument::Indented)));
    else
        print(stdout, planText(plan, c.unit));
    return 0;
}

/// A label for the command line's own run: the model and where it ran.
QString runLabel(const Scenario &s, const Catalog &catalog)
{
    const ModelPreset *preset = catalog.findPreset(s.presetId);
    const GpuSpec *gpu = catalog.findGpu(s.gpuId);
    return QStringLiteral("%1, %2 × %3").arg(preset && preset->shape == s.model ? preset->id : QStringLiteral("custom model"))
        .arg(s.gpus)
        .arg(gpu ? gpu->shortName : s.gpuId);
}

int printCalibration(const Command &c, const Catalog &catalog)
{
    QList<MeasuredRun> runs;
    if (!c.measuredFile.isEmpty()) {
        const auto read = readMeasuredRuns(c.measuredFile, c.scenario);
        if (!read.ok()) {
            // A run's keys are the file's ("runs[2].step_seconds"); the file itself is --measured.
            const Refusal &r = read.refusal();
            return refuse(r.field.startsWith(QLatin1String("runs[")) ? r : onCommandLine(r));
        }
        runs = *read;
    } else {
        runs << MeasuredRun{runLabel(c.scenario, catalog), c.scenario, *c.measuredStepSeconds, c.measuredPeakBytes};
    }
    const auto fitted = calibrate(runs, catalog, QDate::currentDate().toString(Qt::ISODate));
    if (!fitted.ok()) {
        // One run: its fields are the command line's options; a file's runs keep their "runs[i]." names.
        const Refusal &r = fitted.refusal();
        return refuse(r.field.startsWith(QLatin1String("runs[")) ? r : onCommandLine(r));
    }
    if (!c.saveFile.isEmpty()) {
        Scenario saved = runs.first().scenario;
        saved.calibration = *fitted;
        // The run is then timed by its calibrated step, not by a utilisation typed in.
        saved.timeBasis = TimeBasis::Estimated;
        if (auto refused = writeScenarioFile(c.saveFile, saved))
            return refuse(*refused);
    }
    if (c.json) {
        print(stdout, QString::fromUtf8(QJsonDocument(calibrationReportJson(*fitted, runs, catalog)).toJson(QJsonDocument::Indented)));
    } else {
        print(stdout, calibrationText(*fitted, runs, catalog, c.unit));
        if (!c.saveFile.isEmpty())
            print(stdout, QStringLiteral("Saved the calibrated scenario to %1: `napkin report --scenario %1` and the window use it\n")
                              .arg(c.saveFile));
    }
    return 0;
}

int printBudget(const Command &c, const Catalog &catalog)
{
    const auto budget = computeBudget(c.scenario, catalog, c.budget);
    if (!budget.ok())
        return refuse(onCommandLine(budget.refusal()));
    if (c.json)
        print(stdout, QString::fromUtf8(QJsonDocument(budgetToJson(*budget)).toJson(QJsonDocument::Indented)));
    else
        print(stdout, budgetText(*budget, catalog.findGpu(c.scenario.gpuId)->name));
    return 0;
}

// Headless runs print only Napkin's own lines: the offscreen platform's chatter (missing
// XDG_RUNTIME_DIR, unsupported size hints) is noise to a command-line user or a script.
// NAPKIN_DEBUG=1 keeps it.
void quietQtMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        print(stderr, QStringLiteral("napkin: Qt: ") + message + QLatin1Char('\n'));
}

/// Needs a QApplication. Writes one file per chart kind in --format and lists them on stdout.
int writeCharts(const Command &c, const Catalog &catalog)
{
    if (auto refused = ui::exportCharts(catalog, c.scenario, c.outDir, c.size, c.scale, c.unit,
                                        c.memoryAxis.value_or(MemoryAxisFocus::AllStages), c.format, c.budget))
        return refuse({QStringLiteral("--out"), refused->message()});
    for (ui::ChartKind kind : ui::exportedChartKinds(c.scenario.mode))
        print(stdout, QDir(c.outDir).filePath(ui::chartFileName(kind, c.format)) + QLatin1Char('\n'));
    return 0;
}

int runExport(int &argc, char **argv, const Command &c, const Catalog &catalog)
{
    // Rendering needs a GUI application object but never a screen.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("NAPKIN_DEBUG"))
        qInstallMessageHandler(quietQtMessages);
    QApplication app(argc, argv);
    return writeCharts(c, catalog);
}

/// The window's stand-in where no display can be opened: the charts as PNGs and the report.
int headlessFallback(const Command &c, const Catalog &catalog, const QString &why)
{
    Command fallback = c;
    fallback.outDir = QStringLiteral("napkin-charts");
    print(stderr, QStringLiteral("napkin: %1, so no window: writing the charts to ./napkin-charts/ and printing "
                                 "the report instead\n").arg(why));
    const int status = writeCharts(fallback, catalog);
    return status != 0 ? status : printReport(fallback, catalog);
}

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    const auto catalog = loadBuiltinCatalog();
    if (!catalog.ok()) {
        // Not the user's input: a broken build, status 3.
        print(stderr, QStringLiteral("napkin: built-in catalog is invalid: ") + catalog.refusal().message() + QLatin1Char('\n'));
        return 3;
    }
    const auto parsed = parseCommandLine(args, *catalog);
    if (!parsed.ok())
        return refuse(parsed.refusal());
    const Command &c = *parsed;

    switch (c.verb) {
    case Verb::Help:
        print(stdout, helpText());
        return 0;
    case Verb::Version:
        print(stdout, QStringLiteral("napkin " NAPKIN_VERSION "\n"));
        return 0;
    case Verb::Presets:
        print(stdout, presetsText(*catalog));
        return 0;
    case Verb::Gpus:
        print(stdout, gpusText(*catalog));
        return 0;
    case Verb::Recipes:
        print(stdout, recipesText());
        return 0;
    case Verb::Report:
        return printReport(c, *catalog);
    case Verb::Plan:
        return printPlan(c, *catalog);
    case Verb::Budget:
        return printBudget(c, *catalog);
    case Verb::Calibrate:
        return printCalibration(c, *catalog);
    case Verb::Interconnects:
        print(stdout, interconnectsText(*catalog));
        return 0;
    case Verb::Export:
        return runExport(argc, argv, c, *catalog);
    case Verb::Window:
        break;
    }

    // Where the user has not chosen a platform, try the display and fall back to offscreen
    // rendering, so a missing or unreachable display gives PNGs and a report, not an abort.
    const bool platformChosen = !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    const bool displayNamed = !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    if (!platformChosen) {
        qputenv("QT_QPA_PLATFORM", qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ? "xcb;offscreen" : "wayland;xcb;offscreen");
        if (qEnvironmentVariableIsEmpty("NAPKIN_DEBUG"))
            qInstallMessageHandler(quietQtMessages);
    }
    ui::prefaultStartupHeap();
    QApplication app(argc, argv);
    if (!platformChosen && QGuiApplication::platformName() == QLatin1String("offscreen"))
        return headlessFallback(c, *catalog, displayNamed ? QStringLiteral("the display cannot be opened")
                                                          : QStringLiteral("no display (DISPLAY and WAYLAND_DISPLAY are unset)"));
    qInstallMessageHandler(nullptr);
    QApplication::setApplicationName(QStringLiteral("Napkin"));
    QApplication::setOrganizationName(QStringLiteral("Napkin"));
    QApplication::setApplicationVersion(QStringLiteral(NAPKIN_VERSION));
    return ui::runMainWindow(*catalog, c.scenarioGiven ? std::optional<Scenario>(c.scenario) : std::nullopt,
                             c.unitGiven ? std::optional<ByteUnit>(c.unit) : std::nullopt, c.memoryAxis);
}
