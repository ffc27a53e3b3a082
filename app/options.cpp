#include "app/options.h"

#include "core/io/numberparse.h"
#include "core/model/fields.h"
#include "core/model/limits.h"
#include "core/model/recipe.h"
#include "core/model/scalinglaw.h"

namespace napkin {

namespace {

std::optional<Refusal> failure(const QString &option, const QString &problem)
{
    return Refusal{QStringLiteral("--") + option, problem};
}

Apply integerOption(const char *name, std::int64_t lo, std::int64_t hi,
                    std::function<void(Command &, std::int64_t)> set)
{
    return [=](Command &c, const QString &v) -> std::optional<Refusal> {
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
    return [=](Command &c, const QString &v) -> std::optional<Refusal> {
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
    return [=](Command &c, const QString &) -> std::optional<Refusal> {
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

/// The option that sets a field from its command-line text, by the field's kind and range.
Apply fieldOption(const ScenarioField &f, const Catalog &catalog)
{
    const QString name = QLatin1String(f.option);
    const ScenarioField *field = &f;
    return [field, name, &catalog](Command &c, const QString &v) -> std::optional<Refusal> {
        QJsonValue value;
        if (field->nullWord && v == QLatin1String(field->nullWord)) {
            field->set(c.scenario, QJsonValue());
            return std::nullopt;
        }
        switch (field->kind) {
        case FieldKind::Integer: {
            const auto lo = static_cast<std::int64_t>(field->lo);
            const auto hi = static_cast<std::int64_t>(field->hi);
            const auto n = parseInteger(v, lo, hi);
            if (!n)
                return failure(name, integerRangeProblem(lo, hi, QLatin1Char('\'') + v + QLatin1Char('\''))
                                         + (field->nullWord ? QStringLiteral(", or %1").arg(QLatin1String(field->nullWord))
                                                            : QString()));
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
} // namespace

/// A catalog id (gpu, recipe, interconnect) the catalog must know, refused in the catalog's one wording.
std::optional<Refusal> checkCatalogId(const Catalog &catalog, const char *key, const QString &v)
{
    const QString field = QLatin1String(key);
    const QString option = QStringLiteral("--") + field;
    if (field == QLatin1String("gpu") && !catalog.findGpu(v))
        return unknownIdRefusal(option, v, catalog.gpuIdList(), QStringLiteral("gpus"));
    if (field == QLatin1String("recipe") && !findRecipe(v))
        return unknownIdRefusal(option, v, recipeIdList(), QStringLiteral("recipes"));
    if (field == QLatin1String("interconnect") && !catalog.findInterconnect(v))
        return unknownIdRefusal(option, v, catalog.interconnectIdList(), QStringLiteral("interconnects"));
    if (field == QLatin1String("preset") && !catalog.findPreset(v))
        return unknownIdRefusal(option, v, catalog.presetIdList(), QStringLiteral("presets"));
    return std::nullopt;
}

QList<Option> scenarioOptions(const Catalog &catalog)
{
    QList<Option> out;
    for (const ScenarioField &f : scenarioFields()) {
        if (!f.option)
            continue;
        if (f.kind == FieldKind::Flag) {
            const ScenarioField *field = &f;
            out.append({f.option, false, [field](Command &c, const QString &) -> std::optional<Refusal> {
                            field->set(c.scenario, true);
                            return std::nullopt;
                        }});
            out.append({f.offOption, false, [field](Command &c, const QString &) -> std::optional<Refusal> {
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
        {"memory-axis", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             const QStringList names = {QStringLiteral("all"), QStringLiteral("capacity"), QStringLiteral("chosen")};
             const qsizetype i = names.indexOf(v);
             if (i < 0)
                 return failure(QStringLiteral("memory-axis"), QStringLiteral("must be all, capacity or chosen (got '%1')").arg(v));
             c.memoryAxis = static_cast<MemoryAxisFocus>(i);
             return std::nullopt;
         }},
        {"out", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             if (v.isEmpty())
                 return failure(QStringLiteral("out"), QStringLiteral("must name a folder"));
             c.outDir = v;
             return std::nullopt;
         }},
        {"size", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
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
        {"measured-step-seconds", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             const auto x = parseReal(v);
             if (!x || !(*x > 0) || *x > 1e9)
                 return failure(QStringLiteral("measured-step-seconds"),
                                QStringLiteral("must be a time above 0 and at most 1e9 seconds (got '%1')").arg(v));
             c.measuredStepSeconds = *x;
             c.calibrateOptionsGiven << QStringLiteral("--measured-step-seconds");
             return std::nullopt;
         }},
        {"measured-peak-bytes", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             const auto x = parseReal(v);
             if (!x || !(*x > 0) || *x > 1e15)
                 return failure(QStringLiteral("measured-peak-bytes"),
                                QStringLiteral("must be a size above 0 and at most 1e15 bytes (got '%1')").arg(v));
             c.measuredPeakBytes = *x;
             c.calibrateOptionsGiven << QStringLiteral("--measured-peak-bytes");
             return std::nullopt;
         }},
        {"measured", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             c.measuredFile = v;
             c.calibrateOptionsGiven << QStringLiteral("--measured");
             return std::nullopt;
         }},
        {"save", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             c.saveFile = v;
             c.calibrateOptionsGiven << QStringLiteral("--save");
             return std::nullopt;
         }},
        {"top", true, integerOption("top", 1, kMaxPlanTop, [](Command &c, std::int64_t n) { c.planTop = static_cast<int>(n); })},
        {"tp-beyond-node", false, flag([](Command &c) { c.planTpBeyondNode = true; })},
        {"scale", true, integerOption("scale", limits::minExportScale, limits::maxExportScale,
                                      [](Command &c, std::int64_t n) { c.scale = static_cast<int>(n); })},
        {"format", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             const auto format = imageFormatFromName(v);
             if (!format) {
                 QStringList names;
                 for (ImageFormat f : kAllImageFormats)
                     names << imageFormatName(f);
                 return failure(QStringLiteral("format"), QStringLiteral("must be %1 (got '%2')").arg(choiceList(names), v));
             }
             c.format = *format;
             return std::nullopt;
         }},
    };
}

namespace {

/// A budget amount: any positive number (its range depends on the GPU, which computeBudget checks).
Apply budgetAmount(const char *name, BudgetUnit unit)
{
    return [=](Command &c, const QString &v) -> std::optional<Refusal> {
        const auto x = parseReal(v);
        if (!x || !(*x > 0))
            return failure(QLatin1String(name), QStringLiteral("must be a number above 0 (got '%1')").arg(v));
        c.budget.unit = unit;
        c.budget.amount = *x;
        c.budgetForms << QStringLiteral("--") + QLatin1String(name);
        c.budgetOptionsGiven << QStringLiteral("--") + QLatin1String(name);
        return std::nullopt;
    };
}

} // namespace

QList<Option> budgetOptions()
{
    return {
        {"flops", true, budgetAmount("flops", BudgetUnit::Flops)},
        {"gpu-hours", true, budgetAmount("gpu-hours", BudgetUnit::GpuHours)},
        {"usd", true, budgetAmount("usd", BudgetUnit::Usd)},
        {"days", true, budgetAmount("days", BudgetUnit::Days)},
        {"law", true, [](Command &c, const QString &v) -> std::optional<Refusal> {
             const auto law = scalingLawFromId(v);
             if (!law)
                 return failure(QStringLiteral("law"), QStringLiteral("must be %1 (got '%2')").arg(choiceList(scalingLawIds()), v));
             c.budget.law = *law;
             c.budgetOptionsGiven << QStringLiteral("--law");
             return std::nullopt;
         }},
        {"tokens-per-param", true, realOption("tokens-per-param", 0, 1e5, true, [](Command &c, double x) {
             c.budget.tokensPerParam = x;
             c.budgetOptionsGiven << QStringLiteral("--tokens-per-param");
         })},
        {"inference-tokens", true, realOption("inference-tokens", 0, limits::maxTokens * 1e3, false, [](Command &c, double x) {
             c.budget.inferenceTokens = x;
             c.budgetOptionsGiven << QStringLiteral("--inference-tokens");
         })},
    };
}

} // namespace napkin
