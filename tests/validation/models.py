"""Plain-PyTorch decoders that mirror Napkin's two model families.

Written for the validation harness; nothing here is imported from another project.

gpt2  - the Hugging Face GPT-2 layout: token embedding + learned positions, pre-LayerNorm
        blocks (weight + bias), fused QKV Linear with bias (grouped-query when
        kv_heads < heads), output projection with bias, MLP d -> d_ff -> d with biases and
        tanh-GELU, final LayerNorm, LM head tied to the token embedding by default.
llama - the Meta LLaMA layout: token embedding, RMSNorm (weight only, computed in fp32 as
        the reference code does), separate Q/K/V/O projections without bias, grouped-query
        attention, rotary positions (no parameters), SwiGLU MLP (gate, up, down; no bias),
        final RMSNorm, untied LM head by default.

Implementation choices that decide which tensors autograd saves (each is documented in
ACTIVATION_MODEL.md, because the activation model depends on them):

* Attention scores use one ``torch.baddbmm(mask, q, k^T, beta=1, alpha=1/sqrt(d_head))``
  (the Megatron-LM core-attention form): the scale and the additive causal mask cost no saved
  tensor.  q, k and v enter the attention core as contiguous (b*heads, s, d_head) tensors;
  k and v are expanded to all query heads first (grouped-query "repeat_kv").
* gpt2 takes the softmax in the activation dtype (as Hugging Face GPT-2 does); llama takes
  it in fp32 and casts the probabilities back (``softmax(scores.float()).type_as(q)``, as
  the Meta reference code does).
* Dropout (when p > 0) is ``torch.native_dropout``, the kernel ``F.dropout`` reaches on CUDA:
  it saves a 1-byte bool mask.  (``F.dropout`` on CPU instead multiplies by a saved
  floating-point noise tensor, which would not represent GPU training.)  Dropout sits where
  GPT-2 puts it: after the embedding, on the attention probabilities, and on the outputs of
  the attention and MLP blocks before each residual add.  Both families use the same places.
* The loss is ``F.cross_entropy`` on fp32 logits (``logits.float()``), as Napkin assumes.
* Recompute: "full" wraps each block in ``torch.utils.checkpoint`` (re-entrant, the 1.13
  default); "selective" wraps only the attention core (scores, softmax, dropout, probs x V),
  as in Korthikanti et al. 2022.
"""

import functools
import math
from dataclasses import dataclass, replace

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


@dataclass(frozen=True)
class Shape:
    arch: str           # "gpt2" or "llama"
    layers: int
    d_model: int
    heads: int
    kv_heads: int
    d_ff: int
    vocab: int
    seq_len: int
    batch: int
    tied: bool
    max_pos: int = 0    # gpt2 learned positions; 0 means seq_len
    # Mixture-of-Experts (llama family): routed experts, top-k, shared experts, expert width.
    experts: int = 0
    top_k: int = 2
    shared: int = 0
    expert_ff: int = 0
    # Multi-head latent attention (DeepSeek-V2/V3, llama family): kv_lora > 0 turns it on; q_lora
    # = 0 keeps a full-rank Q; each head's queries and keys are head_dim (no RoPE) + rope wide,
    # its values v_head wide. head_dim = 0 means d_model / heads.
    head_dim: int = 0
    q_lora: int = 0
    kv_lora: int = 0
    rope: int = 0
    v_head: int = 0

    @property
    def positions(self):
        return self.max_pos or self.seq_len

    @property
    def d_head(self):
        return self.head_dim or self.d_model // self.heads

    @property
    def mla(self):
        return self.kv_lora > 0

    @property
    def kv_width(self):
        return self.kv_heads * self.d_head

    def label(self):
        return (f"{self.arch} L{self.layers} d{self.d_model} h{self.heads} kv{self.kv_heads} "
                f"ff{self.d_ff} V{self.vocab} s{self.seq_len} b{self.batch} "
                f"{'tied' if self.tied else 'untied'}"
                + (f" P{self.positions}" if self.arch == "gpt2" else "")
                + (f" E{self.experts} k{self.top_k} sh{self.shared} eff{self.expert_ff}" if self.experts else "")
                + (f" MLA q{self.q_lora} kv{self.kv_lora} dh{self.d_head} r{self.rope} v{self.v_head}"
                   if self.mla else ""))

    def with_(self, **kw):
        return replace(self, **kw)


