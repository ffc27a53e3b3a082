#include "ui/views/overviewgrid.h"

#include "ui/views/gputimechart.h"
#include "ui/views/timepanel.h"

#include <QGridLayout>

#include <algorithm>

namespace napkin::ui {

int pageColumnsFor(QSize page, QSize chart, int spacing, int timeColumn)
{
    // Two columns: the charts' row gets 3/5 of the height, the row below 2/5; its every-GPU
    // chart, whose tilted names take lines too, may be a little lower than the others.
    const int twoWide = (page.width() - spacing) / 2;
    const int topRow = (page.height() - spacing) * 3 / 5;
    const int bottomRow = page.height() - spacing - topRow;
    if (twoWide < chart.width() || topRow < chart.height() || bottomRow < chart.height() * 9 / 10)
        return 1;
    // Three only on a page at least 8:5 (a 16:9 screen less the controls; on a squarer one
    // the columns are tall and narrow), where memory and roofline keep a little more than a
    // readable chart's width beside the time column (at the bare minimum their tick labels
    // start to elide), and the time column holds its figures above a chart.
    const bool wide = page.width() * 5 >= page.height() * 8;
    const int third = std::max(timeColumn, (page.width() - 2 * spacing) / 3);
    const int side = (page.width() - 2 * spacing - third) / 2;
    return wide && side >= chart.width() * 6 / 5 && page.height() >= chart.height() * 2 ? 3 : 2;
}

int timeColumnWidth(const TimePanel *time)
{
    const QMargins margins = time->contentsMargins() + (time->layout() ? time->layout()->contentsMargins() : QMargins());
    return time->gpuChart()->widthForTiltedNames() + margins.left() + margins.right();
}

void placeOverview(QGridLayout *grid, int columns, QWidget *memory, QWidget *roofline, TimePanel *time)
{
    const bool three = columns >= 3;
    time->setChartDetached(false);
    time->setFiguresAbove(three);
    grid->addWidget(memory, 0, 0);
    grid->addWidget(roofline, 0, 1);
    if (three)
        grid->addWidget(time, 0, 2);
    else
        grid->addWidget(time, 1, 0, 1, 2);
    grid->setRowStretch(0, three ? 1 : 3);
    grid->setRowStretch(1, three ? 0 : 2);
    grid->setColumnStretch(2, three ? 1 : 0);
    grid->setColumnMinimumWidth(2, three ? timeColumnWidth(time) : 0);
}

} // namespace napkin::ui
