#include "ui/widgets/textstrip.h"

#include <QRegularExpression>

#include <algorithm>
#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QTextDocument>
#include <QTextOption>
#include <QToolTip>

namespace napkin::ui {

QString wrappingToolTip(const QString &plain)
{
    return Qt::convertFromPlainText(plain, Qt::WhiteSpaceNormal);
}

TextStrip::TextStrip(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    // Keep the shaped glyphs between paints; by default QTextLayout drops them after layout.
    m_layout.setCacheEnabled(true);
}

void TextStrip::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_layoutValid = false;
    if (m_textTip)
        setToolTip(text);
    setAccessibleDescription(text);
    update();
}

void TextStrip::setBriefText(const QString &brief)
{
    if (brief == m_brief)
        return;
    m_brief = brief;
    m_layoutValid = false;
    update();
}

void TextStrip::setLines(int lines)
{
    m_lines = std::max(1, lines);
    m_layoutValid = false;
    updateGeometry();
}

void TextStrip::setWidthHint(const QString &sample)
{
    m_widthSample = sample;
    setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    updateGeometry();
}

void TextStrip::setBold(bool bold)
{
    QFont f;  // only the weight is set, so the size still follows the parent's font
    f.setBold(bold);
    setFont(f);
}

void TextStrip::setScale(double scale)
{
    m_scale = scale;
    m_layoutValid = false;
    ++m_textVersion;
    updateGeometry();
}

QFont TextStrip::textFont() const
{
    QFont f = font();
    if (m_scale != 1 && f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * m_scale);
    return f;
}

void TextStrip::setShrinkToFit(bool on)
{
    if (on == m_shrinkToFit)
        return;
    m_shrinkToFit = on;
    ++m_textVersion;  // the lines it needs may change
    m_layoutValid = false;
    update();
}

QFont TextStrip::fittedFont(int width) const
{
    QFont f = textFont();
    if (!m_shrinkToFit || m_lines != 1 || m_scale <= 1 || f.pointSizeF() <= 0)
        return f;
    const qreal natural = QFontMetricsF(f).horizontalAdvance(m_text);
    if (natural <= width)
        return f;
    // Glyph widths do not scale exactly with the size: from the proportional guess, step down
    // until the line fits or the inherited size is reached.
    const qreal base = font().pointSizeF();
    qreal size = base * std::max<qreal>(1, m_scale * width / natural);
    f.setPointSizeF(size);
    while (size > base && QFontMetricsF(f).horizontalAdvance(m_text) > width) {
        size = std::max(base, size * 0.97);
        f.setPointSizeF(size);
    }
    return f;
}

void TextStrip::setColors(const QColor &foreground, const QColor &background, const QColor &border)
{
    m_foreground = foreground;
    m_background = background;
    m_border = border;
    ++m_generation;
    ++m_textVersion;  // a background adds padding: fewer pixels per line
    update();
}

void TextStrip::setOverflowToToolTip(bool on)
{
    m_overflowTip = on;
    m_layoutValid = false;
    update();
}

QString TextStrip::layoutText(bool oneLine) const
{
    return prepared(m_text, oneLine);
}

QString TextStrip::prepared(const QString &raw, bool oneLine)
{
    // QTextLayout breaks lines at U+2028 only; a plain '\n' would join two words.
    QString text = QString(raw).replace(QLatin1Char('\n'), oneLine ? QLatin1Char(' ') : QChar(QChar::LineSeparator));
    // A figure keeps its unit, and a count its multiplication sign, on its line ("42.0 ms",
    // "4 × 700 W", "GPU-hour" had broken as "42.0 / ms", "4 / × 700 W", "GPU- / hour"): the
    // space after a digit is a no-break space, and so is the hyphen of GPU-hour.
    static const QRegularExpression afterDigit(QStringLiteral("(\\d) (?=[^\\s\u00B7])"));
    text.replace(afterDigit, QStringLiteral("\\1\u00A0"));
    text.replace(QStringLiteral("GPU-hour"), QStringLiteral("GPU\u2011hour"));
    // A rate keeps its unit whole: "tokens/s", "GB/s" and "FLOP/s" had broken after the slash.
    static const QRegularExpression rate(QStringLiteral("(?<=\\w)/(?=\\w)"));
    text.replace(rate, QStringLiteral("/\u2060"));
    return text;
}

int TextStrip::wrappedLines(const QString &text, const QFont &font, int room)
{
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    int lines = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(room);
        ++lines;
    }
    layout.endLayout();
    return std::max(1, lines);
}

int TextStrip::linesNeeded(int width) const
{
    if (m_text.isEmpty())
        return 1;
    // Asked for the same text at the same width many times a change (the time panel fits its
    // rows by it, and relayoutText asks too), and for the text of the other mode after a mode
    // switch (first at the width the other mode left, then at its own): the last four answers
    // are kept, by text.
    for (const LinesAt &known : m_linesAt)
        if (known.version == m_textVersion && known.width == width && known.text == m_text)
            return known.lines;
    const int room = std::max(1, width - 2 * padding());
    const int lines = wrappedLines(layoutText(false), fittedFont(room), room);  // a line it shrinks to fit needs one
    m_linesAt[m_nextLinesAt] = {m_text, m_textVersion, width, lines};
    m_nextLinesAt = (m_nextLinesAt + 1) % 4;
    return lines;
}

