// Scenario files: the JSON that File > Save writes and --scenario reads.
#include "core/io/scenariojson.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "testsupport.h"

using namespace napkin;

class TestScenarioJson final : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip()
    {
        Scenario s;
        s.model.arch = Arch::Llama;
        s.model.layers = 32;
        s.model.dModel = 4096;
        s.model.heads = 32;
        s.model.kvHeads = 8;
        s.model.dFf = 14336;
        s.model.vocab = 128256;
        s.model.maxPositions = 8192;
        s.model.tied = false;
        s.paramsOverride = 123;
        s.tokens = 1.5e12;
        s.zeroStage = 2;
        s.recompute = Recompute::Selective;
        s.flashAttention = true;
        s.flopsBasis = FlopsBasis::SixND;
        s.activationModel = ActivationModel::PyTorch;
        s.dropout = true;
        s.utilizationFraction = 0.55;
        s.utilizationBasis = UtilizationBasis::Mfu;
        const auto back = scenarioFromJson(scenarioToJson(s), Scenario{});
        QVERIFY2(back.ok(), qPrintable(back.refusalMessage()));
        QVERIFY(*back == s);
    }

    void priceRoundTrip_data()
    {
        QTest::addColumn<double>("price");  // negative: not set, the catalog's
        QTest::newRow("catalog") << -1.0;
        QTest::newRow("set") << 1.25;
        QTest::newRow("set to 0") << 0.0;
    }

    void priceRoundTrip()
    {
        QFETCH(double, price);
        Scenario s;
        if (price >= 0)
            s.pricePerGpuHourUsd = price;
        const QJsonObject o = scenarioToJson(s);
        QCOMPARE(o[QStringLiteral("price")].isNull(), price < 0);
        Scenario base;
        base.pricePerGpuHourUsd = 9;  // a null in the file clears a base's price too
        const auto back = scenarioFromJson(o, base);
        QVERIFY2(back.ok(), qPrintable(back.refusalMessage()));
        QCOMPARE(back->pricePerGpuHourUsd.has_value(), price >= 0);
        QVERIFY(*back == s);
    }

    void fileRoundTripIsAtomic()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        Scenario s;
        s.microBatch = 3;
        const auto saved = writeScenarioFile(path, s);
        QVERIFY2(!saved, qPrintable(messageOf(saved)));
        const auto back = readScenarioFile(path, Scenario{});
        QVERIFY(back.ok() && *back == s);
        // A write into a folder that does not exist fails cleanly and leaves nothing behind.
        const auto refused = writeScenarioFile(dir.filePath(QStringLiteral("missing/run.json")), s);
        QVERIFY(refused);
        QVERIFY(refused->message().contains(QLatin1String("cannot write")));
    }

    void partialFileKeepsBase()
    {
        Scenario base;
        base.gpus = 64;
        const auto s = scenarioFromJson(QJsonObject{{QStringLiteral("layers"), 24}}, base);
        QVERIFY(s.ok());
        QCOMPARE(s->model.layers, qint64(24));
        QCOMPARE(s->gpus, qint64(64));
    }

    void rejected_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("layers 0") << QByteArray(R"({"layers":0})") << QStringLiteral("layers");
        QTest::newRow("layers fractional") << QByteArray(R"({"layers":1.5})") << QStringLiteral("layers");
        QTest::newRow("layers as string") << QByteArray(R"({"layers":"12"})") << QStringLiteral("layers");
        QTest::newRow("unknown key") << QByteArray(R"({"layerz":12})") << QStringLiteral("layerz");
        QTest::newRow("heads not dividing d_model") << QByteArray(R"({"heads":7})") << QStringLiteral("heads");
        QTest::newRow("kv_heads not dividing heads") << QByteArray(R"({"kv_heads":5})") << QStringLiteral("kv_heads");
        QTest::newRow("mfu 0") << QByteArray(R"({"mfu":0})") << QStringLiteral("mfu");
        QTest::newRow("mfu above 1") << QByteArray(R"({"mfu":1.5})") << QStringLiteral("mfu");
        QTest::newRow("tokens too large") << QByteArray(R"({"tokens":1e30})") << QStringLiteral("tokens");
        QTest::newRow("recompute unknown") << QByteArray(R"({"recompute":"some"})") << QStringLiteral("recompute");
        QTest::newRow("activation model unknown") << QByteArray(R"({"activation_model":"exact"})") << QStringLiteral("activation_model");
        QTest::newRow("zero 4") << QByteArray(R"({"zero":4})") << QStringLiteral("zero");
        QTest::newRow("seq_len beyond gpt2 positions") << QByteArray(R"({"seq_len":2048})") << QStringLiteral("seq_len");
        QTest::newRow("future format") << QByteArray(R"({"napkin_scenario":2})") << QStringLiteral("napkin_scenario");
    }

    void rejected()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        const auto refused = scenarioFromJson(QJsonDocument::fromJson(json).object(), Scenario{});
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, field);
        QVERIFY(!e.problem.isEmpty());
    }

    void corruptFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"layers\": 12,");
        f.close();
        const auto refused = readScenarioFile(path, Scenario{});
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        QCOMPARE(e.field, QStringLiteral("scenario file"));
        const auto missing = readScenarioFile(dir.filePath(QStringLiteral("none.json")), Scenario{});
        QVERIFY(!missing.ok());
        QVERIFY(missing.refusal().problem.contains(QLatin1String("cannot read")));
    }

    // A key given twice in one object is refused by name: a JSON parser keeps the last in
    // silence ({"layers": 4, "layers": 8} had loaded as 8 layers). The same key in two objects
    // (a baseline beside its scenario) is no duplicate, nor is a key-like string value.
    void duplicateKeysAreRefused()
    {
        QCOMPARE(duplicateJsonKey(R"({"layers": 4, "layers": 8})"), std::optional<QString>(QStringLiteral("layers")));
        QCOMPARE(duplicateJsonKey(R"({"layers": 4, "baseline": {"layers": 8}})"), std::nullopt);
        QCOMPARE(duplicateJsonKey(R"({"a": "b", "c": ["b", "b"], "d": "a"})"), std::nullopt);
        QCOMPARE(duplicateJsonKey("{\"a\\\"x\": 1, \"b\": {\"k\": 1, \"k\" : 2}}"), std::optional<QString>(QStringLiteral("k")));
        QTemporaryDir dir;
        const auto refused = readScenarioFile(test::writeFile(dir, QStringLiteral("twice.json"), R"({"layers": 4, "layers": 8})"),
                                              Scenario{});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.refusal().field, QStringLiteral("layers"));
        QVERIFY2(refused.refusal().problem.startsWith(QStringLiteral("appears twice")), qPrintable(refused.refusal().problem));
    }
};

QTEST_GUILESS_MAIN(TestScenarioJson)
#include "tst_scenariojson.moc"
