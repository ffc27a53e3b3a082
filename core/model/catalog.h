#pragma once

#include "core/model/attentiontable.h"
#include "core/model/refusal.h"
#include "core/model/scenario.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace napkin {

/// One link of resources/interconnects.json: what a ring collective can use per GPU and
/// direction, and the start-up latency of one step (the alpha-beta model's alpha and 1/beta).
struct Interconnect {
    QString id;
    QString name;
    bool scaleUp = false;          ///< inside a node ("scale-up") or between nodes ("scale-out")
    double bandwidthBytesPerS = 0;
    double latencySeconds = 0;
    /// The bus bandwidth NCCL reaches on large messages, as a fraction of the line rate
    /// (protocol overhead); 1 where no measurement was found.
    double collectiveEfficiency = 1;
    QString collectiveEfficiencySource;
    std::int64_t domainGpus = 0;   ///< scale-up: GPUs one domain connects; 0 for scale-out
    /// What a collective's ring traffic moves at: line rate x collective efficiency.
    double collectiveBandwidth() const { return bandwidthBytesPerS * collectiveEfficiency; }
    QString source;
    QString notes;
};

/// One accelerator from resources/gpus.json; dense peaks, base units.
struct GpuSpec {
    QString id;
    QString name;
    QString shortName;  ///< fits under a chart bar: "H100 SXM", "TPU v5e"
    QString vendor;
    QMap<QString, double> peakFlopsPerS;  ///< dtype ("fp32", "tf32", "bf16", "fp16", "fp8") -> FLOP/s
    double memoryBandwidthBytesPerS = 0;
    double memoryBytes = 0;
    double tdpWatts = 0;
    QString source;
    QString notes;
    /// Typical on-demand rental price of one GPU (one TPU chip) for one hour; absent when
    /// no dated public price was found. Its provider and URL, and the day it was read.
    std::optional<double> pricePerGpuHourUsd;
    QString priceSource;
    QString priceDate;

    /// Peak for a recipe's compute dtype, by one rule: the dtype's own peak, else its partner's
    /// (bf16 <-> fp16: one tensor-core rate on every catalog GPU with both, which the parser
    /// checks); fp32 and every other dtype have no partner, so fp32 never takes a tensor-core
    /// rate. nullopt when neither is listed. The dtype used is reported through `usedDtype`.
    std::optional<double> peakFor(const QString &dtype, QString *usedDtype = nullptr) const;

    // Default links and node (interconnects.json ids), and the efficiencies of Napkin's
    // bottom-up step time, each with its source.
    QString scaleUpId;          ///< the link inside a node (NVLink, Infinity Fabric, ICI, PCIe)
    QString scaleOutId;         ///< the link between nodes (InfiniBand, RoCE, Ethernet, ICI)
    std::int64_t gpusPerNode = 8;
    /// The GPU's link to its host's memory (PCIe, or NVLink-C2C on Grace parts): what offloaded
    /// optimizer state, gradients and parameters cross. Resolved from host_link at parse time.
    QString hostLinkId;
    Interconnect hostLink;
    QString linksSource;
    double efficiencyMatmul = 0;  ///< fraction of the dense peak a large matmul reaches
    double efficiencyMemory = 0;  ///< fraction of HBM bandwidth a streaming kernel reaches
    QString efficiencySource;
    /// The fraction of the dense peak a FlashAttention kernel reaches, forward and backward,
    /// from the FlashAttention papers' measurements (absent: the matmul efficiency).
    /// FP8 GEMMs' measured share of the fp8 peak (their own sweep); unset: efficiencyMatmul.
    std::optional<double> efficiencyMatmulFp8;
    QString efficiencyMatmulFp8Source;
    std::optional<double> efficiencyAttentionForward;
    std::optional<double> efficiencyAttentionBackward;
    /// The same under a causal mask (FlashAttention skips the masked tiles, and the tiles on
    /// the diagonal run part-empty); unset: the non-causal figures.
    std::optional<double> efficiencyAttentionCausalForward;
    std::optional<double> efficiencyAttentionCausalBackward;
    QString efficiencyAttentionSource;
    /// The same kernel's measured speed at other head dims and sequence lengths; unset: the
    /// figures above at every shape. Its (128, 8k) point is the figures above.
    std::optional<AttentionTable> attentionTable;
    /// A kernel's time beyond its roofline time (launch, ramp-up, the last wave's tail), fitted
    /// to a measured GEMM table; unset: none charged (StepMachine::kernelFixedSeconds).
    std::optional<double> kernelFixedSeconds;
    QString kernelFixedSource;
    /// The share of TP communication Transformer Engine's comm-GEMM overlap hides, measured
    /// per GEMM as 1 - exposed / non-overlapped communication time (Flux's overlap efficiency;
    /// below 0 when the overlap is slower than none); unset: the GEMMs cover all they can.
    std::optional<double> tpOverlapEfficiency;
    QString tpOverlapSource;
};

/// The dtypes whose peak GpuSpec::peakFor() accepts for `dtype`: itself, then its partner.
QStringList acceptedPeakDtypes(const QString &dtype);

/// One model shape from resources/models.json.
struct ModelPreset {
    QString id;
    QString name;
    ModelShape shape;
    std::int64_t publishedParams = 0;
    /// Parameters active per token where the model card or paper gives them (MoE).
    std::optional<std::int64_t> publishedActiveParams;
    QString source;
};

/// The GPU and model catalogs, parsed and validated once at start-up.
struct Catalog {
    QList<GpuSpec> gpus;
    QList<ModelPreset> presets;
    QList<Interconnect> interconnects;

    const GpuSpec *findGpu(const QString &id) const;
    const ModelPreset *findPreset(const QString &id) const;
    const Interconnect *findInterconnect(const QString &id) const;
    QString interconnectIdList() const;
    /// "id1, id2, ..." for error messages that list what is accepted.
    QString gpuIdList() const;
    /// "id1, id2, ..." of the GPUs with a peak for `dtype` under GpuSpec::peakFor()'s rule.
    QString gpuIdListWithPeak(const QString &dtype) const;
    QString presetIdList() const;
};

/// The one refusal of an id its catalog does not hold, for the command line, scenario files
/// and the window alike: `gpu: must be one of a100-sxm, h100-sxm (got "h999"; see `napkin
/// gpus`)`. `field` is the JSON key or the option; `listCommand` the napkin command that
/// lists the catalog ("gpus", "presets", "recipes", "interconnects").
Refusal unknownIdRefusal(const QString &field, const QString &got, const QString &acceptedIds,
                         const QString &listCommand);

/// Parses the three catalogs, or refuses naming the file or entry ("gpus.json \"h100-sxm\"")
/// and the key.
Result<Catalog> parseCatalog(const QByteArray &gpusJson, const QByteArray &modelsJson,
                             const QByteArray &interconnectsJson);

/// Loads the catalogs compiled into the binary (qt_add_resources, prefix /napkin).
Result<Catalog> loadBuiltinCatalog();

} // namespace napkin
