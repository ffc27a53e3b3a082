#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace napkin::ui {

/// An item delegate for short, single-line cells (the planner's table) that keeps every text it
/// has drawn shaped, as a QStaticText, and its size hint, between paints. The style's own
/// delegate lays out and shapes each cell's text on every paint and again for every size hint;
/// for a table refreshed on every plan during a drag that was most of the frame. A cell with
/// an icon, a check box, several lines or too little room for its text (it would be elided)
/// is drawn by the style's delegate as before.
class StaticTextDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    static bool plain(const QStyleOptionViewItem &option);
    /// Forgets everything shaped for another font.
    void useFont(const QFont &font) const;

    mutable QFont m_font;
    mutable QHash<QString, QStaticText> m_shaped;
    mutable QHash<QString, QSize> m_sizes;
};

} // namespace napkin::ui
