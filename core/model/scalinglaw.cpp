#include "core/model/scalinglaw.h"

#include <array>
#include <cmath>

namespace napkin {

namespace {

constexpr std::array<ScalingLawInfo, 4> kLaws = {{
    {ScalingLaw::Besiroglu2024, "besiroglu2024", "Besiroglu et al. 2024",
     "Besiroglu, Erdil, Barnett & You 2024, Chinchilla Scaling: A replication attempt (arXiv 2404.10102)"},
    {ScalingLaw::Hoffmann2022, "hoffmann2022", "Hoffmann et al. 2022",
     "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models (arXiv 2203.15556), approach 3"},
    {ScalingLaw::Dubey2024, "dubey2024", "Llama 3 (Dubey et al. 2024)",
     "Dubey et al. 2024, The Llama 3 Herd of Models (arXiv 2407.21783), Section 3.2.1: D = A C^alpha fitted on "
     "Meta's own isoFLOP runs, alpha = 0.537, A = 0.299 (Figure 3's fitted line; the text rounds them to 0.53, 0.29)"},
    {ScalingLaw::TokensPerParam, "tokens-per-param", "Tokens per parameter",
     "a fixed ratio D = r N; Hoffmann et al. 2022's Chinchilla: 1.4T tokens for 70B parameters, r = 20"},
}};

// Besiroglu et al. 2024: their re-fit of Hoffmann et al.'s approach 3 to the 240 runs they
// reconstructed from Hoffmann et al.'s Figure 4 (the paper's estimates; the same to the
// digits shown in epoch-research/analyzing-chinchilla, data_analysis.ipynb).
constexpr LossCoefficients kBesiroglu{1.8172, 482.01, 2085.43, 0.3478, 0.3658,
                                      "Besiroglu et al. 2024 (arXiv 2404.10102), re-fitted E, A, B, alpha, beta"};
// Hoffmann et al. 2022, Appendix D.2 prints E = 1.69, A = 406.4, B = 410.7, alpha = 0.34,
// beta = 0.28; those are rounded, and the rounding moves the optimum (Besiroglu et al. 2024).
// These are the unrounded values of the paper's TeX source (E = exp(0.5267228)), as Besiroglu
// et al. and their notebook use them; they give Hoffmann et al.'s own projection of 40B
// parameters at Gopher's 5.76e23 FLOPs (Figure 4's caption), where the rounded ones give 32B.
constexpr LossCoefficients kHoffmann{1.6934, 406.4, 410.7, 0.33917084, 0.2849083,
                                     "Hoffmann et al. 2022 (arXiv 2203.15556), Appendix D.2, unrounded (TeX source)"};
// Dubey et al. 2024, Section 3.2.1 and Figure 3: the optimal training tokens D* = A C^alpha.
constexpr double kDubeyA = 0.299;
constexpr double kDubeyAlpha = 0.537;

} // namespace

std::span<const ScalingLawInfo> scalingLaws()
{
    return kLaws;
}

const ScalingLawInfo &scalingLawInfo(ScalingLaw law)
{
    for (const ScalingLawInfo &info : kLaws)
        if (info.law == law)
            return info;
    return kLaws.front();
}

std::optional<ScalingLaw> scalingLawFromId(const QString &id)
{
    for (const ScalingLawInfo &info : kLaws)
        if (id == QLatin1String(info.id))
            return info.law;
    return std::nullopt;
}

QStringList scalingLawIds()
{
    QStringList out;
    for (const ScalingLawInfo &info : kLaws)
        out << QLatin1String(info.id);
    return out;
}

const LossCoefficients &lossCoefficients(ScalingLaw law)
{
    return law == ScalingLaw::Hoffmann2022 ? kHoffmann : kBesiroglu;
}

double predictedLoss(const LossCoefficients &c, double params, double tokens)
{
    return c.e + c.a / std::pow(params, c.alpha) + c.b / std::pow(tokens, c.beta);
}

std::optional<double> tokensForLoss(const LossCoefficients &c, double params, double loss)
{
    const double left = loss - c.e - c.a / std::pow(params, c.alpha);
    if (!(left > 0))
        return std::nullopt;
    return std::pow(c.b / left, 1 / c.beta);
}

namespace {
double frontierG(const LossCoefficients &c)
{
    return std::pow(c.alpha * c.a / (c.beta * c.b), 1 / (c.alpha + c.beta));
}
} // namespace

Allocation computeOptimal(const LossCoefficients &c, double flops)
{
    const double n = frontierG(c) * std::pow(flops / 6, c.beta / (c.alpha + c.beta));
    return {n, flops / (6 * n)};
}

Allocation optimalForParams(const LossCoefficients &c, double params)
{
    // Invert N = G (C/6)^a for C/6, then D = (C/6) / N.
    const double perSix = std::pow(params / frontierG(c), (c.alpha + c.beta) / c.beta);
    return {params, perSix / params};
}

Allocation computeOptimal(ScalingLaw law, double flops, double tokensPerParam)
{
    if (law == ScalingLaw::TokensPerParam) {
        const double n = std::sqrt(flops / (6 * tokensPerParam));
        return {n, tokensPerParam * n};
    }
    if (law == ScalingLaw::Dubey2024) {
        const double d = kDubeyA * std::pow(flops, kDubeyAlpha);
        return {flops / (6 * d), d};
    }
    return computeOptimal(lossCoefficients(law), flops);
}

Allocation inferenceOptimal(const LossCoefficients &c, double loss, double inferenceTokens, double upperParams)
{
    // The smallest model that reaches the loss at all, where D runs to infinity.
    const double floorParams = std::pow(c.a / (loss - c.e), 1 / c.alpha);
    const auto total = [&](double logN) {
        const double n = std::exp(logN);
        const auto d = tokensForLoss(c, n, loss);
        return d ? 6 * n * *d + 2 * n * inferenceTokens : INFINITY;
    };
    double lo = std::log(floorParams), hi = std::log(upperParams);
    // Golden-section search: the total falls from infinity at the floor to its minimum, then
    // rises (6ND is minimal at the compute-optimal N, and 2NT rises with N).
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    double f1 = total(x1), f2 = total(x2);
    for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = total(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = total(x2);
        }
    }
    const double n = std::exp((lo + hi) / 2);
    return {n, tokensForLoss(c, n, loss).value_or(INFINITY)};
}

} // namespace napkin
