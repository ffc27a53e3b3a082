#pragma once

#include "core/model/catalog.h"
#include "core/text/formulas.h"
#include "core/report/report.h"
#include "ui/state/viewoptions.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QGridLayout;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace napkin::ui {

class Banner;
class BudgetPanel;
class LazyWidget;
class TextStrip;
class LayoutPicture;
class MemoryPanel;
class PlannerPanel;
class RooflinePanel;
class ServingCurvePanel;
class ServingMemoryPanel;
class StageMemoryPanel;
class StepTimePanel;
class TimePanel;

/// Every view of a report under a one-line summary of the scenario, on three pages: Overview
/// (memory and roofline side by side, time and cost and the every-GPU chart below; on a wide
/// screen the three side by side, see overviewgrid.h), Parallel training (memory per pipeline
/// stage, the step, the layout and the planner) and Budget (from a training budget to a
/// model). The main window's centre and the exported dashboard.
/// When the grid's cells would be too small for the text size (large text on a projector),
/// the views become tabs, one at a time at full size, instead of being clipped.
class Dashboard final : public QWidget
{
    Q_OBJECT

public:
    /// Grid: every view of the page at once; Tabs: one view at a time; Auto: tabs when the grid's cells would
    /// be smaller than minimumChartSize().
    enum class Arrangement { Auto, Grid, Tabs };

    explicit Dashboard(const Catalog &catalog, QWidget *parent = nullptr);

    void setArrangement(Arrangement arrangement);
    /// Grid or Tabs: what is shown now.
    Arrangement currentArrangement() const;
    /// The overview's columns now: 1 (tabs), 2 or 3 (a wide page).
    int overviewColumns() const { return m_tabbed ? 1 : m_columns; }
    /// The smallest readable chart at the current text size: room for a title, tick labels on
    /// both axes, axis titles and a few legend rows.
    QSize minimumChartSize() const;
    QTabWidget *tabs() const { return m_tabs; }
    /// The next (+1) or previous (-1) chart tab, or page of the grid, wrapping round and
    /// passing over those shut in this mode (View > Next Chart, Ctrl+Tab from anywhere).
    void showNextPage(int step);

    void setReport(const Report &report);
    /// Shows core's refusal of the current scenario (empty hides it); the last valid report stays.
    void setError(const QString &message);
    void setViewOptions(const ViewOptions &options);
    ViewOptions viewOptions() const;
    /// A slider is being dragged: axes hold still where they can (see axisCanStay()).
    void setDragging(bool dragging);
    /// Hides the interactive bits (toolbars) for a picture.
    void setExportMode(bool exporting);

    MemoryPanel *memoryPanel() const { return m_memory; }
    // The views below are built the first time they are shown or asked for (lazywidget.h):
    // each accessor builds its view if need be and gives it the newest report.
    /// Inference mode's memory chart, in the memory panel's place.
    ServingMemoryPanel *servingMemoryPanel();
    /// The memory view as placed in the grid or the tabs: it shows the memory panel in
    /// training mode and the serving memory panel in inference mode.
    QWidget *memoryCell() const;
    /// Inference mode's trade-off curve, beside the time panel's figures.
    ServingCurvePanel *servingCurve() const;
    StageMemoryPanel *stageMemoryPanel();
    StepTimePanel *stepTimePanel();
    LayoutPicture *layoutPicture();
    PlannerPanel *plannerPanel();
    BudgetPanel *budgetPanel();
    /// Whether the Parallel training page's and the Budget page's views have been built.
    bool parallelViewsBuilt() const;
    bool budgetBuilt() const;
    /// Grid arrangement: "Overview" (memory, roofline, time), "Parallel training" (stages,
    /// step, layout, planner) and "Budget", switched by the page bar beside the summary.
    /// Tabs arrangement flattens them into tabs().
    QStackedWidget *pageTabs() const { return m_top; }
    TimePanel *timePanel() const { return m_time; }
    RooflinePanel *rooflinePanel() const { return m_roofline; }
    Banner *errorBanner() const { return m_error; }
    TextStrip *summary() const { return m_summary; }
    /// Recipe, ZeRO, GPUs, recompute, FlashAttention, MFU and sequence: shown in exports.
    TextStrip *settingsLine() const { return m_settings; }
    /// "How this is computed": the formula behind what last changed, with its numbers.
    TextStrip *formulaStrip() const { return m_formula; }
    /// "Against the pinned baseline (…): +37% memory, −12% time, +5% cost"; hidden when none.
    TextStrip *pinnedLine() const { return m_pinned; }

signals:
    void viewOptionsChanged();
    /// The planner's row or the memory banner's fix was clicked: the scenario with that
    /// layout, as one undo step.
    void layoutChosen(const napkin::Scenario &scenario, const QString &description);
    /// The Budget page's Apply: the suggested shape and tokens, as one undo step.
    void budgetApplied(const napkin::Scenario &scenario, const QString &description);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// A view that takes each report: hidden (another page or tab is shown), it takes the
    /// newest one when it is shown instead, so a drag redraws only what can be seen.
    struct Recipient
    {
        QList<QWidget *> shownAs;  ///< the widgets whose showing means the view is seen
        std::function<void(const Report &)> take;
        /// Drawn before the window is first shown (for the first frame and for pictures);
        /// off: only when seen (the Budget page, which runs the planner, is in no picture of
        /// the dashboard and not on its first page).
        bool beforeShown = true;
        /// Built on first show: before the window is shown it is drawn only when asked for.
        LazyWidget *lazy = nullptr;
        bool stale = false;
        bool seen() const;
    };
    void deliver(Recipient &recipient);
    /// The view in `place` built, with the newest report.
    QWidget *caughtUp(LazyWidget *place);
    /// A place for a view built on first show or first asked for, by `build`.
    LazyWidget *lazyView(std::function<QWidget *(QWidget *parent)> build);
    // The lazily built views, built if need be, without catching up (the recipients do that).
    ServingMemoryPanel *servingMemory() const;
    StageMemoryPanel *stages() const;
    StepTimePanel *step() const;
    LayoutPicture *layoutView() const;
    PlannerPanel *planner() const;
    BudgetPanel *budget() const;

