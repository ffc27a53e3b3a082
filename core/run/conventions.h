#pragma once

#include "core/model/catalog.h"
#include "core/model/recipe.h"
#include "core/model/scenario.h"

namespace napkin {

/// Where the field disagrees with itself: the same scenario under the other common conventions,
/// so the user sees which one Napkin used and by how much the others differ.
struct ConventionsReport {
    // Model state per GPU (unsharded) at 16 B/param (ZeRO's K = 12, the source document) and at
    // 18 B/param (fp32 gradient accumulation, Megatron-LM's distributed-optimizer table).
    double modelState16 = 0;
    double modelState18 = 0;
    // Activation bytes of one micro-batch under each meaning of "checkpointing".
    double activationsNone = 0;       ///< store everything (Korthikanti Table 2, first row)
    double activationsSelective = 0;  ///< recompute only the attention core (Korthikanti Section 5)
    double activationsFull = 0;       ///< keep only each layer's input (torch.utils.checkpoint per layer)
    double activationsFlash = 0;      ///< FlashAttention, nothing recomputed by the framework
    // The chosen recompute under each activation model.
    double activationsKorthikanti = 0;
    double activationsPyTorch = 0;
};

ConventionsReport computeConventions(const Scenario &s, const Recipe &recipe);

} // namespace napkin
