#include "rooflinetext.h"

#include "units.h"

#include <QCoreApplication>

namespace napkin::ui {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("napkin::ui::RooflineText", text);
}
} // namespace

QString opLabel(const RooflineOp &op)
{
    return QStringLiteral("%1 (%2)").arg(op.name, phaseName(op.phase));
}

QString opKindTitle(OpKind kind)
{
    QString name = opKindName(kind);
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

QString opTooltip(const RooflineOp &op, const RooflineReport &r)
{
    const QString bound = op.computeBound
                              ? tr("compute-bound (intensity ≥ ridge %1 FLOPs/byte)").arg(fmt::number(r.ridgeIntensity))
                              : tr("memory-bound (intensity < ridge %1 FLOPs/byte)").arg(fmt::number(r.ridgeIntensity));
    return tr("%1 — %2\n"
              "FLOPs: %3\n"
              "Bytes: %4 (%5)\n"
              "Intensity: %6 FLOPs/byte\n"
              "Attainable: %7\n"
              "Bound: %8\n"
              "Runs %9× per micro-batch step, %10 each")
        .arg(opLabel(op), opKindName(op.kind), fmt::sci(op.flops), fmt::sci(op.bytes), fmt::bytes(op.bytes),
             fmt::number(op.intensity), fmt::flopRate(op.attainableFlopsPerS), bound, fmt::number(op.count))
        .arg(fmt::duration(op.seconds));
}

} // namespace napkin::ui
