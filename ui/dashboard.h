#pragma once

#include "catalog.h"
#include "report.h"
#include "viewoptions.h"

#include <QWidget>


namespace napkin::ui {

class Banner;
class TextStrip;
class MemoryPanel;
class RooflinePanel;
class TimePanel;

/// The three views together under a one-line summary of the scenario: memory and roofline
/// side by side, time and cost below. The main window's centre and the exported dashboard.
class Dashboard final : public QWidget
{
    Q_OBJECT

public:
    explicit Dashboard(const Catalog &catalog, QWidget *parent = nullptr);

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
    TimePanel *timePanel() const { return m_time; }
    RooflinePanel *rooflinePanel() const { return m_roofline; }
    Banner *errorBanner() const { return m_error; }
    TextStrip *summary() const { return m_summary; }

signals:
    void viewOptionsChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void placeError();

    const Catalog &m_catalog;
    TextStrip *m_summary;
    Banner *m_error;
    MemoryPanel *m_memory;
    TimePanel *m_time;
    RooflinePanel *m_roofline;
    ByteUnit m_unit = ByteUnit::GB;
};

/// "GPT-2 small (124M) · 124M params · 300B tokens · ..." for titles and the summary line.
QString scenarioSummary(const Report &report, const Catalog &catalog);

} // namespace napkin::ui
