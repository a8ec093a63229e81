// SPDX-License-Identifier: MIT
#pragma once

#include <QGraphicsView>

namespace etscope::ui {

/// One step of Ctrl++ / Ctrl+− and of the toolbar's zoom buttons.
constexpr double kZoomStep = 1.25;
/// One notch of the mouse wheel.
constexpr double kWheelZoomStep = 1.15;

/// The zoomable, pannable view of a GraphScene: wheel and Ctrl+/− zoom around the cursor,
/// dragging the background pans, Fit shows everything.
class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    double zoom() const;
    void setZoom(double factor);
    void zoomBy(double factor);
    void fitAll();
    /// The first view of a graph: the whole graph when it fits at a legible zoom, otherwise a
    /// legible zoom showing its top-left (where the inputs are); the minimap gives the overview.
    void showLegible();
    void centreOn(const QPointF& point, bool zoomIn = false);
    /// Fits `rect` (scene coordinates) with some room around it, at most at 200 %.
    void zoomTo(const QRectF& rect);
    /// True while the view shows the fitted graph and the user has not zoomed or panned since:
    /// a resize then fits the graph again.
    bool followsFit() const { return m_followsFit; }
    /// True when the whole scene is inside the viewport (nothing for a minimap to show).
    bool showsEverything() const;

Q_SIGNALS:
    void viewportChanged();
    /// A paint of the viewport finished (first-paint of --timings).
    void painted();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    bool m_followsFit = false;
};

/// An overview of the whole scene with the main view's visible area as a rectangle; clicking
/// or dragging moves the main view there.
class Minimap : public QGraphicsView {
    Q_OBJECT
public:
    explicit Minimap(GraphView* main, QWidget* parent = nullptr);
    void refit();

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    GraphView* m_main;
};

} // namespace etscope::ui
