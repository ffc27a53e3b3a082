"""Megatron-LM's theoretical memory estimate, restated for Napkin's validation harness.

Source of the formulas (facts and arithmetic only; the code below is our own):

    NVIDIA/Megatron-LM, megatron/training/theoretical_memory_usage.py
    (before 2024 the file lived at megatron/theoretical_memory_usage.py)
    read at repository HEAD d98e8a64ddf34856e74b24714e3bedb2f5a39553;
    the file was last changed there by 1bcb3b9e0b029c6109d8d32872645bd540052963
    ("Fix LatentMoE theoretical memory estimate (#5145)").
    Functions: compute_weight_and_optimizer_memory, compute_activation_memory.

The activation estimate is, as Megatron's comment says, "the formula in Table 2 of
https://arxiv.org/pdf/2205.05198.pdf": V. Korthikanti, J. Casper, S. Lym, L. McAfee,
M. Andersch, M. Shoeybi, B. Catanzaro, "Reducing Activation Recomputation in Large
Transformer Models", 2022, Table 2, the row for sequence parallelism + selective
recomputation (34 sbh / t per layer), with the MLP width generalised from 4h to ffn and
Section 4.3's embedding and output-layer terms added.  Megatron only uses this function when
--sequence-parallel and --recompute-granularity selective are both set.

Only the dense (non-MoE) path is restated.  MoE experts, multi-token prediction (MTP) and
multi-latent attention (MLA) all default to "off" and add nothing to a dense GPT/Llama model,
so leaving them out does not change the dense results.

Everything is for the first pipeline stage (Megatron's "most loaded model shard"), one GPU.

Weights and optimizer (h hidden, L layers, a heads, g query groups, c = kv_channels,
f = ffn, V = padded vocab, t/p/d = TP/PP/DP sizes, n = 1 for RMSNorm and 2 for LayerNorm,
k = 3/2 with SwiGLU else 1):

    attention      A = 2 h (a c) (1 + g/a)          Q and O (h x ac each), K and V (h x gc each)
    mlp            M = 2 h f k
    norms / layer  N = 2 n h
    final norm     F = n h
    embedding      E = V h                         (one table; untied adds a second E)
    total          P = L (A + M + N) + F + E (x2 if untied)      -- no biases, no positions
    first stage    S = (L (A + M) / p + E) / t + (L N + F) / p  [+ E / t if untied and p = 1]
    bytes / param  18 (bf16 weight 2 + fp32 grad 4 + fp32 master 4 + Adam m, v 8),
                   or 6 + 12 / d with the distributed optimizer (ZeRO-1 over DP)
    bytes          S * bytes_per_param

Activations (s sequence, b micro-batch, m micro-batches, v = vpp or None):

    per layer      sbh (18 + 4 f / h)              (= 34 sbh when f = 4h)
    X = L * per layer + 8 s b p  (int64 token ids, p micro-batches in flight)
                      + s b h p  (1-byte embedding dropout mask, p in flight)
    interleaved    X *= 1 + (p - 1) / (p v)
    1F1B, p > 1    X *= min(1, m / p)              (only when m is known)
    p == 1         X += 4 sbh (1 + V / h)          (final-norm input and LM-head input at
                                                    2 bytes, fp32 logits for the loss)
    bytes          X / t                            (TP + sequence parallelism shard it all)

The L * per-layer term is the first stage's L/p layers times p micro-batches in flight.
"""

import math
from dataclasses import dataclass, fields
from typing import NamedTuple, Optional


@dataclass
class MegatronConfig:
    """The Megatron arguments these formulas read (names follow Megatron's, shortened)."""

    num_layers: int
    hidden_size: int
    num_attention_heads: int
    padded_vocab_size: int
    seq_length: int
    num_query_groups: Optional[int] = None   # None: no GQA (= num_attention_heads)
    kv_channels: Optional[int] = None        # None: hidden_size / num_attention_heads
    ffn_hidden_size: Optional[int] = None    # None: 4 * hidden_size
    swiglu: bool = False
    untie_embeddings: bool = False
    micro_batch_size: int = 1
    tp: int = 1
    pp: int = 1
    vpp: Optional[int] = None                # virtual pipeline stages per rank (interleaving)
    dp: int = 1
    use_distributed_optimizer: bool = False
    normalization: str = "LayerNorm"         # "LayerNorm" (2h per norm) or "RMSNorm" (h)

    def __post_init__(self):
        if self.num_query_groups is None:
            self.num_query_groups = self.num_attention_heads
        if self.kv_channels is None:
            self.kv_channels = self.hidden_size // self.num_attention_heads
        if self.ffn_hidden_size is None:
            self.ffn_hidden_size = 4 * self.hidden_size
        if self.normalization not in ("LayerNorm", "RMSNorm"):
            raise ValueError(f"normalization must be LayerNorm or RMSNorm, not {self.normalization!r}")


def as_config(cfg):
    """A MegatronConfig from a MegatronConfig, a dict, or any object with the same attributes."""
    if isinstance(cfg, MegatronConfig):
        return cfg
    if isinstance(cfg, dict):
        return MegatronConfig(**cfg)
    return MegatronConfig(**{f.name: getattr(cfg, f.name) for f in fields(MegatronConfig) if hasattr(cfg, f.name)})


def padded_vocab(vocab, tp, divisible_by=128):
    """Megatron's padded vocabulary: the next multiple of divisible_by * tp
    (--make-vocab-size-divisible-by, default 128)."""
    step = divisible_by * tp
    return int(math.ceil(vocab / step) * step)


def num_microbatches(global_batch, micro_batch, dp):
    """Megatron's micro-batches per step: global batch / (micro batch * data-parallel size)."""
    if global_batch % (micro_batch * dp):
        raise ValueError(f"global batch {global_batch} is not a multiple of {micro_batch} x {dp}")
    return global_batch // (micro_batch * dp)