    // The constructor's parts, in the order it calls them.
    void setUpStrips();
    /// The two grid pages (overview, parallel training) as the hidden-bar tabs of m_top.
    void setUpPages();
    /// The page switch beside the summary, kept in step with m_top.
    void buildPageBar();
    /// The one-view-at-a-time tabs, and the stack that holds them and the pages.
    void setUpTabs();
    /// Tabbed: the formula strip shows the formula of the chart in sight.
    void showFormulaOf(const QWidget *page);
    void setUpRecipients();

    /// The memory chart, the serving tab and the time panel for the report's mode.
    void showMode(Mode mode);
    /// The Parallel training page's button and tabs enabled in training mode only.
    void enableTrainingViews();
    void placeError();
    void placeErrorIfShown();
    /// Moves `page`'s contents down by `push` pixels (0: back), and any other page back.
    void pushPage(QWidget *page, int push);
    void arrange();

    const Catalog &m_catalog;
    TextStrip *m_summary;
    TextStrip *m_settings;
    TextStrip *m_formula;
    TextStrip *m_pinned;  ///< the differences from the pinned baseline, when one is pinned
    FormulaTopic m_topic = FormulaTopic::ModelState;
    std::optional<Report> m_lastReport;
    Banner *m_error;
    QPointer<QWidget> m_pushedPage;  ///< the page moved down under the banner, if any
    QMargins m_pushedFrom;           ///< that page's own margins, put back when it returns
    int m_push = 0;                  ///< how far it moved
    MemoryPanel *m_memory;
    LazyWidget *m_servingMemory;
    /// The memory chart of the mode: training's or serving's, in one place of the grid.
    QStackedWidget *m_memoryCell;
    std::optional<Mode> m_mode;
    TimePanel *m_time;
    RooflinePanel *m_roofline;
    LazyWidget *m_stages;
    LazyWidget *m_step;
    LazyWidget *m_layoutPicture;
    LazyWidget *m_planner;
    LazyWidget *m_budget;
    QStackedWidget *m_pages;
    /// The pages, switched by m_pageButtons: a stack, not a tab widget, so that the page is
    /// laid out with the window and not once more when it is first shown.
    QStackedWidget *m_top;
    QWidget *m_pageBar;  ///< the page switch, in the summary's row: it costs the charts no height
    QToolButton *m_pageButtons[3] = {};
    QWidget *m_gridPage;
    QGridLayout *m_grid;
    QWidget *m_parallelPage;
    QGridLayout *m_parallelGrid;
    QTabWidget *m_tabs;
    Arrangement m_arrangement = Arrangement::Auto;
    bool m_tabbed = false;
    int m_columns = 2;          ///< the grid's: 2, or 3 on a wide page
    bool m_arranging = false;   ///< arrange() is moving the views between grid and tabs
    bool m_tabChosen = false;   ///< a tab was chosen since the views became tabs
    bool m_budgetWasPage = false;  ///< the Budget was the page when the views became tabs
    bool m_exporting = false;
    bool m_dragging = false;
    ByteUnit m_unit = ByteUnit::GB;
    /// The Budget page's request while the page is not built yet.
    BudgetRequest m_budgetRequest;
    QList<Recipient> m_recipients;
};

/// "GPT-2 small (124M) · 124M params · 300B tokens · ..." for titles and the summary line;
/// brief: the model, its size, the tokens and the GPUs.
QString scenarioSummary(const Report &report, const Catalog &catalog, bool brief = false);
/// "bf16 mixed precision, AdamW (2/2/12) · ZeRO 0 · 8 GPUs · no recompute · ...": what an
/// exported chart's numbers depend on besides the summary.
QString scenarioSettings(const Report &report);

} // namespace napkin::ui
