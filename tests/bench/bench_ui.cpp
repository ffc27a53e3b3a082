// Measures, on the offscreen platform, what a user feels while dragging a slider: one control
// change -> scenario recomputed -> charts updated -> painted, over many changes (p50, p99,
// max), once painting what changed and once painting the whole dashboard; and cold start -> the first painted window, both from main() and from
// exec() of a fresh process (libraries loaded). Prints the figures; it is not a test.
//
//   bench_ui [changes=500] [width height]      BENCH_TRACE=1 prints every sample,
//   BENCH_PINNED=1 drags with a pinned baseline (two reports per change),
//   BENCH_PARALLEL=1 drags Llama 3.1 405B on 16,384 H100s (TP 8 x PP 16, Dubey et al. 2024,
//   Table 4) with the Parallel training page shown: stages, step, layout and the planner table,
//   and reports how long the planner's table takes to follow (it runs on a worker thread),
//   BENCH_PROFILE=1 prints where the drag's time went (the frames as the event loop paints
//   them; BENCH_PROFILE=whole: the whole-dashboard frames): each event type's time per widget
//   class (BENCH_PROFILE=serving: the concurrency drag's frames; =mode: the mode switches'; =cold: the phases of
//   the cold start), BENCH_SLIDER=N drags slider N only
// The cold start is compared with a bare window holding one Qt Charts line chart, started
// the same way in the same run. Both children leave with _exit() right after their first
// frame is painted: what is timed is what a user waits for, not the teardown after it.

#include "core/model/catalog.h"
#include "ui/controls/controlspanel.h"
#include "ui/controls/servingcontrols.h"
#include "ui/views/dashboard.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/startupheap.h"
#include "ui/views/plannerpanel.h"
#include "ui/state/scenariocontroller.h"

#include "core/report/baseline.h"

#include <QStackedWidget>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QElapsedTimer>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QToolButton>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <map>
#include <vector>

using namespace napkin;
using namespace napkin::ui;

