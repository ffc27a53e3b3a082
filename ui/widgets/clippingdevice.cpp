#include "ui/widgets/clippingdevice.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QPixmap>
#include <QRegion>
#include <QTextItem>

#include <cmath>
#include <optional>

namespace napkin::ui {

/// Passes every command on to a painter on the target, with the clip applied (ClippingDevice).
class ClippingEngine final : public QPaintEngine
{
public:
    ClippingEngine(QPaintDevice *target, ClippingDevice::How how, const QTransform &toTarget)
        : QPaintEngine(QPaintEngine::AllFeatures), m_target(target), m_how(how), m_toTarget(toTarget)
    {
    }

    bool begin(QPaintDevice *) override
    {
        if (!m_out.begin(m_target))
            return false;
        m_out.setTransform(m_toTarget);
        m_transform = QTransform();
        m_clip.reset();
        m_system = QRegion();
        m_clipDirty = true;
        return true;
    }

    bool end() override { return m_out.end(); }

    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState &s) override
    {
        const DirtyFlags dirty = s.state();
        if (dirty & DirtyPen)
            m_out.setPen(s.pen());
        if (dirty & DirtyBrush)
            m_out.setBrush(s.brush());
        if (dirty & DirtyBrushOrigin)
            m_out.setBrushOrigin(s.brushOrigin());
        if (dirty & DirtyFont)
            m_out.setFont(s.font());
        if (dirty & DirtyBackground)
            m_out.setBackground(s.backgroundBrush());
        if (dirty & DirtyBackgroundMode)
            m_out.setBackgroundMode(s.backgroundMode());
        if (dirty & DirtyTransform) {
            // The whole matrix from logical to this device's coordinates.
            m_transform = s.transform();
            m_out.setTransform(m_transform * m_toTarget);
        }
        if (dirty & DirtyHints) {
            m_out.setRenderHints(m_out.renderHints(), false);
            m_out.setRenderHints(s.renderHints(), true);
        }
        if (dirty & DirtyCompositionMode)
            m_out.setCompositionMode(s.compositionMode());
        if (dirty & DirtyOpacity)
            m_out.setOpacity(s.opacity());
        if (dirty & (DirtyClipPath | DirtyClipRegion | DirtyClipEnabled))
            m_clipDirty = true;
    }

    void drawPath(const QPainterPath &path) override { drawShape(path, true); }

    void drawPolygon(const QPointF *points, int pointCount, PolygonDrawMode mode) override
    {
        if (pointCount < 1)
            return;
        QPainterPath path;
        path.setFillRule(mode == OddEvenMode ? Qt::OddEvenFill : Qt::WindingFill);
        path.moveTo(points[0]);
        for (int i = 1; i < pointCount; ++i)
            path.lineTo(points[i]);
        if (mode != PolylineMode)
            path.closeSubpath();
        drawShape(path, mode != PolylineMode);
    }

    void drawPixmap(const QRectF &r, const QPixmap &pixmap, const QRectF &source) override
    {
        if (reaches(m_transform.mapRect(r)))
            m_out.drawPixmap(r, pixmap, source);
    }

    void drawImage(const QRectF &r, const QImage &image, const QRectF &source, Qt::ImageConversionFlags flags) override
    {
        if (reaches(m_transform.mapRect(r)))
            m_out.drawImage(r, image, source, flags);
    }

    void drawTiledPixmap(const QRectF &r, const QPixmap &pixmap, const QPointF &offset) override
    {
        if (reaches(m_transform.mapRect(r)))
            m_out.drawTiledPixmap(r, pixmap, offset);
    }

    void drawTextItem(const QPointF &p, const QTextItem &textItem) override
    {
        const QRectF box(p.x(), p.y() - textItem.ascent(), textItem.width(), textItem.ascent() + textItem.descent());
        if (reaches(m_transform.mapRect(box)))
            m_out.drawTextItem(p, textItem);
    }

private:
    /// The painter's clip and the system clip together, in this device's coordinates, brought
    /// up to date; for How::Forward also set on the target's painter.
    void refreshClip()
    {
        const QRegion system = systemClip();
        if (!m_clipDirty && system == m_system)
            return;
        m_clipDirty = false;
        m_system = system;
        m_clip.reset();
        if (!system.isEmpty()) {
            QPainterPath p;
            p.addRegion(system);
            m_clip = p;
        }
        if (const QPainter *p = painter(); p && p->hasClipping()) {
            // deviceTransform() includes the offset of a widget painted through QWidget::render().
            const QPainterPath own = p->deviceTransform().map(p->clipPath());
            m_clip = m_clip ? m_clip->intersected(own) : own;
        }
        if (m_how == ClippingDevice::How::Forward) {
            if (m_clip) {
                m_out.setTransform(m_toTarget);
                m_out.setClipPath(*m_clip);
                m_out.setTransform(m_transform * m_toTarget);
            } else {
                m_out.setClipping(false);
            }
        }
    }