class ParamCounts(NamedTuple):
    attention_per_layer: float
    mlp_per_layer: float
    norms_per_layer: float
    final_norm: float
    embedding: float          # one V x h table
    total: float              # whole model, as Megatron counts it
    first_stage: float        # on one GPU of pipeline stage 0 (the most loaded shard)


class WeightAndOptimizer(NamedTuple):
    bytes: float              # weights + grads + optimizer state on one GPU of stage 0
    bytes_per_param: float
    params: ParamCounts


def parameter_counts(cfg):
    """Megatron's parameter counts (dense path)."""
    c = as_config(cfg)
    h = c.hidden_size
    norm = 1 if c.normalization == "RMSNorm" else 2
    q_width = c.kv_channels * c.num_attention_heads
    # Q and output projections are h x q_width; K and V shrink by groups / heads.
    attention = 2 * h * q_width * (1 + c.num_query_groups / c.num_attention_heads)
    mlp = 2 * h * c.ffn_hidden_size * (1.5 if c.swiglu else 1)
    norms = 2 * norm * h
    final_norm = norm * h
    embedding = h * c.padded_vocab_size
    tables = 2 if c.untie_embeddings else 1
    total = c.num_layers * (attention + mlp + norms) + final_norm + tables * embedding

    # Stage 0: 1/pp of the layers and the input embedding; matrices split over TP, norms
    # replicated.  Megatron spreads the final norm over all stages (divides it by pp).
    sharded = (c.num_layers * (attention + mlp) / c.pp + embedding) / c.tp
    replicated = (c.num_layers * norms + final_norm) / c.pp
    first = sharded + replicated
    if c.untie_embeddings and c.pp == 1:
        first += embedding / c.tp  # the output layer sits on the same (only) stage
    return ParamCounts(attention, mlp, norms, final_norm, embedding, total, first)


def bytes_per_param(cfg):
    """Mixed-precision Adam: 18 bytes, or 6 + 12/dp with the distributed optimizer."""
    c = as_config(cfg)
    return 6 + 12 / c.dp if c.use_distributed_optimizer else 18.0


def weight_and_optimizer_bytes(cfg):
    """compute_weight_and_optimizer_memory (dense): bytes on one GPU of stage 0, with the
    parameter counts used.  Returns WeightAndOptimizer(bytes, bytes_per_param, params)."""
    counts = parameter_counts(cfg)
    per = bytes_per_param(cfg)
    return WeightAndOptimizer(counts.first_stage * per, per, counts)


class ActivationTerms(NamedTuple):
    layers: float             # L * sbh (18 + 4f/h), before the schedule factor and / tp
    token_ids: float          # 8 s b p
    embedding_dropout: float  # s b h p
    schedule_factor: float    # interleaving penalty, or min(1, m/p), or 1
    output_layer: float       # 4 sbh (1 + V/h) when pp == 1, else 0
    total: float              # bytes on one GPU of stage 0


def activation_terms(cfg, num_microbatches=None):
    """compute_activation_memory, itemised (bytes; 'total' is the function's result)."""
    c = as_config(cfg)
    sbh = c.seq_length * c.micro_batch_size * c.hidden_size
    layers = c.num_layers * sbh * (18 + 4 * c.ffn_hidden_size / c.hidden_size)
    token_ids = 8 * c.seq_length * c.micro_batch_size * c.pp
    dropout = sbh * c.pp
    factor = 1.0
    if c.vpp is not None:
        factor = 1 + (c.pp - 1) / (c.pp * c.vpp)
    elif c.pp > 1 and num_microbatches is not None:
        factor = min(1.0, num_microbatches / c.pp)
    output = 4 * sbh * (1 + c.padded_vocab_size / c.hidden_size) if c.pp == 1 else 0.0
    total = ((layers + token_ids + dropout) * factor + output) / c.tp
    return ActivationTerms(layers, token_ids, dropout, factor, output, total)


def activation_bytes(cfg, num_microbatches=None):
    """compute_activation_memory: activation bytes on one GPU of stage 0 (SP + selective)."""
    return activation_terms(cfg, num_microbatches).total


def _self_check():
    """Hand-checkable numbers: GPT-3 175B at TP8 PP8, micro-batch 1, 64 micro-batches."""
    gpt3 = MegatronConfig(num_layers=96, hidden_size=12288, num_attention_heads=96,
                          padded_vocab_size=51200, seq_length=2048, tp=8, pp=8)
    h, L, V = 12288, 96, 51200
    per_layer = 12 * h * h + 4 * h              # 4h^2 attention + 8h^2 MLP + two LayerNorms
    first = (L * 12 * h * h / 8 + V * h) / 8 + (L * 4 * h + 2 * h) / 8
    w = weight_and_optimizer_bytes(gpt3)
    assert w.params.total == L * per_layer + 2 * h + V * h
    assert abs(w.params.first_stage - first) < 1e-3
    assert w.bytes == 18 * w.params.first_stage
    sbh = 2048 * h
    act = (L * 34 * sbh + 8 * 2048 * 8 + sbh * 8) / 8
    assert abs(activation_bytes(gpt3, 64) - act) < 1e-3
    return w, activation_bytes(gpt3, 64)


if __name__ == "__main__":
    w, a = _self_check()
    gib = 2 ** 30
    print(f"GPT-3 175B TP8 PP8 b1 m64: params total {w.params.total:,.0f}, "
          f"stage 0 per GPU {w.params.first_stage:,.0f}")
    print(f"  weights+optimizer {w.bytes:,.0f} B ({w.bytes / gib:.2f} GiB), "
          f"activations {a:,.0f} B ({a / gib:.2f} GiB)")
