// Napkin's bottom-up step (time.step_seconds, uncalibrated) against published, measured training
// iterations, and calibration from one run of a family predicting its siblings (leave one out).
//
// Rows (every number as printed; the iteration times of Narayanan et al. are derived as the
// paper defines its throughput, F / (GPUs x teraFLOP/s), with its Eq. 3 F = 96 B s l h^2 (1 +
// s/(6h) + V/(16 l h))):
//  - Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using
//    Megatron-LM" (arXiv 2104.04473), Table 1: GPT 1.7B to 1T on up to 3072 A100 80GB (Selene:
//    DGX A100, 8 x HDR 200 Gb/s per node), sequence 2048, vocabulary 51,200, full activation
//    recomputation. Micro-batches and virtual stages from the authors' reproduction script
//    (NVIDIA/Megatron-LM examples/sc21/run_table_1.sh at 6985e58), not printed in the paper.
//  - Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
//    (arXiv 2205.05198), Tables 3 and 5: 22B to 1T with TP 8 and no data parallelism, full
//    recompute against sequence parallelism + selective recompute, iteration time in seconds;
//    three virtual stages for 175B and 530B; and Section 6.3's 530B at 8-way data parallelism
//    (2,240 GPUs, the batch per replica kept): 39.15 s.
//  - NVIDIA DGX Cloud Benchmarking recipes (github.com/NVIDIA/dgxc-benchmarking, release v25.04,
//    NeMo 25.02.01 and 24.12 containers), printed train_step_timing on DGX H100: Llama 3.1 8B,
//    70B and 405B, and GPT-3 175B, each in BF16 and FP8, at the smallest scale printed
//    (llama3.1/README.md, nemo_megatron/README_175b.md at 741c886).
//  - MLPerf Training v3.1, NVIDIA's GPT-3 175B on 512 to 10,752 H100 (Eos), six scales; v4.1, the
//    same at micro-batch 2 on 256 and 512 H100 and 64 B200; and v5.0, its Llama 3.1 405B on 512
//    to 8,192 H100, five scales: their configuration files and the step times their result logs
//    print for every step.
//  - NVIDIA Megatron-Bridge performance summary (docs/performance-summary-archive.md at
//    067f987), DGX H100 Mixture-of-Experts rows, containers 26.04.01: Qwen3-30B-A3B (FP8, 16
//    GPUs, EP 16) and GPT-OSS 120B (BF16, 64 GPUs, PP 4, EP 8); the iteration is GBS x seq_len /
//    (tokens/s/GPU x GPUs). Their recipes force balanced routing and drop no tokens. Also
//    Qwen3-235B-A22B (FP8, 256 GPUs, TP 2, PP 8, EP 32, expert TP 1), and DGX Cloud
//    Benchmarking v25.05's DeepSeek-V3 (BF16, 1,024 GPUs, TP 2, PP 16, EP 64, expert TP 1):
//    both fold EP over TP x DP (Megatron-Core's MoE parallel folding).
//  - The same summary, 25.11 container, DGX-B200 (docs/performance-summary-archive.md at
//    0a25f91; recipes in scripts/performance/configs/): Llama 3 8B FP8 (8 GPUs, micro-batch 2),
//    Llama 3.1 405B FP8 (128 GPUs, TP 4, PP 8, CP 2, VP 8, batch 64) and GPT-OSS 120B BF16 (64
//    GPUs, micro-batch 4, EP 64 as its recipe sets it, batch 512). Their FP8 is current scaling
//    (--fp8-scaling current): each cast first measures its tensor's amax.
// The H100 rows are described as those recipes run them: FlashAttention (Transformer Engine),
// Megatron's distributed optimizer (ZeRO 1), gradients kept and reduced in bf16 under FP8 as under
// BF16 (NeMo's scripts/performance/helpers.py set_precision_configs sets grad_reduce_in_fp32 = False
// for both; Megatron-Bridge's GPT-OSS H100 configuration prints the same), sequence parallelism
// with TP, TP communication overlap where the recipe sets it, bucketed DP overlap, and the
// recomputation the recipe sets: none, except GPT-OSS's norms and experts' activation
// (recompute_modules ["layernorm", "moe_act"] in Megatron-Bridge's H100 and B200 recipes) and
// DeepSeek-V3's latent up projections (RM='mla_up_proj' in DGX Cloud Benchmarking v25.05's
// deepseek_v3/pretraining/launch.sh for H100), each Megatron-Core's selective recompute of
// those modules alone.
// The A100 model is described as the runs describe it: GPT with learned positions, GELU MLP of 4h,
// tied embeddings, vocabulary 51,200, mixed precision on the A100's 312 TFLOP/s, no ZeRO. What the
// papers leave to Megatron-LM's defaults is taken from its code of the time (megatron/arguments.py
// at 6985e58, 2021, and at 2755bcb, 2022-06): attention and hidden dropout 0.1, and its own
// data parallelism (--DDP-impl local), which reduces the gradients after the backward. The
// Table 1 script overrides that with PyTorch's DDP (bucketed, overlapped) up to 18B.

