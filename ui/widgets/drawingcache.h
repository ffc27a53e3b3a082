#pragma once

#include <QFont>
#include <QPixmap>
#include <QSize>
#include <QString>

#include <functional>

class QPaintEvent;
class QPainter;
class QStyle;
class QWidget;

namespace napkin::ui {

/// A widget's drawing kept as a pixmap until something it depends on changes: the widget's
/// size, scale, palette, font and style, and whatever the caller puts in `state` (a style
/// option's fields, a generation counter bumped by every setter). A paint copies the part it
/// needs. The first paint in a new state draws directly and the second keeps the drawing, so a
/// widget painted once in a state never pays for a pixmap. Two states are kept, the last two
/// used: a widget that goes back and forth between two (a group box in training and in
/// inference mode) copies both. For widgets that repaint far more
/// often than they change and whose drawing costs far more than a copy: a group box under its
/// sliders, a scroll bar beside a table refreshed during a drag, lines of text (each glyph is
/// blended, and a frame that paints the whole dashboard repaints every line whether or not it
/// changed). On a device that is not raster (an SVG or PDF export) it draws directly, so that
/// text stays text.
class DrawingCache
{
public:
    void paint(QWidget *widget, QPaintEvent *event, const QString &state, const std::function<void(QPainter &)> &draw);

private:
    struct Key
    {
        QSize size;
        qreal scale = 0;  ///< 0: no state
        qint64 palette = 0;
        const QStyle *style = nullptr;
        QFont font;
        QString state;
        bool operator==(const Key &) const = default;
    };
    struct Kept
    {
        Key key;
        QPixmap pixmap;
    };
    Kept m_kept[2];      ///< the drawings kept, the one last used first
    Key m_seen[2];       ///< the states last painted, the latest first
};

} // namespace napkin::ui
