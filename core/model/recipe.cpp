#include "core/model/recipe.h"

#include <QStringList>

namespace napkin {

// AdamW update per parameter, counted from Loshchilov & Hutter 2019 Algorithm 2:
// m = b1 m + (1-b1) g (3), v = b2 v + (1-b2) g^2 (4), bias corrections (2),
// sqrt, add eps, divide (3), decoupled weight decay and step (3) = 15 FLOPs.
constexpr double kAdamWFlops = 15;
// SGD with momentum (Sutskever et al. 2013 / PyTorch SGD): weight decay (2),
// momentum buffer (2), step (2) = 6 FLOPs.
constexpr double kSgdMomentumFlops = 6;
// Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization", Section 2: each state
// is stored in 8 bits with one fp32 absmax per block of 2048 values.
constexpr double kBlockwise8bitStateBytes = 1 + 4.0 / 2048;

const QList<Recipe> &recipes()
{
    // Built once and never mutated: a constant table, not state.
    static const QList<Recipe> table = {
        {QStringLiteral("bf16-mixed-adamw"), QStringLiteral("bf16 mixed precision, AdamW (2/2/12)"),
         2, 2, 12, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("Source document (CS336 lecture 2) and Rajbhandari et al. 2019 (ZeRO) Section 3.1: "
                        "2 B bf16 params + 2 B bf16 grads + K = 12 B fp32 master, momentum, variance")},
        {QStringLiteral("bf16-mixed-adamw-fp32-grads"),
         QStringLiteral("bf16 mixed precision, fp32 grads, AdamW (2/4/12)"),
         2, 4, 12, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("Megatron-LM docs, distributed optimizer: bf16 params with fp32 main_grad "
                        "accumulation = 18 B/param; DeepSpeed bf16 with fp32 gradient accumulation")},
        {QStringLiteral("fp32-adamw"), QStringLiteral("fp32, AdamW (4/4/8)"),
         4, 4, 8, 4, QStringLiteral("fp32"), kAdamWFlops,
         QStringLiteral("Kingma & Ba 2015: two fp32 moments; fp32 weights and grads, no master copy")},
        {QStringLiteral("bf16-adamw"), QStringLiteral("pure bf16, AdamW with bf16 moments (2/2/4)"),
         2, 2, 4, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("Pure bf16 training (e.g. Zamirai et al. 2020, 'Revisiting BFloat16 Training'): "
                        "bf16 weights, grads and both Adam moments, no fp32 master")},
        {QStringLiteral("bf16-mixed-adamw-bf16-moments"),
         QStringLiteral("bf16 mixed precision, fp32 grads, AdamW with bf16 moments (2/4/8)"),
         2, 4, 8, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv 2412.19437), Section 3.3.2: BF16 "
                        "first and second AdamW moments; master weights and gradients kept in FP32 "
                        "(4 + 2 + 2 B of optimizer state, 4 B grads); bf16 compute copy 2 B")},
        {QStringLiteral("bf16-mixed-adamw-8bit"), QStringLiteral("bf16 mixed precision, 8-bit AdamW (2/2/6)"),
         2, 2, 4 + 2 * kBlockwise8bitStateBytes, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization (bitsandbytes), "
                        "Section 2: both Adam states in 8 bits with an fp32 absmax per block of 2048 "
                        "(2 + 8/2048 B), beside the fp32 master weights (4 B); the de/quantisation's "
                        "arithmetic is not counted")},
        {QStringLiteral("fp8-mixed-adamw"), QStringLiteral("FP8 mixed precision, fp32 grads, AdamW (2/4/12)"),
         2, 4, 12, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("Micikevicius et al. 2022, FP8 Formats for Deep Learning (arXiv 2209.05433), Section 4: FP8 "
                        "GEMM inputs with higher-precision master weights and optimizer state; NVIDIA Transformer "
                        "Engine (fp8_autocast runs te.Linear GEMMs in FP8, attention in bf16) under Megatron-LM's "
                        "bf16 params and fp32 main_grad (2 + 4 B) and fp32 Adam (12 B); saved activations counted at "
                        "2 B (Transformer Engine's FP8 copies of GEMM inputs would be 1 B)"),
         QStringLiteral("fp8")},
        {QStringLiteral("fp8-mixed-adamw-bf16-grads"), QStringLiteral("FP8 mixed precision, bf16 grads, AdamW (2/2/12)"),
         2, 2, 12, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("NVIDIA NeMo's performance recipes (scripts/performance/helpers.py, set_precision_configs: "
                        "bf16_with_fp8_mixed() then grad_reduce_in_fp32 = False; the older per-model scripts, e.g. "
                        "scripts/performance/llm/pretrain_gpt3_175b.py, set the same for fp8): Transformer Engine's FP8 "
                        "GEMMs under bf16 params, with Megatron-Core's gradient buffer in the params' dtype (its "
                        "DistributedDataParallel keeps main_grad in fp32 only with grad_reduce_in_fp32), so 2 B "
                        "grads reduced in bf16, and fp32 Adam (12 B)"),
         QStringLiteral("fp8")},
        {QStringLiteral("fp8-mixed-adamw-bf16-moments"),
         QStringLiteral("FP8 mixed precision, fp32 grads, AdamW with bf16 moments (2/4/8)"),
         2, 4, 8, 2, QStringLiteral("bf16"), kAdamWFlops,
         QStringLiteral("DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv 2412.19437), Section 3.3: the linear "
                        "layers' Fprop, Dgrad and Wgrad GEMMs in FP8, attention and normalisation in BF16/FP32; "
                        "Section 3.3.2: FP32 master weights and gradients, BF16 AdamW moments (4 + 2 + 2 B of "
                        "optimizer state, 4 B grads), bf16 compute copy 2 B; saved activations counted at 2 B "
                        "(Section 3.3.3 caches some GEMM inputs in FP8, 1 B)"),
         QStringLiteral("fp8")},
        {QStringLiteral("bf16-mixed-sgd-momentum"),
         QStringLiteral("bf16 mixed precision, SGD with momentum (2/2/8)"),
         2, 2, 8, 2, QStringLiteral("bf16"), kSgdMomentumFlops,
         QStringLiteral("Micikevicius et al. 2018 (mixed precision): fp32 master weights (4 B) + "
                        "one fp32 momentum buffer (4 B)")},
        {QStringLiteral("fp32-sgd-momentum"), QStringLiteral("fp32, SGD with momentum (4/4/4)"),
         4, 4, 4, 4, QStringLiteral("fp32"), kSgdMomentumFlops,
         QStringLiteral("PyTorch torch.optim.SGD(momentum>0): one fp32 momentum buffer per parameter")},
    };
    return table;
}

std::optional<Recipe> findRecipe(const QString &id)
{
    for (const Recipe &r : recipes())
        if (r.id == id)
            return r;
    return std::nullopt;
}

QString recipeIdList()
{
    QStringList ids;
    for (const Recipe &r : recipes())
        ids << r.id;
    return ids.join(QStringLiteral(", "));
}

} // namespace napkin
