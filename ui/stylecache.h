#pragma once

#include <QPixmap>
#include <QString>

#include <functional>

class QPaintEvent;
class QPainter;
class QWidget;

namespace napkin::ui {

/// A widget's style drawing kept as a pixmap until something it depends on changes: the
/// widget's size, scale, palette, font and style, and whatever the caller puts in `state`
/// (the style option's fields). A paint copies the part it needs. For controls whose style
/// drawing costs far more than a copy and that repaint far more often than they change: a
/// group box under its sliders, a scroll bar beside a table refreshed during a drag.
class StyleDrawingCache
{
public:
    void paint(QWidget *widget, QPaintEvent *event, const QString &state, const std::function<void(QPainter &)> &draw);

private:
    QPixmap m_pixmap;
    QString m_key;
};

} // namespace napkin::ui
