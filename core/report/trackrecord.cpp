#include "core/report/trackrecord.h"

namespace napkin {

const QList<TrackRecord> &trackRecords()
{
    // tests/tst_measuredtraining.cpp, uncalibratedAgainstMeasured: its rows and their sources
    // (Narayanan et al. 2021, Korthikanti et al. 2022, NVIDIA DGX Cloud Benchmarking,
    // Megatron-Bridge's performance summaries, MLPerf Training v3.1, v4.1 and v5.0). That test
    // checks every figure here.
    static const QList<TrackRecord> records = {
        {QStringLiteral("dense"), QStringLiteral("A100 80G, H100 SXM, B200"), 43, -0.0682, 0.0742, -0.1789, 0.0414},
        {QStringLiteral("Mixture-of-Experts"), QStringLiteral("H100 SXM, B200"), 5, -0.1214, 0.1835, -0.4173, 0.1552},
    };
    return records;
}

const TrackRecord &trackRecordFor(const Scenario &s)
{
    return trackRecords().at(s.model.experts > 0 ? 1 : 0);
}

} // namespace napkin
