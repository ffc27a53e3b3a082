#!/usr/bin/python3
"""Napkin's pipeline-stage memory against Megatron-LM's theoretical memory estimate.

    NAPKIN=/path/to/napkin /usr/bin/python3 tests/validation/check_megatron.py [--verbose]
    /usr/bin/python3 tests/validation/check_megatron.py --megatron-only   # no binary needed

For each layout in LAYOUTS it computes Megatron's first-stage figures (megatron_memory.py:
weights + optimizer, and activations with sequence parallelism and selective recompute),
runs `$NAPKIN report --json` for the same model and layout, and compares

    Megatron weight + optimizer bytes  with  memory.per_stage[stage 0].model_state
    Megatron activation bytes          with  memory.per_stage[stage 0].activations

It also checks that Napkin read the layout back as asked (layout.tp/pp/vpp/cp/dp/
micro_batches).  Exit 0 when every enforced comparison is inside its band, 1 otherwise,
2 when $NAPKIN is not set.  Standard library only.

How the bands are sized (EPS below, structural_allowances() and main()):

* Like for like, the two sides do the same integer arithmetic on the same shape, so the
  only residue is bookkeeping of O(h) vectors and O(sb) buffers against O(h^2) matrices and
  O(sbh) tensors, and the rounding of JSON numbers: EPS = 0.1% either way.  The mistakes
  this check exists to catch are all >= 1% on these shapes (the embedding missing from
  stage 0 or on it twice: 1.4-6.4% of stage 0; not split over TP: far more; ZeRO over the
  wrong group; the wrong number of micro-batches in flight: >= 1/PP).
* Structural differences, each computed from the row's shape and added on one side only:
  - Megatron counts no linear biases and no learned position table; Napkin's gpt2 arch
    has both.  Allowed above: the whole position table (max_positions x h, as if replicated
    over TP, which is what Megatron-LM actually does with it) plus every bias of stage 0's
    layers unsplit.  On the GPT rows the position table alone is 0.46-1.75% of stage 0
    (2048 x h against a 1/PP slice of the layers); that is the one place a band exceeds
    0.5%, and it is Megatron's omission (biases add < 0.1%).  The llama
    rows have neither (no biases, rotary positions), so their band is EPS.
  - Megatron divides the final norm over all PP stages; Napkin may keep it on the last
    stage only: allowed below, n*h/PP parameters (negligible, listed for completeness).
  - Megatron charges the first stage 8sbp bytes of int64 token ids and an sbhp-byte
    embedding-dropout mask (Korthikanti Sec. 4.3), both times the schedule factor and / t.
    Napkin's Korthikanti model may leave them out: allowed below, their share (up to 0.49%
    on GPT-3 at PP16).
* Megatron's per-layer activation term is sbh(18 + 4 f/h): Korthikanti's GPT block with
  the MLP width generalised.  It always charges the dropout masks (so Napkin runs with
  --dropout), and it knows nothing of GQA (K and V taken h wide, 4sbh) or SwiGLU (two f-wide
  tensors, 4sbf, where a SwiGLU block keeps the 2f-wide gate-and-up output and the f-wide
  down-projection input, 6sbf).  So the activation rows are enforced for the GPT layouts
  (MHA, GELU: exactly Megatron's setting) and only reported for the llama layouts, whose
  difference is Megatron's omission, not a tolerance: a model that follows the block
  (18 - 4(1 - kv/h) + 6 f/h per layer) reads 1.1-1.2x Megatron there.  The llama
  weight rows are like for like (no biases, no position table, RMSNorm = h) and enforced.
"""

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import megatron_memory as mm  # noqa: E402

EPS = 1e-3          # like-for-like residue, either way (see the module docstring)
GIB = 2.0 ** 30


@dataclass
class Layout:
    name: str
    arch: str                 # napkin --arch: gpt2 (LayerNorm, biases, learned positions) or llama
    layers: int
    d_model: int
    heads: int
    kv_heads: int
    d_ff: int
    vocab: int                # unpadded; both sides get mm.padded_vocab(vocab, tp)
    seq_len: int
    micro_batch: int
    tp: int
    pp: int
    dp: int
    micro_batches: int        # Megatron's num_microbatches = global / (micro_batch * dp)
    vpp: Optional[int] = None
    zero1: bool = False       # Megatron --use-distributed-optimizer, napkin --zero 1
    tied: bool = True
    enforce_activations: bool = True
    note: str = ""

    @property
    def padded_vocab(self):
        return mm.padded_vocab(self.vocab, self.tp)

    @property
    def global_batch(self):
        return self.micro_batches * self.micro_batch * self.dp

    def megatron_config(self):
        return mm.MegatronConfig(
            num_layers=self.layers, hidden_size=self.d_model, num_attention_heads=self.heads,
            num_query_groups=self.kv_heads, kv_channels=self.d_model // self.heads,
            ffn_hidden_size=self.d_ff, swiglu=self.arch == "llama",
            padded_vocab_size=self.padded_vocab, untie_embeddings=not self.tied,
            seq_length=self.seq_len, micro_batch_size=self.micro_batch,
            tp=self.tp, pp=self.pp, vpp=self.vpp, dp=self.dp,
            use_distributed_optimizer=self.zero1,
            normalization="RMSNorm" if self.arch == "llama" else "LayerNorm")


