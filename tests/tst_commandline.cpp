// The `napkin` command line: options resolve into a Scenario; bad input exits 2 with one line.
#include "app/commandline.h"
#include "core/report/trackrecord.h"
#include "testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
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

/// The same command as text, and as JSON (its --json output parsed): a test reads each.
struct TextAndJson {
    Run text;
    QJsonObject json;
};

TextAndJson runTextAndJson(const QString &args)
{
    return {runNapkin(split(args)), QJsonDocument::fromJson(runNapkin(split(args + QStringLiteral(" --json"))).out).object()};
}

} // namespace

class TestCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void accepted()
    {
        const auto o = parseCommandLine(
            split(QStringLiteral("report --preset llama2-7b --layers 16 --seq-len 2048 --tokens 1.5T --gpu a100-80gb-sxm "
                                 "--gpus 64 --zero 3 --recipe fp32-adamw --recompute selective --flash --mfu 0.5 --price 1.1 --json")),
            test::catalog());
        QVERIFY2(o.ok(), qPrintable(o.refusalMessage()));
        const Command &c = *o;
        QCOMPARE(c.verb, Verb::Report);
        QVERIFY(c.json);
        QCOMPARE(c.scenario.model.layers, qint64(16));      // flag after --preset overrides it
        QCOMPARE(c.scenario.model.dModel, qint64(4096));    // the rest from the preset
        QCOMPARE(c.scenario.tokens, 1.5e12);
        QCOMPARE(c.scenario.gpus, qint64(64));
        QCOMPARE(c.scenario.zeroStage, 3);
        QCOMPARE(c.scenario.recompute, Recompute::Selective);
        QVERIFY(c.scenario.flashAttention);
        QCOMPARE(c.scenario.utilizationFraction, 0.5);
    }

    void utilizationBasis_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<int>("basis");
        QTest::addColumn<double>("fraction");
        // Chowdhery et al. 2022, App. B: HFU counts recomputation, MFU does not; HFU is the default.
        QTest::newRow("default") << QStringLiteral("report") << int(UtilizationBasis::Hfu) << 0.4;
        QTest::newRow("mfu") << QStringLiteral("report --utilization-basis mfu --mfu 0.3") << int(UtilizationBasis::Mfu) << 0.3;
        QTest::newRow("hfu") << QStringLiteral("report --mfu 0.55 --utilization-basis=hfu") << int(UtilizationBasis::Hfu) << 0.55;
    }

    void utilizationBasis()
    {
        QFETCH(QString, args);
        QFETCH(int, basis);
        QFETCH(double, fraction);
        const auto o = parseCommandLine(split(args), test::catalog());
        QVERIFY2(o.ok(), qPrintable(o.refusalMessage()));
        QCOMPARE(int(o->scenario.utilizationBasis), basis);
        QCOMPARE(o->scenario.utilizationFraction, fraction);
    }

    // Full recomputation runs every block's forward again (Narayanan et al. 2021, eq. 3): under
    // HFU it takes longer by exactly the hardware/model FLOPs ratio; under MFU it takes as long.
    void recomputeTimeThroughJson_data()
    {
        QTest::addColumn<QString>("basis");
        QTest::addColumn<bool>("slower");
        QTest::newRow("hfu") << QStringLiteral("hfu") << true;
        QTest::newRow("mfu") << QStringLiteral("mfu") << false;
    }

    void recomputeTimeThroughJson()
    {
        QFETCH(QString, basis);
        QFETCH(bool, slower);
        const auto report = [&](const char *recompute) {
            const Run r = runNapkin(split(QStringLiteral("report --json --mfu 0.4 --utilization-basis %1 --recompute %2")
                                              .arg(basis, QLatin1String(recompute))));
            return QJsonDocument::fromJson(r.out).object();
        };
        const QJsonObject none = report("none")[QStringLiteral("time")].toObject();
        const QJsonObject fullReport = report("full");
        const QJsonObject full = fullReport[QStringLiteral("time")].toObject();
        const double ratio = full[QStringLiteral("hardware_flops")].toDouble() / full[QStringLiteral("training_flops")].toDouble();
        // A fourth pass over the blocks, none over the LM head: 1 + (forward - head) / (3 forward).
        const QJsonObject fw = fullReport[QStringLiteral("flops")][QStringLiteral("forward_per_sequence")].toObject();
        const double forward = fw[QStringLiteral("total")].toDouble(), head = fw[QStringLiteral("lm_head")].toDouble();
        QVERIFY2(test::near(ratio, 1 + (forward - head) / (3 * forward), 1e-12), qPrintable(QString::number(ratio)));
        QVERIFY(ratio > 1.2);
        const double seconds = full[QStringLiteral("seconds")].toDouble() / none[QStringLiteral("seconds")].toDouble();
        QVERIFY2(test::near(seconds, slower ? ratio : 1.0, 1e-12), qPrintable(QString::number(seconds)));
        QCOMPARE(full[QStringLiteral("utilization_basis")].toString(), basis);
        QCOMPARE(full[slower ? QStringLiteral("hfu") : QStringLiteral("mfu")].toDouble(), 0.4);
        QVERIFY(test::near(full[QStringLiteral("hfu")].toDouble() / full[QStringLiteral("mfu")].toDouble(), ratio, 1e-12));
        QCOMPARE(none[QStringLiteral("hfu")].toDouble(), none[QStringLiteral("mfu")].toDouble());
    }

    // The one rule for dependent shape fields (core/model/shapefix.h deriveDependentFields), read back
    // from what the binary prints with --json.
    void shapeDefaults_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("dFf");
        QTest::addColumn<bool>("tied");
        // GPT-2: d_ff = 4 x d_model (Radford et al. 2019; Hugging Face GPT2Config n_inner=None ->
        // 4 * n_embd), multi-head attention, head tied to the token embedding.
        QTest::newRow("gpt2 d72 h6") << QStringLiteral("--arch gpt2 --d-model 72 --heads 6") << qint64(6) << qint64(288) << true;
        QTest::newRow("default family d72 h6") << QStringLiteral("--d-model 72 --heads 6") << qint64(6) << qint64(288) << true;
        QTest::newRow("gpt2-xl width 1600") << QStringLiteral("--arch gpt2 --d-model 1600 --heads 25") << qint64(25) << qint64(6400) << true;
        // Llama: SwiGLU d_ff = 2/3 x 4d rounded up to a multiple of 256 (Meta's reference
        // multiple_of); Llama 2 configs: 4096 -> 11008, 5120 -> 13824, tie_word_embeddings=false.
        QTest::newRow("llama d4096 = Llama 2 7B") << QStringLiteral("--arch llama --d-model 4096 --heads 32") << qint64(32) << qint64(11008) << false;
        QTest::newRow("llama d5120 = Llama 2 13B") << QStringLiteral("--arch llama --d-model 5120 --heads 40") << qint64(40) << qint64(13824) << false;
        QTest::newRow("llama d72 h6") << QStringLiteral("--arch llama --d-model 72 --heads 6") << qint64(6) << qint64(256) << false;
        QTest::newRow("llama on gpt2-small width") << QStringLiteral("--preset gpt2-small --arch llama") << qint64(12) << qint64(2048) << false;
        QTest::newRow("width on a llama preset") << QStringLiteral("--preset llama2-7b --d-model 72 --heads 6") << qint64(6) << qint64(256) << false;
        // Given fields are honoured over the rule, whatever the order.
        QTest::newRow("llama explicit") << QStringLiteral("--d-ff 14336 --kv-heads 8 --tied --arch llama --d-model 4096 --heads 32")
                                        << qint64(8) << qint64(14336) << true;
        QTest::newRow("gpt2 explicit") << QStringLiteral("--arch gpt2 --d-model 72 --heads 6 --kv-heads 2 --d-ff 100 --untied")
                                       << qint64(2) << qint64(100) << false;
        // Nothing given that they depend on: the preset's own values stay (Llama 3 8B: GQA 8, 14336).
        QTest::newRow("llama3-8b untouched") << QStringLiteral("--preset llama3-8b --layers 4") << qint64(8) << qint64(14336) << false;
    }

    void shapeDefaults()
    {
        QFETCH(QString, args);
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, dFf);
        QFETCH(bool, tied);
        const Run r = runNapkin(QStringList{QStringLiteral("report"), QStringLiteral("--json")} + split(args));
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject s = QJsonDocument::fromJson(r.out).object()[QStringLiteral("scenario")].toObject();
        QCOMPARE(s[QStringLiteral("kv_heads")].toInteger(), kvHeads);
        QCOMPARE(s[QStringLiteral("d_ff")].toInteger(), dFf);
        QCOMPARE(s[QStringLiteral("tied")].toBool(), tied);
    }

    void price_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<double>("price");  // 0: none
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("source");
        // The chosen GPU's catalog price unless --price is given.
        QTest::newRow("H100 SXM: Lambda pricing page, 3.99 (2026-09-20)") << QString() << 3.99 << QStringLiteral("catalog")
                                                                         << QStringLiteral("https://lambda.ai/pricing");
        QTest::newRow("T4: Modal pricing page, 0.5904 (2026-05-07)") << QStringLiteral("--gpu t4") << 0.5904
                                                                    << QStringLiteral("catalog") << QStringLiteral("https://modal.com/pricing");
        QTest::newRow("--price overrides the catalog") << QStringLiteral("--gpu t4 --price 1.1") << 1.1 << QStringLiteral("scenario") << QString();
        QTest::newRow("MI250X: no dated price in the catalog") << QStringLiteral("--gpu mi250x") << 0.0 << QStringLiteral("none") << QString();
    }

    void price()
    {
        QFETCH(QString, args);
        QFETCH(double, price);
        QFETCH(QString, origin);
        QFETCH(QString, source);
        const Run r = runNapkin(QStringList{QStringLiteral("report"), QStringLiteral("--json")} + split(args));
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        const QJsonObject t = root[QStringLiteral("time")].toObject();
        QCOMPARE(t[QStringLiteral("price_origin")].toString(), origin);
        QVERIFY2(t[QStringLiteral("price_source")].toString().contains(source), qPrintable(t[QStringLiteral("price_source")].toString()));
        if (price > 0) {
            QCOMPARE(t[QStringLiteral("price_per_gpu_hour_usd")].toDouble(), price);
            QVERIFY(test::near(t[QStringLiteral("cost_usd")].toDouble(), t[QStringLiteral("gpu_hours")].toDouble() * price, 1e-12));
        } else {
            QVERIFY(t[QStringLiteral("price_per_gpu_hour_usd")].isNull());
            QVERIFY(t[QStringLiteral("cost_usd")].isNull());
        }
        // The scenario records only a price the user set: null follows the GPU.
        const QJsonValue set = root[QStringLiteral("scenario")].toObject()[QStringLiteral("price")];
        QCOMPARE(set.isNull(), origin != QLatin1String("scenario"));
        // The text report names the price and where it came from.
        const Run text = runNapkin(QStringList{QStringLiteral("report")} + split(args));
        QVERIFY2(text.status == 0, text.err.constData());
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(price > 0 ? out.contains(source.isEmpty() ? QStringLiteral("set by the user") : source)
                           : out.contains(QLatin1String("no price")),
                 qPrintable(out));
    }

    void fp32OnTpuRefused()
    {
        // Google lists only bf16 for TPU v5e: an fp32 recipe there has no peak and is refused.
        const Run r = runNapkin(split(QStringLiteral("report --gpu tpu-v5e --recipe fp32-adamw")));
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("recipe") && r.err.contains("lists no fp32 peak"), r.err.constData());
    }

    // --preset shortens a longer gpt2 sequence to the position table, as the window's preset
    // chooser does (core/model/shapefix.h applyPreset); a --seq-len given too is checked, as a typed
    // value is in the window.
    void presetSequence_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<qint64>("seqLen");  // 0: refused
        QTest::addColumn<QString>("error");
        QTest::newRow("gpt2-small, typed 4096") << QStringLiteral("--preset gpt2-small --seq-len 4096") << qint64(0)
                                                << QStringLiteral("napkin: --seq-len: must be at most max_positions = 1024");
        QTest::newRow("gpt2-small, order swapped") << QStringLiteral("--seq-len 4096 --preset gpt2-small") << qint64(0)
                                                   << QStringLiteral("napkin: --seq-len: must be at most max_positions = 1024");
        QTest::newRow("4096 from a file, then gpt2-small") << QStringLiteral("--scenario LONG --preset gpt2-small") << qint64(1024) << QString();
        QTest::newRow("gpt2-small with a longer table") << QStringLiteral("--preset gpt2-small --seq-len 4096 --max-pos 4096")
                                                        << qint64(4096) << QString();
        QTest::newRow("shorter kept") << QStringLiteral("--seq-len 512 --preset gpt2-small") << qint64(512) << QString();
        QTest::newRow("llama: no position table") << QStringLiteral("--preset llama2-7b --seq-len 4096") << qint64(4096) << QString();
    }

    void presetSequence()
    {
        QFETCH(QString, args);
        QFETCH(qint64, seqLen);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString longFile = dir.filePath(QStringLiteral("long.json"));
        QFile f(longFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"arch": "llama", "max_positions": 4096, "seq_len": 4096})");
        f.close();
        const Run r = runNapkin(QStringList{QStringLiteral("report"), QStringLiteral("--json")}
                                + split(args.replace(QStringLiteral("LONG"), longFile)));
        if (seqLen == 0) {
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.startsWith(error.toUtf8()), r.err.constData());
            return;
        }
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject s = QJsonDocument::fromJson(r.out).object()[QStringLiteral("scenario")].toObject();
        QCOMPARE(s[QStringLiteral("seq_len")].toInteger(), seqLen);
    }

    // `napkin export --scale 2` draws the same layout at twice the pixels, as the dialog's 2x.
    void exportScale_data()
    {
        QTest::addColumn<int>("scale");
        QTest::newRow("1x") << 1;
        QTest::newRow("2x") << 2;
    }

    void exportScale()
    {
        QFETCH(int, scale);
        QTemporaryDir dir;
        const Run r = runNapkin(split(QStringLiteral("export --size 640x400 --scale %1 --out %2").arg(scale).arg(dir.path())));
        QVERIFY2(r.status == 0, r.err.constData());
        for (const char *name : {"memory.png", "time.png", "roofline.png", "dashboard.png", "steptime.png", "layout.png"}) {
            QFile png(dir.filePath(QLatin1String(name)));
            QVERIFY(png.open(QIODevice::ReadOnly));
            // PNG: 8-byte signature, then the IHDR chunk's length and type, then width and height
            // as big-endian 32-bit integers (PNG specification, section 11.2.2).
            const QByteArray head = png.read(24);
            QCOMPARE(head.mid(12, 4), QByteArray("IHDR"));
            const auto be32 = [&](int at) {
                return (quint32(quint8(head[at])) << 24) | (quint32(quint8(head[at + 1])) << 16)
                       | (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
            };
            QCOMPARE(be32(16), quint32(640 * scale));
            QCOMPARE(be32(20), quint32(400 * scale));
        }
    }

    // `napkin export --format svg|pdf` writes the same six names with the format's suffix,
    // each file of that format, and lists them; --scale is accepted and leaves an SVG as it is.
    void exportFormat_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<?xml");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF-");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG");
    }

    void exportFormat()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const Run r = runNapkin(split(QStringLiteral("export --size 640x400 --format %1 --out %2").arg(format, dir.path())));
        QVERIFY2(r.status == 0, r.err.constData());
        const QStringList listed = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(listed.size(), 7);
        QStringList names;
        for (const char *base : {"dashboard", "memory", "time", "roofline", "steptime", "layout", "budget"}) {
            const QString name = QLatin1String(base) + QLatin1Char('.') + format;
            names << name;
            QVERIFY2(listed.contains(dir.filePath(name)), qPrintable(name));
            QFile file(dir.filePath(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(name));
            QVERIFY2(file.read(magic.size()) == magic, qPrintable(name));
        }
        names.sort();
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name), names);  // nothing else, no partial files
        if (format == QLatin1String("svg")) {
            QTemporaryDir twice;
            const Run r2 = runNapkin(split(QStringLiteral("export --size 640x400 --format svg --scale 2 --out %1").arg(twice.path())));
            QVERIFY2(r2.status == 0, r2.err.constData());
            QFile one(dir.filePath(QStringLiteral("memory.svg")));
            QFile two(twice.filePath(QStringLiteral("memory.svg")));
            QVERIFY(one.open(QIODevice::ReadOnly) && two.open(QIODevice::ReadOnly));
            QCOMPARE(two.readAll(), one.readAll());
        }
    }

    // --gib and --memory-axis reach the exported memory chart as View > GiB and the Axis button.
    void exportViewOptions()
    {
        QTemporaryDir dir;
        QByteArray images[3];
        const QString variants[3] = {QString(), QStringLiteral("--memory-axis chosen"), QStringLiteral("--gib")};
        for (int i = 0; i < 3; ++i) {
            const QString out = dir.filePath(QString::number(i));
            const Run r = runNapkin(split(QStringLiteral("export --size 640x400 --out %1 %2").arg(out, variants[i])));
            QVERIFY2(r.status == 0, r.err.constData());
            QFile png(out + QStringLiteral("/memory.png"));
            QVERIFY(png.open(QIODevice::ReadOnly));
            images[i] = png.readAll();
        }
        QVERIFY(images[0] != images[1]);
        QVERIFY(images[0] != images[2]);
    }

    void shapeFlagBeforePresetStillWins()
    {
        const auto o = parseCommandLine(split(QStringLiteral("report --layers 2 --preset gpt2-xl")), test::catalog());
        QVERIFY(o.ok());
        QCOMPARE(o->scenario.model.layers, qint64(2));
        QCOMPARE(o->scenario.model.dModel, qint64(1600));
    }

    void scenarioFileThenFlags()
    {
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("s.json"), R"({"layers": 6, "batch": 2})");
        const auto o = parseCommandLine({QStringLiteral("report"), QStringLiteral("--batch=5"),
                                                 QStringLiteral("--scenario"), path}, test::catalog());
        QVERIFY2(o.ok(), qPrintable(o.refusalMessage()));
        QCOMPARE(o->scenario.model.layers, qint64(6));
        QCOMPARE(o->scenario.microBatch, qint64(5));
    }

    // A scenario file's catalog ids are refused as the file's fields, by the file's name: an
    // unknown GPU had read "--gpu: …", an option never given, and an unknown preset had been
    // shown as "custom".
    void scenarioFileIdsAreTheFiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("gpu") << QByteArray(R"({"gpu": "abc"})") << QStringLiteral("gpu");
        QTest::newRow("recipe") << QByteArray(R"({"recipe": "abc"})") << QStringLiteral("recipe");
        QTest::newRow("preset") << QByteArray(R"({"preset": "nonexistent"})") << QStringLiteral("preset");
    }

    void scenarioFileIdsAreTheFiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("s.json"), json);
        const auto o = parseCommandLine({QStringLiteral("report"), QStringLiteral("--scenario"), path}, test::catalog());
        QVERIFY(!o.ok());
        QVERIFY2(o.refusalMessage().startsWith(QStringLiteral("--scenario: %1: field \"%2\" must be one of ").arg(path, field)),
                 qPrintable(o.refusalMessage()));
    }

    // Qt's standard options reach QApplication instead of being refused (-platform, -style, ...).
    void qtStandardArguments()
    {
        const auto o = parseCommandLine(split(QStringLiteral("-platform xcb -qwindowgeometry 1280x720+0+0 -style=fusion -reverse --layers 6")),
                                                test::catalog());
        QVERIFY2(o.ok(), qPrintable(o.refusalMessage()));
        QCOMPARE(o->verb, Verb::Window);
        QCOMPARE(o->scenario.model.layers, qint64(6));
        QVERIFY(!parseCommandLine(split(QStringLiteral("-bogus")), test::catalog()).ok());
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
        QTest::newRow("memory axis") << QStringLiteral("export --out x --memory-axis some") << QStringLiteral("--memory-axis: must be all, capacity or chosen (got 'some')");
        QTest::newRow("reserved negative") << QStringLiteral("report --reserved -1") << QStringLiteral("--reserved:");
        QTest::newRow("lecture with a value") << QStringLiteral("report --lecture=1") << QStringLiteral("--lecture: takes no value");
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
        // The export dialog offers 1x and 2x; --scale takes the same range.
        QTest::newRow("scale 3") << QStringLiteral("export --out x --scale 3") << QStringLiteral("--scale: must be an integer from 1 to 2 (got '3')");
        QTest::newRow("scale 0") << QStringLiteral("export --out x --scale 0") << QStringLiteral("--scale: must be an integer from 1 to 2 (got '0')");
        QTest::newRow("scale 1.5") << QStringLiteral("export --out x --scale 1.5") << QStringLiteral("--scale: must be an integer from 1 to 2 (got '1.5')");
        QTest::newRow("scale word") << QStringLiteral("export --out x --scale big") << QStringLiteral("--scale: must be an integer from 1 to 2 (got 'big')");
        QTest::newRow("unknown utilisation basis") << QStringLiteral("report --utilization-basis tflops")
                                                   << QStringLiteral("--utilization-basis: must be hfu or mfu (got 'tflops')");
        // napkin budget: one budget, in one of four forms, and its options nowhere else.
        QTest::newRow("budget without a budget") << QStringLiteral("budget") << QStringLiteral("--flops: napkin budget needs one budget");
        QTest::newRow("budget twice") << QStringLiteral("budget --flops 1e23 --usd 5") << QStringLiteral("--usd: give one budget: --flops was given already");
        QTest::newRow("budget zero") << QStringLiteral("budget --flops 0") << QStringLiteral("--flops: must be a number above 0 (got '0')");
        QTest::newRow("budget negative hours") << QStringLiteral("budget --gpu-hours -5") << QStringLiteral("--gpu-hours: must be a number above 0");
        QTest::newRow("budget unknown law") << QStringLiteral("budget --flops 1e23 --law kaplan")
                                            << QStringLiteral("--law: must be besiroglu2024, hoffmann2022, dubey2024 or tokens-per-param (got 'kaplan')");
        QTest::newRow("budget negative inference") << QStringLiteral("budget --flops 1e23 --inference-tokens -1")
                                                   << QStringLiteral("--inference-tokens: must be a number from 0 to");
        QTest::newRow("ratio without its law") << QStringLiteral("budget --flops 1e23 --tokens-per-param 40")
                                               << QStringLiteral("--tokens-per-param: applies only with --law tokens-per-param");
        QTest::newRow("budget option on report") << QStringLiteral("report --flops 1e23")
                                                 << QStringLiteral("--flops: is an option of napkin budget and napkin export");
        QTest::newRow("unknown format") << QStringLiteral("export --out x --format bogus")
                                        << QStringLiteral("--format: must be png, svg or pdf (got 'bogus')");
        QTest::newRow("format in capitals") << QStringLiteral("export --out x --format SVG")
                                            << QStringLiteral("--format: must be png, svg or pdf (got 'SVG')");
        // Serving's fields: each range names the option.
        QTest::newRow("no output tokens") << QStringLiteral("report --mode inference --output-tokens 0")
                                          << QStringLiteral("--output-tokens: must be an integer from 1 to 1048576 (got '0')");
        QTest::newRow("concurrency 0") << QStringLiteral("report --mode inference --concurrency 0")
                                       << QStringLiteral("--concurrency: must be an integer from 1 to 1048576 (got '0'), or max");
        QTest::newRow("unknown weight dtype") << QStringLiteral("report --weight-dtype int3")
                                              << QStringLiteral("--weight-dtype: must be bf16, fp16, fp8, int8 or int4 (got 'int3')");
        QTest::newRow("kv cache in int4") << QStringLiteral("report --kv-dtype int4")
                                          << QStringLiteral("--kv-dtype: must be bf16, fp16, fp8 or int8 (got 'int4')");
        QTest::newRow("utilisation 0") << QStringLiteral("report --gpu-memory-utilization 0")
                                       << QStringLiteral("--gpu-memory-utilization: must be a number from above 0 to 1 (got '0')");
        QTest::newRow("utilisation above 1") << QStringLiteral("report --gpu-memory-utilization 1.2")
                                             << QStringLiteral("--gpu-memory-utilization: must be a number from above 0 to 1 (got '1.2')");
        QTest::newRow("unknown mode") << QStringLiteral("report --mode serve")
                                      << QStringLiteral("--mode: must be training or inference (got 'serve')");
        // napkin calibrate (issue: calibration from your own run).
        QTest::newRow("calibrate without a measurement") << QStringLiteral("calibrate --preset llama3-8b")
                                                         << QStringLiteral("--measured-step-seconds: napkin calibrate needs the measured step time");
        QTest::newRow("measured time 0") << QStringLiteral("calibrate --measured-step-seconds 0")
                                         << QStringLiteral("--measured-step-seconds: must be a time above 0");
        QTest::newRow("measured time negative") << QStringLiteral("calibrate --measured-step-seconds -2")
                                                << QStringLiteral("--measured-step-seconds: must be a time above 0");
        QTest::newRow("measured outside calibrate") << QStringLiteral("report --measured-step-seconds 2")
                                                    << QStringLiteral("--measured-step-seconds: applies only to napkin calibrate");
        QTest::newRow("peak without a time") << QStringLiteral("calibrate --measured FILE --measured-peak-bytes 1e9")
                                             << QStringLiteral("--measured-peak-bytes: goes with --measured-step-seconds");
        // Options the command does nothing with (they had been accepted and ignored).
        QTest::newRow("report --top") << QStringLiteral("report --top 5") << QStringLiteral("--top: is an option of napkin plan");
        QTest::newRow("report --out") << QStringLiteral("report --out d") << QStringLiteral("--out: is an option of napkin export");
        QTest::newRow("gpus --json") << QStringLiteral("gpus --json") << QStringLiteral("--json: is an option of napkin report");
        QTest::newRow("plan a serving scenario") << QStringLiteral("plan --mode inference")
                                                 << QStringLiteral("--mode: must be training for napkin plan");
        QTest::newRow("TP overlap without SP") << QStringLiteral("report --tp 2 --gpus 2 --tp-overlap")
                                               << QStringLiteral("--tp-overlap: goes with --sp");
    }

    void servingOptions()
    {
        const auto max = parseCommandLine(split(QStringLiteral("report --mode inference --concurrency 12 --concurrency max "
                                                               "--weight-dtype int4 --quant-group 64 --kv-dtype fp8")),
                                          test::catalog());
        QVERIFY2(max.ok(), qPrintable(max.refusalMessage()));
        QCOMPARE(max->scenario.mode, Mode::Inference);
        QVERIFY(!max->scenario.concurrency);  // "max" is null: the most the pool holds
        QCOMPARE(max->scenario.weightDtype, NumberFormat::Int4);
        QCOMPARE(max->scenario.quantGroup, qint64(64));
        QCOMPARE(max->scenario.kvDtype, NumberFormat::Fp8);
        const auto twelve = parseCommandLine(split(QStringLiteral("report --concurrency 12")), test::catalog());
        QVERIFY2(twelve.ok(), qPrintable(twelve.refusalMessage()));
        QCOMPARE(twelve->scenario.concurrency, std::optional<std::int64_t>(12));
    }

    void rejected()
    {
        QFETCH(QString, args);
        QFETCH(QString, message);
        const auto o = parseCommandLine(split(args), test::catalog());
        QVERIFY(!o.ok());
        QVERIFY2(o.refusalMessage().startsWith(message), qPrintable(o.refusalMessage()));
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
        QTest::newRow("budget too small") << QStringLiteral("budget --preset llama3-8b --flops 1e15");
        QTest::newRow("serving: weights leave no KV pool") << QStringLiteral("report --preset llama3-70b --mode inference --gpus 1");
        QTest::newRow("serving: past max_positions")
            << QStringLiteral("report --preset llama3-8b --mode inference --prompt-tokens 8000 --output-tokens 500");
        QTest::newRow("serving: more sequences than the pool holds")
            << QStringLiteral("report --preset llama3-8b --mode inference --concurrency 100000");
        QTest::newRow("budget in dollars without a price") << QStringLiteral("budget --preset llama3-8b --gpu h800-sxm --usd 1000");
        QTest::newRow("budget in dollars at a price of 0") << QStringLiteral("budget --usd 1e6 --price 0");
        QTest::newRow("--format bogus") << QStringLiteral("export --out OUT --format bogus");
        // A step faster than the GPU's peak allows: the fit would need a matmul efficiency above 1.
        QTest::newRow("calibrate: faster than the peak") << QStringLiteral("calibrate --preset llama3-8b --gpus 8 --measured-step-seconds 1e-4");
        QTest::newRow("calibrate: corrupt runs file") << QStringLiteral("calibrate --measured CORRUPT");
        QTest::newRow("calibrate: unwritable save")
            << QStringLiteral("calibrate --measured-step-seconds 2 --save /proc/napkin-cannot-write/x.json");
    }

    // A run that does not fit: the report says what fits, and JSON carries it as memory.suggestion.
    void fitSuggestion()
    {
        const TextAndJson r = runTextAndJson(
            QStringLiteral("report --preset llama3-70b --gpus 64 --seq-len 8192 --global-batch 128 --batch 1 --flash"));
        QCOMPARE(r.text.status, 0);
        QVERIFY2(r.text.out.contains("-> DOES NOT FIT\n  Fits with: tp "), r.text.out.constData());
        // What the layout changes, then the layout whole, in words: "micro-batch 1", not the
        // planner table's "b 1 · none".
        const QByteArray fitsWith = r.text.out.mid(r.text.out.indexOf("Fits with: "));
        QVERIFY2(fitsWith.contains(" · micro-batch ") && !fitsWith.contains(" · b ")
                     && fitsWith.contains(" on the worst stage, step "),
                 fitsWith.constData());
        const QJsonObject memory = r.json.value(QStringLiteral("memory")).toObject();
        const QJsonObject suggestion = memory.value(QStringLiteral("suggestion")).toObject();
        for (const char *key : {"tp", "pp", "vpp", "cp", "ep", "dp", "zero_stage", "micro_batch", "recompute", "flash", "fits",
                                "worst_stage_bytes", "step_seconds"})
            QVERIFY2(suggestion.contains(QLatin1String(key)), key);
        QVERIFY(suggestion.value(QStringLiteral("fits")).toBool());
        // What fits is under the GPU's 80 GiB (85.9e9 bytes).
        QVERIFY(suggestion.value(QStringLiteral("worst_stage_bytes")).toDouble() < 85.9e9);
        // FlashAttention alone makes Llama 3 8B at 4096 tokens fit on 8 H100s at ZeRO 1: it keeps
        // no s x s scores (Dao et al. 2022).
        const Run flash = runNapkin(split(QStringLiteral("report --preset llama3-8b --gpus 8 --seq-len 4096 --batch 1 --zero 1 --json")));
        const QJsonObject single = QJsonDocument::fromJson(flash.out).object().value(QStringLiteral("memory")).toObject()
                                       .value(QStringLiteral("suggestion")).toObject().value(QStringLiteral("single_change")).toObject();
        QCOMPARE(single.value(QStringLiteral("change")).toString(), QStringLiteral("FlashAttention on"));
        QVERIFY(single.value(QStringLiteral("worst_stage_bytes")).toDouble() < 85.9e9);
        // A run that fits has none.
        const Run fits = runNapkin(split(QStringLiteral("report --json")));
        QVERIFY(QJsonDocument::fromJson(fits.out).object().value(QStringLiteral("memory")).toObject().value(QStringLiteral("suggestion")).isNull());
    }

    // napkin plan from a start whose layout cannot take the batch: planned, not refused.
    void planFromAnyStart()
    {
        const Run r = runNapkin(split(QStringLiteral("plan --preset llama3.1-405b --gpus 16384 --global-batch 2048 --seq-len 8192 --top 3 --json")));
        QCOMPARE(r.status, 0);
        const QJsonObject plan = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(plan.value(QStringLiteral("layouts")).toArray().size(), 3);
        QVERIFY(plan.value(QStringLiteral("current")).toObject().value(QStringLiteral("problem")).toString().startsWith(QStringLiteral("global_batch: ")));
        const Run text = runNapkin(split(QStringLiteral("plan --preset llama3.1-405b --gpus 16384 --global-batch 2048 --seq-len 8192 --top 1")));
        QVERIFY2(text.out.contains("not a layout of these GPUs (--global-batch: must be a multiple"), text.out.constData());
        // A start with more model-parallel GPUs than there are (dp 0) is planned too, in text
        // and in JSON (which had divided by its dp).
        for (const char *start : {"--tp 8 --gpus 1", "--pp 8 --gpus 4", "--cp 2 --gpus 1"}) {
            const Run small = runNapkin(split(QStringLiteral("plan --json --top 2 ") + QLatin1String(start)));
            QVERIFY2(small.status == 0, start);
            const QJsonObject current = QJsonDocument::fromJson(small.out).object().value(QStringLiteral("current")).toObject();
            QVERIFY2(!current.value(QStringLiteral("problem")).toString().isEmpty(), start);
            QVERIFY2(current.value(QStringLiteral("micro_batches")).isNull(), start);
        }
        // Still refused: what no layout changes.
        QCOMPARE(runNapkin(split(QStringLiteral("plan --heads 7"))).status, 2);
    }

    // A run Napkin estimates cannot fit its GPUs is fitted but said to be suspect, in text and
    // JSON; a measured peak above the GPU's memory is refused by name.
    void calibrateSaysWhatCannotHaveRun()
    {
        const TextAndJson r = runTextAndJson(QStringLiteral("calibrate --preset llama3-70b --gpus 8 --measured-step-seconds 6.5"));
        QCOMPARE(r.text.status, 0);
        QVERIFY2(r.text.out.contains("does not fit     llama3-70b, 8 × H100 SXM: estimated 1.40 TB per GPU"), r.text.out.constData());
        const QJsonArray rows = r.json.value(QStringLiteral("runs")).toArray();
        QCOMPARE(rows.size(), qsizetype(1));
        QCOMPARE(rows.first().toObject().value(QStringLiteral("fits")).toBool(true), false);
        const Run peak = runNapkin(split(QStringLiteral("calibrate --preset llama3-8b --gpus 8 --measured-step-seconds 2 --measured-peak-bytes 1e15")));
        QCOMPARE(peak.status, 2);
        QVERIFY2(peak.err.startsWith("napkin: --measured-peak-bytes: must be at most the memory of one NVIDIA H100"), peak.err.constData());
    }

    // napkin calibrate: fit to one measured step, save, and every later report runs at it.
    void calibrateSavesAndReports()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("calibrated.json"));
        const QString run = QStringLiteral("--preset llama3-8b --gpus 8 --seq-len 4096 --batch 1 --recompute full");
        const Run before = runNapkin(split(QStringLiteral("report --json ") + run));
        QCOMPARE(before.status, 0);
        const QJsonObject time0 = QJsonDocument::fromJson(before.out).object().value(QStringLiteral("time")).toObject();
        QCOMPARE(time0.value(QStringLiteral("calibrated")).toBool(), false);
        // Uncalibrated, the estimate carries its record against published dense runs.
        const QJsonObject record = time0.value(QStringLiteral("track_record")).toObject();
        QCOMPARE(record.value(QStringLiteral("kind")).toString(), QStringLiteral("dense"));
        QCOMPARE(record.value(QStringLiteral("runs")).toInt(), trackRecords().front().runs);
        QCOMPARE(record.value(QStringLiteral("mean_error")).toDouble(), trackRecords().front().meanError);
        const double estimated = time0.value(QStringLiteral("step_seconds")).toDouble();
        // A measured step 20% slower than the estimate.
        const double measured = estimated * 1.2;
        const Run fit = runNapkin(split(QStringLiteral("calibrate --json --measured-step-seconds %1 --save %2 ")
                                            .arg(measured, 0, 'g', 17).arg(saved) + run));
        QCOMPARE(fit.status, 0);
        const QJsonObject out = QJsonDocument::fromJson(fit.out).object();
        const QJsonObject row = out.value(QStringLiteral("runs")).toArray().first().toObject();
        QVERIFY(std::abs(row.value(QStringLiteral("error_before")).toDouble() - (1 / 1.2 - 1)) < 1e-9);
        QVERIFY2(std::abs(row.value(QStringLiteral("error_after")).toDouble()) < 1e-4, fit.out.constData());
        const QJsonObject factors = out.value(QStringLiteral("calibration")).toObject();
        // Slower than estimated: no factor may claim the GPU got faster.
        for (const char *key : {"compute", "memory", "comm"})
            QVERIFY2(factors.value(QLatin1String(key)).toDouble() >= 1 - 1e-9, key);
        const Run after = runNapkin(split(QStringLiteral("report --json --scenario ") + saved));
        QCOMPARE(after.status, 0);
        const QJsonObject time1 = QJsonDocument::fromJson(after.out).object().value(QStringLiteral("time")).toObject();
        QCOMPARE(time1.value(QStringLiteral("calibrated")).toBool(), true);
        QVERIFY(std::abs(time1.value(QStringLiteral("step_seconds")).toDouble() / measured - 1) < 1e-4);
        QCOMPARE(time1.value(QStringLiteral("calibration")).toObject().value(QStringLiteral("runs")).toInt(), 1);
        const Run text = runNapkin(split(QStringLiteral("report --scenario ") + saved));
        QVERIFY2(text.out.contains("calibrated on 1 run"), text.out.constData());
        QVERIFY2(text.out.contains("track record     uncalibrated, on "), text.out.constData());
    }

    // napkin budget --json: the issue's keys, in base units, and the text's numbers.
    void budgetJson()
    {
        const Run r = runNapkin(split(QStringLiteral("budget --preset llama3-70b --gpus 1024 --flops 5.88e23 --json")));
        QCOMPARE(r.status, 0);
        const QJsonObject b = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("budget")).toObject();
        for (const char *key : {"flops", "law", "optimal_params", "optimal_tokens", "tokens_per_param", "predicted_loss",
                                "inference_tokens", "total_flops"})
            QVERIFY2(b.contains(QLatin1String(key)), key);
        QCOMPARE(b.value(QStringLiteral("law")).toString(), QStringLiteral("besiroglu2024"));
        QCOMPARE(b.value(QStringLiteral("flops")).toDouble(), 5.88e23);
        // Chinchilla's budget: about 70B on 1.4T under the corrected fit (tst_budget has the row).
        QVERIFY(std::abs(b.value(QStringLiteral("optimal_params")).toDouble() / 70e9 - 1) < 0.05);
        const QJsonObject shape = b.value(QStringLiteral("shape")).toObject();
        for (const char *key : {"layers", "d_model", "heads", "kv_heads", "d_ff", "vocab", "params"})
            QVERIFY2(shape.contains(QLatin1String(key)), key);
        QCOMPARE(shape.value(QStringLiteral("vocab")).toInt(), 128256);  // the family's vocabulary
        const Run text = runNapkin(split(QStringLiteral("budget --preset llama3-70b --gpus 1024 --flops 5.88e23 --inference-tokens 2e12")));
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.contains("Compute-optimal: N = 73.02B parameters"), text.out.constData());
        QVERIFY2(text.out.contains("Serving 2T tokens"), text.out.constData());
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
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run r = runNapkin(split(args.replace(QStringLiteral("CORRUPT"), corrupt).replace(QStringLiteral("OUT"), out)));
        QCOMPARE(r.status, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("napkin: ") && r.err.count('\n') == 1, r.err.constData());
        QVERIFY(!QFileInfo::exists(out));  // refused before anything is made
    }

    void processSourceDocument()
    {
        // The source document's example, as a whole (--lecture) and spelled out field by field.
        for (const QString &args : {QStringLiteral("report --lecture"),
                                    QStringLiteral("report --params 124e6 --tokens 300e9 --no-activations --reserved 0")}) {
            const Run r = runNapkin(split(args));
            QCOMPARE(r.status, 0);
            for (const char *figure : {"2.232e+20", "0.248 GB", "1.488 GB", "1.984 GB", "1.125e+11"})
                QVERIFY2(r.out.contains(figure), qPrintable(args + QStringLiteral(": ") + QLatin1String(figure)));
        }
        const Run x = runNapkin(split(QStringLiteral("report --lecture --preset llama3-8b")));
        QCOMPARE(x.status, 2);
        QVERIFY(x.err.contains("--lecture"));
        const Run j = runNapkin(split(QStringLiteral("report --lecture --json")));
        QCOMPARE(j.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(o[QStringLiteral("flops")][QStringLiteral("training_6nd")].toDouble(), 2.232e20);
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("per_gpu")][QStringLiteral("total")].toDouble(), 1.984e9);
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("by_zero_stage")].toArray().size(), 4);
        QVERIFY(o[QStringLiteral("roofline")][QStringLiteral("ops")].toArray().size() > 20);
    }

    // One name per field: where report and plan JSON echo a scenario field, they use its key,
    // with the value the scenario holds (batch once came back as micro_batch, zero as zero_stage).
    void outputKeysAreFieldKeys()
    {
        const Run r = runNapkin(split(QStringLiteral("report --json --preset llama3-70b --gpus 64 --tp 8 --pp 2 --batch 2 "
                                                      "--global-batch 64 --zero 1")));
        QCOMPARE(r.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject scenario = o[QStringLiteral("scenario")].toObject();
        const QJsonObject layout = o[QStringLiteral("layout")].toObject();
        for (const char *key : {"tp", "pp", "vpp", "cp", "ep", "sp", "batch", "global_batch"}) {
            const QString k = QLatin1String(key);
            QVERIFY2(layout.contains(k) && scenario.contains(k), key);
            QCOMPARE(layout[k].toVariant(), scenario[k].toVariant());
        }
        QCOMPARE(layout[QStringLiteral("batch")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("zero")].toInt(), scenario[QStringLiteral("zero")].toInt());
        QCOMPARE(o[QStringLiteral("memory")][QStringLiteral("zero")].toInt(), 1);
        const Run p = runNapkin(split(QStringLiteral("plan --json --top 1 --preset llama3-8b --gpus 8 --global-batch 64")));
        QCOMPARE(p.status, 0);
        const QJsonObject best = QJsonDocument::fromJson(p.out).object()[QStringLiteral("layouts")].toArray().first().toObject();
        for (const char *key : {"zero", "batch", "recompute"})
            QVERIFY2(best.contains(QLatin1String(key)), key);
        QVERIFY(!best.contains(QStringLiteral("zero_stage")) && !best.contains(QStringLiteral("micro_batch")));
    }

    // `napkin presets` aligns its family column after the longest id (it ran
    // "llama3.1-405bllama" together).
    void presetsAreAligned()
    {
        const QStringList lines = QString::fromUtf8(runNapkin({QStringLiteral("presets")}).out).split(QLatin1Char('\n'));
        qsizetype column = -1;
        int rows = 0;
        for (const QString &line : lines) {
            if (line.isEmpty() || line.startsWith(QLatin1Char(' ')))
                continue;
            const qsizetype idEnd = line.indexOf(QLatin1Char(' '));
            QVERIFY2(idEnd > 0, qPrintable(line));
            const qsizetype family = line.indexOf(QRegularExpression(QStringLiteral("\\S")), idEnd);
            QVERIFY2(family - idEnd >= 2, qPrintable(line));
            if (column < 0)
                column = family;
            QCOMPARE(family, column);
            ++rows;
        }
        QVERIFY(rows >= 20);
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
