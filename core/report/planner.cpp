#include "core/report/planner.h"

#include "core/workload/flops.h"
#include "core/model/layout.h"
#include "core/model/limits.h"
#include "core/run/memory.h"
#include "core/report/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include <QStringList>

namespace napkin {

namespace {

QList<std::int64_t> divisorsUpTo(std::int64_t n, std::int64_t limit)
{
    QList<std::int64_t> out;
    for (std::int64_t d = 1; d <= std::min(n, limit); ++d)
        if (n % d == 0)
            out.append(d);
    return out;
}

/// What depends only on (tp, cp, ep, etp, micro-batch, recompute, unfused accumulations): the
/// one-block sums and compute parts.
class PartsCache final
{
public:
    struct Entry {
        WorkloadSums sums;
        std::optional<ComputeParts> parts;
    };
    Entry &at(const Scenario &c, const Recipe &recipe)
    {
        const Key key{c.tp, c.cp, c.ep, c.etp.value_or(c.tp), c.microBatch, static_cast<int>(c.recompute),
                      unfusedAccumulations(c)};
        auto it = m_entries.find(key);
        if (it == m_entries.end())
            it = m_entries.emplace(key, Entry{blockSums(c, recipe, static_cast<double>(c.microBatch)), std::nullopt}).first;
        return it->second;
    }

private:
    using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, double>;
    std::map<Key, Entry> m_entries;
};

PlannedLayout evaluate(const Scenario &c, const GpuSpec &gpu, const Recipe &recipe, const StepMachine &machine,
                       std::int64_t *evaluated, PartsCache &cache)
{
    PlannedLayout p;
    const Layout l = deriveLayout(c, gpu.gpusPerNode);
    p.tp = l.tp;
    p.pp = l.pp;
    p.vpp = l.vpp;
    p.cp = l.cp;
    p.dp = l.dp;
    p.ep = l.ep;
    p.etp = l.etp;
    p.sp = l.sp;
    p.zeroStage = c.zeroStage;
    p.microBatch = c.microBatch;
    p.globalBatch = l.globalBatch;
    p.recompute = c.recompute;
    ++*evaluated;
    PartsCache::Entry &cached = cache.at(c, recipe);
    p.worstStageBytes = worstStageBytes(c, recipe, l, cached.sums);
    p.fits = p.worstStageBytes <= gpu.memoryBytes;
    if (!p.fits)
        return p;
    const FlopsReport flops = computeFlops(c);
    const QList<double> params = stageParams(c, l, cached.sums);
    if (!cached.parts)
        cached.parts = computeParts(c, recipe, machine);
    const double steps = c.tokens / flops.tokensPerStep;
    const QList<double> experts = stageExpertParams(c, l, cached.sums);
    const StepTimeReport t = estimateStepTime(c, recipe, l, machine, params, optimizerParams(c, l, params, experts),
                                              flops.perStepDetailed, flops.recompute / steps, false, &*cached.parts);
    p.stepSeconds = t.stepSeconds;
    p.estimatedMfu = t.estimatedMfu;
    p.bubbleSeconds = t.bubble;
    p.commExposedSeconds = t.commExposedSeconds();
    // Recompute time: the hardware FLOPs beyond the model's, at the compute the step ran.
    const double compute = t.computeMatmul + t.computeAttention + t.computeOther;
    p.recomputeSeconds = t.estimatedHfu > 0 ? compute * (1 - t.estimatedMfu / t.estimatedHfu) : 0;
    return p;
}

QString percent(double x)
{
    return QString::number(x * 100, 'f', x < 0.1 ? 1 : 0) + QLatin1Char('%');
}

/// The settings where two layouts differ: "pp 8 vs 16, ZeRO 2 vs 1".
QString differences(const PlannedLayout &a, const PlannedLayout &b)
{
    QStringList out;
    const auto compare = [&](const char *name, std::int64_t x, std::int64_t y) {
        if (x != y)
            out << QStringLiteral("%1 %2 vs %3").arg(QLatin1String(name)).arg(x).arg(y);
    };
    compare("tp", a.tp, b.tp);
    compare("pp", a.pp, b.pp);
    compare("vpp", a.vpp, b.vpp);
    compare("cp", a.cp, b.cp);
    compare("ep", a.ep, b.ep);
    if (a.ep > 1 || b.ep > 1)  // without expert parallelism expert TP follows TP: nothing more to say
        compare("expert TP", a.etp, b.etp);
    compare("ZeRO", a.zeroStage, b.zeroStage);
    compare("micro-batch", a.microBatch, b.microBatch);
    if (a.recompute != b.recompute)
        out << QStringLiteral("recompute %1 vs %2").arg(recomputeName(a.recompute), recomputeName(b.recompute));
    return out.join(QStringLiteral(", "));
}

/// The dimensions a layout splits the model or the batch over besides DP.
int splitCount(const PlannedLayout &p)
{
    return int(p.tp > 1) + int(p.pp > 1) + int(p.vpp > 1) + int(p.cp > 1) + int(p.ep > 1);
}

/// Why `p` ranks where it does, against the best layout (or the runner-up, for the best).
QString reasonFor(const PlannedLayout &p, const PlannedLayout &other, bool best)
{
    if (std::abs(p.stepSeconds - other.stepSeconds) <= 1e-9 * other.stepSeconds) {
        // Ties go to the simpler layout (fewer split dimensions, lower CP, lower PP), then to less memory.
        const bool sameShape = splitCount(p) == splitCount(other) && p.cp == other.cp && p.pp == other.pp;
        if (best)
            return QStringLiteral("fastest that fits, tied with #2 (%1) and %2")
                .arg(differences(p, other), sameShape ? QStringLiteral("using less memory") : QStringLiteral("simpler"));
        return QStringLiteral("as fast as #1 (%1) but %2")
            .arg(differences(p, other), sameShape ? QStringLiteral("more memory") : QStringLiteral("less simple"));
    }
    struct Part {
        const char *name;
        double mine, theirs;
    };
    // What the three leave: the kernels themselves and the optimizer step (a larger micro-batch
    // runs fewer, larger kernels; ZeRO shards the optimizer step), which had been reported as
    // "pipeline bubble 0 s against 0 s" where no pipeline was.
    const auto rest = [](const PlannedLayout &l) {
        return l.stepSeconds - l.bubbleSeconds - l.commExposedSeconds - l.recomputeSeconds;
    };
    const Part parts[] = {{"pipeline bubble", p.bubbleSeconds, other.bubbleSeconds},
                          {"exposed communication", p.commExposedSeconds, other.commExposedSeconds},
                          {"recompute", p.recomputeSeconds, other.recomputeSeconds},
                          {"compute and optimizer step", rest(p), rest(other)}};
    const Part *biggest = &parts[0];
    for (const Part &part : parts)
        if (std::abs(part.mine - part.theirs) > std::abs(biggest->mine - biggest->theirs))
            biggest = &part;
    const double gap = other.stepSeconds / p.stepSeconds - 1;
    if (best) {
        return QStringLiteral("fastest that fits; %1 ahead of #2 (%2), whose %3 is %4 s against %5 s")
            .arg(percent(gap), differences(p, other), QLatin1String(biggest->name),
                 QString::number(biggest->theirs, 'g', 3), QString::number(biggest->mine, 'g', 3));
    }
    return QStringLiteral("%1 slower than #1 (%2): %3 %4 s against %5 s")
        .arg(percent(p.stepSeconds / other.stepSeconds - 1), differences(p, other), QLatin1String(biggest->name),
             QString::number(biggest->mine, 'g', 3), QString::number(biggest->theirs, 'g', 3));
}

} // namespace

Scenario withPlannedLayout(Scenario s, const PlannedLayout &p)
{
    s.tp = p.tp;
    s.pp = p.pp;
    s.vpp = p.vpp;
    s.cp = p.cp;
    s.ep = p.ep;
    if (p.etp == p.tp)
        s.etp.reset();
    else
        s.etp = p.etp;
    s.sequenceParallel = p.sp;
    s.zeroStage = p.zeroStage;
    s.microBatch = p.microBatch;
    s.recompute = p.recompute;
    // The planner keeps the sequences per step. A global batch that follows batch x dp would
    // follow the new micro-batch and DP instead (Llama 3 70B's tp 2 x pp 8 plan at micro-batch
    // 1 then ran 1 micro-batch where it was planned for 8, which interleaving refuses): it is
    // set to the planned one wherever the two differ.
    if (p.globalBatch > 0 && (s.globalBatch || p.microBatch * p.dp != p.globalBatch))
        s.globalBatch = p.globalBatch;
    return s;
}

PlanReport planLayouts(const Scenario &s, const GpuSpec &gpu, const Recipe &recipe, const Interconnect &scaleUp,
                       const Interconnect &scaleOut, const PlanOptions &options)
{
    PlanReport r;
    // The scenario's own layout may not be one (a global batch its DP cannot split): the
    // planner plans from it all the same, keeping its global batch.
    const auto problem = validateLayout(s);
    r.currentProblem = problem;
    const Layout current = deriveLayout(problem ? withSimplestLayout(s) : s, gpu.gpusPerNode);
    const std::int64_t global = s.globalBatch.value_or(problem ? s.microBatch * s.gpus : current.globalBatch);
    r.globalBatch = global;
    const StepMachine machine = stepMachine(s, recipe, gpu, Links{&scaleUp, &scaleOut});

    const ModelShape &m = s.model;
    const std::int64_t tpLimit = options.tpBeyondNode ? s.gpus : current.gpusPerNode;
    const std::int64_t heads = s.paramsOverride ? 1 : std::gcd(m.heads, m.kvHeads);
    QList<std::int64_t> microBatches = {1, 2, 4, 8, 16};
    if (!microBatches.contains(s.microBatch))
        microBatches.append(s.microBatch);
    const Recompute recomputes[] = {Recompute::None, Recompute::Selective, Recompute::Full};
    const bool selectiveWeighed = selectiveRecomputeWorthWeighing(s);

    QList<PlannedLayout> fitting;
    QList<PlannedLayout> misfits;
    PartsCache cache;
    Scenario c = s;
    c.baseline = {};
    c.globalBatch = global;
    for (std::int64_t tp : divisorsUpTo(heads, tpLimit)) {
        if (s.gpus % tp != 0)
            continue;
        for (std::int64_t cp = 1; cp * tp <= s.gpus && s.seqLen % (2 * cp) == 0; cp *= 2) {
            if (s.gpus % (tp * cp) != 0)
                break;
            const std::int64_t rest = s.gpus / (tp * cp);
            for (std::int64_t pp : divisorsUpTo(rest, s.paramsOverride ? 1 : m.layers)) {
                const std::int64_t dp = rest / pp;
                if (global % dp != 0)
                    continue;
                // Expert parallelism: whole experts per rank; EP x ETP folds over TP x DP x CP.
                // ETP is the scenario's, or else both TP (EP then divides DP x CP) and 1 (EP
                // may reach TP x DP x CP: Megatron-Core's MoE parallel folding).
                const bool moe = m.moe() && !s.paramsOverride;
                QList<std::optional<std::int64_t>> etps = {s.etp};
                if (moe && !s.etp && tp > 1)
                    etps.append(1);
                const std::int64_t folded = tp * dp * cp;
                for (const std::optional<std::int64_t> &etpChoice : etps) {
                    const std::int64_t etp = etpChoice.value_or(tp);
                    if (moe && folded % etp != 0)
                        continue;
                    c.etp = etpChoice;
                    QList<std::int64_t> eps = {1};
                    if (moe)
                        for (std::int64_t e = 2; e <= m.experts && e <= folded / etp; ++e)
                            if (m.experts % e == 0 && folded % (e * etp) == 0)
                                eps.append(e);
                    for (std::int64_t ep : eps) {
                        for (std::int64_t b : microBatches) {
                            if ((global / dp) % b != 0)
                                continue;
                            const std::int64_t micro = global / dp / b;
                            for (std::int64_t vpp = 1; vpp <= (pp > 1 ? 8 : 1); ++vpp) {
                                if (vpp > 1 && (vpp > m.layers / pp || micro % pp != 0))
                                    continue;
                                // The scenario's schedule: DualPipe runs what validateLayout lets it.
                                if (s.ppSchedule == PipelineSchedule::DualPipe && pp > 1
                                    && (pp % 2 != 0 || vpp > 1 || !dualPipeTakes(pp, micro)))
                                    continue;
                                // ZeRO stages the offload allows (optimizer: 1+, params: 3); one
                                // replica shards nothing, so it takes the lowest of them.
                                const int zeroLo = lowestZeroStage(s.offload);
                                const int zeroHi = std::max(zeroLo, dp * cp > 1 ? limits::maxZeroStage : limits::minZeroStage);
                                for (int zero = zeroLo; zero <= zeroHi; ++zero) {
                                    for (Recompute rc : recomputes) {
                                        // Selective recompute that drops nothing but FlashAttention's
                                        // log-sum-exp costs a rerun of it for next to no memory.
                                        if (rc == Recompute::Selective && !selectiveWeighed)
                                            continue;
                                        c.tp = tp;
                                        c.cp = cp;
                                        c.ep = ep;
                                        c.pp = pp;
                                        c.vpp = vpp;
                                        c.microBatch = b;
                                        c.sequenceParallel = tp > 1;
                                        c.zeroStage = zero;
                                        c.recompute = rc;
                                        PlannedLayout p = evaluate(c, gpu, recipe, machine, &r.evaluated, cache);
                                        (p.fits ? fitting : misfits).append(p);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    r.fitting = fitting.size();
    // Equal times (ZeRO 1 and 2 move the same bytes) go to the simpler layout, then to the
    // one with more memory to spare.
    const auto faster = [](const PlannedLayout &a, const PlannedLayout &b) {
        if (std::abs(a.stepSeconds - b.stepSeconds) > 1e-9 * b.stepSeconds)
            return a.stepSeconds < b.stepSeconds;
        return std::tuple(splitCount(a), a.cp, a.pp, a.worstStageBytes)
               < std::tuple(splitCount(b), b.cp, b.pp, b.worstStageBytes);
    };
    std::stable_sort(fitting.begin(), fitting.end(), faster);

    // The scenario's own layout, as it stands.
    Scenario own = s;
    own.baseline = {};
    std::int64_t ignored = 0;
    PartsCache ownCache;  // the scenario's own settings may lie outside the enumeration (e.g. SP off)
    if (problem) {
        r.current = PlannedLayout{};
        r.current.tp = s.tp;
        r.current.pp = s.pp;
        r.current.vpp = s.vpp;
        r.current.cp = s.cp;
        r.current.ep = s.ep;
        r.current.etp = s.etp.value_or(s.tp);
        r.current.sp = s.sequenceParallel && s.tp > 1;
        r.current.dp = s.gpus / (s.tp * s.pp * s.cp);
        r.current.zeroStage = s.zeroStage;
        r.current.microBatch = s.microBatch;
        r.current.globalBatch = global;
        r.current.recompute = s.recompute;
    } else {
        r.current = evaluate(own, gpu, recipe, machine, &ignored, ownCache);
    }
    if (r.current.fits) {
        // Where the ranking holds the same layout, its place there: ties stand in the tie rule's
        // order, so a count of the faster ones would name the place of the tied layout above.
        const PlannedLayout &c = r.current;
        const auto same = std::find_if(fitting.begin(), fitting.end(), [&c](const PlannedLayout &p) {
            return std::tie(p.tp, p.pp, p.vpp, p.cp, p.dp, p.ep, p.etp, p.sp, p.zeroStage, p.microBatch, p.recompute)
                   == std::tie(c.tp, c.pp, c.vpp, c.cp, c.dp, c.ep, c.etp, c.sp, c.zeroStage, c.microBatch, c.recompute);
        });
        r.currentRank = same != fitting.end()
                            ? 1 + (same - fitting.begin())
                            : 1 + std::count_if(fitting.begin(), fitting.end(),
                                                [&](const PlannedLayout &p) { return p.stepSeconds < c.stepSeconds; });
    }

    const int top = std::max(1, options.top);
    if (!fitting.isEmpty()) {
        r.layouts = fitting.mid(0, top);
        for (qsizetype i = 0; i < r.layouts.size(); ++i) {
            if (i == 0)
                r.layouts[0].reason = fitting.size() > 1 ? reasonFor(fitting[0], fitting[1], true)
                                                         : QStringLiteral("the only layout that fits");
            else
                r.layouts[i].reason = reasonFor(r.layouts[i], r.layouts[0], false);
        }
    } else {
        std::stable_sort(misfits.begin(), misfits.end(), [](const PlannedLayout &a, const PlannedLayout &b) {
            return a.worstStageBytes < b.worstStageBytes;
        });
        r.layouts = misfits.mid(0, top);
        for (PlannedLayout &p : r.layouts)
            p.reason = QStringLiteral("does not fit: the smallest worst stage found");
    }
    return r;
}

} // namespace napkin
