// The `napkin` command line: options resolve into a Scenario; bad input exits 2 with one line.
#include "commandline.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace napkin;

namespace {

QStringList split(const QString &line)
{
    return line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

struct Run {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

Run runNapkin(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(NAPKIN_BINARY), args);
    p.waitForFinished(30000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void accepted()
    {
        const ParseOutcome o = parseCommandLine(
            split(QStringLiteral("report --preset llama2-7b --layers 16 --seq-len 2048 --tokens 1.5T --gpu a100-80gb-sxm "
                                 "--gpus 64 --zero 3 --recipe fp32-adamw --recompute selective --flash --mfu 0.5 --price 1.1 --json")),
            test::catalog());
        QVERIFY2(o.command, qPrintable(o.error));
        const Command &c = *o.command;
        QCOMPARE(c.verb, Verb::Report);
        QVERIFY(c.json);
        QCOMPARE(c.scenario.model.layers, qint64(16));      // flag after --preset overrides it
        QCOMPARE(c.scenario.model.dModel, qint64(4096));    // the rest from the preset
        QCOMPARE(c.scenario.tokens, 1.5e12);
        QCOMPARE(c.scenario.gpus, qint64(64));
        QCOMPARE(c.scenario.zeroStage, 3);
        QCOMPARE(c.scenario.recompute, Recompute::Selective);
        QVERIFY(c.scenario.flashAttention);
        QCOMPARE(c.scenario.mfuFraction, 0.5);
    }

    void shapeFlagBeforePresetStillWins()
    {
        const ParseOutcome o = parseCommandLine(split(QStringLiteral("report --layers 2 --preset gpt2-xl")), test::catalog());
        QVERIFY(o.command);
        QCOMPARE(o.command->scenario.model.layers, qint64(2));
        QCOMPARE(o.command->scenario.model.dModel, qint64(1600));
    }

    void scenarioFileThenFlags()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"layers": 6, "batch": 2})");
        f.close();
        const ParseOutcome o = parseCommandLine({QStringLiteral("report"), QStringLiteral("--batch=5"),
                                                 QStringLiteral("--scenario"), path}, test::catalog());
        QVERIFY2(o.command, qPrintable(o.error));
        QCOMPARE(o.command->scenario.model.layers, qint64(6));
        QCOMPARE(o.command->scenario.microBatch, qint64(5));
    }

    // Qt's standard options reach QApplication instead of being refused (-platform, -style, ...).
    void qtStandardArguments()
    {
        const ParseOutcome o = parseCommandLine(split(QStringLiteral("-platform xcb -qwindowgeometry 1280x720+0+0 -style=fusion -reverse --layers 6")),
                                                test::catalog());
        QVERIFY2(o.command, qPrintable(o.error));
        QCOMPARE(o.command->verb, Verb::Window);
        QCOMPARE(o.command->scenario.model.layers, qint64(6));
        QVERIFY(!parseCommandLine(split(QStringLiteral("-bogus")), test::catalog()).command);
    }

