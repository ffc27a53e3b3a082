#include "app/commandline.h"

#include "core/model/lectureexample.h"

#include "core/io/numberparse.h"
#include "core/model/fields.h"
#include "core/model/recipe.h"
#include "core/io/scenariojson.h"
#include "core/model/shapefix.h"
#include "core/model/validation.h"

#include <QJsonValue>
#include <QList>

#include <algorithm>
#include <functional>
#include <utility>

namespace napkin {

namespace {

struct Failure {
    QString message;
};

using Apply = std::function<std::optional<Failure>(Command &, const QString &value)>;

struct Option {
    const char *name;     // without the leading "--"
    bool takesValue;
    Apply apply;
};

std::optional<Failure> failure(const QString &option, const QString &problem)
{
    return Failure{QStringLiteral("--") + option + QStringLiteral(": ") + problem};
}

Apply integerOption(const char *name, std::int64_t lo, std::int64_t hi,
                    std::function<void(Command &, std::int64_t)> set)
{
    return [=](Command &c, const QString &v) -> std::optional<Failure> {
        const auto n = parseInteger(v, lo, hi);
        if (!n)
            return failure(QLatin1String(name), integerRangeProblem(lo, hi, QLatin1Char('\'') + v + QLatin1Char('\'')));
        set(c, *n);
        return std::nullopt;
    };
}

Apply realOption(const char *name, double lo, double hi, bool loExclusive,
                 std::function<void(Command &, double)> set)
{
    return [=](Command &c, const QString &v) -> std::optional<Failure> {
        const auto x = parseReal(v);
        if (!x || (loExclusive ? *x <= lo : *x < lo) || *x > hi)
            return failure(QLatin1String(name), QStringLiteral("must be a number from %1%2 to %3 (got '%4')")
                                                    .arg(loExclusive ? QStringLiteral("above ") : QString())
                                                    .arg(lo).arg(hi).arg(v));
        set(c, *x);
        return std::nullopt;
    };
}

Apply flag(std::function<void(Command &)> set)
{
    return [=](Command &c, const QString &) -> std::optional<Failure> {
        set(c);
        return std::nullopt;
    };
}

/// "none, selective or full"
QString choiceList(const QStringList &names)
{
    if (names.size() < 2)
        return names.join(QString());
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + names.last();
}

/// A catalog id (gpu, recipe, interconnect) the catalog must know, with the command that lists them.
std::optional<Failure> checkCatalogId(const Catalog &catalog, const char *key, const QString &v)
{
    const QString field = QLatin1String(key);
    if (field == QLatin1String("gpu") && !catalog.findGpu(v))
        return failure(field, QStringLiteral("must be one of %1 (got '%2'; see `napkin gpus`)").arg(catalog.gpuIdList(), v));
    if (field == QLatin1String("recipe") && !findRecipe(v))
        return failure(field, QStringLiteral("must be one of %1 (got '%2')").arg(recipeIdList(), v));
    if (field == QLatin1String("interconnect") && !catalog.findInterconnect(v))
        return failure(field, QStringLiteral("must be one of %1 (got '%2'; see `napkin interconnects`)")
                                  .arg(catalog.interconnectIdList(), v));
    return std::nullopt;
}

/// The option that sets a field from its command-line text, by the field's kind and range.
Apply fieldOption(const ScenarioField &f, const Catalog &catalog)
{
    const QString name = QLatin1String(f.option);
    const ScenarioField *field = &f;
    return [field, name, &catalog](Command &c, const QString &v) -> std::optional<Failure> {
        QJsonValue value;
        switch (field->kind) {
        case FieldKind::Integer: {
            const auto lo = static_cast<std::int64_t>(field->lo);
            const auto hi = static_cast<std::int64_t>(field->hi);
            const auto n = parseInteger(v, lo, hi);
            if (!n)
                return failure(name, integerRangeProblem(lo, hi, QLatin1Char('\'') + v + QLatin1Char('\'')));
            value = static_cast<double>(*n);
            break;
        }
        case FieldKind::Real: {
            const auto x = parseReal(v);
            if (!x || (field->loExclusive ? *x <= field->lo : *x < field->lo) || *x > field->hi)
                return failure(name, QStringLiteral("must be a number from %1%2 to %3 (got '%4')")
                                         .arg(field->loExclusive ? QStringLiteral("above ") : QString())
                                         .arg(field->lo).arg(field->hi).arg(v));
            value = *x;
            break;
        }
        case FieldKind::Count: {
            const auto x = parseCount(v);
            if (!x || *x < field->lo || *x > field->hi)
                return failure(name, QStringLiteral("must be a count from %1 to %2 written like 300e9, 3e11, 300B or 1.5T "
                                                    "(got '%3')").arg(boundText(field->lo), boundText(field->hi), v));
            value = *x;
            break;
        }
        case FieldKind::Choice:
            if (!choiceNames(*field).contains(v))
                return failure(name, QStringLiteral("must be %1 (got '%2')").arg(choiceList(choiceNames(*field)), v));
            value = v;
            break;
        case FieldKind::Text:
            if (auto refusal = checkCatalogId(catalog, field->key, v))
                return refusal;
            value = v;
            break;
        case FieldKind::Flag:
            value = true;
            break;
        }
        field->set(c.scenario, value);
        return std::nullopt;
    };
}

/// Every scenario field's option (and a flag's "off" form), from the one field table.
QList<Option> scenarioOptions(const Catalog &catalog)
{
    QList<Option> out;
    for (const ScenarioField &f : scenarioFields()) {
        if (!f.option)
            continue;
        if (f.kind == FieldKind::Flag) {
            const ScenarioField *field = &f;
            out.append({f.option, false, [field](Command &c, const QString &) -> std::optional<Failure> {
                            field->set(c.scenario, true);
                            return std::nullopt;
                        }});
            out.append({f.offOption, false, [field](Command &c, const QString &) -> std::optional<Failure> {
                            field->set(c.scenario, false);
                            return std::nullopt;
                        }});
            continue;
        }
        out.append({f.option, true, fieldOption(f, catalog)});
    }
    // A convenience in other units, not a field of its own.
    out.append({"reserved-gb", true, realOption("reserved-gb", 0, limits::maxReservedBytes / 1e9, false,
                                                [](Command &c, double x) { c.scenario.reservedBytes = x * 1e9; })});
    return out;
}

/// The most layouts `napkin plan --top` prints.
constexpr std::int64_t kMaxPlanTop = 1000;

QList<Option> outputOptions()
{
    return {
        {"json", false, flag([](Command &c) { c.json = true; })},
        {"gib", false, flag([](Command &c) {
             c.unit = ByteUnit::GiB;
             c.unitGiven = true;
         })},
        {"memory-axis", true, [](Command &c, const QString &v) -> std::optional<Failure> {
             const QStringList names = {QStringLiteral("all"), QStringLiteral("capacity"), QStringLiteral("chosen")};
             const qsizetype i = names.indexOf(v);
             if (i < 0)
                 return failure(QStringLiteral("memory-axis"), QStringLiteral("must be all, capacity or chosen (got '%1')").arg(v));
             c.memoryAxis = static_cast<MemoryAxisFocus>(i);
             return std::nullopt;
         }},
        {"out", true, [](Command &c, const QString &v) -> std::optional<Failure> {
             if (v.isEmpty())
                 return failure(QStringLiteral("out"), QStringLiteral("must name a folder"));
             c.outDir = v;
             return std::nullopt;
         }},
        {"size", true, [](Command &c, const QString &v) -> std::optional<Failure> {
             const QStringList wh = v.toLower().split(QLatin1Char('x'));
             const auto w = wh.size() == 2 ? parseInteger(wh[0], limits::minExportSide, limits::maxExportSide) : std::nullopt;
             const auto h = wh.size() == 2 ? parseInteger(wh[1], limits::minExportSide, limits::maxExportSide) : std::nullopt;
             if (!w || !h)
                 return failure(QStringLiteral("size"),
                                QStringLiteral("must be WIDTHxHEIGHT in pixels, each from %1 to %2 (got '%3')")
                                    .arg(limits::minExportSide).arg(limits::maxExportSide).arg(v));
             c.size = QSize(static_cast<int>(*w), static_cast<int>(*h));
             return std::nullopt;
         }},
        {"top", true, integerOption("top", 1, kMaxPlanTop, [](Command &c, std::int64_t n) { c.planTop = static_cast<int>(n); })},
        {"tp-beyond-node", false, flag([](Command &c) { c.planTpBeyondNode = true; })},
        {"scale", true, integerOption("scale", limits::minExportScale, limits::maxExportScale,
                                      [](Command &c, std::int64_t n) { c.scale = static_cast<int>(n); })},
    };
}

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
        {"report", Verb::Report}, {"plan", Verb::Plan}, {"presets", Verb::Presets}, {"gpus", Verb::Gpus},
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

namespace {

ParseOutcome parseUnescaped(const QStringList &args, const Catalog &catalog)
{
    Command c;
    int first = 0;
    if (!args.isEmpty() && !args.first().startsWith(QLatin1Char('-'))) {
        const auto verb = std::find_if(verbs().begin(), verbs().end(),
                                       [&](const auto &v) { return args.first() == QLatin1String(v.first); });
        if (verb == verbs().end())
            return {std::nullopt, QStringLiteral("unknown command '%1': expected report, presets, gpus, recipes, "
                                                 "export or an option (see napkin --help)").arg(args.first())};
        c.verb = verb->second;
        first = 1;
    }

    // Pass 1: split into (option, value) pairs, so precedence does not depend on order.
    const QList<Option> scenarioOpts = scenarioOptions(catalog);
    const QList<Option> outputOpts = outputOptions();
    QString scenarioFile;
    bool scenarioGiven = false;
    QString preset;
    bool lecture = false;
    QList<std::pair<const Option *, QString>> assignments;
    for (int i = first; i < args.size(); ++i) {
        QString arg = args.at(i);
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            c.verb = Verb::Help;
            return {c, {}};
        }
        if (arg == QLatin1String("-v") || arg == QLatin1String("--version")) {
            c.verb = Verb::Version;
            return {c, {}};
        }
        // Qt's own options (-platform xcb, -qwindowgeometry 1280x720, -style fusion, ...) are
        // left to QApplication, which reads them from argv.
        if (const int taken = qtStandardArgument(args, i); taken > 0) {
            i += taken - 1;
            continue;
        }
        if (!arg.startsWith(QLatin1String("--")))
            return {std::nullopt, QStringLiteral("unexpected argument '%1' (options start with --; see napkin --help)").arg(arg)};
        QString name = arg.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        // A value is never empty and never another option: `--out --json` must not write
        // into a folder named "--json", and `--scenario ""` must not be ignored.
        QString valueProblem;
        const auto takeValue = [&]() -> std::optional<QString> {
            std::optional<QString> v = inlineValue;
            if (!v && i + 1 < args.size()) {
                if (args.at(i + 1).startsWith(QLatin1String("--"))) {
                    valueProblem = QStringLiteral("--%1: needs a value, not the option '%2'").arg(name, args.at(i + 1));
                    return std::nullopt;
                }
                v = args.at(++i);
            }
            if (!v)
                valueProblem = QStringLiteral("--%1: needs a value").arg(name);
            else if (v->trimmed().isEmpty())
                valueProblem = QStringLiteral("--%1: needs a value (got an empty one)").arg(name);
            return valueProblem.isEmpty() ? v : std::nullopt;
        };
        if (name == QLatin1String("lecture")) {
            if (inlineValue)
                return {std::nullopt, QStringLiteral("--lecture: takes no value")};
            lecture = true;
            c.scenarioGiven = true;
            continue;
        }
        if (name == QLatin1String("scenario") || name == QLatin1String("preset")) {
            const auto v = takeValue();
            if (!v)
                return {std::nullopt, valueProblem};
            (name == QLatin1String("scenario") ? scenarioFile : preset) = *v;
            scenarioGiven |= name == QLatin1String("scenario");
            continue;
        }
        const Option *option = nullptr;
        for (const QList<Option> *list : {&scenarioOpts, &outputOpts})
            for (const Option &o : *list)
                if (name == QLatin1String(o.name))
                    option = &o;
        if (!option)
            return {std::nullopt, QStringLiteral("unknown option '--%1' (see napkin --help)").arg(name)};
        if (!option->takesValue && inlineValue)
            return {std::nullopt, QStringLiteral("--%1: takes no value").arg(name)};
        QString value;
        if (option->takesValue) {
            const auto v = takeValue();
            if (!v)
                return {std::nullopt, valueProblem};
            value = *v;
        }
        assignments.append({option, value});
        if (option >= scenarioOpts.data() && option < scenarioOpts.data() + scenarioOpts.size())
            c.scenarioGiven = true;
    }

