#!/usr/bin/python3
"""PyTorch ground truth for the KV cache a decoder really allocates while it generates.

    NAPKIN=/path/to/napkin /usr/bin/python3 tests/validation/kv_cache.py      # exit 0 = all pass
    NAPKIN=... /usr/bin/python3 tests/validation/kv_cache.py --self-test       # the checker fails when it should

For each case a tiny llama-style decoder (RMSNorm, RoPE, SwiGLU) is built in plain PyTorch and
made to generate: a prefill of P prompt tokens, then O decode steps of one token each, each
appending to the cache and attending over it. The cache is HF-style past_key_values, per layer
a key and a value tensor of shape (batch, kv_heads, tokens, head_dim) (MHA, GQA, MQA, head_dim
set apart), or for multi-head latent attention DeepSeek-V3's inference/model.py in
attn_impl "absorb": per layer kv_cache (batch, tokens, kv_lora_rank) and pe_cache
(batch, tokens, qk_rope_dim). Windowed layers keep a rolling buffer of the last `window`
tokens (Mistral's reference rolling-buffer cache); with global_every set, layers
global_every, 2 x global_every, ... (1-based) keep every token.

Compute is float32; the cache is stored in the format under test: torch.bfloat16 (bf16),
torch.float16 (fp16), torch.int8 (int8, a fixed-scale quantization) and, since PyTorch 1.13
has no float8 type, torch.uint8 as a byte-level stand-in for fp8 (one byte per element, a
fixed-scale code). Attention reads the stored values back, so the cache is the one the model
uses: the logits of the cached generation are checked against one uncached forward pass over
the whole sequence with the same masks and the same storage round trip.

Measured bytes are sum(t.numel() * t.element_size()) over the cache's tensors, batch 1:
after the whole generation (compared with napkin's inference.kv_cache_bytes_per_sequence at
prompt_tokens + output_tokens) and after a one-token prefill (compared with
inference.kv_cache_bytes_per_token; one token is never above a window). Both must be equal
exactly. Prints a table and exits 1 on any mismatch.
"""

import argparse
import json
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from napkin_cli import napkin_binary  # noqa: E402

VOCAB = 256
D_FF = 96


@dataclass(frozen=True)
class Case:
    name: str
    layers: int
    d_model: int
    heads: int
    kv_heads: int
    prompt: int
    output: int
    kv_dtype: str = "bf16"
    head_dim: int = 0          # 0: d_model / heads (for MLA: the no-RoPE part of q and k)
    q_lora: int = 0            # MLA only; 0: q projected straight from x
    kv_lora: int = 0           # > 0: multi-head latent attention
    rope: int = 0              # MLA: the decoupled RoPE key's width
    v_head: int = 0            # MLA: value head width
    window: int = 0
    global_every: int = 0

    @property
    def mla(self):
        return self.kv_lora > 0

    @property
    def hd(self):
        return self.head_dim or self.d_model // self.heads

    @property
    def context(self):
        return self.prompt + self.output

    def windowed(self, layer):
        """Whether block `layer` (0-based) keeps only the last `window` tokens."""
        if self.window <= 0:
            return False
        return not (self.global_every > 0 and (layer + 1) % self.global_every == 0)

    def napkin_args(self):
        args = ["--mode", "inference", "--arch", "llama", "--layers", str(self.layers),
                "--d-model", str(self.d_model), "--heads", str(self.heads),
                "--kv-heads", str(self.kv_heads), "--d-ff", str(D_FF), "--vocab", str(VOCAB),
                "--max-pos", str(max(64, self.context)), "--untied", "--gpus", "1",
                "--gpu", "h100-sxm", "--prompt-tokens", str(self.prompt),
                "--output-tokens", str(self.output), "--kv-dtype", self.kv_dtype]
        if self.head_dim:
            args += ["--head-dim", str(self.head_dim)]
        if self.mla:
            args += ["--q-lora-rank", str(self.q_lora), "--kv-lora-rank", str(self.kv_lora),
                     "--qk-rope-dim", str(self.rope), "--v-head-dim", str(self.v_head)]
        if self.window:
            args += ["--sliding-window", str(self.window), "--global-every", str(self.global_every)]
        return args


