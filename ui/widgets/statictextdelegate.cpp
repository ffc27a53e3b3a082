#include "ui/widgets/statictextdelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace napkin::ui {

namespace {

// Distinct texts a table shows are few (small counts, a handful of sizes and times); past
// this many the caches start again rather than grow without bound.
constexpr qsizetype kMaxCached = 4096;

QStyle *styleOf(const QStyleOptionViewItem &option)
{
    return option.widget ? option.widget->style() : QApplication::style();
}

} // namespace

bool StaticTextDelegate::plain(const QStyleOptionViewItem &option)
{
    return option.icon.isNull() && !(option.features & QStyleOptionViewItem::HasCheckIndicator)
           && !(option.features & QStyleOptionViewItem::WrapText) && !option.text.contains(QLatin1Char('\n'))
           && !option.text.contains(QChar::LineSeparator);
}

void StaticTextDelegate::useFont(const QFont &font) const
{
    if (font == m_font && font.resolveMask() == m_font.resolveMask())
        return;
    m_font = font;
    m_shaped.clear();
    m_sizes.clear();
}

QSize StaticTextDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (!plain(opt))
        return QStyledItemDelegate::sizeHint(option, index);
    useFont(opt.font);
    if (m_sizes.size() > kMaxCached)
        m_sizes.clear();
    const auto found = m_sizes.constFind(opt.text);
    if (found != m_sizes.constEnd())
        return *found;
    const QSize size = QStyledItemDelegate::sizeHint(option, index);
    m_sizes.insert(opt.text, size);
    return size;
}

void StaticTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (!plain(opt) || opt.text.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QWidget *widget = opt.widget;
    QStyle *style = styleOf(opt);
    // The room the style gives the text: its text rectangle less the margin it keeps on each side.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect room = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    useFont(opt.font);
    if (m_shaped.size() > kMaxCached)
        m_shaped.clear();
    auto shaped = m_shaped.find(opt.text);
    if (shaped == m_shaped.end()) {
        shaped = m_shaped.insert(opt.text, QStaticText(opt.text));
        shaped->setTextFormat(Qt::PlainText);
        shaped->setPerformanceHint(QStaticText::AggressiveCaching);
        shaped->prepare(QTransform(), opt.font);
    }
    const QSize textSize = shaped->size().toSize();
    if (textSize.width() > room.width()) {
        QStyledItemDelegate::paint(painter, option, index);  // elided by the style
        return;
    }
    // The background, selection and focus as the style draws them, without the text.
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
                                       : (opt.state & QStyle::State_Active)  ? QPalette::Normal
                                                                             : QPalette::Inactive;
    const QRect at = QStyle::alignedRect(opt.direction, opt.displayAlignment, textSize, room);
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawStaticText(at.topLeft(), *shaped);
    painter->restore();
}

} // namespace napkin::ui
