#include "ui/shell/gui.h"

#include "ui/views/dashboard.h"
#include "ui/views/memorypanel.h"

#include "ui/views/chartrender.h"
#include "ui/shell/mainwindow.h"
#include "core/report/report.h"
#include "core/io/safefile.h"
#include "ui/shell/settingsstore.h"
#include "core/model/validation.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>

namespace napkin::ui {

int runMainWindow(const Catalog &catalog, const std::optional<Scenario> &initial, std::optional<ByteUnit> unit,
                  std::optional<MemoryAxisFocus> memoryAxis)
{
    Scenario start;
    QStringList replaced;
    if (initial) {
        start = *initial;
    } else if (const auto last = settings::lastScenario(catalog)) {
        start = last->scenario;
        replaced = last->replaced;
    }
    MainWindow window(catalog, start);
    window.restoreSavedGeometry();
    if (unit)
        window.setByteUnit(*unit);
    if (memoryAxis)
        window.dashboard()->memoryPanel()->setAxisFocus(*memoryAxis);
    window.show();
    if (!replaced.isEmpty())
        window.statusBar()->showMessage(QApplication::translate("napkin::ui::Settings", "Remembered settings: %1")
                                            .arg(replaced.join(QStringLiteral("; "))));
    return QApplication::exec();
}

std::optional<Refusal> exportCharts(const Catalog &catalog, const Scenario &scenario, const QString &dir, QSize size,
                                    int scale, ByteUnit unit, MemoryAxisFocus memoryAxis, ImageFormat format,
                                    const BudgetRequest &budget)
{
    const auto fail = [](const QString &message) { return Refusal{QString(), message}; };
    const auto side = [](int n) { return n >= limits::minExportSide && n <= limits::maxExportSide; };
    if (!side(size.width()) || !side(size.height()))
        return fail(QApplication::translate("napkin::ui::Export", "image size %1x%2 must be from %3x%3 to %4x%4")
                        .arg(size.width()).arg(size.height()).arg(limits::minExportSide).arg(limits::maxExportSide));
    if (scale < limits::minExportScale || scale > limits::maxExportScale)
        return fail(QApplication::translate("napkin::ui::Export", "scale %1 must be from %2 to %3")
                        .arg(scale).arg(limits::minExportScale).arg(limits::maxExportScale));
    const auto report = computeReport(scenario, catalog);
    if (!report.ok())
        return report.refusal();
    if (!QDir().mkpath(dir))
        return fail(QApplication::translate("napkin::ui::Export", "cannot create directory %1")
                        .arg(printable(QDir::toNativeSeparators(QFileInfo(dir).absoluteFilePath()))));
    // All the pictures are made in memory before any is written, then written together: a
    // failure leaves no new file under a final name and every previous one untouched.
    const QDir out(dir);
    QList<FileContents> files;
    for (ChartKind kind : exportedChartKinds(scenario.mode)) {
        const QString path = out.absoluteFilePath(chartFileName(kind, format));
        ViewOptions options;
        options.unit = unit;
        options.memoryFocus = memoryAxis;
        options.budget = budget;
        const auto bytes = renderChartFile(kind, *report, catalog, options, size, scale, format);
        if (!bytes.ok())
            return fail(QApplication::translate("napkin::ui::Export", "cannot write %1: %2")
                            .arg(printable(QDir::toNativeSeparators(path)), bytes.refusal().message()));
        files.append({path, *bytes});
    }
    return writeFilesAtomically(files);
}

} // namespace napkin::ui
