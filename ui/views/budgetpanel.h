#pragma once

#include "core/model/catalog.h"
#include "core/report/budget.h"
#include "core/report/report.h"
#include "ui/widgets/chartstyle.h"

#include <QWidget>

#include <optional>

class QChart;
class QComboBox;
class QGridLayout;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QScrollArea;
class QScatterSeries;
class QValueAxis;

namespace napkin::ui {

class ChartView;
class LegendStrip;

/// The Budget page: from a training budget to a model (core/report/budget.h). Iso-FLOP
/// curves of the chosen law's loss against N for the budget and for x0.1 and x10, each law's
/// compute-optimal N marked on the budget's curve, the scenario's own model as a point, and
/// the suggested shape with its time, cost and layout below. The budget starts as the
/// scenario's own training compute (6ND), so the page first shows where the current model
/// stands; Apply sets the suggested shape and tokens as one undo step.
class BudgetPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit BudgetPanel(const Catalog &catalog, QWidget *parent = nullptr);

    void setReport(const Report &report);
    /// The inputs (amount 0: the scenario's own training compute).
    void setRequest(const BudgetRequest &request);
    BudgetRequest request() const { return m_request; }
    /// Hides the inputs and the Apply button, for a picture.
    void setInputsVisible(bool visible);

    /// The last answer (nullopt before a report, or while the inputs are refused).
    const std::optional<BudgetReport> &budget() const { return m_budget; }
    /// The refusal shown in place of the answer, empty when there is none.
    QString problem() const { return m_problem; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *applyButton() const { return m_apply; }
    QLineEdit *amountEdit() const { return m_amount; }
    QComboBox *unitBox() const { return m_unit; }
    QComboBox *lawBox() const { return m_law; }
    QLineEdit *inferenceEdit() const { return m_inference; }
    LegendStrip *legend() const { return m_legend; }
    QChart *chart() const { return m_chart; }

    /// The scenario Apply proposes: the suggested shape and the target's tokens, with the
    /// planned layout too when the current one cannot take the shape.
    std::optional<Scenario> appliedScenario() const;

signals:
    void applyRequested(const napkin::Scenario &scenario, const QString &description);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildInputs(QWidget *row);
    void readInputs();
    void recompute();
    void showCurves();
    void showSummary();
    void showHover(const QPointF &chartPos, const QPoint &globalPos);
    void fitToText();
    void fitSummary();
    /// The chart's minimum height: thirteen lines, fewer where the panel is short; and the
    /// page's, below which it scrolls.
    void fitChartHeight();
    QList<LegendEntry> m_fullLegend;   ///< every entry with its figures
    QList<LegendEntry> m_briefLegend;  ///< the same entries, named only
    /// The inputs in one row, two or three, as the width allows.
    void arrangeInputs();
    void placeInputs(int rows);
    int m_inputRows = 0;            ///< the arrangement placed (0: none yet)
    int m_inputsWidth[3] = {};      ///< the width each arrangement takes, as measured
    QString m_inputsMeasuredFor;    ///< the font and inputs those widths were measured with

    const Catalog &m_catalog;
    std::optional<Report> m_report;
    BudgetRequest m_request;
    std::optional<BudgetReport> m_budget;
    QString m_inputProblem;  ///< the inputs' text refused (kept until they change)
    QString m_problem;       ///< what the page shows instead of an answer: that, or computeBudget's refusal

    QScrollArea *m_pageArea;  ///< scrolls the page when even its minimum is taller than the window
    QWidget *m_page;          ///< the inputs, chart, legend and answer in one column
    QWidget *m_inputs;
    QGridLayout *m_inputsGrid = nullptr;
    QLabel *m_budgetLabel = nullptr;
    QLabel *m_lawLabel = nullptr;
    QLabel *m_servingLabel = nullptr;
    QLineEdit *m_amount = nullptr;
    QComboBox *m_unit = nullptr;
    QComboBox *m_law = nullptr;
    QDoubleSpinBox *m_ratio = nullptr;
    QLineEdit *m_inference = nullptr;
    QPushButton *m_apply = nullptr;
    QChart *m_chart;
    ChartView *m_view;
    QLogValueAxis *m_x;
    QValueAxis *m_y;
    QLineSeries *m_curves[3] = {};
    QList<QScatterSeries *> m_lawMarks;  ///< one per law, scalingLaws() order
    QScatterSeries *m_current;
    QScatterSeries *m_aware;
    LegendStrip *m_legend;
    QLabel *m_summary;
    QScrollArea *m_summaryArea = nullptr;
};

} // namespace napkin::ui
