#include "ui/widgets/drawingcache.h"

#include <QPaintEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QWidget>

#include <utility>

namespace napkin::ui {

void DrawingCache::paint(QWidget *widget, QPaintEvent *event, const QString &state,
                           const std::function<void(QPainter &)> &draw)
{
    QPainter p(widget);
    // On a vector device (an SVG or PDF export) a pixmap would turn the text into an image:
    // draw there directly, as the painter on the widget starts.
    if (p.paintEngine() && p.paintEngine()->type() != QPaintEngine::Raster) {
        draw(p);
        return;
    }
    const qreal scale = widget->devicePixelRatio();
    // Compared field by field: a key made as a string (the font's key() is its whole
    // description) cost more than many a small widget's drawing.
    const Key key{widget->size(), scale, widget->palette().cacheKey(), widget->style(), widget->font(), state};
    const bool seenBefore = key == m_seen[0] || key == m_seen[1];
    if (key != m_seen[0]) {
        m_seen[1] = m_seen[0];
        m_seen[0] = key;
    }
    if (key == m_kept[1].key && !m_kept[1].pixmap.isNull())
        std::swap(m_kept[0], m_kept[1]);
    if (key != m_kept[0].key || m_kept[0].pixmap.isNull()) {
        // The first paint in a state draws directly: a widget painted once (at start-up, or a
        // line of text that changes on every tick of a drag) would only pay for a pixmap it
        // never copies from; it also lets the least recently used drawing go, so that a widget
        // whose state never comes back holds one pixmap at most. A state painted before keeps
        // its drawing, in place of the one least recently used.
        if (!seenBefore) {
            m_kept[1] = Kept{};
            draw(p);
            return;
        }
        std::swap(m_kept[0], m_kept[1]);
        QPixmap &pixmap = m_kept[0].pixmap;
        pixmap = QPixmap(widget->size() * scale);
        pixmap.setDevicePixelRatio(scale);
        pixmap.fill(Qt::transparent);
        QPainter cached(&pixmap);
        // As a painter on the widget itself starts.
        cached.setFont(widget->font());
        cached.setPen(widget->palette().color(widget->foregroundRole()));
        cached.setBackground(widget->palette().brush(widget->backgroundRole()));
        draw(cached);
        m_kept[0].key = key;
    }
    const QPixmap &pixmap = m_kept[0].pixmap;
    const QRect r = event->rect();
    p.drawPixmap(r, pixmap, QRectF(QPointF(r.topLeft()) * scale, QSizeF(r.size()) * scale));
}

} // namespace napkin::ui
