"""Closed-form "as implemented in PyTorch" activation model (see ACTIVATION_MODEL.md).

Bytes of the tensors autograd holds for backward at the end of the forward pass of
models.Decoder, itemised by the tensor each term is.  Derived by reading what every op of
models.py saves (``grad_fn._saved_*``) and confirmed term by term against
measure.SavedTensorMeter; run_validation.py checks it exactly over its grid.

Symbols: s sequence length, b micro-batch, d model width, a query heads, f MLP width (d_ff),
V vocabulary, d_head = d / a, B activation element bytes (4 fp32, 2 bf16),
F = 4 (bytes of what the reference code computes in fp32 whatever B is).
kv_heads does not appear: K and V are expanded to all a heads before they are saved.

Two conventions are parameters because they depend on where PyTorch runs:
* ``ln_stat_bytes``: bytes of each LayerNorm mean/rstd element.  PyTorch CPU kernels keep
  them in the input dtype (= B, what this harness measures); CUDA kernels keep them in fp32
  (= 4; ``at::toAccumulateType`` in layer_norm_cuda).
* ``mean_saves_input``: ``torch.mean(dim)``'s backward saves its input in PyTorch 1.13 (and
  up to the fix of pytorch/pytorch#109876); later versions keep only sizes.  It adds the fp32
  square x^2 (F*s*b*d) to every RMSNorm.
Both default to what PyTorch 1.13 on CPU does, which is what the harness can measure.
"""

from dataclasses import dataclass

F32 = 4
INDEX = 8   # int64 token ids / targets


@dataclass(frozen=True)
class ActivationTerms:
    per_layer: dict     # term name -> bytes for one transformer block
    model: dict         # term name -> bytes outside the blocks (embedding, final norm, loss)
    layers: int

    @property
    def per_layer_bytes(self):
        return sum(self.per_layer.values())

    @property
    def model_bytes(self):
        return sum(self.model.values())

    @property
    def total(self):
        return self.layers * self.per_layer_bytes + self.model_bytes


def _layernorm(sb, d, B, stat):
    return {"input": B * sb * d, "mean+rstd": 2 * stat * sb}


def _rmsnorm(sb, d, B, mean_saves_input):
    t = {"input as fp32 (x.float())": F32 * sb * d}
    if mean_saves_input:
        t["x^2 (saved by mean's backward)"] = F32 * sb * d
    t["rsqrt(mean(x^2)+eps), fp32"] = F32 * sb
    t["normalised, cast to B (saved by * weight)"] = B * sb * d
    return t


