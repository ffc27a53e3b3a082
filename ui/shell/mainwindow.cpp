#include "ui/shell/mainwindow.h"
#include "ui/widgets/cachedscrollbar.h"
#include "ui/widgets/scalingstyle.h"
#include "ui/widgets/undokeyguard.h"

#include "core/report/baseline.h"
#include "core/model/lectureexample.h"

#include "ui/views/chartrender.h"
#include "ui/controls/controlspanel.h"
#include "ui/views/dashboard.h"
#include "ui/shell/fileactions.h"
#include "ui/shell/calibratedialog.h"
#include "ui/shell/helpdialog.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/shell/settingsstore.h"
#include "ui/widgets/wheelguard.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace napkin::ui {

namespace {
constexpr double kFontStep = 1.15;
// Five steps up: the largest text at which every chart stays readable in a 1280x720 window
// (tabs, controls shown; tests/ui/tst_x11_layout.cpp checks each step).
constexpr double kMaxFontScale = 2.0;
constexpr double kMinFontScale = 0.65;
constexpr int kNoticeMs = 8000;
} // namespace

MainWindow::MainWindow(const Catalog &catalog, const Scenario &initial, QWidget *parent)
    : QMainWindow(parent),
      m_controller(new ScenarioController(catalog, initial, this)),
      m_controls(new ControlsPanel(m_controller, this)),
      m_dashboard(new Dashboard(catalog, this)),
      m_files(new FileActions(m_controller, m_dashboard, this)),
      m_splitter(new QSplitter(Qt::Horizontal, this)),
      m_scroll(new QScrollArea(m_splitter)),
      m_baseFont(QApplication::font())
{
    setWindowTitle(tr("Napkin — transformer training on the back of a napkin"));
    m_scroll->setWidget(m_controls);
    m_controls->installEventFilter(this);  // its column follows its width (fitControlsColumn)
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Its range changes with the panel's height at each mode switch: the drawing is kept.
    m_scroll->setVerticalScrollBar(new CachedScrollBar(Qt::Vertical, m_scroll));
    m_scroll->setAccessibleName(tr("Scenario controls"));
    new WheelGuard(m_scroll);  // the wheel scrolls the panel, not the controls it passes over
    new UndoKeyGuard(this);    // Ctrl+Z in a spin box undoes the window's last change
    m_splitter->addWidget(m_scroll);
    m_splitter->addWidget(m_dashboard);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);
    statusBar()->showMessage(tr("Drag a slider: memory, time and the roofline follow."), kNoticeMs);

    connect(m_controller, &ScenarioController::reportChanged, m_dashboard, &Dashboard::setReport);
    // One layout pass per change, however many widgets it shows or hides (LayoutBatch).
    connect(m_controller, &ScenarioController::changesBegin, this, [this] { m_layoutBatch.hold(this); });
    connect(m_controller, &ScenarioController::changesEnd, this, [this] { m_layoutBatch.release(); });
    connect(m_dashboard, &Dashboard::layoutChosen, m_controller,
            [this](const Scenario &s, const QString &what) { m_controller->propose(s, what); });
    connect(m_dashboard, &Dashboard::budgetApplied, m_controller,
            [this](const Scenario &s, const QString &what) { m_controller->propose(s, what); });
    connect(m_controller, &ScenarioController::errorChanged, m_dashboard, &Dashboard::setError);
    connect(m_controller, &ScenarioController::interactionChanged, m_dashboard,
            &Dashboard::setDragging);
    connect(m_controls, &ControlsPanel::notice, this,
            [this](const QString &text) { statusBar()->showMessage(text, kNoticeMs); });
    connect(m_controller, &ScenarioController::notice, this,
            [this](const QString &text) { statusBar()->showMessage(text, kNoticeMs); });
    connect(m_files, &FileActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, kNoticeMs); });
    if (m_controller->report())
        m_dashboard->setReport(*m_controller->report());
    if (m_controller->error())
        m_dashboard->setError(m_controller->error()->message());

    buildMenus();
    setByteUnit(settings::byteUnit());
    setFontScale(settings::fontScale());
    resize(1280, 720);
}

