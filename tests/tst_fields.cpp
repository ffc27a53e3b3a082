// The one description of each scenario field: JSON, validation, the command line, --help, the
// window's labels and the formula strip's topic all come from it, so each must know every field
// the same way.
#include "testsupport.h"

#include "app/commandline.h"
#include "core/model/fields.h"
#include "core/io/scenariojson.h"
#include "core/model/limits.h"
#include "core/text/formulas.h"

#include <QJsonObject>
#include <QSet>

using namespace napkin;

namespace {

/// Another value the field accepts, different from `v`.
QJsonValue otherValue(const ScenarioField &f, const QJsonValue &v)
{
    switch (f.kind) {
    case FieldKind::Integer:
    case FieldKind::Real:
    case FieldKind::Count:
        if (v.isNull() || v.toDouble() != f.hi)
            return f.hi;
        return f.loExclusive ? (f.lo + f.hi) / 2 : f.lo;
    case FieldKind::Flag: return !v.toBool();
    case FieldKind::Choice:
        for (const QString &name : choiceNames(f))
            if (name != v.toString())
                return name;
        return {};
    case FieldKind::Text: return v.toString() + QStringLiteral("x");
    }
    return {};
}

} // namespace

class TestFields final : public QObject
{
    Q_OBJECT

private slots:
    void everyFieldEverywhere()
    {
        const QJsonObject json = scenarioToJson(Scenario{});
        const QString help = helpText().simplified();  // wrapped lines read as one
        QStringList keys;
        for (const ScenarioField &f : scenarioFields()) {
            const QString key = QLatin1String(f.key);
            QVERIFY2(!keys.contains(key), qPrintable(key));
            keys << key;
            // JSON: written, and its default is Scenario{}'s.
            QVERIFY2(json.contains(key), qPrintable(key));
            QCOMPARE(json.value(key), f.get(Scenario{}));
            QVERIFY2(!checkValue(f, f.get(Scenario{})), qPrintable(key));
            if (!f.option)
                continue;
            // The command line and its help name the option, its JSON key and its default.
            QVERIFY2(help.contains(QStringLiteral("--") + QLatin1String(f.option)), qPrintable(key));
            QVERIFY2(help.contains(QStringLiteral("JSON \"%1\"").arg(key)), qPrintable(key));
            if (key != QLatin1String("activations"))
                QCOMPARE(optionForField(key), QStringLiteral("--") + QLatin1String(f.option));
        }
        // Every key the scenario JSON writes is a field, the format version or the baseline.
        for (auto it = json.begin(); it != json.end(); ++it)
            QVERIFY2(findScenarioField(it.key()) || it.key() == QLatin1String("napkin_scenario"), qPrintable(it.key()));
    }

    // Every field names a topic for the formula strip, and changing it alone shows that topic,
    // the layout's fields included.
    void everyFieldHasATopic_data()
    {
        QTest::addColumn<QString>("key");
        for (const ScenarioField &f : scenarioFields())
            QTest::newRow(f.key) << QString::fromLatin1(f.key);
    }

    void everyFieldHasATopic()
    {
        QFETCH(QString, key);
        const ScenarioField &f = *findScenarioField(key);
        QVERIFY(f.label && *f.label);
        QVERIFY(*fieldTip(f));
        const QJsonValue other = otherValue(f, f.get(Scenario{}));
        QVERIFY2(!checkValue(f, other), qPrintable(other.toVariant().toString()));
        Scenario changed;
        f.set(changed, other);
        QVERIFY(changed != Scenario{});
        const FormulaTopic elsewhere = f.topic == FormulaTopic::Cost ? FormulaTopic::Params : FormulaTopic::Cost;
        QCOMPARE(topicOfChange(Scenario{}, changed, elsewhere), f.topic);
        QCOMPARE(topicOfChange(changed, changed, elsewhere), elsewhere);
    }

