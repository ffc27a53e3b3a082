#pragma once

// Helpers shared by the core tests: the built-in catalog and a report for a scenario.
#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace napkin::test {

/// Writes `bytes` to `name` in `dir` (a scenario or runs file a test reads back); its path.
inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write the test file %s", qPrintable(path));
    return path;
}

inline const Catalog &catalog()
{
    static const Catalog c = [] {
        const auto loaded = loadBuiltinCatalog();
        if (!loaded.ok())
            qFatal("built-in catalog failed to load: %s", qPrintable(loaded.refusalMessage()));
        return *loaded;
    }();
    return c;
}

inline Report reportFor(const Scenario &s)
{
    const auto r = computeReport(s, catalog());
    if (!r.ok())
        qFatal("scenario refused: %s", qPrintable(r.refusalMessage()));
    return *r;
}

inline Scenario presetScenario(const char *id)
{
    const ModelPreset *p = catalog().findPreset(QLatin1String(id));
    if (!p)
        qFatal("no preset %s", id);
    Scenario s;
    s.presetId = p->id;
    s.model = p->shape;
    return s;
}

/// `s` under selective recompute of one Megatron-Core module alone ("core_attn", "layernorm",
/// "moe_act", "mla_up_proj"; "" for none of them).
inline Scenario selectiveRecomputeOf(Scenario s, const QString &module)
{
    s.recompute = Recompute::Selective;
    s.recomputeCoreAttention = module == QLatin1String("core_attn");
    s.recomputeNorms = module == QLatin1String("layernorm");
    s.recomputeMoeActivation = module == QLatin1String("moe_act");
    s.recomputeMlaUpProjection = module == QLatin1String("mla_up_proj");
    return s;
}

/// Relative comparison for figures published to a few significant digits.
inline bool near(double actual, double expected, double relTol)
{
    return std::abs(actual - expected) <= relTol * std::abs(expected);
}

/// Seconds per step of the step's collectives in one group, hidden or not.
inline double commSeconds(const Report &r, CommGroup group)
{
    double seconds = 0;
    for (const CommOp &op : r.step.comm)
        if (op.group == group)
            seconds += op.seconds;
    return seconds;
}

} // namespace napkin::test