    /// Whether anything within these device bounds is inside the clip.
    bool reaches(const QRectF &deviceBounds)
    {
        refreshClip();
        return !m_clip || m_clip->intersects(deviceBounds);
    }

    void drawShape(const QPainterPath &path, bool fill)
    {
        const QPen pen = state->pen();
        const QBrush brush = fill ? state->brush() : QBrush();
        refreshClip();
        if (m_how == ClippingDevice::How::Forward || !m_clip) {
            plain(path, brush);
            return;
        }
        // Bounds with the pen's reach, never zero wide: a horizontal grid line has no height.
        const double scale = std::sqrt(std::abs(m_transform.determinant()));
        const double penWidth = pen.style() == Qt::NoPen ? 0 : std::max(pen.widthF(), 1.0);
        const double reach = (pen.isCosmetic() ? penWidth : penWidth * scale) / 2 + 1;
        const QRectF bounds = m_transform.mapRect(path.controlPointRect()).adjusted(-reach, -reach, reach, reach);
        if (!m_clip->intersects(bounds))
            return;
        if (m_clip->contains(bounds) || !m_transform.isInvertible() || scale <= 0) {
            plain(path, brush);
            return;
        }
        const QPainterPath clip = m_transform.inverted().map(*m_clip);
        m_out.save();
        m_out.setPen(Qt::NoPen);
        if (brush.style() != Qt::NoBrush) {
            m_out.setBrush(brush);
            m_out.drawPath(path.intersected(clip));
        }
        if (pen.style() != Qt::NoPen) {
            // The stroke as the outline it paints, cut like a fill.
            QPainterPathStroker stroker(pen);
            stroker.setWidth(pen.isCosmetic() ? penWidth / scale : penWidth);
            m_out.setBrush(pen.brush());
            m_out.drawPath(stroker.createStroke(path).intersected(clip));
        }
        m_out.restore();
    }

    void plain(const QPainterPath &path, const QBrush &brush)
    {
        if (brush == state->brush()) {
            m_out.drawPath(path);
            return;
        }
        m_out.save();
        m_out.setBrush(brush);
        m_out.drawPath(path);
        m_out.restore();
    }

    QPaintDevice *m_target;
    ClippingDevice::How m_how;
    QTransform m_toTarget;
    QPainter m_out;
    QTransform m_transform;
    std::optional<QPainterPath> m_clip;
    QRegion m_system;
    bool m_clipDirty = true;
};

ClippingDevice::ClippingDevice(QPaintDevice *target, How how, QSize size, const QTransform &toTarget)
    : m_target(target), m_size(size), m_engine(std::make_unique<ClippingEngine>(target, how, toTarget))
{
}

ClippingDevice::~ClippingDevice() = default;

QPaintEngine *ClippingDevice::paintEngine() const
{
    return m_engine.get();
}

int ClippingDevice::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth: return m_size.width();
    case PdmHeight: return m_size.height();
    case PdmWidthMM: return qRound(m_size.width() * 25.4 / m_target->logicalDpiX());
    case PdmHeightMM: return qRound(m_size.height() * 25.4 / m_target->logicalDpiY());
    case PdmNumColors: return m_target->colorCount();
    case PdmDepth: return m_target->depth();
    case PdmDpiX:
    case PdmPhysicalDpiX: return m_target->logicalDpiX();
    case PdmDpiY:
    case PdmPhysicalDpiY: return m_target->logicalDpiY();
    case PdmDevicePixelRatio: return 1;
    case PdmDevicePixelRatioScaled: return static_cast<int>(devicePixelRatioFScale());
    default: break;
    }
    return 0;
}

} // namespace napkin::ui
