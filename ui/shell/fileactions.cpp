#include "ui/shell/fileactions.h"

#include "ui/views/chartrender.h"
#include "ui/views/dashboard.h"
#include "ui/views/servingcurve.h"
#include "ui/views/budgetpanel.h"
#include "ui/views/layoutpicture.h"
#include "ui/views/steptimepanel.h"
#include "ui/shell/exportdialog.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/imageformat.h"
#include "ui/state/scenariocontroller.h"
#include "core/io/safefile.h"
#include "core/io/scenariojson.h"
#include "core/model/validation.h"
#include "ui/views/timepanel.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMessageBox>
#include <QStandardPaths>

namespace napkin::ui {

FileActions::FileActions(ScenarioController *controller, Dashboard *dashboard, QWidget *window)
    : QObject(window), m_controller(controller), m_dashboard(dashboard), m_window(window)
{
}

std::optional<Refusal> FileActions::openScenario(const QString &path)
{
    const auto s = readScenarioFile(path, Scenario{});
    if (!s.ok())
        return s.refusal();
    m_controller->propose(*s, tr("Open %1").arg(QDir::toNativeSeparators(path)));
    m_path = path;
    emit message(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return std::nullopt;
}

std::optional<Refusal> FileActions::saveScenario(const QString &path)
{
    if (auto refused = writeScenarioFile(path, m_controller->scenario()))
        return refused;
    m_path = path;
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return std::nullopt;
}

std::optional<Refusal> FileActions::exportChart(ChartKind kind, const QString &path, QSize size, qreal scale,
                                                ImageFormat format)
{
    const auto &report = m_controller->report();
    if (!report)
        return Refusal{QString(), tr("there is no valid scenario to draw")};
    const auto bytes = renderChartFile(kind, *report, m_controller->catalog(), m_dashboard->viewOptions(), size,
                                       scale, format, m_dashboard->font());
    if (!bytes.ok())
        return Refusal{QString(), tr("cannot write %1: %2").arg(printable(QDir::toNativeSeparators(path)),
                                                                bytes.refusal().message())};
    if (auto refused = writeFileAtomically(path, *bytes))
        return refused;
    const QSize written = format == ImageFormat::Png ? (QSizeF(size) * scale).toSize() : size;
    emit message(tr("Exported %1 (%2 × %3 px)").arg(QDir::toNativeSeparators(path)).arg(written.width()).arg(written.height()));
    return std::nullopt;
}

void FileActions::copyChart(ChartKind kind)
{
    const auto &report = m_controller->report();
    if (!report)
        return;
    QGuiApplication::clipboard()->setImage(renderChart(kind, *report, m_controller->catalog(),
                                                       m_dashboard->viewOptions(), onScreenSize(kind), 2,
                                                       m_dashboard->font()));
    emit message(tr("Copied the %1 to the clipboard").arg(chartTitle(kind).toLower()));
}

QSize FileActions::onScreenSize(ChartKind kind) const
{
    QSize s;
    switch (kind) {
    case ChartKind::Memory: s = m_dashboard->memoryPanel()->size(); break;
    case ChartKind::Time: s = m_dashboard->timePanel()->size(); break;
    case ChartKind::Roofline: s = m_dashboard->rooflinePanel()->size(); break;
    case ChartKind::Dashboard: s = m_dashboard->size(); break;
    case ChartKind::StepTime: s = m_dashboard->stepTimePanel()->size(); break;
    case ChartKind::Layout: s = m_dashboard->layoutPicture()->size(); break;
    case ChartKind::Budget: s = m_dashboard->budgetPanel()->size(); break;
    case ChartKind::Serving: s = m_dashboard->servingCurve()->size(); break;
    }
    return s.expandedTo(QSize(640, 400));
}

void FileActions::open()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open scenario"), QFileInfo(m_path).path(),
                                                      tr("Napkin scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto refused = openScenario(path))
        warn(tr("Cannot open scenario"), *refused);
}

void FileActions::save()
{
    if (m_path.isEmpty()) {
        saveAs();
        return;
    }
    if (auto refused = saveScenario(m_path))
        warn(tr("Cannot save scenario"), *refused);
}

void FileActions::saveAs()
{
    const QString start = m_path.isEmpty()
                              ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                    + QStringLiteral("/scenario.json")
                              : m_path;
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save scenario"), start,
                                                      tr("Napkin scenarios (*.json)"));
    if (path.isEmpty())
        return;
    if (auto refused = saveScenario(pathWithSuffix(path, QStringLiteral("json"))))
        warn(tr("Cannot save scenario"), *refused);
}

void FileActions::exportInteractive(ChartKind kind, ImageFormat format)
{
    ExportDialog dialog(chartTitle(kind).toLower(), onScreenSize(kind), format, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString start = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation) + QLatin1Char('/')
                          + chartFileName(kind, format);
    QString filter;
    switch (format) {
    case ImageFormat::Png: filter = tr("PNG images (*.png)"); break;
    case ImageFormat::Svg: filter = tr("SVG drawings (*.svg)"); break;
    case ImageFormat::Pdf: filter = tr("PDF documents (*.pdf)"); break;
    }
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(chartTitle(kind).toLower()),
                                                      start, filter);
    if (path.isEmpty())
        return;
    if (auto refused = exportChart(kind, pathWithSuffix(path, imageFormatName(format)), dialog.logicalSize(), dialog.scale(), format))
        warn(tr("Cannot export"), *refused);
}

QString pathWithSuffix(const QString &path, const QString &suffix)
{
    const QFileInfo info(path);
    const QString current = info.suffix().toLower();
    if (current == suffix)
        return path;
    bool known = current == QLatin1String("json");
    for (ImageFormat f : kAllImageFormats)
        known |= current == imageFormatName(f);
    const QString stem = known ? path.left(path.size() - current.size() - 1) : path;
    return stem + QLatin1Char('.') + suffix;
}

void FileActions::warn(const QString &title, const Refusal &refusal)
{
    QMessageBox::warning(m_window, title, refusal.message());
}

} // namespace napkin::ui