#include "core/report/calibration.h"
#include "core/report/report.h"
#include "core/report/trackrecord.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>

using namespace napkin;

namespace {

struct Row {
    const char *name;
    const char *family;  ///< runs measured alike, for leave-one-out calibration
    std::int64_t heads, hidden, layers, tp, pp, vpp, gpus, globalBatch, microBatch;
    Recompute recompute;
    bool sp;
    double measuredSeconds;
    bool ddpOverlap = false;  ///< --DDP-impl torch (overlapped) rather than Megatron-LM's local
    /// Megatron-LM of 2021 had no gradient-accumulation fusion (it came with the 2022 code, and
    /// only beside fp32 accumulation); the Table 1 runs add each micro-batch's fp16 gradients in
    /// autograd's own kernels.
    bool gradAccumulationFusion = true;
};

/// Narayanan et al.'s iteration time from its printed per-GPU throughput (teraFLOP/s).
double narayananSeconds(double layers, double hidden, double batch, double gpus, double tflops)
{
    const double s = 2048, v = 51200;
    const double f = 96 * batch * s * layers * hidden * hidden * (1 + s / (6 * hidden) + v / (16 * layers * hidden));
    return f / (gpus * tflops * 1e12);
}

QList<Row> rows()
{
    // run_table_1.sh sets --DDP-impl torch up to 18B and local from 39B.
    const auto n = [](const char *name, std::int64_t heads, std::int64_t hidden, std::int64_t layers, std::int64_t tp,
                      std::int64_t pp, std::int64_t vpp, std::int64_t gpus, std::int64_t batch, std::int64_t micro,
                      double tflops) {
        return Row{name, "narayanan2021", heads, hidden, layers, tp, pp, vpp, gpus, batch, micro, Recompute::Full, false,
                   narayananSeconds(static_cast<double>(layers), static_cast<double>(hidden), static_cast<double>(batch),
                                    static_cast<double>(gpus), tflops),
                   hidden <= 6144, false};
    };
    return {
        n("GPT 1.7B, 32 A100 (Narayanan T1)", 24, 2304, 24, 1, 1, 1, 32, 512, 16, 137),
        n("GPT 3.6B, 64 A100 (Narayanan T1)", 32, 3072, 30, 2, 1, 1, 64, 512, 16, 138),
        n("GPT 7.5B, 128 A100 (Narayanan T1)", 32, 4096, 36, 4, 1, 1, 128, 512, 16, 142),
        n("GPT 18.4B, 256 A100 (Narayanan T1)", 48, 6144, 40, 8, 1, 1, 256, 1024, 8, 135),
        n("GPT 39.1B, 512 A100 (Narayanan T1)", 64, 8192, 48, 8, 2, 1, 512, 1536, 4, 138),
        n("GPT 76.1B, 1024 A100 (Narayanan T1)", 80, 10240, 60, 8, 4, 3, 1024, 1792, 2, 140),
        n("GPT 145.6B, 1536 A100 (Narayanan T1)", 96, 12288, 80, 8, 8, 2, 1536, 2304, 2, 148),
        n("GPT 310.1B, 1920 A100 (Narayanan T1)", 128, 16384, 96, 8, 16, 2, 1920, 2160, 1, 155),
        n("GPT 529.6B, 2520 A100 (Narayanan T1)", 128, 20480, 105, 8, 35, 3, 2520, 2520, 1, 163),
        n("GPT 1008B, 3072 A100 (Narayanan T1)", 160, 25600, 128, 8, 64, 1, 3072, 3072, 1, 163),
        {"22B full recompute (Korthikanti T5)", "korthikanti2022-full", 64, 6144, 48, 8, 1, 1, 8, 4, 4, Recompute::Full, false, 1.42},
        {"175B full recompute (Korthikanti T5)", "korthikanti2022-full", 96, 12288, 96, 8, 8, 3, 64, 64, 1, Recompute::Full, false, 18.13},
        {"530B full recompute (Korthikanti T5)", "korthikanti2022-full", 128, 20480, 105, 8, 35, 3, 280, 280, 1, Recompute::Full, false, 49.05},
        {"1T full recompute (Korthikanti T5)", "korthikanti2022-full", 160, 25600, 128, 8, 64, 1, 512, 512, 1, Recompute::Full, false, 94.42},
        {"22B SP + selective (Korthikanti T5)", "korthikanti2022-selective", 64, 6144, 48, 8, 1, 1, 8, 4, 4, Recompute::Selective, true, 1.10},
        {"175B SP + selective (Korthikanti T5)", "korthikanti2022-selective", 96, 12288, 96, 8, 8, 3, 64, 64, 1, Recompute::Selective, true, 13.75},
        {"530B SP + selective (Korthikanti T5)", "korthikanti2022-selective", 128, 20480, 105, 8, 35, 3, 280, 280, 1, Recompute::Selective, true, 37.83},
        {"1T SP + selective (Korthikanti T5)", "korthikanti2022-selective", 160, 25600, 128, 8, 64, 1, 512, 512, 1, Recompute::Selective, true, 71.49},
        // Section 6.3: the 530B run at 8-way data parallelism, batch per replica kept: 39.15 s.
        {"530B SP + selective, DP 8 (Korthikanti 6.3)", "korthikanti2022-selective", 128, 20480, 105, 8, 35, 3, 2240, 2240, 1,
         Recompute::Selective, true, 39.15},
    };
}

Scenario scenarioOf(const Row &row)
{
    Scenario s;
    const ModelPreset *gpt = test::catalog().findPreset(QStringLiteral("gpt2-small"));
    Q_ASSERT(gpt);
    s.model = gpt->shape;  // GPT: learned positions, GELU MLP, LayerNorm, tied embeddings
    s.model.layers = row.layers;
    s.model.dModel = row.hidden;
    s.model.heads = row.heads;
    s.model.kvHeads = row.heads;
    s.model.dFf = 4 * row.hidden;
    s.model.vocab = 51200;
    s.model.maxPositions = 2048;
    s.seqLen = 2048;
    s.gpuId = QStringLiteral("a100-80gb-sxm");
    s.gpus = row.gpus;
    s.tp = row.tp;
    s.pp = row.pp;
    s.vpp = row.vpp;
    s.sequenceParallel = row.sp;
    s.microBatch = row.microBatch;
    s.globalBatch = row.globalBatch;
    s.recompute = row.recompute;
    s.flashAttention = false;  // 2021-2022 Megatron: its own fused softmax, no FlashAttention
    s.zeroStage = 0;
    s.dropout = true;  // Megatron-LM's default attention and hidden dropout of 0.1
    s.dpOverlap = row.ddpOverlap;
    s.gradAccumulationFusion = row.gradAccumulationFusion;
    // post_language_model_processing: vocab_parallel_cross_entropy(output.float(), labels), a
    // kernel per step (megatron/mpu/cross_entropy.py at 6985e58 and 2755bcb).
    s.crossEntropy = CrossEntropy::Unfused;
    // The 2022 code's gradient-accumulation fusion adds into fp32 main_grad buffers
    // (wgrad_gemm_accum_fp32), which its local DDP then reduces: 4-byte gradients, the 18 bytes a
    // parameter that Korthikanti et al.'s memory accounting counts (tst_parallel's korthikantiGpt).
    if (row.gradAccumulationFusion)
        s.recipeId = QStringLiteral("bf16-mixed-adamw-fp32-grads");
    return s;
}

/// One published iteration: a scenario as it ran, and its measured seconds.
struct Case {
    QString name;
    QString family;  ///< runs measured alike, for leave-one-out calibration
    Scenario scenario;
    double measuredSeconds = 0;
};

/// A DGX H100 run of a catalog model, as NeMo's and Megatron-Bridge's recipes run it.
Scenario h100Run(const char *preset, std::int64_t gpus, std::int64_t tp, std::int64_t pp, std::int64_t vpp,
                 std::int64_t cp, std::int64_t ep, std::int64_t globalBatch, std::int64_t seqLen, bool fp8)
{
    Scenario s = test::presetScenario(preset);
    s.gpuId = QStringLiteral("h100-sxm");
    s.gpus = gpus;
    s.tp = tp;
    s.pp = pp;
    s.vpp = vpp;
    s.cp = cp;
    s.ep = ep;
    s.seqLen = seqLen;
    s.microBatch = 1;
    s.globalBatch = globalBatch;
    s.recipeId = fp8 ? QStringLiteral("fp8-mixed-adamw-bf16-grads") : QStringLiteral("bf16-mixed-adamw");
    s.recompute = Recompute::None;
    s.flashAttention = true;
    s.causalHalving = true;  // causal decoders: FlashAttention skips the masked tiles (Dao 2023, Section 3.1.1)
    s.zeroStage = 1;
    s.sequenceParallel = tp > 1;
    s.tpOverlap = tp > 1;
    s.dpOverlap = true;
    return s;
}

/// GPT-OSS as Megatron-Bridge's recipes run it: selective recompute of the norms and the
/// experts' activation alone (recompute_modules ["layernorm", "moe_act"]).
Scenario gptOssRecompute(Scenario s)
{
    s.recompute = Recompute::Selective;
    s.recomputeCoreAttention = false;
    s.recomputeNorms = true;
    s.recomputeMoeActivation = true;
    return s;
}

/// GPT-3 175B (Brown et al. 2020, Table 2.1: 96 layers, d_model 12,288, 96 heads, 2,048
/// context), vocabulary 51,200 as the A100 rows.
Scenario gpt3(std::int64_t gpus, std::int64_t globalBatch, bool fp8)
{
    Scenario s = h100Run("gpt2-small", gpus, 4, 8, 6, 1, 1, globalBatch, 2048, fp8);
    s.model.layers = 96;
    s.model.dModel = 12288;
    s.model.heads = s.model.kvHeads = 96;
    s.model.dFf = 4 * 12288;
    s.model.vocab = 51200;
    s.model.maxPositions = 2048;
    return s;
}

QList<Case> cases()
{
    QList<Case> all;
    for (const Row &row : rows())
        all.append({QString::fromLatin1(row.name), QString::fromLatin1(row.family), scenarioOf(row), row.measuredSeconds});
    const auto published = [&all](const char *name, const char *family, const Scenario &s, double seconds) {
        all.append({QString::fromLatin1(name), QString::fromLatin1(family), s, seconds});
    };
    // DGX Cloud Benchmarking v25.04, DGX H100, printed seconds per step (sequence 8,192, micro-batch 1).
    published("Llama 3.1 8B BF16, 8 H100, CP 2 (DGXC)", "dgxc-bf16", h100Run("llama3-8b", 8, 1, 1, 1, 2, 1, 128, 8192, false), 12.27);
    published("Llama 3.1 70B BF16, 64 H100 (DGXC)", "dgxc-bf16", h100Run("llama3-70b", 64, 4, 4, 5, 2, 1, 128, 8192, false), 14.66);
    published("Llama 3.1 405B BF16, 512 H100 (DGXC)", "dgxc-bf16", h100Run("llama3.1-405b", 512, 8, 8, 8, 2, 1, 256, 8192, false), 19.78);
    published("GPT-3 175B BF16, 128 H100 (DGXC)", "dgxc-bf16", gpt3(128, 256, false), 8.309);
    published("Llama 3.1 8B FP8, 8 H100, CP 2 (DGXC)", "dgxc-fp8", h100Run("llama3-8b", 8, 1, 1, 1, 2, 1, 128, 8192, true), 9.33);
    published("Llama 3.1 70B FP8, 64 H100 (DGXC)", "dgxc-fp8", h100Run("llama3-70b", 64, 4, 8, 5, 1, 1, 128, 8192, true), 9.86);
    published("Llama 3.1 405B FP8, 512 H100 (DGXC)", "dgxc-fp8", h100Run("llama3.1-405b", 512, 8, 8, 8, 2, 1, 256, 8192, true), 12.37);
    published("GPT-3 175B FP8, 128 H100 (DGXC)", "dgxc-fp8", gpt3(128, 256, true), 5.626);
    // MLPerf Training v3.1 (2023), NVIDIA's GPT-3 175B on Eos (DGX H100 nodes), every scale it
    // submitted (mlcommons/training_results_v3.1, NVIDIA/benchmarks/gpt3/implementations/pytorch/):
    // config_DGXH100_<nodes>x8x<MINIBS>x4x8_mbs1.sh sets TP 4, PP 8, micro-batch 1 and TP overlap,
    // the global batch MINIBS x GPUs / 32; config_fp8.sh FP8 with delayed scaling;
    // conf/custom.yaml sequence 2,048, 12 virtual stages (its default: config_common.sh, which could
    // override it, is not in the stored results), SP, no dropout, no recomputation. The 64-node run
    // is the 96-node file's (MINIBS 128) at DGXNNODES=64. Each results/eos*_n<nodes>_ngc23.09_nemo/
    // gpt3/result_0.txt (result_1.txt for 1,344 nodes) logs NeMo's train_step_timing for every
    // step; each row is the steady step of the last block (its first step, after an evaluation, runs
    // a few percent faster).
    const auto mlperf = [&published](const char *name, std::int64_t gpus, std::int64_t globalBatch, double seconds) {
        Scenario s = gpt3(gpus, globalBatch, true);
        s.vpp = 12;
        published(name, "mlperf-gpt3", s, seconds);
    };
    mlperf("GPT-3 175B FP8, 512 H100 (MLPerf v3.1)", 512, 2048, 11.045);
    mlperf("GPT-3 175B FP8, 4,096 H100 (MLPerf v3.1)", 4096, 2048, 1.607);
    mlperf("GPT-3 175B FP8, 6,144 H100 (MLPerf v3.1)", 6144, 3072, 1.619);
    mlperf("GPT-3 175B FP8, 8,192 H100 (MLPerf v3.1)", 8192, 4096, 1.621);
    mlperf("GPT-3 175B FP8, 10,240 H100 (MLPerf v3.1)", 10240, 2560, 0.925);
    mlperf("GPT-3 175B FP8, 10,752 H100 (MLPerf v3.1)", 10752, 2688, 0.930);
    // MLPerf Training v4.1 (2024), NVIDIA's GPT-3 175B with micro-batch 2 (mlcommons' results as
    // mirrored in swsok/training_results_v4.1, NVIDIA/benchmarks/gpt3/implementations/<dir>/):
    // config_DGXH100_32x8x256x4x8_mbs2.sh, config_DGXH100_64x8x128x4x8_mbs2.sh and
    // config_DGXB200_8x8x1024x4x8_mbs2_cg.sh set TP 4, PP 8, 6 virtual stages, micro-batch 2, TP
    // overlap and a global batch of 2,048; config_fp8.sh FP8 with delayed scaling; config_common.sh
    // the distributed optimizer; conf/custom.yaml sequence 2,048, SP, no recomputation. The B200
    // file also reads config_common_blackwell.sh, which is not in the stored results. Each
    // results/<dir>/gpt3/result_0.txt logs train_step_timing for every step (the last block,
    // after its first step: 18.361-18.378 s on 256 H100, 9.486-9.504 s on 512, 36.038-36.052 s on
    // 64 B200; the B200 run also replays each layer as a CUDA graph).
    const auto mlperfMbs2 = [&published](const char *name, const char *family, const char *gpu, std::int64_t gpus,
                                         double seconds) {
        Scenario s = gpt3(gpus, 2048, true);
        s.gpuId = QLatin1String(gpu);
        s.microBatch = 2;
        published(name, family, s, seconds);
    };
    mlperfMbs2("GPT-3 175B FP8, 256 H100, mbs 2 (MLPerf v4.1)", "mlperf-gpt3-v4.1", "h100-sxm", 256, 18.369);
    mlperfMbs2("GPT-3 175B FP8, 512 H100, mbs 2 (MLPerf v4.1)", "mlperf-gpt3-v4.1", "h100-sxm", 512, 9.495);
    mlperfMbs2("GPT-3 175B FP8, 64 B200 (MLPerf v4.1)", "mlperf-b200", "b200", 64, 36.045);
    // MLPerf Training v5.0 (2025), NVIDIA's Llama 3.1 405B pretraining on Eos (DGX H100), every
    // H100 scale it submitted (mlcommons' results as mirrored in prishajain1/training_results_v5.0,
    // NVIDIA/benchmarks/llama31_405b/implementations/eos-dfw_n<nodes>_ngc25.01_nemo/):
    // config_DGXH100_<nodes>x8x<MINIBS>xtp8pp8cp2.sh sets TP 8, PP 8, 8 virtual stages, CP 2,
    // micro-batch 1 and TP overlap, the global batch nodes x MINIBS / 16; config_common.sh FP8, the
    // distributed optimizer, overlapped gradient reduction and parameter gathers; pretrain.py
    // sequence 8,192 and gradients reduced in bf16. Each results/eos-dfw_n<nodes>_ngc25.01_nemo/
    // llama31_405b/result_0.txt logs train_step_time for every step: the rows take the last block's
    // typical step (512 GPUs: 55.15 to 55.29 s; 8,192 GPUs: 5.13 to 5.30 s), leaving out its
    // occasional stalls. Not modelled: FP8 parameter gathers (charged in bf16) and the embedding and
    // loss counted as layers when the stages are split (ASYM_PP_EMBED, ASYM_PP_LOSS).
    const auto mlperfLlama = [&published](const char *name, std::int64_t gpus, std::int64_t globalBatch,
                                          double seconds) {
        published(name, "mlperf-llama405b", h100Run("llama3.1-405b", gpus, 8, 8, 8, 2, 1, globalBatch, 8192, true),
                  seconds);
    };
    mlperfLlama("Llama 3.1 405B FP8, 512 H100 (MLPerf v5.0)", 512, 1152, 55.19);
    mlperfLlama("Llama 3.1 405B FP8, 2,048 H100 (MLPerf v5.0)", 2048, 1152, 14.24);
    mlperfLlama("Llama 3.1 405B FP8, 2,432 H100 (MLPerf v5.0)", 2432, 1216, 12.73);
    mlperfLlama("Llama 3.1 405B FP8, 2,560 H100 (MLPerf v5.0)", 2560, 1120, 11.19);
    mlperfLlama("Llama 3.1 405B FP8, 8,192 H100 (MLPerf v5.0)", 8192, 1536, 5.20);
    // Megatron-Bridge 26.04.01, DGX H100: tokens/s/GPU 8,960 and 5,824. Bridge's FP8 is current
    // scaling: its performance scripts offer fp8_cs, fp8_mx and fp8_sc and no delayed scaling
    // (scripts/performance/utils/precision.py at v0.2.0 and v0.4.1, get_precision_config).
    const auto currentScaling = [](Scenario s) {
        s.fp8Scaling = Fp8Scaling::Current;
        return s;
    };
    // Megatron-Bridge's Llama 3 and Qwen3 MoE recipes set cross_entropy_fusion_impl = "te"
    // (src/megatron/bridge/recipes/llama/llama3.py, _llama3_common; recipes/qwen/h100/
    // qwen3_moe.py, "Kernel selections"); its GPT-OSS recipe (recipes/gpt_oss/gpt_oss.py) leaves
    // the provider's cross_entropy_loss_fusion with Megatron-Core's default, native.
    const auto teLoss = [](Scenario s) {
        s.crossEntropy = CrossEntropy::TransformerEngine;
        return s;
    };
    published("Qwen3-30B-A3B FP8, 16 H100, EP 16 (Bridge)", "bridge-moe",
         teLoss(currentScaling(h100Run("qwen3-30b-a3b", 16, 1, 1, 1, 1, 16, 1024, 4096, true))),
         1024.0 * 4096 / (8960.0 * 16));
    published("GPT-OSS 120B BF16, 64 H100, EP 8 (Bridge)", "bridge-moe",
         gptOssRecompute(h100Run("gpt-oss-120b", 64, 1, 4, 1, 1, 8, 1280, 4096, false)), 1280.0 * 4096 / (5824.0 * 64));
    // MoE parallel folding: EP over TP x DP with expert TP 1. Qwen3-235B-A22B, Megatron-Bridge
    // 26.04.01 (1,712 tokens/s/GPU; its recipe overlaps the all-to-all, 1F1B, and leaves TP's
    // collectives unoverlapped); DeepSeek-V3, DGX Cloud Benchmarking v25.05 (deepseek_v3/
    // pretraining/README.md at 68eaf7e: 52.04 s per step, BF16, TP 2, PP 16, EP 64).
    Scenario qwen = teLoss(currentScaling(h100Run("qwen3-235b-a22b", 256, 2, 8, 4, 1, 32, 8192, 4096, true)));
    qwen.etp = 1;
    qwen.epOverlap = true;
    qwen.tpOverlap = false;
    published("Qwen3-235B-A22B FP8, 256 H100, EP 32 (Bridge)", "bridge-moe", qwen, 8192.0 * 4096 / (1712.0 * 256));
    Scenario deepseek = h100Run("deepseek-v3", 1024, 2, 16, 1, 1, 64, 8192, 4096, false);
    deepseek.etp = 1;
    deepseek.recompute = Recompute::Selective;  // --recompute_modules mla_up_proj, alone
    deepseek.recomputeCoreAttention = false;
    deepseek.recomputeMlaUpProjection = true;
    published("DeepSeek-V3 BF16, 1024 H100, EP 64 (DGXC)", "dgxc-bf16", deepseek, 52.04);
    // Megatron-Bridge 25.11, DGX B200 (tokens/s/GPU 30,624, 661 and 8,213): the same recipes on
    // Blackwell, FP8 with current scaling, GPT-OSS at micro-batch 4 without pipeline stages.
    const auto b200 = [](Scenario s, std::int64_t microBatch) {
        s.gpuId = QStringLiteral("b200");
        s.microBatch = microBatch;
        return s;
    };

    published("Llama 3 8B FP8, 8 B200 (Bridge)", "bridge-b200",
         teLoss(currentScaling(b200(h100Run("llama3-8b", 8, 1, 1, 1, 1, 1, 128, 8192, true), 2))),
         128.0 * 8192 / (30624.0 * 8));
    published("Llama 3.1 405B FP8, 128 B200, CP 2 (Bridge)", "bridge-b200",
         teLoss(currentScaling(b200(h100Run("llama3.1-405b", 128, 4, 8, 8, 2, 1, 64, 8192, true), 1))),
         64.0 * 8192 / (661.0 * 128));
    // GPT-OSS: the 25.11 table prints EP 8, but the recipe that release ran sets EP 64
    // (Megatron-Bridge v0.2.0, 7af9601, 2025-11-26: scripts/performance/configs/gpt_oss/
    // workload_base_configs.py, GPT_OSS_120B_B200_BF16_BASE_CONFIG, expert_model_parallel_size=64,
    // micro_batch_size=4), as 26.02's EP 64 run measured alike (8,047 tokens/s/GPU); the recipe
    // moved to EP 8 in March 2026 (904597bd3) and 26.02.01 measured 13,722.
    published("GPT-OSS 120B BF16, 64 B200, EP 64 (Bridge)", "bridge-b200",
         gptOssRecompute(b200(h100Run("gpt-oss-120b", 64, 1, 1, 1, 1, 64, 512, 4096, false), 4)),
         512.0 * 4096 / (8213.0 * 64));
    return all;
}

double estimate(const Scenario &s)
{
    const auto r = computeReport(s, test::catalog());
    if (!r.ok())
        qFatal("%s", qPrintable(r.refusalMessage()));
    return r->step.stepSeconds;
}

} // namespace

