#pragma once

#include "core/model/scenario.h"
#include "core/report/budget.h"
#include "core/text/units.h"
#include "ui/state/imageformat.h"
#include "ui/state/memoryaxis.h"

#include <QSize>
#include <QString>

#include <optional>

namespace napkin {

enum class Verb { Window, Report, Plan, Budget, Calibrate, Presets, Gpus, Recipes, Interconnects, Export, Help, Version };

/// A parsed `napkin` invocation.
struct Command {
    Verb verb = Verb::Window;
    Scenario scenario;
    bool scenarioGiven = false;  ///< any scenario option or file was on the command line
    bool json = false;
    ByteUnit unit = ByteUnit::GB;
    bool unitGiven = false;  ///< --gib: the window uses it instead of the remembered unit
    /// --memory-axis; absent: all stages, or the chosen stage for --lecture
    std::optional<MemoryAxisFocus> memoryAxis;
    QString outDir;
    QSize size{1600, 1000};
    int scale = 1;  ///< device pixels per chart pixel, limits::minExportScale to maxExportScale (PNG only)
    ImageFormat format = ImageFormat::Png;  ///< export: --format png|svg|pdf
    int planTop = 10;             ///< plan: layouts to print (--top)
    bool planTpBeyondNode = false;  ///< plan: let TP span nodes (--tp-beyond-node)
    /// budget: --flops, --gpu-hours, --usd or --days, --law, --tokens-per-param, --inference-tokens
    BudgetRequest budget;
    QStringList budgetForms;        ///< the budget options given ("--flops"), exactly one for budget
    QStringList budgetOptionsGiven; ///< every budget option given, refused outside budget and export
    // calibrate: one measured run (the scenario's) or a file of them, and where to save the result.
    std::optional<double> measuredStepSeconds;  ///< --measured-step-seconds
    std::optional<double> measuredPeakBytes;    ///< --measured-peak-bytes
    QString measuredFile;                       ///< --measured FILE.json
    QString saveFile;                           ///< --save FILE.json
    QStringList calibrateOptionsGiven;          ///< refused outside calibrate
};

} // namespace napkin
