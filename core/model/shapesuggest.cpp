#include "core/model/shapesuggest.h"

#include "core/model/limits.h"
#include "core/model/modelshape.h"
#include "core/model/shapefix.h"

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {
constexpr std::int64_t kWidthPerLayer = 128;
} // namespace

const char *suggestedAspectRatio()
{
    return "d_model about 128 x layers, as GPT-3 175B (96 x 12288; Brown et al. 2020, Table 2.1) and LLaMA 7B and 13B "
           "(32 x 4096, 40 x 5120; Touvron et al. 2023, Table 2); the loss varies little with it (Kaplan et al. 2020, "
           "Section 3.1)";
}

ModelShape suggestShape(const ModelShape &family, std::int64_t seqLen, double params)
{
    ModelShape base;
    base.arch = family.arch;
    base.vocab = family.vocab;
    base.tied = family.tied;
    base.maxPositions = std::max(seqLen, family.arch == Arch::Gpt2 ? family.maxPositions : seqLen);
    const std::int64_t headWidth = family.arch == Arch::Llama ? 128 : 64;
    const bool grouped = family.kvHeads < family.heads || family.mla();

    ModelShape best = base;
    double bestGap = INFINITY;
    // Heads in multiples of 8: tensor parallelism up to a node of 8 splits them and 8 KV heads.
    const std::int64_t step = 8 * headWidth;
    for (std::int64_t layers = 1; layers <= limits::maxLayers; ++layers) {
        // The whole numbers of 8 heads either side of 128 x layers.
        const std::int64_t below = std::max<std::int64_t>(1, layers * kWidthPerLayer / step) * step;
        double smallerCount = 0;
        for (std::int64_t dModel : {below, below + step}) {
            if (dModel > limits::maxDModel)
                continue;
            // Past 1,024 heads (d_model 65,536 at GPT-2's 64) the heads widen instead, as
            // d_model allows, so that every suggestion is a shape Napkin takes.
            std::int64_t width = headWidth;
            while (dModel / width > limits::maxHeads && dModel % (2 * width) == 0)
                width *= 2;
            ModelShape m = base;
            m.layers = layers;
            m.dModel = dModel;
            m.heads = dModel / width;
            m.kvHeads = grouped && m.heads % 8 == 0 && m.heads > 8 ? 8 : m.heads;
            m.dFf = defaultDFf(m.arch, dModel);
            const double count = static_cast<double>(countParams(m).total);
            if (dModel == below)
                smallerCount = count;
            const double gap = std::abs(std::log(count / params));
            if (gap < bestGap) {
                bestGap = gap;
                best = m;
            }
        }
        // Deeper shapes are only larger: once the narrower of this depth passes N, stop.
        if (smallerCount > params)
            break;
    }
    return best;
}

} // namespace napkin
