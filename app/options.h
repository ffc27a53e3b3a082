#pragma once

#include "app/command.h"
#include "core/model/catalog.h"
#include "core/model/refusal.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace napkin {

/// Applies one option's value to the command, or refuses naming the option ("--seq-len").
using Apply = std::function<std::optional<Refusal>(Command &, const QString &value)>;

/// One command-line option.
struct Option {
    const char *name;  ///< without the leading "--"
    bool takesValue;
    Apply apply;
};

/// A catalog id ("gpu", "recipe", "interconnect" or "preset" as `key`) the catalog must know, refused
/// in the catalog's one wording under its option ("--gpu"); other keys pass.
std::optional<Refusal> checkCatalogId(const Catalog &catalog, const char *key, const QString &v);

/// Every scenario field's option (and a flag's "off" form), from the one field table, and
/// --reserved-gb, a convenience in other units.
QList<Option> scenarioOptions(const Catalog &catalog);

/// The options that shape the output, not the scenario: --json, --gib, --memory-axis, --out,
/// --size, --top, --tp-beyond-node, --scale, --format.
QList<Option> outputOptions();

/// `napkin budget`'s options: one of --flops, --gpu-hours, --usd or --days, and --law,
/// --tokens-per-param, --inference-tokens. `napkin export` takes them too, for budget.png.
QList<Option> budgetOptions();

} // namespace napkin
