#!/usr/bin/python3
"""PyTorch ground truth for Napkin: run real training steps, compare with napkin report --json.

    /usr/bin/python3 tests/validation/run_validation.py [--markdown FILE] [--verbose]

For every shape of GRID (both families, several depths, widths, head counts, grouped-query
settings, sequence lengths and batch sizes) it builds models.Decoder, runs one forward,
backward and AdamW step per precision / dropout / recompute setting, measures parameters,
matmul FLOPs, weight/grad/optimizer bytes and saved-for-backward bytes (measure.py), and
compares each with Napkin's prediction for the same shape.  Each comparison has a tolerance
from TOLERANCES (None = informational, never fails).  Exit status 0 when every check passes,
1 otherwise; the last line printed is "N passed, M failed".

NAPKIN (environment) names the binary; default build/bin/napkin under the repository root.
NAPKIN_PYTORCH_CONVENTION: which conventions napkin's "--activation-model pytorch" claims
(see ACTIVATION_MODEL.md): "cuda" (default: fp32 LayerNorm statistics, mean() not saving its
input, what Napkin implements for GPU training) or "torch1.13-cpu" (what this harness measures;
the closed form is checked against the measurement at those settings either way).
"""

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from activation_model import pytorch_activation_terms  # noqa: E402
from measure import measure_step  # noqa: E402
from models import Shape  # noqa: E402
from napkin_cli import Napkin, NapkinError, dig  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Tolerances: one table.  Relative tolerance |predicted - measured| <= tol * |measured|;
# 0.0 means exact; None means the row is informational (reported, never fails).
# ---------------------------------------------------------------------------------------------
TOLERANCES = {
    "napkin": (0.0, "napkin report --json must answer for every shape"),
    "params.total": (0.0, "integer count of model.parameters(): exact"),
    "params.embedding": (0.0, "token (+ position) embedding numel: exact"),
    "params.lm_head": (0.0, "untied LM head numel (0 when tied): exact"),
    "params.non_embedding": (0.0, "total - embedding - lm_head: exact"),
    "params.active": (0.0, "MoE and MLA blocks: total - (experts - top_k) routed experts' numel per "
                           "block (a dense block's active is its total): exact"),
    "memory.model_state": (0.0, "MoE and MLA blocks: weights + grads + AdamW moments (+ fp32 master) "
                                "bytes, the routed experts' included: exact"),
    "memory.weights": (0.0, "sum of parameter bytes: exact"),
    "memory.grads": (0.0, "sum of .grad bytes after backward: exact"),
    "memory.optimizer": (0.0, "AdamW exp_avg + exp_avg_sq (+ fp32 master copy for the mixed "
                              "recipe) bytes after step(): exact"),
    "info.optimizer_with_step": (None, "optimizer state including PyTorch AdamW's 0-dim fp32 "
                                       "'step' tensor per parameter tensor (4 B each), which "
                                       "Napkin does not count"),
    "flops.forward": (0.01, "aten mm/addmm/bmm/baddbmm FLOPs of the forward: 1%"),
    "flops.forward_attention": (0.01, "bmm/baddbmm (QK^T and probs x V) vs scores + values: 1%"),
    "flops.forward_dense": (0.01, "mm/addmm (QKV, out proj, MLP, LM head): 1%"),
    "flops.backward": (0.01, "backward matmuls vs 2 x forward: 1%"),
    "flops.training_per_token": (0.01, "(forward + backward) / tokens vs per_token_detailed: 1%"),
    "info.flops.6nd": (None, "Kaplan's 6N (non-embedding) per token vs measured: omits the "
                             "attention matmuls and (untied) LM head"),
    "info.flops.full_recompute": (None, "training matmul FLOPs with full recompute: Napkin "
                                        "counts model FLOPs (no recomputation)"),
    "flops.hardware_full_recompute": (0.01, "matmul FLOPs measured with torch.utils.checkpoint per "
                                            "block vs napkin flops.training_hardware: 1%"),
    "flops.hardware_selective_recompute": (0.01, "matmul FLOPs measured with the attention core "
                                                 "checkpointed vs flops.training_hardware: 1%"),
    "info.flops.causal": (None, "napkin --causal (s(s+1)/2 score entries) vs a masked dense "
                                "implementation, which computes all s^2"),
    "act.hooks_vs_graph_walk": (0.0, "two measurements of the same bytes (saved_tensors_hooks vs "
                                     "walking grad_fn._saved_*): exact"),
    "act.formula.per_layer": (0.0, "closed form (activation_model.py) vs measured bytes first "
                                   "saved inside each block: exact"),
    "act.formula.model": (0.0, "closed form vs bytes saved outside the blocks: exact"),
    "act.formula.total": (0.0, "closed form vs all saved bytes: exact"),
    "act.napkin_pytorch.per_layer": (0.0, "napkin --activation-model pytorch: exact"),
    "act.napkin_pytorch.output": (0.0, "napkin --activation-model pytorch: exact"),
    "act.napkin_pytorch.total": (0.0, "napkin --activation-model pytorch: exact"),
    "act.korthikanti.full_recompute": (0.0, "full recompute keeps one block input per layer: "
                                            "2sbh at 2 B = s*b*d*B in both: exact"),
    "act.korthikanti.own_regime": (0.01, "gpt2, MHA, d_ff = 4d, bf16, dropout on (Korthikanti's own "
                                         "assumptions): differs only by the LayerNorm mean/rstd "
                                         "(4*B*s*b per layer, which the paper omits) = "
                                         "4B/(34d+5as) < 1% for d >= 32"),
    "act.korthikanti.own_regime+ln_stats": (0.0, "same rows with the LayerNorm statistics "
                                                 "(2 per norm x 2 norms x s*b x B bytes) added to "
                                                 "Napkin's number: exact"),
    "info.korthikanti.per_layer": (None, "Korthikanti per layer outside its regime: ratio only"),
    "info.korthikanti.output": (None, "Korthikanti output layer (4sbh + 4sbv): ratio only"),
    "info.korthikanti.total": (None, "Korthikanti total activations: ratio only"),
}

