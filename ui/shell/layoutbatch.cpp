#include "ui/shell/layoutbatch.h"

#include <QLayout>
#include <QWidget>

#include <utility>

namespace napkin::ui {

void LayoutBatch::hold(QWidget *window)
{
    if (m_depth++ > 0 || !window || !window->isVisible())
        return;
    holdVisible(window);
}

void LayoutBatch::holdVisible(QWidget *widget)
{
    // Only the widget's own top-level layout: a nested layout defers to it (QLayout::activate).
    if (QLayout *layout = widget->layout(); layout && layout->isEnabled()) {
        layout->setEnabled(false);
        m_held.append(layout);
    }
    for (QObject *child : widget->children())
        if (child->isWidgetType()) {
            auto *w = static_cast<QWidget *>(child);
            if (!w->isHidden() && !w->isWindow())
                holdVisible(w);
        }
}

void LayoutBatch::release()
{
    if (m_depth == 0 || --m_depth > 0)
        return;
    const QList<QPointer<QLayout>> held = std::exchange(m_held, {});
    for (QLayout *layout : held)
        if (layout)
            layout->setEnabled(true);
    // Parents first: each child is laid out at the size its parent has just given it. A layout
    // the batch left untouched returns at once; one whose LayoutRequest arrived while held
    // (and was dropped) is laid out here all the same.
    for (QLayout *layout : held)
        if (layout && layout->parentWidget() && layout->parentWidget()->isVisible())
            layout->activate();
}

} // namespace napkin::ui
