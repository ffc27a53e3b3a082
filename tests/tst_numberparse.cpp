// Counts as people type them on the command line.
#include "core/io/numberparse.h"
#include "core/text/units.h"

#include <QTest>

using namespace napkin;

class TestNumberParse final : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        // The forms the issue names for --tokens, plus the document's 124_000_000 style.
        QTest::newRow("300e9") << QStringLiteral("300e9") << 300e9;
        QTest::newRow("3e11") << QStringLiteral("3e11") << 3e11;
        QTest::newRow("300B") << QStringLiteral("300B") << 300e9;
        QTest::newRow("1.5T") << QStringLiteral("1.5T") << 1.5e12;
        QTest::newRow("124M") << QStringLiteral("124M") << 124e6;
        QTest::newRow("7k") << QStringLiteral("7k") << 7e3;
        QTest::newRow("124_000_000") << QStringLiteral("124_000_000") << 124e6;
        QTest::newRow("1,000") << QStringLiteral("1,000") << 1000.0;
        QTest::newRow("1,234,567.5") << QStringLiteral("1,234,567.5") << 1234567.5;
        QTest::newRow("300_000M") << QStringLiteral("300_000M") << 300e9;
    }

    void accepted()
    {
        QFETCH(QString, text);
        QFETCH(double, value);
        const auto v = parseCount(text);
        QVERIFY(v);
        QCOMPARE(*v, value);
    }

    void rejected_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("abc") << QStringLiteral("abc");
        QTest::newRow("empty") << QString();
        QTest::newRow("negative") << QStringLiteral("-5");
        QTest::newRow("nan") << QStringLiteral("nan");
        QTest::newRow("inf") << QStringLiteral("inf");
        QTest::newRow("overflow 1e400") << QStringLiteral("1e400");
        QTest::newRow("suffix only") << QStringLiteral("B");
        QTest::newRow("two suffixes") << QStringLiteral("1BT");
        // A separator that does not group thousands: a decimal comma, a typo.
        QTest::newRow("decimal comma 12,5e6") << QStringLiteral("12,5e6");
        QTest::newRow("1,2") << QStringLiteral("1,2");
        QTest::newRow("0,8") << QStringLiteral("0,8");
        QTest::newRow("leading comma") << QStringLiteral(",100");
        QTest::newRow("1,0000") << QStringLiteral("1,0000");
    }

    void rejected()
    {
        QFETCH(QString, text);
        QVERIFY(!parseCount(text));
    }

    // Capacities as sold and in SI units: an "80 GB" H100 exposes 80 GiB (NVIDIA H100 datasheet;
    // nvidia-smi), which is 85.9 GB.
    void capacityText_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("H100 80 GiB") << 80.0 * 1024 * 1024 * 1024 << QStringLiteral("80 GiB (85.9 GB)");
        QTest::newRow("A100 40 GiB") << 40.0 * 1024 * 1024 * 1024 << QStringLiteral("40 GiB (42.9 GB)");
        QTest::newRow("not whole GiB") << 141e9 << QStringLiteral("141.0 GB");
    }

    void capacityText()
    {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(fmt::capacity(bytes), text);
    }

    // Figures at the ends of the sliders keep to their columns and never read as zero.
    void figuresAtTheEnds_data()
    {
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dollars") << fmt::usd(718.4) << QStringLiteral("$718");
        QTest::newRow("cents") << fmt::usd(0.39) << QStringLiteral("$0.39");
        QTest::newRow("under a cent") << fmt::usd(0.0031) << QStringLiteral("$0.0031");
        QTest::newRow("under a tenth of a cent") << fmt::usd(0.000532) << QStringLiteral("$0.00053");
        QTest::newRow("a rate in millions") << fmt::number(1757832.4) << QStringLiteral("1,757,832");
        QTest::newRow("a rate past a billion") << fmt::number(2.5e9) << QStringLiteral("2.50e+09");
        QTest::newRow("a million") << fmt::usd(1606989) << QStringLiteral("$1,606,989");
        QTest::newRow("a billion") << fmt::usd(1.0654837e9) << QStringLiteral("$1.065B");
        QTest::newRow("years") << fmt::duration(3810.0 * 365 * 86400) << QStringLiteral("3,810 years");
        QTest::newRow("myriad years") << fmt::duration(12345.0 * 365 * 86400) << QStringLiteral("12.35K years");
        // Counts past trillions in powers of ten: "1Q" read as quetta (1e30) to SI readers.
        QTest::newRow("trillions") << fmt::compactCount(300e12) << QStringLiteral("300T");
        QTest::newRow("the token slider's end") << fmt::compactCount(1e15) << QStringLiteral("1e15");
        QTest::newRow("past it") << fmt::compactCount(1.674e15) << QStringLiteral("1.674e15");
        QTest::newRow("one GPU") << fmt::counted(1, "GPU", "GPUs") << QStringLiteral("1 GPU");
        // A share that would round to nothing keeps two significant digits (a tiny model's MFU).
        QTest::newRow("tiny share") << fmt::percent(0.000316, 1) << QStringLiteral("0.032%");
        QTest::newRow("share") << fmt::percent(0.128, 1) << QStringLiteral("12.8%");
        QTest::newRow("none") << fmt::percent(0, 1) << QStringLiteral("0.0%");
        QTest::newRow("GPUs") << fmt::counted(16384, "GPU", "GPUs") << QStringLiteral("16,384 GPUs");
    }

    void figuresAtTheEnds()
    {
        QFETCH(QString, shown);
        QFETCH(QString, expected);
        QCOMPARE(shown, expected);
    }

    void repeatsText()
    {
        QCOMPARE(fmt::repeats(80), QStringLiteral("80"));
        QCOMPARE(fmt::repeats(2.5), QStringLiteral("2.5"));
        QCOMPARE(fmt::repeats(1200), QStringLiteral("1,200"));
    }

    void integers()
    {
        QCOMPARE(*parseInteger(QStringLiteral("12"), 1, 1024), qint64(12));
        QCOMPARE(*parseInteger(QStringLiteral("1e3"), 1, 1024), qint64(1000));
        QVERIFY(!parseInteger(QStringLiteral("0"), 1, 1024));
        QVERIFY(!parseInteger(QStringLiteral("1.5"), 1, 1024));
        QVERIFY(!parseInteger(QStringLiteral("1e30"), 1, 1024));
    }
};

QTEST_GUILESS_MAIN(TestNumberParse)
#include "tst_numberparse.moc"