def _dropout(x, p):
    if p == 0.0:
        return x
    return torch.native_dropout(x, p, True)[0]


def _repeat_kv(x, groups):
    """(b, kv_heads, s, dh) -> (b, kv_heads*groups, s, dh); every query head gets its K/V."""
    if groups == 1:
        return x
    b, kvh, s, dh = x.shape
    return x[:, :, None].expand(b, kvh, groups, s, dh).reshape(b, kvh * groups, s, dh)


def attention_core(q, k, v, *, mask, p, softmax_fp32):
    """q, k, v: contiguous (b, heads, s, dh). Returns the context as (b, s, heads*dh)."""
    b, h, s, dh = q.shape
    dv = v.shape[-1]   # the values' width: d_head, or v_head under latent attention
    q3 = q.view(b * h, s, dh)
    k3 = k.view(b * h, s, dh)
    v3 = v.view(b * h, s, dv)
    scores = torch.baddbmm(mask, q3, k3.transpose(1, 2), beta=1.0, alpha=1.0 / math.sqrt(dh))
    if softmax_fp32:
        probs = torch.softmax(scores.float(), dim=-1).type_as(q3)
    else:
        probs = torch.softmax(scores, dim=-1)
    probs = _dropout(probs, p)
    ctx = torch.bmm(probs, v3)
    return ctx.view(b, h, s, dv).transpose(1, 2).reshape(b, s, h * dv)


def _split_heads(q, k, v, shape):
    """q: (b, s, d); k, v: (b, s, kv_width) -> (b, heads or kv_heads, s, dh) views."""
    b, s, _ = q.shape
    h, kvh, dh = shape.heads, shape.kv_heads, shape.d_head
    q = q.view(b, s, h, dh).transpose(1, 2)
    k = k.view(b, s, kvh, dh).transpose(1, 2)
    v = v.view(b, s, kvh, dh).transpose(1, 2)
    return q, k, v


def _core(q, k, v, shape, mask, p, softmax_fp32, selective):
    """Repeat K/V to every query head, make q, k, v contiguous, run the attention core."""
    groups = shape.heads // shape.kv_heads
    q = q.contiguous()
    k = _repeat_kv(k, groups).contiguous()
    v = _repeat_kv(v, groups).contiguous()
    fn = functools.partial(attention_core, mask=mask, p=p, softmax_fp32=softmax_fp32)
    if selective:
        return checkpoint(fn, q, k, v)
    return fn(q, k, v)


class GPT2Block(nn.Module):
    def __init__(self, shape, p):
        super().__init__()
        d, kv, ff = shape.d_model, shape.kv_width, shape.d_ff
        self.shape, self.p = shape, p
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, d + 2 * kv)
        self.attn_proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = nn.Linear(d, ff)
        self.mlp_proj = nn.Linear(ff, d)

    def forward(self, x, mask, rope=None, selective=False):
        d, kv = self.shape.d_model, self.shape.kv_width
        q, k, v = self.c_attn(self.ln_1(x)).split([d, kv, kv], dim=-1)
        q, k, v = _split_heads(q, k, v, self.shape)
        ctx = _core(q, k, v, self.shape, mask, self.p, False, selective)
        x = x + _dropout(self.attn_proj(ctx), self.p)
        m = self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))
        return x + _dropout(m, self.p)


class RMSNorm(nn.Module):
    """LLaMA RMSNorm: normalise in fp32, cast back, then scale (Meta reference code)."""

    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        xf = x.float()
        normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return normed.type_as(x) * self.weight


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def _apply_rope(x, cos, sin):
    return x * cos + _rotate_half(x) * sin


