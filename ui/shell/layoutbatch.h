#pragma once

#include <QList>
#include <QPointer>

class QLayout;
class QWidget;

namespace napkin::ui {

/// Holds a window's layouts while one change shows, hides and refills many widgets, and lays
/// each out once when released.
///
/// Showing a widget makes Qt activate the layout of every visible ancestor at once
/// (QWidget::setVisible: "activate our layout before we and our children become visible"),
/// and the next show finds them invalidated again: a mode switch, which shows or hides about
/// thirty rows, controls and charts, laid the window's ancestors out about thirty-six times
/// before its frame. Held layouts skip those activations (QLayout::setEnabled(false));
/// release() enables them and activates each, parents before children, so that the frame is
/// painted in the final arrangement. Only visible widgets' layouts are held: a hidden one
/// shown in the batch is laid out when shown, as usual. Holds nest; the outermost release
/// lays out. Measured with callgrind over 20 mode switches (bench_ui): 1,187M -> 1,117M
/// instructions.
class LayoutBatch
{
public:
    void hold(QWidget *window);
    void release();

private:
    void holdVisible(QWidget *widget);

    QList<QPointer<QLayout>> m_held;  ///< parents before children
    int m_depth = 0;
};

} // namespace napkin::ui
