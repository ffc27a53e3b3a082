// The source document's three functions (CS336 lecture 2, "PyTorch & Resource Accounting"),
// executed for N = 124e6 non-embedding parameters and D = 300e9 tokens. Napkin must print the
// same figures at the same precision.
#include "testsupport.h"
#include "core/model/lectureexample.h"
#include "core/text/units.h"

using namespace napkin;

class TestSourceDocument final : public QObject
{
    Q_OBJECT

private:
    static Report documentReport()
    {
        // N = 124e6 given, D = 300e9, activations left at 0, no reserved memory (lectureexample.h)
        return test::reportFor(lectureExample());
    }

private slots:
    void trainingFlops()
    {
        const Report r = documentReport();
        // transformer_training_flops(124e6, 300e9) = (2N + 4N) * D
        QCOMPARE(r.flops.training6nd, 2.232e20);
        QCOMPARE(fmt::sci(r.flops.training6nd), QStringLiteral("2.232e+20"));
    }

    void memory_data()
    {
        QTest::addColumn<QString>("component");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("printedGb");
        // Source document, executed output: Memory (GB): {...}
        QTest::newRow("params (bf16, 2 B)") << QStringLiteral("params") << 248e6 << QStringLiteral("0.248 GB");
        QTest::newRow("grads (bf16, 2 B)") << QStringLiteral("grads") << 248e6 << QStringLiteral("0.248 GB");
        QTest::newRow("optimizer+master (fp32, 12 B)") << QStringLiteral("optimizer") << 1488e6 << QStringLiteral("1.488 GB");
        QTest::newRow("activations (left at 0)") << QStringLiteral("activations") << 0.0 << QStringLiteral("0.000 GB");
        QTest::newRow("total") << QStringLiteral("total") << 1984e6 << QStringLiteral("1.984 GB");
    }

    void memory()
    {
        QFETCH(QString, component);
        QFETCH(double, bytes);
        QFETCH(QString, printedGb);
        const MemoryBreakdown m = documentReport().memory.perGpu;
        const double actual = component == QLatin1String("params")   ? m.params
                              : component == QLatin1String("grads")  ? m.grads
                              : component == QLatin1String("optimizer") ? m.optimizerAndMasterWeights
                              : component == QLatin1String("activations") ? m.activations
                                                                          : m.total();
        QCOMPARE(actual, bytes);
        QCOMPARE(fmt::bytesIn(actual, ByteUnit::GB), printedGb);
    }

    void illustrativeIntensity()
    {
        // arithmetic_intensity(flops, mem["total"]) printed as 1.125e+11
        const Report r = documentReport();
        QCOMPARE(fmt::sci(r.illustrativeIntensity), QStringLiteral("1.125e+11"));
        QCOMPARE(r.illustrativeIntensity, 2.232e20 / 1.984e9);
    }

    void timeUsesSixNd()
    {
        // The document's time question is 6ND over the GPUs' delivered FLOP/s.
        const Report r = documentReport();
        QCOMPARE(r.time.trainingFlops, 2.232e20);
        QCOMPARE(r.memory.perGpu.reserved, 0.0);
    }

    void optimizerIsSixTimesParams()
    {
        // "the optimizer-and-master-weights term (1.488 GB) is exactly 6x the params term"
        const MemoryBreakdown m = documentReport().memory.perGpu;
        QCOMPARE(m.optimizerAndMasterWeights, 6 * m.params);
    }
};

QTEST_GUILESS_MAIN(TestSourceDocument)
#include "tst_sourcedocument.moc"
