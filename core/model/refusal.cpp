#include "core/model/refusal.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace napkin {

QString integerRangeProblem(std::int64_t lo, std::int64_t hi, const QString &got)
{
    return QStringLiteral("must be an integer from %1 to %2 (got %3)").arg(lo).arg(hi).arg(got);
}

QString printable(const QString &text, qsizetype maxShown)
{
    const bool cut = maxShown > 0 && text.size() > maxShown;
    QString out;
    for (const QChar c : cut ? text.left(maxShown) : text) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\r'))
            out += QStringLiteral("\\r");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line
                 || c.category() == QChar::Separator_Paragraph)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    if (cut)
        out += QStringLiteral("…");
    return out;
}

QString describeValue(const QJsonValue &v)
{
    if (v.isString())
        return QLatin1Char('"') + printable(v.toString()) + QLatin1Char('"');
    if (v.isDouble())
        return QString::number(v.toDouble());
    return printable(QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
}

} // namespace napkin
