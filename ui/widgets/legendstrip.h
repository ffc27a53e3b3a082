#pragma once

#include "ui/widgets/drawingcache.h"

#include "ui/widgets/chartstyle.h"

#include <QList>
#include <QWidget>

namespace napkin::ui {

/// A chart's legend, drawn outside the chart: Qt Charts' own legend cannot wrap and elides
/// entries in narrow charts. Entries flow left to right and wrap between entries, never inside
/// one. Unlike a rich-text QLabel, new figures do not make the window lay itself out again:
/// the strip asks for a new height only when its number of rows changes, so a slider drag that
/// changes "13.23 GB" to "13.41 GB" costs one paint. An entry wider than the strip is elided,
/// and the whole legend is the accessible description.
class LegendStrip : public QWidget
{
    Q_OBJECT

public:
    explicit LegendStrip(QWidget *parent = nullptr);

    void setEntries(const QList<LegendEntry> &entries);
    /// What the legend says, as plain text: "■ Parameters  ■ Gradients  = total 1.984 GB".
    QString plainText() const;
    int rows() const { return m_rows; }
    /// Whether an entry is wider than the strip, and so drawn elided.
    bool elidesAnEntry() const;
    /// Keeps the most rows the strip has had at its width: fewer entries then wrap earlier, over
    /// the same rows, instead of the strip growing shorter (and the chart above it taller, which
    /// lays the whole chart out again). For a legend whose entries change with the mode or a
    /// drag. A new width or font starts afresh.
    void setKeepsRows(bool keeps);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Placed {
        int entry;
        int x;
        int row;
        int width;  ///< the entry's full width; drawn elided when wider than the strip
    };
    /// Places the entries at the current width; asks for a new height if the rows changed.
    void reflow();
    void draw(QPainter &p) const;
    int entryWidth(const LegendEntry &e) const;

    QList<LegendEntry> m_entries;
    QList<Placed> m_placed;
    DrawingCache m_drawing;
    /// What is drawn, in words (m_drawing's key): each entry's colour, glyph and text. The places
    /// follow from them and the width, which the cache compares itself; a legend that comes back
    /// (another mode, and back) is copied, not drawn again.
    QString m_drawn;
    int m_rows = 1;
    bool m_keepsRows = false;
    int m_keptRows = 0;  ///< with m_keepsRows: the most rows needed at this width
    int m_keptWidth = -1;
};

} // namespace napkin::ui
