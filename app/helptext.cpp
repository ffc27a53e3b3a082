// napkin --help: the commands, then every scenario field's option from the one field table.
#include "app/commandline.h"

#include "core/model/fields.h"

namespace napkin {

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
  budget (--flops C | --gpu-hours H | --usd X | --days D) [--law L] [--json]
                      from a training budget to a model: the compute-optimal parameters N
                      and tokens D (6ND = C), the predicted loss, a shape of the scenario's
                      family near N, its time and cost on the scenario's GPUs and the
                      planner's best layout. --gpu-hours and --days (with --gpus) run at the
                      GPU's peak x --mfu; --usd at its price
    --law besiroglu2024|hoffmann2022|dubey2024|tokens-per-param
                      the scaling law (default besiroglu2024, the corrected Chinchilla fit)
    --tokens-per-param R   tokens-per-param's D/N (above 0 to 100000; default 20)
    --inference-tokens T   tokens the model will serve: the smallest total of training and
                      inference FLOPs at the same loss (Sardana et al. 2023; default 0)
  calibrate --measured-step-seconds S [--measured-peak-bytes B] [--save FILE.json] [--json]
                      fit three factors (compute, memory traffic, communication) so that
                      the estimated step meets a step you measured on this scenario: least
                      squares on the log error, the smallest change that explains one run.
                      Prints each run before and after, the factors and the efficiencies
                      they imply; --save writes the scenario with its calibration, which
                      every later report, plan and window view uses and names
    --measured FILE.json   fit to several runs instead: a list of {"label", "scenario":
                      {scenario file keys, over the options given}, "step_seconds",
                      "peak_bytes"}
  export --out DIR [--format png|svg|pdf]
                      write every chart, all or none (no display needed):
                      dashboard.png, memory.png, time.png, roofline.png, steptime.png, layout.png,
                      budget.png (at the budget options given, else this run's compute),
                      and with --mode inference serving.png (throughput against time per token)
                      (the same names ending .svg or .pdf with --format)
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
    out += QStringLiteral("Serving (--mode inference; a replica is tp x pp GPUs, gpus / (tp x pp) replicas):\n");
    out += fieldsHelp(FieldGroup::Serving);
    out += QStringLiteral(R"(Output:
  --json              report as JSON           --gib     show GiB (2^30) instead of GB (1e9)
  --memory-axis all|capacity|chosen   what the memory chart's axis spans: every stage
                      (default), the chosen stage and the GPU's capacity, or the chosen one
  --size WxH          export size in pixels (default 1600x1000); an SVG or PDF is that many
                      pixels at 96 per inch (SVG viewBox 0 0 W H; PDF page 0.75W x 0.75H pt)
  --scale N           export at N device pixels per pixel, 1 or 2 (2: a WxH layout drawn
                      at 2W x 2H pixels, sharp on slides; default 1); PNG only, an SVG or
                      PDF is the same at any scale
  --format png|svg|pdf
                      export as PNG (default), SVG or PDF; SVG and PDF keep every word as text
  -h, --help          this text                -v, --version

Every scenario option is also a key of a scenario file (--scenario, File > Save), named above.
Invalid input exits with status 2 and one line naming the option and what it accepts.
)");
    return out;
}

} // namespace napkin
