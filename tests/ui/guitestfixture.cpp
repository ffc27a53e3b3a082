#include "guitestfixture.h"

#include "ui/shell/mainwindow.h"
#include "ui/views/dashboard.h"

#include <QApplication>
#include <QDialog>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QWidget>

#include <cmath>

namespace napkin::uitest {

Environment::Environment()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    if (const auto c = loadBuiltinCatalog(); c.ok())
        m_catalog = *c;
    else
        qWarning("catalog: %s", qPrintable(c.refusalMessage()));
}

Report Environment::report(const Scenario &s) const
{
    auto r = computeReport(s, m_catalog);
    if (!r.ok())
        qFatal("test scenario is invalid: %s", qPrintable(r.refusalMessage()));
    return *r;
}

Scenario Environment::deepSeekV3AtDgxCloud() const
{
    Scenario s = presetScenario(QStringLiteral("deepseek-v3"));
    s.gpus = 1024;
    s.tp = 2;
    s.pp = 16;
    s.ep = 64;
    s.etp = 1;
    s.seqLen = 4096;
    s.microBatch = 1;
    s.globalBatch = 8192;
    return s;
}

Scenario Environment::gptOssAtBridge(std::int64_t microBatch) const
{
    Scenario s = presetScenario(QStringLiteral("gpt-oss-120b"));
    s.gpus = 64;
    s.pp = 4;
    s.ep = 8;
    s.globalBatch = 1280;
    s.seqLen = 4096;
    s.microBatch = microBatch;
    return s;
}

Scenario Environment::presetScenario(const QString &id) const
{
    const ModelPreset *preset = m_catalog.findPreset(id);
    if (!preset)
        qFatal("no preset %s in the catalog", qPrintable(id));
    Scenario s;
    s.presetId = preset->id;
    s.model = preset->shape;
    return s;
}

ModalGuard::ModalGuard(QObject *parent) : QObject(parent)
{
    m_timer.setInterval(50);
    connect(&m_timer, &QTimer::timeout, this, &ModalGuard::check);
    m_timer.start();
}

void ModalGuard::check()
{
    QWidget *modal = QApplication::activeModalWidget();
    if (!modal)
        return;
    m_seen << QStringLiteral("%1 \"%2\"").arg(QString::fromLatin1(modal->metaObject()->className()),
                                              modal->windowTitle());
    if (auto *dialog = qobject_cast<QDialog *>(modal))
        dialog->reject();
    else
        modal->close();
}

void GuiTestCase::initTestCase()
{
    m_env = std::make_unique<Environment>();
    QVERIFY(m_env->isValid());
}

void GuiTestCase::cleanup()
{
    const QStringList seen = m_guard.seen();
    m_guard.clear();
    QVERIFY2(seen.isEmpty(), qPrintable(QStringLiteral("modal dialog appeared: ") + seen.join(QStringLiteral(", "))));
}

bool showAndWait(QWidget &window)
{
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

bool showInTabs(ui::MainWindow &window)
{
    window.resize(1024, 768);
    window.setFontScale(2.0);
    window.show();
    return QTest::qWaitForWindowActive(&window) && QTest::qWaitFor([&window] {
               return window.dashboard()->currentArrangement() == ui::Dashboard::Arrangement::Tabs;
           });
}

void showTabOf(ui::MainWindow &window, const QWidget *view)
{
    QTabWidget *tabs = window.dashboard()->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == view || tabs->widget(i)->isAncestorOf(view))
            tabs->setCurrentIndex(i);
}

int gpuIndex(const Catalog &catalog, const QString &id)
{
    for (int i = 0; i < catalog.gpus.size(); ++i)
        if (catalog.gpus[i].id == id)
            return i;
    return -1;
}

bool nearlyEqual(double a, double b, double relative)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

} // namespace napkin::uitest
