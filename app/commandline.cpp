#include "commandline.h"

#include "lectureexample.h"

#include "numberparse.h"
#include "recipe.h"
#include "scenariojson.h"
#include "shapefix.h"
#include "validation.h"

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

/// An option whose value names one of an enum's values ("none", "selective", ...).
template <typename Enum>
Apply enumOption(const char *name, const char *accepted, std::optional<Enum> (*fromName)(const QString &),
                 void (*set)(Command &, Enum))
{
    return [=](Command &c, const QString &v) -> std::optional<Failure> {
        const auto e = fromName(v);
        if (!e)
            return failure(QLatin1String(name), QStringLiteral("must be %1 (got '%2')").arg(QLatin1String(accepted), v));
        set(c, *e);
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

QList<Option> scenarioOptions(const Catalog &catalog)
{
    using L = std::int64_t;
    return {
        {"arch", true, enumOption<Arch>("arch", "gpt2 or llama", archFromName,
                                        [](Command &c, Arch a) { c.scenario.model.arch = a; })},
        {"layers", true, integerOption("layers", 1, limits::maxLayers, [](Command &c, L n) { c.scenario.model.layers = n; })},
        {"d-model", true, integerOption("d-model", 1, limits::maxDModel, [](Command &c, L n) { c.scenario.model.dModel = n; })},
        {"heads", true, integerOption("heads", 1, limits::maxHeads, [](Command &c, L n) { c.scenario.model.heads = n; })},
        {"kv-heads", true, integerOption("kv-heads", 1, limits::maxHeads, [](Command &c, L n) { c.scenario.model.kvHeads = n; })},
        {"d-ff", true, integerOption("d-ff", 1, limits::maxDFf, [](Command &c, L n) { c.scenario.model.dFf = n; })},
        {"vocab", true, integerOption("vocab", 1, limits::maxVocab, [](Command &c, L n) { c.scenario.model.vocab = n; })},
        {"max-pos", true, integerOption("max-pos", 1, limits::maxPositions, [](Command &c, L n) { c.scenario.model.maxPositions = n; })},
        {"tied", false, flag([](Command &c) { c.scenario.model.tied = true; })},
        {"untied", false, flag([](Command &c) { c.scenario.model.tied = false; })},
        {"params", true, integerOption("params", 1, limits::maxParams, [](Command &c, L n) { c.scenario.paramsOverride = n; })},
        {"seq-len", true, integerOption("seq-len", 1, limits::maxSeqLen, [](Command &c, L n) { c.scenario.seqLen = n; })},
        {"batch", true, integerOption("batch", 1, limits::maxMicroBatch, [](Command &c, L n) { c.scenario.microBatch = n; })},
        {"tokens", true, [](Command &c, const QString &v) -> std::optional<Failure> {
             const auto t = parseCount(v);
             if (!t || *t < limits::minTokens || *t > limits::maxTokens)
                 return failure(QStringLiteral("tokens"),
                                QStringLiteral("must be a count from 1 to 1e16 written like 300e9, 3e11, 300B or 1.5T (got '%1')").arg(v));
             c.scenario.tokens = *t;
             return std::nullopt;
         }},
        {"gpu", true, [&catalog](Command &c, const QString &v) -> std::optional<Failure> {
             if (!catalog.findGpu(v))
                 return failure(QStringLiteral("gpu"), QStringLiteral("must be one of %1 (got '%2'; see `napkin gpus`)")
                                                           .arg(catalog.gpuIdList(), v));
             c.scenario.gpuId = v;
             return std::nullopt;
         }},
        {"gpus", true, integerOption("gpus", 1, limits::maxGpus, [](Command &c, L n) { c.scenario.gpus = n; })},
        {"zero", true, integerOption("zero", 0, 3, [](Command &c, L n) { c.scenario.zeroStage = static_cast<int>(n); })},
        {"recipe", true, [](Command &c, const QString &v) -> std::optional<Failure> {
             if (!findRecipe(v))
                 return failure(QStringLiteral("recipe"), QStringLiteral("must be one of %1 (got '%2')").arg(recipeIdList(), v));
             c.scenario.recipeId = v;
             return std::nullopt;
         }},
        {"recompute", true, enumOption<Recompute>("recompute", "none, selective or full", recomputeFromName,
                                                  [](Command &c, Recompute r) { c.scenario.recompute = r; })},
        {"flash", false, flag([](Command &c) { c.scenario.flashAttention = true; })},
        {"no-flash", false, flag([](Command &c) { c.scenario.flashAttention = false; })},
        {"no-activations", false, flag([](Command &c) { c.scenario.includeActivations = false; })},
        {"activations", false, flag([](Command &c) { c.scenario.includeActivations = true; })},
        {"activation-model", true,
         enumOption<ActivationModel>("activation-model", "korthikanti or pytorch", activationModelFromName,
                                     [](Command &c, ActivationModel m) { c.scenario.activationModel = m; })},
        {"dropout", false, flag([](Command &c) { c.scenario.dropout = true; })},
        {"no-dropout", false, flag([](Command &c) { c.scenario.dropout = false; })},
        {"causal", false, flag([](Command &c) { c.scenario.causalHalving = true; })},
        {"no-causal", false, flag([](Command &c) { c.scenario.causalHalving = false; })},
        {"flops-basis", true, enumOption<FlopsBasis>("flops-basis", "6nd or detailed", flopsBasisFromName,
                                                     [](Command &c, FlopsBasis b) { c.scenario.flopsBasis = b; })},
        {"mfu", true, realOption("mfu", limits::minMfu, limits::maxMfu, false, [](Command &c, double x) { c.scenario.mfuFraction = x; })},
        {"utilization-basis", true,
         enumOption<UtilizationBasis>("utilization-basis", "hfu or mfu", utilizationBasisFromName,
                                      [](Command &c, UtilizationBasis b) { c.scenario.utilizationBasis = b; })},
        {"price", true, realOption("price", 0, limits::maxPriceUsd, false, [](Command &c, double x) { c.scenario.pricePerGpuHourUsd = x; })},
        {"reserved", true, realOption("reserved", 0, limits::maxReservedBytes, false, [](Command &c, double x) { c.scenario.reservedBytes = x; })},
        {"reserved-gb", true, realOption("reserved-gb", 0, limits::maxReservedBytes / 1e9, false,
                                         [](Command &c, double x) { c.scenario.reservedBytes = x * 1e9; })},
        {"allocator-margin", true, realOption("allocator-margin", 0, limits::maxAllocatorMargin, false,
                                              [](Command &c, double x) { c.scenario.allocatorMargin = x; })},
        {"tp", true, integerOption("tp", 1, limits::maxGpus, [](Command &c, L n) { c.scenario.tp = n; })},
        {"sp", false, flag([](Command &c) { c.scenario.sequenceParallel = true; })},
        {"no-sp", false, flag([](Command &c) { c.scenario.sequenceParallel = false; })},
        {"pp", true, integerOption("pp", 1, limits::maxGpus, [](Command &c, L n) { c.scenario.pp = n; })},
        {"vpp", true, integerOption("vpp", 1, limits::maxLayers, [](Command &c, L n) { c.scenario.vpp = n; })},
        {"cp", true, integerOption("cp", 1, limits::maxGpus, [](Command &c, L n) { c.scenario.cp = n; })},
        {"global-batch", true, integerOption("global-batch", 1, limits::maxGlobalBatch,
                                             [](Command &c, L n) { c.scenario.globalBatch = n; })},
        {"gpus-per-node", true, integerOption("gpus-per-node", 1, limits::maxGpus,
                                              [](Command &c, L n) { c.scenario.gpusPerNode = n; })},
        {"interconnect", true, [&catalog](Command &c, const QString &v) -> std::optional<Failure> {
             if (!catalog.findInterconnect(v))
                 return failure(QStringLiteral("interconnect"),
                                QStringLiteral("must be one of %1 (got '%2'; see `napkin interconnects`)")
                                    .arg(catalog.interconnectIdList(), v));
             c.scenario.interconnectId = v;
             return std::nullopt;
         }},
        {"efficiency-matmul", true, realOption("efficiency-matmul", 0, limits::maxEfficiency, true,
                                               [](Command &c, double x) { c.scenario.efficiencyMatmul = x; })},
        {"efficiency-memory", true, realOption("efficiency-memory", 0, limits::maxEfficiency, true,
                                               [](Command &c, double x) { c.scenario.efficiencyMemory = x; })},
        {"time-basis", true, enumOption<TimeBasis>("time-basis", "mfu or estimated", timeBasisFromName,
                                                   [](Command &c, TimeBasis b) { c.scenario.timeBasis = b; })},
    };
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
             const auto w = wh.size() == 2 ? parseInteger(wh[0], 200, 8192) : std::nullopt;
             const auto h = wh.size() == 2 ? parseInteger(wh[1], 200, 8192) : std::nullopt;
             if (!w || !h)
                 return failure(QStringLiteral("size"),
                                QStringLiteral("must be WIDTHxHEIGHT in pixels, each from 200 to 8192 (got '%1')").arg(v));
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
    if (field == QLatin1String("max_positions"))
        return QStringLiteral("--max-pos");
    if (field == QLatin1String("activations"))
        return QStringLiteral("--no-activations");
    if (field == QLatin1String("scenario file"))
        return QStringLiteral("--scenario");
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
        ValidationError e;
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

QString helpText()
{
    return QStringLiteral(R"(Usage: napkin [COMMAND] [OPTIONS]

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
  --arch gpt2|llama   family: gpt2 (learned positions, LayerNorm, biases, GELU, tied head)
                      or llama (RoPE, RMSNorm, no biases, SwiGLU, untied head, GQA)
  --layers N  --d-model N  --heads N  --kv-heads N  --d-ff N  --vocab N  --max-pos N
  --tied | --untied   LM head shares the token embedding or not
  --params N          a parameter count given directly (e.g. 124e6): used as both total and
                      non-embedding count, as in the CS336 source document
Run:
  --seq-len N         tokens per sequence              --batch N   micro-batch per GPU
  --tokens D          training tokens: 300e9, 3e11, 300B, 1.5T
  --gpu ID  --gpus N  GPU model (see napkin gpus) and data-parallel GPU count
  --zero 0..3         ZeRO stage: 1 shards optimizer state, 2 + grads, 3 + params
  --recipe ID         precision/optimizer recipe (see napkin recipes)
  --recompute none|selective|full    activation recomputation (Korthikanti et al. 2022)
  --flash | --no-flash               FlashAttention: no s^2 attention activations
  --no-activations | --activations   leave activations out of memory (as the source document)
  --activation-model korthikanti|pytorch   Korthikanti et al. 2022, or what autograd keeps in a
                      plain PyTorch decoder (measured; tests/validation/ACTIVATION_MODEL.md)
  --dropout | --no-dropout           dropout layers present (pytorch activation model)
  --causal | --no-causal             halve the attention matmuls for a causal mask
  --flops-basis 6nd|detailed         which FLOPs figure the time estimate uses
  --mfu F             achieved utilisation of peak, 0.001 to 1, of the basis below
  --utilization-basis hfu|mfu        what --mfu is: hfu (default) counts the recomputed forward
                      in the FLOPs, so recomputation costs time; mfu counts model FLOPs only
                      (Chowdhery et al. 2022, App. B)
  --price USD         rental price per GPU-hour (default: the GPU's catalog price, see
                      `napkin gpus`)
  --reserved BYTES    memory each GPU holds besides the model: CUDA context and kernels
                      (default 1343 MiB = 1.408e9, as measured in Hugging Face's "Model
                      training anatomy"; 0 for the source document's accounting)
Parallel layout (ranks ordered TP, CP, DP, PP; dp = gpus / (tp x pp x cp)):
  --tp N  --pp N  --vpp N  --cp N    tensor, pipeline, virtual-stage and context parallelism
                      (tp divides heads and kv_heads; pp <= layers; vpp splits layers into
                      pp x vpp chunks; 2 x cp divides seq_len)
  --sp | --no-sp      sequence parallelism: split the TP-replicated activations too
  --global-batch N    sequences per optimizer step (a multiple of batch x dp; default
                      batch x dp, one micro-batch per replica)
  --gpus-per-node N   GPUs sharing the scale-up link (default: the GPU's node)
  --interconnect ID   the link between nodes (default: the GPU's; see napkin interconnects)
  --efficiency-matmul F  --efficiency-memory F   fractions of peak FLOP/s and bandwidth the
                      bottom-up step time assumes (default: the GPU's catalog figures)
  --time-basis mfu|estimated   the run's time from --mfu (default) or the estimated step
  --reserved-gb F     --reserved in GB (1e9 bytes)
  --allocator-margin F   the caching allocator's margin, a fraction of the rest (default 0)
  --scenario FILE     load a saved scenario (options given too override it); a regular
                      file of at most 1 MiB
Output:
  --json              report as JSON           --gib     show GiB (2^30) instead of GB (1e9)
  --memory-axis all|capacity|chosen   what the memory chart's axis spans: every stage
                      (default), the chosen stage and the GPU's capacity, or the chosen one
  --size WxH          export size in pixels (default 1600x1000)
  --scale N           export at N device pixels per pixel, 1 or 2 (2: a WxH layout drawn
                      at 2W x 2H pixels, sharp on slides; default 1)
  -h, --help          this text                -v, --version

Invalid input exits with status 2 and one line naming the option and what it accepts.
)");
}

} // namespace napkin
