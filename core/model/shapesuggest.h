#pragma once

#include "core/model/scenario.h"

#include <cstdint>

namespace napkin {

/// A dense decoder of `family`'s architecture with about `params` parameters (countParams'
/// total), for a budget's answer. Depth and width follow one aspect ratio, d_model = 128 x
/// layers (suggestedAspectRatio() says where it comes from), to the whole number of 8 heads
/// just below or above it; the head width is 128 for llama and 64 for gpt2; d_ff is the family's (defaultDFf); llama
/// keeps grouped-query attention with 8 KV heads when the family uses it (Llama 3, Dubey et
/// al. 2024, Table 3); the vocabulary and tying are the family's, and the position table holds
/// `seqLen`. Of the depths 1 to limits::maxLayers, the one whose count is nearest `params` in
/// ratio. Mixture-of-Experts families get their dense counterpart: the laws were fitted on
/// dense models.
ModelShape suggestShape(const ModelShape &family, std::int64_t seqLen, double params);

/// Where the aspect ratio comes from, for the report and the window.
const char *suggestedAspectRatio();

} // namespace napkin
