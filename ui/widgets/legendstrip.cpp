#include "ui/widgets/legendstrip.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace napkin::ui {

namespace {

// An entry is its glyph, a space and its text; entries are two spaces apart.
QString entryText(const LegendEntry &e)
{
    return e.glyph.isNull() ? e.text : QString(e.glyph) + QLatin1Char(' ') + e.text;
}

bool sameEntries(const QList<LegendEntry> &a, const QList<LegendEntry> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (a[i].color != b[i].color || a[i].text != b[i].text || a[i].glyph != b[i].glyph)
            return false;
    return true;
}

} // namespace

LegendStrip::LegendStrip(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void LegendStrip::setEntries(const QList<LegendEntry> &entries)
{
    if (sameEntries(entries, m_entries))
        return;
    m_entries = entries;
    setAccessibleDescription(plainText());
    reflow();
    update();
}

QString LegendStrip::plainText() const
{
    QStringList parts;
    for (const LegendEntry &e : m_entries)
        parts << entryText(e);
    return parts.join(QStringLiteral("  "));
}

int LegendStrip::entryWidth(const LegendEntry &e) const
{
    return fontMetrics().horizontalAdvance(entryText(e));
}

void LegendStrip::setKeepsRows(bool keeps)
{
    m_keepsRows = keeps;
    m_keptRows = 0;
    reflow();
}

bool LegendStrip::elidesAnEntry() const
{
    return std::any_of(m_placed.cbegin(), m_placed.cend(), [this](const Placed &p) { return p.width > width(); });
}

void LegendStrip::reflow()
{
    const QFontMetrics fm = fontMetrics();
    const int gap = fm.horizontalAdvance(QStringLiteral("  "));
    const int available = std::max(1, width());
    m_drawn.clear();
    for (const LegendEntry &e : std::as_const(m_entries))
        m_drawn += QString::number(e.color.rgba(), 16) + QLatin1Char(' ') + entryText(e) + QChar(0x1F);
    QList<int> widths;
    widths.reserve(m_entries.size());
    int widest = 1;
    for (const LegendEntry &e : std::as_const(m_entries)) {
        widths.append(entryWidth(e));
        widest = std::max(widest, widths.back());
    }
    // Entries flow left to right and wrap before one that would pass `wrap`.
    const auto flow = [&](int wrap, QList<Placed> *placed) {
        int x = 0;
        int row = 0;
        for (qsizetype i = 0; i < widths.size(); ++i) {
            if (x > 0 && x + widths[i] > wrap) {
                ++row;
                x = 0;
            }
            if (placed)
                placed->append({static_cast<int>(i), x, row, widths[i]});
            x += widths[i] + gap;
        }
        return row + 1;
    };
    int wrap = available;
    int rows = flow(wrap, nullptr);
    if (m_keepsRows) {
        if (available != m_keptWidth) {
            m_keptWidth = available;
            m_keptRows = 0;
        }
        if (m_keptRows > rows && widest < available) {
            // The narrowest wrap that still needs no more than the kept rows spreads the
            // entries over them (rows only grow as the wrap narrows).
            int lo = widest;
            int hi = available;
            while (lo < hi) {
                const int mid = lo + (hi - lo) / 2;
                if (flow(mid, nullptr) <= m_keptRows)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            wrap = lo;
        }
        m_keptRows = std::max(m_keptRows, rows);
        rows = m_keptRows;
    }
    m_placed.clear();
    flow(wrap, &m_placed);
    if (rows != m_rows) {
        m_rows = rows;
        updateGeometry();
    }
}

QSize LegendStrip::sizeHint() const
{
    return {0, m_rows * fontMetrics().lineSpacing()};
}

QSize LegendStrip::minimumSizeHint() const
{
    return sizeHint();
}

void LegendStrip::paintEvent(QPaintEvent *event)
{
    // Drawn once per set of entries; a frame that repaints the legend unchanged copies it.
    m_drawing.paint(this, event, m_drawn, [this](QPainter &p) { draw(p); });
}

void LegendStrip::draw(QPainter &p) const
{
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(foregroundRole());
    const int spaceWidth = fm.horizontalAdvance(QLatin1Char(' '));
    for (const Placed &placed : m_placed) {
        const LegendEntry &e = m_entries[placed.entry];
        const int y = placed.row * fm.lineSpacing() + fm.ascent();
        int x = placed.x;
        int room = width() - x;
        if (!e.glyph.isNull()) {
            p.setPen(e.color);
            p.drawText(x, y, QString(e.glyph));
            const int glyphWidth = fm.horizontalAdvance(e.glyph) + spaceWidth;
            x += glyphWidth;
            room -= glyphWidth;
        }
        p.setPen(text);
        p.drawText(x, y, placed.width <= width() ? e.text : fm.elidedText(e.text, Qt::ElideRight, std::max(0, room)));
    }
}

void LegendStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        m_keptRows = 0;
        reflow();
        updateGeometry();  // the line height changed even when the rows did not
    }
    QWidget::changeEvent(event);
}

void LegendStrip::resizeEvent(QResizeEvent *event)
{
    reflow();
    QWidget::resizeEvent(event);
}

} // namespace napkin::ui
