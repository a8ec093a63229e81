// SPDX-License-Identifier: MIT
#include "ui/graph/graphscene.h"

#include "core/util/text.h"
#include "ui/graph/clicktiming.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainterPath>

#include <cmath>
#include <optional>
#include <set>
#include <unordered_map>

namespace etscope::ui {

using namespace etscope::core;

namespace {

const QColor kGroupFrameColour(0x47, 0x55, 0x69);

QString tooltipFor(const Presentation& presentation, const GraphAdjacency& adjacency, std::size_t index)
{
    const Graph& graph = presentation.flat.graph;
    const Node& node = graph.nodes[index];
    QString html = QStringLiteral("<b>%1</b><br/>%2")
                       .arg(QString::fromStdString(node.label).toHtmlEscaped(),
                           QString::fromStdString(std::string(nodeKindName(node.kind))));
    if (node.instruction.valid())
        html += QStringLiteral(" · instruction %1").arg(node.instruction.value);
    if (node.debugHandle)
        html += QStringLiteral(" · debug handle %1").arg(node.debugHandle->value);
    QStringList inputs;
    QStringList outputs;
    for (const std::size_t e : adjacency.in[index])
        inputs << metaText(graph.edges[e].meta).toHtmlEscaped();
    for (const std::size_t e : adjacency.out[index])
        outputs << metaText(graph.edges[e].meta).toHtmlEscaped();
    if (!inputs.isEmpty())
        html += QStringLiteral("<br/>in: ") + inputs.join(QStringLiteral(", "));
    if (!outputs.isEmpty()) {
        outputs.removeDuplicates();
        html += QStringLiteral("<br/>out: ") + outputs.join(QStringLiteral(", "));
    }
    if (node.kind == NodeKind::Delegate) {
        if (const DelegateInfo* info = presentation.delegateInfo(presentation.origins[index].top))
            html += QStringLiteral("<br/>") + QString::fromStdString(info->summary).toHtmlEscaped();
        if (node.subgraph)
            html += QStringLiteral("<br/><i>⊕ expands in place · double-click opens it in a tab</i>");
    }
    if (node.kind == NodeKind::Group)
        html += QStringLiteral("<br/>%1<br/><i>⊕ or double-click opens the group</i>")
                    .arg(presentation.subtitles[index].toHtmlEscaped());
    if (node.inferred)
        html += QStringLiteral("<br/><i>wiring inferred by a rule, not read from the file</i>");
    return html;
}

/// --timings of a double-click: a closed group opens in place, a decoded delegate of the
/// top-level graph in its own tab (what DocumentView does with nodeActivated).
void beginActivationTiming(const Presentation& shown, const NodeOrigin& origin)
{
    if (origin.group() >= 0) {
        clicktiming::beginOpening(shown, origin);
        return;
    }
    if (origin.inner.valid() || shown.context.delegateNode.valid())
        return;
    const Node& node = shown.methodGraph().node(origin.top);
    if (node.kind == NodeKind::Delegate && node.subgraph)
        clicktiming::beginTab(shown, origin.top);
}

QPainterPath pathOf(const LayoutResult::Edge& geometry)
{
    QPainterPath path;
    const auto& p = geometry.points;
    path.moveTo(p[0].x, p[0].y);
    for (std::size_t i = 1; i + 2 < p.size(); i += 3)
        path.cubicTo(p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, p[i + 2].x, p[i + 2].y);
    return path;
}

} // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene()
{
    // QGraphicsScene's destructor clears the items and would signal a selection change into
    // this already destroyed subclass.
    blockSignals(true);
    clear();
}

void GraphScene::setPresentation(std::shared_ptr<const Presentation> presentation)
{
    m_quiet = true;
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_clusters.clear();
    m_presentation = std::move(presentation);
    m_quiet = false;
    if (!m_presentation)
        return;
    const Presentation& p = *m_presentation;
    const Graph& graph = p.flat.graph;
    const LayoutResult& layout = p.layout;
    setSceneRect(QRectF(-20, -20, layout.width + 40, layout.height + 40));

    for (std::size_t c = 0; c < p.flat.clusters.size() && c < layout.clusters.size(); ++c) {
        const auto& geometry = layout.clusters[c];
        const Cluster& cluster = p.flat.clusters[c];
        const bool group = cluster.group >= 0;
        auto* item
            = new ClusterItem(QRectF(geometry.x, geometry.y, geometry.width, geometry.height), p.clusterTitles[c],
                group ? kGroupFrameColour
                      : backendColour(QString::fromStdString(p.methodGraph().node(cluster.owner).label)),
                group ? NodeOrigin::ofGroup(cluster.group) : NodeOrigin { cluster.owner, NodeId::none() });
        if (const auto mark = frameMark(item->owner()))
            item->setMark(*mark);
        addItem(item);
        m_clusters.push_back(item);
    }
    m_nodes.reserve(graph.nodes.size());
    const GraphAdjacency adjacency = graph.adjacency();
    for (std::size_t i = 0; i < graph.nodes.size() && i < layout.nodes.size(); ++i) {
        const auto& geometry = layout.nodes[i];
        auto* item = new NodeItem(
            graph.nodes[i], p.origins[i], p.titles[i], p.subtitles[i], QSizeF(geometry.width, geometry.height));
        item->setPos(geometry.x, geometry.y);
        item->setToolTip(tooltipFor(p, adjacency, i));
        if (const auto mark = m_marks.find(keyOf(p.origins[i])); mark != m_marks.end())
            item->setMark(mark->second);
        if (const auto note = m_notes.find(keyOf(p.origins[i])); note != m_notes.end())
            item->setNote(note->second);
        addItem(item);
        m_nodes.push_back(item);
    }
    m_edges.assign(graph.edges.size(), nullptr);
    for (std::size_t e = 0; e < graph.edges.size() && e < layout.edges.size(); ++e) {
        const auto& geometry = layout.edges[e];
        if (geometry.points.size() < 4)
            continue;
        const QPointF last(geometry.points.back().x, geometry.points.back().y);
        std::optional<QPointF> tip;
        if (geometry.hasArrow)
            tip = QPointF(geometry.arrowTip.x, geometry.arrowTip.y);
        auto* item = new EdgeItem(pathOf(geometry), last, tip, graph.edges[e].inferred, static_cast<int>(e));
        const QString meta = metaText(graph.edges[e].meta);
        item->setToolTip(QStringLiteral("v%1: %2").arg(graph.edges[e].value.value).arg(meta.toHtmlEscaped()));
        addItem(item);
        m_edges[e] = item;
    }
    if (m_edgeLabels)
        setEdgeLabelsVisible(true);
}

namespace {

/// Rectangles already taken on the canvas (boxes, placed labels), bucketed in square cells so
/// that a test looks at a few neighbours only.
class Occupied {
public:
    void add(const QRectF& rect)
    {
        const int index = static_cast<int>(m_rects.size());
        m_rects.push_back(rect);
        forCells(rect, [&](std::int64_t cell) { m_cells[cell].push_back(index); });
    }

