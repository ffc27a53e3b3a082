#pragma once

#include "ui/widgets/drawingcache.h"

#include <QColor>
#include <QString>
#include <QTextLayout>
#include <QWidget>

namespace napkin::ui {

/// A label for text that changes on every update (figures, the summary line, banners).
/// Unlike QLabel, setting new text never asks the window to lay itself out again (QLabel
/// calls updateGeometry(), which relayouts the whole window while a slider is dragged), and
/// the shaped text is kept between paints. Its height is a fixed number of lines; text that
/// does not fit is elided, the full text stays in the tooltip when asked for, or (for
/// explanations that must not be cut) it is not drawn at all: a marker stands in its place
/// and the tooltip shows it. Banner adds levels.
/// A tooltip that wraps: Qt draws a plain-text tooltip on one line however long (a fix's whole
/// layout ran 1,350 px wide, past a 1024-wide window); as rich text it wraps at word boundaries.
QString wrappingToolTip(const QString &plain);

class TextStrip : public QWidget
{
    Q_OBJECT

public:
    explicit TextStrip(QWidget *parent = nullptr);

    QString text() const { return m_text; }
    void setText(const QString &text);
    /// Fewer words to show where the text needs more lines than the strip has ("Step 27.4 s ·
    /// MFU 39.7% · …" for the sentence); empty: none. The text stays text() and the tooltip.
    void setBriefText(const QString &brief);
    QString briefText() const { return m_brief; }
    /// Lines reserved (and wrapped into); 1 elides at the right edge.
    void setLines(int lines);
    /// Text sized to reserve the width hint ("8.888e+88"), so the layout never depends on the value.
    void setWidthHint(const QString &sample);
    void setBold(bool bold);
    /// Text size relative to the inherited font (1.35 for a headline figure).
    void setScale(double scale);
    /// One line that does not fit at the scale is drawn smaller, down to the inherited size,
    /// before it is elided (a headline figure: "3,810 years" where "8.888e+88" was planned).
    void setShrinkToFit(bool on);
    void setColors(const QColor &foreground, const QColor &background = {}, const QColor &border = {});
    /// Also show the text as the tooltip (for strips that may elide).
    void setTextAsToolTip(bool on) { m_textTip = on; }
    /// Text that needs more lines than the strip has is not drawn in part: the strip shows
    /// a marker ("(details on hover)") and its tooltip the text, above the strip's own tooltip.
    void setOverflowToToolTip(bool on);

    /// Lines the text wraps to at `width` pixels of the strip (at word boundaries, a word
    /// wider than the line anywhere).
    int linesNeeded(int width) const;
    /// Lines another text would wrap to at `width` (at the strip's own size, not shrunk): to
    /// choose between a full and a brief text before showing one.
    int linesNeededFor(const QString &text, int width) const;
    /// Whether the whole text is drawn at the strip's width: not elided, not cut after the
    /// last line, not moved to the tooltip.
    bool showsWholeText() const { return linesNeeded(width()) <= m_lines; }
    int lines() const { return m_lines; }
    /// The text as last drawn: elided at the end of the last line where it does not fit.
    QString shownText() const;
    /// Height of one more line of text.
    int lineHeight() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void relayoutText() const;
    QFont textFont() const;
    /// textFont(), or smaller where setShrinkToFit() lets one line fit `width`.
    QFont fittedFont(int width) const;
    /// The text as it is laid out: line breaks as QTextLayout's, and for one line none.
    QString layoutText(bool oneLine) const;
    /// `raw` as it is laid out: no-break spaces after digits, '\n' as a line separator.
    static QString prepared(const QString &raw, bool oneLine);
    static int wrappedLines(const QString &text, const QFont &font, int room);
    int padding() const;

    QString m_text;
    QString m_brief;
    QString m_widthSample;
    DrawingCache m_drawing;
    quint64 m_generation = 0;  ///< bumped by every change of colours (part of m_drawing's key)
    mutable QTextLayout m_layout;  ///< laid out when drawn (or asked for), not when the text is set
    mutable bool m_layoutValid = false;
    quint64 m_textVersion = 0;  ///< bumped by every change to the text's font, scale or padding
    struct LinesAt {
        QString text;
        quint64 version = ~quint64{0};
        int width = -1;
        int lines = 1;
    };
    mutable LinesAt m_linesAt[4];
    mutable int m_nextLinesAt = 0;
    int m_lines = 1;
    double m_scale = 1;
    bool m_textTip = false;
    bool m_shrinkToFit = false;
    bool m_overflowTip = false;
    QColor m_foreground;
    QColor m_background;
    QColor m_border;
};

} // namespace napkin::ui