class LlamaBlock(nn.Module):
    def __init__(self, shape, p):
        super().__init__()
        d, kv, ff = shape.d_model, shape.kv_width, shape.d_ff
        self.shape, self.p = shape, p
        self.attn_norm = RMSNorm(d)
        if shape.mla:
            # DeepSeek-V3 as HF DeepseekV3Attention lays it out: Q through a q_lora latent with its
            # RMSNorm (or one full-rank projection), K/V through a kv_lora latent with its RMSNorm
            # plus one RoPE key shared by every head, up to each head's no-RoPE key and value.
            h, dn, dr, dv = shape.heads, shape.d_head, shape.rope, shape.v_head
            if shape.q_lora:
                self.wq_a = nn.Linear(d, shape.q_lora, bias=False)
                self.q_norm = RMSNorm(shape.q_lora)
                self.wq_b = nn.Linear(shape.q_lora, h * (dn + dr), bias=False)
            else:
                self.wq = nn.Linear(d, h * (dn + dr), bias=False)
            self.wkv_a = nn.Linear(d, shape.kv_lora + dr, bias=False)
            self.kv_norm = RMSNorm(shape.kv_lora)
            self.wkv_b = nn.Linear(shape.kv_lora, h * (dn + dv), bias=False)
            self.wo = nn.Linear(h * dv, d, bias=False)
        else:
            self.wq = nn.Linear(d, shape.heads * shape.d_head, bias=False)
            self.wk = nn.Linear(d, kv, bias=False)
            self.wv = nn.Linear(d, kv, bias=False)
            self.wo = nn.Linear(shape.heads * shape.d_head, d, bias=False)
        self.mlp_norm = RMSNorm(d)
        if shape.experts:
            # Mixture-of-Experts as HF Mixtral lays it out: a bias-free router and SwiGLU experts;
            # shared experts (DeepSeek-V3) as one SwiGLU of their summed width.
            fe = shape.expert_ff
            self.router = nn.Linear(d, shape.experts, bias=False)
            self.experts = nn.ModuleList(
                nn.ModuleList((nn.Linear(d, fe, bias=False), nn.Linear(d, fe, bias=False),
                               nn.Linear(fe, d, bias=False))) for _ in range(shape.experts))
            self.shared = (nn.ModuleList((nn.Linear(d, shape.shared * fe, bias=False),
                                          nn.Linear(d, shape.shared * fe, bias=False),
                                          nn.Linear(shape.shared * fe, d, bias=False)))
                           if shape.shared else None)
            return
        self.w_gate = nn.Linear(d, ff, bias=False)
        self.w_up = nn.Linear(d, ff, bias=False)
        self.w_down = nn.Linear(ff, d, bias=False)

    def _moe(self, m):
        # Top-k routing over fp32 router probabilities; each expert runs on the rows routed to it
        # (dropless: every token-slot is computed once), weighted and summed back.
        b, s, d = m.shape
        flat = m.reshape(-1, d)
        probs = F.softmax(self.router(flat).float(), dim=-1)
        w, idx = torch.topk(probs, self.shape.top_k, dim=-1)
        out = torch.zeros_like(flat)
        for e, (gate, up, down) in enumerate(self.experts):
            tok, slot = torch.nonzero(idx == e, as_tuple=True)
            if tok.numel() == 0:
                continue
            x = flat[tok]
            y = down(F.silu(gate(x)) * up(x)) * w[tok, slot].unsqueeze(-1).to(x.dtype)
            out = out.index_add(0, tok, y)
        if self.shared is not None:
            gate, up, down = self.shared
            out = out + down(F.silu(gate(flat)) * up(flat))
        return out.view(b, s, d)

    def _latent_qkv(self, a, rope):
        shape = self.shape
        b, s, _ = a.shape
        h, dn, dr, dv = shape.heads, shape.d_head, shape.rope, shape.v_head
        q = self.wq_b(self.q_norm(self.wq_a(a))) if shape.q_lora else self.wq(a)
        q_nope, q_pe = q.view(b, s, h, dn + dr).transpose(1, 2).split([dn, dr], dim=-1)
        latent, k_pe = self.wkv_a(a).split([shape.kv_lora, dr], dim=-1)
        k_nope, v = self.wkv_b(self.kv_norm(latent)).view(b, s, h, dn + dv).transpose(1, 2).split([dn, dv], dim=-1)
        cos, sin = rope
        q_pe = _apply_rope(q_pe, cos, sin)
        k_pe = _apply_rope(k_pe.view(b, s, 1, dr).transpose(1, 2), cos, sin)
        q = torch.cat((q_nope, q_pe), dim=-1)
        k = torch.cat((k_nope, k_pe.expand(b, h, s, dr)), dim=-1)
        return q, k, v

    def forward(self, x, mask, rope=None, selective=False):
        a = self.attn_norm(x)
        if self.shape.mla:
            q, k, v = self._latent_qkv(a, rope)
        else:
            q, k, v = _split_heads(self.wq(a), self.wk(a), self.wv(a), self.shape)
            cos, sin = rope
            q = _apply_rope(q, cos, sin)
            k = _apply_rope(k, cos, sin)
        ctx = _core(q, k, v, self.shape, mask, self.p, True, selective)
        x = x + _dropout(self.wo(ctx), self.p)
        m = self.mlp_norm(x)
        m = self._moe(m) if self.shape.experts else self.w_down(F.silu(self.w_gate(m)) * self.w_up(m))
        return x + _dropout(m, self.p)


