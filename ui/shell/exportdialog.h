#pragma once

#include "ui/state/imageformat.h"

#include <QDialog>
#include <QSize>

class QComboBox;
class QSpinBox;

namespace napkin::ui {

/// Asks for the picture size of an export: width and height in pixels, and for a PNG 1x or 2x
/// (slides); an SVG or PDF is sharp at any zoom, so it has no scale to choose.
class ExportDialog final : public QDialog
{
    Q_OBJECT

public:
    ExportDialog(const QString &what, QSize initial, ImageFormat format = ImageFormat::Png, QWidget *parent = nullptr);

    QSize logicalSize() const;
    /// 1 for SVG and PDF.
    double scale() const;

private:
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_scale;
};

} // namespace napkin::ui
