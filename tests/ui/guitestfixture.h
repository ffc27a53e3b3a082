#pragma once

#include "core/model/catalog.h"
#include "core/report/report.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

class QWidget;

namespace napkin::ui {
class MainWindow;
}

namespace napkin::uitest {

/// Created first in every GUI test's initTestCase(): settings go to a temporary folder
/// (QStandardPaths test mode and QSettings::setPath), never to the user's, and the built-in
/// catalog is loaded once.
class Environment final
{
public:
    Environment();

    const Catalog &catalog() const { return m_catalog; }
    bool isValid() const { return m_dir.isValid() && !m_catalog.gpus.isEmpty(); }
    /// The core's report for a scenario, computed independently of any widget.
    Report report(const Scenario &s) const;
    /// The default scenario with a catalog preset's model (the test stops if there is none).
    Scenario presetScenario(const QString &id) const;
    /// DeepSeek-V3 as DGX Cloud Benchmarking v25.05 ran it: 1,024 GPUs, TP 2, PP 16, EP 64
    /// folded over TP x DP (expert TP 1), sequence 4,096, micro-batch 1, global batch 8,192.
    Scenario deepSeekV3AtDgxCloud() const;
    /// gpt-oss-120b as Megatron-Bridge's H100 recipe lays it out: 64 GPUs, PP 4, EP 8, global
    /// batch 1,280 of 4,096 tokens, at `microBatch` (the recipe's is 1; at 8 it fits no GPU).
    Scenario gptOssAtBridge(std::int64_t microBatch) const;

private:
    QTemporaryDir m_dir;
    Catalog m_catalog;
};

/// Watches for modal dialogs. A test must never block on one: the guard closes any it finds
/// and remembers its title, and each test's cleanup() fails if the list is not empty.
class ModalGuard final : public QObject
{
    Q_OBJECT

public:
    explicit ModalGuard(QObject *parent = nullptr);

    QStringList seen() const { return m_seen; }
    void clear() { m_seen.clear(); }

private:
    void check();

    QTimer m_timer;
    QStringList m_seen;
};

/// What every GUI test case derives from, in place of QObject: initTestCase() makes the
/// Environment, and cleanup() fails a test during which a modal dialog appeared. A test case
/// that needs more set-up declares its own initTestCase() and calls this one first.
class GuiTestCase : public QObject
{
    Q_OBJECT

protected:
    const Environment &env() const { return *m_env; }
    ModalGuard &modalGuard() { return m_guard; }

protected slots:
    void initTestCase();
    void cleanup();

private:
    std::unique_ptr<Environment> m_env;
    ModalGuard m_guard;
};

/// Shows a window and waits until it is exposed: QVERIFY(uitest::showAndWait(w)).
[[nodiscard]] bool showAndWait(QWidget &window);
/// A projector's window, 1024x768 at text x2, shown and active, its charts one at a time in
/// tabs: QVERIFY(uitest::showInTabs(w)).
[[nodiscard]] bool showInTabs(ui::MainWindow &window);
/// In the tabbed window, brings the tab that holds `view` into sight.
void showTabOf(ui::MainWindow &window, const QWidget *view);

/// Position of a GPU in the catalog (-1 if absent).
int gpuIndex(const Catalog &catalog, const QString &id);

/// Relative comparison for figures that went through a division by a unit.
bool nearlyEqual(double a, double b, double relative = 1e-9);

} // namespace napkin::uitest
