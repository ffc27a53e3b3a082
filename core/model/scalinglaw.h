#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <span>

namespace napkin {

/// The rules that turn a training budget C into a model size N and a token count D, with
/// C = 6ND (Kaplan et al. 2020, Section 2.1; the convention Hoffmann et al. 2022 minimise under).
enum class ScalingLaw { Besiroglu2024, Hoffmann2022, Dubey2024, TokensPerParam };

/// One law's name ("besiroglu2024"), window label, and where it comes from.
struct ScalingLawInfo {
    ScalingLaw law;
    const char *id;
    const char *label;
    const char *source;
};
std::span<const ScalingLawInfo> scalingLaws();
const ScalingLawInfo &scalingLawInfo(ScalingLaw law);
std::optional<ScalingLaw> scalingLawFromId(const QString &id);
QStringList scalingLawIds();

/// Hoffmann et al. 2022's parametric loss, L(N, D) = E + A / N^alpha + B / D^beta, in nats
/// per token on their (MassiveText) data.
struct LossCoefficients {
    double e = 0, a = 0, b = 0, alpha = 0, beta = 0;
    const char *source = "";
};

/// The loss coefficients a law predicts with. dubey2024 (a fit of tokens, not of loss) and
/// tokens-per-param have none of their own and use besiroglu2024's, the corrected fit of
/// Hoffmann et al.'s form.
const LossCoefficients &lossCoefficients(ScalingLaw law);

/// L(N, D). N and D must be > 0.
double predictedLoss(const LossCoefficients &c, double params, double tokens);

/// The tokens a model of `params` needs to reach `loss`: D = (B / (loss - E - A/N^alpha))^(1/beta);
/// nullopt when that model cannot reach it however long it trains.
std::optional<double> tokensForLoss(const LossCoefficients &c, double params, double loss);

/// A model size and its training tokens.
struct Allocation {
    double params = 0;
    double tokens = 0;
    double flops() const { return 6 * params * tokens; }
    double tokensPerParam() const { return tokens / params; }
};

/// The compute-optimal allocation of `flops` = 6ND under a loss L(N, D): Hoffmann et al. 2022
/// eq. (4), N = G (C/6)^a, D = G^-1 (C/6)^b with G = (alpha A / (beta B))^(1/(alpha+beta)),
/// a = beta / (alpha+beta), b = alpha / (alpha+beta).
Allocation computeOptimal(const LossCoefficients &c, double flops);
/// The point of that frontier with `params` parameters: what Sardana et al. 2023 call a
/// "Chinchilla-NB" model (N = G (C/6)^a solved for C).
Allocation optimalForParams(const LossCoefficients &c, double params);
/// A law's compute-optimal allocation: the two loss fits as above; dubey2024: D = A C^alpha,
/// N = C / 6D; tokens-per-param: D = r N, so N = sqrt(C / (6 r)).
Allocation computeOptimal(ScalingLaw law, double flops, double tokensPerParam);

/// Sardana et al. 2023 (arXiv 2401.00448, Section 2): the model that reaches `loss` with the
/// fewest training plus inference FLOPs, 6ND + 2N x inferenceTokens, under the law's loss.
/// Minimised over N by golden-section search on ln N between the smallest model that can reach
/// the loss and `upperParams` (the compute-optimal N: inference only ever pulls N down).
Allocation inferenceOptimal(const LossCoefficients &c, double loss, double inferenceTokens, double upperParams);

} // namespace napkin