    // Pass 2: scenario file, then preset, then the rest in the order given.
    if (lecture && (scenarioGiven || !preset.isEmpty()))
        return {std::nullopt, QStringLiteral("--lecture: is a whole scenario; give it without --scenario and --preset "
                                             "(other options given too override it)")};
    if (lecture) {
        c.scenario = lectureExample();
        // Its 1.984 GB under an 80 GiB axis would hide the split it teaches.
        c.memoryAxis = MemoryAxisFocus::ChosenStage;
    }
    if (scenarioGiven) {
        Refusal e;
        const auto s = readScenarioFile(scenarioFile, c.scenario, &e);
        if (!s)
            return {std::nullopt, e.field == QLatin1String("scenario file")
                                      ? QStringLiteral("--scenario: ") + e.problem
                                      : QStringLiteral("--scenario: %1: field \"%2\" %3").arg(scenarioFile, e.field, e.problem)};
        c.scenario = *s;
        c.scenarioGiven = true;
    }
    if (!preset.isEmpty()) {
        const ModelPreset *p = catalog.findPreset(preset);
        if (!p)
            return {std::nullopt, QStringLiteral("--preset: must be one of %1 (got '%2'; see `napkin presets`)")
                                      .arg(catalog.presetIdList(), preset)};
        // The same rule as the window's preset chooser (a gpt2 sequence is shortened to the
        // position table); an explicit --seq-len is still checked below.
        c.scenario = applyPreset(c.scenario, *p, nullptr);
        c.scenarioGiven = true;
    }
    ShapeFieldsGiven given;
    for (const auto &[option, value] : assignments) {
        if (const auto f = option->apply(c, value))
            return {std::nullopt, f->message};
        const QLatin1String name(option->name);
        given.arch |= name == QLatin1String("arch");
        given.dModel |= name == QLatin1String("d-model");
        given.heads |= name == QLatin1String("heads");
        given.kvHeads |= name == QLatin1String("kv-heads");
        given.dFf |= name == QLatin1String("d-ff");
        given.tied |= name == QLatin1String("tied") || name == QLatin1String("untied");
    }
    c.scenario.model = deriveDependentFields(c.scenario.model, given);
    if (c.verb == Verb::Export && c.outDir.isEmpty())
        return {std::nullopt, QStringLiteral("--out: export needs a folder to write the PNGs into")};

