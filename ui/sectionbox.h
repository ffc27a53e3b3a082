#pragma once

#include <QGroupBox>
#include <QPixmap>

namespace napkin::ui {

/// A group box that draws its frame and title once into a pixmap and copies the part a paint
/// asks for. The controls it holds (sliders, spin boxes) do not paint their own background,
/// so every tick of a drag repaints the box beneath them; the style's frame is a stretched
/// border image and a title, several times the slider's own cost.
class SectionBox : public QGroupBox
{
    Q_OBJECT

public:
    explicit SectionBox(const QString &title, QWidget *parent = nullptr);
    explicit SectionBox(QWidget *parent = nullptr) : SectionBox(QString(), parent) {}

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QPixmap m_frame;
    QString m_frameKey;  ///< what m_frame was drawn for: size, scale, state, title, palette, font, style
};

} // namespace napkin::ui
