#include "ui/shell/exportdialog.h"

#include "core/model/validation.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace napkin::ui {

ExportDialog::ExportDialog(const QString &what, QSize initial, ImageFormat format, QWidget *parent)
    : QDialog(parent), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)), m_scale(new QComboBox(this))
{
    setWindowTitle(tr("Export %1 as %2").arg(what, QString(imageFormatName(format)).toUpper()));
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(static_cast<int>(limits::minExportSide), static_cast<int>(limits::maxExportSide));
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(initial.width());
    m_height->setValue(initial.height());
    m_width->setAccessibleName(tr("Image width"));
    m_width->setToolTip(tr("Width of the picture in pixels (before scaling)"));
    m_height->setAccessibleName(tr("Image height"));
    m_height->setToolTip(tr("Height of the picture in pixels (before scaling)"));
    // The same range `napkin export --scale` accepts.
    for (std::int64_t n = limits::minExportScale; n <= limits::maxExportScale; ++n)
        m_scale->addItem(n == 2 ? tr("2x (sharp on slides and high-DPI screens)") : tr("%1x").arg(n), static_cast<double>(n));
    m_scale->setAccessibleName(tr("Scale"));
    m_scale->setToolTip(tr("2x doubles every pixel dimension and keeps the layout: sharper, same look"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    if (format == ImageFormat::Png) {
        form->addRow(tr("Scale"), m_scale);
    } else {
        m_scale->hide();
        // Lengths in a vector file are these pixels at 96 per inch (renderChartFile()).
        m_width->setToolTip(tr("Width of the drawing in pixels (96 per inch)"));
        m_height->setToolTip(tr("Height of the drawing in pixels (96 per inch)"));
    }
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QSize ExportDialog::logicalSize() const
{
    return {m_width->value(), m_height->value()};
}

double ExportDialog::scale() const
{
    return m_scale->isHidden() ? 1.0 : m_scale->currentData().toDouble();
}

} // namespace napkin::ui
