#include "core/workload/comm.h"

#include <algorithm>
#include <cmath>

namespace napkin {

QString collectiveName(Collective c)
{
    switch (c) {
    case Collective::AllReduce: return QStringLiteral("all-reduce");
    case Collective::AllGather: return QStringLiteral("all-gather");
    case Collective::ReduceScatter: return QStringLiteral("reduce-scatter");
    case Collective::SendRecv: return QStringLiteral("send/recv");
    case Collective::AllToAll: return QStringLiteral("all-to-all");
    }
    return {};
}

double ringTrafficBytes(Collective c, double tensorBytes, std::int64_t n)
{
    const double share = static_cast<double>(n - 1) / static_cast<double>(n);
    switch (c) {
    case Collective::AllReduce: return 2 * share * tensorBytes;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return share * tensorBytes;
    case Collective::SendRecv: return tensorBytes;
    }
    return 0;
}

double ringSteps(Collective c, std::int64_t n)
{
    switch (c) {
    case Collective::AllReduce: return 2 * static_cast<double>(n - 1);
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return static_cast<double>(n - 1);
    case Collective::SendRecv: return 1;
    }
    return 0;
}

double collectiveSeconds(Collective c, double tensorBytes, std::int64_t n, double bandwidthBytesPerS,
                         double latencySeconds)
{
    if (n <= 1 && c != Collective::SendRecv)
        return 0;
    return ringTrafficBytes(c, tensorBytes, n) / bandwidthBytesPerS + ringSteps(c, n) * latencySeconds;
}

double allToAllSeconds(double tensorBytes, std::int64_t n, std::int64_t inNode, const Interconnect &up,
                       const Interconnect &out)
{
    if (n <= 1)
        return 0;
    if (inNode >= n)
        return collectiveSeconds(Collective::AllToAll, tensorBytes, n, up.collectiveBandwidth(), up.latencySeconds);
    const double share = tensorBytes / static_cast<double>(n);
    const double within = static_cast<double>(std::max<std::int64_t>(inNode, 1) - 1) * share / up.collectiveBandwidth();
    const double across = static_cast<double>(n - std::max<std::int64_t>(inNode, 1)) * share / out.collectiveBandwidth();
    return std::max(within, across) + ringSteps(Collective::AllToAll, n) * std::max(up.latencySeconds, out.latencySeconds);
}

double nodeLimitedAllToAllSeconds(double tensorBytes, double copiesPerToken, std::int64_t nodeLimit, std::int64_t n,
                                  std::int64_t inNode, const Interconnect &up, const Interconnect &out)
{
    const std::int64_t local = std::max<std::int64_t>(inNode, 1);
    if (nodeLimit <= 0 || local >= n || copiesPerToken <= 0)
        return allToAllSeconds(tensorBytes, n, inNode, up, out);
    const double nodes = std::ceil(static_cast<double>(n) / static_cast<double>(local));
    // A token's rows reach no more nodes than there are rows.
    const double reached = std::min({static_cast<double>(nodeLimit), nodes, copiesPerToken});
    const double remoteNodes = reached * (nodes - 1) / nodes;
    const double across = tensorBytes / copiesPerToken * remoteNodes / out.collectiveBandwidth();
    const double within = tensorBytes * static_cast<double>(local - 1) / static_cast<double>(local) / up.collectiveBandwidth();
    return std::max(within, across) + ringSteps(Collective::AllToAll, n) * std::max(up.latencySeconds, out.latencySeconds);
}

QString commGroupName(CommGroup g)
{
    switch (g) {
    case CommGroup::Tp: return QStringLiteral("tp");
    case CommGroup::Cp: return QStringLiteral("cp");
    case CommGroup::Pp: return QStringLiteral("pp");
    case CommGroup::Dp: return QStringLiteral("dp");
    case CommGroup::Ep: return QStringLiteral("ep");
    case CommGroup::Host: return QStringLiteral("host");
    }
    return {};
}

std::int64_t Links::stride(CommGroup group, const Layout &l)
{
    switch (group) {
    case CommGroup::Tp: return 1;
    case CommGroup::Cp: return l.tp;
    case CommGroup::Dp: return l.tp;  // ZeRO's group is DP x CP: CP ranks sit between TP and DP
    case CommGroup::Ep: return l.etp;  // expert ranks run ETP, EP, DP (Megatron-Core); etp = tp: EP after TP
    case CommGroup::Pp: return l.tp * l.cp * l.dp;
    case CommGroup::Host: return 1;  // each GPU with its own host link
    }
    return 1;
}

std::int64_t Links::size(CommGroup group, const Layout &l)
{
    switch (group) {
    case CommGroup::Tp: return l.tp;
    case CommGroup::Cp: return l.cp;
    case CommGroup::Dp: return l.shardGroup();
    case CommGroup::Ep: return l.ep;
    case CommGroup::Pp: return l.pp;
    case CommGroup::Host: return 1;
    }
    return 1;
}

std::int64_t Links::membersPerNode(CommGroup group, const Layout &l)
{
    const std::int64_t perNode = l.gpusPerNode / std::max<std::int64_t>(stride(group, l), 1);
    return std::clamp<std::int64_t>(perNode, 1, size(group, l));
}

bool Links::insideNode(CommGroup group, const Layout &l)
{
    // A pipeline send crosses from one stage's GPUs to the next stage's: in one node only when
    // both stages fit in it.
    const std::int64_t span = group == CommGroup::Pp ? 2 * stride(group, l) : size(group, l) * stride(group, l);
    return span <= l.gpusPerNode;
}

const Interconnect &Links::forGroup(CommGroup group, const Layout &l) const
{
    if (group == CommGroup::Host)
        return *host;
    return insideNode(group, l) ? *scaleUp : *scaleOut;
}

Links::Ring Links::ring(CommGroup group, const Layout &l) const
{
    Ring r;
    r.size = size(group, l);
    if (group == CommGroup::Host) {
        r.link = host;
        r.bandwidth = host->collectiveBandwidth();
        return r;
    }
    const bool inside = insideNode(group, l);
    r.link = inside ? scaleUp : scaleOut;
    r.nics = inside || group == CommGroup::Pp ? 1 : membersPerNode(group, l);
    r.bandwidth = r.link->collectiveBandwidth();
    if (r.nics > 1)
        r.bandwidth = std::min(static_cast<double>(r.nics) * r.bandwidth, scaleUp->collectiveBandwidth());
    return r;
}

} // namespace napkin