MainWindow::~MainWindow()
{
    // The text size was set application-wide; the next window starts from the same base.
    QApplication::setFont(m_baseFont);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Scenario…"), m_files, &FileActions::open);
    open->setShortcut(QKeySequence::Open);
    QAction *save = file->addAction(tr("&Save Scenario"), m_files, &FileActions::save);
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs = file->addAction(tr("Save Scenario &As…"), m_files, &FileActions::saveAs);
    saveAs->setShortcut(QKeySequence::SaveAs);
    QAction *lecture = file->addAction(tr("Open the Source Document's E&xample"), this, &MainWindow::openLectureExample);
    lecture->setStatusTip(tr("CS336 lecture 2: N = 124e6 given, D = 300e9, 6ND, no activations, nothing reserved"));
    file->addSeparator();
    // One submenu per format, each listing every picture.
    const std::pair<ImageFormat, QString> exportMenus[] = {{ImageFormat::Png, tr("&Export as PNG")},
                                                           {ImageFormat::Svg, tr("Export as S&VG")},
                                                           {ImageFormat::Pdf, tr("Export as P&DF")}};
    // The serving curve is inference mode's: in training mode it would be an empty picture.
    QList<QAction *> servingOnly;
    for (const auto &menu : exportMenus) {
        QMenu *exportMenu = file->addMenu(menu.second);
        const ImageFormat format = menu.first;
        for (ChartKind kind : kAllChartKinds) {
            QAction *action = exportMenu->addAction(chartTitle(kind) + QStringLiteral("…"), this,
                                                    [this, kind, format] { m_files->exportInteractive(kind, format); });
            if (kind == ChartKind::Serving)
                servingOnly << action;
        }
    }
    QMenu *copyMenu = file->addMenu(tr("&Copy to Clipboard"));
    for (ChartKind kind : kAllChartKinds) {
        QAction *copy = copyMenu->addAction(chartTitle(kind), this, [this, kind] { m_files->copyChart(kind); });
        if (kind == ChartKind::Dashboard)
            copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        if (kind == ChartKind::Serving)
            servingOnly << copy;
    }
    const auto syncMode = [servingOnly](const Scenario &s) {
        for (QAction *action : servingOnly)
            action->setVisible(s.mode == Mode::Inference);
    };
    connect(m_controller, &ScenarioController::scenarioChanged, this, syncMode);
    syncMode(m_controller->scenario());
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_controller->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_controller->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    // Pinning is a change of the scenario like any other: undoable, saved with it, exported.
    QAction *pin = edit->addAction(tr("&Pin Baseline"), this, [this] {
        m_controller->propose(withBaselinePinned(m_controller->scenario()), tr("Pin baseline"));
    });
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    pin->setStatusTip(tr("Keep this scenario as a ghost on every chart and compare what you change with it"));
    QAction *unpin = edit->addAction(tr("U&npin Baseline"), this, [this] {
        m_controller->propose(withoutBaseline(m_controller->scenario()), tr("Unpin baseline"));
    });
    edit->addSeparator();
    // Calibration is a change of the scenario too: one undo step, saved in its file.
    QAction *calibrateAction = edit->addAction(tr("&Calibrate from a Measured Run…"), this, [this] {
        CalibrateDialog dialog(m_controller->scenario(), m_controller->catalog(), this);
        if (dialog.exec() == QDialog::Accepted && dialog.calibrated())
            m_controller->propose(*dialog.calibrated(), tr("Calibrate from a measured run"));
    });
    calibrateAction->setStatusTip(tr("Fit the estimated step to one you measured (napkin calibrate)"));
    QAction *uncalibrate = edit->addAction(tr("Remove Ca&libration"), this, [this] {
        Scenario s = m_controller->scenario();
        s.calibration.reset();
        m_controller->propose(s, tr("Remove calibration"));
    });
    const auto syncPin = [unpin, uncalibrate, calibrateAction](const Scenario &s) {
        unpin->setEnabled(static_cast<bool>(s.baseline));
        uncalibrate->setEnabled(s.calibration.has_value());
        calibrateAction->setEnabled(s.mode == Mode::Training);
    };
    connect(m_controller, &ScenarioController::scenarioChanged, this, syncPin);
    syncPin(m_controller->scenario());
    // The status bar's last notice described the step now undone; say what happened instead.
    QUndoStack *stack = m_controller->undoStack();
    connect(undo, &QAction::triggered, this, [this, stack] {
        if (const QUndoCommand *c = stack->command(stack->index()))
            statusBar()->showMessage(tr("Undone: %1").arg(c->text()), kNoticeMs);
    });
    connect(redo, &QAction::triggered, this, [this, stack] {
        if (const QUndoCommand *c = stack->command(stack->index() - 1))
            statusBar()->showMessage(tr("Redone: %1").arg(c->text()), kNoticeMs);
    });
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::openLectureExample()
{
    m_controller->propose(lectureExample(), tr("Open the source document's example"));
    // Its 1.984 GB under an 80 GiB axis would hide the 2 / 2 / 12 bytes split it teaches.
    m_dashboard->memoryPanel()->setAxisFocus(MemoryPanel::AxisFocus::ChosenStage);
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *full = view->addAction(tr("&Full Screen"));
    full->setCheckable(true);
    QList<QKeySequence> fullKeys = QKeySequence::keyBindings(QKeySequence::FullScreen);
    if (!fullKeys.contains(QKeySequence(Qt::Key_F11)))
        fullKeys.prepend(QKeySequence(Qt::Key_F11));
    full->setShortcuts(fullKeys);
    connect(full, &QAction::toggled, this, &MainWindow::toggleFullScreen);
    m_showControls = view->addAction(tr("Show &Controls"));
    m_showControls->setCheckable(true);
    m_showControls->setChecked(true);
    m_showControls->setShortcut(QKeySequence(Qt::Key_F9));
    m_showControls->setToolTip(tr("Hide the controls to give the charts the whole window"));
    connect(m_showControls, &QAction::toggled, m_scroll, &QWidget::setVisible);
    QMenu *arrangement = view->addMenu(tr("C&harts"));
    auto *arrangementGroup = new QActionGroup(this);
    const std::pair<Dashboard::Arrangement, QString> arrangements[] = {
        {Dashboard::Arrangement::Auto, tr("&Automatic (tabs when the text is too large)")},
        {Dashboard::Arrangement::Grid, tr("All &Together")},
        {Dashboard::Arrangement::Tabs, tr("One at a &Time (tabs)")},
    };
    for (const auto &[which, label] : arrangements) {
        QAction *a = arrangement->addAction(label);
        a->setCheckable(true);
        a->setChecked(which == Dashboard::Arrangement::Auto);
        arrangementGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, chosen = which] { m_dashboard->setArrangement(chosen); });
    }
    view->addSeparator();
    // From anywhere in the window: a tab widget's own Ctrl+Tab works only with the focus inside
    // it, and a presenter's focus is mostly in the controls.
    QAction *next = view->addAction(tr("Ne&xt Chart"), this, [this] { m_dashboard->showNextPage(1); });
    next->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown)});
    QAction *previous = view->addAction(tr("Pre&vious Chart"), this, [this] { m_dashboard->showNextPage(-1); });
    previous->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab),
                            QKeySequence(Qt::CTRL | Qt::Key_PageUp)});
    view->addSeparator();
    QAction *bigger = view->addAction(tr("&Bigger Text"), this, [this] { setFontScale(m_fontScale * kFontStep); });
    QList<QKeySequence> biggerKeys = QKeySequence::keyBindings(QKeySequence::ZoomIn);
    biggerKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Equal));
    bigger->setShortcuts(biggerKeys);
    QAction *smaller = view->addAction(tr("&Smaller Text"), this, [this] { setFontScale(m_fontScale / kFontStep); });
    smaller->setShortcuts(QKeySequence::ZoomOut);
    QAction *normal = view->addAction(tr("&Normal Text Size"), this, [this] { setFontScale(1); });
    normal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    m_unitGroup = new QActionGroup(this);
    for (ByteUnit unit : {ByteUnit::GB, ByteUnit::GiB}) {
        QAction *a = view->addAction(unit == ByteUnit::GB ? tr("Memory in &GB (10⁹ bytes)") : tr("Memory in G&iB (2³⁰ bytes)"));
        a->setCheckable(true);
        a->setData(static_cast<int>(unit));
        m_unitGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, unit] { setByteUnit(unit); });
    }
    view->addSeparator();
    view->addAction(tr("&Reset Roofline View"), m_dashboard->rooflinePanel(), &RooflinePanel::resetView);
}