    void rejected_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("--layers 0") << QStringLiteral("report --layers 0") << QStringLiteral("--layers: must be an integer from 1 to 1024 (got '0')");
        QTest::newRow("--tokens abc") << QStringLiteral("report --tokens abc") << QStringLiteral("--tokens: must be a count from 1 to 1e16");
        QTest::newRow("--gpu nosuch") << QStringLiteral("report --gpu nosuch") << QStringLiteral("--gpu: must be one of v100-sxm2-32gb");
        QTest::newRow("heads not dividing d_model") << QStringLiteral("report --heads 7") << QStringLiteral("--heads: must divide d_model = 768 evenly (got 7)");
        QTest::newRow("kv heads not dividing heads") << QStringLiteral("report --kv-heads 5") << QStringLiteral("--kv-heads: must divide heads = 12");
        QTest::newRow("overflowing layers") << QStringLiteral("report --layers 1e30") << QStringLiteral("--layers: must be an integer from 1 to 1024");
        QTest::newRow("overflowing tokens") << QStringLiteral("report --tokens 1e400") << QStringLiteral("--tokens:");
        QTest::newRow("tokens beyond range") << QStringLiteral("report --tokens 1e20") << QStringLiteral("--tokens:");
        QTest::newRow("params overflow") << QStringLiteral("report --params 1e300") << QStringLiteral("--params: must be an integer from 1 to");
        QTest::newRow("mfu 0") << QStringLiteral("report --mfu 0") << QStringLiteral("--mfu: must be a number from 0.001 to 1");
        // Tiny MFU made the time, cost and energy infinite: the floor keeps them finite.
        QTest::newRow("mfu 1e-300") << QStringLiteral("report --mfu 1e-300") << QStringLiteral("--mfu: must be a number from 0.001 to 1");
        QTest::newRow("mfu denormal") << QStringLiteral("report --mfu 5e-324") << QStringLiteral("--mfu: must be a number from 0.001 to 1");
        QTest::newRow("mfu nan") << QStringLiteral("report --mfu nan") << QStringLiteral("--mfu:");
        QTest::newRow("zero 5") << QStringLiteral("report --zero 5") << QStringLiteral("--zero: must be an integer from 0 to 3");
        QTest::newRow("unknown recipe") << QStringLiteral("report --recipe fp8") << QStringLiteral("--recipe: must be one of bf16-mixed-adamw");
        QTest::newRow("unknown preset") << QStringLiteral("report --preset gpt5") << QStringLiteral("--preset: must be one of gpt2-small");
        QTest::newRow("unknown activation model") << QStringLiteral("report --activation-model exact") << QStringLiteral("--activation-model: must be korthikanti or pytorch");
        QTest::newRow("unknown option") << QStringLiteral("report --bogus") << QStringLiteral("unknown option '--bogus'");
        QTest::newRow("missing value") << QStringLiteral("report --layers") << QStringLiteral("--layers: needs a value");
        QTest::newRow("unknown verb") << QStringLiteral("frobnicate") << QStringLiteral("unknown command 'frobnicate'");
        QTest::newRow("seq beyond gpt2 positions") << QStringLiteral("report --seq-len 4096") << QStringLiteral("--seq-len: must be at most max_positions = 1024");
        QTest::newRow("bad size") << QStringLiteral("export --out x --size 10x10") << QStringLiteral("--size: must be WIDTHxHEIGHT");
        QTest::newRow("export without --out") << QStringLiteral("export") << QStringLiteral("--out:");
        QTest::newRow("missing scenario file") << QStringLiteral("report --scenario /nonexistent/s.json") << QStringLiteral("--scenario: cannot read /nonexistent/s.json");
        QTest::newRow("empty scenario") << QStringLiteral("report --scenario=") << QStringLiteral("--scenario: needs a value (got an empty one)");
        QTest::newRow("option as a value") << QStringLiteral("export --out --json") << QStringLiteral("--out: needs a value, not the option '--json'");
        QTest::newRow("option as a scenario") << QStringLiteral("report --scenario --json") << QStringLiteral("--scenario: needs a value, not the option '--json'");
        QTest::newRow("scenario is a device") << QStringLiteral("report --scenario /dev/zero") << QStringLiteral("--scenario: cannot read /dev/zero: it is a device, not a regular file");
        QTest::newRow("scenario is a folder") << QStringLiteral("report --scenario /tmp") << QStringLiteral("--scenario: cannot read /tmp: it is a folder, not a regular file");
        QTest::newRow("flag with value") << QStringLiteral("report --flash=yes") << QStringLiteral("--flash: takes no value");
    }

    void rejected()
    {
        QFETCH(QString, args);
        QFETCH(QString, message);
        const ParseOutcome o = parseCommandLine(split(args), test::catalog());
        QVERIFY(!o.command);
        QVERIFY2(o.error.startsWith(message), qPrintable(o.error));
    }

    // The real binary: status 2 and exactly one line on stderr, nothing on stdout.
    void processRejects_data()
    {
        QTest::addColumn<QString>("args");
        QTest::newRow("--layers 0") << QStringLiteral("report --layers 0");
        QTest::newRow("--tokens abc") << QStringLiteral("report --tokens abc");
        QTest::newRow("--gpu nosuch") << QStringLiteral("report --gpu nosuch");
        QTest::newRow("--heads 5") << QStringLiteral("report --heads 5");
        QTest::newRow("corrupt scenario") << QStringLiteral("report --scenario CORRUPT");
        QTest::newRow("unwritable export") << QStringLiteral("export --out /proc/napkin-cannot-write");
    }

    void processRejects()
    {
        QFETCH(QString, args);
        QTemporaryDir dir;
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.json"));
        QFile f(corrupt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"layers\": ");
        f.close();
        const Run r = runNapkin(split(args.replace(QStringLiteral("CORRUPT"), corrupt)));
        QCOMPARE(r.status, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("napkin: ") && r.err.count('\n') == 1, r.err.constData());
    }

    void processSourceDocument()
    {
        const Run r = runNapkin(split(QStringLiteral("report --params 124e6 --tokens 300e9 --no-activations")));
        QCOMPARE(r.status, 0);
        for (const char *figure : {"2.232e+20", "0.248 GB", "1.488 GB", "1.984 GB", "1.125e+11"})
            QVERIFY2(r.out.contains(figure), figure);
        const Run j = runNapkin(split(QStringLiteral("report --params 124e6 --tokens 300e9 --no-activations --json")));
        QCOMPARE(j.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(o[QStringLiteral("flops")][QStringLiteral("training_6nd")].toDouble(), 2.232e20);
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("per_gpu")][QStringLiteral("total")].toDouble(), 1.984e9);
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("by_zero_stage")].toArray().size(), 4);
        QVERIFY(o[QStringLiteral("roofline")][QStringLiteral("ops")].toArray().size() > 20);
    }

    void processCatalogs()
    {
        QVERIFY(runNapkin({QStringLiteral("presets")}).out.contains("124,439,808"));
        QVERIFY(runNapkin({QStringLiteral("gpus")}).out.contains("h100-sxm"));
        QVERIFY(runNapkin({QStringLiteral("--version")}).out.startsWith("napkin "));
        QVERIFY(runNapkin({QStringLiteral("--help")}).out.contains("--seq-len"));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
