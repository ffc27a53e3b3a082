#include "ui/widgets/sectionbox.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOptionGroupBox>

namespace napkin::ui {

SectionBox::SectionBox(const QString &title, QWidget *parent) : QGroupBox(title, parent)
{
}

void SectionBox::paintEvent(QPaintEvent *event)
{
    // What QGroupBox::paintEvent draws, from the same style option.
    QStyleOptionGroupBox option;
    initStyleOption(&option);
    const QString state = QStringLiteral("%1 %2 %3 %4")
                              .arg(static_cast<int>(option.state))
                              .arg(static_cast<int>(option.subControls))
                              .arg(static_cast<int>(option.activeSubControls))
                              .arg(option.text);
    m_cache.paint(this, event, state, [&](QPainter &p) { style()->drawComplexControl(QStyle::CC_GroupBox, &option, &p, this); });
}

} // namespace napkin::ui