void MainWindow::buildHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *how = help->addAction(tr("&How the Numbers Are Computed"), this, [this] {
        if (!m_help)
            m_help = new HelpDialog(this);
        m_help->show();
        m_help->raise();
    });
    how->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Napkin"), this, [this] {
        QMessageBox::about(this, tr("About Napkin"),
                           tr("<h3>Napkin %1</h3><p>Transformer training resource accounting: memory, "
                              "time and roofline, computed from one scenario.</p><p>Help &gt; How the "
                              "numbers are computed lists every formula and its source.</p>")
                               .arg(QStringLiteral(NAPKIN_VERSION)));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::toggleFullScreen(bool on)
{
    if (on)
        showFullScreen();
    else
        showNormal();
}

void MainWindow::setByteUnit(ByteUnit unit)
{
    m_unit = unit;
    ViewOptions options = m_dashboard->viewOptions();
    options.unit = unit;
    m_dashboard->setViewOptions(options);
    m_controls->setByteUnit(unit);
    for (QAction *a : m_unitGroup->actions())
        a->setChecked(a->data().toInt() == static_cast<int>(unit));
}

void MainWindow::setFontScale(double scale)
{
    m_fontScale = std::clamp(scale, kMinFontScale, kMaxFontScale);
    QFont f = m_baseFont;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(m_baseFont.pointSizeF() * m_fontScale);
    else
        f.setPixelSize(static_cast<int>(m_baseFont.pixelSize() * m_fontScale));
    // The whole application, so menus, dialogs and tooltips grow with the charts; the window
    // itself at once, so the controls' width below is measured in the new size.
    QApplication::setFont(f);
    setFont(f);
    // Check boxes, slider handles and spin buttons grow with the text. The style changes after
    // the font, and tells every widget, so that none keeps a size measured between the two
    // (combo boxes had kept a height a text size too tall after Normal Text Size).
    ScalingStyle::ensureInstalled()->setScale(m_fontScale);
    fitControlsColumn(true);
}

