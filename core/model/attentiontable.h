#pragma once

#include "core/model/refusal.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace napkin {

/// A FlashAttention kernel's measured throughput on one GPU by head dimension and sequence
/// length, forward and backward, without and with a causal mask (the FlashAttention papers'
/// benchmark figures): what a GPU's attention efficiencies are at other shapes than the one
/// point (head dim 128, 8k) its efficiency_attention_* figures give.
struct AttentionTable {
    QList<double> headDims;  ///< ascending
    QList<double> seqLens;   ///< ascending
    /// FLOP/s, [head dim][sequence length], as the papers count FLOPs (4 s^2 d h forward, 2.5
    /// times that backward; halved for the causal mask).
    QList<QList<double>> forward, forwardCausal, backward;
    QString source;

    /// The kernel's speed at a shape relative to its speed at (head dim 128, sequence 8,192),
    /// the point the GPU's scalar efficiencies are: interpolated in log2 of both between the
    /// measured points, held at the nearest point outside them. The causal backward (no paper
    /// prints it) is the backward's shape times the causal mask's share of the forward's,
    /// relative to that share at the reference point.
    double relativeSpeed(double headDim, double seqLen, bool backward, bool causal) const;

    static constexpr double kReferenceHeadDim = 128;
    static constexpr double kReferenceSeqLen = 8192;
};

/// Reads gpus.json's "efficiency_attention_table" object; `where` names the entry.
Result<AttentionTable> parseAttentionTable(const QJsonObject &o, const QString &where);

} // namespace napkin
