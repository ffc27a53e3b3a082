#pragma once

#include <QDialog>
#include <QSize>

class QComboBox;
class QSpinBox;

namespace napkin::ui {

/// Asks for the picture size of an export: width and height in pixels, and 1x or 2x (slides).
class ExportDialog final : public QDialog
{
    Q_OBJECT

public:
    ExportDialog(const QString &what, QSize initial, QWidget *parent = nullptr);

    QSize logicalSize() const;
    double scale() const;

private:
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_scale;
};

} // namespace napkin::ui