void MainWindow::fitControlsColumn(bool mayNarrow)
{
    m_fitControlsPending = false;
    const int scrollBar = m_scroll->verticalScrollBar()->sizeHint().width();
    int wanted = m_controls->minimumSizeHint().width() + scrollBar + 2 * m_scroll->frameWidth();
    // Between text sizes the column only widens: a mode switch that hides wide rows must not
    // move the charts back and forth.
    if (!mayNarrow)
        wanted = std::max(wanted, m_scroll->minimumWidth());
    if (m_scroll->minimumWidth() != wanted)
        m_scroll->setMinimumWidth(wanted);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Whatever changes the controls' needs (a row shown, a note, a text size) asks for a
    // layout: the column follows once the events in hand are done.
    if (watched == m_controls && event->type() == QEvent::LayoutRequest && !m_fitControlsPending) {
        m_fitControlsPending = true;
        QTimer::singleShot(0, this, [this] { fitControlsColumn(false); });
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::restoreSavedGeometry()
{
    const QByteArray geometry = settings::windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = settings::windowState();
    if (!state.isEmpty())
        restoreState(state);
}

void MainWindow::saveSettings() const
{
    settings::saveLastScenario(m_controller->scenario());
    settings::saveWindowGeometry(saveGeometry());
    settings::saveWindowState(saveState());
    settings::saveByteUnit(m_unit);
    settings::saveFontScale(m_fontScale);
}

bool MainWindow::event(QEvent *event)
{
    if (event->type() == QEvent::UpdateRequest) {
        // A frame starts here. What a change has left waiting is done before it paints, not
        // after: layouts (a chart's, once its plot area moved), then queued calls, among them
        // each chart scene's report of what changed, which marks its view dirty. Left until
        // after, each would paint its view once more in a frame of its own; a mode switch took
        // five paint passes so (BENCH_PROFILE=mode), one now.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::MetaCall);
    }
    // (The type first: events reach a window while its members are still being made.)
    if (event->type() == QEvent::Paint && m_iconPending) {
        m_iconPending = false;
        QTimer::singleShot(0, this, &MainWindow::setUpWindowIcon);
    }
    return QMainWindow::event(event);
}

void MainWindow::setUpWindowIcon()
{
    setWindowIcon(QIcon::fromTheme(QStringLiteral("napkin"), QIcon(QStringLiteral(":/napkin/ui/napkin.svg"))));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    event->accept();
}

} // namespace napkin::ui
