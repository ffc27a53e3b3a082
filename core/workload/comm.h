#pragma once

#include "core/model/catalog.h"
#include "core/model/layout.h"

#include <QString>

#include <cstdint>

namespace napkin {

enum class Collective { AllReduce, AllGather, ReduceScatter, SendRecv, AllToAll };

QString collectiveName(Collective c);

/// Bytes one GPU sends for one collective over a `tensorBytes` buffer in a ring of n:
/// all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n each (Patarasuk & Yuan 2009;
/// NCCL's tests/doc/PERFORMANCE.md "bus bandwidth" factors); a send is the buffer once; an
/// all-to-all sends all but its own 1/n share, (n-1)/n (the same document's alltoall factor).
double ringTrafficBytes(Collective c, double tensorBytes, std::int64_t n);

/// Latency steps of that ring: 2(n-1) for all-reduce, n-1 for all-gather, reduce-scatter or
/// all-to-all (one peer per step), 1 for a send.
double ringSteps(Collective c, std::int64_t n);

/// The alpha-beta time of one collective: traffic / bandwidth + steps x latency.
double collectiveSeconds(Collective c, double tensorBytes, std::int64_t n, double bandwidthBytesPerS,
                         double latencySeconds);

/// An all-to-all over n ranks of which `inNode` (this one included) share a node. NCCL runs
/// it as point-to-point sends to every peer (NCCL User Guide, "Point-to-point communication",
/// all-to-all), each GPU's 1/n share to every other rank: the (inNode - 1)/n bound for its node
/// go over the scale-up link while the (n - inNode)/n bound elsewhere go over the scale-out
/// link, at once (DeepSeek-V3, Section 3.2.2, counts the two separately). Time: the slower of
/// the two plus n - 1 latency steps of the slower link; every peer in one node is the plain
/// all-to-all over the scale-up link.
double allToAllSeconds(double tensorBytes, std::int64_t n, std::int64_t inNode, const Interconnect &up,
                       const Interconnect &out);

/// The same all-to-all of a Mixture-of-Experts layer whose routing reaches at most `nodeLimit`
/// nodes per token, each token crossing the scale-out link once per remote node it reaches and
/// fanned out to its experts' GPUs over the scale-up link there (DeepSeek-V3, Section 3.2.2:
/// "each token will be dispatched to at most 4 nodes", sent once over InfiniBand to the GPU of
/// the same in-node index, then forwarded over NVLink; DeepEP's normal kernels). `tensorBytes`
/// holds `copiesPerToken` rows of each token; the token reaches R = min(nodeLimit, nodes, rows)
/// nodes, its own among them with probability R / nodes under balanced routing, and every
/// row but the receiving GPU's own crosses the scale-up link. nodeLimit 0, or a group in one
/// node: allToAllSeconds.
double nodeLimitedAllToAllSeconds(double tensorBytes, double copiesPerToken, std::int64_t nodeLimit, std::int64_t n,
                                  std::int64_t inNode, const Interconnect &up, const Interconnect &out);

/// Which parallel group a collective runs in.
enum class CommGroup { Tp, Cp, Pp, Dp, Ep, Host };  ///< Host: GPU <-> CPU memory (offload)
QString commGroupName(CommGroup g);

/// The two links a job uses and where a group's ranks sit: ranks are ordered TP, CP, DP, PP
/// (Megatron-LM's default), so a group of `size` ranks `stride` apart stays in one node when
/// size x stride <= GPUs per node.
struct Links {
    const Interconnect *scaleUp = nullptr;
    const Interconnect *scaleOut = nullptr;
    const Interconnect *host = nullptr;  ///< the GPU's link to its host's memory (GpuSpec::hostLink)
    const Interconnect &forGroup(CommGroup group, const Layout &layout) const;
    /// A ring collective (all-reduce, all-gather, reduce-scatter) over the group's ranks.
    struct Ring {
        const Interconnect *link = nullptr;  ///< the group's link (forGroup)
        std::int64_t size = 1;               ///< ranks in the ring
        std::int64_t nics = 1;               ///< NICs of a node it crosses at once (1 inside a node)
        double bandwidth = 0;                ///< bytes/s one GPU's ring traffic runs at
    };
    /// Inside a node a ring runs at the scale-up link's bandwidth. Across nodes with k of the
    /// group's ranks on each node, NCCL builds one ring channel per NIC, so the k ranks' NICs
    /// carry the node's share of the ring together, at k x the scale-out link, capped by the
    /// scale-up link that joins the k (NCCL src/graph/tuning.cc: a ring's bus bandwidth is its
    /// channels x each channel's inter-node bandwidth; src/graph/search.cc gives each channel
    /// its own NIC).
    Ring ring(CommGroup group, const Layout &layout) const;
    /// Whether the group's ranks (for PP: two neighbouring stages) share one node.
    static bool insideNode(CommGroup group, const Layout &layout);
    static std::int64_t stride(CommGroup group, const Layout &layout);
    static std::int64_t size(CommGroup group, const Layout &layout);
    /// Ranks of the group on one node, this one included (at least 1, at most the group).
    static std::int64_t membersPerNode(CommGroup group, const Layout &layout);
};

} // namespace napkin