def pytorch_activation_terms(arch, layers, seq_len, batch, d_model, heads, d_ff, vocab,
                             act_bytes, dropout=False, recompute="none",
                             ln_stat_bytes=None, mean_saves_input=True,
                             head_dim=0, experts=0, top_k=2, shared=0, expert_ff=0,
                             q_lora=0, kv_lora=0, rope=0, v_head=0):
    """head_dim apart from d / a; Mixture-of-Experts (experts > 0: a router over `experts`
    SwiGLU experts of expert_ff, top_k per token, `shared` experts every token runs through);
    multi-head latent attention (kv_lora > 0: Q through a q_lora latent or full rank, K/V
    through a kv_lora latent plus a shared rope-wide key, v_head-wide values). The MoE and MLA
    terms are derived for recompute "none" without dropout, what the harness runs them with."""
    s, b, d, a, f, V, B = seq_len, batch, d_model, heads, d_ff, vocab, act_bytes
    sb = s * b
    dh = head_dim or d // a
    mla = kv_lora > 0
    qk_width = a * (dh + rope) if mla else a * dh    # Q and K as the attention core gets them
    v_width = a * (v_head or dh) if mla else a * dh  # V and the context
    stat = B if ln_stat_bytes is None else ln_stat_bytes
    mask = 1 if dropout else 0       # dropout keeps a 1-byte bool mask per element

    layer = {}
    if recompute == "full":
        layer["block input (saved by checkpoint)"] = B * sb * d
    else:
        if arch == "gpt2":
            for k, v in _layernorm(sb, d, B, stat).items():
                layer["ln_1 " + k] = v
            layer["ln_1 output = c_attn input"] = B * sb * d
        else:
            for k, v in _rmsnorm(sb, d, B, mean_saves_input).items():
                layer["attn_norm " + k] = v
            layer["attn_norm output = wq/wk/wv input"] = B * sb * d
        if mla:
            if q_lora:
                for k, v in _rmsnorm(sb, q_lora, B, mean_saves_input).items():
                    layer["q_norm " + k] = v
                layer["q_norm output = wq_b input"] = B * sb * q_lora
            # kv_norm reads a split of wkv_a's output: x.float() is a new fp32 copy of the latent
            # in bf16, and in fp32 the split itself, whose storage holds the RoPE key too.
            for k, v in _rmsnorm(sb, kv_lora, B, mean_saves_input).items():
                layer["kv_norm " + k] = v
            if B == F32:
                layer["kv_norm input's storage: the RoPE key beside the latent"] = F32 * sb * rope
            layer["kv_norm output = wkv_b input"] = B * sb * kv_lora
        layer["q (a heads)"] = B * sb * qk_width
        layer["k repeated to a heads"] = B * sb * qk_width
        layer["v repeated to a heads"] = B * sb * v_width
        if recompute == "none":
            sq = a * s * s * b
            if arch == "gpt2":
                layer["softmax output (B)"] = B * sq
                if dropout:
                    layer["attention dropout mask"] = sq
                    layer["attention dropout output"] = B * sq
            else:
                layer["softmax output (fp32)"] = F32 * sq
                if dropout:
                    layer["attention dropout mask"] = sq
                    layer["attention dropout output"] = B * sq
                elif B != F32:
                    layer["probabilities cast to B"] = B * sq
        layer["attention context = output projection input"] = B * sb * v_width
        if dropout:
            layer["attention residual dropout mask"] = mask * sb * d
        if arch == "gpt2":
            for k, v in _layernorm(sb, d, B, stat).items():
                layer["ln_2 " + k] = v
            layer["ln_2 output = c_fc input"] = B * sb * d
            layer["c_fc output = GELU input"] = B * sb * f
            layer["GELU output = mlp_proj input"] = B * sb * f
        else:
            for k, v in _rmsnorm(sb, d, B, mean_saves_input).items():
                layer["mlp_norm " + k] = v
            layer["mlp_norm output = w_gate/w_up input"] = B * sb * d
            if experts:
                # models.LlamaBlock._moe: fp32 router probabilities (softmax output), top-k's
                # int64 indices; per routed row (sb x top_k rows, dropless): nonzero's (row, slot)
                # int64 pair, the gathered input, the SwiGLU's four tensors, the down output and
                # the cast routing weight (kept by the weighting multiply), and the weighted
                # output (kept by index_add, whose backward formula names its source).
                rows = sb * top_k
                layer["router probabilities (fp32 softmax output)"] = F32 * sb * experts
                layer["top-k indices (int64)"] = INDEX * sb * top_k
                layer["nonzero (token, slot) per routed row (int64 pair)"] = 2 * INDEX * rows
                layer["gathered expert inputs"] = B * rows * d
                for name in ("gate output = SiLU input", "SiLU output", "up output", "SiLU*up = w_down input"):
                    layer["experts " + name] = B * rows * expert_ff
                layer["experts down output (kept by the weighting)"] = B * rows * d
                layer["routing weight per row, cast to B"] = B * rows
                layer["weighted expert output (index_add source)"] = B * rows * d
                for name in ("gate output = SiLU input", "SiLU output", "up output", "SiLU*up = w_down input"):
                    layer["shared experts " + name] = B * sb * shared * expert_ff
            else:
                layer["gate output = SiLU input"] = B * sb * f
                layer["SiLU output"] = B * sb * f
                layer["up output"] = B * sb * f
                layer["SiLU*up = w_down input"] = B * sb * f
        if dropout:
            layer["MLP residual dropout mask"] = mask * sb * d

    model = {"token ids (embedding)": INDEX * sb}
    if dropout:
        model["embedding dropout mask"] = mask * sb * d
    if arch == "llama" and recompute != "full":
        model["RoPE cos and sin tables"] = 2 * s * (rope if mla else dh) * B
    if arch == "gpt2":
        for k, v in _layernorm(sb, d, B, stat).items():
            model["final LayerNorm " + k] = v
    else:
        for k, v in _rmsnorm(sb, d, B, mean_saves_input).items():
            model["final RMSNorm " + k] = v
    model["final norm output = LM head input"] = B * sb * d
    model["log_softmax output (fp32 logits)"] = F32 * sb * V
    model["targets (nll_loss)"] = INDEX * sb
    model["nll_loss total_weight (0-dim fp32)"] = F32
    return ActivationTerms(per_layer=layer, model=model, layers=layers)