    if (const auto e = validateScenario(c.scenario))
        return {std::nullopt, optionForField(e->field) + QStringLiteral(": ") + e->problem};
    if (!catalog.findGpu(c.scenario.gpuId))
        return {std::nullopt, QStringLiteral("--gpu: '%1' is not in the catalog (see `napkin gpus`)").arg(c.scenario.gpuId)};
    if (!findRecipe(c.scenario.recipeId))
        return {std::nullopt, QStringLiteral("--recipe: '%1' is not a known recipe (see `napkin recipes`)").arg(c.scenario.recipeId)};
    return {c, {}};
}

} // namespace

ParseOutcome parseCommandLine(const QStringList &args, const Catalog &catalog)
{
    ParseOutcome outcome = parseUnescaped(args, catalog);
    // One line, whatever the user typed: newlines and escapes in values come back as \n, \x1b.
    outcome.error = printable(outcome.error, -1);
    return outcome;
}

namespace {

/// "  --seq-len N         tokens per sequence (an integer from 1 to 1048576; default 1024)",
/// wrapped at 100 columns under the description column.
QString optionHelp(const QString &left, const QString &text)
{
    constexpr int kColumn = 22;
    constexpr int kWidth = 100;
    QString out = QStringLiteral("  ") + left;
    out += out.size() < kColumn ? QString(kColumn - out.size(), QLatin1Char(' ')) : QStringLiteral("\n") + QString(kColumn, QLatin1Char(' '));
    int column = kColumn;
    bool first = true;
    for (const QString &word : text.split(QLatin1Char(' '))) {
        if (!first && column + 1 + word.size() > kWidth) {
            out += QStringLiteral("\n") + QString(kColumn, QLatin1Char(' '));
            column = kColumn;
        } else if (!first) {
            out += QLatin1Char(' ');
            ++column;
        }
        out += word;
        column += static_cast<int>(word.size());
        first = false;
    }
    return out + QLatin1Char('\n');
}

QString fieldsHelp(FieldGroup group)
{
    QString out;
    for (const ScenarioField &f : scenarioFields()) {
        if (f.group != group || !f.option)
            continue;
        QString left = QStringLiteral("--") + QLatin1String(f.option);
        QString detail;
        if (f.kind == FieldKind::Flag) {
            left += QStringLiteral(" | --") + QLatin1String(f.offOption);
            detail = QStringLiteral("default %1").arg(defaultText(f));
        } else {
            left += QLatin1Char(' ') + (f.valueName ? QLatin1String(f.valueName) : choiceNames(f).join(QLatin1Char('|')));
            detail = f.kind == FieldKind::Choice || f.kind == FieldKind::Text
                         ? QStringLiteral("default %1").arg(defaultText(f))
                         : QStringLiteral("%1; default %2").arg(acceptedText(f), defaultText(f));
        }
        out += optionHelp(left, QStringLiteral("%1 (%2; JSON \"%3\")").arg(QLatin1String(f.help), detail, QLatin1String(f.key)));
    }
    return out;
}

} // namespace

QString helpText()
{
    QString out = QStringLiteral(R"(Usage: napkin [COMMAND] [OPTIONS]

Napkin answers, before any model code exists: will this transformer training run fit in
GPU memory, how long will it take, and is it compute-bound or memory-bound?

Commands:
  (none) | window     open the desktop window, starting from the options given
  report [--json]     print the accounting as text (or JSON in base units)
  plan [--top K] [--json] [--tp-beyond-node]
                      rank parallel layouts (tp, pp, vpp, cp, dp, ZeRO, micro-batch,
                      recompute) for the model, GPU count and global batch by estimated
                      step time, best first (K from 1 to 1000, default 10)
  export --out DIR    write memory.png, time.png, roofline.png, dashboard.png (no display needed)
  presets             list the model presets
  gpus                list the GPU catalog
  recipes             list the precision/optimizer recipes
  interconnects       list the links (NVLink, PCIe, InfiniBand, RoCE, ICI) with sources

Model:
  --preset NAME       start from a preset (shape options given too override it)
  --lecture           start from the CS336 source document's example: N = 124e6 given,
                      D = 300e9, 6ND, no activations, nothing reserved, one GPU
)");
    out += fieldsHelp(FieldGroup::Model);
    out += QStringLiteral("Run:\n");
    out += fieldsHelp(FieldGroup::Run);
    out += optionHelp(QStringLiteral("--reserved-gb F"), QStringLiteral("--reserved in GB (1e9 bytes)"));
    out += optionHelp(QStringLiteral("--scenario FILE"), QStringLiteral("load a saved scenario (options given too override "
                                                                       "it); a regular file of at most 1 MiB"));
    out += QStringLiteral("Parallel layout (ranks ordered TP, CP, DP, PP; dp = gpus / (tp x pp x cp)):\n");
    out += fieldsHelp(FieldGroup::Parallel);
    out += QStringLiteral(R"(Output:
  --json              report as JSON           --gib     show GiB (2^30) instead of GB (1e9)
  --memory-axis all|capacity|chosen   what the memory chart's axis spans: every stage
                      (default), the chosen stage and the GPU's capacity, or the chosen one
  --size WxH          export size in pixels (default 1600x1000)
  --scale N           export at N device pixels per pixel, 1 or 2 (2: a WxH layout drawn
                      at 2W x 2H pixels, sharp on slides; default 1)
  -h, --help          this text                -v, --version

Every scenario option is also a key of a scenario file (--scenario, File > Save), named above.
Invalid input exits with status 2 and one line naming the option and what it accepts.
)");
    return out;
}

} // namespace napkin
