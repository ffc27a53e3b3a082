#include "sectionbox.h"

#include <QPaintEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionGroupBox>

namespace napkin::ui {

SectionBox::SectionBox(const QString &title, QWidget *parent) : QGroupBox(title, parent)
{
}

void SectionBox::paintEvent(QPaintEvent *event)
{
    QStyleOptionGroupBox option;
    initStyleOption(&option);
    const qreal scale = devicePixelRatio();
    // Everything the style's drawing depends on; a change to any draws the frame again.
    const QString key = QStringLiteral("%1x%2@%3 %4 %5 %6 %7 %8 %9")
                            .arg(width()).arg(height()).arg(scale)
                            .arg(static_cast<int>(option.state)).arg(static_cast<int>(option.subControls))
                            .arg(static_cast<int>(option.activeSubControls))
                            .arg(option.palette.cacheKey()).arg(font().key(), option.text)
                        + QString::number(reinterpret_cast<quintptr>(style()));
    if (key != m_frameKey) {
        m_frame = QPixmap(size() * scale);
        m_frame.setDevicePixelRatio(scale);
        m_frame.fill(Qt::transparent);
        QPainter p(&m_frame);
        p.setFont(font());
        p.setPen(option.palette.color(QPalette::WindowText));
        style()->drawComplexControl(QStyle::CC_GroupBox, &option, &p, this);
        m_frameKey = key;
    }
    QPainter p(this);
    const QRect r = event->rect();
    p.drawPixmap(r, m_frame, QRectF(QPointF(r.topLeft()) * scale, QSizeF(r.size()) * scale));
}

} // namespace napkin::ui
