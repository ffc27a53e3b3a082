#pragma once

#include "core/model/scenario.h"

namespace napkin {

/// Bytes of one element of a number format: bf16 and fp16 2, fp8 and int8 1, int4 0.5 (scales
/// apart: weightBytesPerParam()).
double elementBytes(NumberFormat f);

/// Bytes one quantized weight takes with its share of the scales. bf16, fp16: 2. fp8: 1, with
/// one fp32 scale per tensor, which Napkin leaves out (vLLM's per-tensor fp8 checkpoints).
/// int8 and int4: the weight's bits, plus per group of `group` weights an fp16 scale and a zero
/// point of the weight's bits (the GPTQ checkpoint layout: scales fp16 [in / group, out], qzeros
/// packed [in / group, out]; Frantar et al. 2022; AutoGPTQ): bits / 8 + (2 + bits / 8) / group.
double weightBytesPerParam(NumberFormat f, double group);

/// K and V bytes one token adds to one block's cache, over all of the model's KV heads:
/// 2 x kv_heads x head_dim x bytes (HF past_key_values: a key and a value tensor of shape
/// (batch, kv_heads, tokens, head_dim) per block; MHA when kv_heads = heads, MQA at 1, GQA
/// between, Ainslie et al. 2023). Multi-head latent attention caches the compressed latent and
/// the decoupled RoPE key instead: (kv_lora_rank + qk_rope_dim) x bytes (DeepSeek-V2, Section
/// 2.1.2; DeepSeek-V3's inference/model.py, attn_impl "absorb": kv_cache and pe_cache).
double kvBytesPerTokenPerBlock(const ModelShape &m, double bytes);

/// The whole model's cache for one token: every block, no window cap.
double kvBytesPerToken(const ModelShape &m, double bytes);

/// The blocks that attend over the whole context; the rest keep only the last `slidingWindow`
/// tokens. Blocks globalEvery, 2 x globalEvery, ... are global (HF layer_types), as
/// attentionPairs() counts them.
double globalBlocks(const ModelShape &m);

/// One sequence's cache at `context` tokens, windows applied: each windowed block keeps
/// min(context, window) tokens (Mistral's rolling buffer cache, Jiang et al. 2023, Section 2;
/// Gemma 3's local layers), each global block all of them.
double kvBytesPerSequence(const ModelShape &m, double bytes, double context);

/// Tokens one block keeps on average over the model's blocks at `context`: between
/// min(context, window) and context.
double keptTokensPerBlock(const ModelShape &m, double context);

/// vLLM's block arithmetic (vllm/v1/core/kv_cache_utils.py): the pool holds floor(pool / block)
/// blocks of `blockBytes`, a block being kv_block_tokens tokens of every block of the model on
/// one GPU.
double kvBlocks(double poolBytes, double blockBytes);

/// The blocks one sequence of `context` tokens takes, in those units: ceil(context / block
/// tokens) for a model of global blocks (vLLM's cdiv(max_model_len, block_size)); a windowed
/// block's share takes ceil(min(context, window) / block tokens).
double blocksPerSequence(const ModelShape &m, double context, double blockTokens);

} // namespace napkin
