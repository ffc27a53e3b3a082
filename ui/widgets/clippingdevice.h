#pragma once

#include <QPaintDevice>
#include <QTransform>

#include <memory>

namespace napkin::ui {

class ClippingEngine;

/// A paint device in front of a vector device that clips less than a widget tree needs: Qt 6.4's
/// QSvgGenerator ignores every clip (a chart's line runs on past its plot), and QPdfWriter
/// ignores the system clip QWidget::render() gives each widget (a child overflowing its parent
/// stays visible). Every drawing command is passed on to a painter on the target with the whole
/// clip applied: the painter's own clip and the system clip. `How::Forward` hands the clip to the
/// target's painter, which clips itself (PDF); `How::Cut` cuts the geometry here (SVG): a fill
/// becomes its intersection with the clip, a stroke that crosses the clip's edge its outline's,
/// and a text or picture wholly outside is left out (one partly inside is drawn whole).
///
/// It reports the target's resolution and `size` in its own units, which `toTarget` maps onto the
/// target, so that a widget laid out at `size` pixels on a screen of that resolution paints here
/// as it does there. Its engine's type is QPaintEngine::User: a caller that keeps pixmaps for
/// raster painting (DrawingCache) draws directly here.
class ClippingDevice final : public QPaintDevice
{
public:
    enum class How { Forward, Cut };

    ClippingDevice(QPaintDevice *target, How how, QSize size, const QTransform &toTarget = QTransform());
    ~ClippingDevice() override;
    ClippingDevice(const ClippingDevice &) = delete;
    ClippingDevice &operator=(const ClippingDevice &) = delete;

    QPaintEngine *paintEngine() const override;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QPaintDevice *m_target;
    QSize m_size;
    std::unique_ptr<ClippingEngine> m_engine;
};

} // namespace napkin::ui
