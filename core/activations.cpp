#include "activations.h"

namespace napkin {

namespace {

constexpr double kFp32 = 4;
constexpr double kInt64 = 8;

} // namespace

ActivationBreakdown korthikantiActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    ActivationBreakdown a;
    const double sq = static_cast<double>(s.seqLen);
    const double b = microBatch;
    const double h = static_cast<double>(s.model.dModel);
    const double heads = static_cast<double>(s.model.heads);
    const double v = static_cast<double>(s.model.vocab);
    const double B = recipe.activationBytes;
    const double sbh = sq * b * h;
    const double scores = heads * sq * sq * b;  // a s^2 b elements
    // Korthikanti et al. 2022, Section 4.1: of the 34 sbh bytes, 32 are 2-byte tensors and 2
    // are the attention- and MLP-output dropout masks (1 byte); of the 5as^2b, 4 are the softmax
    // output and dropout output (2-byte each) and 1 the attention dropout mask. At B bytes:
    const double linearTerms = sbh * (16 * B + 2);
    const double squareTerms = scores * (2 * B + 1);
    double perLayer = 0;
    switch (s.recompute) {
    case Recompute::None:
        // FlashAttention (Dao et al. 2022) stores no s x s tensor, only the fp32 log-sum-exp
        // per query and head (4asb); Q, K, V and the output are already among the 34 sbh.
        perLayer = s.flashAttention ? linearTerms + kFp32 * heads * sq * b : linearTerms + squareTerms;
        break;
    case Recompute::Selective:
        perLayer = linearTerms;  // Table 2: selective recompute drops the as^2b terms
        break;
    case Recompute::Full:
        perLayer = B * sbh;  // Table 2: only each layer's input (2sbh at 2 bytes)
        break;
    }
    a.perLayer = perLayer;
    a.layers = perLayer * static_cast<double>(s.model.layers);
    // Section 4.3: final norm input 2sbh and LM head input 2sbh (at B bytes), fp32 logits 4sbv.
    a.outputLayer = 2 * B * sbh + kFp32 * sq * b * v;
    return a;
}

ActivationBreakdown pytorchActivationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    // Every term is named in tests/validation/ACTIVATION_MODEL.md ("Every term, and which
    // autograd node saves it"); sb tokens, B activation bytes, F = 4 for what runs in fp32.
    const bool llama = s.model.arch == Arch::Llama;
    const double sb = static_cast<double>(s.seqLen) * microBatch;
    const double d = static_cast<double>(s.model.dModel);
    const double f = static_cast<double>(s.model.dFf);
    const double a = static_cast<double>(s.model.heads);
    const double V = static_cast<double>(s.model.vocab);
    const double B = recipe.activationBytes;
    const double F = kFp32;
    const double drop = s.dropout && !s.flashAttention ? 1 : 0;  // FlashAttention regenerates its mask
    const double residualDrop = s.dropout ? 1 : 0;
    const double scores = a * static_cast<double>(s.seqLen) * sb;  // a s^2 b

    // LayerNorm keeps its input and fp32 mean/rstd (CUDA kernel); RMSNorm as Meta writes it keeps
    // x.float(), rsqrt(mean(x^2)) and the normalised tensor cast back.
    const double norm = llama ? F * sb * d + F * sb + B * sb * d : B * sb * d + 2 * F * sb;

    double perLayer = 0;
    if (s.recompute == Recompute::Full) {
        perLayer = B * sb * d;  // the checkpoint's input
    } else {
        perLayer = 2 * norm + 2 * B * sb * d     // two norms and their outputs (projection inputs)
                   + 3 * B * sb * d              // q, and k and v expanded to every query head
                   + B * sb * d                  // attention context = output projection input
                   + 2 * residualDrop * sb * d;  // residual dropout masks
        perLayer += llama ? 4 * B * sb * f       // SwiGLU: gate, SiLU, up, SiLU x up
                          : 2 * B * sb * f;      // GELU input and output
        if (s.recompute == Recompute::None) {
            if (s.flashAttention)
                perLayer += F * scores / static_cast<double>(s.seqLen);  // log-sum-exp, 4asb
            else if (!llama)
                perLayer += scores * (B + drop * (1 + B));  // softmax out (+ dropout mask and out)
            else if (drop > 0)
                perLayer += scores * (F + 1 + B);            // fp32 softmax, mask, dropout out
            else
                perLayer += scores * (B == F ? F : F + B);   // fp32 softmax (+ its cast to B)
        }
    }

    double outside = kInt64 * sb                 // token ids
                     + residualDrop * sb * d     // embedding dropout mask
                     + norm                      // final norm
                     + B * sb * d                // LM head input
                     + F * sb * V                // log-softmax of the fp32 logits
                     + kInt64 * sb + F;          // targets and nll_loss total_weight
    if (llama && s.recompute != Recompute::Full)
        outside += 2 * static_cast<double>(s.seqLen) * (d / a) * B;  // RoPE cos/sin, shared by all blocks

    ActivationBreakdown r;
    r.perLayer = perLayer;
    r.layers = perLayer * static_cast<double>(s.model.layers);
    r.outputLayer = outside;
    return r;
}

ActivationBreakdown activationBytes(const Scenario &s, const Recipe &recipe, double microBatch)
{
    if (!s.includeActivations)
        return {};
    return s.activationModel == ActivationModel::PyTorch ? pytorchActivationBytes(s, recipe, microBatch)
                                                         : korthikantiActivationBytes(s, recipe, microBatch);
}

} // namespace napkin
