#include "ui/views/layoutpicture.h"

#include "core/workload/comm.h"
#include "core/text/stepexplain.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPaintEvent>
#include <QTextOption>

#include <algorithm>
#include <cmath>

namespace napkin::ui {

namespace {

QString placement(const char *name, CommGroup group, const Layout &l)
{
    const std::int64_t size = Links::size(group, l);
    if (size <= 1)
        return {};
    return QCoreApplication::translate("napkin::ui::LayoutPicture", "%1 groups of %2 %3")
        .arg(QString::fromUtf8(name)).arg(size)
        .arg(Links::insideNode(group, l) ? QCoreApplication::translate("napkin::ui::LayoutPicture", "inside a node")
                                   : QCoreApplication::translate("napkin::ui::LayoutPicture", "across nodes"));
}

} // namespace

QString groupPlacementText(const Layout &l)
{
    QStringList parts;
    for (const auto &[name, group] : {std::pair{"TP", CommGroup::Tp}, std::pair{"CP", CommGroup::Cp},
                                      std::pair{"DP × CP", CommGroup::Dp}, std::pair{"PP", CommGroup::Pp},
                                      std::pair{"EP", CommGroup::Ep}}) {
        const QString p = placement(name, group, l);
        if (!p.isEmpty())
            parts << p;
    }
    if (parts.isEmpty())
        return QCoreApplication::translate("napkin::ui::LayoutPicture", "one GPU holds the whole model");
    QString text = parts.join(QStringLiteral("; ")) + QCoreApplication::translate("napkin::ui::LayoutPicture", " (%1 GPUs per node)")
                                                          .arg(l.gpusPerNode);
    if (l.ep > 1 && l.etp != l.tp)  // MoE parallel folding: the experts' own tensor parallelism
        text += l.etp == 1 ? QCoreApplication::translate("napkin::ui::LayoutPicture", "; each routed expert whole on its rank (expert TP 1)")
                           : QCoreApplication::translate("napkin::ui::LayoutPicture", "; each routed expert split over %1 ranks (expert TP)")
                                 .arg(l.etp);
    return text;
}

LayoutPicture::LayoutPicture(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Layout picture"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void LayoutPicture::setReport(const Report &report)
{
    const bool same = m_report && m_report->layout == report.layout;
    m_report = report;
    const Layout &l = report.layout;
    m_title = tr("One replica: tp %1 × cp %2 × pp %3 = %4 GPUs, × dp %5 = %6 GPUs")
                  .arg(l.tp).arg(l.cp).arg(l.pp).arg(l.tp * l.cp * l.pp).arg(l.dp).arg(l.gpus());
    m_caption = tr("%1. %2.").arg(groupPlacementText(l), layoutLine(l));
    if (!same)
        update();
}

QSize LayoutPicture::minimumSizeHint() const
{
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 30, fm.height() * 8};
}

QSize LayoutPicture::sizeHint() const
{
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 60, fm.height() * 14};
}

LayoutPicture::Boxes LayoutPicture::boxes() const
{
    // At large text the caption's groups ran to five lines and were cut at the three it had.
    const QRect area = rect().adjusted(6, 4, -6, -4);
    QFont bold = font();
    bold.setBold(true);
    const auto wrappedHeight = [&area](const QFontMetrics &metrics, const QString &text) {
        return metrics.boundingRect(QRect(0, 0, area.width(), 1 << 20), Qt::TextWordWrap, text).height();
    };
    const int titleHeight = wrappedHeight(QFontMetrics(bold), m_title);
    const int captionHeight = wrappedHeight(fontMetrics(), m_caption);
    Boxes b;
    b.title = QRect(area.left(), area.top(), area.width(), titleHeight);
    b.grid = QRect(area.left(), area.top() + titleHeight + 4, area.width(),
                   std::max(fontMetrics().height(), area.height() - titleHeight - captionHeight - 8));
    b.caption = QRect(area.left(), b.grid.bottom() + 4, area.width(), captionHeight);
    return b;
}

