// The one description of each scenario field: JSON, validation, the command line and --help
// all come from it, so each must know every field the same way.
#include "testsupport.h"

#include "app/commandline.h"
#include "core/model/fields.h"
#include "core/io/scenariojson.h"

#include <QJsonObject>

using namespace napkin;

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
