// SPDX-License-Identifier: MIT
#pragma once

#include "ui/graph/graphitems.h"
#include "ui/graph/presentation.h"
#include "ui/heatmap/heatmapmodel.h"

#include <QGraphicsScene>
#include <QHash>

#include <map>
#include <memory>
#include <optional>
#include <set>

namespace etscope::ui {

/// The drawing of one Presentation. Items are built on the UI thread from plain geometry;
/// nodes are identified by NodeOrigin (method coordinates), never by pointer.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    void setPresentation(std::shared_ptr<const Presentation> presentation);
    std::shared_ptr<const Presentation> presentation() const { return m_presentation; }

    NodeItem* itemFor(const core::NodeOrigin& origin) const;
    std::vector<NodeItem*> nodeItems() const { return m_nodes; }
    const std::vector<EdgeItem*>& edgeItems() const { return m_edges; }
    const std::vector<ClusterItem*>& clusterItems() const { return m_clusters; }

    /// Selects one node (clears the selection for nullopt) without emitting nodeSelected.
    void selectNode(const std::optional<core::NodeOrigin>& origin);
    std::optional<core::NodeOrigin> selectedNode() const;

    /// Marks nodes (e.g. every node of an operator type); others lose their mark.
    void setHighlighted(const std::set<std::pair<int, int>>& origins);
    /// Tensor types and shapes written on the edges (kept for later presentations).
    void setEdgeLabelsVisible(bool visible);
    bool edgeLabelsVisible() const { return m_edgeLabels; }
    int highlightedCount() const;

    /// Colours nodes by a value in [0, 1] with a text badge; nodes without a value keep their look.
    void setHeat(const GraphHeat& heat);

    /// Who marks nodes. Each analysis owns one layer, so one never wipes another's marks; where
    /// two mark the same node, the later layer here is drawn.
    enum class MarkLayer { LoadCheck, Compare, Divergence };
    using Marks = std::map<std::pair<int, int>, NodeMark>;
    /// The marks of `layer` by node (keyOf), kept for later presentations (expanding a delegate
    /// keeps the marks of its inner nodes); an empty map removes the layer's marks.
    void setMarks(MarkLayer layer, Marks marks);
    /// The marks drawn: every layer's, the later layer's where two mark one node.
    const Marks& marks() const { return m_marks; }

    /// Small notes ("?", NodeItem::setNote) on nodes by keyOf, each with its one-line text, kept
    /// for later presentations (why a node stayed on the CPU); an empty map removes them.
    void setNotes(std::map<std::pair<int, int>, QString> notes);
    const std::map<std::pair<int, int>, QString>& notes() const { return m_notes; }

    /// The mark an open frame of `owner` carries: its delegate's, none for a group.
    std::optional<NodeMark> frameMark(const core::NodeOrigin& owner) const;
    static std::pair<int, int> keyOf(const core::NodeOrigin& origin)
    {
        return { origin.top.value, origin.inner.value };
    }

Q_SIGNALS:
    void nodeSelected(const core::NodeOrigin& origin);
    /// An edge was clicked: its index in the presentation's flat graph.
    void edgeSelected(int edgeIndex);
    void selectionCleared();
    /// The ⊕ of a delegate or group or the ⊖ of an open cluster was clicked: the delegate
    /// ({top, none}) or the group (NodeOrigin::ofGroup).
    void expandToggled(const core::NodeOrigin& owner);
    /// Double-click on a node (delegates open in their own tab).
    void nodeActivated(const core::NodeOrigin& origin);
    /// A node's note was clicked: the node is selected (nodeSelected came first).
    void noteClicked(const core::NodeOrigin& origin);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void onSelectionChanged();
    void emphasiseEdgesOf(int nodeIndex);

    std::shared_ptr<const Presentation> m_presentation;
    std::vector<NodeItem*> m_nodes; ///< parallel to the presentation's flat nodes
    std::vector<EdgeItem*> m_edges; ///< parallel to the flat edges (nullptr when not drawn)
    std::vector<ClusterItem*> m_clusters;
    bool m_quiet = false;
    bool m_edgeLabels = false;
    std::map<MarkLayer, Marks> m_layers;
    Marks m_marks; ///< the layers combined
    std::map<std::pair<int, int>, QString> m_notes;
};

} // namespace etscope::ui