    // A step that changes several topics is named by the first: the shape before the cost.
    void topicOrder()
    {
        Scenario s;
        s.model.layers = 24;
        s.pricePerGpuHourUsd = 1;
        s.tp = 2;
        QCOMPARE(topicOfChange(Scenario{}, s, FormulaTopic::Time), FormulaTopic::Params);
        s.model = Scenario{}.model;
        QCOMPARE(topicOfChange(Scenario{}, s, FormulaTopic::Time), FormulaTopic::ModelState);
    }

    // Each enum's names are spelled once: the name functions, the field's choices and the
    // window's labels read one table, and every value has a distinct name and label.
    void enumTablesRoundTrip()
    {
        for (const ScenarioField &f : scenarioFields()) {
            if (!f.choices)
                continue;
            QSet<QString> names, labels;
            for (const EnumEntry &e : f.choices()) {
                QVERIFY2(!names.contains(QLatin1String(e.name)), e.name);
                QVERIFY2(!labels.contains(QLatin1String(e.label)), e.label);
                names << QLatin1String(e.name);
                labels << QLatin1String(e.label);
                QCOMPARE(enumName(f.choices(), e.value), QLatin1String(e.name));
                QCOMPARE(enumValue(f.choices(), QLatin1String(e.name)), std::optional<int>(e.value));
                if (f.kind != FieldKind::Choice)
                    continue;
                // Setting the name and reading it back gives the same name.
                Scenario s;
                f.set(s, QLatin1String(e.name));
                QCOMPARE(f.get(s).toString(), QLatin1String(e.name));
            }
            QCOMPARE(choiceNames(f), enumNames(f.choices()));
        }
        QCOMPARE(recomputeName(Recompute::Selective), QStringLiteral("selective"));
        QCOMPARE(archFromName(QStringLiteral("llama")), std::optional<Arch>(Arch::Llama));
        QVERIFY(!timeBasisFromName(QStringLiteral("hfu")));
        // The ZeRO stage's labels cover its range, one per stage.
        const ScenarioField &zero = *findScenarioField(QStringLiteral("zero"));
        QCOMPARE(zero.lo, double(limits::minZeroStage));
        QCOMPARE(zero.hi, double(limits::maxZeroStage));
        QCOMPARE(zero.choices().size(), std::size_t(limits::maxZeroStage - limits::minZeroStage + 1));
    }

    void rangesRefusedInEveryPath()
    {
        // One value above each numeric field's range is refused by the JSON reader, by
        // validation and by the command line, each naming the field.
        for (const ScenarioField &f : scenarioFields()) {
            if (f.kind != FieldKind::Integer && f.kind != FieldKind::Real && f.kind != FieldKind::Count)
                continue;
            const QString key = QLatin1String(f.key);
            const double above = f.kind == FieldKind::Integer ? f.hi + 1 : f.hi * 2 + 1;
            const auto refused = scenarioFromJson(QJsonObject{{key, above}}, Scenario{});
            QVERIFY2(!refused.ok(), qPrintable(key));
            const Refusal &e = refused.refusal();
            QCOMPARE(e.field, key);
            const QString hi = f.kind == FieldKind::Integer ? QString::number(static_cast<qint64>(f.hi)) : boundText(f.hi);
            QVERIFY2(e.problem.contains(hi), qPrintable(e.problem));
            Scenario s;
            f.set(s, above);
            const auto invalid = validateScenario(s);
            QVERIFY2(invalid && invalid->field == key, qPrintable(key));
            if (!f.option)
                continue;
            const auto parsed = parseCommandLine(
                {QStringLiteral("report"), QStringLiteral("--") + QLatin1String(f.option), QString::number(above, 'g', 17)},
                test::catalog());
            QVERIFY2(!parsed.ok(), qPrintable(key));
            QVERIFY2(parsed.refusalMessage().startsWith(QStringLiteral("--") + QLatin1String(f.option) + QLatin1Char(':')),
                     qPrintable(parsed.refusalMessage()));
        }
    }
};

QTEST_GUILESS_MAIN(TestFields)
#include "tst_fields.moc"
