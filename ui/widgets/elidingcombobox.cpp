#include "ui/widgets/elidingcombobox.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace napkin::ui {

ElidingComboBox::ElidingComboBox(QWidget *parent) : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(12);
}

QRect ElidingComboBox::textRect() const
{
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    return style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
}

QString ElidingComboBox::displayedText() const
{
    return fontMetrics().elidedText(currentText(), Qt::ElideRight, textRect().width());
}

void ElidingComboBox::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    opt.currentText = displayedText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

} // namespace napkin::ui