    bool intersects(const QRectF& rect) const
    {
        bool hit = false;
        forCells(rect, [&](std::int64_t cell) {
            if (hit)
                return;
            if (const auto it = m_cells.find(cell); it != m_cells.end())
                for (const int index : it->second)
                    if (m_rects[static_cast<std::size_t>(index)].intersects(rect)) {
                        hit = true;
                        return;
                    }
        });
        return hit;
    }

private:
    static constexpr double kCell = 96;

    template <typename F> static void forCells(const QRectF& rect, F&& visit)
    {
        const auto x0 = static_cast<std::int64_t>(std::floor(rect.left() / kCell));
        const auto x1 = static_cast<std::int64_t>(std::floor(rect.right() / kCell));
        const auto y0 = static_cast<std::int64_t>(std::floor(rect.top() / kCell));
        const auto y1 = static_cast<std::int64_t>(std::floor(rect.bottom() / kCell));
        for (std::int64_t x = x0; x <= x1; ++x)
            for (std::int64_t y = y0; y <= y1; ++y)
                visit((x << 32) ^ (y & 0xffffffff));
    }

    std::vector<QRectF> m_rects;
    std::unordered_map<std::int64_t, std::vector<int>> m_cells;
};

} // namespace

void GraphScene::setEdgeLabelsVisible(bool visible)
{
    m_edgeLabels = visible;
    if (!m_presentation)
        return;
    const Graph& graph = m_presentation->flat.graph;
    if (!visible) {
        for (EdgeItem* edge : m_edges)
            if (edge)
                edge->setLabelVisible(QString(), false);
        return;
    }
    // Labels never overlap boxes or each other: each takes the first free place beside its wire
    // (the middle first, then further towards either end, right side then left); one with no
    // free place stays hidden (the wire's tooltip tells it). A value read by several nodes is
    // labelled once, on its first wire: the others leave the same box with the same text.
    // Boxes as laid out, around their centres (an item's bounding rectangle also holds room for
    // badges above it).
    constexpr double kPad = 2;
    Occupied occupied;
    const auto& boxes = m_presentation->layout.nodes;
    for (std::size_t i = 0; i < m_nodes.size() && i < boxes.size(); ++i)
        occupied.add(
            QRectF(boxes[i].x - boxes[i].width / 2, boxes[i].y - boxes[i].height / 2, boxes[i].width, boxes[i].height)
                .adjusted(-kPad, -kPad, kPad, kPad));
    std::set<std::pair<std::int32_t, std::int32_t>> labelled;
    constexpr double kAlong[] = { 0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9 };
    constexpr double kGap = 4;
    for (std::size_t e = 0; e < m_edges.size(); ++e) {
        EdgeItem* item = m_edges[e];
        if (!item)
            continue;
        const Edge& edge = graph.edges[e];
        const QString text = metaText(edge.meta);
        if (text.isEmpty() || !labelled.insert({ edge.from.value, edge.value.value }).second) {
            item->setLabelVisible(QString(), false);
            continue;
        }
        const QSizeF size = EdgeItem::labelSize(text);
        const QPainterPath path = item->mapToScene(item->path());
        std::optional<QRectF> place;
        for (const double along : kAlong) {
            const QPointF at = path.pointAtPercent(along);
            for (const double dx : { kGap, -kGap - size.width() }) {
                const QRectF rect(at + QPointF(dx, -size.height() / 2), size);
                if (!occupied.intersects(rect.adjusted(-kPad, -kPad, kPad, kPad))) {
                    place = rect;
                    break;
                }
            }
            if (place)
                break;
        }
        if (!place) {
            item->setLabelVisible(QString(), false);
            continue;
        }
        occupied.add(*place);
        item->setLabelAt(text, place->topLeft());
    }
}

NodeItem* GraphScene::itemFor(const NodeOrigin& origin) const
{
    if (!m_presentation)
        return nullptr;
    const int index = m_presentation->indexOf(origin);
    return index >= 0 && static_cast<std::size_t>(index) < m_nodes.size() ? m_nodes[static_cast<std::size_t>(index)]
                                                                          : nullptr;
}

void GraphScene::selectNode(const std::optional<NodeOrigin>& origin)
{
    m_quiet = true;
    clearSelection();
    if (origin)
        if (NodeItem* item = itemFor(*origin)) {
            item->setSelected(true);
            // A search hit selected again where it already is changes nothing on screen: still
            // paint once, the paint that ends its search-jump timing.
            if (clicktiming::waitingForSelection())
                item->update();
        }
    m_quiet = false;
    emphasiseEdgesOf(origin && m_presentation ? m_presentation->indexOf(*origin) : -1);
}

std::optional<NodeOrigin> GraphScene::selectedNode() const
{
    for (NodeItem* item : m_nodes)
        if (item->isSelected())
            return item->origin();
    for (ClusterItem* item : m_clusters) // an open delegate or group, by its title band
        if (item->isSelected())
            return item->owner();
    return std::nullopt;
}

void GraphScene::setHighlighted(const std::set<std::pair<int, int>>& origins)
{
    for (NodeItem* item : m_nodes)
        item->setHighlighted(origins.count(keyOf(item->origin())) > 0);
}

int GraphScene::highlightedCount() const
{
    return static_cast<int>(
        std::count_if(m_nodes.begin(), m_nodes.end(), [](NodeItem* item) { return item->highlighted(); }));
}

void GraphScene::setMarks(MarkLayer layer, Marks marks)
{
    if (marks.empty())
        m_layers.erase(layer);
    else
        m_layers[layer] = std::move(marks);
    m_marks.clear();
    for (const auto& [which, layerMarks] : m_layers) // in layer order: later layers win
        for (const auto& [key, mark] : layerMarks)
            m_marks[key] = mark;
    for (NodeItem* item : m_nodes) {
        const auto it = m_marks.find(keyOf(item->origin()));
        item->setMark(it == m_marks.end() ? std::nullopt : std::optional(it->second));
    }
    for (ClusterItem* item : m_clusters)
        item->setMark(frameMark(item->owner()));
}

void GraphScene::setNotes(std::map<std::pair<int, int>, QString> notes)
{
    m_notes = std::move(notes);
    for (NodeItem* item : m_nodes) {
        const auto note = m_notes.find(keyOf(item->origin()));
        item->setNote(note == m_notes.end() ? QString() : note->second);
    }
}

std::optional<NodeMark> GraphScene::frameMark(const NodeOrigin& owner) const
{
    // A delegate's mark says something of the call (Compare: "payload 432 B → 1088 B"); a group's
    // only sums up the marks of the nodes the open frame shows.
    if (owner.group() >= 0)
        return std::nullopt;
    const auto it = m_marks.find(keyOf(owner));
    return it == m_marks.end() ? std::nullopt : std::optional(it->second);
}

void GraphScene::setHeat(const GraphHeat& heat)
{
    for (NodeItem* item : m_nodes) {
        const auto it = heat.find(keyOf(item->origin()));
        if (it == heat.end())
            item->setHeat(std::nullopt);
        else
            item->setHeat(it->second.position, it->second.label, it->second.flagged);
    }
}

void GraphScene::emphasiseEdgesOf(int nodeIndex)
{
    if (!m_presentation)
        return;
    const Graph& graph = m_presentation->flat.graph;
    for (std::size_t e = 0; e < m_edges.size(); ++e) {
        if (!m_edges[e])
            continue;
        const Edge& edge = graph.edges[e];
        m_edges[e]->setEmphasised(nodeIndex >= 0 && (edge.from.value == nodeIndex || edge.to.value == nodeIndex));
    }
}

void GraphScene::onSelectionChanged()
{
    if (m_quiet)
        return;
    const auto selected = selectedNode();
    emphasiseEdgesOf(selected && m_presentation ? m_presentation->indexOf(*selected) : -1);
    if (selected) {
        Q_EMIT nodeSelected(*selected);
        return;
    }
    for (QGraphicsItem* item : selectedItems())
        if (auto* edge = qgraphicsitem_cast<EdgeItem*>(item)) {
            Q_EMIT edgeSelected(edge->index());
            return;
        }
    Q_EMIT selectionCleared();
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        for (QGraphicsItem* item : items(event->scenePos())) {
            if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
                if (node->hasNote() && node->noteRect().contains(node->mapFromScene(event->scenePos()))) {
                    // The node is selected as by any click, then its answer is asked for.
                    const NodeOrigin origin = node->origin();
                    clearSelection();
                    node->setSelected(true);
                    Q_EMIT noteClicked(origin);
                    event->accept();
                    return;
                }
                if (node->canExpand() && node->expandButtonRect().contains(node->mapFromScene(event->scenePos()))) {
                    if (m_presentation)
                        clicktiming::beginOpening(*m_presentation, node->origin());
                    Q_EMIT expandToggled(node->origin());
                    event->accept();
                    return;
                }
                break;
            }
            if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item)) {
                if (cluster->collapseButtonRect().contains(event->scenePos())) {
                    Q_EMIT expandToggled(cluster->owner());
                    event->accept();
                    return;
                }
            }
        }
    }
    QGraphicsScene::mousePressEvent(event);
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    for (QGraphicsItem* item : items(event->scenePos())) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            if (m_presentation)
                beginActivationTiming(*m_presentation, node->origin());
            Q_EMIT nodeActivated(node->origin());
            event->accept();
            return;
        }
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

} // namespace etscope::ui