# Options napkin will take for the PyTorch activation model (ACTIVATION_MODEL.md, "Napkin").
PYTORCH_MODEL_ARGS = ["--activation-model", "pytorch"]
DROPOUT_ARGS = {False: ["--no-dropout"], True: ["--dropout"]}
CONVENTIONS = {
    "torch1.13-cpu": dict(ln_stat_bytes=None, mean_saves_input=True),
    "cuda": dict(ln_stat_bytes=4, mean_saves_input=False),
}

# ---------------------------------------------------------------------------------------------
# The grid: small enough for ~seconds on two slow cores, varied enough to separate every term
# (distinct d, d_ff, V, s, b; heads 2..8; kv_heads = heads, grouped, and 1; tied and untied;
# 1..4 layers).  The first gpt2 shapes have d_ff = 4d for Korthikanti's own regime.
# ---------------------------------------------------------------------------------------------
GRID = [
    Shape("gpt2", 2, 64, 4, 4, 256, 100, 16, 2, True, max_pos=32),
    Shape("gpt2", 3, 48, 6, 2, 192, 97, 12, 3, True, max_pos=24),
    Shape("gpt2", 1, 32, 2, 2, 128, 50, 32, 1, True, max_pos=32),
    Shape("gpt2", 2, 96, 8, 8, 384, 128, 24, 2, False, max_pos=64),
    Shape("gpt2", 4, 40, 4, 1, 104, 64, 8, 2, False, max_pos=10),
    Shape("gpt2", 2, 24, 3, 3, 60, 33, 20, 3, True, max_pos=20),
    Shape("llama", 2, 64, 4, 2, 172, 100, 16, 2, False),
    Shape("llama", 3, 48, 4, 4, 128, 64, 24, 1, False),
    Shape("llama", 1, 96, 8, 1, 256, 128, 8, 4, True),
    Shape("llama", 2, 32, 2, 1, 88, 80, 40, 2, False),
    Shape("llama", 4, 48, 6, 3, 136, 72, 12, 2, False),
    Shape("llama", 2, 80, 5, 5, 216, 90, 10, 3, True),
]

