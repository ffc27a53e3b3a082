// buildWorkload() and the ops outside a block's attention and MLP (embedding, head, recompute,
// multi-token prediction, optimizer); workloadblock.cpp has the block's own ops.
#include "core/workload/workloadbuilder.h"

#include "core/model/modelshape.h"

#include <algorithm>

namespace napkin {

void buildWorkload(const WorkloadInput &in, std::vector<WorkloadOp> &out)
{
    WorkloadBuilder builder(in, out);
    builder.embedding();
    // The block's ops, whose forwards recompute() runs again.
    const std::size_t layerOpsBegin = out.size();
    builder.attentionProjections();
    builder.attentionCore();
    builder.attentionOutput();
    builder.blockMlp();
    const std::size_t layerOpsEnd = out.size();
    builder.head();
    builder.recompute(layerOpsBegin, layerOpsEnd);
    builder.multiTokenPrediction();
    builder.gradientAccumulation();
    builder.optimizerStep();
}

void WorkloadBuilder::embedding()
{
    ops.region = Region::Embedding;
    if (!in.firstStage)
        return;
    // Token ids (int64) and the embedding dropout mask; the RoPE cos/sin tables that every
    // block shares (reference LLaMA). Parameters: the vocabulary-parallel token table and
    // gpt2's whole position table.
    double saved = kInt64 * sb + drop * sb * d;
    if (pytorch && llama && !full) {
        // One table pair of the rotated width: the head (or, under latent attention, its RoPE part).
        const double ropeWidth = in.kvLoraRank > 0 ? in.qkRopeDim : in.queryWidth / in.heads;
        saved += 2 * sq * ropeWidth * B;
    }
    const double params = V * d / tp + (gpt2 ? in.maxPositions * d : 0);
    ops.add("embedding lookup", Phase::Forward, OpKind::Elementwise, 1, kEmbeddingFlops * replicatedTokens * d, 0,
            kInt64 * T + replicatedTokens * d * (w * (gpt2 ? 2 : 1) + a), {whole(saved), params});
    ops.add("embedding lookup", Phase::Backward, OpKind::Elementwise, 1, kEmbeddingFlops * replicatedTokens * d, 0,
            replicatedTokens * d * (a + 2 * in.gradBytes));
}

void WorkloadBuilder::head()
{
    ops.region = Region::Head;
    if (!in.lastStage)
        return;
    // The final norm's and the LM head's inputs (Korthikanti Section 4.3: 2sbh each; the
    // reference keeps the norm's own tensors too), the fp32 logits or their log-softmax, and
    // the reference's int64 targets and nll_loss's total weight.
    ops.elementwise(llama ? "RMSNorm (final)" : "LayerNorm (final)", OpKind::Normalization, 1,
                    replicatedTokens * d, normFlops, 1, 1, normParamBytes,
                    {whole(pytorch ? pytorchNorm : B * sb * d), normParams});
    ops.highPrecision = true;  // outside the FP8 autocast (WorkloadOp::highPrecision)
    ops.matmul("LM head", 1, T, d, V / tp, {whole(B * sb * d), in.headHasOwnTable ? V * d / tp : 0});
    ops.highPrecision = false;
    crossEntropy("cross-entropy loss", 1);
}

void WorkloadBuilder::crossEntropy(const char *name, double count)
{
    // Bytes an element of the logits (tokens x vocabulary / tp), read and written by each path
    // as its code runs it (a: the logits' bf16 bytes, F: fp32):
    //  - unfused (Megatron-LM's vocab_parallel_cross_entropy on output.float(), megatron/mpu/
    //    cross_entropy.py 2020-2022 and megatron/core/tensor_parallel/cross_entropy.py): cast
    //    (a + F), max (F), subtract in place (2F), exp in place (2F), sum (F), divide in place
    //    (2F); backward: multiply by the incoming gradient in place (2F), autograd's cast back
    //    (F + a). Six kernels forward, two backward.
    //  - fused (Megatron-Core's fused_vocab_parallel_cross_entropy, the 'native' impl of
    //    --cross-entropy-loss-fusion; megatron/core/fusions/fused_cross_entropy.py): the cast
    //    and max in one compiled kernel (a + F), exp(x - max) in place (2F), the row sum (F), the
    //    divide in place (2F); backward the same two passes as unfused. Four kernels, then two.
    //  - te (Transformer Engine's parallel_cross_entropy, transformer_engine/pytorch/triton/
    //    cross_entropy.py): an online-softmax pass reading the bf16 logits (a), a second reading
    //    them again and writing the gradient in their place (2a); backward one in-place multiply
    //    by the incoming per-token gradient (2a). It keeps that bf16 gradient, not an fp32 softmax.
    // The per-row gathers, the target mask and the all-reduces over TP are per token, left out.
    const double logits = T * V / tp;
    double forward = a + 9 * F, backward = 3 * F + a, forwardLaunches = 6, backwardLaunches = 2, kept = F;
    switch (in.crossEntropy) {
    case CrossEntropy::Unfused: break;
    case CrossEntropy::Fused:
        forward = a + 6 * F;
        forwardLaunches = 4;
        break;
    case CrossEntropy::TransformerEngine:
        forward = 3 * a;
        backward = 2 * a;
        forwardLaunches = 2;
        backwardLaunches = 1;
        kept = a;
        break;
    }
    const std::size_t before = out.size();
    ops.add(name, Phase::Forward, OpKind::Loss, count, kCrossEntropyFlops * logits, 0, forward * logits,
            {split(kept * sb * V) + (pytorch ? whole(kInt64 * sb + F) : 0), 0});
    ops.add(name, Phase::Backward, OpKind::Loss, count, 2 * kCrossEntropyFlops * logits, 0, backward * logits);
    if (out.size() == before + 2) {
        out[before].launches = forwardLaunches;
        out[before + 1].launches = backwardLaunches;
    }
}

void WorkloadBuilder::recompute(std::size_t layerOpsBegin, std::size_t layerOpsEnd)
{
    // Narayanan et al. 2021, eq. 3: full recompute runs every block's forward again (not the
    // LM head: checkpoints wrap the blocks). Korthikanti et al. 2022, Appendix A: selective
    // reruns QK^T, the softmax and attention over V (Megatron-Core reruns FlashAttention's kernel
    // so too, though it keeps no scores); Megatron-Core's other modules rerun their own forward ops.
    ops.region = Region::Block;
    const auto chosen = [this](RecomputeModule module) {
        switch (module) {
        case RecomputeModule::CoreAttention: return in.recomputeCoreAttention;
        case RecomputeModule::Norm: return in.recomputeNorms;
        case RecomputeModule::MoeActivation: return in.recomputeMoeActivation;
        case RecomputeModule::MlaUpProjection: return in.recomputeMlaUpProjection;
        case RecomputeModule::None: break;
        }
        return false;
    };
    for (std::size_t i = layerOpsBegin; i < layerOpsEnd; ++i) {
        const WorkloadOp op = out[i];  // a copy: push_back may reallocate
        if (op.phase != Phase::Forward)
            continue;
        if (full || chosen(op.module)) {
            ops.fusedAttention = op.fusedAttention;
            ops.attentionHeadDim = op.attentionHeadDim;
            ops.attentionLength = op.attentionLength;
            const std::size_t before = out.size();
            ops.highPrecision = op.highPrecision;
            ops.add(op.name, Phase::Recompute, op.kind, op.count, op.flops, op.matmulFlops, op.bytes);
            if (out.size() > before) {
                out.back().launches = op.launches;  // a ring step's kernels run again too
                out.back().module = op.module;
            }
            ops.fusedAttention = false;
            ops.highPrecision = false;
        }
    }
}

void WorkloadBuilder::multiTokenPrediction()
{
    if (!in.lastStage || in.mtpDepth <= 0)
        return;
    // DeepSeek-V3 Section 2.2 (HF layer 61): each multi-token prediction module normalises the
    // next tokens' embeddings and the hidden states (enorm, hnorm), projects their 2d-wide
    // concatenation to d (eh_proj), runs one more block (built below as the model's own,
    // recompute included) and the shared head after its own norm, with a loss of its own.
    // Beside the head on the last stage, as Megatron-LM places it.
    ops.region = Region::Head;
    const double depth = in.mtpDepth;
    ops.elementwise("MTP norms (enorm, hnorm)", OpKind::Normalization, 2 * depth, replicatedTokens * d, normFlops, 1,
                    1, normParamBytes, {normSaved, normParams});
    ops.matmul("MTP projection (eh_proj)", depth, T, 2 * d, d / tp, {whole(2 * B * sb * d), 2 * d * d / tp});
    ops.elementwise("MTP head norm", OpKind::Normalization, depth, replicatedTokens * d, normFlops, 1, 1,
                    normParamBytes, {normSaved, normParams});
    ops.highPrecision = true;  // the shared output layer, outside the FP8 autocast
    ops.matmul("MTP head (shared)", depth, T, d, V / tp, {whole(B * sb * d), 0});
    ops.highPrecision = false;
    crossEntropy("MTP loss", depth);
    WorkloadInput block = in;
    block.layers = depth;
    block.denseLayers = 0;  // the model's last kind of block (DeepSeek-V3: a MoE block)
    block.firstStage = false;
    block.lastStage = false;
    block.optimizerParams = 0;
    block.mtpDepth = 0;
    thread_local std::vector<WorkloadOp> blockOps;
    buildWorkload(block, blockOps);
    for (WorkloadOp op : blockOps) {
        if (op.region != Region::Block)
            continue;  // its empty optimizer step
        op.region = Region::Head;
        out.push_back(op);
    }
}

void WorkloadBuilder::optimizerStep()
{
    // One optimizer update over this GPU's shard: reads and writes the optimizer state, reads
    // the grad, writes the compute copy of the weights.
    ops.region = Region::Step;
    const double p = in.optimizerParams;
    ops.add(in.optimizerFlopsPerParam == 15 ? "AdamW step" : "SGD step", Phase::Optimizer, OpKind::Optimizer, 1,
            p * in.optimizerFlopsPerParam, 0, p * (2 * in.optimizerBytes + in.gradBytes + w));
}

void WorkloadBuilder::gradientAccumulation()
{
    // Unfused, a micro-batch after the first writes its weight gradients apart (in the weights'
    // dtype) and PyTorch's AccumulateGrad adds them to the earlier ones': it reads both and
    // writes the sum, one add per parameter (Megatron-LM's 2021 data parallelism, its
    // param_hook's main_grad.add_, does the same). Fused, the GEMM adds as it writes: nothing here.
    if (in.unfusedAccumulations <= 0)
        return;
    double params = 0;
    double tensors = 0;  // one add per op that owns parameters
    for (const WorkloadOp &op : out) {
        if (op.phase == Phase::Forward && op.params > 0) {
            params += op.count * op.params;
            tensors += op.count;
        }
    }
    ops.region = Region::Step;
    ops.add("gradient accumulation", Phase::Backward, OpKind::Elementwise, in.unfusedAccumulations, params, 0,
            params * (w + 2 * in.gradBytes));
    out.back().launches = tensors;
}

} // namespace napkin
