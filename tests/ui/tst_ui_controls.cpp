// Controls: width changes keep heads valid and say so, refused values show core's message in
// a banner (never NaN), presets fill every shape field, every control is described for tooltips
// and screen readers, the generated controls follow the field table, and the window fits 1280x720.

#include "ui/widgets/banner.h"
#include "ui/widgets/barlabels.h"
#include "ui/widgets/chartview.h"
#include "ui/controls/controlspanel.h"
#include "ui/controls/fieldcontrols.h"
#include "core/model/fields.h"
#include "ui/views/dashboard.h"
#include "ui/views/memorypanel.h"
#include "ui/views/rooflinepanel.h"
#include "ui/widgets/divisorspinbox.h"
#include "ui/views/gputimechart.h"
#include "guitestfixture.h"
#include "ui/shell/helpdialog.h"
#include "core/report/trackrecord.h"
#include "ui/widgets/linkedslider.h"
#include "ui/shell/mainwindow.h"
#include "ui/controls/moreoptions.h"
#include "ui/controls/servingcontrols.h"
#include "ui/controls/gpuchooser.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/textstrip.h"
#include "ui/views/timepanel.h"

#include <QAbstractButton>
#include <QSet>
#include <QAction>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonValue>
#include <QUndoStack>
#include <QGraphicsLayout>
#include <QLabel>
#include <QPainterPath>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>
#include <QStyleOptionButton>
#include <QTabWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QApplication>
#include <QLineEdit>
#include <QTest>

#include <cmath>

using namespace napkin;
using namespace napkin::ui;

namespace {

/// The every-GPU chart, in sight: with large text it is a tab of its own, shown first.
GpuTimeChart *everyGpuChartInSight(MainWindow &w)
{
    if (w.dashboard()->currentArrangement() == Dashboard::Arrangement::Tabs) {
        w.dashboard()->tabs()->setCurrentWidget(w.dashboard()->timePanel()->everyGpuPlace());
        QCoreApplication::processEvents();
    }
    return w.dashboard()->timePanel()->gpuChart();
}

} // namespace
using Main = ControlsPanel::Main;