# Mixture-of-Experts blocks (HF Mixtral layout; the second with a shared expert, as DeepSeek-V3
# adds one): parameters, matmul FLOPs and model state, routing tensors aside.
GRID_MOE = [
    Shape("llama", 2, 64, 4, 2, 172, 100, 16, 2, False, experts=4, top_k=2, expert_ff=96),
    Shape("llama", 2, 48, 4, 4, 128, 64, 12, 2, False, experts=8, top_k=2, shared=1, expert_ff=64),
]
# Multi-head latent attention blocks (HF DeepseekV3Attention layout): a Q latent with its norm, and
# a full-rank Q beside a DeepSeek-V3-like MoE block with a shared expert.
GRID_MLA = [
    Shape("llama", 2, 64, 4, 4, 172, 100, 16, 2, False, head_dim=16, q_lora=24, kv_lora=32, rope=8, v_head=12),
    Shape("llama", 2, 48, 4, 4, 128, 64, 12, 2, True, experts=4, top_k=2, shared=1, expert_ff=32,
          head_dim=12, kv_lora=24, rope=4, v_head=8),
]
PRECISIONS = {"fp32-adamw": 4, "bf16-adamw": 2}
DROPOUT_P = 0.1
RECOMPUTE = ("none", "selective", "full")


@dataclass
class Row:
    check: str
    shape: str
    config: str
    predicted: float
    measured: float
    status: str = ""   # pass / FAIL / info / skipped
    note: str = ""

    @property
    def tolerance(self):
        return TOLERANCES[self.check][0]

    @property
    def ratio(self):
        if self.measured == 0:
            return 1.0 if self.predicted == 0 else float("inf")
        return self.predicted / self.measured


