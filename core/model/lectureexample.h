#pragma once

#include "core/model/scenario.h"

namespace napkin {

/// The source document's worked example (CS336 lecture 2, "PyTorch & Resource Accounting"):
/// N = 124e6 parameters given directly, D = 300e9 tokens, the 6ND FLOPs basis, no activations
/// and nothing reserved per GPU, on one GPU with ZeRO 0. Napkin shows exactly the document's
/// printed figures for it: 2.232e+20 FLOPs; 0.248 / 0.248 / 1.488 / 0 / 1.984 GB; 1.125e+11.
Scenario lectureExample();

} // namespace napkin
