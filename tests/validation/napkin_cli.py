"""Runs ``napkin report --json`` for a models.Shape and caches the answers."""

import json
import os
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def napkin_binary():
    """The binary under test: $NAPKIN, else build/bin/napkin under the repository root."""
    return os.environ.get("NAPKIN") or str(REPO_ROOT / "build" / "bin" / "napkin")


class NapkinError(RuntimeError):
    def __init__(self, message, stderr=""):
        super().__init__(message)
        self.stderr = stderr


class Napkin:
    def __init__(self, binary=None):
        self.binary = binary or napkin_binary()
        self._cache = {}
        self._supported = {}

    def shape_args(self, shape):
        args = ["--arch", shape.arch, "--layers", str(shape.layers), "--d-model", str(shape.d_model),
                "--heads", str(shape.heads), "--kv-heads", str(shape.kv_heads),
                "--d-ff", str(shape.d_ff), "--vocab", str(shape.vocab),
                "--seq-len", str(shape.seq_len), "--batch", str(shape.batch),
                "--tied" if shape.tied else "--untied", "--gpus", "1", "--zero", "0"]
        if shape.arch == "gpt2":
            args += ["--max-pos", str(shape.positions)]
        if shape.head_dim:
            args += ["--head-dim", str(shape.head_dim)]
        if shape.mla:
            args += ["--q-lora-rank", str(shape.q_lora), "--kv-lora-rank", str(shape.kv_lora),
                     "--qk-rope-dim", str(shape.rope), "--v-head-dim", str(shape.v_head)]
        if shape.experts:
            args += ["--experts", str(shape.experts), "--top-k", str(shape.top_k),
                     "--shared-experts", str(shape.shared), "--expert-d-ff", str(shape.expert_ff)]
        return args

    def run(self, args):
        key = tuple(args)
        if key not in self._cache:
            cmd = [self.binary, "report", "--json", *args]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            except OSError as e:
                raise NapkinError(f"cannot run {self.binary}: {e} (set NAPKIN to the binary)") from e
            if p.returncode != 0:
                raise NapkinError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}",
                                  p.stderr.strip())
            self._cache[key] = json.loads(p.stdout)
        return self._cache[key]

    def report(self, shape, recipe="fp32-adamw", recompute="none", extra=()):
        return self.run(self.shape_args(shape) + ["--recipe", recipe, "--recompute", recompute,
                                                  "--activations", "--no-flash", "--no-causal",
                                                  *extra])

    def accepts(self, shape, extra):
        """Whether this napkin accepts the options `extra` (e.g. a newer activation model)."""
        key = tuple(extra)
        if key not in self._supported:
            try:
                self.report(shape, extra=extra)
                self._supported[key] = (True, "")
            except NapkinError as e:
                self._supported[key] = (False, e.stderr or str(e))
        return self._supported[key]


def dig(report, path):
    """report value at a dotted path: dig(r, 'memory.per_gpu.activations')."""
    node = report
    for part in path.split("."):
        node = node[part]
    return node