class Decoder(nn.Module):
    def __init__(self, shape, dropout=0.0, recompute="none"):
        super().__init__()
        assert shape.arch in ("gpt2", "llama")
        assert (shape.head_dim or shape.d_model % shape.heads == 0) and shape.heads % shape.kv_heads == 0
        assert not shape.mla or (shape.arch == "llama" and shape.kv_heads == shape.heads and shape.rope % 2 == 0)
        assert recompute in ("none", "selective", "full")
        self.shape, self.p, self.recompute = shape, dropout, recompute
        d, V = shape.d_model, shape.vocab
        self.wte = nn.Embedding(V, d)
        if shape.arch == "gpt2":
            self.wpe = nn.Parameter(torch.randn(shape.positions, d) * 0.02)
            block, norm = GPT2Block, nn.LayerNorm
        else:
            self.wpe = None
            block, norm = LlamaBlock, RMSNorm
        self.blocks = nn.ModuleList(block(shape, dropout) for _ in range(shape.layers))
        self.norm_f = norm(d)
        self.lm_head = None if shape.tied else nn.Parameter(torch.randn(V, d) * 0.02)
        # Optional observer: trace(region, shared) is told which block the forward is in
        # (an int, or "model" outside the blocks) and which tensors all blocks share.
        self.trace = None

    def _region(self, region, shared=()):
        if self.trace is not None:
            self.trace(region, shared)

    def _rope(self, s, dtype):
        dh = self.shape.rope if self.shape.mla else self.shape.d_head  # latent attention: the RoPE part only
        inv = 1.0 / (10000.0 ** (torch.arange(0, dh, 2, dtype=torch.float32) / dh))
        ang = torch.outer(torch.arange(s, dtype=torch.float32), inv)
        ang = torch.cat((ang, ang), dim=-1)
        return ang.cos().to(dtype), ang.sin().to(dtype)

    def forward(self, ids, targets):
        b, s = ids.shape
        x = self.wte(ids)
        if self.wpe is not None:
            x = x + self.wpe[:s]
        x = _dropout(x, self.p)
        dtype = x.dtype
        mask = torch.full((s, s), float("-inf"), dtype=dtype).triu(1)
        rope = self._rope(s, dtype) if self.shape.arch == "llama" else None
        self._region("model", (mask,) + (rope or ()))
        for i, blk in enumerate(self.blocks):
            self._region(i)
            if self.recompute == "full":
                x = checkpoint(functools.partial(blk, mask=mask, rope=rope), x)
            else:
                x = blk(x, mask, rope, selective=self.recompute == "selective")
        self._region("model")
        x = self.norm_f(x)
        head = self.wte.weight if self.lm_head is None else self.lm_head
        logits = F.linear(x, head)
        return F.cross_entropy(logits.float().view(-1, self.shape.vocab), targets.view(-1))


def build(shape, dtype=torch.float32, dropout=0.0, recompute="none", seed=0):
    torch.manual_seed(seed)
    return Decoder(shape, dropout=dropout, recompute=recompute).to(dtype)


def batch_for(shape, seed=1):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, shape.vocab, (shape.batch, shape.seq_len), generator=g)
    targets = torch.randint(0, shape.vocab, (shape.batch, shape.seq_len), generator=g)
    return ids, targets
