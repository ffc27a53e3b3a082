#include "app/commandline.h"

#include "app/options.h"
#include "core/io/scenariojson.h"
#include "core/model/fields.h"
#include "core/model/layout.h"
#include "core/model/lectureexample.h"
#include "core/model/recipe.h"
#include "core/model/shapefix.h"
#include "core/model/validation.h"

#include <QList>

#include <algorithm>
#include <utility>

namespace napkin {

namespace {

/// How many arguments from args[i] on are one of Qt's standard options (QGuiApplication and
/// QApplication), with its value; 0 if args[i] is not one.
int qtStandardArgument(const QStringList &args, int i)
{
    static const QStringList withValue = {
        QStringLiteral("platform"), QStringLiteral("platformpluginpath"), QStringLiteral("platformtheme"),
        QStringLiteral("plugin"), QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowtitle"),
        QStringLiteral("qwindowicon"), QStringLiteral("style"), QStringLiteral("stylesheet"),
        QStringLiteral("display"), QStringLiteral("geometry"), QStringLiteral("title"), QStringLiteral("session"),
        QStringLiteral("name"), QStringLiteral("qmljsdebugger")};
    static const QStringList flags = {QStringLiteral("reverse"), QStringLiteral("widgetcount"), QStringLiteral("nograb"),
                                      QStringLiteral("dograb"), QStringLiteral("sync")};
    const QString &arg = args.at(i);
    if (!arg.startsWith(QLatin1Char('-')) || arg.startsWith(QLatin1String("--")))
        return 0;
    const QString name = arg.mid(1).section(QLatin1Char('='), 0, 0);
    if (flags.contains(name))
        return 1;
    if (!withValue.contains(name))
        return 0;
    return arg.contains(QLatin1Char('=')) || i + 1 >= args.size() ? 1 : 2;
}

const QList<std::pair<const char *, Verb>> &verbs()
{
    static const QList<std::pair<const char *, Verb>> table = {
        {"report", Verb::Report}, {"plan", Verb::Plan}, {"budget", Verb::Budget}, {"calibrate", Verb::Calibrate}, {"presets", Verb::Presets}, {"gpus", Verb::Gpus},
        {"recipes", Verb::Recipes}, {"interconnects", Verb::Interconnects}, {"export", Verb::Export}, {"window", Verb::Window},
        {"help", Verb::Help},
    };
    return table;
}

} // namespace

QString optionForField(const QString &field)
{
    if (field == QLatin1String("activations"))
        return QStringLiteral("--no-activations");
    if (field == QLatin1String("scenario file"))
        return QStringLiteral("--scenario");
    if (const ScenarioField *f = findScenarioField(field); f && f->option)
        return QStringLiteral("--") + QLatin1String(f->option);
    QString option = field;
    return QStringLiteral("--") + option.replace(QLatin1Char('_'), QLatin1Char('-'));
}

/// The refusal of a core function (validation, a scenario file, the report) as the command
/// line says it: the JSON key becomes its option ("d_model" -> "--d-model").
Refusal onCommandLine(const Refusal &refusal)
{
    return {optionForField(refusal.field), refusal.problem};
}

namespace {

/// The arguments after the command, split into (option, value) pairs, so that precedence does
/// not depend on their order on the line.
struct Arguments {
    QString scenarioFile;
    bool scenarioFileGiven = false;
    QString preset;
    bool lecture = false;
    QList<std::pair<const Option *, QString>> assignments;
};

/// Reads the command word, if any; `first` is set to the index of the first option.
Result<Verb> parseVerb(const QStringList &args, int *first)
{
    *first = 0;
    if (args.isEmpty() || args.first().startsWith(QLatin1Char('-')))
        return Verb::Window;
    const auto verb = std::find_if(verbs().begin(), verbs().end(),
                                   [&](const auto &v) { return args.first() == QLatin1String(v.first); });
    if (verb == verbs().end())
        return Refusal{QString(), QStringLiteral("unknown command '%1': expected report, plan, budget, calibrate, presets, gpus, "
                                                 "recipes, interconnects, export or an option (see napkin --help)").arg(args.first())};
    *first = 1;
    return verb->second;
}

/// The value of option `name` at args[*i]: inline ("--x=v") or the next argument, which it
/// consumes. A value is never empty and never another option: `--out --json` must not write
/// into a folder named "--json", and `--scenario ""` must not be ignored.
Result<QString> takeValue(const QStringList &args, int *i, const QString &name, const std::optional<QString> &inlineValue)
{
    std::optional<QString> v = inlineValue;
    if (!v && *i + 1 < args.size()) {
        if (args.at(*i + 1).startsWith(QLatin1String("--")))
            return Refusal{QStringLiteral("--") + name, QStringLiteral("needs a value, not the option '%1'").arg(args.at(*i + 1))};
        v = args.at(++*i);
    }
    if (!v)
        return Refusal{QStringLiteral("--") + name, QStringLiteral("needs a value")};
    if (v->trimmed().isEmpty())
        return Refusal{QStringLiteral("--") + name, QStringLiteral("needs a value (got an empty one)")};
    return *v;
}

/// Pass 1: every option and its value, checked for existence and form only. `c` takes what
/// needs no scenario: --help, --version and whether a scenario option was given.
Result<Arguments> splitArguments(const QStringList &args, int first, const QList<Option> &scenarioOpts,
                                 const QList<Option> &outputOpts, const QList<Option> &budgetOpts, Command &c)
{
    Arguments out;
    for (int i = first; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            c.verb = Verb::Help;
            return out;
        }
        if (arg == QLatin1String("-v") || arg == QLatin1String("--version")) {
            c.verb = Verb::Version;
            return out;
        }
        // Qt's own options (-platform xcb, -qwindowgeometry 1280x720, -style fusion, ...) are
        // left to QApplication, which reads them from argv.
        if (const int taken = qtStandardArgument(args, i); taken > 0) {
            i += taken - 1;
            continue;
        }
        if (!arg.startsWith(QLatin1String("--")))
            return Refusal{QString(), QStringLiteral("unexpected argument '%1' (options start with --; see napkin --help)").arg(arg)};
        QString name = arg.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        if (name == QLatin1String("lecture")) {
            if (inlineValue)
                return Refusal{QStringLiteral("--lecture"), QStringLiteral("takes no value")};
            out.lecture = true;
            c.scenarioGiven = true;
            continue;
        }
        if (name == QLatin1String("scenario") || name == QLatin1String("preset")) {
            const auto v = takeValue(args, &i, name, inlineValue);
            if (!v.ok())
                return v.refusal();
            (name == QLatin1String("scenario") ? out.scenarioFile : out.preset) = *v;
            out.scenarioFileGiven |= name == QLatin1String("scenario");
            continue;
        }
        const Option *option = nullptr;
        for (const QList<Option> *list : {&scenarioOpts, &outputOpts, &budgetOpts})
            for (const Option &o : *list)
                if (name == QLatin1String(o.name))
                    option = &o;
        if (!option)
            return Refusal{QString(), QStringLiteral("unknown option '--%1' (see napkin --help)").arg(name)};
        if (!option->takesValue && inlineValue)
            return Refusal{QStringLiteral("--") + name, QStringLiteral("takes no value")};
        QString value;
        if (option->takesValue) {
            const auto v = takeValue(args, &i, name, inlineValue);
            if (!v.ok())
                return v.refusal();
            value = *v;
        }
        out.assignments.append({option, value});
        if (option >= scenarioOpts.data() && option < scenarioOpts.data() + scenarioOpts.size())
            c.scenarioGiven = true;
    }
    return out;
}

/// Pass 2, the starting scenario: the lecture's example, then the scenario file, then the preset.
std::optional<Refusal> applyStart(const Arguments &a, const Catalog &catalog, Command &c)
{
    if (a.lecture && (a.scenarioFileGiven || !a.preset.isEmpty()))
        return Refusal{QStringLiteral("--lecture"), QStringLiteral("is a whole scenario; give it without --scenario and --preset "
                                                                   "(other options given too override it)")};
    if (a.lecture) {
        c.scenario = lectureExample();
        // Its 1.984 GB under an 80 GiB axis would hide the split it teaches.
        c.memoryAxis = MemoryAxisFocus::ChosenStage;
    }
    if (a.scenarioFileGiven) {
        const auto s = readScenarioFile(a.scenarioFile, c.scenario);
        if (!s.ok()) {
            const Refusal &e = s.refusal();
            return Refusal{QStringLiteral("--scenario"),
                           e.field == QLatin1String("scenario file")
                               ? e.problem
                               : QStringLiteral("%1: field \"%2\" %3").arg(a.scenarioFile, e.field, e.problem)};
        }
        // The file's catalog ids, refused as the file's (they had been refused as options never
        // given, "--gpu: …", or, for a preset, shown as "custom"); no preset is a custom shape.
        const std::pair<const char *, QString> ids[] = {{"gpu", s->gpuId}, {"recipe", s->recipeId}, {"preset", s->presetId}};
        for (const auto &[key, id] : ids) {
            if (id.isEmpty() && QLatin1String(key) == QLatin1String("preset"))
                continue;
            if (const auto refused = checkCatalogId(catalog, key, id))
                return Refusal{QStringLiteral("--scenario"),
                               QStringLiteral("%1: field \"%2\" %3").arg(a.scenarioFile, QLatin1String(key), refused->problem)};
        }
        c.scenario = *s;
        c.scenarioGiven = true;
    }
    if (!a.preset.isEmpty()) {
        if (auto refused = checkCatalogId(catalog, "preset", a.preset))
            return refused;
        const ModelPreset *p = catalog.findPreset(a.preset);
        // The same rule as the window's preset chooser (a gpt2 sequence is shortened to the
        // position table); an explicit --seq-len is still checked below.
        c.scenario = applyPreset(c.scenario, *p, nullptr);
        c.scenarioGiven = true;
    }
    return std::nullopt;
}

/// The budget options belong to `napkin budget` (and `export`, for budget.png): exactly one
/// budget form, and --tokens-per-param only with its law.
std::optional<Refusal> checkBudgetOptions(const Command &c)
{
    if (!c.budgetOptionsGiven.isEmpty() && c.verb != Verb::Budget && c.verb != Verb::Export)
        return Refusal{c.budgetOptionsGiven.first(), QStringLiteral("is an option of napkin budget and napkin export")};
    if (c.budgetForms.size() > 1)
        return Refusal{c.budgetForms.at(1), QStringLiteral("give one budget: %1 was given already").arg(c.budgetForms.first())};
    if (c.verb == Verb::Budget && c.budgetForms.isEmpty())
        return Refusal{QStringLiteral("--flops"), QStringLiteral("napkin budget needs one budget: --flops C, --gpu-hours H, "
                                                                 "--usd X or --days D (with --gpus)")};
    if (c.budgetOptionsGiven.contains(QStringLiteral("--tokens-per-param")) && c.budget.law != ScalingLaw::TokensPerParam)
        return Refusal{QStringLiteral("--tokens-per-param"), QStringLiteral("applies only with --law tokens-per-param")};
    return std::nullopt;
}

/// Pass 2, the options in the order given, then the shape fields they imply and the checks.
std::optional<Refusal> applyOptions(const Arguments &a, const Catalog &catalog, Command &c)
{
    ShapeFieldsGiven given;
    for (const auto &[option, value] : a.assignments) {
        if (auto refused = option->apply(c, value))
            return refused;
        const QLatin1String name(option->name);
        given.arch |= name == QLatin1String("arch");
        given.dModel |= name == QLatin1String("d-model");
        given.heads |= name == QLatin1String("heads");
        given.kvHeads |= name == QLatin1String("kv-heads");
        given.dFf |= name == QLatin1String("d-ff");
        given.tied |= name == QLatin1String("tied") || name == QLatin1String("untied");
    }
    c.scenario.model = deriveDependentFields(c.scenario.model, given);
    if (auto refused = checkBudgetOptions(c))
        return refused;
    // Options the command does nothing with are refused, naming the commands that take them
    // (`report --top 5` and `gpus --json` had been accepted and ignored).
    struct Scope {
        const char *option;
        QList<Verb> verbs;
        const char *commands;
    };
    static const Scope scopes[] = {
        {"top", {Verb::Plan}, "napkin plan"},
        {"tp-beyond-node", {Verb::Plan}, "napkin plan"},
        {"out", {Verb::Export}, "napkin export"},
        {"size", {Verb::Export}, "napkin export"},
        {"scale", {Verb::Export}, "napkin export"},
        {"format", {Verb::Export}, "napkin export"},
        {"json", {Verb::Report, Verb::Plan, Verb::Budget, Verb::Calibrate}, "napkin report, plan, budget and calibrate"},
    };
    for (const auto &[option, value] : a.assignments)
        for (const Scope &scope : scopes)
            if (QLatin1String(option->name) == QLatin1String(scope.option) && !scope.verbs.contains(c.verb))
                return Refusal{QStringLiteral("--") + QLatin1String(scope.option),
                               QStringLiteral("is an option of %1").arg(QLatin1String(scope.commands))};
    if (c.verb == Verb::Plan && c.scenario.mode == Mode::Inference)
        return Refusal{QStringLiteral("--mode"), QStringLiteral("must be training for napkin plan: it ranks training layouts "
                                                                "(the serving scenario has no planner)")};
    // Megatron-LM overlaps TP communication only with sequence parallelism
    // (--tp-comm-overlap needs --sequence-parallel); without it the switch did nothing.
    for (const auto &[option, value] : a.assignments)
        if (QLatin1String(option->name) == QLatin1String("tp-overlap") && !c.scenario.sequenceParallel)
            return Refusal{QStringLiteral("--tp-overlap"), QStringLiteral("goes with --sp: TP communication overlaps only "
                                                                          "under sequence parallelism")};
    if (c.verb != Verb::Calibrate && !c.calibrateOptionsGiven.isEmpty())
        return Refusal{c.calibrateOptionsGiven.first(), QStringLiteral("applies only to napkin calibrate")};
    if (c.verb == Verb::Calibrate && !c.measuredStepSeconds && c.measuredFile.isEmpty())
        return Refusal{QStringLiteral("--measured-step-seconds"),
                       QStringLiteral("napkin calibrate needs the measured step time (--measured-step-seconds S) or a "
                                      "file of measured runs (--measured FILE.json)")};
    if (c.measuredStepSeconds && !c.measuredFile.isEmpty())
        return Refusal{QStringLiteral("--measured"), QStringLiteral("give one run (--measured-step-seconds) or a file of runs, not both")};
    if (c.measuredPeakBytes && !c.measuredStepSeconds)
        return Refusal{QStringLiteral("--measured-peak-bytes"), QStringLiteral("goes with --measured-step-seconds (a file gives each run's peak_bytes)")};
    if (c.verb == Verb::Export && c.outDir.isEmpty())
        return Refusal{QStringLiteral("--out"), QStringLiteral("export needs a folder to write the pictures into")};
    // The planner plans from any layout and a budget sets its own: neither refuses the layout.
    const bool ownLayout = c.verb != Verb::Plan && c.verb != Verb::Budget;
    if (auto refused = validateScenario(ownLayout ? c.scenario : withSimplestLayout(c.scenario)))
        return onCommandLine(*refused);
    // A scenario file or preset may name an id the options never saw.
    if (auto refused = checkCatalogId(catalog, "gpu", c.scenario.gpuId))
        return refused;
    return checkCatalogId(catalog, "recipe", c.scenario.recipeId);
}

Result<Command> parseUnescaped(const QStringList &args, const Catalog &catalog)
{
    Command c;
    int first = 0;
    const auto verb = parseVerb(args, &first);
    if (!verb.ok())
        return verb.refusal();
    c.verb = *verb;
    const QList<Option> scenarioOpts = scenarioOptions(catalog);
    const QList<Option> outputOpts = outputOptions();
    const QList<Option> budgetOpts = budgetOptions();
    const auto split = splitArguments(args, first, scenarioOpts, outputOpts, budgetOpts, c);
    if (!split.ok())
        return split.refusal();
    if (c.verb == Verb::Help || c.verb == Verb::Version)
        return c;
    if (auto refused = applyStart(*split, catalog, c))
        return *refused;
    if (auto refused = applyOptions(*split, catalog, c))
        return *refused;
    return c;
}

} // namespace

Result<Command> parseCommandLine(const QStringList &args, const Catalog &catalog)
{
    const Result<Command> parsed = parseUnescaped(args, catalog);
    if (parsed.ok())
        return parsed;
    // One line, whatever the user typed: newlines and escapes in values come back as \n, \x1b.
    return Refusal{printable(parsed.refusal().field, -1), printable(parsed.refusal().problem, -1)};
}

} // namespace napkin
