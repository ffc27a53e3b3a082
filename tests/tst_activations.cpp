// Napkin counts activations from the workload: each forward op's saved bytes. This test holds
// that count to the closed forms it replaced (Korthikanti et al. 2022, Table 2 and Section
// 4.3, generalised; the reference decoders' term-by-term count) on every combination of
// family, activation model, recompute, FlashAttention, dropout, precision and layout.
#include "testsupport.h"

#include "activationclosedform.h"
#include "core/workload/activations.h"
#include "core/model/layout.h"
#include "core/model/recipe.h"

using namespace napkin;

class TestActivations final : public QObject
{
    Q_OBJECT

private slots:
    void workloadMatchesClosedForm()
    {
        struct Split {
            std::int64_t tp, cp;
            bool sp;
        };
        const Split layouts[] = {{1, 1, false}, {4, 1, false}, {4, 1, true}, {1, 2, false}, {2, 2, true}};
        int checked = 0;
        for (const char *preset : {"gpt2-small", "gpt2-xl", "llama2-7b", "llama3-8b"}) {
            for (ActivationModel model : {ActivationModel::Korthikanti, ActivationModel::PyTorch}) {
                for (Recompute recompute : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                    for (bool flash : {false, true}) {
                        for (bool dropout : {false, true}) {
                            for (const char *recipe : {"bf16-mixed-adamw", "fp32-adamw"}) {
                                for (const Split &split : layouts) {
                                    Scenario s = test::presetScenario(preset);
                                    s.seqLen = 512;
                                    s.activationModel = model;
                                    s.recompute = recompute;
                                    s.flashAttention = flash;
                                    s.dropout = dropout;
                                    s.tp = split.tp;
                                    s.cp = split.cp;
                                    s.sequenceParallel = split.sp;
                                    s.gpus = split.tp * split.cp;
                                    const Recipe r = *findRecipe(QLatin1String(recipe));
                                    const ActivationBreakdown ops = activationBytes(s, r, 3);
                                    const ActivationBreakdown closed = closedform::onDevice(
                                        closedform::activationTerms(s, r, 3), deriveLayout(s, 8), s.model.layers);
                                    const QString where = QStringLiteral("%1 %2 %3 flash %4 dropout %5 %6 tp %7 cp %8 sp %9")
                                                              .arg(QLatin1String(preset), activationModelName(model),
                                                                   recomputeName(recompute))
                                                              .arg(flash).arg(dropout).arg(QLatin1String(recipe))
                                                              .arg(split.tp).arg(split.cp).arg(split.sp);
                                    QVERIFY2(test::near(ops.perLayer, closed.perLayer, 1e-12),
                                             qPrintable(where + QStringLiteral(": per layer %1 vs %2").arg(ops.perLayer).arg(closed.perLayer)));
                                    QVERIFY2(test::near(ops.embedding, closed.embedding, 1e-12),
                                             qPrintable(where + QStringLiteral(": embedding %1 vs %2").arg(ops.embedding).arg(closed.embedding)));
                                    QVERIFY2(test::near(ops.head, closed.head, 1e-12),
                                             qPrintable(where + QStringLiteral(": head %1 vs %2").arg(ops.head).arg(closed.head)));
                                    ++checked;
                                }
                            }
                        }
                    }
                }
            }
        }
        QCOMPARE(checked, 4 * 2 * 3 * 2 * 2 * 2 * 5);
    }

    void workloadParamsMatchTheCount()
    {
        // The ops' parameters add up to the model's count (countParams, checked against the
        // published totals and PyTorch), on one GPU and across TP ranks' blocks.
        for (const ModelPreset &p : test::catalog().presets) {
            Scenario s = test::presetScenario(p.id.toLatin1().constData());
            const WorkloadSums sums = blockSums(s, *findRecipe(QStringLiteral("bf16-mixed-adamw")), 1);
            const ParamBreakdown count = countParams(s.model);
            // Mixture-of-Experts models may keep dense blocks first (DeepSeek-V3): two kinds of block.
            const auto dense = static_cast<double>(denseBlocks(s));
            const double total = sums.paramsPerBlock * (static_cast<double>(s.model.layers) - dense)
                                 + sums.paramsPerDenseBlock * dense + sums.paramsEmbedding + sums.paramsHead;
            // The multi-token prediction modules (DeepSeek-V3) sit beside the head: the workload
            // holds their parameters too, which the count reports apart.
            QCOMPARE(total, static_cast<double>(count.total + count.mtp));
            QCOMPARE(sums.paramsPerBlock, static_cast<double>(count.perLayer.total()));
            QCOMPARE(sums.paramsPerDenseBlock, static_cast<double>(dense > 0 ? count.denseLayer.total() : count.perLayer.total()));
            QCOMPARE(count.total, p.publishedParams);
        }
    }
};

QTEST_GUILESS_MAIN(TestActivations)
#include "tst_activations.moc"
