#include "ui/widgets/drawingcache.h"

#include <QPaintEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QWidget>

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
    if (key != m_key) {
        // The first paint in a state draws directly: a widget painted once (at start-up, or a
        // line of text that changes on every tick of a drag) would only pay for a pixmap it
        // never copies from. The second paint in the same state keeps its drawing.
        if (key != m_seenKey) {
            m_seenKey = key;
            m_pixmap = QPixmap();
            m_key = Key{};
            draw(p);
            return;
        }
        m_pixmap = QPixmap(widget->size() * scale);
        m_pixmap.setDevicePixelRatio(scale);
        m_pixmap.fill(Qt::transparent);
        QPainter cached(&m_pixmap);
        // As a painter on the widget itself starts.
        cached.setFont(widget->font());
        cached.setPen(widget->palette().color(widget->foregroundRole()));
        cached.setBackground(widget->palette().brush(widget->backgroundRole()));
        draw(cached);
        m_key = key;
    }
    const QRect r = event->rect();
    p.drawPixmap(r, m_pixmap, QRectF(QPointF(r.topLeft()) * scale, QSizeF(r.size()) * scale));
}

} // namespace napkin::ui
