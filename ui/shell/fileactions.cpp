#include "ui/shell/fileactions.h"

#include "ui/views/chartrender.h"
#include "ui/views/dashboard.h"
#include "ui/views/layoutpicture.h"
#include "ui/views/steptimepanel.h"
#include "ui/shell/exportdialog.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"
#include "core/io/scenariojson.h"
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

bool FileActions::openScenario(const QString &path, QString *error)
{
    Refusal e;
    const auto s = readScenarioFile(path, Scenario{}, &e);
    if (!s) {
        if (error)
            *error = e.message();
        return false;
    }
    m_controller->propose(*s, tr("Open %1").arg(QDir::toNativeSeparators(path)));
    m_path = path;
    emit message(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileActions::saveScenario(const QString &path, QString *error)
{
    if (!writeScenarioFile(path, m_controller->scenario(), error))
        return false;
    m_path = path;
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileActions::exportChart(ChartKind kind, const QString &path, QSize size, qreal scale, QString *error)
{
    const auto &report = m_controller->report();
    if (!report) {
        if (error)
            *error = tr("there is no valid scenario to draw");
        return false;
    }
    const QImage image = renderChart(kind, *report, m_controller->catalog(), m_dashboard->viewOptions(), size,
                                     scale, m_dashboard->font());
    if (!writePng(image, path, error))
        return false;
    emit message(tr("Exported %1 (%2 × %3 px)").arg(QDir::toNativeSeparators(path)).arg(image.width()).arg(image.height()));
    return true;
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
    }
    return s.expandedTo(QSize(640, 400));
}

void FileActions::open()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open scenario"), QFileInfo(m_path).path(),
                                                      tr("Napkin scenarios (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openScenario(path, &error))
        warn(tr("Cannot open scenario"), error);
}

void FileActions::save()
{
    if (m_path.isEmpty()) {
        saveAs();
        return;
    }
    QString error;
    if (!saveScenario(m_path, &error))
        warn(tr("Cannot save scenario"), error);
}

void FileActions::saveAs()
{
    const QString start = m_path.isEmpty()
                              ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                    + QStringLiteral("/scenario.json")
                              : m_path;
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save scenario"), start,
                                                      tr("Napkin scenarios (*.json)"));
    QString error;
    if (!path.isEmpty() && !saveScenario(path, &error))
        warn(tr("Cannot save scenario"), error);
}

void FileActions::exportInteractive(ChartKind kind)
{
    ExportDialog dialog(chartTitle(kind).toLower(), onScreenSize(kind), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString start = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation) + QLatin1Char('/')
                          + chartFileName(kind);
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(chartTitle(kind).toLower()),
                                                      start, tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportChart(kind, path, dialog.logicalSize(), dialog.scale(), &error))
        warn(tr("Cannot export"), error);
}

void FileActions::warn(const QString &title, const QString &text)
{
    QMessageBox::warning(m_window, title, text);
}

} // namespace napkin::ui
