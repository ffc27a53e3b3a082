#pragma once

#include "ui/widgets/drawingcache.h"

#include <QScrollBar>

namespace napkin::ui {

/// A scroll bar whose style drawing is copied from a pixmap (DrawingCache) while the
/// pointer is elsewhere; under the pointer, hovered or pressed, the style draws it as always.
/// The planner's table is repainted whole on every plan during a drag, and the style's two
/// scroll bars beside it cost more than its cells.
class CachedScrollBar final : public QScrollBar
{
    Q_OBJECT

public:
    explicit CachedScrollBar(Qt::Orientation orientation, QWidget *parent = nullptr);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    DrawingCache m_cache;
};

} // namespace napkin::ui
