// Every figure stays finite at both ends of every field's accepted range (core/model/validation.h),
// alone and all together, on every GPU and recipe: no inf, nan or null reaches a user.
#include "fuzz/reportchecks.h"
#include "core/model/recipe.h"
#include "testsupport.h"
#include "core/model/validation.h"

#include <array>
#include <functional>

using namespace napkin;

namespace {

using Edit = std::function<void(Scenario &)>;

/// A llama shape (no learned-position bound on the sequence) that every edit below keeps valid.
Scenario base()
{
    Scenario s = test::presetScenario("llama2-7b");
    s.seqLen = 4096;
    return s;
}

void smallest(Scenario &s)
{
    s.model = ModelShape{Arch::Llama, 1, 1, 1, 1, 1, 1, 1, false};
    s.seqLen = 1;
    s.microBatch = 1;
    s.tokens = limits::minTokens;
    s.gpus = 1;
    s.utilizationFraction = limits::minMfu;
    s.pricePerGpuHourUsd = 0;
}

void largest(Scenario &s)
{
    s.model = ModelShape{Arch::Llama, limits::maxLayers, limits::maxDModel, limits::maxHeads, limits::maxHeads,
                         limits::maxDFf, limits::maxVocab, limits::maxPositions, false};
    s.seqLen = limits::maxSeqLen;
    s.microBatch = limits::maxMicroBatch;
    s.tokens = limits::maxTokens;
    s.gpus = limits::maxGpus;
    s.utilizationFraction = limits::minMfu;  // the slowest run: the largest time, cost and energy
    s.pricePerGpuHourUsd = limits::maxPriceUsd;
}

} // namespace

Q_DECLARE_METATYPE(Edit)

class TestExtremes final : public QObject
{
    Q_OBJECT

private slots:
    void finiteAtEveryEnd_data()
    {
        QTest::addColumn<Edit>("edit");
        using L = std::int64_t;
        const auto row = [](const char *name, Edit e) { QTest::newRow(name) << e; };
        row("layers 1", [](Scenario &s) { s.model.layers = 1; });
        row("layers max", [](Scenario &s) { s.model.layers = limits::maxLayers; });
        row("d_model max", [](Scenario &s) { s.model.dModel = limits::maxDModel; });
        row("heads max", [](Scenario &s) { s.model.dModel = 8192; s.model.heads = limits::maxHeads; s.model.kvHeads = 8; });
        row("d_ff 1", [](Scenario &s) { s.model.dFf = 1; });
        row("d_ff max", [](Scenario &s) { s.model.dFf = limits::maxDFf; });
        row("vocab 1", [](Scenario &s) { s.model.vocab = 1; });
        row("vocab max", [](Scenario &s) { s.model.vocab = limits::maxVocab; });
        row("seq_len 1", [](Scenario &s) { s.seqLen = 1; });
        row("seq_len max", [](Scenario &s) { s.seqLen = limits::maxSeqLen; });
        row("batch max", [](Scenario &s) { s.microBatch = limits::maxMicroBatch; });
        row("tokens 1", [](Scenario &s) { s.tokens = limits::minTokens; });
        row("tokens max", [](Scenario &s) { s.tokens = limits::maxTokens; });
        row("gpus max", [](Scenario &s) { s.gpus = limits::maxGpus; });
        row("mfu min", [](Scenario &s) { s.utilizationFraction = limits::minMfu; });
        row("mfu max", [](Scenario &s) { s.utilizationFraction = limits::maxMfu; });
        row("utilisation basis mfu", [](Scenario &s) { s.utilizationBasis = UtilizationBasis::Mfu; });
        row("mfu basis, max, 6ND", [](Scenario &s) {
            s.utilizationBasis = UtilizationBasis::Mfu;
            s.utilizationFraction = limits::maxMfu;
            s.flopsBasis = FlopsBasis::SixND;
        });
        row("price 0", [](Scenario &s) { s.pricePerGpuHourUsd = 0; });
        row("price max", [](Scenario &s) { s.pricePerGpuHourUsd = limits::maxPriceUsd; });
        row("params 1", [](Scenario &s) { s.paramsOverride = L{1}; });
        row("params max", [](Scenario &s) { s.paramsOverride = limits::maxParams; });
        row("everything smallest", smallest);
        row("everything largest", largest);
        row("everything largest, gpt2", [](Scenario &s) {
            largest(s);
            s.model.arch = Arch::Gpt2;
            s.model.tied = true;
        });
        row("everything largest, params given", [](Scenario &s) {
            largest(s);
            s.paramsOverride = limits::maxParams;
        });
        row("everything smallest, params given, mfu basis, 6ND", [](Scenario &s) {
            smallest(s);
            s.paramsOverride = 1;
            s.utilizationBasis = UtilizationBasis::Mfu;
            s.flopsBasis = FlopsBasis::SixND;
        });
    }

