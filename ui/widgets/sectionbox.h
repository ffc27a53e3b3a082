#pragma once

#include "ui/widgets/drawingcache.h"

#include <QGroupBox>

namespace napkin::ui {

/// A group box whose frame and title are drawn once and copied after (DrawingCache). The
/// controls it holds (sliders, spin boxes) do not paint their own background, so every tick
/// of a drag repaints the box beneath them; the style's frame is a stretched border image and
/// a title, several times the slider's own cost.
class SectionBox : public QGroupBox
{
    Q_OBJECT

public:
    explicit SectionBox(const QString &title, QWidget *parent = nullptr);
    explicit SectionBox(QWidget *parent = nullptr) : SectionBox(QString(), parent) {}

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    DrawingCache m_cache;
};

} // namespace napkin::ui
