#pragma once

#include "core/report/report.h"
#include "core/report/suggestion.h"
#include "core/text/units.h"

#include <QThreadPool>
#include <QToolButton>

#include <optional>

namespace napkin::ui {

/// The fix offered when a run does not fit (suggestFit(): the planner's best fitting layout
/// for the same GPUs and global batch, and the lightest single change). It is worked out on a
/// worker thread for the newest report, so a slider never waits for the planner; the button
/// appears when it arrives, says what it does in its tooltip, and asks for it as one undo
/// step. The memory banner reads text() for its "Fits with:" line.
class FitFix final : public QToolButton
{
    Q_OBJECT

public:
    explicit FitFix(QWidget *parent = nullptr);
    ~FitFix() override;

    void setReport(const Report &report);
    void setByteUnit(ByteUnit unit);
    /// Off (a picture): nothing is worked out and the button stays hidden.
    void setActive(bool active);

    /// The suggestion for the current report (nullopt: it fits, or none has arrived yet).
    const std::optional<FitSuggestion> &suggestion() const { return m_suggestion; }
    /// "tp 8 · pp 4 · … (71.2 GB on the worst stage, step 4.10 s); alone: ZeRO 3 (…)"; empty
    /// when there is no suggestion.
    QString fixText() const;
    /// The option Apply takes, for the banner: "FlashAttention on: 52.0 GB, step 301 ms" or
    /// "tp 8 · pp 4 · …: 71.2 GB, step 4.10 s"; empty when there is none.
    /// `most` > 0: a new layout names its first `most` changes and then "…" (a narrow banner),
    /// keeping its memory and step.
    QString appliedText(int most = 0) const;
    /// A suggestion is being worked out.
    bool pending() const { return m_running; }
    /// What Apply proposes: the planned layout or the lightest single change, whichever steps faster.
    std::optional<Scenario> fixScenario() const;

signals:
    void suggestionChanged();
    void applyRequested(const napkin::Scenario &scenario, const QString &description);

private:
    void start(const Report &report);
    void arrived(const Scenario &forScenario, const std::optional<FitSuggestion> &suggestion);

    std::optional<Report> m_report;
    std::optional<Report> m_next;   ///< the newest report while one is being worked out
    std::optional<FitSuggestion> m_suggestion;
    ByteUnit m_unit = ByteUnit::GB;
    bool m_active = true;
    bool m_running = false;
    QThreadPool m_pool;  ///< declared last: destroyed first, waiting for a running suggestion
};

} // namespace napkin::ui