    void finiteAtEveryEnd()
    {
        QFETCH(Edit, edit);
        // Every GPU and recipe; recompute, activation model, FlashAttention and ZeRO stage
        // cycle with the counter so that each combination of those occurs too.
        int counter = 0;
        for (const GpuSpec &gpu : test::catalog().gpus)
            for (const Recipe &recipe : recipes())
                for (int repeat = 0; repeat < 2; ++repeat, ++counter) {
                    Scenario s = base();
                    edit(s);
                    s.gpuId = gpu.id;
                    s.recipeId = recipe.id;
                    s.recompute = std::array{Recompute::None, Recompute::Selective, Recompute::Full}[counter % 3];
                    s.activationModel = counter % 2 ? ActivationModel::PyTorch : ActivationModel::Korthikanti;
                    s.zeroStage = counter % 4;
                    s.flashAttention = counter % 5 < 2;
                    const auto report = computeReport(s, test::catalog());
                    // A GPU without a peak for the recipe's dtypes (TPUs for the fp32 recipes: Google
                    // lists only bf16; an A100 for FP8) is refused on the recipe, never timed at
                    // another dtype's rate.
                    if (!hasRecipePeaks(gpu, recipe)) {
                        QVERIFY2(!report.ok(), qPrintable(gpu.id + QLatin1Char('/') + recipe.id));
                        QCOMPARE(report.refusal().field, QStringLiteral("recipe"));
                        continue;
                    }
                    // MFU 100% with recomputation means more than 100% HFU: refused, by that rule.
                    if (!report.ok() && s.utilizationBasis == UtilizationBasis::Mfu && s.recompute != Recompute::None
                        && s.utilizationFraction == limits::maxMfu && report.refusal().field == QLatin1String("mfu")
                        && report.refusal().problem.contains(QLatin1String("HFU")))
                        continue;
                    QVERIFY2(report.ok(), qPrintable(report.refusalMessage()));
                    const QString problem = checks::reportProblem(*report, test::catalog());
                    QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1 / %2 / zero %3: %4")
                                                               .arg(gpu.id, recipe.id).arg(s.zeroStage).arg(problem)));
                }
    }

    // One step past either end is refused, naming the field.
    void refusedJustOutside_data()
    {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<QString>("field");
        QTest::newRow("mfu below the floor") << Edit([](Scenario &s) { s.utilizationFraction = limits::minMfu / 2; }) << QStringLiteral("mfu");
        QTest::newRow("mfu above 1") << Edit([](Scenario &s) { s.utilizationFraction = 1.0000001; }) << QStringLiteral("mfu");
        QTest::newRow("tokens below 1") << Edit([](Scenario &s) { s.tokens = 0.5; }) << QStringLiteral("tokens");
        QTest::newRow("tokens above max") << Edit([](Scenario &s) { s.tokens = limits::maxTokens * 2; }) << QStringLiteral("tokens");
        QTest::newRow("price negative") << Edit([](Scenario &s) { s.pricePerGpuHourUsd = -1; }) << QStringLiteral("price");
        QTest::newRow("layers above max") << Edit([](Scenario &s) { s.model.layers = limits::maxLayers + 1; }) << QStringLiteral("layers");
        QTest::newRow("gpus 0") << Edit([](Scenario &s) { s.gpus = 0; }) << QStringLiteral("gpus");
    }

    void refusedJustOutside()
    {
        QFETCH(Edit, edit);
        QFETCH(QString, field);
        Scenario s = base();
        edit(s);
        const auto e = validateScenario(s);
        QVERIFY(e);
        QCOMPARE(e->field, field);
    }
};

QTEST_GUILESS_MAIN(TestExtremes)
#include "tst_extremes.moc"