class Validation:
    def __init__(self, napkin, convention):
        self.napkin = napkin
        self.convention = convention
        self.rows = []

    def compare(self, check, shape, config, predicted, measured, note=""):
        tol = TOLERANCES[check][0]
        row = Row(check, shape.label(), config, float(predicted), float(measured), note=note)
        if tol is None:
            row.status = "info"
        else:
            row.status = "pass" if abs(row.predicted - row.measured) <= tol * abs(row.measured) else "FAIL"
        self.rows.append(row)
        return row

    def skip(self, check, shape, config, why):
        self.rows.append(Row(check, shape.label(), config, float("nan"), float("nan"), "skipped", why))

    def error(self, check, shape, config, why):
        self.rows.append(Row(check, shape.label(), config, float("nan"), float("nan"), "FAIL", why))

    # -----------------------------------------------------------------------------------------
    def compare_params_and_flops(self, shape, base, m):
        """Parameters and matmul FLOPs of one fp32 step `m` against napkin's report `base`."""
        self.compare("params.total", shape, "", dig(base, "params.total"), m.params_total)
        self.compare("params.embedding", shape, "", dig(base, "params.embedding"), m.params_embedding)
        self.compare("params.lm_head", shape, "", dig(base, "params.lm_head"), m.params_lm_head)
        self.compare("params.non_embedding", shape, "", dig(base, "params.non_embedding"),
                     m.params_total - m.params_embedding - m.params_lm_head)
        fw = dig(base, "flops.forward_per_sequence")
        b, tokens = shape.batch, shape.batch * shape.seq_len
        self.compare("flops.forward", shape, "fp32", fw["total"] * b, m.flops_forward)
        self.compare("flops.forward_attention", shape, "fp32",
                     (fw["attention_scores"] + fw["attention_values"]) * b, m.flops_forward_bmm)
        self.compare("flops.forward_dense", shape, "fp32",
                     (fw["qkv"] + fw["output_projection"] + fw["mlp"] + fw["lm_head"]) * b,
                     m.flops_forward_mm)
        self.compare("flops.backward", shape, "fp32", 2 * fw["total"] * b, m.flops_backward)
        self.compare("flops.training_per_token", shape, "fp32", dig(base, "flops.per_token_detailed"),
                     (m.flops_forward + m.flops_backward) / tokens)

    def run_shape(self, shape):
        nk = self.napkin
        base = nk.report(shape, "fp32-adamw")

        # Parameters and FLOPs: fp32, no dropout, no recompute.
        m = measure_step(shape, "fp32-adamw", 0.0, "none", count_flops=True)
        self.compare_params_and_flops(shape, base, m)
        tokens = shape.batch * shape.seq_len
        self.compare("info.flops.6nd", shape, "fp32", dig(base, "flops.per_token_6nd"),
                     (m.flops_forward + m.flops_backward) / tokens)
        self.compare("info.flops.causal", shape, "fp32 --causal",
                     dig(nk.report(shape, "fp32-adamw", extra=["--causal"]), "flops.per_token_detailed"),
                     (m.flops_forward + m.flops_backward) / tokens)
        full = measure_step(shape, "fp32-adamw", 0.0, "full", count_flops=True)
        full_report = nk.report(shape, "fp32-adamw", "full")
        self.compare("info.flops.full_recompute", shape, "fp32 recompute=full",
                     dig(full_report, "flops.per_token_detailed"),
                     (full.flops_forward + full.flops_backward) / tokens)
        self.compare("flops.hardware_full_recompute", shape, "fp32 recompute=full",
                     dig(full_report, "flops.training_hardware") / dig(full_report, "scenario.tokens"),
                     (full.flops_forward + full.flops_backward) / tokens)
        sel = measure_step(shape, "fp32-adamw", 0.0, "selective", count_flops=True)
        sel_report = nk.report(shape, "fp32-adamw", "selective")
        self.compare("flops.hardware_selective_recompute", shape, "fp32 recompute=selective",
                     dig(sel_report, "flops.training_hardware") / dig(sel_report, "scenario.tokens"),
                     (sel.flops_forward + sel.flops_backward) / tokens)

        # Model state per recipe.
        for recipe in ("fp32-adamw", "bf16-adamw", "bf16-mixed-adamw"):
            r = nk.report(shape, recipe)
            ms = m if recipe == "fp32-adamw" else measure_step(shape, recipe, 0.0, "none", count_flops=False)
            self.compare("memory.weights", shape, recipe, dig(r, "memory.per_gpu.params"), ms.weight_bytes)
            self.compare("memory.grads", shape, recipe, dig(r, "memory.per_gpu.grads"), ms.grad_bytes)
            self.compare("memory.optimizer", shape, recipe,
                         dig(r, "memory.per_gpu.optimizer_and_master_weights"), ms.optimizer_moment_bytes)
            self.compare("info.optimizer_with_step", shape, recipe,
                         dig(r, "memory.per_gpu.optimizer_and_master_weights"),
                         ms.optimizer_moment_bytes + ms.optimizer_step_bytes,
                         note=f"step: {ms.param_tensors} tensors x 4 B")

        # Activations.
        for recipe, act_bytes in PRECISIONS.items():
            for dropout in (False, True):
                for rc in RECOMPUTE:
                    self.run_activations(shape, recipe, act_bytes, dropout, rc,
                                         m if (recipe, dropout, rc) == ("fp32-adamw", False, "none") else None)

    def run_moe_shape(self, shape):
        """A Mixture-of-Experts and/or multi-head latent attention block: parameters, matmul
        FLOPs, model state and saved activations exact."""
        nk = self.napkin
        base = nk.report(shape, "fp32-adamw")
        m = measure_step(shape, "fp32-adamw", 0.0, "none", count_flops=True)
        self.compare_params_and_flops(shape, base, m)
        expert = 3 * shape.d_model * shape.expert_ff   # one SwiGLU expert's numel
        self.compare("params.active", shape, "", dig(base, "params.active"),
                     m.params_total - shape.layers * max(0, shape.experts - shape.top_k) * expert)
        for recipe in ("fp32-adamw", "bf16-mixed-adamw"):
            r = nk.report(shape, recipe)
            ms = m if recipe == "fp32-adamw" else measure_step(shape, recipe, 0.0, "none", count_flops=False)
            self.compare("memory.model_state", shape, recipe, dig(r, "memory.per_gpu.model_state"),
                         ms.weight_bytes + ms.grad_bytes + ms.optimizer_moment_bytes)
            self.moe_mla_activations(shape, recipe, ms if recipe != "fp32-adamw" else m)

    def moe_mla_activations(self, shape, recipe, m):
        """The closed form against PyTorch (its 1.13 CPU conventions), then Napkin's PyTorch
        activation model against the closed form (the GPU conventions), exactly, as for the grid."""
        cfg = f"{recipe.split('-')[0]} dropout=off recompute=none"
        act_bytes = 4 if recipe == "fp32-adamw" else 2
        extra_shape = dict(head_dim=shape.head_dim, experts=shape.experts, top_k=shape.top_k, shared=shape.shared,
                           expert_ff=shape.expert_ff, q_lora=shape.q_lora, kv_lora=shape.kv_lora, rope=shape.rope,
                           v_head=shape.v_head)
        terms = pytorch_activation_terms(shape.arch, shape.layers, shape.seq_len, shape.batch, shape.d_model,
                                         shape.heads, shape.d_ff, shape.vocab, act_bytes, **extra_shape)
        if len(set(m.activation_per_layer)) != 1:
            self.error("act.formula.per_layer", shape, cfg, f"blocks saved different byte counts: {m.activation_per_layer}")
        self.compare("act.formula.per_layer", shape, cfg, terms.per_layer_bytes, m.activation_per_layer[0])
        self.compare("act.formula.model", shape, cfg, terms.model_bytes, m.activation_model)
        self.compare("act.formula.total", shape, cfg, terms.total, m.activation_bytes)
        p = self.napkin.report(shape, recipe, extra=PYTORCH_MODEL_ARGS + DROPOUT_ARGS[False])
        gpu = pytorch_activation_terms(shape.arch, shape.layers, shape.seq_len, shape.batch, shape.d_model,
                                       shape.heads, shape.d_ff, shape.vocab, act_bytes,
                                       **CONVENTIONS[self.convention], **extra_shape)
        note = f"vs closed form, {self.convention} conventions"
        self.compare("act.napkin_pytorch.per_layer", shape, cfg, dig(p, "memory.activations_detail.per_layer"),
                     gpu.per_layer_bytes, note)
        self.compare("act.napkin_pytorch.output", shape, cfg, dig(p, "memory.activations_detail.output_layer"),
                     gpu.model_bytes, note)
        self.compare("act.napkin_pytorch.total", shape, cfg, dig(p, "memory.per_gpu.activations"), gpu.total, note)

    def run_activations(self, shape, recipe, act_bytes, dropout, rc, m=None):
        cfg = f"{recipe.split('-')[0]} dropout={'on' if dropout else 'off'} recompute={rc}"
        if m is None:
            m = measure_step(shape, recipe, DROPOUT_P if dropout else 0.0, rc, count_flops=False)
        L = shape.layers
        measured_layer = m.activation_per_layer[0]
        if len(set(m.activation_per_layer)) != 1:
            self.error("act.formula.per_layer", shape, cfg,
                       f"blocks saved different byte counts: {m.activation_per_layer}")
        terms = pytorch_activation_terms(shape.arch, L, shape.seq_len, shape.batch, shape.d_model,
                                         shape.heads, shape.d_ff, shape.vocab, act_bytes,
                                         dropout=dropout, recompute=rc)
        self.compare("act.formula.per_layer", shape, cfg, terms.per_layer_bytes, measured_layer)
        self.compare("act.formula.model", shape, cfg, terms.model_bytes, m.activation_model)
        self.compare("act.formula.total", shape, cfg, terms.total, m.activation_bytes)
        self.compare("act.hooks_vs_graph_walk", shape, cfg, m.activation_bytes_graph_walk,
                     m.activation_bytes)

        # Napkin, Korthikanti model (its default one), with the run's dropout: its masks are
        # charged only when dropout is on.
        k = self.napkin.report(shape, recipe, rc, DROPOUT_ARGS[dropout])
        k_layer = dig(k, "memory.activations_detail.per_layer")
        k_out = dig(k, "memory.activations_detail.output_layer")
        if rc == "full":
            self.compare("act.korthikanti.full_recompute", shape, cfg, k_layer, measured_layer)
        # Korthikanti's own regime is multi-head attention: with grouped K/V heads Napkin charges
        # K and V at their own width (what a GQA kernel keeps), while the reference decoder
        # expands them to every query head.
        elif (shape.arch == "gpt2" and shape.d_ff == 4 * shape.d_model and act_bytes == 2 and dropout
              and shape.kv_heads == shape.heads):
            self.compare("act.korthikanti.own_regime", shape, cfg, k_layer, measured_layer)
            self.compare("act.korthikanti.own_regime+ln_stats", shape, cfg,
                         k_layer + 4 * act_bytes * shape.seq_len * shape.batch, measured_layer,
                         note="Napkin + 4*B*s*b")
        else:
            self.compare("info.korthikanti.per_layer", shape, cfg, k_layer, measured_layer)
        self.compare("info.korthikanti.output", shape, cfg, k_out, m.activation_model)
        self.compare("info.korthikanti.total", shape, cfg,
                     dig(k, "memory.per_gpu.activations"), m.activation_bytes)

        # Napkin, PyTorch model (once napkin has it).
        extra = PYTORCH_MODEL_ARGS + DROPOUT_ARGS[dropout]
        ok, why = self.napkin.accepts(shape, extra)
        checks = ("act.napkin_pytorch.per_layer", "act.napkin_pytorch.output", "act.napkin_pytorch.total")
        if not ok:
            for c in checks:
                self.skip(c, shape, cfg, f"napkin does not take {' '.join(extra)} yet ({why})")
            return
        p = self.napkin.report(shape, recipe, rc, extra)
        got = (dig(p, "memory.activations_detail.per_layer"),
               dig(p, "memory.activations_detail.output_layer"),
               dig(p, "memory.per_gpu.activations"))
        if self.convention == "torch1.13-cpu":
            want = (measured_layer, m.activation_model, m.activation_bytes)
            note = ""
        else:
            t = pytorch_activation_terms(shape.arch, L, shape.seq_len, shape.batch, shape.d_model,
                                         shape.heads, shape.d_ff, shape.vocab, act_bytes,
                                         dropout=dropout, recompute=rc, **CONVENTIONS[self.convention])
            want = (t.per_layer_bytes, t.model_bytes, t.total)
            note = f"vs closed form, {self.convention} conventions"
        for c, g, w in zip(checks, got, want):
            self.compare(c, shape, cfg, g, w, note)


