#include "gui.h"

#include "chartrender.h"
#include "mainwindow.h"
#include "report.h"
#include "settingsstore.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

namespace napkin::ui {

int runMainWindow(const Catalog &catalog, const std::optional<Scenario> &initial)
{
    Scenario start;
    if (initial)
        start = *initial;
    else if (const auto last = settings::lastScenario())
        start = *last;
    MainWindow window(catalog, start);
    window.restoreSavedGeometry();
    window.show();
    return QApplication::exec();
}

bool exportCharts(const Catalog &catalog, const Scenario &scenario, const QString &dir, QSize size, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    if (size.width() < 1 || size.height() < 1 || size.width() > 16384 || size.height() > 16384)
        return fail(QApplication::translate("napkin::ui::Export", "image size %1x%2 must be from 1x1 to 16384x16384")
                        .arg(size.width()).arg(size.height()));
    ValidationError invalid;
    const auto report = computeReport(scenario, catalog, &invalid);
    if (!report)
        return fail(invalid.message());
    if (!QDir().mkpath(dir))
        return fail(QApplication::translate("napkin::ui::Export", "cannot create directory %1")
                        .arg(QDir::toNativeSeparators(QFileInfo(dir).absoluteFilePath())));
    const QDir out(dir);
    for (ChartKind kind : {ChartKind::Memory, ChartKind::Time, ChartKind::Roofline, ChartKind::Dashboard}) {
        const QImage image = renderChart(kind, *report, catalog, ViewOptions{}, size);
        if (!writePng(image, out.absoluteFilePath(chartFileName(kind)), error))
            return false;
    }
    return true;
}

} // namespace napkin::ui