class TestControls final : public uitest::GuiTestCase
{
    Q_OBJECT

private slots:
    void widthKeepsHeadsValid()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        // By default heads follow the width at GPT-2's d_head = 64: 1000 / 64 = 15.6, and the
        // nearest divisor of 1000 is 20 (see tst_shapefix for the published shapes).
        w.controls()->slider(Main::DModel)->spinBox()->setValue(1000);
        const Scenario &s = w.controller()->scenario();
        QCOMPARE(s.model.dModel, 1000);
        QCOMPARE(s.model.heads, 20);
        QCOMPARE(s.model.kvHeads, 20);  // multi-head attention stays multi-head
        QCOMPARE(s.model.dFf, 4000);    // d_ff follows width by default
        QVERIFY(!w.controller()->error());
        QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("heads 12 → 20")), qPrintable(message));
        QCOMPARE(w.controls()->moreOptions()->headsBox()->value(), 20);

        // Holding the head count: 12 does not divide 1000, the nearest divisor 10 does.
        QCheckBox *follow = nullptr;
        for (QCheckBox *box : w.controls()->findChildren<QCheckBox *>())
            if (box->accessibleName() == QLatin1String("Heads follow width"))
                follow = box;
        QVERIFY(follow && follow->isChecked());
        follow->setChecked(false);
        w.controls()->slider(Main::DModel)->spinBox()->setValue(768);
        // 20 does not divide 768; 16 and 24 are equally near and the tie goes up.
        QCOMPARE(s.model.heads, 24);
        w.controls()->slider(Main::DModel)->spinBox()->setValue(1000);
        QCOMPARE(s.model.dModel, 1000);
        message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("heads 24 → 25 so that they divide d_model = 1000")), qPrintable(message));
        QCOMPARE(s.model.heads, 25);
    }

    // Scrolling the controls with the wheel changes nothing it passes over: a wheel turn over an
    // unfocused combo box, spin box or slider scrolls the panel. Once clicked (focused), the
    // control takes the wheel as usual.
    void wheelScrollsThePanelNotTheControls()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1280, 500);  // short enough for the panel to scroll
        QVERIFY(uitest::showAndWait(w));
        auto *area = w.findChild<QScrollArea *>();
        QVERIFY(area && area->isAncestorOf(w.controls()));
        QVERIFY(area->verticalScrollBar()->maximum() > 0);
        const Scenario before = w.controller()->scenario();
        const auto turn = [](QWidget *target) {
            const QPoint at = target->rect().center();
            QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &wheel);
        };
        QComboBox *zero = nullptr;
        for (QComboBox *box : w.controls()->findChildren<QComboBox *>())
            if (box->isVisible() && !zero)
                zero = box;
        QVERIFY(zero);
        QAbstractSlider *slider = w.controls()->slider(Main::DModel)->findChild<QAbstractSlider *>();
        QVERIFY(slider);
        QAbstractSpinBox *spin = w.controls()->slider(Main::DModel)->spinBox();
        // On a real display Qt gives a Qt::WheelFocus control the focus before the wheel event:
        // the panel's controls take focus by click and Tab only.
        for (QWidget *control : {static_cast<QWidget *>(zero), static_cast<QWidget *>(slider), static_cast<QWidget *>(spin)})
            QVERIFY((control->focusPolicy() & Qt::WheelFocus) != Qt::WheelFocus);
        w.setFocus();
        const int top = area->verticalScrollBar()->value();
        for (QWidget *target : {static_cast<QWidget *>(zero), static_cast<QWidget *>(slider), static_cast<QWidget *>(spin)})
            turn(target);
        QCOMPARE(w.controller()->scenario(), before);
        QCOMPARE_GT(area->verticalScrollBar()->value(), top);
        // Focused, the width's spin box takes the wheel.
        spin->setFocus();
        QVERIFY(QTest::qWaitFor([spin] { return spin->hasFocus(); }));
        turn(spin);
        QVERIFY(w.controller()->scenario().model.dModel != before.model.dModel);
    }

    // GPT-2's learned position table ends the sequence slider; Llama's rotary positions do not.
    void sequenceSliderStopsAtPositionTable()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        LinkedSlider *seq = w.controls()->slider(Main::SeqLen);
        QCOMPARE(seq->sliderMaximum(), 1024.0);  // GPT-2 small: n_positions 1024 (Hugging Face config)
        seq->slider()->setValue(seq->slider()->maximum());
        QCOMPARE(w.controller()->scenario().seqLen, 1024);
        QVERIFY(!w.controller()->error());
        Scenario llama = w.controller()->scenario();
        llama.model = env().catalog().findPreset(QStringLiteral("llama2-7b"))->shape;
        w.controller()->propose(llama, QStringLiteral("Llama"));
        QCOMPARE(seq->sliderMaximum(), 131072.0);
        seq->slider()->setValue(seq->slider()->maximum());
        QCOMPARE(w.controller()->scenario().seqLen, 131072);
    }

    void refusedValueShowsBannerNotNaN()
    {
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        const QString wallClock = w.dashboard()->timePanel()->figure(TimePanel::Figure::WallClock)->text();
        DivisorSpinBox *heads = w.controls()->moreOptions()->headsBox();
        heads->setValue(7);  // typed, not stepped: 7 does not divide 768
        QVERIFY(w.controller()->error());
        Banner *banner = w.dashboard()->errorBanner();
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->level(), Banner::Level::Error);
        QVERIFY2(banner->text().contains(w.controller()->error()->message()), qPrintable(banner->text()));
        QVERIFY(banner->text().contains(QStringLiteral("must divide d_model = 768")));
        // The figures keep the last valid scenario; nothing shows NaN or infinity.
        QCOMPARE(w.dashboard()->timePanel()->figure(TimePanel::Figure::WallClock)->text(), wallClock);
        for (QLabel *label : w.findChildren<QLabel *>()) {
            QVERIFY2(!label->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(label->text()));
            QVERIFY2(!label->text().contains(QStringLiteral("inf"), Qt::CaseSensitive), qPrintable(label->text()));
        }
        for (TextStrip *strip : w.findChildren<TextStrip *>()) {
            QVERIFY2(!strip->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(strip->text()));
            QVERIFY2(!strip->text().contains(QStringLiteral("inf"), Qt::CaseSensitive), qPrintable(strip->text()));
        }
        // Stepping uses divisors only, and a valid value clears the banner.
        heads->stepBy(1);
        QCOMPARE(heads->value(), 8);
        QVERIFY(!w.controller()->error());
        QVERIFY(!banner->isVisible());
    }

    // A window started on a refused scenario (here Llama 3 70B's 141 GB of bf16 weights on
    // one 80 GB H100, for serving) has no last valid scenario: it shows no empty charts that
    // would read as a result, says so in the banner, and shows the charts once it is fixed.
    void refusedStartShowsNoChartsUntilFixed()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.mode = Mode::Inference;
        s.gpus = 1;
        MainWindow w(env().catalog(), s);
        QVERIFY(uitest::showAndWait(w));
        QVERIFY(w.controller()->error());
        QVERIFY(!w.controller()->report());
        Banner *banner = w.dashboard()->errorBanner();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("Nothing computed")), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("last valid")), qPrintable(banner->text()));
        QVERIFY(!w.dashboard()->memoryPanel()->isVisible());
        QVERIFY(!w.dashboard()->rooflinePanel()->isVisible());

        Scenario fixed = w.controller()->scenario();
        fixed.gpus = 2;
        fixed.tp = 2;
        fixed.weightDtype = NumberFormat::Fp8;
        w.controller()->propose(fixed, QStringLiteral("fits"));
        QVERIFY(!w.controller()->error());
        QVERIFY(!banner->isVisible());
        QVERIFY(w.dashboard()->rooflinePanel()->isVisible());
        QVERIFY(w.dashboard()->memoryCell()->isVisible());
    }

    // A refusal at large text in the tabbed dashboard: the page tabs stay in sight and
    // clickable above the banner, and on every page its lower edge cuts no line of text in
    // half (it cut the serving page's summary line through the middle, under covered tabs).
    void refusalKeepsTabsAndCutsNoText()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.mode = Mode::Inference;
        s.gpus = 2;
        s.tp = 2;
        s.weightDtype = NumberFormat::Fp8;
        MainWindow w(env().catalog(), s);
        w.resize(1280, 720);
        w.setFontScale(1.5);
        QVERIFY(uitest::showAndWait(w));
        Dashboard *dashboard = w.dashboard();
        QCOMPARE(dashboard->currentArrangement(), Dashboard::Arrangement::Tabs);
        Scenario refused = w.controller()->scenario();
        refused.promptTokens = 9000;  // prompt + output over Llama 3's 8,192 positions
        w.controller()->propose(refused, QStringLiteral("too long"));
        QVERIFY(w.controller()->error());
        Banner *banner = dashboard->errorBanner();
        QTabWidget *tabs = dashboard->tabs();
        for (int page = 0; page < tabs->count(); ++page) {
            if (!tabs->isTabEnabled(page))
                continue;
            tabs->setCurrentIndex(page);
            for (int i = 0; i < 3; ++i) {  // the page laid out, its charts fitted, the banner placed
                QCoreApplication::processEvents();
                QTest::qWait(10);
            }
            const QString name = tabs->tabText(page);
            QVERIFY2(banner->isVisible(), qPrintable(name));
            // No input is covered: a page with inputs under the banner moves down instead (the
            // Budget page's fields had been hidden, out of reach).
            for (QWidget *input : tabs->currentWidget()->findChildren<QWidget *>()) {
                const bool isInput = qobject_cast<QAbstractSpinBox *>(input) || qobject_cast<QComboBox *>(input)
                                     || qobject_cast<QLineEdit *>(input) || qobject_cast<QAbstractButton *>(input);
                if (!isInput || !input->isVisible())
                    continue;
                const QRect r(input->mapTo(dashboard, QPoint(0, 0)), input->size());
                QVERIFY2(!r.intersects(banner->geometry()),
                         qPrintable(QStringLiteral("%1: the banner covers the input \"%2\"").arg(name, input->accessibleName())));
            }
            const QRect bar(tabs->tabBar()->mapTo(dashboard, QPoint(0, 0)), tabs->tabBar()->size());
            const QRect over = banner->geometry();
            QVERIFY2(over.top() >= bar.bottom(), qPrintable(name + QStringLiteral(": the banner covers the page tabs")));
            const int edge = over.bottom();
            for (QWidget *text : tabs->currentWidget()->findChildren<QWidget *>()) {
                if (!text->isVisible() || !(qobject_cast<QLabel *>(text) || qobject_cast<TextStrip *>(text)))
                    continue;
                const QRect r(text->mapTo(dashboard, QPoint(0, 0)), text->size());
                if (r.width() <= 0 || r.left() > over.right() || r.right() < over.left())
                    continue;
                QVERIFY2(r.bottom() <= edge || r.top() > edge,
                         qPrintable(QStringLiteral("%1: the banner's edge at y %2 cuts \"%3\" (y %4 to %5)")
                                        .arg(name)
                                        .arg(edge)
                                        .arg(qobject_cast<QLabel *>(text) ? qobject_cast<QLabel *>(text)->text()
                                                                          : qobject_cast<TextStrip *>(text)->text())
                                        .arg(r.top())
                                        .arg(r.bottom())));
            }
        }
    }

    // Wrapped text longer than its strip ends in an ellipsis on the last line, not in the
    // middle of a sentence at the strip's edge (the formula bar stopped at "283 sequences of").
    void wrappedTextLongerThanItsStripIsElided()
    {
        TextStrip strip;
        strip.setLines(2);
        strip.resize(300, strip.sizeHint().height());
        const QString longText = QStringLiteral("KV pool per GPU = 90% x capacity - weights - activations - reserved = "
                                                "35.7 GB -> 13,629 blocks of 16 tokens = 218,064 tokens per replica, "
                                                "283 sequences of 768 tokens");
        strip.setText(longText);
        strip.grab();
        QVERIFY(!strip.showsWholeText());
        QVERIFY2(strip.shownText().endsWith(QChar(0x2026)), qPrintable(strip.shownText()));
        QVERIFY(strip.shownText().size() < longText.size());
        strip.setText(QStringLiteral("short"));
        strip.grab();
        QCOMPARE(strip.shownText(), QStringLiteral("short"));
    }

    // A note whose text went to its tooltip says so in words, "(i)" or "…" as room allows, and
    // draws nothing rather than a clipped "(i" where not even the ellipsis fits.
    // A headline figure wider than its column is drawn smaller, down to the inherited size,
    // rather than cut ("3,810 ye…"); narrower still, it is elided as any line is.
    void headlineShrinksToFit()
    {
        TextStrip strip;
        strip.setBold(true);
        strip.setScale(1.35);
        strip.setShrinkToFit(true);
        strip.setText(QStringLiteral("3,810 years"));
        QFont normal = strip.font();
        normal.setBold(true);
        QFont large = normal;
        large.setPointSizeF(normal.pointSizeF() * 1.35);
        const int atNormal = QFontMetrics(normal).horizontalAdvance(strip.text());
        const int atLarge = QFontMetrics(large).horizontalAdvance(strip.text());
        QVERIFY(atLarge > atNormal + 10);
        strip.resize((atNormal + atLarge) / 2, strip.sizeHint().height());
        QVERIFY(uitest::showAndWait(strip));
        QVERIFY2(strip.showsWholeText(), qPrintable(strip.shownText()));
        QCOMPARE(strip.shownText().replace(QChar(0x00A0), QLatin1Char(' ')), strip.text());  // its no-break space aside
        strip.resize(atNormal / 2, strip.sizeHint().height());
        QVERIFY(!strip.showsWholeText());
        QVERIFY2(strip.shownText().endsWith(QChar(0x2026)), qPrintable(strip.shownText() + QStringLiteral(" at ") + QString::number(strip.width())));
    }

    void overflowMarkerNeverClips()
    {
        TextStrip strip;
        strip.setOverflowToToolTip(true);
        strip.setText(QStringLiteral("HFU 40.0% (set) · MFU 40.0% · 8 × H100 SXM5 80GB at 700 W, no cooling"));
        const QFontMetrics fm(strip.font());
        const QStringList markers = {QString(), QStringLiteral("…"), QStringLiteral("(i)"), QStringLiteral("(details on hover)")};
        int last = 0;
        QList<int> seen;
        // Narrow to wide: each marker in turn, each drawn only where it fits whole.
        for (int width = 1; width <= fm.horizontalAdvance(markers.last()) + 40; ++width) {
            strip.resize(width, strip.sizeHint().height());
            strip.grab();  // delivers the resize to the unshown strip
            QVERIFY(!strip.showsWholeText());
            const int index = static_cast<int>(markers.indexOf(strip.shownText()));
            QVERIFY2(index >= last, qPrintable(QStringLiteral("%1 px: '%2'").arg(width).arg(strip.shownText())));
            QVERIFY(fm.horizontalAdvance(strip.shownText()) <= width);
            if (!seen.contains(index))
                seen << index;
            last = index;
        }
        QCOMPARE(seen, (QList<int>{0, 1, 2, 3}));
    }

    void presetFillsEveryField()
    {
        MainWindow w(env().catalog(), Scenario{});
        QComboBox *preset = w.controls()->moreOptions()->presetBox();
        const int index = preset->findData(QStringLiteral("llama2-70b"));
        QVERIFY(index >= 0);
        preset->setFocus();
        while (preset->currentIndex() < index)
            QTest::keyClick(preset, Qt::Key_Down);
        // Llama 2 70B: 80 layers, d_model 8192, 64 heads, 8 kv heads, d_ff 28672, vocab 32000
        // (Touvron et al. 2023, Table 1; Hugging Face meta-llama/Llama-2-70b-hf config.json).
        const ModelShape &m = w.controller()->scenario().model;
        QCOMPARE(m.arch, Arch::Llama);
        QCOMPARE(m.layers, 80);
        QCOMPARE(m.dModel, 8192);
        QCOMPARE(m.heads, 64);
        QCOMPARE(m.kvHeads, 8);
        QCOMPARE(m.dFf, 28672);
        QCOMPARE(m.vocab, 32000);
        QCOMPARE(w.controls()->slider(Main::DModel)->value(), 8192.0);
    }

    void everyControlIsDescribed()
    {
        MainWindow w(env().catalog(), Scenario{});
        int checked = 0;
        const auto check = [&](QWidget *c) {
            if (qobject_cast<QAbstractButton *>(c->parentWidget()) || c->inherits("QLineEdit") || c->inherits("QScrollBar"))
                return;  // parts of a composite control, or scroll bars
            QVERIFY2(!c->toolTip().isEmpty(), c->metaObject()->className());
            QVERIFY2(!c->accessibleName().isEmpty(), qPrintable(c->toolTip()));
            ++checked;
        };
        for (QAbstractSlider *c : w.controls()->findChildren<QAbstractSlider *>())
            check(c);
        for (QAbstractSpinBox *c : w.controls()->findChildren<QAbstractSpinBox *>())
            check(c);
        for (QComboBox *c : w.findChildren<QComboBox *>())
            check(c);
        for (QAbstractButton *c : w.controls()->findChildren<QAbstractButton *>())
            check(c);
        QVERIFY(checked >= 30);
    }

    // Every control generated from the field table shows the table's label (row label or check
    // box text, and accessible name), its tooltip, its range or its choices, and an edit sets the
    // field as one undo step "Set <label> to <value>". The list is the controls meant to be
    // generated: one hand-built again fails here.
    void generatedControlsFollowTheTable_data()
    {
        QTest::addColumn<QString>("key");
        for (const char *key : {"gpus", "zero", "recompute", "offload", "flash", "activations", "activation_model",
                                "dropout", "reserved_bytes", "flops_basis", "causal", "utilization_basis", "mfu", "arch",
                                "d_ff", "vocab", "tied", "experts", "experts_per_token", "shared_experts", "expert_d_ff",
                                "dense_layers", "sp", "capacity_factor", "ep_overlap", "time_basis"})
            QTest::newRow(key) << QString::fromLatin1(key);
    }

    void generatedControlsFollowTheTable()
    {
        QFETCH(QString, key);
        const ScenarioField &f = *findScenarioField(key);
        // Mixture-of-Experts and TP 2: every generated control enabled, the layout group shown.
        Scenario start;
        start.model.experts = 8;
        start.tp = 2;
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        QWidget *control = nullptr;
        FieldRowStyle style;
        for (FieldControls *fields : w.controls()->findChildren<FieldControls *>())
            if (QWidget *c = fields->control(f.key)) {
                QVERIFY2(!control, "one control per field");
                control = c;
                style = fields->style(f.key);
            }
        QVERIFY(control);
        QVERIFY(control->isEnabled());
        const QString label = QString::fromUtf8(f.label);
        QCOMPARE(control->accessibleName(), label);
        QCOMPARE(control->accessibleDescription(), QString::fromUtf8(fieldTip(f)));
        auto *check = qobject_cast<QCheckBox *>(control);
        if (check) {
            QCOMPARE(check->text(), label);
        } else {
            auto *form = qobject_cast<QFormLayout *>(control->parentWidget()->layout());
            QVERIFY(form);
            auto *rowLabel = qobject_cast<QLabel *>(form->labelForField(control));
            QVERIFY(rowLabel);
            QCOMPARE(rowLabel->text(), label);
        }

        QUndoStack *undo = w.controller()->undoStack();
        const int steps = undo->count();
        QString shown;
        if (auto *combo = qobject_cast<QComboBox *>(control)) {
            QCOMPARE(combo->count(), static_cast<int>(f.choices().size()));
            for (int i = 0; i < combo->count(); ++i) {
                QCOMPARE(combo->itemText(i), QString::fromUtf8(f.choices()[static_cast<std::size_t>(i)].label));
                QCOMPARE(combo->itemData(i).toInt(), f.choices()[static_cast<std::size_t>(i)].value);
            }
            combo->setFocus();
            QTest::keyClick(combo, combo->currentIndex() + 1 < combo->count() ? Qt::Key_Down : Qt::Key_Up);
            const QJsonValue now = f.get(w.controller()->scenario());
            QCOMPARE(now.isString() ? *enumValue(f.choices(), now.toString()) : now.toInt(), combo->currentData().toInt());
            shown = f.kind == FieldKind::Choice ? combo->currentText() : QString::number(combo->currentData().toInt());
        } else if (check) {
            const bool before = check->isChecked();
            check->click();
            QCOMPARE(f.get(w.controller()->scenario()).toBool(), !before);
            shown = before ? QStringLiteral("off") : QStringLiteral("on");
        } else {
            auto *box = qobject_cast<QDoubleSpinBox *>(control);
            QVERIFY(box);
            // The field's range, but where the scenario caps it: top-k at the experts there
            // are, dense blocks at the layers.
            const double cap = key == QLatin1String("experts_per_token") ? 8
                               : key == QLatin1String("dense_layers")    ? static_cast<double>(start.model.layers)
                                                                          : f.hi;
            QCOMPARE(box->minimum(), f.lo * style.scale);
            QCOMPARE(box->maximum(), std::min(f.hi, cap) * style.scale);
            box->stepBy(box->value() < box->maximum() ? 1 : -1);
            QVERIFY(uitest::nearlyEqual(f.get(w.controller()->scenario()).toDouble() * style.scale, box->value()));
            shown = box->text();
        }
        QCOMPARE(undo->count(), steps + 1);
        QCOMPARE(undo->undoText(), QStringLiteral("Set %1 to %2").arg(label, shown));
    }

    void fitsSmallScreens()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1280, 720);
        QVERIFY(uitest::showAndWait(w));
        QVERIFY2(w.minimumSizeHint().width() <= 1280 && w.minimumSizeHint().height() <= 720,
                 qPrintable(QStringLiteral("%1x%2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
        QCOMPARE(w.size(), QSize(1280, 720));
    }

    // The summary line keeps its GPU: where the whole line would be elided ("… 64 × H100 …"
    // for gpt-oss-120b at 1366x768), it drops the micro-batch, which the controls show.
    void summaryKeepsItsGpu()
    {
        MainWindow w(env().catalog(), env().gptOssAtBridge(8));
        w.resize(1366, 768);
        QVERIFY(uitest::showAndWait(w));
        const TextStrip *summary = w.dashboard()->summary();
        QTRY_VERIFY(summary->isVisible());
        QVERIFY(summary->text().contains(QStringLiteral("micro")));  // the whole line, in its tooltip
        const auto plain = [](QString t) { return t.remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' ')); };
        QTRY_VERIFY2(plain(summary->shownText()).endsWith(QStringLiteral("64 × H100 SXM5 80GB")), qPrintable(summary->shownText()));
    }

    // The words over the bars of GPUs a run does not fit ("does not fit (80 GiB)", "no fit"),
    // written upwards, never pile into each other: where bars stand closer than a line of
    // text (a 1024x768 window at text x2), a mark that would touch the one before it is left
    // out, its hatched bar and tooltip saying the same.
    void gpuChartMarksStandApart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<QString>("preset");
        QTest::newRow("1280x720") << QSize(1280, 720) << 1.0 << QStringLiteral("llama3-70b");
        QTest::newRow("1024x768, text x2") << QSize(1024, 768) << 2.0 << QStringLiteral("llama3-70b");
        // gpt-oss-120b at micro-batch 8 on 8 GPUs fits none: a mark on every bar, tall and short.
        QTest::newRow("MoE, 1366x768") << QSize(1366, 768) << 1.0 << QStringLiteral("gpt-oss-120b");
        QTest::newRow("MoE, 1024x768, text x2") << QSize(1024, 768) << 2.0 << QStringLiteral("gpt-oss-120b");
    }

    void gpuChartMarksStandApart()
    {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        QFETCH(QString, preset);
        Scenario s = env().presetScenario(preset);
        s.gpus = 8;
        s.seqLen = 8192;
        s.microBatch = preset == QLatin1String("gpt-oss-120b") ? 8 : 1;
        MainWindow w(env().catalog(), s);
        w.resize(size);
        w.setFontScale(fontScale);
        QVERIFY(uitest::showAndWait(w));
        GpuTimeChart *chart = everyGpuChartInSight(w);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        int shown = 0;
        QRectF previous;
        for (int i = 0; i < chart->marks().size(); ++i) {
            const QRectF mark = chart->markRect(i);
            if (mark.isEmpty())
                continue;
            ++shown;
            QVERIFY2(!mark.intersects(previous), qPrintable(QStringLiteral("mark %1 (%2) touches the one before it").arg(i).arg(chart->marks()[i])));
            QVERIFY2(mark.top() >= chart->chart()->plotArea().top() - 1,
                     qPrintable(QStringLiteral("mark %1 (%2) runs past the plot's top").arg(i).arg(chart->marks()[i])));
            previous = mark;
        }
        QVERIFY(shown > 0);
        // One form for every mark: "no fit" beside "does not fit (16.0 GiB)" reads as two states.
        QSet<int> lengths;
        const QStringList drawn = chart->shownMarks();
        for (int i = 0; i < drawn.size(); ++i) {
            // Less the GPU's name that a mark over an unnamed bar starts with.
            QString bare = drawn[i];
            const QString named = env().catalog().gpus[i].shortName + QStringLiteral(": ");
            if (bare.startsWith(named))
                bare = bare.mid(named.size());
            if (!bare.isEmpty() && chart->marks()[i].startsWith(QLatin1String("does not fit")))
                lengths << (bare == chart->marks()[i] ? 0 : bare == QStringLiteral("✗") ? 2 : 1);
        }
        QVERIFY2(lengths.size() <= 1, qPrintable(drawn.join(QLatin1String(" | "))));
    }

    void gpuChartLabelsFit_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        QTest::newRow("1280x720") << QSize(1280, 720) << 1.0;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 1.0;
        QTest::newRow("1280x720, bigger text") << QSize(1280, 720) << 1.5;
        // A projector's 1024x768 at the largest text: too narrow for every upright name.
        QTest::newRow("1024x768, text x2") << QSize(1024, 768) << 2.0;
    }

    // Every GPU's short name stands whole under its own bar, inside the chart, apart from its
    // neighbours; hovering a bar names the GPU in full with its catalog id.
    void gpuChartLabelsFit()
    {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        MainWindow w(env().catalog(), Scenario{});
        w.resize(size);
        w.setFontScale(fontScale);
        QVERIFY(uitest::showAndWait(w));
        GpuTimeChart *chart = everyGpuChartInSight(w);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const BarLabels *labels = chart->barLabels();
        QStringList shortNames;
        for (const GpuSpec &g : env().catalog().gpus)  // the chosen one marked ▶, as on the memory chart
            shortNames << (g.id == w.controller()->scenario().gpuId ? QStringLiteral("▶") : QString()) + g.shortName;
        QCOMPARE(labels->texts(), shortNames);
        // The least tilt at which the labels stand apart: level where the widest fits its bar's
        // pitch, 45° where tilted lines (pitch x sin 45° apart) clear a line height with room to
        // spare, upright otherwise. A fixed angle per window size would forbid a longer catalog.
        {
            const double pitch = chart->chart()->plotArea().width() / shortNames.size();
            const QFontMetricsF metrics(labels->font());
            double widest = 0;
            for (const QString &name : shortNames)
                widest = std::max(widest, metrics.horizontalAdvance(name));
            const int least = widest + metrics.averageCharWidth() <= pitch ? 0
                              : metrics.height() * 1.1 <= pitch * std::sqrt(0.5) ? 45 : 90;
            QCOMPARE(labels->angle(), least);
            if (size == QSize(1920, 1080) && fontScale == 1.0)
                QVERIFY2(labels->angle() <= 45, "every GPU tilted at most 45° on a 1080p display");
        }

        // Upright names a line's height apart at least: closer bars name every n-th, the chosen
        // GPU's (▶) among them.
        const double pitch = chart->chart()->plotArea().width() / shortNames.size();
        const double line = QFontMetricsF(labels->font()).height();
        const int stride = labels->angle() == 90 && pitch < line * 1.05 ? static_cast<int>(std::ceil(line * 1.05 / pitch)) : 1;
        QCOMPARE(labels->stride(), stride);
        if (fontScale >= 2.0)
            QVERIFY2(stride > 1, "a 1024x768 window at text x2 cannot name every GPU upright");
        const QRectF inside = chart->chart()->layout()->contentsRect();
        const QList<QPolygonF> shapes = labels->labelShapes();
        QCOMPARE(shapes.size(), shortNames.size());
        const int chosen = uitest::gpuIndex(env().catalog(), w.controller()->scenario().gpuId);
        QVERIFY2(!shapes[chosen].isEmpty(), "the chosen GPU keeps its name");
        int previous = -1;
        for (int i = 0; i < shapes.size(); ++i) {
            QCOMPARE(shapes[i].isEmpty(), (i - chosen) % stride != 0);
            if (shapes[i].isEmpty())
                continue;
            const QRectF box = shapes[i].boundingRect();
            QVERIFY2(inside.contains(box), qPrintable(shortNames[i]));
            // The label's top end is under its own bar.
            double top = box.bottom();
            double x = 0;
            int n = 0;
            for (const QPointF &p : shapes[i])
                top = std::min(top, p.y());
            for (const QPointF &p : shapes[i])
                if (p.y() < top + 0.5) {
                    x += p.x();
                    ++n;
                }
            const QPointF bar = chart->chart()->mapToPosition(QPointF(i, 0), chart->chart()->series().first());
            QVERIFY2(std::fabs(x / n - bar.x()) < pitch / 2, qPrintable(shortNames[i]));
            if (previous >= 0) {
                QPainterPath a, b;
                a.addPolygon(shapes[previous]);
                b.addPolygon(shapes[i]);
                QVERIFY2(!a.intersects(b), qPrintable(shortNames[previous] + QStringLiteral(" / ") + shortNames[i]));
            }
            previous = i;
        }

        const int a100 = uitest::gpuIndex(env().catalog(), QStringLiteral("a100-40gb-sxm"));
        const QPointF barTop = chart->chart()->mapToPosition(QPointF(a100, chart->barSet()->at(a100) / 2),
                                                             chart->chart()->series().first());
        ChartView *view = chart->view();
        QTest::mouseMove(view->viewport(), view->mapFromScene(chart->chart()->mapToScene(barTop)));
        QTRY_VERIFY(!chart->hoverText().isEmpty());
        QVERIFY2(chart->hoverText().startsWith(QStringLiteral("NVIDIA A100 SXM4 40GB (a100-40gb-sxm): ")),
                 qPrintable(chart->hoverText()));
    }

    void tokensAcceptWhatPeopleType_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<QString>("shown");
        QTest::newRow("suffix T") << QStringLiteral("1.5T") << 1.5e12 << QStringLiteral("1.5T");
        QTest::newRow("exponent") << QStringLiteral("3e11") << 3e11 << QStringLiteral("300B");
        QTest::newRow("grouped") << QStringLiteral("2,000,000,000") << 2e9 << QStringLiteral("2B");
    }

    void tokensAcceptWhatPeopleType()
    {
        QFETCH(QString, typed);
        QFETCH(double, tokens);
        QFETCH(QString, shown);
        Scenario start;
        start.tokens = 1e9;
        MainWindow w(env().catalog(), start);
        QVERIFY(uitest::showAndWait(w));
        NumberSpinBox *box = w.controls()->slider(Main::Tokens)->spinBox();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, typed);
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().tokens, tokens);
        QCOMPARE(box->text(), shown);
        // The arrows double and halve on a log scale.
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(w.controller()->scenario().tokens, 2 * tokens);
    }

    void helpListsFormulasAndSources()
    {
        const QString html = HelpDialog::html();
        for (const char *source : {"Kaplan et al. 2020", "Narayanan et al. 2021", "Korthikanti et al. 2022",
                                   "Rajbhandari et al. 2019", "Dao et al. 2022", "Williams, Waterman and Patterson 2009"})
            QVERIFY2(html.contains(QLatin1String(source)), source);
        // The estimated step is explained, with its record against published runs.
        QVERIFY(html.contains(QLatin1String("<h3>The estimated step</h3>")));
        QVERIFY2(html.contains(QStringLiteral("Dense runs (A100 80G, H100 SXM, B200): %1 published runs")
                                   .arg(trackRecords().front().runs)),
                 qPrintable(html));
        QVERIFY(html.contains(QLatin1String("Mixture-of-Experts runs (H100 SXM, B200)")));
        // Opening it leaves the window usable: it is not modal.
        MainWindow w(env().catalog(), Scenario{});
        QVERIFY(uitest::showAndWait(w));
        QAction *help = nullptr;
        for (QAction *a : w.findChildren<QAction *>())
            if (a->shortcuts().contains(QKeySequence(QKeySequence::HelpContents)))
                help = a;
        QVERIFY(help);
        help->trigger();
        auto *dialog = w.findChild<HelpDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!QApplication::activeModalWidget());
        dialog->close();
    }

    // A typed value beyond a box's range is not taken, and the status bar says so, naming the
    // field, its range and the value kept (Qt's spin box had gone back to its value without a
    // word: 10000000 prompt tokens, Return, and nothing said why).
    void typedValueBeyondItsRangeIsSaid()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        NumberSpinBox *layers = w.controls()->slider(ControlsPanel::Main::Layers)->spinBox();
        layers->setFocus();
        layers->selectAll();
        QTest::keyClicks(layers, QStringLiteral("2000"));
        QTest::keyClick(layers, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().model.layers, 12);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Layers: must be an integer from 1 to 1024 (got '2000'); kept 12"));
        // A row of the field table, in the serving group (built apart from the main sliders).
        w.controls()->servingControls()->modeButton(Mode::Inference)->click();
        QAbstractSpinBox *prompt = nullptr;
        for (QAbstractSpinBox *box : w.findChildren<QAbstractSpinBox *>())
            if (box->accessibleName() == FieldControls::label(*findScenarioField(QStringLiteral("prompt_tokens"))))
                prompt = box;
        QVERIFY(prompt && prompt->isVisible());
        const std::int64_t before = w.controller()->scenario().promptTokens;
        prompt->setFocus();
        prompt->selectAll();
        QTest::keyClicks(prompt, QStringLiteral("10000000"));
        QTest::keyClick(prompt, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().promptTokens, before);
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("must be an integer from 1 to 1048576 (got '10000000'); kept ")),
                 qPrintable(message));
        // A value in range says nothing.
        w.statusBar()->clearMessage();
        prompt->selectAll();
        QTest::keyClicks(prompt, QStringLiteral("1000"));
        QTest::keyClick(prompt, Qt::Key_Return);
        QCOMPARE(w.controller()->scenario().promptTokens, std::int64_t{1000});
        QVERIFY(w.statusBar()->currentMessage().isEmpty());
    }

    // Normal Text Size after large text brings every control back to its size, those whose
    // rows were hidden meanwhile too (serving hides training's): the GPU and ZeRO boxes had kept
    // a height a text size too tall, their labels above their middles.
    void controlsComeBackFromLargeText()
    {
        Scenario s = env().presetScenario(QStringLiteral("llama3-70b"));
        s.gpus = 4;
        s.tp = 4;
        s.mode = Mode::Inference;
        MainWindow w(env().catalog(), s);
        w.resize(1024, 768);
        QVERIFY(uitest::showAndWait(w));
        w.setFontScale(1.5);
        QApplication::processEvents();
        w.controls()->servingControls()->modeButton(Mode::Training)->click();
        QApplication::processEvents();
        w.setFontScale(1.0);
        QTest::qWait(50);
        int checked = 0;
        for (QComboBox *box : w.controls()->findChildren<QComboBox *>()) {
            if (!box->isVisible())
                continue;
            QTRY_COMPARE(box->height(), box->sizeHint().height());
            ++checked;
        }
        QVERIFY(checked >= 5);  // the GPU, ZeRO, recipe, recompute and offload boxes at least
    }

    // The controls never run off their column's right edge, however they grow: at text x2 on
    // a 1024x768 window the note "(shape edited since the preset)" had widened them past it,
    // cutting every spin box (no horizontal scroll bar there); so had a switch from serving.
    void controlsStayInsideTheirColumn()
    {
        MainWindow w(env().catalog(), Scenario{});
        w.resize(1024, 768);
        QVERIFY(uitest::showAndWait(w));
        w.setFontScale(2.0);
        auto *scroll = w.findChild<QScrollArea *>();
        QVERIFY(scroll);
        const auto inside = [&] { return w.controls()->width() <= scroll->viewport()->width(); };
        QTRY_VERIFY(inside());
        Scenario edited = w.controller()->scenario();
        edited.model.layers = 24;
        w.controller()->propose(edited, QStringLiteral("Set layers to 24"));
        QTRY_VERIFY2(inside(), qPrintable(QStringLiteral("controls %1 px in a %2 px column").arg(w.controls()->width()).arg(scroll->viewport()->width())));
        w.setFontScale(1.5);
        w.controls()->servingControls()->modeButton(Mode::Inference)->click();
        w.controls()->servingControls()->modeButton(Mode::Training)->click();
        QTRY_VERIFY2(inside(), qPrintable(QStringLiteral("controls %1 px in a %2 px column").arg(w.controls()->width()).arg(scroll->viewport()->width())));
    }

    void biggerText()
    {
        MainWindow w(env().catalog(), Scenario{});
        const qreal before = w.dashboard()->font().pointSizeF();
        w.setFontScale(1.5);
        QVERIFY(w.dashboard()->font().pointSizeF() > before * 1.4);
        w.setFontScale(1);
        QCOMPARE(w.dashboard()->font().pointSizeF(), before);
    }

    // What the style sizes in pixels grows with the text: at text x2 a check box's box is as
    // tall as its label's letters and a slider's handle twice the normal one (Fusion's 13 and
    // 15 pixels had stayed put beside 2x text on a projector); at x1 both are the style's own.
    void checkBoxesAndSlidersGrowWithText()
    {
        MainWindow w(env().catalog(), Scenario{});
        auto *flash = w.findChild<QCheckBox *>();
        QVERIFY(flash);
        auto *slider = w.findChild<QAbstractSlider *>();
        QVERIFY(slider);
        const auto indicator = [](const QCheckBox *box) {
            QStyleOptionButton option;
            option.initFrom(box);
            return box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box).height();
        };
        const auto handle = [](const QAbstractSlider *s) {
            return s->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, s);
        };
        // The margin item views keep round a cell's text (the planner table's cells had run
        // into each other at x2).
        const auto cellMargin = [&w] { return w.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &w); };
        w.setFontScale(1);
        const int normalBox = indicator(flash);
        const int normalHandle = handle(slider);
        const int normalMargin = cellMargin();
        w.setFontScale(2);
        QCOMPARE(cellMargin(), 2 * normalMargin);
        QVERIFY2(indicator(flash) >= flash->fontMetrics().ascent(),
                 qPrintable(QStringLiteral("a %1 px box beside %2 px letters").arg(indicator(flash)).arg(flash->fontMetrics().ascent())));
        QCOMPARE(indicator(flash), 2 * normalBox);
        QCOMPARE(handle(slider), 2 * normalHandle);
        QVERIFY(flash->sizeHint().height() >= indicator(flash));
        // A tool button whose menu opens on a click leaves its arrow room right of its centred
        // text ("Axis" had lost its "s" under it).
        QToolButton *axis = nullptr;
        for (QToolButton *b : w.findChildren<QToolButton *>())
            if (b->accessibleName() == QLatin1String("Memory axis range"))
                axis = b;
        QVERIFY(axis);
        const int arrow = axis->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, axis);
        QVERIFY2(axis->sizeHint().width() >= axis->fontMetrics().horizontalAdvance(axis->text()) + 2 * arrow,
                 qPrintable(QStringLiteral("%1 px for '%2' and a %3 px arrow").arg(axis->sizeHint().width()).arg(axis->text()).arg(arrow)));
        w.setFontScale(1);
        QCOMPARE(indicator(flash), normalBox);
        QCOMPARE(handle(slider), normalHandle);
    }
};

QTEST_MAIN(TestControls)
#include "tst_ui_controls.moc"
