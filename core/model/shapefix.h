#pragma once

#include "core/model/catalog.h"
#include "core/model/scenario.h"

#include <QString>

#include <cstdint>

namespace napkin {

/// The divisor of `n` nearest to `target` (ties go to the larger), at most `limit`; of those
/// that are multiples of `multiple` when there is one (tensor parallelism's whole heads).
std::int64_t nearestDivisor(std::int64_t n, std::int64_t target, std::int64_t limit, std::int64_t multiple = 1);

/// What else follows when the width changes.
struct WidthRule {
    bool keepFfRatio = true;  ///< d_ff keeps its ratio to d_model
    /// Heads change to keep the head dimension d_model / heads (as GPT-2 and Llama 2 grow:
    /// 64 and 128 at every size); false holds the head count where it still divides.
    bool keepHeadDim = true;
    /// Heads and kv heads stay multiples of this: tensor parallelism gives each rank whole
    /// heads and whole K/V heads (the scenario's tp).
    std::int64_t headMultiple = 1;
};

/// The width slider's step, 64 (a GPU's tile) without tensor parallelism, where every width
/// has a head count. Under it (rule.headMultiple > 1), the least common multiple of 64 and
/// tp x d_head (keepHeadDim) or tp (otherwise): every multiple is then a width followWidth
/// splits into heads that tp divides, at the head dimension kept when asked.
std::int64_t widthStep(const ModelShape &m, WidthRule rule);

/// Sets d_model and keeps the shape valid. Heads become the divisor of the new width nearest
/// to width / d_head (keepHeadDim) or to the old count; kv heads the nearest divisor of the
/// heads (multi-head attention stays multi-head); both multiples of rule.headMultiple where the
/// width allows; d_ff keeps its ratio to d_model when asked. `note` says what changed besides width.
ModelShape followWidth(const ModelShape &m, std::int64_t dModel, WidthRule rule, QString *note);

/// Sets heads and keeps kv heads dividing them (multi-head attention stays multi-head), a
/// multiple of `kvMultiple` (tp) where the heads allow.
ModelShape followHeads(const ModelShape &m, std::int64_t heads, QString *note, std::int64_t kvMultiple = 1);

/// Which shape fields a user gave explicitly (on the command line or in a scenario file).
struct ShapeFieldsGiven {
    bool arch = false;
    bool dModel = false;
    bool heads = false;
    bool kvHeads = false;
    bool dFf = false;
    bool tied = false;
};

/// The family's d_ff for a width: GPT-2 4d (Radford et al. 2019); LLaMA's SwiGLU 2/3 x 4d
/// rounded up to a multiple of 256 (Touvron et al. 2023, Meta's reference `multiple_of`).
std::int64_t defaultDFf(Arch arch, std::int64_t dModel);

/// The one rule for fields that depend on others, used by the command line, scenario files
/// and the window alike: d_ff follows the width (defaultDFf) unless given; kv heads equal the
/// heads (multi-head attention) unless given; the head is tied for gpt2 and untied for llama
/// unless given. A dependent field changes only when what it depends on was given.
ModelShape deriveDependentFields(const ModelShape &m, const ShapeFieldsGiven &given);

/// Fills every model field from a preset; a gpt2 sequence longer than the preset's position
/// table is shortened to it. `note` says what was adjusted.
Scenario applyPreset(const Scenario &s, const ModelPreset &preset, QString *note);

} // namespace napkin
