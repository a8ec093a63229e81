// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/memoryplan.h"

#include <QAbstractScrollArea>

#include <memory>
#include <optional>
#include <vector>

namespace etscope::ui {

/// One arena of a memory plan as the classic offset × time chart: steps (instructions in
/// execution order, chain boundaries marked) run right, byte offsets up, one box per planned
/// tensor over its lifetime coloured by role (elided views as a dashed outline over their
/// source), lines at the declared size and the highest end, and the live bytes per step in a
/// strip below with the peak marked. Ctrl+wheel (or +/−) zooms both axes around the pointer,
/// Ctrl+Shift+wheel the offsets only, dragging pans, the wheel scrolls, Ctrl+0 fits the arena. Hovering a box describes
/// its tensor; clicking one selects it.
class MemoryChart final : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);

    /// Shows arena `arena` (an index into plan->arenas); a null plan empties the chart and
    /// `emptyText` says why.
    void setPlan(std::shared_ptr<const core::MemoryPlan> plan, int arena = 0);
    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }
    const core::MemoryPlan* plan() const { return m_plan.get(); }
    const core::MemoryArena* arena() const;
    int arenaIndex() const { return m_arena; }

    void fit();
    /// Zooms both axes, or the offsets only when `steps` is false.
    void zoomBy(double factor, bool steps = true);
    double pixelsPerStep() const { return m_pxPerStep; }
    double bytesPerPixel() const { return m_bytesPerPx; }

    /// The selected tensor (an index into plan->tensors), drawn with the highlight colour.
    void setSelected(std::optional<std::size_t> tensor);
    std::optional<std::size_t> selected() const { return m_selected; }
    /// Tensors outlined for the node selected in the graph: (tensor, written by it).
    void setMarked(std::vector<std::pair<std::size_t, bool>> marked);
    const std::vector<std::pair<std::size_t, bool>>& marked() const { return m_marked; }
    /// Scrolls so that the tensor's box is in view (zoomed out as little as needed).
    void scrollTo(std::size_t tensor);

    /// The tensors of the shown arena whose boxes are under `point` of the viewport, the
    /// smallest box first and views after what they alias.
    std::vector<std::size_t> tensorsAt(QPoint point) const;
    /// Where the tensor's box is, in viewport coordinates (empty when it is not drawn).
    QRectF tensorRect(std::size_t tensor) const;
    /// What the tooltip says about a tensor.
    QString describe(std::size_t tensor) const;
    /// "#3 aten::mm.out" (with the chain when the method has several).
    QString stepText(int step) const;

    /// What Export picture draws: the range in view (the whole arena when fitted or never
    /// shown) at least 1,000 × 560 px.
    struct Frame {
        QSize size;
        double fromStep = 0; ///< the step at the left edge of the plot
        double pxPerStep = 1;
        double topByte = 0; ///< the offset at the top edge of the plot
        double bytesPerPx = 1;
    };
    Frame picture() const;
    /// Paints the chart into a target of frame.size. The view and the exported pictures draw
    /// with this.
    void paintChart(QPainter& painter, const Frame& frame) const;

Q_SIGNALS:
    void tensorClicked(std::size_t tensor);
    /// A click in the live-bytes strip, on a step.
    void stepClicked(int step);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    int stepCount() const;
    double extent() const; ///< bytes the y axis spans: the declared size or the highest end
    QRect plotRect(QSize size) const; ///< where the boxes go
    double fitPxPerStep() const;
    double fitBytesPerPx() const;
    /// Room above the highest byte for the top line's label.
    int topPad() const;
    Frame viewFrame() const;
    void updateScrollBars();
    void zoomAround(double factor, QPointF anchor, bool steps);

    /// Where the step is under viewport x, or -1.
    int stepAt(const Frame& frame, double x) const;
    /// The live-bytes strip of a picture of `size`.
    QRect stripRect(QSize size) const;

    /// The parts of paintChart, in the order it draws them (memorychartpaint.cpp).
    struct Painting;
    void paintBoxes(QPainter& painter, const Painting& p) const;
    void paintLines(QPainter& painter, const Painting& p) const;
    void paintMarks(QPainter& painter, const Painting& p) const;
    void paintByteAxis(QPainter& painter, const Painting& p) const;
    void paintStepAxis(QPainter& painter, const Painting& p) const;
    void paintStrip(QPainter& painter, const Painting& p) const;
    void paintLegend(QPainter& painter, const Painting& p) const;

    std::shared_ptr<const core::MemoryPlan> m_plan;
    int m_arena = 0;
    std::vector<std::pair<int, int>> m_chainStarts; ///< (first step, chain) of every chain after the first
    QString m_emptyText;
    double m_pxPerStep = 1;
    double m_bytesPerPx = 1;
    bool m_fitted = true; ///< refit on resize (until zoomed)
    std::optional<std::size_t> m_selected;
    std::vector<std::pair<std::size_t, bool>> m_marked;
    QPoint m_pressPos;
    QPoint m_pressScroll;
    bool m_dragging = false;
};

} // namespace etscope::ui
