// SVG and PDF export: every chart's words come back as text (SVG <text> elements, pdftotext),
// none as a picture; the SVG's width, height and viewBox and the PDF's page are the requested
// pixels; exportCharts() writes every chart of a format all or none; the window's File menu
// offers both; clipping holds (a chart's line stops at its plot).

#include "ui/views/chartrender.h"
#include "ui/shell/fileactions.h"
#include "ui/shell/gui.h"
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTransform>
#include <QXmlStreamReader>

using namespace napkin;
using namespace napkin::ui;

namespace {

/// What a test needs of an SVG file.
struct Svg {
    bool valid = false;
    QString width, height, viewBox;
    QStringList texts;
    int images = 0;
    QList<double> pathXs;  ///< every x coordinate of every path, in viewBox units
};

Svg readSvg(const QByteArray &bytes)
{
    Svg svg;
    QXmlStreamReader xml(bytes);
    // QSvgGenerator writes each state as <g transform="matrix(a,b,c,d,e,f)"> and each path's
    // points as "M x,y L x,y ..." in that group's coordinates.
    static const QRegularExpression point(QStringLiteral("[ML](-?[0-9.e+-]+),(-?[0-9.e+-]+)"));
    static const QRegularExpression matrix(QStringLiteral("matrix\\(([^)]*)\\)"));
    QList<QTransform> groups{QTransform()};
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::EndElement && xml.name() == QLatin1String("g") && groups.size() > 1)
            groups.removeLast();
        if (token != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("g")) {
            QTransform t;
            const auto m = matrix.match(xml.attributes().value(QLatin1String("transform")).toString());
            if (m.hasMatch()) {
                const QStringList v = m.captured(1).split(QLatin1Char(','));
                if (v.size() == 6)
                    t = QTransform(v[0].toDouble(), v[1].toDouble(), v[2].toDouble(), v[3].toDouble(), v[4].toDouble(),
                                   v[5].toDouble());
            }
            groups.append(t * groups.last());
        } else if (name == QLatin1String("svg")) {
            svg.width = xml.attributes().value(QLatin1String("width")).toString();
            svg.height = xml.attributes().value(QLatin1String("height")).toString();
            svg.viewBox = xml.attributes().value(QLatin1String("viewBox")).toString().simplified();
        } else if (name == QLatin1String("text")) {
            svg.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (name == QLatin1String("image")) {
            ++svg.images;
        } else if (name == QLatin1String("path")) {
            auto it = point.globalMatch(xml.attributes().value(QLatin1String("d")).toString());
            while (it.hasNext()) {
                const auto m = it.next();
                svg.pathXs << groups.last().map(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble())).x();
            }
        }
    }
    svg.valid = !xml.hasError();
    return svg;
}

/// A tool's standard output, or a failure naming the Debian package it comes in.
QString runTool(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("FAILED: %1 (Debian package poppler-utils, installed by tools/setup.sh test): %2")
            .arg(program, QString::fromUtf8(p.readAllStandardError()));
    return QString::fromUtf8(p.readAllStandardOutput());
}

/// Text as a reader copies it: no-break spaces as spaces, ligatures (a PDF's "ﬁ") as letters.
QString plain(const QString &text)
{
    return text.normalized(QString::NormalizationForm_KC).replace(QChar(0x00A0), QLatin1Char(' ')).simplified();
}

/// Words every export of the chart must carry as text: titles, axis titles, bar labels,
/// legend entries and the caption, for the default scenario.
QStringList labelsOf(ChartKind kind)
{
    const QStringList caption = {QStringLiteral("GPT-2 small"), QStringLiteral("bf16 mixed precision")};
    switch (kind) {
    case ChartKind::Memory:
        return caption + QStringList{QStringLiteral("Memory per GPU"), QStringLiteral("GB per GPU"),
                                     QStringLiteral("marks the chosen ZeRO stage"), QStringLiteral("ZeRO 1"),
                                     QStringLiteral("ZeRO 3"), QStringLiteral("Params 0.249 GB"),
                                     QStringLiteral("Optimizer + master"), QStringLiteral("Activations"),
                                     QStringLiteral("= total"), QStringLiteral("Capacity 80 GiB"),
                                     QStringLiteral("FITS at ZeRO 0")};
    case ChartKind::Roofline:
        return caption + QStringList{QStringLiteral("Roofline: H100"), QStringLiteral("Attainable TFLOP/s"),
                                     QStringLiteral("FLOPs per byte"), QStringLiteral("Matmul"),
                                     QStringLiteral("Attention"), QStringLiteral("implied MFU")};
    case ChartKind::Dashboard:
        return {QStringLiteral("GPT-2 small"), QStringLiteral("Memory per GPU"), QStringLiteral("Roofline: H100"),
                QStringLiteral("Training time and cost"), QStringLiteral("Wall clock"), QStringLiteral("Every GPU"),
                QStringLiteral("H100 SXM"), QStringLiteral("days")};
    default:
        return caption;
    }
}

} // namespace

