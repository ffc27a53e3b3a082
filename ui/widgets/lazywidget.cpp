#include "ui/widgets/lazywidget.h"

#include <QVBoxLayout>

namespace napkin::ui {

LazyWidget::LazyWidget(Factory factory, QWidget *parent)
    : QWidget(parent),
      m_factory(std::move(factory))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QWidget *LazyWidget::content()
{
    if (!m_content) {
        m_content = m_factory(this);
        setSizePolicy(m_content->sizePolicy());
        layout()->addWidget(m_content);
        // Shown now, not by the layout's queued show: a place already on screen must not
        // paint one empty frame first.
        m_content->show();
        emit built(m_content);
    }
    return m_content;
}

void LazyWidget::showEvent(QShowEvent *event)
{
    content();
    QWidget::showEvent(event);
}

} // namespace napkin::ui