namespace {

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

void report(const char *what, const std::vector<double> &ms)
{
    if (ms.empty())
        return;
    double sum = 0;
    for (double x : ms)
        sum += x;
    std::printf("%-44s n=%zu  p50 %.2f ms  p99 %.2f ms  max %.2f ms  mean %.2f ms\n", what, ms.size(),
                percentile(ms, 0.5), percentile(ms, 0.99), *std::max_element(ms.begin(), ms.end()),
                sum / static_cast<double>(ms.size()));
}

/// One mode switch, clicked, through to the whole dashboard painted: a function of its own so
/// that a profiler can collect it alone (valgrind --toggle-collect='*switchModeAndPaint*').
[[gnu::noinline]] void switchModeAndPaint(MainWindow &window, Mode to)
{
    window.controls()->servingControls()->modeButton(to)->click();
    window.dashboard()->update();
    QApplication::sendPostedEvents();
}

/// Times every event by type and receiver class (BENCH_PROFILE): paint events nest no child's
/// paint, so their times add up to the frame's painting. The cold start's profile times every
/// event type, and those nest (a Show includes its children's polish).
class ProfilingApplication final : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!profiling)
            return QApplication::notify(receiver, event);
        const QEvent::Type type = event->type();
        if (!allTypes && type != QEvent::Paint && type != QEvent::UpdateRequest && type != QEvent::LayoutRequest
            && type != QEvent::MetaCall)
            return QApplication::notify(receiver, event);
        // Named before the event is delivered: a receiver may be gone after it (DeferredDelete).
        const char *name = receiver->metaObject()->className();
        QString parent;
        // The first own ancestor, and the panel around a chart view (which chart it is).
        for (QObject *up = receiver->parent(); up; up = up->parent())
            if (!QByteArray(up->metaObject()->className()).startsWith('Q') || !up->parent()) {
                parent = QString::fromLatin1(up->metaObject()->className());
                if (parent == QLatin1String("napkin::ui::ChartView"))
                    for (QObject *panel = up->parent(); panel; panel = panel->parent())
                        if (!QByteArray(panel->metaObject()->className()).startsWith('Q')) {
                            parent += QStringLiteral(" in %1").arg(QString::fromLatin1(panel->metaObject()->className()));
                            break;
                        }
                break;
            }
        // Qt Charts' own objects are told apart by their object names (the panels set them).
        const QString named = receiver->objectName().isEmpty() ? QString::fromLatin1(name)
                                                               : QStringLiteral("%1 %2").arg(QString::fromLatin1(name), receiver->objectName());
        const QString key = QStringLiteral("%1 %2 (in %3)").arg(int(type)).arg(named, parent);
        QElapsedTimer t;
        t.start();
        const bool result = QApplication::notify(receiver, event);
        auto &slot = frame[key];
        slot.first += static_cast<double>(t.nsecsElapsed()) / 1e6;
        ++slot.second;
        return result;
    }
    /// Adds this frame's events to the drag's: to those of frames that showed a new plan, or the rest.
    void endFrame(bool planShown)
    {
        for (const auto &[key, v] : frame) {
            auto &slot = (planShown ? spentWithPlan : spent)[key];
            slot.first += v.first;
            slot.second += v.second;
        }
        frame.clear();
        (planShown ? framesWithPlan : frames) += 1;
    }
    bool profiling = false;
    bool allTypes = false;  // every event type, not only a frame's (the cold start's profile)
    std::map<QString, std::pair<double, int>> frame;
    std::map<QString, std::pair<double, int>> spent;
    std::map<QString, std::pair<double, int>> spentWithPlan;
    int frames = 0;
    int framesWithPlan = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QElapsedTimer cold;
    cold.start();
    // As napkin's main() does before its window; the bare window is a plain Qt program.
    const bool bareChild = std::any_of(argv, argv + argc, [](const char *a) { return std::strcmp(a, "--bare-child") == 0; });
    if (!bareChild)
        prefaultStartupHeap();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ProfilingApplication app(argc, argv);
    const bool coldChild = QCoreApplication::arguments().contains(QStringLiteral("--cold-child"));
    if (QCoreApplication::arguments().contains(QStringLiteral("--bare-child"))) {
        // The floor: one chart, one series, two axes, painted once.
        auto *series = new QLineSeries;
        series->append(QList<QPointF>{{0, 0}, {1, 1}, {2, 4}});
        auto *chart = new QChart;
        chart->addSeries(series);
        chart->createDefaultAxes();
        chart->setTitle(QStringLiteral("bare"));
        QChartView view(chart);
        view.resize(1280, 720);
        view.show();
        QApplication::processEvents();
        view.repaint();
        std::fflush(nullptr);
        ::_exit(0);
    }
    const int changes = argc > 1 ? std::max(10, QString::fromLocal8Bit(argv[1]).toInt()) : 500;
    const QSize size(argc > 3 ? QString::fromLocal8Bit(argv[2]).toInt() : 1280,
                     argc > 3 ? QString::fromLocal8Bit(argv[3]).toInt() : 720);

    // Never touch the user's settings.
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir settingsDir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    const auto catalog = loadBuiltinCatalog();
    if (!catalog.ok()) {
        std::fprintf(stderr, "bench_ui: %s\n", qPrintable(catalog.refusalMessage()));
        return 1;
    }
    const double appMs = static_cast<double>(cold.nsecsElapsed()) / 1e6;
    const bool parallel = qEnvironmentVariableIsSet("BENCH_PARALLEL");
    Scenario start = qEnvironmentVariableIsSet("BENCH_PINNED") ? withBaselinePinned(Scenario{}) : Scenario{};
    if (parallel) {
        const ModelPreset *p = catalog->findPreset(QStringLiteral("llama3.1-405b"));
        start.presetId = p->id;
        start.model = p->shape;
        start.seqLen = 8192;
        start.microBatch = 1;
        start.globalBatch = 2048;
        start.gpus = 16384;
        start.tp = 8;
        start.pp = 16;
        start.sequenceParallel = true;
        start.flashAttention = true;
        start.zeroStage = 2;
        start.recipeId = QStringLiteral("bf16-mixed-adamw-fp32-grads");
    }
    const double builtFrom = static_cast<double>(cold.nsecsElapsed()) / 1e6;
    MainWindow window(*catalog, start);
    window.resize(size);
    if (parallel && !qEnvironmentVariableIsSet("BENCH_OVERVIEW"))
        window.dashboard()->pageTabs()->setCurrentIndex(1);
    const double builtMs = static_cast<double>(cold.nsecsElapsed()) / 1e6;
    const bool coldProfile = !coldChild && qgetenv("BENCH_PROFILE") == "cold";
    app.profiling = app.allTypes = coldProfile;
    window.show();
    QApplication::processEvents();
    app.profiling = app.allTypes = false;
    const double shownMs = static_cast<double>(cold.nsecsElapsed()) / 1e6;
    window.repaint();
    const double coldMs = static_cast<double>(cold.nsecsElapsed()) / 1e6;
    if (coldProfile) {
        std::vector<std::pair<double, QString>> rows;
        for (const auto &[key, v] : app.frame)
            rows.emplace_back(v.first, QStringLiteral("%1 x%2").arg(key).arg(v.second));
        std::sort(rows.rbegin(), rows.rend());
        std::printf("events while the window is first shown (type receiver (in its first own ancestor)), ms:\n");
        for (std::size_t i = 0; i < std::min<std::size_t>(rows.size(), 25); ++i)
            std::printf("  %7.3f  %s\n", rows[i].first, qPrintable(rows[i].second));
        app.frame.clear();
    }
    if (coldProfile)
        std::printf("cold start phases: QApplication + catalog %.1f ms, window built %.1f ms, shown (polish, layout, "
                    "first events) %.1f ms, painted %.1f ms\n",
                    builtFrom, builtMs - builtFrom, shownMs - builtMs, coldMs - shownMs);
    if (coldChild) {
        std::fflush(nullptr);
        ::_exit(0);
    }

    // Cold start as a user sees it: exec() of a new process until its first frame is painted.
    // Interleaved with the bare window, so that both see the same machine load.
    std::vector<double> processMs;
    std::vector<double> bareMs;
    for (int run = 0; run < 5; ++run) {
        for (const char *mode : {"--cold-child", "--bare-child"}) {
            QElapsedTimer p;
            p.start();
            QProcess child;
            child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(mode)});
            if (!child.waitForFinished(30000) || child.exitCode() != 0) {
                std::fprintf(stderr, "bench_ui: cold-start child %s failed\n", mode);
                return 1;
            }
            (mode[2] == 'c' ? processMs : bareMs).push_back(static_cast<double>(p.nsecsElapsed()) / 1e6);
        }
    }

    // A drag over each slider in turn, back and forth, as a user would: the slider is held
    // down, so the controller knows a drag is on (axes hold still, undo steps merge). Each
    // change is timed from the slider's new value until its frame is painted, twice over:
    //  - the frame as the event loop paints it: everything that changed (dirty) and nothing else;
    //  - the whole dashboard made dirty before the frame, so that every chart, the planner's
    //    table and every line of text on it is painted once whether or not it changed: the
    //    figure that does not rely on what Qt considers dirty, and the one the target is for.
    using Main = ControlsPanel::Main;
    // With a layout, width and micro-batch would leave it (heads no longer divisible by TP, the
    // batch no longer dividing the global batch): the window says so, but that is not a drag.
    const Main order[] = {Main::Layers, parallel ? Main::Tokens : Main::DModel, Main::Tokens,
                          parallel ? Main::SeqLen : Main::MicroBatch, Main::SeqLen};
    int plansShown = 0;
    QObject::connect(window.dashboard()->plannerPanel(), &PlannerPanel::planShown, [&plansShown] { ++plansShown; });
    struct Drag {
        std::vector<double> computed, painted, released, withPlan;
        std::vector<double> bySlider[5];
    };
    QElapsedTimer t;
    constexpr int kDrag = 12;  // changes per drag: six steps out and six back
    Drag changed;
    Drag whole;
    // Each slider is dragged twice in a row, painting what changed and then the whole
    // dashboard, so that both figures see the same machine; a first round over every slider,
    // not timed, warms the caches a user's first minute would (glyphs, shaped texts, layouts).
    const int warmUp = 5 * 2 * kDrag;
    for (int i = 0; i < warmUp + 2 * changes; ++i) {
        const int k = i / kDrag;
        const bool timed = i >= warmUp;
        const bool wholeDashboard = k % 2 == 1;
        Drag &d = wholeDashboard ? whole : changed;
        const Main which = qEnvironmentVariableIsSet("BENCH_SLIDER")
                               ? static_cast<Main>(qEnvironmentVariableIntValue("BENCH_SLIDER"))
                               : order[(k / 2) % 5];
        QSlider *slider = window.controls()->slider(which)->slider();
        if (i % kDrag == 0)
            slider->setSliderDown(true);
        // Sequence length starts at GPT-2's 1024-position limit, so it goes down first.
        const int out = which == Main::SeqLen ? -1 : 1;
        const int step = (i % kDrag) < kDrag / 2 ? out : -out;
        const int plansBefore = plansShown;
        app.profiling = timed && qEnvironmentVariableIsSet("BENCH_PROFILE")
                        && wholeDashboard == (qgetenv("BENCH_PROFILE") == "whole");
        t.start();
        slider->setValue(slider->value() + step);
        const double computed = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (wholeDashboard)
            window.dashboard()->update();
        // One pass of posted events: a plan that arrived, layout requests, scene updates and
        // the paint of every dirty region, as the event loop does for the next frame.
        QApplication::sendPostedEvents();
        const double painted = static_cast<double>(t.nsecsElapsed()) / 1e6;
        const bool planShown = plansShown != plansBefore;
        if (app.profiling)
            app.endFrame(planShown);
        app.profiling = false;
        if (timed) {
            d.computed.push_back(computed);
            d.painted.push_back(painted);
            d.bySlider[static_cast<int>(which)].push_back(painted);
            if (planShown)
                d.withPlan.push_back(painted);
        }
        if (qEnvironmentVariableIsSet("BENCH_TRACE") && timed)
            std::printf("%s %d slider %d computed %.2f painted %.2f seq %lld%s\n", wholeDashboard ? "whole" : "changed", i,
                        static_cast<int>(which), computed, painted,
                        static_cast<long long>(window.controller()->scenario().seqLen), planShown ? " plan shown" : "");
        if (i % kDrag == kDrag - 1) {
            // The release is a frame of its own: the axes refit to the data.
            t.start();
            slider->setSliderDown(false);
            if (wholeDashboard)
                window.dashboard()->update();
            QApplication::sendPostedEvents();
            if (timed)
                d.released.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        if (window.controller()->error()) {
            std::fprintf(stderr, "bench_ui: scenario refused: %s\n", qPrintable(window.controller()->error()->message()));
            return 1;
        }
    }

    const auto printProfile = [&app] {
    for (const auto *spent : {&app.spent, &app.spentWithPlan}) {
        const int frames = spent == &app.spent ? app.frames : app.framesWithPlan;
        if (spent->empty() || frames == 0)
            continue;
        std::vector<std::pair<double, QString>> rows;
        for (const auto &[key, v] : *spent)
            rows.emplace_back(v.first, QStringLiteral("%1 x%2").arg(key).arg(v.second));
        std::sort(rows.rbegin(), rows.rend());
        std::printf("events in the %d changes %s (type receiver (in its first own ancestor)), ms per change:\n", frames,
                    spent == &app.spent ? "that showed no new plan" : "that showed a new plan");
        for (const auto &row : rows)
            if (row.first / frames > 0.01)
                std::printf("  %7.3f  %s\n", row.first / frames, qPrintable(row.second));
    }
        app.spent.clear();
        app.spentWithPlan.clear();
        app.frames = app.framesWithPlan = 0;
    };
    printProfile();
    std::printf("bench_ui: %dx%d offscreen, Qt %s\n", size.width(), size.height(), qVersion());
    std::printf("%-44s %.1f ms (QApplication + catalog %.1f ms)\n", "cold start (from main) -> first painted window",
                coldMs, appMs);
    std::printf("%-44s median %.1f ms of 5 (exec to the first paint)\n", "cold start (exec) -> first painted window",
                percentile(processMs, 0.5));
    std::printf("%-44s median %.1f ms of 5: Napkin takes %.2fx\n", "cold start (exec) -> bare one-chart window",
                percentile(bareMs, 0.5), percentile(processMs, 0.5) / percentile(bareMs, 0.5));
    if (start.baseline)
        std::printf("(with a pinned baseline: every change computes two reports)\n");
    report("control change -> recomputed, charts updated", changed.computed);
    report("control change -> what changed painted", changed.painted);
    report("control change -> whole dashboard painted", whole.painted);
    report("  of which the frames that showed a new plan", whole.withPlan);
    report("slider released -> axes refitted + painted", whole.released);
    const char *names[] = {"  layers", "  d_model", "  tokens", "  micro-batch", "  seq_len"};
    for (int k = 0; k < 5; ++k)
        report(names[k], whole.bySlider[k]);
    if (parallel) {
        // The planner's table after a change: from the change until the table shows the new
        // plan (worker thread, then one paint), with the window responsive meanwhile.
        PlannerPanel *planner = window.dashboard()->plannerPanel();
        int shown = 0;
        QObject::connect(planner, &PlannerPanel::planShown, [&shown] { ++shown; });
        std::vector<double> planMs;
        QSlider *slider = window.controls()->slider(Main::Layers)->slider();
        for (int i = 0; i < 40; ++i) {
            const int before = shown;
            t.start();
            slider->setValue(slider->value() + (i % 2 ? -1 : 1));
            while (shown == before && t.elapsed() < 5000)
                QApplication::processEvents(QEventLoop::AllEvents, 1);
            planner->repaint();
            planMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        std::printf("(planner: %lld layouts evaluated per plan)\n", static_cast<long long>(planner->plan()->evaluated));
        report("control change -> planner table shown", planMs);
    }

    // Serving: Llama 3 70B with fp8 weights on two H100s at TP 2 in inference mode, the
    // concurrency slider dragged back and forth over its log scale, the whole dashboard painted
    // each time (the every-GPU chart estimates serving on each catalog GPU per change).
    {
        Scenario serving;
        const ModelPreset *p = catalog->findPreset(QStringLiteral("llama3-70b"));
        serving.presetId = p->id;
        serving.model = p->shape;
        serving.gpus = 2;
        serving.tp = 2;
        serving.weightDtype = NumberFormat::Fp8;
        serving.mode = Mode::Inference;
        window.dashboard()->pageTabs()->setCurrentIndex(0);
        window.controller()->setScenario(serving);
        QApplication::sendPostedEvents();
        QSlider *slider = window.controls()->servingControls()->concurrencySlider()->slider();
        std::vector<double> computedMs, paintedMs;
        const int last = slider->maximum();
        for (int i = 0; i < (qEnvironmentVariableIsSet("EXP_SERV") ? 1500 : std::max(40, changes / 2)); ++i) {
            if (i % kDrag == 0)
                slider->setSliderDown(true);
            // Down from the top and back: twelve positions each way.
            const int position = last - std::abs((i % (2 * kDrag)) - kDrag);
            app.profiling = i >= kDrag && qgetenv("BENCH_PROFILE") == "serving";
            t.start();
            slider->setValue(std::clamp(position, 0, last));
            const double computed = static_cast<double>(t.nsecsElapsed()) / 1e6;
            window.dashboard()->update();
            QApplication::sendPostedEvents();
            if (app.profiling)
                app.endFrame(false);
            app.profiling = false;
            if (i >= kDrag) {  // the first drag warms the caches
                computedMs.push_back(computed);
                paintedMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            }
            if (i % kDrag == kDrag - 1)
                slider->setSliderDown(false);
            if (window.controller()->error()) {
                std::fprintf(stderr, "bench_ui: serving scenario refused: %s\n",
                             qPrintable(window.controller()->error()->message()));
                return 1;
            }
        }
        std::printf("(inference: Llama 3 70B fp8 on 2 x H100, TP 2, concurrency 1 to %lld)\n",
                    static_cast<long long>(window.controller()->report()->inference->maxConcurrency));
        report("concurrency change -> recomputed, charts updated", computedMs);
        report("concurrency change -> whole dashboard painted", paintedMs);
        printProfile();

        // The mode switch, clicked back and forth as a user does (one undo step each): the
        // model, GPU and layout stay, the memory cell, the time panel's figures and chart, the
        // roofline's marks and the controls change. The first round trip builds inference
        // mode's lazy views and is not timed.
        std::vector<double> switchMs;
        for (int i = 0; i < std::max(20, changes / 10); ++i) {
            const Mode to = i % 2 == 0 ? Mode::Training : Mode::Inference;
            app.profiling = i >= 2 && qgetenv("BENCH_PROFILE") == "mode";
            t.start();
            switchModeAndPaint(window, to);
            if (app.profiling)
                app.endFrame(false);
            app.profiling = false;
            if (i >= 2)
                switchMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            if (window.controller()->scenario().mode != to) {
                std::fprintf(stderr, "bench_ui: the mode switch did not switch\n");
                return 1;
            }
        }
        report("mode switched -> whole dashboard painted", switchMs);
        printProfile();
    }
    return 0;
}
