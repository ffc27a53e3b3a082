#pragma once

#include "core/model/scenario.h"

namespace napkin {

/// Forward-pass matmul FLOPs for one sequence of s tokens, by matmul, over all layers.
/// Matmul (m x k)(k x n) = 2mkn (one multiply and one add per term; source document).
struct ForwardMatmulFlops {
    double qkv = 0;
    double attentionScores = 0;  ///< Q K^T over the full s x s (or the causal half)
    double attentionValues = 0;  ///< softmax(QK^T) V, same extent as the scores
    double outputProjection = 0;
    double mlp = 0;
    double lmHead = 0;
    /// Of qkv, multi-head latent attention's up projections (Q up, or the whole Q projection
    /// without a Q latent, and KV up): what recomputing them reruns.
    double latentUp = 0;
    double total() const
    {
        return qkv + attentionScores + attentionValues + outputProjection + mlp + lmHead;
    }
};

/// Training FLOPs under each convention the field uses.
struct FlopsReport {
    /// Kaplan et al. 2020 / the source document: 6 * N_non-embedding * D.
    double training6nd = 0;
    /// Every forward matmul x 3 (backward = 2 x forward: grads w.r.t. inputs and weights),
    /// attention over the full s x s as Megatron-LM and PaLM count it. Matmuls only: norms,
    /// softmax, activations, residuals and the optimizer are left out (they appear in the
    /// roofline op table and in `nonMatmulPerStep`).
    double trainingDetailed = 0;
    /// The same with the attention matmuls halved for a causal mask (FlashAttention-2 style).
    double trainingDetailedCausal = 0;
    /// The forward matmuls recomputation runs again, over the whole run (full: every block,
    /// not the LM head; selective: QK^T and PV, Korthikanti et al. 2022, Appendix A).
    double recompute = 0;
    /// Hardware FLOPs: trainingChosenDetailed() + recompute. MFU counts model FLOPs only
    /// (Chowdhery et al. 2022, App. B); HFU counts these.
    double trainingHardware = 0;
    double perTokenDetailed = 0;  ///< trainingDetailed / tokens, per the chosen causal setting
    double perToken6nd = 0;       ///< 6 N
    double tokensPerStep = 0;     ///< global batch x seq_len
    double perStepDetailed = 0;   ///< all GPUs together, one optimizer step
    double attentionShare = 0;    ///< fraction of trainingDetailed spent in QK^T and PV
    /// Multi-token prediction modules, apart from the above: every forward matmul of their
    /// 2d x d projection, block and (shared) LM head, x 3, per token and over the run.
    double perTokenMtp = 0;
    double trainingMtp = 0;
    ForwardMatmulFlops forwardPerSequence;  ///< per the chosen causal setting
    /// The detailed figure the time estimate uses: causal-halved when the scenario asks.
    double trainingChosenDetailed() const;
    bool causal = false;
};

ForwardMatmulFlops forwardMatmulFlops(const ModelShape &m, double seqLen, bool causal);
FlopsReport computeFlops(const Scenario &s);

} // namespace napkin