class TestVectorExport final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void svgKeepsTextAndPixels_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QSize>("size");
        QTest::newRow("memory 800x500") << static_cast<int>(ChartKind::Memory) << QSize(800, 500);
        QTest::newRow("memory 1920x1080") << static_cast<int>(ChartKind::Memory) << QSize(1920, 1080);
        QTest::newRow("roofline 1000x700") << static_cast<int>(ChartKind::Roofline) << QSize(1000, 700);
        QTest::newRow("dashboard 1280x720") << static_cast<int>(ChartKind::Dashboard) << QSize(1280, 720);
    }

    void svgKeepsTextAndPixels()
    {
        QFETCH(int, kind);
        QFETCH(QSize, size);
        const auto bytes = renderChartFile(static_cast<ChartKind>(kind), env().report(Scenario{}), env().catalog(),
                                           ViewOptions{}, size, 1, ImageFormat::Svg);
        QVERIFY2(bytes.ok(), qPrintable(bytes.refusalMessage()));
        const Svg svg = readSvg(*bytes);
        QVERIFY(svg.valid);
        // Pixels, as the viewBox: a renderer draws it at exactly the requested size.
        QCOMPARE(svg.width, QString::number(size.width()));
        QCOMPARE(svg.height, QString::number(size.height()));
        QCOMPARE(svg.viewBox, QStringLiteral("0 0 %1 %2").arg(size.width()).arg(size.height()));
        // No pixmap cache (legends, bar labels, group boxes) reached the file as a picture.
        QCOMPARE(svg.images, 0);
        QStringList texts;
        for (const QString &t : svg.texts)
            texts << plain(t);
        const QString all = texts.join(QLatin1Char('\n'));
        for (const QString &label : labelsOf(static_cast<ChartKind>(kind)))
            QVERIFY2(all.contains(label), qPrintable(label + QStringLiteral(" not among the <text> elements: ") + all));
        // Whatever the layout drew is inside the drawing: the roofline's flat roof runs on past
        // the plot and is cut at its edge, not at the page's.
        for (double x : svg.pathXs)
            QVERIFY2(x >= -1 && x <= size.width() + 1, qPrintable(QString::number(x)));
    }

    void pdfKeepsTextAndPage_data()
    {
        svgKeepsTextAndPixels_data();
    }

    void pdfKeepsTextAndPage()
    {
        QFETCH(int, kind);
        QFETCH(QSize, size);
        const auto bytes = renderChartFile(static_cast<ChartKind>(kind), env().report(Scenario{}), env().catalog(),
                                           ViewOptions{}, size, 1, ImageFormat::Pdf);
        QVERIFY2(bytes.ok(), qPrintable(bytes.refusalMessage()));
        QVERIFY(bytes->startsWith("%PDF-"));
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("chart.pdf"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(*bytes) == bytes->size());
        file.close();

        // A page of the requested pixels at 96 per inch: 0.75 points per pixel.
        const QString info = runTool(QStringLiteral("pdfinfo"), {path});
        QVERIFY2(!info.startsWith(QStringLiteral("FAILED")), qPrintable(info));
        const QRegularExpression pageSize(QStringLiteral("Page size:\\s+([0-9.]+) x ([0-9.]+) pts"));
        const auto page = pageSize.match(info);
        QVERIFY2(page.hasMatch(), qPrintable(info));
        QCOMPARE(qRound(page.captured(1).toDouble()), qRound(size.width() * 0.75));
        QCOMPARE(qRound(page.captured(2).toDouble()), qRound(size.height() * 0.75));

        const QString text = runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
        QVERIFY2(!text.startsWith(QStringLiteral("FAILED")), qPrintable(text));
        const QString all = plain(text);
        for (const QString &label : labelsOf(static_cast<ChartKind>(kind)))
            QVERIFY2(all.contains(label), qPrintable(label + QStringLiteral(" not in the PDF's text: ") + all));

        // `pdfimages -list` prints two lines of heading and one line per picture.
        const QString images = runTool(QStringLiteral("pdfimages"), {QStringLiteral("-list"), path});
        QVERIFY2(!images.startsWith(QStringLiteral("FAILED")), qPrintable(images));
        QCOMPARE(images.trimmed().split(QLatin1Char('\n')).size(), 2);
    }

    // `napkin export --format svg|pdf`: every chart's name with the format's suffix, all or none.
    void exportChartsWritesEveryFormat_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << static_cast<int>(ImageFormat::Svg) << QByteArray("<?xml");
        QTest::newRow("pdf") << static_cast<int>(ImageFormat::Pdf) << QByteArray("%PDF-");
    }

    void exportChartsWritesEveryFormat()
    {
        QFETCH(int, format);
        QFETCH(QByteArray, magic);
        const auto f = static_cast<ImageFormat>(format);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("charts"));
        const auto done = exportCharts(env().catalog(), Scenario{}, dir, QSize(700, 450), 2, ByteUnit::GB,
                                       MemoryAxisFocus::AllStages, f);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        QStringList expected;
        for (ChartKind kind : exportedChartKinds(Mode::Training)) {
            const QString name = chartFileName(kind, f);
            QVERIFY(name.endsWith(QLatin1Char('.') + imageFormatName(f)));
            expected << name;
            QFile file(QDir(dir).filePath(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(name));
            QVERIFY2(file.read(magic.size()) == magic, qPrintable(name));
        }
        expected.sort();
        QCOMPARE(QDir(dir).entryList(QDir::Files, QDir::Name), expected);  // no PNGs, no partial files

        // An unwritable target: nothing written, the message names the file.
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("out/") + chartFileName(ChartKind::Time, f)));
        const auto refused = exportCharts(env().catalog(), Scenario{}, tmp.filePath(QStringLiteral("out")),
                                          QSize(400, 300), 1, ByteUnit::GB, MemoryAxisFocus::AllStages, f);
        QVERIFY(refused);
        QVERIFY2(refused->message().contains(chartFileName(ChartKind::Time, f)), qPrintable(refused->message()));
        QCOMPARE(QDir(tmp.filePath(QStringLiteral("out"))).entryList(QDir::Files), QStringList());
    }

    // The window: File > Export as SVG and as PDF list every picture, and the export the dialog
    // leads to writes the file in that format at the size asked.
    void windowExportsVectors()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        QMenu *file = nullptr;
        for (QAction *a : w.menuBar()->actions())
            if (a->text().remove(QLatin1Char('&')) == QLatin1String("File"))
                file = a->menu();
        QVERIFY(file);
        QStringList formats;
        for (QAction *a : file->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')).startsWith(QLatin1String("Export as "))) {
                formats << a->text().remove(QLatin1Char('&')).mid(10);
                QCOMPARE(a->menu()->actions().size(), qsizetype(kChartKinds));
            }
        QCOMPARE(formats, (QStringList{QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("PDF")}));

        QTemporaryDir tmp;
        const QString svgPath = tmp.filePath(QStringLiteral("memory.svg"));
        auto done = w.fileActions()->exportChart(ChartKind::Memory, svgPath, QSize(640, 400), 2, ImageFormat::Svg);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        QFile svgFile(svgPath);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const Svg svg = readSvg(svgFile.readAll());
        QVERIFY(svg.valid);
        QCOMPARE(svg.viewBox, QStringLiteral("0 0 640 400"));  // a vector file has no 2x
        QVERIFY(plain(svg.texts.join(QLatin1Char('\n'))).contains(QStringLiteral("Memory per GPU")));

        const QString pdfPath = tmp.filePath(QStringLiteral("roofline.pdf"));
        done = w.fileActions()->exportChart(ChartKind::Roofline, pdfPath, QSize(640, 400), 1, ImageFormat::Pdf);
        QVERIFY2(!done, qPrintable(messageOf(done)));
        QFile pdfFile(pdfPath);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
    }
};

QTEST_MAIN(TestVectorExport)
#include "tst_ui_vectorexport.moc"
