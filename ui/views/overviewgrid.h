#pragma once

#include <QSize>

class QGridLayout;
class QWidget;

namespace napkin::ui {

class TimePanel;

/// How many columns the dashboard's grid pages take for the room they have: the dashboard
/// shows tabs below two, and on a wide page the overview puts its three views side by side.
/// `page` is the room for a page, `chart` the smallest readable chart at the current text
/// size (Dashboard::minimumChartSize()), `spacing` the grid's, `timeColumn` the width the
/// time panel needs as a column of its own (timeColumnWidth()).
int pageColumnsFor(QSize page, QSize chart, int spacing, int timeColumn);

/// The width of the time panel as a column: its every-GPU chart with the GPU names at most 45°.
int timeColumnWidth(const TimePanel *time);

/// The overview page in `columns` columns. Two: memory beside the roofline, over the time
/// panel (its figures beside the every-GPU chart), which gets less height. Three, on a wide
/// screen: memory, roofline and the time panel side by side at full height, the figures above
/// the every-GPU chart, so that no space is left under the figures; the time column is as wide
/// as its chart needs for GPU names at 45°, the charts share the rest.
void placeOverview(QGridLayout *grid, int columns, QWidget *memory, QWidget *roofline, TimePanel *time);

} // namespace napkin::ui