def _gqa(**kw):
    return dict(layers=2, d_model=64, heads=8, kv_heads=2, prompt=12, output=5, **kw)


def _mla(**kw):
    return dict(layers=2, d_model=64, heads=4, kv_heads=4, prompt=12, output=5, head_dim=16,
                kv_lora=32, rope=8, v_head=16, **kw)


CASES = [
    Case("mha bf16", layers=2, d_model=64, heads=4, kv_heads=4, prompt=12, output=5),
    Case("mha fp16", layers=3, d_model=48, heads=4, kv_heads=4, prompt=7, output=9, kv_dtype="fp16"),
    Case("mha int8", layers=2, d_model=64, heads=4, kv_heads=4, prompt=12, output=5, kv_dtype="int8"),
    Case("gqa 8/2 bf16", **_gqa()),
    Case("gqa 8/2 fp8 (uint8)", **_gqa(kv_dtype="fp8")),
    Case("mqa 8/1 bf16", layers=2, d_model=64, heads=8, kv_heads=1, prompt=12, output=5),
    Case("head_dim 24 gqa 4/2", layers=2, d_model=64, heads=4, kv_heads=2, prompt=10, output=6,
         head_dim=24),
    Case("head_dim 32 mha 4/4 fp16", layers=2, d_model=64, heads=4, kv_heads=4, prompt=10,
         output=6, head_dim=32, kv_dtype="fp16"),
    Case("mla q 32 kv 32 rope 8", **_mla(q_lora=32)),
    Case("mla q 0 kv 24 rope 8 fp8", **{**_mla(q_lora=0, kv_dtype="fp8"), "kv_lora": 24,
                                         "head_dim": 0, "v_head": 12}),
    Case("mla kv 32 rope 8 fp16", **_mla(q_lora=16, kv_dtype="fp16")),
    Case("window 8 all, ctx 17 > w", **_gqa(window=8)),
    Case("window 32 all, ctx 17 < w", **_gqa(window=32)),
    Case("window 17 all, ctx 17 = w", **_gqa(window=17)),
    Case("window 6 every 2nd full, ctx 17", **{**_gqa(window=6, global_every=2), "layers": 4}),
    Case("window 20 every 2nd full, ctx 17", **{**_gqa(window=20, global_every=2), "layers": 4}),
    Case("window 4 every 3rd full, 5 layers", **{**_gqa(window=4, global_every=3), "layers": 5,
                                                  "prompt": 9, "output": 3}),
    Case("window 5 every 2nd full, prefill > w", **{**_gqa(window=5, global_every=2), "layers": 4,
                                                     "prompt": 9, "output": 1}),
    # 3 layers: the mean kept tokens per block (13 / 3) is no whole number, the bytes are.
    Case("window 4 every 2nd, 3 layers, hd 144", layers=3, d_model=64, heads=8, kv_heads=2,
         prompt=3, output=2, head_dim=144, window=4, global_every=2),
    Case("mla window 6 every 2nd full", **{**_mla(q_lora=32, window=6, global_every=2), "layers": 4}),
]


# ---------------------------------------------------------------- storage in the format under test

STORAGE = {"bf16": torch.bfloat16, "fp16": torch.float16, "int8": torch.int8,
           "fp8": torch.uint8}   # PyTorch 1.13 has no float8: uint8 bytes stand in
CODE_SCALE = 1.0 / 32            # fixed-scale code for the 1-byte formats


def store(x, kv_dtype):
    """float32 activations -> the tensor the cache holds."""
    dt = STORAGE[kv_dtype]
    if kv_dtype in ("bf16", "fp16"):
        return x.to(dt)
    q = torch.round(x / CODE_SCALE)
    if kv_dtype == "int8":
        return q.clamp(-128, 127).to(torch.int8)
    return (q + 128).clamp(0, 255).to(torch.uint8)


def load(t, kv_dtype):
    """The cache's tensor -> float32 for attention."""
    if kv_dtype in ("bf16", "fp16"):
        return t.float()
    if kv_dtype == "int8":
        return t.float() * CODE_SCALE
    return (t.float() - 128) * CODE_SCALE


