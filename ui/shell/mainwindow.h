#pragma once

#include "core/model/catalog.h"
#include "core/model/scenario.h"
#include "core/text/units.h"
#include "ui/shell/layoutbatch.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QScrollArea;
class QSplitter;

namespace napkin::ui {

class ControlsPanel;
class Dashboard;
class FileActions;
class HelpDialog;
class ScenarioController;

/// Controls on the left, the dashboard on the right, menus for files, undo, view and help.
/// Owns the controller; remembers scenario, geometry, unit and font size in QSettings.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(const Catalog &catalog, const Scenario &initial, QWidget *parent = nullptr);
    ~MainWindow() override;

    ScenarioController *controller() const { return m_controller; }
    ControlsPanel *controls() const { return m_controls; }
    Dashboard *dashboard() const { return m_dashboard; }
    FileActions *fileActions() const { return m_files; }

    void setByteUnit(ByteUnit unit);
    ByteUnit byteUnit() const { return m_unit; }
    /// Text size relative to the system font, for projectors (View > Bigger / Smaller).
    void setFontScale(double scale);
    double fontScale() const { return m_fontScale; }
    /// Restores the geometry saved by the last closed window, if any.
    void restoreSavedGeometry();
    /// Saves scenario, geometry and view settings (also done on close).
    void saveSettings() const;
    /// File > Open the Source Document's Example: the lecture's scenario, undoable, with the
    /// memory axis on the chosen stage so its 2 / 2 / 12 split reads.
    void openLectureExample();

protected:
    void closeEvent(QCloseEvent *event) override;
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildMenus();
    void buildViewMenu();
    void buildHelpMenu();
    void toggleFullScreen(bool on);
    /// The controls never scroll sideways: their column is as wide as they need, whatever
    /// made them wider (a text size, a note that appeared: "(shape edited since the preset)");
    /// narrower only when `mayNarrow` (a new text size).
    void fitControlsColumn(bool mayNarrow);
    /// The window's icon, set once the first frame is painted: loading it (the SVG icon engine
    /// and the SVG module) is no part of what the first frame shows.
    void setUpWindowIcon();

    ScenarioController *m_controller;
    ControlsPanel *m_controls;
    bool m_iconPending = true;
    bool m_fitControlsPending = false;
    Dashboard *m_dashboard;
    FileActions *m_files;
    QSplitter *m_splitter;
    QScrollArea *m_scroll;
    QActionGroup *m_unitGroup = nullptr;
    HelpDialog *m_help = nullptr;
    QFont m_baseFont;
    ByteUnit m_unit = ByteUnit::GB;
    double m_fontScale = 1;
    QAction *m_showControls = nullptr;
    LayoutBatch m_layoutBatch;
};

} // namespace napkin::ui
