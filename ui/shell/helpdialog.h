#pragma once

#include <QDialog>

namespace napkin::ui {

/// Help > How the numbers are computed: every formula the charts use, with its source.
class HelpDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit HelpDialog(QWidget *parent = nullptr);

    /// The page as HTML (also what the dialog shows).
    static QString html();
};

} // namespace napkin::ui
