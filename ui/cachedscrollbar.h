#pragma once

#include "stylecache.h"

#include <QScrollBar>

namespace napkin::ui {

/// A scroll bar whose style drawing is copied from a pixmap (StyleDrawingCache) while the
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
    StyleDrawingCache m_cache;
};

} // namespace napkin::ui
