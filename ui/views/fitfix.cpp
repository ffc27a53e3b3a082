#include "ui/views/fitfix.h"

#include "core/text/layouttext.h"
#include "ui/widgets/textstrip.h"

#include <QMetaObject>

namespace napkin::ui {

FitFix::FitFix(QWidget *parent) : QToolButton(parent)
{
    m_pool.setMaxThreadCount(1);
    setText(tr("Apply"));
    setAccessibleName(tr("Make it fit"));
    hide();
    connect(this, &QToolButton::clicked, this, [this] {
        const auto s = fixScenario();
        if (!s)
            return;
        const bool single = m_suggestion->lightest && *s == m_suggestion->lightest->scenario;
        emit applyRequested(*s, tr("Make it fit: %1")
                                    .arg(single ? m_suggestion->lightest->what
                                                : m_report ? plannedChangeText(*m_suggestion->layout, m_report->scenario)
                                                           : plannedLayoutText(*m_suggestion->layout)));
    });
}

FitFix::~FitFix()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void FitFix::setActive(bool active)
{
    m_active = active;
    if (!active) {
        m_suggestion.reset();
        hide();
    }
}

void FitFix::setByteUnit(ByteUnit unit)
{
    m_unit = unit;
    setToolTip(m_suggestion ? wrappingToolTip(tr("Fits with %1. Click to apply the one whose step is faster (one undo step).")
                                                  .arg(fixText()))
                            : QString());
}

void FitFix::setReport(const Report &report)
{
    const bool sameRun = m_report && m_report->scenario == report.scenario;
    m_report = report;
    if (!m_active || sameRun)
        return;
    if (report.memory.fits) {
        m_next.reset();
        if (m_suggestion || isVisible()) {
            m_suggestion.reset();
            hide();
            emit suggestionChanged();
        }
        return;
    }
    if (m_running) {
        m_next = report;  // worked out when the running one is done
        return;
    }
    start(report);
}

void FitFix::start(const Report &report)
{
    m_running = true;
    m_pool.start([this, report] {
        const auto suggestion = suggestFit(report);
        QMetaObject::invokeMethod(this, [this, forScenario = report.scenario, suggestion] { arrived(forScenario, suggestion); },
                                  Qt::QueuedConnection);
    });
}

void FitFix::arrived(const Scenario &forScenario, const std::optional<FitSuggestion> &suggestion)
{
    m_running = false;
    if (m_next) {
        const Report next = *m_next;
        m_next.reset();
        start(next);
        return;  // the newest one decides what is shown
    }
    if (!m_report || !(m_report->scenario == forScenario) || !m_active)
        return;
    m_suggestion = suggestion;
    const bool offered = m_suggestion && (m_suggestion->layout || m_suggestion->lightest);
    setVisible(offered);
    setToolTip(offered ? wrappingToolTip(tr("Fits with %1. Click to apply the one whose step is faster (one undo step).")
                                             .arg(fixText()))
                       : QString());
    emit suggestionChanged();
}

QString FitFix::fixText() const
{
    return m_suggestion && m_report ? fitSuggestionText(*m_suggestion, m_report->scenario, m_unit) : QString();
}

QString FitFix::appliedText(int most) const
{
    const auto s = fixScenario();
    if (!s)
        return {};
    if (m_suggestion->lightest && *s == m_suggestion->lightest->scenario)
        return tr("%1: %2, step %3").arg(m_suggestion->lightest->what, fmt::bytes(m_suggestion->lightest->worstStageBytes, m_unit),
                                         fmt::duration(m_suggestion->lightest->stepSeconds));
    // What changes, not the whole layout: "ZeRO 2 · micro-batch 4" keeps to the banner's line
    // where the whole layout ran past it; the tooltip has the whole layout.
    const QString change = m_report ? plannedChangeText(*m_suggestion->layout, m_report->scenario, most)
                                    : plannedLayoutText(*m_suggestion->layout);
    return tr("%1: %2, step %3").arg(change, fmt::bytes(m_suggestion->layout->worstStageBytes, m_unit),
                                     fmt::duration(m_suggestion->layout->stepSeconds));
}

std::optional<Scenario> FitFix::fixScenario() const
{
    if (!m_suggestion)
        return std::nullopt;
    const auto &layout = m_suggestion->layout;
    const auto &single = m_suggestion->lightest;
    // Whichever of the two steps faster: a single change can beat the planner, which keeps
    // FlashAttention as it is.
    if (single && (!layout || single->stepSeconds < layout->stepSeconds))
        return single->scenario;
    if (layout)
        return m_suggestion->layoutScenario;
    return std::nullopt;
}

} // namespace napkin::ui
