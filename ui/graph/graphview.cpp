// SPDX-License-Identifier: MIT
#include "ui/graph/graphview.h"

#include "ui/common/theme.h"
#include "ui/graph/clicktiming.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace etscope::ui {

namespace {
constexpr double kMinZoom = 0.02;
constexpr double kMaxZoom = 8.0;
// Below this zoom the 9 px node labels are no longer readable.
constexpr double kLegibleZoom = 0.6;
// The zoom a graph too large to fit opens at.
constexpr double kOpeningZoom = 0.85;
} // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontAdjustForAntialiasing);
    setBackgroundBrush(canvasColour(palette()));
    setFocusPolicy(Qt::StrongFocus);
}

double GraphView::zoom() const
{
    return transform().m11();
}

void GraphView::setZoom(double factor)
{
    m_followsFit = false;
    factor = std::clamp(factor, kMinZoom, kMaxZoom);
    QTransform t;
    t.scale(factor, factor);
    setTransform(t);
    Q_EMIT viewportChanged();
}

void GraphView::zoomBy(double factor)
{
    m_followsFit = false;
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    scale(target / zoom(), target / zoom());
    Q_EMIT viewportChanged();
}

void GraphView::fitAll()
{
    if (!scene())
        return;
    const QRectF rect = scene()->sceneRect();
    if (rect.isEmpty())
        return;
    fitInView(rect, Qt::KeepAspectRatio);
    // Never blow a tiny graph up beyond 1:1, never shrink a huge one into dust.
    if (zoom() > 1.0)
        setZoom(1.0);
    if (zoom() < kMinZoom)
        setZoom(kMinZoom);
    centerOn(rect.center());
    m_followsFit = true;
    Q_EMIT viewportChanged();
}

bool GraphView::showsEverything() const
{
    if (!scene() || scene()->sceneRect().isEmpty())
        return true;
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    return visible.adjusted(-1, -1, 1, 1).contains(scene()->sceneRect());
}

void GraphView::showLegible()
{
    fitAll();
    if (!scene() || zoom() >= kLegibleZoom)
        return;
    setZoom(kOpeningZoom);
    horizontalScrollBar()->setValue(horizontalScrollBar()->minimum());
    verticalScrollBar()->setValue(verticalScrollBar()->minimum());
    Q_EMIT viewportChanged();
}

void GraphView::centreOn(const QPointF& point, bool zoomIn)
{
    m_followsFit = false;
    if (zoomIn && zoom() < 0.8)
        setZoom(1.0);
    centerOn(point);
    Q_EMIT viewportChanged();
}

void GraphView::zoomTo(const QRectF& rect)
{
    if (rect.isEmpty())
        return;
    m_followsFit = false;
    constexpr double kRoom = 60;
    constexpr double kMostZoom = 2.0;
    fitInView(rect.adjusted(-kRoom, -kRoom, kRoom, kRoom), Qt::KeepAspectRatio);
    if (zoom() > kMostZoom)
        setZoom(kMostZoom);
    centerOn(rect.center());
    Q_EMIT viewportChanged();
}

void GraphView::paintEvent(QPaintEvent* event)
{
    QGraphicsView::paintEvent(event);
    clicktiming::painted(*this);
    Q_EMIT painted();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    // The wheel pans (Shift+wheel sideways) and Ctrl+wheel zooms, as Netron does by default
    // (lutzroeder/netron, source/view.js, _wheelHandler: plain wheel scrolls unless its
    // "mousewheel: zoom" option is on) and as a touchpad's two-finger scroll expects; a
    // touchpad's pinch arrives as Ctrl+wheel, so it zooms too.
    const double steps = event->angleDelta().y() / 120.0;
    m_followsFit = false;
    if (!(event->modifiers() & Qt::ControlModifier) || steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(kWheelZoomStep, steps));
    event->accept();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    Q_EMIT viewportChanged();
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    // A fitted graph stays fitted when the window (or a splitter) changes the view's size.
    if (m_followsFit)
        fitAll();
    Q_EMIT viewportChanged();
}

void GraphView::mousePressEvent(QMouseEvent* event)
{
    // Clicks on items select them; only the background drags the view.
    setDragMode(itemAt(event->pos()) ? QGraphicsView::NoDrag : QGraphicsView::ScrollHandDrag);
    if (dragMode() == QGraphicsView::ScrollHandDrag)
        m_followsFit = false;
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event)
{
    QGraphicsView::mouseReleaseEvent(event);
    setDragMode(QGraphicsView::ScrollHandDrag);
}

void GraphView::changeEvent(QEvent* event)
{
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        setBackgroundBrush(canvasColour(palette()));
        // Wires and cluster titles take their colour from the scene's palette when they paint.
        if (scene()) {
            scene()->setPalette(palette());
            scene()->update();
        }
    }
}

Minimap::Minimap(GraphView* main, QWidget* parent)
    : QGraphicsView(parent)
    , m_main(main)
{
    setScene(main->scene());
    setInteractive(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setRenderHints(QPainter::Antialiasing);
    setBackgroundBrush(canvasColour(palette(), true));
    setFrameShape(QFrame::Box);
    setToolTip(tr("Overview: click or drag to move the view"));
    connect(main, &GraphView::viewportChanged, this, [this] { viewport()->update(); });
}

void Minimap::refit()
{
    if (scene() != m_main->scene())
        setScene(m_main->scene());
    if (scene())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    viewport()->update();
}

void Minimap::drawForeground(QPainter* painter, const QRectF&)
{
    const QRectF visible = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
    QColor fill(0x00, 0x72, 0xB2, 40);
    painter->setPen(QPen(QColor(0x00, 0x72, 0xB2), 0));
    painter->setBrush(fill);
    painter->drawRect(visible);
}

void Minimap::mousePressEvent(QMouseEvent* event)
{
    m_main->centreOn(mapToScene(event->pos()));
    viewport()->update();
}

void Minimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton) {
        m_main->centreOn(mapToScene(event->pos()));
        viewport()->update();
    }
}

void Minimap::changeEvent(QEvent* event)
{
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        setBackgroundBrush(canvasColour(palette(), true));
}

void Minimap::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    refit();
}

} // namespace etscope::ui
