#pragma once

#include "core/model/refusal.h"
#include "ui/state/imageformat.h"
#include "ui/state/viewoptions.h"

#include <QObject>
#include <QSize>
#include <QString>

class QWidget;

namespace napkin::ui {

class Dashboard;
class ScenarioController;

/// File > Open, Save, Export and Edit > Copy. The dialog-free functions do the work (and are
/// what the tests call); the interactive ones only ask for paths and sizes first.
class FileActions final : public QObject
{
    Q_OBJECT

public:
    FileActions(ScenarioController *controller, Dashboard *dashboard, QWidget *window);

    /// Reads a scenario file (the `--scenario` format) and makes it the current scenario as one undo step.
    std::optional<Refusal> openScenario(const QString &path);
    /// Writes the current scenario atomically.
    std::optional<Refusal> saveScenario(const QString &path);
    /// Renders one chart (or the dashboard) for the current report and writes it in `format`
    /// (`scale` changes only a PNG).
    std::optional<Refusal> exportChart(ChartKind kind, const QString &path, QSize size, qreal scale,
                                       ImageFormat format = ImageFormat::Png);
    /// Puts the chart as it is on screen, at 2x, on the clipboard.
    void copyChart(ChartKind kind);
    /// The chart's current on-screen size (the default export size).
    QSize onScreenSize(ChartKind kind) const;
    QString currentPath() const { return m_path; }

    void open();
    void save();
    void saveAs();
    void exportInteractive(ChartKind kind, ImageFormat format = ImageFormat::Png);

signals:
    /// A short confirmation for the status bar.
    void message(const QString &text);

private:
    /// The one place a file action's refusal reaches the user: a warning dialog with its sentence.
    void warn(const QString &title, const Refusal &refusal);

    ScenarioController *m_controller;
    Dashboard *m_dashboard;
    QWidget *m_window;
    QString m_path;
};

/// The path a save dialog's answer names, ending in `suffix` ("png"): another format's ending
/// (".svg", ".pdf", ".png", ".json") is replaced, none is added, so a PNG is never written
/// under a name that says SVG.
QString pathWithSuffix(const QString &path, const QString &suffix);

} // namespace napkin::ui
