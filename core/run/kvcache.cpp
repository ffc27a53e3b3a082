#include "core/run/kvcache.h"

#include "core/model/modelshape.h"

#include <algorithm>
#include <cmath>

namespace napkin {

double elementBytes(NumberFormat f)
{
    switch (f) {
    case NumberFormat::Bf16:
    case NumberFormat::Fp16: return 2;
    case NumberFormat::Fp8:
    case NumberFormat::Int8: return 1;
    case NumberFormat::Int4: return 0.5;
    }
    return 2;
}

double weightBytesPerParam(NumberFormat f, double group)
{
    const double bytes = elementBytes(f);
    if (f == NumberFormat::Int8 || f == NumberFormat::Int4)
        return bytes + (2 + bytes) / group;
    return bytes;
}

double kvBytesPerTokenPerBlock(const ModelShape &m, double bytes)
{
    if (m.mla())
        return static_cast<double>(m.kvLoraRank + m.qkRopeDim) * bytes;
    return 2.0 * static_cast<double>(kvWidth(m)) * bytes;
}

double kvBytesPerToken(const ModelShape &m, double bytes)
{
    return static_cast<double>(m.layers) * kvBytesPerTokenPerBlock(m, bytes);
}

double globalBlocks(const ModelShape &m)
{
    const double layers = static_cast<double>(m.layers);
    if (m.slidingWindow <= 0)
        return layers;
    return m.globalEvery > 0 ? std::floor(layers / static_cast<double>(m.globalEvery)) : 0;
}

double keptTokensPerBlock(const ModelShape &m, double context)
{
    const double layers = static_cast<double>(m.layers);
    const double global = globalBlocks(m);
    const double windowed = std::min(context, static_cast<double>(m.slidingWindow));
    return (global * context + (layers - global) * windowed) / layers;
}

double kvBytesPerSequence(const ModelShape &m, double bytes, double context)
{
    // Summed block by block, not through the per-block mean: exact in doubles for any layer count.
    const double global = globalBlocks(m);
    const double windowed = std::min(context, static_cast<double>(m.slidingWindow));
    return kvBytesPerTokenPerBlock(m, bytes) * (global * context + (static_cast<double>(m.layers) - global) * windowed);
}

double kvBlocks(double poolBytes, double blockBytes)
{
    return std::floor(poolBytes / blockBytes);
}

double blocksPerSequence(const ModelShape &m, double context, double blockTokens)
{
    const double global = globalBlocks(m) / static_cast<double>(m.layers);
    const double windowed = std::min(context, static_cast<double>(m.slidingWindow));
    return global * std::ceil(context / blockTokens) + (1 - global) * std::ceil(windowed / blockTokens);
}

} // namespace napkin
