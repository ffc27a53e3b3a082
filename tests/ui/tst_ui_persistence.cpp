// Scenario files (File > Open / Save, the same JSON as --scenario) and what the window keeps in
// QSettings between runs: last scenario, geometry, unit and text size. Settings live in the
// fixture's temporary folder. Also checks that the modal-dialog guard itself works.

#include "ui/controls/controlspanel.h"
#include "ui/controls/servingcontrols.h"
#include "ui/shell/fileactions.h"
#include "guitestfixture.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/state/scenariocontroller.h"
#include "core/io/scenariojson.h"
#include "ui/shell/settingsstore.h"

#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

#include <sys/stat.h>

using namespace napkin;
using namespace napkin::ui;

namespace {

Scenario edited()
{
    Scenario s;
    s.model.layers = 30;
    s.microBatch = 2;
    s.tokens = 1.5e12;
    s.gpuId = QStringLiteral("a100-80gb-sxm");
    s.zeroStage = 2;
    s.flashAttention = true;
    s.pricePerGpuHourUsd = 1.25;
    return s;
}

} // namespace

class TestPersistence final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void settingsAreIsolated()
    {
        // The fixture must have pointed QSettings away from the user's configuration.
        QSettings probe(QStringLiteral("napkin"), QStringLiteral("napkin"));
        QVERIFY2(!probe.fileName().startsWith(QDir::homePath() + QStringLiteral("/.config")), qPrintable(probe.fileName()));
    }

    void saveThenOpen()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("run.json"));
        MainWindow a(env().catalog(), edited());
        const auto notSaved = a.fileActions()->saveScenario(path);
        QVERIFY2(!notSaved, qPrintable(messageOf(notSaved)));
        // The file is the core's scenario JSON, readable without any window.
        const auto fromFile = readScenarioFile(path, Scenario{});
        QVERIFY2(fromFile.ok(), qPrintable(fromFile.refusalMessage()));
        QCOMPARE(*fromFile, edited());

        MainWindow b(env().catalog(), Scenario{});
        const auto notOpened = b.fileActions()->openScenario(path);
        QVERIFY2(!notOpened, qPrintable(messageOf(notOpened)));
        QCOMPARE(b.controller()->scenario(), edited());
        QCOMPARE(b.controls()->slider(ControlsPanel::Main::Layers)->value(), 30.0);
        // Opening is one undo step.
        b.controller()->undoStack()->undo();
        QCOMPARE(b.controller()->scenario(), Scenario{});
    }

    // Inference mode and its serving fields survive File > Save and File > Open, and the
    // window opens on the serving charts and controls.
    void saveThenOpenInference()
    {
        Scenario serving = edited();
        serving.mode = Mode::Inference;
        serving.promptTokens = 600;
        serving.outputTokens = 300;
        serving.concurrency = 8;
        serving.weightDtype = NumberFormat::Int4;
        serving.kvDtype = NumberFormat::Fp8;
        serving.gpuMemoryUtilization = 0.85;
        serving.kvBlockTokens = 32;
        serving.prefillChunk = 4096;
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("serve.json"));
        MainWindow a(env().catalog(), serving);
        const auto notSaved = a.fileActions()->saveScenario(path);
        QVERIFY2(!notSaved, qPrintable(messageOf(notSaved)));
        MainWindow b(env().catalog(), Scenario{});
        const auto notOpened = b.fileActions()->openScenario(path);
        QVERIFY2(!notOpened, qPrintable(messageOf(notOpened)));
        QCOMPARE(b.controller()->scenario(), serving);
        QVERIFY(b.controller()->report()->inference.has_value());
        QCOMPARE(b.controller()->report()->inference->concurrency, 8);
        QCOMPARE(b.controls()->servingControls()->concurrencySlider()->value(), 8.0);
        QVERIFY(b.controls()->servingControls()->modeButton(Mode::Inference)->isChecked());
    }

    void openRefusesABadFile()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"layers": 0})");
        f.close();
        MainWindow w(env().catalog(), Scenario{});
        std::optional<Refusal> refused;
        QString error;
        refused = w.fileActions()->openScenario(path);
        QVERIFY(refused);
        error = refused->message();
        QVERIFY2(error.startsWith(QStringLiteral("layers")), qPrintable(error));
        QCOMPARE(w.controller()->scenario(), Scenario{});
        refused = w.fileActions()->openScenario(tmp.filePath(QStringLiteral("missing.json")));
        QVERIFY(refused);
        error = refused->message();
        QVERIFY2(error.contains(QStringLiteral("missing.json")), qPrintable(error));
    }

    // File > Open of a FIFO with no writer, or of an endless device, once blocked the window
    // in open() or read until memory ran out; both are refused by type, at once.
    void openRefusesFifosAndDevices()
    {
        QTemporaryDir tmp;
        const QString fifo = tmp.filePath(QStringLiteral("pipe.json"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        MainWindow w(env().catalog(), Scenario{});
        for (const QString &path : {fifo, QStringLiteral("/dev/zero"), QStringLiteral("/dev/urandom")}) {
            std::optional<Refusal> refused;
            QString error;
            refused = w.fileActions()->openScenario(path);
            QVERIFY(refused);
            error = refused->message();
            QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        }
        QCOMPARE(w.controller()->scenario(), Scenario{});
    }

    void settingsRoundTrip()
    {
        QVERIFY(!settings::lastScenario(env().catalog()));  // fresh temporary settings
        {
            MainWindow w(env().catalog(), Scenario{});
            QVERIFY(uitest::showAndWait(w));
            w.controller()->propose(edited(), QStringLiteral("test"));
            w.setByteUnit(ByteUnit::GiB);
            w.setFontScale(1.3);
            w.resize(1400, 877);
            w.close();  // closing saves
        }
        const auto saved = settings::lastScenario(env().catalog());
        QVERIFY(saved);
        QCOMPARE(saved->scenario, edited());
        QCOMPARE(settings::byteUnit(), ByteUnit::GiB);
        QCOMPARE(settings::fontScale(), 1.3);

        MainWindow again(env().catalog(), saved->scenario);
        again.restoreSavedGeometry();
        QCOMPARE(again.controller()->scenario(), edited());
        QCOMPARE(again.byteUnit(), ByteUnit::GiB);
        QCOMPARE(again.fontScale(), 1.3);
        QCOMPARE(again.size(), QSize(1400, 877));
    }

    void staleSettingsFallBackToDefaults_data()
    {
        QTest::addColumn<QByteArray>("saved");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QStringList>("replacedFields");
        QTest::newRow("wrong type") << QByteArray(R"({"gpu": 3, "layers": 24})") << 24 << QStringList{QStringLiteral("gpu")};
        QTest::newRow("GPU and recipe no longer in the catalog")
            << QByteArray(R"({"gpu": "h999", "recipe": "fp64-adamw", "layers": 24})") << 24
            << QStringList{QStringLiteral("gpu \"h999\""), QStringLiteral("recipe \"fp64-adamw\"")};
        QTest::newRow("unknown key and out-of-range value")
            << QByteArray(R"({"zero": 9, "colour": "red", "layers": 30})") << 30 << QStringList{QStringLiteral("zero"), QStringLiteral("colour")};
    }

    // Stale settings: the unknown fields fall back to their defaults, the rest loads, and the
    // window is told what was replaced (issue: an h999 GPU opened a window with empty charts).
    void staleSettingsFallBackToDefaults()
    {
        QFETCH(QByteArray, saved);
        QFETCH(int, layers);
        QFETCH(QStringList, replacedFields);
        QSettings(QStringLiteral("napkin"), QStringLiteral("napkin")).setValue(QStringLiteral("lastScenario"), saved);
        const auto last = settings::lastScenario(env().catalog());
        QVERIFY(last);
        const Scenario *s = &last->scenario;
        const QStringList &replaced = last->replaced;
        QCOMPARE(s->model.layers, layers);
        QVERIFY(env().catalog().findGpu(s->gpuId));
        QCOMPARE(s->gpuId, Scenario{}.gpuId);
        QCOMPARE(s->recipeId, Scenario{}.recipeId);
        QCOMPARE(replaced.size(), replacedFields.size());
        for (const QString &field : replacedFields)
            QVERIFY2(replaced.join(QLatin1Char('|')).contains(field), qPrintable(replaced.join(QLatin1Char('|'))));
        MainWindow w(env().catalog(), *s);
        QVERIFY(w.controller()->report().has_value());
    }

    void modalGuardCatchesDialogs()
    {
        // The guard is what keeps every other test from hanging on a dialog; prove it works.
        QTimer::singleShot(0, this, [] { QMessageBox::information(nullptr, QStringLiteral("probe"), QStringLiteral("probe")); });
        QTRY_VERIFY_WITH_TIMEOUT(!modalGuard().seen().isEmpty(), 5000);
        QVERIFY(modalGuard().seen().first().contains(QStringLiteral("probe")));
        modalGuard().clear();
    }
};

QTEST_MAIN(TestPersistence)
#include "tst_ui_persistence.moc"