int TextStrip::linesNeededFor(const QString &text, int width) const
{
    if (text.isEmpty())
        return 1;
    const int room = std::max(1, width - 2 * padding());
    return wrappedLines(prepared(text, false), textFont(), room);
}

int TextStrip::lineHeight() const
{
    return QFontMetrics(textFont()).lineSpacing();
}

int TextStrip::padding() const
{
    return m_background.isValid() ? 6 : 0;
}

QSize TextStrip::sizeHint() const
{
    const QFontMetrics fm(textFont());
    const int w = m_widthSample.isEmpty() ? 0 : fm.horizontalAdvance(m_widthSample);
    return {w + 2 * padding(), m_lines * fm.lineSpacing() + 2 * padding()};
}

QSize TextStrip::minimumSizeHint() const
{
    return sizeHint();
}

void TextStrip::relayoutText() const
{
    const int width = std::max(1, this->width() - 2 * padding());
    const QFont font = fittedFont(width);
    const QFontMetrics fm(font);
    QString shown;
    if (m_overflowTip && linesNeeded(this->width()) > m_lines) {
        // The text is in the tooltip; the marker says so in words where they fit, else "(i)",
        // else an ellipsis, else nothing (a clipped "(i" would look like a typo).
        shown.clear();
        for (const QString &mark : {tr("(details on hover)"), QStringLiteral("(i)"), QStringLiteral("…")}) {
            if (fm.horizontalAdvance(mark) <= width) {
                shown = mark;
                break;
            }
        }
    } else if (!m_brief.isEmpty() && linesNeeded(this->width()) > m_lines) {
        // Fewer words rather than a sentence cut short (the tooltip keeps the sentence).
        shown = m_lines == 1 ? fm.elidedText(prepared(m_brief, true), Qt::ElideRight, width) : prepared(m_brief, false);
    } else if (m_lines == 1) {
        shown = fm.elidedText(layoutText(true), Qt::ElideRight, width);
    } else {
        shown = layoutText(false);
    }
    QTextOption option;
    option.setWrapMode(m_lines > 1 ? QTextOption::WrapAtWordBoundaryOrAnywhere : QTextOption::NoWrap);
    const auto layOut = [&] {
        m_layout.setText(shown);
        m_layout.setFont(font);
        m_layout.setTextOption(option);
        m_layout.beginLayout();
        qreal y = 0;
        for (int i = 0; i < m_lines; ++i) {
            QTextLine line = m_layout.createLine();
            if (!line.isValid())
                break;
            line.setLineWidth(width);
            line.setPosition(QPointF(0, y));
            y += fm.lineSpacing();
        }
        m_layout.endLayout();
    };
    layOut();
    // Wrapped text longer than the strip ends its last line with an ellipsis instead of
    // stopping mid-sentence at the strip's edge (the tooltip has the whole text).
    if (m_lines > 1 && m_layout.lineCount() == m_lines) {
        const QTextLine last = m_layout.lineAt(m_lines - 1);
        const qsizetype end = last.textStart() + last.textLength();
        if (end < shown.size() && !shown.mid(end).trimmed().isEmpty()) {
            QString rest = shown.mid(last.textStart());
            rest.replace(QChar::LineSeparator, QStringLiteral(" · ")).replace(u'\n', QStringLiteral(" · "));
            shown = shown.left(last.textStart()) + fm.elidedText(rest, Qt::ElideRight, width);
            layOut();
        }
    }
    m_layoutValid = true;
}

bool TextStrip::event(QEvent *event)
{
    // Text moved out of the strip is shown on hover, above what the strip's tooltip says.
    if (event->type() == QEvent::ToolTip && m_overflowTip && !showsWholeText()) {
        const QString tip = toolTip().isEmpty() ? m_text : m_text + QStringLiteral("\n\n") + toolTip();
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

QString TextStrip::shownText() const
{
    if (!m_layoutValid)
        relayoutText();
    return m_layout.text();
}

void TextStrip::paintEvent(QPaintEvent *event)
{
    // Drawn once per text; a frame that repaints the strip unchanged copies it, and a text that
    // comes back (another mode, and back) is copied without being laid out again.
    const QString drawn = QStringLiteral("%1 %2 %3 %4\x1f").arg(m_generation).arg(m_lines).arg(m_scale).arg(m_overflowTip)
                          + m_text + QChar(0x1f) + m_brief;
    m_drawing.paint(this, event, drawn, [this](QPainter &p) {
        if (!m_layoutValid)
            relayoutText();
        if (m_background.isValid()) {
            p.fillRect(rect(), m_background);
            if (m_border.isValid()) {
                p.setPen(m_border);
                p.drawRect(rect().adjusted(0, 0, -1, -1));
            }
        }
        p.setPen(m_foreground.isValid() ? m_foreground : palette().color(foregroundRole()));
        m_layout.draw(&p, QPointF(padding(), padding()));
    });
}

void TextStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        m_layoutValid = false;
        ++m_textVersion;
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void TextStrip::resizeEvent(QResizeEvent *event)
{
    m_layoutValid = false;
    QWidget::resizeEvent(event);
}

} // namespace napkin::ui