GPT3 = dict(arch="gpt2", layers=96, d_model=12288, heads=96, kv_heads=96, d_ff=49152,
            vocab=51200, seq_len=2048, micro_batch=1)
GPT22B = dict(arch="gpt2", layers=48, d_model=6144, heads=64, kv_heads=64, d_ff=24576,
              vocab=51200, seq_len=2048, micro_batch=4)
LLAMA2_7B = dict(arch="llama", layers=32, d_model=4096, heads=32, kv_heads=32, d_ff=11008,
                 vocab=32000, seq_len=4096, micro_batch=1, tied=False, enforce_activations=False)
LLAMA3_8B = dict(arch="llama", layers=32, d_model=4096, heads=32, kv_heads=8, d_ff=14336,
                 vocab=128256, seq_len=8192, micro_batch=1, tied=False, enforce_activations=False)

LAYOUTS = [
    Layout("GPT-3 175B TP8 PP8", tp=8, pp=8, dp=1, micro_batches=64, **GPT3),
    Layout("GPT-3 175B TP8 PP16 vpp3", tp=8, pp=16, vpp=3, dp=1, micro_batches=64, **GPT3),
    Layout("GPT-3 175B TP4 PP16", tp=4, pp=16, dp=1, micro_batches=64, **GPT3),
    Layout("GPT-3 175B TP8 PP8 m4<pp", tp=8, pp=8, dp=1, micro_batches=4,
           note="1F1B with fewer micro-batches than stages: Megatron scales by m/p = 0.5", **GPT3),
    Layout("GPT 22B TP8 PP1", tp=8, pp=1, dp=1, micro_batches=1, **GPT22B),
    Layout("GPT 22B TP8 PP1 DP8 ZeRO-1", tp=8, pp=1, dp=8, micro_batches=8, zero1=True, **GPT22B),
    Layout("Llama-2-7B TP2 PP2 DP2", tp=2, pp=2, dp=2, micro_batches=8, **LLAMA2_7B),
    Layout("Llama-2-7B TP4 PP1", tp=4, pp=1, dp=1, micro_batches=1,
           note="vocab 32000 pads to 32256 at TP4", **LLAMA2_7B),
    Layout("Llama-2-7B TP2 PP2 DP4 ZeRO-1", tp=2, pp=2, dp=4, micro_batches=8, zero1=True, **LLAMA2_7B),
    Layout("Llama-3-8B GQA TP4 PP4 vpp2", tp=4, pp=4, vpp=2, dp=1, micro_batches=16,
           note="vocab 128256 pads to 128512 at TP4", **LLAMA3_8B),
    Layout("GPT 22B TP8 PP4 vpp2 DP2 ZeRO-1", tp=8, pp=4, vpp=2, dp=2, micro_batches=8,
           zero1=True, **GPT22B),
]


def napkin_args(row):
    args = ["--arch", row.arch, "--layers", row.layers, "--d-model", row.d_model,
            "--heads", row.heads, "--kv-heads", row.kv_heads, "--d-ff", row.d_ff,
            "--vocab", row.padded_vocab, "--tied" if row.tied else "--untied",
            "--seq-len", row.seq_len, "--batch", row.micro_batch,
            "--gpus", row.tp * row.pp * row.dp, "--tp", row.tp, "--pp", row.pp, "--cp", 1,
            "--sp", "--global-batch", row.global_batch,
            "--recompute", "selective", "--activation-model", "korthikanti", "--activations",
            # Megatron's activation formula always charges the dropout masks.
            "--dropout",
            "--recipe", "bf16-mixed-adamw-fp32-grads", "--zero", 1 if row.zero1 else 0,
            "--tokens", "1e9", "--reserved", 0]
    if row.arch == "gpt2":
        args += ["--max-positions", row.seq_len]   # the smallest table the sequence allows
    if row.vpp is not None:
        args += ["--vpp", row.vpp]
    return [str(a) for a in args]


class NapkinFailed(Exception):
    pass


_position_flag = ["--max-positions"]


