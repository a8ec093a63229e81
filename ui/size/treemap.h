// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/sizebreakdown.h"

#include <QRectF>
#include <QWidget>

#include <map>
#include <set>
#include <vector>

namespace etscope::ui {

/// Squarified treemap layout (Bruls, Huizing, van Wijk 2000): one rectangle per weight, in the
/// order given, tiling `rect` exactly with areas proportional to the weights and aspect ratios
/// near 1. Zero (or negative) weights get an empty rectangle.
std::vector<QRectF> squarify(const std::vector<double>& weights, const QRectF& rect);

/// One drawn box of a size tree: a part drawn whole (a leaf, or a group too small to open) or
/// an opened group (a title strip over its children, which fill `inner`).
struct TreemapBox {
    const core::SizeNode* node = nullptr;
    QRectF rect;
    QRectF inner; ///< opened groups: where the children are; empty for boxes drawn whole
    int depth = 0; ///< 0 for the children of the shown root
    bool opened() const { return !inner.isEmpty(); }
};

/// The boxes of `root`'s parts inside `rect`: its children tile `rect`, and every group large
/// enough opens (a `titleHeight` strip and a 1 px frame around its own children), recursively.
/// Parents come before their children.
std::vector<TreemapBox> layoutTreemap(const core::SizeNode& root, const QRectF& rect, double titleHeight);

/// The colour a part of this kind is filled with (delegate blobs in their backend's colour,
/// padding grey). Named data a backend uses gets a band in the backend's colour on the map.
QColor sizeKindColour(core::SizeKind kind, const std::string& backend = {});
/// "program tables", "named data" … for legends and tooltips.
QString sizeKindLabel(core::SizeKind kind);

/// A SizeTree as a treemap: the parts of the shown root (the whole file, or a group the user
/// descended into) as boxes whose areas are their byte counts. Clicking a group descends into
/// it; clicking a part selects it; Backspace or a right click goes up. Hovering describes a part.
class TreemapView final : public QWidget {
    Q_OBJECT
public:
    explicit TreemapView(QWidget* parent = nullptr);

    /// Shows `tree` from its root (nullptr: nothing). The tree must outlive the view's use of it.
    void setTree(const core::SizeTree* tree);
    const core::SizeTree* tree() const { return m_tree; }
    const core::SizeNode* shownRoot() const { return m_root; }
    /// From the tree's root down to the shown root.
    std::vector<const core::SizeNode*> rootPath() const;
    void setShownRoot(const core::SizeNode* node);
    void goUp();

    const core::SizeNode* selected() const { return m_selected; }
    void setSelected(const core::SizeNode* node);
    /// Parts outlined as belonging to what the graph has selected (their drawn boxes, or the
    /// closed group holding them). The shown root moves up when it holds none of them.
    void setMarked(std::set<const core::SizeNode*> marked);
    const std::set<const core::SizeNode*>& marked() const { return m_marked; }

    /// The boxes as drawn in the widget now.
    const std::vector<TreemapBox>& boxes() const;
    /// The deepest box under `point`, or nullptr.
    const TreemapBox* boxAt(QPointF point) const;
    /// The drawn box of `node` (its own, else the closed group holding it), or nullptr.
    const TreemapBox* boxOf(const core::SizeNode* node) const;
    const core::SizeNode* parentOf(const core::SizeNode* node) const;
    /// Tooltip text for a part.
    QString describe(const core::SizeNode& node) const;

    /// Paints the shown root's parts into `size` (the widget and the exported pictures).
    void paintMap(QPainter& painter, QSize size) const;

Q_SIGNALS:
    void rootChanged();
    /// A part (not a group) was clicked.
    void partClicked(const core::SizeNode* node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout() const;
    double titleHeight() const;
    void paintBoxes(QPainter& painter, const std::vector<TreemapBox>& boxes) const;
    bool holds(const core::SizeNode* ancestor, const core::SizeNode* node) const;

    const core::SizeTree* m_tree = nullptr;
    const core::SizeNode* m_root = nullptr;
    const core::SizeNode* m_selected = nullptr;
    std::set<const core::SizeNode*> m_marked;
    std::set<const core::SizeNode*> m_markedAncestors;
    std::map<const core::SizeNode*, const core::SizeNode*> m_parents;
    mutable std::vector<TreemapBox> m_boxes;
    mutable QSize m_laidOutFor;
    mutable bool m_dirty = true;
};

} // namespace etscope::ui