void LayoutPicture::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetrics fm(font());
    const int line = fm.height();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const QTextOption wrap(Qt::AlignLeft | Qt::AlignTop);
    QTextOption wrapping = wrap;
    wrapping.setWrapMode(QTextOption::WordWrap);
    const Boxes box = boxes();
    p.drawText(QRectF(box.title), m_title, wrapping);
    p.setFont(font());
    const QRect &grid = box.grid;
    p.drawText(QRectF(box.caption), m_caption, wrapping);
    if (!m_report)
        return;
    const Layout &l = m_report->layout;
    const int rows = static_cast<int>(l.pp);
    const std::int64_t columns = l.tp * l.cp;
    // Cells of at least 6 px; past that, a CP group is one block and a TP group its frame.
    const bool cells = columns * 6 <= grid.width() && rows * 6 <= grid.height();
    const double rowHeight = std::min<double>(static_cast<double>(grid.height()) / rows, 3.0 * line);
    const double gap = rows > 1 && rowHeight > 8 ? 2 : 0;
    const double cpWidth = static_cast<double>(grid.width()) / static_cast<double>(l.cp);
    // Every rank is numbered, or none: all in one size, small enough for the widest (the last
    // rank) and at least 70% of the text size. Numbering only the ranks short enough to fit
    // left the last stages of a 256-GPU replica blank, as if they were something else.
    bool numbered = false;
    if (cells) {
        const double cellWidth = cpWidth / static_cast<double>(l.tp);
        const QString widest = QString::number((l.tp - 1) + l.tp * ((l.cp - 1) + l.cp * l.dp * (rows - 1)));
        QFont small = font();
        const double base = small.pointSizeF() > 0 ? small.pointSizeF() : small.pixelSize();
        // Glyph widths do not scale exactly with the size: step down until the widest fits.
        for (double scale = std::min(1.0, (cellWidth - 3) / std::max(1, fm.horizontalAdvance(widest))); scale >= 0.69;
             scale -= 0.05) {
            if (small.pointSizeF() > 0)
                small.setPointSizeF(base * scale);
            else
                small.setPixelSize(std::max(1, static_cast<int>(base * scale)));
            const QFontMetrics smallFm(small);
            // Clear of the group's frame above and below (digits touching it read as struck out).
            numbered = smallFm.horizontalAdvance(widest) + 2 < cellWidth && rowHeight - gap >= smallFm.height() + 4;
            if (numbered)
                break;
        }
        p.setFont(small);
    }
    for (int s = 0; s < rows; ++s) {
        // Stages walk round the hue circle; CP ranks lighten.
        const QColor stage = QColor::fromHsv(static_cast<int>(210 + 300.0 * s / std::max(1, rows)) % 360, 150, 200);
        const double y = grid.top() + s * rowHeight;
        for (std::int64_t c = 0; c < l.cp; ++c) {
            const QColor shade = stage.lighter(100 + static_cast<int>(40.0 * static_cast<double>(c) / std::max<double>(1, l.cp)));
            // Numbers in black on light shades and in white on dark ones (the blues and purples
            // of the first stages), by the shade's luma (ITU-R BT.601 weights, as qGray).
            p.setPen(qGray(shade.rgb()) < 140 ? QColor(Qt::white) : QColor(Qt::black));
            const QRectF group(grid.left() + static_cast<double>(c) * cpWidth, y, cpWidth - 2, rowHeight - gap);
            if (cells) {
                const double w = group.width() / static_cast<double>(l.tp);
                for (std::int64_t t = 0; t < l.tp; ++t) {
                    const QRectF cell(group.left() + static_cast<double>(t) * w, group.top(), w, group.height());
                    p.fillRect(cell.adjusted(0.5, 0.5, -0.5, -0.5), shade);
                    const std::int64_t rank = t + l.tp * (c + l.cp * l.dp * s);
                    if (numbered)
                        p.drawText(cell, Qt::AlignCenter, QString::number(rank));
                }
            } else {
                p.fillRect(group, shade);
            }
            p.setPen(QPen(palette().color(QPalette::WindowText), 1.5));
            p.drawRect(group);  // the TP group
            p.setPen(palette().color(QPalette::WindowText));
        }
    }
}

} // namespace napkin::ui
