// PNG export: exportCharts() writes every chart kind's image at the requested size, none of them
// blank; the GUI's Export writes 2x images through the same renderer; an unwritable target
// fails with a message naming the path and leaves no partial files.

#include "app/commandline.h"
#include "ui/views/chartrender.h"
#include "ui/views/dashboard.h"
#include "ui/widgets/chartview.h"
#include "ui/shell/fileactions.h"
#include "ui/shell/gui.h"
#include "ui/views/gputimechart.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/timepanel.h"

#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QFile>
#include <QFontMetrics>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace napkin;
using namespace napkin::ui;

namespace {

// Share of pixels that differ from the corner (background) colour, and how many colours occur.
struct Ink {
    double share = 0;
    int colours = 0;
};

Ink inkOf(const QImage &image)
{
    const QRgb background = image.pixel(0, 0);
    qint64 inked = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb p = image.pixel(x, y);
            inked += p != background;
            if (colours.size() < 1000)
                colours.insert(p);
        }
    return {static_cast<double>(inked) / (static_cast<double>(image.width()) * image.height() / 4),
            static_cast<int>(colours.size())};
}

} // namespace

class TestExport final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void exportChartsWritesEveryImage_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("800x500") << QSize(800, 500);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void exportChartsWritesEveryImage()
    {
        QFETCH(QSize, size);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("out/charts"));  // created by exportCharts
        const auto done = exportCharts(env().catalog(), Scenario{}, dir, size);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        // dashboard, memory, time, roofline, steptime, layout and budget.png
        for (ChartKind kind : exportedChartKinds(Mode::Training)) {
            const QString name = chartFileName(kind);
            QImage image(QDir(dir).filePath(name));
            QVERIFY2(!image.isNull(), qPrintable(name));
            QCOMPARE(image.size(), size);
            const Ink ink = inkOf(image);
            QVERIFY2(ink.share > 0.03, qPrintable(name + QStringLiteral(" is nearly blank")));
            QVERIFY2(ink.colours > 8, qPrintable(name + QStringLiteral(" has too few colours for a chart")));
        }
        // Training mode: every picture but the serving curve, and no temporary files left behind.
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), exportedChartKinds(Mode::Training).size());
    }

    // --help names every file `napkin export` writes, and no more (it once said four of six).
    void helpNamesEveryExportedFile()
    {
        const QString help = helpText();
        for (ChartKind kind : kAllChartKinds)
            QVERIFY2(help.contains(chartFileName(kind)), qPrintable(chartFileName(kind)));
        QCOMPARE(help.count(QStringLiteral(".png")), qsizetype(kChartKinds));
    }

    void exportMatchesTheSharedRenderer()
    {
        QTemporaryDir tmp;
        const auto done = exportCharts(env().catalog(), Scenario{}, tmp.path(), QSize(700, 450));
        QVERIFY2(!done, qPrintable(messageOf(done)));
        const QImage written(tmp.filePath(QStringLiteral("roofline.png")));
        const QImage rendered = renderChart(ChartKind::Roofline, env().report(Scenario{}), env().catalog(),
                                            ViewOptions{}, QSize(700, 450));
        QCOMPARE(written.convertToFormat(QImage::Format_ARGB32), rendered.convertToFormat(QImage::Format_ARGB32));
    }

    // Every picture says under which settings its numbers hold, read back from its pixels by
    // OCR (tesseract, installed with the test packages).
    void captionNamesTheSettings_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("memory") << static_cast<int>(ChartKind::Memory);
        QTest::newRow("time") << static_cast<int>(ChartKind::Time);
        QTest::newRow("roofline") << static_cast<int>(ChartKind::Roofline);
        QTest::newRow("dashboard") << static_cast<int>(ChartKind::Dashboard);
    }

    void captionNamesTheSettings()
    {
        QFETCH(int, kind);
        Scenario s;
        s.zeroStage = 2;
        s.recompute = Recompute::Full;
        s.flashAttention = true;
        s.seqLen = 512;
        s.gpus = 16;
        const QImage image = renderChart(static_cast<ChartKind>(kind), env().report(s), env().catalog(), ViewOptions{},
                                         QSize(1280, 800), 2);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("caption.png"));
        QVERIFY(image.copy(0, 0, image.width(), image.height() / 6).save(path));
        QProcess ocr;
        ocr.start(QStringLiteral("tesseract"), {path, QStringLiteral("stdout")});
        QVERIFY2(ocr.waitForFinished(60000) && ocr.exitCode() == 0,
                 "tesseract is needed (Debian package tesseract-ocr, installed by tools/setup.sh test)");
        const QString text = QString::fromUtf8(ocr.readAllStandardOutput()).simplified();
        for (const QString &expected : {QStringLiteral("bf16 mixed precision"), QStringLiteral("ZeRO 2"),
                                        QStringLiteral("16 GPUs"), QStringLiteral("full recompute"),
                                        QStringLiteral("FlashAttention on"), QStringLiteral("40% HFU"),
                                        QStringLiteral("sequence 512")})
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in: ") + text));
    }

    // The step-time picture of a pipelined run holds both its charts whole, the stage chart's
    // legend last, and its texts unelided (there is no tooltip in a picture): stacked on a
    // 1600x1000 page the stage chart had lost its legend, and on 1280x720 its axis too.
    void stepTimePictureFitsItsPage_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("portrait 600x900") << QSize(600, 900);
    }

    void stepTimePictureFitsItsPage()
    {
        QFETCH(QSize, size);
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.gpus = 64;
        s.tp = 4;
        s.pp = 4;
        const QImage image = renderChart(ChartKind::StepTime, env().report(s), env().catalog(), ViewOptions{}, size, 2);
        // Each half read apart (on a landscape page the charts stand side by side, and one
        // reading of both mixed their lines); on a portrait page both halves hold every line.
        const bool landscape = size.width() > size.height();
        QString text;
        for (int half = 0; half < 2; ++half) {
            const QImage part = landscape ? image.copy(half * image.width() / 2, 0, image.width() / 2, image.height())
                                          : image.copy(0, half * image.height() / 2, image.width(), image.height() / 2);
            QTemporaryDir tmp;
            const QString path = tmp.filePath(QStringLiteral("step.png"));
            QVERIFY(part.save(path));
            QProcess ocr;
            ocr.start(QStringLiteral("tesseract"), {path, QStringLiteral("stdout")});
            QVERIFY2(ocr.waitForFinished(60000) && ocr.exitCode() == 0,
                     "tesseract is needed (Debian package tesseract-ocr, installed by tools/setup.sh test)");
            text += QString::fromUtf8(ocr.readAllStandardOutput()).simplified() + QLatin1Char(' ');
        }
        for (const QString &expected : {QStringLiteral("worst: stage 3"), QStringLiteral("Memory per GPU by pipeline stage"),
                                        QStringLiteral("corrects it for your cluster"), QStringLiteral("Reserved")})
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in: ") + text));
        QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(text));
    }

    // A file is named for what it holds: a PNG typed as "chart.svg" is written as chart.png
    // (it had been PNG data under an SVG name), a name without an ending gets one.
    void exportNamesTheFileForItsFormat()
    {
        QCOMPARE(pathWithSuffix(QStringLiteral("/tmp/chart.svg"), QStringLiteral("png")), QStringLiteral("/tmp/chart.png"));
        QCOMPARE(pathWithSuffix(QStringLiteral("/tmp/chart.PNG"), QStringLiteral("png")), QStringLiteral("/tmp/chart.PNG"));
        QCOMPARE(pathWithSuffix(QStringLiteral("/tmp/chart"), QStringLiteral("pdf")), QStringLiteral("/tmp/chart.pdf"));
        QCOMPARE(pathWithSuffix(QStringLiteral("/tmp/run.v2"), QStringLiteral("json")), QStringLiteral("/tmp/run.v2.json"));
        QCOMPARE(pathWithSuffix(QStringLiteral("/tmp/run.json"), QStringLiteral("json")), QStringLiteral("/tmp/run.json"));
    }

    // The time panel's notes wrap instead of eliding, beside the chart (half the width) and
    // above it (the exported time chart), at the exported chart's design size.
    void timeNotesAreWhole_data()
    {
        QTest::addColumn<bool>("above");
        QTest::addColumn<int>("wrapped");
        QTest::newRow("beside the chart") << false << 2;
        QTest::newRow("above the chart") << true << 0;
    }

    void timeNotesAreWhole()
    {
        QFETCH(bool, above);
        QFETCH(int, wrapped);
        TimePanel panel(env().catalog());
        panel.setFiguresAbove(above);
        panel.setReport(env().report(Scenario{}));
        panel.resize(800, 500);
        QVERIFY(uitest::showAndWait(panel));
        int multiLine = 0;
        for (int f = 0; f < TimePanel::kFigures; ++f) {
            const TextStrip *note = panel.note(static_cast<TimePanel::Figure>(f));
            QVERIFY2(note->showsWholeText(), qPrintable(note->text()));
            // Whole, and not by luck: a note in one line fits its width.
            if (note->lines() == 1)
                QVERIFY2(QFontMetrics(note->font()).horizontalAdvance(note->text()) <= note->width(), qPrintable(note->text()));
            multiLine += note->lines() > 1;
        }
        // Half the width wraps the longer ones ("nothing recomputed: equals the model FLOPs" and
        // the cost's "at $3.99 per GPU-hour, on demand (date)"); the full width none.
        QVERIFY2(above ? multiLine == wrapped : multiLine >= wrapped, qPrintable(QString::number(multiLine)));
    }

    // A serving picture names serving's settings, not the training recipe's (an exported serving
    // dashboard had read "AdamW (2/2/12) · ZeRO 0 · … 1 micro-batch of 8 · 40% HFU"), and its
    // notes say what they can in a picture: none stands aside as "(details on hover)".
    void servingPictureSaysWhatServingHolds()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.mode = Mode::Inference;
        s.gpus = 4;
        s.tp = 4;
        const Report r = env().report(s);
        QVERIFY(r.inference.has_value());
        const QString caption = QString(scenarioSettings(r)).replace(QChar(0x00A0), QLatin1Char(' '));
        for (const QString &expected : {QStringLiteral("4 GPUs"), QStringLiteral("tp 4"), QStringLiteral("memory utilisation 90%"),
                                        QStringLiteral("KV blocks of 16 tokens"), QStringLiteral("prefill chunk 8192 tokens")})
            QVERIFY2(caption.contains(expected), qPrintable(expected + QStringLiteral(" not in: ") + caption));
        for (const QString &training : {QStringLiteral("AdamW"), QStringLiteral("ZeRO"), QStringLiteral("HFU"), QStringLiteral("micro-batch")})
            QVERIFY2(!caption.contains(training), qPrintable(training + QStringLiteral(" in: ") + caption));
        MainWindow w(env().catalog(), s);
        w.resize(1400, 900);
        QVERIFY(uitest::showAndWait(w));
        Dashboard *dashboard = w.dashboard();
        const TimePanel *panel = dashboard->timePanel();
        const auto markers = [panel] {
            int n = 0;
            for (int f = 0; f < TimePanel::kServingFigures; ++f)
                n += panel->note(static_cast<TimePanel::ServingFigure>(f))->shownText().contains(QStringLiteral("details on hover"));
            return n;
        };
        QTRY_VERIFY(markers() > 0);  // on screen, in a 1400x900 window, some notes stand aside
        dashboard->setExportMode(true);
        QTRY_COMPARE(markers(), 0);
        dashboard->setExportMode(false);
        QTRY_VERIFY(markers() > 0);
    }

    void guiExportAtTwiceTheSize()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("dashboard.png"));
        const auto done = w.fileActions()->exportChart(ChartKind::Dashboard, path, QSize(640, 400), 2);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1280, 800));
        QVERIFY(inkOf(image).share > 0.03);
    }

    void copyPutsTheChartOnTheClipboard()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        QGuiApplication::clipboard()->clear();
        w.fileActions()->copyChart(ChartKind::Roofline);
        const QImage image = QGuiApplication::clipboard()->image();
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), w.fileActions()->onScreenSize(ChartKind::Roofline) * 2);  // 2x for slides
        QVERIFY(inkOf(image).share > 0.03);
    }

    void unwritableTargetFailsCleanly()
    {
        QTemporaryDir tmp;
        // A plain file where a directory is needed: nothing can be created below it.
        const QString blocker = tmp.filePath(QStringLiteral("blocker"));
        {
            QFile f(blocker);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        std::optional<Refusal> refused;
        QString error;
        const QString dir = blocker + QStringLiteral("/charts");
        refused = exportCharts(env().catalog(), Scenario{}, dir, QSize(400, 300));
        QVERIFY(refused);
        error = refused->message();
        QVERIFY2(error.contains(QStringLiteral("blocker")), qPrintable(error));

        // A directory where memory.png should go: the writer itself fails.
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("out/memory.png")));
        error.clear();
        refused = exportCharts(env().catalog(), Scenario{}, tmp.filePath(QStringLiteral("out")), QSize(400, 300));
        QVERIFY(refused);
        error = refused->message();
        QVERIFY2(error.contains(QStringLiteral("memory.png")), qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot write")), qPrintable(error));
        QCOMPARE(QDir(tmp.filePath(QStringLiteral("out"))).entryList(QDir::Files), QStringList());
    }

    void refusedScenarioIsNotDrawn()
    {
        Scenario s;
        s.model.heads = 7;
        QTemporaryDir tmp;
        std::optional<Refusal> refused;
        QString error;
        refused = exportCharts(env().catalog(), s, tmp.path(), QSize(400, 300));
        QVERIFY(refused);
        error = refused->message();
        QVERIFY2(error.startsWith(QStringLiteral("heads")), qPrintable(error));
        QVERIFY(QDir(tmp.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_MAIN(TestExport)
#include "tst_ui_export.moc"
