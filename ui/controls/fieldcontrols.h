#pragma once

#include "core/model/fields.h"
#include "core/model/scenario.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

class QFormLayout;
class QJsonValue;
class QWidget;

namespace napkin::ui {

class ScenarioController;

/// How a generated control shows its field's value: units and steps are the window's choice,
/// everything else (label, tooltip, range, choices) is the field table's.
struct FieldRowStyle {
    double scale = 1;       ///< shown = value x scale: 100 for a fraction in %, 1 / MiB for bytes
    int decimals = 0;       ///< Real fields
    double step = 0;        ///< the arrows' step in shown units; 0: 1
    double stepFactor = 0;  ///< > 0: the arrows multiply by it (Integer fields)
    const char *suffix = "";  ///< " %", " MiB"
};

/// What else an edit does besides setting its field (an offload raises the ZeRO stage, fewer
/// experts pull the top-k down); returns what to tell the user, or nothing.
using FieldAdjust = std::function<QString(Scenario &)>;

/// The window's controls for scenario fields whose control is a plain spin box, combo box or
/// check box, generated from the field table (core/model/fields.h): an Integer gets a spin box
/// (or, with choices, a combo box of their labels: the ZeRO stage), a Real a spin box, a Choice
/// a combo box of its labels with the enum value as item data, a Flag a check box. Each shows
/// the field's label (as row label, or a check box's text) and accessible name, its tooltip
/// and range, and proposes each edit as one undo step named "Set <label> to <value>".
class FieldControls final : public QObject
{
    Q_OBJECT

public:
    FieldControls(ScenarioController *controller, QObject *parent);

    /// Builds the control for field `key`, a child of the form's widget, and adds it as a row.
    QWidget *addRow(QFormLayout *form, const char *key, const FieldRowStyle &style = {}, FieldAdjust adjust = {});
    /// The control made for `key`; nullptr if none was.
    QWidget *control(const char *key) const;
    template <typename W>
    W *control(const char *key) const
    {
        return qobject_cast<W *>(control(key));
    }
    /// How the control made for `key` shows its value (default if none was made).
    FieldRowStyle style(const char *key) const;
    /// Shows the scenario's values, signals blocked: nothing is proposed.
    void sync(const Scenario &s);

    /// The field's name in the window, translated ("KV heads").
    static QString label(const ScenarioField &f);
    /// The field's tooltip in the window, translated.
    static QString tip(const ScenarioField &f);
    /// A choice's label in the window, translated ("Selective (attention)").
    static QString choiceLabel(const EnumEntry &e);
    /// The undo step of setting a field to a value as shown: "Set KV heads to 4".
    static QString undoText(const ScenarioField &f, const QString &value);

private:
    struct Row {
        const ScenarioField *field;
        QWidget *widget;
        FieldRowStyle style;
        FieldAdjust adjust;
    };
    QWidget *create(const ScenarioField &f, const FieldRowStyle &style, QWidget *parent);
    void connectRow(const Row &row);
    void propose(const Row &row, const QJsonValue &value, const QString &shown);

    ScenarioController *m_controller;
    std::vector<Row> m_rows;
};

/// Gives a hand-built control the field's label as accessible name and its tooltip, as
/// generated controls have; returns the label, for the control's row.
QString describeByField(QWidget *w, const char *key);

} // namespace napkin::ui