def round_trip(x, kv_dtype):
    return load(store(x, kv_dtype), kv_dtype)


def cache_bytes(cache):
    return sum(t.numel() * t.element_size() for layer in cache for t in layer)


# ---------------------------------------------------------------- the decoder

class RMSNorm(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rope(x, positions):
    """Rotary embedding over the last dimension of x (..., tokens, dim), rotate-half layout."""
    dim = x.shape[-1]
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
    ang = positions.float()[:, None] * inv[None, :]
    cos, sin = torch.cat([ang.cos()] * 2, -1), torch.cat([ang.sin()] * 2, -1)
    x1, x2 = x[..., : dim // 2], x[..., dim // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


def attention_mask(q_pos, k_pos, window):
    """Additive mask: causal, and with window > 0 only the last `window` keys (this one included)."""
    ok = k_pos[None, :] <= q_pos[:, None]
    if window > 0:
        ok &= k_pos[None, :] > q_pos[:, None] - window
    return torch.where(ok, 0.0, float("-inf"))


class Attention(torch.nn.Module):
    """GQA/MQA/MHA with an HF-style per-layer (key, value) cache (batch, kv_heads, tokens, head_dim)."""

    def __init__(self, c, window):
        super().__init__()
        self.c, self.window = c, window
        self.wq = torch.nn.Linear(c.d_model, c.heads * c.hd, bias=False)
        self.wk = torch.nn.Linear(c.d_model, c.kv_heads * c.hd, bias=False)
        self.wv = torch.nn.Linear(c.d_model, c.kv_heads * c.hd, bias=False)
        self.wo = torch.nn.Linear(c.heads * c.hd, c.d_model, bias=False)

    def forward(self, x, positions, past):
        c = self.c
        b, s, _ = x.shape
        q = rope(self.wq(x).view(b, s, c.heads, c.hd).transpose(1, 2), positions)
        k = rope(self.wk(x).view(b, s, c.kv_heads, c.hd).transpose(1, 2), positions)
        v = self.wv(x).view(b, s, c.kv_heads, c.hd).transpose(1, 2)
        k_new, v_new = store(k, c.kv_dtype), store(v, c.kv_dtype)
        if past is None:          # prefill (or the uncached reference): attend over this chunk
            k_all, v_all = k_new, v_new
        else:                     # decode: append to the cache and attend over it
            k_all, v_all = torch.cat([past[0], k_new], 2), torch.cat([past[1], v_new], 2)
        k_pos = torch.arange(positions[-1] + 1 - k_all.shape[2], positions[-1] + 1)
        kf = load(k_all, c.kv_dtype).repeat_interleave(c.heads // c.kv_heads, 1)
        vf = load(v_all, c.kv_dtype).repeat_interleave(c.heads // c.kv_heads, 1)
        scores = q @ kf.transpose(-1, -2) / math.sqrt(c.hd) + attention_mask(positions, k_pos, self.window)
        out = (scores.softmax(-1) @ vf).transpose(1, 2).reshape(b, s, c.heads * c.hd)
        if self.window > 0:       # rolling buffer: keep the last `window` tokens
            k_all, v_all = k_all[:, :, -self.window:], v_all[:, :, -self.window:]
        return self.wo(out), (k_all, v_all)


class LatentAttention(torch.nn.Module):
    """DeepSeek-V3 inference/model.py MLA, attn_impl "absorb": caches kv_norm(latent) and k_pe."""

    def __init__(self, c, window):
        super().__init__()
        self.c, self.window = c, window
        qk = c.hd + c.rope
        if c.q_lora:
            self.wq_a = torch.nn.Linear(c.d_model, c.q_lora, bias=False)
            self.q_norm = RMSNorm(c.q_lora)
            self.wq_b = torch.nn.Linear(c.q_lora, c.heads * qk, bias=False)
        else:
            self.wq = torch.nn.Linear(c.d_model, c.heads * qk, bias=False)
        self.wkv_a = torch.nn.Linear(c.d_model, c.kv_lora + c.rope, bias=False)
        self.kv_norm = RMSNorm(c.kv_lora)
        self.wkv_b = torch.nn.Linear(c.kv_lora, c.heads * (c.hd + c.v_head), bias=False)
        self.wo = torch.nn.Linear(c.heads * c.v_head, c.d_model, bias=False)

    def forward(self, x, positions, past):
        c = self.c
        b, s, _ = x.shape
        q = self.wq_b(self.q_norm(self.wq_a(x))) if c.q_lora else self.wq(x)
        q = q.view(b, s, c.heads, c.hd + c.rope)
        q_nope, q_pe = q.split([c.hd, c.rope], -1)
        q_pe = rope(q_pe.transpose(1, 2), positions).transpose(1, 2)          # (b, s, h, rope)
        kv, k_pe = self.wkv_a(x).split([c.kv_lora, c.rope], -1)
        k_pe = rope(k_pe, positions)                                          # (b, s, rope)
        wkv_b = self.wkv_b.weight.view(c.heads, c.hd + c.v_head, c.kv_lora)
        q_nope = torch.einsum("bshd,hdc->bshc", q_nope, wkv_b[:, :c.hd])
        kv_new, pe_new = store(self.kv_norm(kv), c.kv_dtype), store(k_pe, c.kv_dtype)
        if past is None:
            kv_all, pe_all = kv_new, pe_new
        else:
            kv_all, pe_all = torch.cat([past[0], kv_new], 1), torch.cat([past[1], pe_new], 1)
        k_pos = torch.arange(positions[-1] + 1 - kv_all.shape[1], positions[-1] + 1)
        kvf, pef = load(kv_all, c.kv_dtype), load(pe_all, c.kv_dtype)
        scale = 1.0 / math.sqrt(c.hd + c.rope)
        scores = (torch.einsum("bshc,btc->bsht", q_nope, kvf)
                  + torch.einsum("bshr,btr->bsht", q_pe, pef)) * scale
        scores = scores + attention_mask(positions, k_pos, self.window)[None, :, None, :]
        out = torch.einsum("bsht,btc->bshc", scores.softmax(-1), kvf)
        out = torch.einsum("bshc,hdc->bshd", out, wkv_b[:, -c.v_head:])
        if self.window > 0:
            kv_all, pe_all = kv_all[:, -self.window:], pe_all[:, -self.window:]
        return self.wo(out.flatten(2)), (kv_all, pe_all)


class Block(torch.nn.Module):
    def __init__(self, c, layer):
        super().__init__()
        window = c.window if c.windowed(layer) else 0
        self.attn = (LatentAttention if c.mla else Attention)(c, window)
        self.norm1, self.norm2 = RMSNorm(c.d_model), RMSNorm(c.d_model)
        self.gate = torch.nn.Linear(c.d_model, D_FF, bias=False)
        self.up = torch.nn.Linear(c.d_model, D_FF, bias=False)
        self.down = torch.nn.Linear(D_FF, c.d_model, bias=False)

    def forward(self, x, positions, past):
        a, present = self.attn(self.norm1(x), positions, past)
        x = x + a
        h = self.norm2(x)
        return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h)), present


class Decoder(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, c.d_model)
        self.blocks = torch.nn.ModuleList(Block(c, i) for i in range(c.layers))
        self.norm = RMSNorm(c.d_model)
        self.head = torch.nn.Linear(c.d_model, VOCAB, bias=False)

    def forward(self, tokens, start, past_key_values=None):
        """tokens (batch, s) at positions start..start+s-1; returns logits and the new cache."""
        positions = torch.arange(start, start + tokens.shape[1])
        x = self.embed(tokens)
        present = []
        for i, block in enumerate(self.blocks):
            x, p = block(x, positions, None if past_key_values is None else past_key_values[i])
            present.append(p)
        return self.head(self.norm(x)), present


@torch.no_grad()
def generate(c, seed=0):
    """Prefill P tokens, decode O greedily; returns (cache bytes, logits per position, tokens)."""
    torch.manual_seed(seed)
    model = Decoder(c).eval()
    prompt = torch.randint(0, VOCAB, (1, c.prompt))
    logits, cache = model(prompt, 0)
    all_logits, tokens = [logits[0]], [prompt]
    for step in range(c.output):
        nxt = all_logits[-1][-1].argmax().view(1, 1)
        tokens.append(nxt)
        logits, cache = model(nxt, c.prompt + step, cache)
        all_logits.append(logits[0])
    tokens = torch.cat(tokens, 1)
    assert tokens.shape[1] == c.context
    # The cache is real: one uncached pass over the whole sequence, same masks and same storage
    # round trip, gives the same logits at every position.
    reference, _ = model(tokens, 0)
    got = torch.cat(all_logits)
    err = (got - reference[0]).abs().max().item()
    if err > 1e-4 * max(1.0, reference.abs().max().item()):
        raise AssertionError(f"{c.name}: cached generation differs from the uncached pass by {err}")
    # Shapes: HF past_key_values, or DeepSeek-V3's kv_cache / pe_cache.
    for i, (a, b) in enumerate(cache):
        kept = min(c.context, c.window) if c.windowed(i) else c.context
        if c.mla:
            assert a.shape == (1, kept, c.kv_lora) and b.shape == (1, kept, c.rope), (a.shape, b.shape)
        else:
            assert a.shape == b.shape == (1, c.kv_heads, kept, c.hd), (a.shape, kept)
        assert a.dtype == b.dtype == STORAGE[c.kv_dtype]
    return cache_bytes(cache)


@torch.no_grad()
def one_token_bytes(c):
    torch.manual_seed(0)
    model = Decoder(c).eval()
    _, cache = model(torch.randint(0, VOCAB, (1, 1)), 0)
    return cache_bytes(cache)


# ---------------------------------------------------------------- napkin and the comparison

def napkin_kv(c, binary):
    cmd = [binary, "report", "--json", *c.napkin_args()]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    inf = json.loads(p.stdout)["inference"]
    return inf["kv_cache_bytes_per_sequence"], inf["kv_cache_bytes_per_token"]


def rows_for(c, binary, perturb=None):
    """[(case, quantity, measured, napkin, ok)]; `perturb` changes napkin's numbers (self-test)."""
    seq, tok = napkin_kv(c, binary)
    if perturb:
        seq, tok = perturb(c, seq, tok)
    measured_seq, measured_tok = generate(c), one_token_bytes(c)
    return [(c.name, f"per_sequence @{c.context}", measured_seq, seq, measured_seq == seq),
            (c.name, "per_token", measured_tok, tok, measured_tok == tok)]


def fmt(x):
    return str(int(x)) if float(x).is_integer() else repr(x)


def print_table(rows, out=sys.stdout):
    w = max(len(r[0]) for r in rows)
    print(f"{'case':{w}}  {'quantity':20} {'measured':>10} {'napkin':>20}  ok", file=out)
    for name, qty, m, n, ok in rows:
        print(f"{name:{w}}  {qty:20} {m:>10} {fmt(n):>20}  {'ok' if ok else 'MISMATCH'}", file=out)
    bad = sum(not r[4] for r in rows)
    print(f"{len(rows) - bad} passed, {bad} failed", file=out)


def run(binary, cases=CASES, perturb=None, out=sys.stdout):
    rows = [r for c in cases for r in rows_for(c, binary, perturb)]
    print_table(rows, out)
    return 0 if all(r[4] for r in rows) else 1


def self_test(binary):
    """The comparison must fail when napkin's numbers are off by one byte or by a window."""
    import io
    sabotage = [
        ("per_sequence + 1 byte", lambda c, s, t: (s + 1, t)),
        ("per_token - 1 byte", lambda c, s, t: (s, t - 1)),
        ("window ignored (per_token x context)",
         lambda c, s, t: (t * c.context if c.window else s, t)),
    ]
    cases = [CASES[0], CASES[11]]
    ok = run(binary, cases, out=io.StringIO()) == 0
    print(f"{'unmodified':40} {'pass' if ok else 'FAIL (should pass)'}")
    for label, fn in sabotage:
        caught = run(binary, cases, perturb=fn, out=io.StringIO()) == 1
        ok &= caught
        print(f"{label:40} {'caught' if caught else 'NOT CAUGHT'}")
    print("self-test " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true", help="check that mismatches are caught")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    binary = napkin_binary()
    return self_test(binary) if args.self_test else run(binary)


if __name__ == "__main__":
    sys.exit(main())