# ---------------------------------------------------------------------------------------------
def fmt(x):
    if x != x:   # nan
        return "-"
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.4g}"


def fmt_ratio(row):
    if row.status == "skipped" or row.measured != row.measured:
        return "-"
    return f"{row.ratio:.6f}"


def fmt_tol(row):
    t = row.tolerance
    return "info" if t is None else ("exact" if t == 0 else f"{t:.0%}")


def summarise(rows):
    by = {}
    for r in rows:
        by.setdefault(r.check, []).append(r)
    out = []
    order = list(TOLERANCES)
    for check, rs in sorted(by.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)):
        ratios = [r.ratio for r in rs if r.status not in ("skipped",) and r.measured == r.measured]
        counts = {s: sum(r.status == s for r in rs) for s in ("pass", "FAIL", "info", "skipped")}
        out.append((check, rs, ratios, counts))
    return out


def write_markdown(path, rows, napkin, elapsed):
    lines = ["# Napkin vs PyTorch ground truth", "",
             f"Generated by `tests/validation/run_validation.py` with PyTorch {torch.__version__} "
             f"(CPU), napkin = `{napkin}`, in {elapsed:.1f} s.  predicted = Napkin "
             "(or the closed form for `act.formula.*`), measured = PyTorch; ratio = "
             "predicted / measured.  Tolerances and their reasons: `TOLERANCES` in "
             "run_validation.py; `info` rows never fail.", "",
             "## Summary by check", "",
             "| check | rows | pass | fail | info | skipped | ratio min | ratio max | tolerance |",
             "|---|---|---|---|---|---|---|---|---|"]
    for check, rs, ratios, c in summarise(rows):
        lo = f"{min(ratios):.6f}" if ratios else "-"
        hi = f"{max(ratios):.6f}" if ratios else "-"
        lines.append(f"| {check} | {len(rs)} | {c['pass']} | {c['FAIL']} | {c['info']} | {c['skipped']} "
                     f"| {lo} | {hi} | {fmt_tol(rs[0])} |")
    lines += ["", "## All rows", "",
              "| check | shape | config | predicted | measured | ratio | tolerance | result |",
              "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.status == "skipped":
            continue
        result = r.status + (f" ({r.note})" if r.note else "")
        lines.append(f"| {r.check} | {r.shape} | {r.config} | {fmt(r.predicted)} | {fmt(r.measured)} "
                     f"| {fmt_ratio(r)} | {fmt_tol(r)} | {result} |")
    skipped = sorted({r.note for r in rows if r.status == "skipped"})
    if skipped:
        lines += ["", f"{sum(r.status == 'skipped' for r in rows)} skipped rows are left out of "
                  "this table; skipped because: " + "; ".join(skipped)]
    Path(path).write_text("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--markdown", metavar="FILE", help="write the accuracy table to FILE")
    ap.add_argument("--verbose", action="store_true", help="print every row, not only failures")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    convention = os.environ.get("NAPKIN_PYTORCH_CONVENTION", "cuda")
    if convention not in CONVENTIONS:
        print(f"NAPKIN_PYTORCH_CONVENTION must be one of {sorted(CONVENTIONS)}", file=sys.stderr)
        return 2
    napkin = Napkin()
    v = Validation(napkin, convention)
    start = time.time()
    print(f"napkin: {napkin.binary}   torch {torch.__version__}   {len(GRID)} shapes + {len(GRID_MOE)} MoE"
          f" + {len(GRID_MLA)} MLA")
    for shape in GRID:
        try:
            v.run_shape(shape)
        except NapkinError as e:
            v.error("napkin", shape, "", str(e))
    for shape in GRID_MOE + GRID_MLA:
        try:
            v.run_moe_shape(shape)
        except NapkinError as e:
            v.error("napkin", shape, "", str(e))
    elapsed = time.time() - start

    for r in v.rows:
        if r.status == "FAIL" or (args.verbose and r.status != "skipped"):
            print(f"{r.status:5} {r.check} [{r.shape}] {r.config}: predicted {fmt(r.predicted)} "
                  f"measured {fmt(r.measured)} ratio {fmt_ratio(r)} tolerance {fmt_tol(r)}"
                  + (f" -- {r.note}" if r.note else ""))
    print()
    print(f"{'check':34} {'pass':>5} {'fail':>5} {'info':>5} {'skip':>5}   ratio range")
    for check, rs, ratios, c in summarise(v.rows):
        rng = f"{min(ratios):.6f} .. {max(ratios):.6f}" if ratios else "-"
        print(f"{check:34} {c['pass']:5} {c['FAIL']:5} {c['info']:5} {c['skipped']:5}   {rng}")
    skipped = sorted({r.note for r in v.rows if r.status == "skipped"})
    for note in skipped:
        print(f"skipped: {note}")
    if args.markdown:
        write_markdown(args.markdown, v.rows, napkin.binary, elapsed)
        print(f"wrote {args.markdown}")
    passed = sum(r.status == "pass" for r in v.rows)
    failed = sum(r.status == "FAIL" for r in v.rows)
    print(f"({elapsed:.1f} s)")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
