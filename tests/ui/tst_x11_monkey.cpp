// A GUI monkey on a real X11 display (Xvfb, xcb): random clicks, drags, wheel turns and keys
// (undo/redo, text size, full screen, digits into spin boxes) on the whole window. The window
// must stay alive and answer every event promptly, and its memory must not keep growing.
// CTest runs a short campaign; NAPKIN_MONKEY_EVENTS=100000 (and NAPKIN_MONKEY_SEED) a long one.
#include "guitestfixture.h"
#include "ui/shell/mainwindow.h"
#include "ui/state/scenariocontroller.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTimer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>
#include <QWheelEvent>

#include <unistd.h>

// Built with AddressSanitizer? GCC defines __SANITIZE_ADDRESS__; clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define NAPKIN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAPKIN_ASAN 1
#endif
#endif
#ifdef NAPKIN_ASAN
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

using namespace napkin;
using namespace napkin::ui;

namespace {

double residentMiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

} // namespace

class TestMonkey final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void randomEventsKeepTheWindowAliveAndBounded()
    {
        const int events = envInt("NAPKIN_MONKEY_EVENTS", 3000);
        const auto seed = static_cast<quint32>(envInt("NAPKIN_MONKEY_SEED", 20261201));
        QRandomGenerator rng(seed);
        // A painter warning means something drew into nothing (it caught pixmap-cached chart
        // text painting into null pixmaps).
        QTest::failOnWarning(QRegularExpression(QStringLiteral("QPainter")));
        MainWindow w(env().catalog(), Scenario{});
        int changes = 0;
        connect(w.controller(), &ScenarioController::reportChanged, this, [&changes] { ++changes; });
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        // Quitting would end the campaign, not test anything.
        for (QAction *a : w.findChildren<QAction *>())
            if (a->shortcut() == QKeySequence::Quit || a->menuRole() == QAction::QuitRole)
                a->setEnabled(false);

        const QList<QKeySequence> keys = {
            QKeySequence::Undo, QKeySequence::Redo, QKeySequence::ZoomIn, QKeySequence::ZoomOut,
            QKeySequence(Qt::Key_F11), QKeySequence(Qt::Key_Escape), QKeySequence(Qt::Key_Tab),
            QKeySequence(Qt::Key_Up), QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Return)};
        // A click on a button with a menu (the memory chart's Axis) runs the menu's own event
        // loop until it closes: a person would pick an item or click away, so the monkey's
        // hand closes it after a moment and goes on.
        QTimer closeMenus;
        connect(&closeMenus, &QTimer::timeout, this, [] {
            if (auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget()))
                menu->close();
        });
        closeMenus.start(300);
        double warmMiB = 0;
        double worstMs = 0;
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < events; ++i) {
            if (i == events / 5)
                warmMiB = residentMiB();
            QWidget *top = QApplication::activePopupWidget() ? QApplication::activePopupWidget() : &w;
            const QPoint p(rng.bounded(std::max(1, top->width())), rng.bounded(std::max(1, top->height())));
            QWidget *target = top->childAt(p) ? top->childAt(p) : top;
            const QPoint local = target->mapFrom(top, p);
            QElapsedTimer step;
            step.start();
            switch (rng.bounded(6)) {
            case 0:
            case 1:
                QTest::mouseClick(target, Qt::LeftButton, {}, local);
                break;
            case 2: {
                QTest::mousePress(target, Qt::LeftButton, {}, local);
                for (int k = 1; k <= 4; ++k)
                    QTest::mouseMove(target, local + QPoint(rng.bounded(-60, 61), rng.bounded(-40, 41)) * k / 4);
                QTest::mouseRelease(target, Qt::LeftButton, {}, local + QPoint(rng.bounded(-60, 61), 0));
                break;
            }
            case 3: {
                QWheelEvent wheel(local, target->mapToGlobal(local), {}, QPoint(0, rng.bounded(2) ? 120 : -120),
                                  Qt::NoButton, {}, Qt::NoScrollPhase, false);
                QApplication::sendEvent(target, &wheel);
                break;
            }
            case 4: {
                QWidget *focus = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
                QTest::keyClicks(focus, QString::number(rng.bounded(100000)));
                QTest::keyClick(focus, Qt::Key_Return);
                break;
            }
            case 5: {
                const QKeySequence k = keys[rng.bounded(keys.size())];
                QWidget *focus = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
                QTest::keySequence(focus, k);
                break;
            }
            }
            QApplication::processEvents();
            modalGuard().clear();  // dialogs the monkey opens are closed by the guard; that is fine
            worstMs = std::max(worstMs, static_cast<double>(step.nsecsElapsed()) / 1e6);
            QVERIFY2(w.isVisible(), qPrintable(QStringLiteral("the window closed at event %1").arg(i)));
        }
        if (QWidget *popup = QApplication::activePopupWidget())
            popup->close();
        // Still responsive: a change made now is computed.
        Scenario s;
        s.model.layers = 7;
        w.controller()->propose(s, QStringLiteral("monkey check"));
        QApplication::processEvents();
        QVERIFY(w.controller()->report() && w.controller()->report()->scenario.model.layers == 7);
        const double endMiB = residentMiB();
        qInfo("monkey: %d events (seed %u) in %.1f s, %d scenario changes, slowest event %.0f ms, RSS %.1f MiB after "
              "warm-up, %.1f MiB at the end (+%.1f)",
              events, seed, static_cast<double>(clock.elapsed()) / 1000, changes, worstMs, warmMiB, endMiB,
              endMiB - warmMiB);
        QVERIFY2(changes > events / 100, "the monkey hardly changed anything: are its events reaching the controls?");
        QVERIFY2(worstMs < 10000, "an event took over 10 s: the window stopped answering");
        // The window holds a bounded undo history and bounded charts; memory after warm-up may
        // grow a little (caches, undo steps) but not with the number of events. Under
        // AddressSanitizer freed blocks wait in its quarantine before reuse, resident and
        // counted here: tools/sanitize.sh sets it to 32 MiB, which the bound adds there (the
        // release build grows about 12 MiB; the sanitizer build 94-110, and failed at 110.6
        // against a bound without it). LeakSanitizer checks real leaks at exit.
        const double quarantineMiB = kAddressSanitizer ? 32 : 0;
        QVERIFY2(endMiB - warmMiB < 80 + 0.01 * events + quarantineMiB,
                 qPrintable(QStringLiteral("RSS grew by %1 MiB").arg(endMiB - warmMiB)));
    }
};

QTEST_MAIN(TestMonkey)
#include "tst_x11_monkey.moc"
