#include "ui/controls/fieldcontrols.h"
#include "ui/widgets/rejectedtyping.h"

#include "ui/controls/optionform.h"
#include "ui/state/scenariocontroller.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/numberspinbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonValue>
#include <QSignalBlocker>

#include <cmath>

namespace napkin::ui {

namespace {

// The field table's words are translated in one context, wherever the window shows them.
QString translated(const char *text)
{
    return QCoreApplication::translate("napkin::ScenarioField", text);
}

bool isCombo(const ScenarioField &f)
{
    return f.kind == FieldKind::Choice || (f.kind == FieldKind::Integer && f.choices);
}

} // namespace

FieldControls::FieldControls(ScenarioController *controller, QObject *parent)
    : QObject(parent), m_controller(controller)
{
}

QString FieldControls::label(const ScenarioField &f)
{
    return translated(f.label);
}

QString FieldControls::tip(const ScenarioField &f)
{
    return translated(fieldTip(f));
}

QString FieldControls::choiceLabel(const EnumEntry &e)
{
    return translated(e.label);
}

QString FieldControls::undoText(const ScenarioField &f, const QString &value)
{
    return tr("Set %1 to %2").arg(label(f), value);
}

QWidget *FieldControls::create(const ScenarioField &f, const FieldRowStyle &style, QWidget *parent)
{
    if (f.kind == FieldKind::Flag)
        return new QCheckBox(label(f), parent);
    if (isCombo(f)) {
        auto *combo = new ElidingComboBox(parent);
        for (const EnumEntry &e : f.choices())
            combo->addItem(choiceLabel(e), e.value);
        return combo;
    }
    QDoubleSpinBox *box = nullptr;
    if (f.kind == FieldKind::Integer) {
        auto *number = new NumberSpinBox(NumberSpinBox::Display::Integer, parent);
        number->setStepFactor(style.stepFactor);
        box = number;
    } else {
        box = new QDoubleSpinBox(parent);
        box->setDecimals(style.decimals);
        // One edit, one recompute and one undo step: not one per keystroke.
        box->setKeyboardTracking(false);
    }
    box->setRange(f.lo * style.scale, f.hi * style.scale);
    box->setSuffix(QString::fromUtf8(style.suffix));
    if (style.step > 0)
        box->setSingleStep(style.step);
    return box;
}

QWidget *FieldControls::addRow(QFormLayout *form, const char *key, const FieldRowStyle &style, FieldAdjust adjust)
{
    const ScenarioField *f = findScenarioField(QLatin1String(key));
    Q_ASSERT(f);
    QWidget *w = described(create(*f, style, form->parentWidget()), label(*f), tip(*f));
    if (f->kind == FieldKind::Flag)
        form->addRow(w);
    else
        form->addRow(label(*f), w);
    m_rows.push_back({f, w, style, std::move(adjust)});
    connectRow(m_rows.back());
    return w;
}

void FieldControls::connectRow(const Row &row)
{
    // The row is copied into each handler: m_rows may move as rows are added.
    if (auto *check = qobject_cast<QCheckBox *>(row.widget)) {
        connect(check, &QCheckBox::toggled, this, [this, row](bool on) {
            propose(row, on, on ? tr("on") : tr("off"));
        });
    } else if (auto *combo = qobject_cast<QComboBox *>(row.widget)) {
        connect(combo, &QComboBox::activated, this, [this, row, combo](int index) {
            const int value = combo->itemData(index).toInt();
            if (row.field->kind == FieldKind::Choice)
                propose(row, enumName(row.field->choices(), value), combo->itemText(index));
            else
                propose(row, value, QString::number(value));
        });
    } else if (auto *box = qobject_cast<QDoubleSpinBox *>(row.widget)) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, row, box](double shown) {
            double v = shown / row.style.scale;
            if (row.field->kind == FieldKind::Integer)
                v = std::round(v);
            propose(row, v, box->textFromValue(shown) + box->suffix());
        });
        // A typed value beyond the field's range is not taken: said, not dropped in silence.
        onRejectedTyping(box, [this, row, box](const QString &typed) {
            emit m_controller->notice(
                tr("%1: %2").arg(label(*row.field), rejectedTypingText(box, typed, row.field->kind == FieldKind::Integer)));
        });
    }
}

void FieldControls::propose(const Row &row, const QJsonValue &value, const QString &shown)
{
    Scenario s = m_controller->scenario();
    row.field->set(s, value);
    const QString note = row.adjust ? row.adjust(s) : QString();
    m_controller->propose(s, undoText(*row.field, shown));
    // What the adjustment changed besides the field, for the status bar (the controller's
    // notice reaches it from every section, the lazily built ones included).
    if (!note.isEmpty())
        emit m_controller->notice(note);
}

QWidget *FieldControls::control(const char *key) const
{
    for (const Row &row : m_rows)
        if (qstrcmp(row.field->key, key) == 0)
            return row.widget;
    return nullptr;
}

FieldRowStyle FieldControls::style(const char *key) const
{
    for (const Row &row : m_rows)
        if (qstrcmp(row.field->key, key) == 0)
            return row.style;
    return {};
}

void FieldControls::sync(const Scenario &s)
{
    for (const Row &row : m_rows) {
        const QJsonValue v = row.field->get(s);
        if (v.isNull())
            continue;  // nullable fields have hand-built controls that say what null means
        const QSignalBlocker blocker(row.widget);
        if (auto *check = qobject_cast<QCheckBox *>(row.widget)) {
            check->setChecked(v.toBool());
        } else if (auto *combo = qobject_cast<QComboBox *>(row.widget)) {
            const std::optional<int> value = row.field->kind == FieldKind::Choice
                                                 ? enumValue(row.field->choices(), v.toString())
                                                 : std::optional<int>(v.toInt());
            combo->setCurrentIndex(value ? combo->findData(*value) : -1);
        } else if (auto *box = qobject_cast<QDoubleSpinBox *>(row.widget)) {
            box->setValue(v.toDouble() * row.style.scale);
        }
    }
}

QString describeByField(QWidget *w, const char *key)
{
    const ScenarioField *f = findScenarioField(QLatin1String(key));
    Q_ASSERT(f);
    described(w, FieldControls::label(*f), FieldControls::tip(*f));
    return FieldControls::label(*f);
}

} // namespace napkin::ui
