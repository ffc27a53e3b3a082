#include "ui/shell/helpdialog.h"

#include "core/report/trackrecord.h"
#include "core/run/steptime.h"
#include "core/text/stepexplain.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace napkin::ui {

HelpDialog::HelpDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("How the numbers are computed"));
    auto *browser = new QTextBrowser(this);
    browser->setOpenExternalLinks(true);
    browser->setHtml(html());
    browser->setAccessibleName(tr("Formulas and sources"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(760, 640);
}

namespace {

/// The bottom-up step (time basis "estimated", the step chart) and how far it has been from
/// published measured runs: the record comes from core/report/trackrecord.h, which
/// tst_measuredtraining keeps equal to its table, so this page cannot state stale figures.
QString estimatedStepSection()
{
    QString records;
    for (const TrackRecord &t : trackRecords())
        records += HelpDialog::tr("<li>%1 runs (%2): %3 published runs, the estimate %4 than measured on average, "
                                  "from %5 to %6.</li>")
                       .arg(t.kind.at(0).toUpper() + t.kind.mid(1), t.gpus)
                       .arg(t.runs)
                       .arg(estimateErrorWords(t.meanError), estimateErrorWords(t.lowest), estimateErrorWords(t.highest));
    return HelpDialog::tr(
               "<h3>The estimated step</h3>"
               "<p>Bottom-up, on the slowest pipeline stage. Every op of one micro-batch takes max(FLOPs / "
               "(peak &times; the GPU's measured GEMM efficiency), bytes / (bandwidth &times; its measured "
               "memory efficiency)) plus the GPU's fixed time per kernel launch; FlashAttention runs at its "
               "measured efficiency for its head width and length. Each collective takes the alpha-beta time "
               "of its link (bus bandwidth as nccl-tests measures it, NCCL's latency per ring step). TP "
               "collectives and pipeline sends are exposed (TP overlap hides them, up to the GPU's measured "
               "overlap efficiency); CP's ring exchange hides behind the attention it feeds; DP and ZeRO "
               "traffic behind the last micro-batch's backward; MoE all-to-alls are exposed unless overlapped. "
               "Hidden communication slows the compute beside it by %2% while it runs (Lee et al. 2025). "
               "Step = micro-batches &times; (compute + exposed TP, CP, PP and EP) + pipeline bubble + exposed "
               "DP + optimizer (Narayanan et al. 2021, Section 2.2). Each efficiency and its source is in the "
               "GPU catalog (napkin gpus).</p>"
               "<p>Against published measured training runs (the list and its sources: docs/validation.md), "
               "before any calibration:</p><ul>%1</ul>"
               "<p>Edit &gt; Calibrate from a Measured Run fits three factors (compute, memory traffic, "
               "communication) to a step you measured, least squares on the log of the step time; every "
               "figure that follows says it is calibrated.</p>")
        .arg(records)
        .arg(100 * kOverlapComputeSlowdown, 0, 'f', 1);
}

} // namespace

QString HelpDialog::html()
{
    return tr(
        "<h2>How Napkin computes what it shows</h2>"
        "<p>Symbols: N parameters, D training tokens, L layers, h = d_model, a heads, s sequence length, "
        "b micro-batch, v vocabulary, n GPUs. All figures are in base units (bytes, FLOPs, seconds); "
        "GB means 10<sup>9</sup> bytes as in the source lecture, GiB 2<sup>30</sup>.</p>"
        "<h3>Parameters</h3>"
        "<p>Counted matrix by matrix as the reference implementations lay them out: GPT-2 as Hugging Face "
        "GPT2LMHeadModel (biases, LayerNorm weight and bias, tied head), Llama as LlamaForCausalLM "
        "(no biases, RMSNorm, SwiGLU, untied head). Grouped-query attention narrows K and V to "
        "kv_heads &times; h/a (Ainslie et al. 2023).</p>"
        "<h3>Training FLOPs</h3>"
        "<ul><li><b>6ND</b>: 6 &times; non-embedding N &times; D (Kaplan et al. 2020, Section 2.1: 2N forward + 4N backward).</li>"
        "<li><b>Detailed</b>: every forward matmul (m&times;k)(k&times;n) = 2mkn, summed over QKV, "
        "attention scores QK<sup>T</sup> and PV (2s<sup>2</sup>h each per layer), output projection, MLP "
        "and LM head; times 3 for forward plus backward. Attention is counted over the full s&times;s as "
        "Megatron-LM and PaLM do (Narayanan et al. 2021, Chowdhery et al. 2022) unless causal halving "
        "is on (s(s+1)/2 entries).</li>"
        "<li><b>Hardware FLOPs</b> add the forward matmuls that recomputation runs again (every block "
        "for full, QK<sup>T</sup> and PV for selective; Narayanan et al. 2021 eq. 3, Korthikanti et al. "
        "2022 Appendix A). MFU counts model FLOPs, HFU hardware FLOPs (Chowdhery et al. 2022, Appendix B).</li></ul>"
        "<h3>Memory per GPU</h3>"
        "<ul><li>Parameters N &times; weight bytes, gradients N &times; gradient bytes, optimizer state "
        "and fp32 master weights N &times; K (2 + 2 + 12 bytes for bf16 mixed precision with AdamW).</li>"
        "<li>ZeRO (Rajbhandari et al. 2019, Figure 1): stage 1 divides the optimizer state by n, stage 2 "
        "also the gradients, stage 3 also the parameters.</li>"
        "<li>Activations, Korthikanti model (Korthikanti et al. 2022, Table 2): per layer "
        "s&middot;b&middot;h&middot;(34 + 5&middot;a&middot;s/h) bytes at 2-byte activations; "
        "34&middot;sbh with selective recompute; 2&middot;sbh with full recompute; with FlashAttention "
        "(Dao et al. 2022) the 5as/h term becomes an fp32 log-sum-exp, 4&middot;asb; plus the output "
        "layer 4&middot;sbh + 4&middot;sbv (fp32 logits), Section 4.3. Other activation widths scale "
        "the 2-byte tensors; the dropout masks stay 1 byte.</li>"
        "<li>Activations, PyTorch model: what autograd keeps for backward in a plain PyTorch GPT-2 or "
        "LLaMA block, term by term, measured to the byte against a real training step "
        "(tests/validation/ACTIVATION_MODEL.md). It differs most for LLaMA (RMSNorm in fp32, SwiGLU "
        "keeps four d_ff-wide tensors, fp32 softmax) and without dropout.</li></ul>"
        "<h3>Time, cost, energy</h3>"
        "<p>Wall clock = hardware FLOPs / (n &times; peak FLOP/s &times; HFU), or model FLOPs / (n "
        "&times; peak &times; MFU) when the utilisation is set as MFU (Narayanan et al. 2021, eq. 4 in "
        "general form). Under HFU, the default, recomputation costs time; under MFU it does not. Both "
        "utilisations are shown, the one set marked. Peak is the dense datasheet figure for the recipe's compute dtype. "
        "GPU-hours = n &times; hours; GPU-years use 365-day years; cost = GPU-hours &times; price; "
        "energy = n &times; board power (TDP) &times; time, without cooling or PUE.</p>"
        ) + estimatedStepSection() + tr(
        "<h3>Roofline</h3>"
        "<p>Attainable FLOP/s = min(peak, bandwidth &times; intensity), intensity = FLOPs / bytes moved "
        "(Williams, Waterman and Patterson 2009). The ridge point is peak / bandwidth. Each op's bytes "
        "assume every operand is read from HBM once and every output written once; fused kernels only "
        "where stated (FlashAttention). An op left of the ridge is memory-bound.</p>"
        "<h3>Sources</h3>"
        "<ul><li>Kaplan et al. 2020, Scaling Laws for Neural Language Models, arXiv:2001.08361</li>"
        "<li>Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters "
        "Using Megatron-LM, arXiv:2104.04473</li>"
        "<li>Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, "
        "arXiv:2205.05198</li>"
        "<li>Rajbhandari et al. 2019, ZeRO: Memory Optimizations Toward Training Trillion Parameter "
        "Models, arXiv:1910.02054</li>"
        "<li>Dao et al. 2022, FlashAttention, arXiv:2205.14135</li>"
        "<li>Lee et al. 2025, Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed "
        "Deep Learning, arXiv:2507.03114</li>"
        "<li>Chowdhery et al. 2022, PaLM, arXiv:2204.02311 (Appendix B, MFU)</li>"
        "<li>Williams, Waterman and Patterson 2009, Roofline: An Insightful Visual Performance Model, "
        "CACM 52(4)</li>"
        "<li>GPU figures: each vendor datasheet, named in the GPU chooser's tooltips.</li></ul>");
}

} // namespace napkin::ui