class TestMeasuredTraining final : public QObject
{
    Q_OBJECT

private:
    /// The window and the report state the estimate's track record (core/report/trackrecord.cpp):
    /// it must be this table's, kind by kind, to the 0.05 percentage point it prints.
    static void checkTrackRecords(const QList<Case> &all)
    {
        for (const TrackRecord &record : trackRecords()) {
            TrackRecord seen;
            seen.lowest = 1e9;
            seen.highest = -1e9;
            QStringList gpus;
            for (const Case &c : all) {
                if (&trackRecordFor(c.scenario) != &record)
                    continue;
                const double e = estimate(c.scenario) / c.measuredSeconds - 1;
                ++seen.runs;
                seen.meanError += e;
                seen.meanAbsError += std::abs(e);
                seen.lowest = std::min(seen.lowest, e);
                seen.highest = std::max(seen.highest, e);
                const QString gpu = test::catalog().findGpu(c.scenario.gpuId)->shortName;
                if (!gpus.contains(gpu))
                    gpus.append(gpu);
            }
            seen.meanError /= seen.runs;
            seen.meanAbsError /= seen.runs;
            qInfo("track record, %s runs on %s: %d, mean error %+.2f%%, mean |error| %.2f%%, from %+.2f%% to %+.2f%%",
                  qPrintable(record.kind), qPrintable(gpus.join(QStringLiteral(", "))), seen.runs, seen.meanError * 100,
                  seen.meanAbsError * 100, seen.lowest * 100, seen.highest * 100);
            QCOMPARE(gpus.join(QStringLiteral(", ")), record.gpus);
            QCOMPARE(seen.runs, record.runs);
            for (const auto &[stated, measured] : {std::pair{record.meanError, seen.meanError},
                                                   std::pair{record.meanAbsError, seen.meanAbsError},
                                                   std::pair{record.lowest, seen.lowest},
                                                   std::pair{record.highest, seen.highest}})
                QVERIFY2(std::abs(stated - measured) <= 0.0005,
                         qPrintable(QStringLiteral("%1: stated %2%, the table gives %3%")
                                        .arg(record.kind)
                                        .arg(stated * 100, 0, 'f', 2)
                                        .arg(measured * 100, 0, 'f', 2)));
        }
    }

private slots:
    void uncalibratedAgainstMeasured()
    {
        double sum = 0;
        double worst = 0;
        const QList<Case> all = cases();
        for (const Case &c : all) {
            const double estimated = estimate(c.scenario);
            const double e = estimated / c.measuredSeconds - 1;
            qInfo("%-46s measured %8.3f s  estimated %8.3f s  error %+6.1f%%", qPrintable(c.name), c.measuredSeconds,
                  estimated, e * 100);
            sum += std::abs(e);
            worst = std::max(worst, std::abs(e));
            if (qEnvironmentVariableIsSet("NAPKIN_BREAKDOWN")) {  // each row's parts and collectives, for study
                const auto r = computeReport(c.scenario, test::catalog());
                const auto &t = r->step;
                qInfo("   mm %.3f att %.3f oth %.3f fixed %.3f | tp %.3f cp %.3f pp %.3f ep %.3f dp %.3f | bubble %.3f opt %.3f m %.0f",
                      t.computeMatmul, t.computeAttention, t.computeOther, t.computeFixed, t.tpExposed, t.cpExposed,
                      t.ppExposed, t.epExposed, t.dpExposed, t.bubble, t.optimizer, t.microBatches);
                for (const CommOp &op : t.comm)
                    qInfo("     %-32s n%-5lld %-10s %.3f s exposed %.3f", qPrintable(op.name), (long long)op.groupSize,
                          qPrintable(op.linkId), op.seconds, op.exposedSeconds);
            }
        }
        const double average = sum / static_cast<double>(all.size());
        qInfo("published training runs: %lld, average |error| %.1f%%, worst %.1f%%", static_cast<long long>(all.size()),
              average * 100, worst * 100);
        checkTrackRecords(all);
        QVERIFY(all.size() >= 15);
        // The targets: average within 8%, every row within 15%. Napkin's GEMMs run at a measured
        // figure plus a fixed time per launch (the H100's from realistic training shapes, the
        // A100's from one large square shape with realistic operands), and hidden communication
        // slows the compute beside it; the per-GPU spread synchronous training waits for is not
        // modelled, and the measured runs, the A100 ones most, come out slower than its kernels
        // add up to.
        const char *why = "measured runs are slower than Napkin's kernel sum (measured GEMM figures plus a fixed time "
                          "per launch): the target is not met";
        QEXPECT_FAIL("", why, Continue);
        QVERIFY(average <= 0.08);
        QEXPECT_FAIL("", why, Continue);
        QVERIFY(worst <= 0.15);
    }