def run_napkin(binary, args):
    """`napkin report --json ARGS` as a dict.  Falls back once from --max-positions to the
    older spelling --max-pos if the binary does not know the new one."""
    args = [_position_flag[0] if a == "--max-positions" else a for a in args]
    cmd = [binary, "report", "--json", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise NapkinFailed(f"cannot run {binary}: {e}") from e
    if p.returncode != 0 and _position_flag[0] == "--max-positions" and "max-positions" in p.stderr:
        _position_flag[0] = "--max-pos"
        return run_napkin(binary, args)
    if p.returncode != 0:
        raise NapkinFailed(f"exit {p.returncode}: {p.stderr.strip()}\n    command: {' '.join(cmd)}")
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        raise NapkinFailed(f"output is not JSON ({e})\n    command: {' '.join(cmd)}") from e


def structural_allowances(row):
    """(weights_below, weights_above, activations_below) as fractions of Megatron's value."""
    cfg = row.megatron_config()
    w = mm.weight_and_optimizer_bytes(cfg)
    h, p = row.d_model, row.pp
    layers0 = row.layers / p
    above = 0.0
    if row.arch == "gpt2":
        kv_width = row.kv_heads * (h // row.heads)
        biases_per_layer = (h + 2 * kv_width) + h + row.d_ff + h   # QKV, out, fc1, fc2
        above = row.seq_len * h + layers0 * biases_per_layer        # position table + biases
    below = w.params.final_norm / p if p > 1 else 0.0
    a = mm.activation_terms(cfg, row.micro_batches)
    embed = (a.token_ids + a.embedding_dropout) * a.schedule_factor / row.tp
    return below / w.params.first_stage, above / w.params.first_stage, embed / a.total


def expected_layout(row):
    return {"tp": row.tp, "pp": row.pp, "vpp": row.vpp, "cp": 1, "dp": row.dp,
            "micro_batches": row.micro_batches}


def layout_problems(row, layout):
    problems = []
    for key, want in expected_layout(row).items():
        got = layout.get(key, "missing")
        if key == "vpp" and want is None:
            ok = got in (None, 0, 1)
        else:
            ok = got == want
        if not ok:
            problems.append(f"layout.{key} = {got}, expected {want}")
    return problems


def stage_zero(report):
    stages = report["memory"]["per_stage"]
    for s in stages:
        if s.get("stage") == 0:
            return s
    return stages[0]


def fmt_gib(x):
    return "-" if x is None else f"{x / GIB:10.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--megatron-only", action="store_true",
                    help="print Megatron's figures for every layout; do not run napkin")
    ap.add_argument("--verbose", action="store_true", help="print each napkin command line")
    opts = ap.parse_args()

    if opts.megatron_only:
        print(f"{'layout':34s} {'params/GPU st0':>15s} {'wt+opt bytes':>16s} {'activation bytes':>16s}")
        for row in LAYOUTS:
            cfg = row.megatron_config()
            w = mm.weight_and_optimizer_bytes(cfg)
            a = mm.activation_bytes(cfg, row.micro_batches)
            print(f"{row.name:34s} {w.params.first_stage:15,.0f} {w.bytes:16,.0f} {a:16,.0f}")
        return 0

    binary = os.environ.get("NAPKIN")
    if not binary:
        print("check_megatron.py: set NAPKIN to the napkin binary (e.g. NAPKIN=build/bin/napkin); "
              "--megatron-only prints Megatron's side alone", file=sys.stderr)
        return 2

    failures = 0
    print(f"{'layout':34s} {'quantity':12s} {'Megatron GiB':>12s} {'Napkin GiB':>11s} "
          f"{'ratio':>8s}  {'allowed':>15s}  verdict")
    for row in LAYOUTS:
        cfg = row.megatron_config()
        meg_w = mm.weight_and_optimizer_bytes(cfg).bytes
        meg_a = mm.activation_bytes(cfg, row.micro_batches)
        args = napkin_args(row)
        if opts.verbose:
            print(f"# {row.name}: napkin report --json {' '.join(args)}")
        try:
            report = run_napkin(binary, args)
            stage = stage_zero(report)
            nap_w, nap_a = float(stage["model_state"]), float(stage["activations"])
            problems = layout_problems(row, report.get("layout", {}))
        except (NapkinFailed, KeyError, IndexError, TypeError, ValueError) as e:
            failures += 1
            print(f"{row.name:34s} FAILED: napkin gave no usable answer: {type(e).__name__}: {e}")
            continue

        w_below, w_above, a_below = structural_allowances(row)
        checks = [("weights+opt", meg_w, nap_w, 1 - EPS - w_below, 1 + EPS + w_above, True),
                  ("activations", meg_a, nap_a, 1 - EPS - a_below, 1 + EPS, row.enforce_activations)]
        for quantity, meg, nap, lo, hi, enforced in checks:
            ratio = nap / meg
            inside = lo <= ratio <= hi
            if not enforced:
                verdict = "info (Megatron: no SwiGLU/GQA)"
            elif inside:
                verdict = "ok"
            else:
                verdict = "FAIL"
                failures += 1
            allowed = f"[{lo:.4f},{hi:.4f}]" if enforced else "-"
            print(f"{row.name:34s} {quantity:12s} {fmt_gib(meg):>12s} {fmt_gib(nap):>11s} "
                  f"{ratio:8.5f}  {allowed:>15s}  {verdict}")
        for problem in problems:
            failures += 1
            print(f"{row.name:34s} FAIL: {problem}")
        if row.note and opts.verbose:
            print(f"{'':34s} note: {row.note}")

    print(f"{failures} failure(s)" if failures else "all enforced comparisons inside their bands")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
