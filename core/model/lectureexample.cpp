#include "core/model/lectureexample.h"

namespace napkin {

Scenario lectureExample()
{
    Scenario s;  // GPT-2 small's shape (the default) stays for the shape-dependent figures
    s.paramsOverride = 124'000'000;      // transformer_training_flops(num_params=124e6, ...)
    s.tokens = 300e9;                    // num_tokens=300e9
    s.flopsBasis = FlopsBasis::SixND;    // (2N forward + 4N backward) per token
    s.includeActivations = false;        // the document's memory dict leaves activations at 0
    s.reservedBytes = 0;                 // the document counts no CUDA context
    s.gpus = 1;                          // its memory is one replica's, unsharded
    s.zeroStage = 0;
    return s;
}

} // namespace napkin