    void calibratedOnOneRunPredictsItsSiblings()
    {
        // Leave one out: calibrate on one row of a family (its smallest run), predict the rest.
        const QList<Case> all = cases();
        double sum = 0;
        int count = 0;
        for (const char *family : {"narayanan2021", "korthikanti2022-full", "korthikanti2022-selective", "dgxc-bf16",
                                   "dgxc-fp8", "mlperf-gpt3", "mlperf-gpt3-v4.1", "mlperf-llama405b", "bridge-moe",
                                   "bridge-b200"}) {
            const Case *first = nullptr;
            for (const Case &c : all)
                if (c.family == QLatin1String(family)) {
                    first = &c;
                    break;
                }
            QVERIFY(first);
            const auto fit = calibrate({MeasuredRun{first->name, first->scenario, first->measuredSeconds, std::nullopt}},
                                       test::catalog(), {});
            QVERIFY2(fit.ok(), qPrintable(fit.refusalMessage()));
            qInfo("%s: calibrated on %s: compute x%.3f, memory x%.3f, comm x%.3f", family, qPrintable(first->name),
                  fit->compute, fit->memory, fit->comm);
            for (const Case &c : all) {
                if (c.family != QLatin1String(family) || &c == first)
                    continue;
                Scenario s = c.scenario;
                s.calibration = *fit;
                const double e = estimate(s) / c.measuredSeconds - 1;
                const double before = estimate(c.scenario) / c.measuredSeconds - 1;
                qInfo("  %-46s uncalibrated %+6.1f%%  calibrated %+6.1f%%", qPrintable(c.name), before * 100, e * 100);
                sum += std::abs(e);
                ++count;
            }
        }
        const double average = sum / count;
        qInfo("siblings after calibrating on one run: %d, average |error| %.1f%%", count, average * 100);
        // The same with every row of a family in turn as the run calibrated on (a family's
        // smallest run is one choice of many): printed beside the target, not asserted.
        double everySum = 0;
        int everyCount = 0;
        for (const Case &source : all) {
            const auto fit = calibrate({MeasuredRun{source.name, source.scenario, source.measuredSeconds, std::nullopt}},
                                       test::catalog(), {});
            QVERIFY2(fit.ok(), qPrintable(fit.refusalMessage()));
            for (const Case &c : all) {
                if (c.family != source.family || &c == &source)
                    continue;
                Scenario s = c.scenario;
                s.calibration = *fit;
                everySum += std::abs(estimate(s) / c.measuredSeconds - 1);
                ++everyCount;
            }
        }
        qInfo("siblings after calibrating on each run in turn: %d pairs, average |error| %.1f%%", everyCount,
              everySum / everyCount * 100);
        QEXPECT_FAIL("", "the error left after calibration grows with scale (see the table): a family's smallest run is "
                         "not its largest, and the factors fitted to one overshoot the other",
                     Continue);
        QVERIFY(average <= 0.05);
    }
};

QTEST_GUILESS_MAIN(TestMeasuredTraining)
#include "tst_measuredtraining.moc"
