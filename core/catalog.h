#pragma once

#include "scenario.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace napkin {

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
};

/// The dtypes whose peak GpuSpec::peakFor() accepts for `dtype`: itself, then its partner.
QStringList acceptedPeakDtypes(const QString &dtype);

/// One model shape from resources/models.json.
struct ModelPreset {
    QString id;
    QString name;
    ModelShape shape;
    std::int64_t publishedParams = 0;
    QString source;
};

/// The GPU and model catalogs, parsed and validated once at start-up.
struct Catalog {
    QList<GpuSpec> gpus;
    QList<ModelPreset> presets;

    const GpuSpec *findGpu(const QString &id) const;
    const ModelPreset *findPreset(const QString &id) const;
    /// "id1, id2, ..." for error messages that list what is accepted.
    QString gpuIdList() const;
    /// "id1, id2, ..." of the GPUs with a peak for `dtype` under GpuSpec::peakFor()'s rule.
    QString gpuIdListWithPeak(const QString &dtype) const;
    QString presetIdList() const;
};

/// Parses both catalogs; on failure returns nullopt and a message naming the entry and field.
std::optional<Catalog> parseCatalog(const QByteArray &gpusJson, const QByteArray &modelsJson,
                                    QString *error);

/// Loads the catalogs compiled into the binary (qt_add_resources, prefix /napkin).
std::optional<Catalog> loadBuiltinCatalog(QString *error);

} // namespace napkin
