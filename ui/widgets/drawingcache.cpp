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
    const QString key = QStringLiteral("%1x%2@%3 %4 %5 %6 ")
                            .arg(widget->width()).arg(widget->height()).arg(scale)
                            .arg(widget->palette().cacheKey())
                            .arg(reinterpret_cast<quintptr>(widget->style()))
                            .arg(widget->font().key())
                        + state;
    if (key != m_key) {
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
