// SPDX-License-Identifier: MIT
#include "core/graph/flatten.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace etscope::core {

namespace {

/// Inner port for the outer argument position; falls back to the n-th port of that kind when
/// positions are missing (then the connection is marked inferred).
NodeId innerPort(const Graph& inner, NodeKind kind, int position, int ordinal, bool& inferred)
{
    for (const Node& node : inner.nodes)
        if (node.kind == kind && node.argPosition == position)
            return node.id;
    int seen = 0;
    for (const Node& node : inner.nodes) {
        if (node.kind != kind)
            continue;
        if (seen++ == ordinal) {
            inferred = true;
            return node.id;
        }
    }
    return NodeId::none();
}

bool isScalarMeta(const TensorMeta& meta)
{
    // Non-tensor values carry their value kind as dtype (valueMeta): "Int", "Double", "Bool".
    return meta.shape.empty() && (meta.dtype == "Int" || meta.dtype == "Double" || meta.dtype == "Bool");
}

/// Elements of a known tensor read, or kSmallConstantElements + 1 when unknown or larger.
std::int64_t readElements(const TensorMeta& meta)
{
    if (!meta.known())
        return kSmallConstantElements + 1;
    std::int64_t elements = 1;
    for (const std::int64_t d : meta.shape)
        elements = d < 0 || elements > kSmallConstantElements ? kSmallConstantElements + 1 : elements * d;
    return elements;
}

/// How a value is drawn beside each of its readers.
enum class PerReader : std::uint8_t {
    No,
    Constant, ///< not drawn where it is stored: one copy per reader
    Computed, ///< drawn once where it is computed (with its inputs), and one copy per reader
};

/// Per node: whether it is drawn beside each reader. Constants with at least `constantAbove`
/// readers, and scalars (computed, or constants of at most kSmallConstantElements elements)
/// with at least `scalarAbove` readers (0: none of that kind).
std::vector<PerReader> perReaderValues(const Graph& graph, int constantAbove, int scalarAbove)
{
    std::vector<PerReader> perReader(graph.nodes.size(), PerReader::No);
    if (constantAbove <= 0 && scalarAbove <= 0)
        return perReader;
    std::vector<int> readers(graph.nodes.size(), 0);
    std::vector<bool> small(graph.nodes.size(), true);
    std::vector<bool> scalar(graph.nodes.size(), true);
    for (const Edge& edge : graph.edges) {
        const std::size_t from = edge.from.index();
        ++readers[from];
        small[from] = small[from] && readElements(edge.meta) <= kSmallConstantElements;
        scalar[from] = scalar[from] && isScalarMeta(edge.meta);
    }
    for (const Node& node : graph.nodes) {
        const std::size_t i = node.id.index();
        const int count = readers[i];
        if (node.kind == NodeKind::Constant) {
            if ((constantAbove > 0 && count >= constantAbove) || (scalarAbove > 0 && count >= scalarAbove && small[i]))
                perReader[i] = PerReader::Constant;
        } else if (node.kind == NodeKind::Operator && scalarAbove > 0 && count >= scalarAbove && scalar[i]) {
            perReader[i] = PerReader::Computed;
        }
    }
    return perReader;
}

/// Per node: a constant whose every read is a known tensor of at most kSmallConstantElements
/// elements (drawn inside its readers when asked).
std::vector<bool> smallConstants(const Graph& graph, bool wanted)
{
    std::vector<bool> small(graph.nodes.size(), false);
    if (!wanted)
        return small;
    std::vector<int> state(graph.nodes.size(), 0); // 0 unread, 1 small so far, -1 not small
    for (const Edge& edge : graph.edges) {
        int& s = state[edge.from.index()];
        if (s < 0)
            continue;
        s = readElements(edge.meta) <= kSmallConstantElements ? 1 : -1;
    }
    for (const Node& node : graph.nodes)
        small[node.id.index()] = node.kind == NodeKind::Constant && state[node.id.index()] == 1;
    return small;
}

/// How an inlined constant reads inside its reader: "const 2: fp32 [8]".
std::string inlinedText(const Node& node, const TensorMeta& meta)
{
    std::string shape = "[";
    for (std::size_t i = 0; i < meta.shape.size(); ++i)
        shape += (i ? ", " : "") + std::to_string(meta.shape[i]);
    return node.label + ": " + meta.dtype + " " + shape + "]";
}

/// Builds the flattened graph node by node; edges are added once every node has its place.
class Flattener {
public:
    Flattener(const Graph& top, const FlattenOptions& options)
        : m_top(top)
        , m_options(options)
        , m_topMap(top.nodes.size())
    {
        m_flat.graph.name = top.name;
        m_flat.graph.warnings = top.warnings;
        if (options.grouping && !options.grouping->empty()) {
            m_groupNode.assign(options.grouping->groups.size(), NodeId::none());
            m_groupCluster.assign(options.grouping->groups.size(), -1);
        }
        m_perReader = perReaderValues(top, options.constantPerReaderAbove, options.scalarPerReaderAbove);
        m_small = smallConstants(top, options.inlineSmallConstants);
    }

    FlatGraph run()
    {
        for (const Node& node : m_top.nodes)
            place(node);
        for (std::size_t e = 0; e < m_top.edges.size(); ++e)
            connect(m_top.edges[e], e);
        return std::move(m_flat);
    }

private:
    int groupOf(const Node& node) const { return m_options.grouping ? m_options.grouping->groupOfNode(node.id) : -1; }

    NodeId add(Node node, NodeOrigin origin, int cluster)
    {
        const NodeId id = m_flat.graph.addNode(std::move(node));
        m_flat.origins.push_back(origin);
        m_flat.nodeCluster.push_back(cluster);
        m_flat.inlined.emplace_back();
        m_flat.copies.push_back(false);
        if (cluster >= 0)
            m_flat.clusters[static_cast<std::size_t>(cluster)].members.push_back(id);
        return id;
    }

    /// The cluster of an open group, created when its first member is placed.
    int groupCluster(int group)
    {
        int& cluster = m_groupCluster[static_cast<std::size_t>(group)];
        if (cluster < 0) {
            Cluster frame;
            frame.group = group;
            frame.label = groupLabel(m_options.grouping->groups[static_cast<std::size_t>(group)]);
            cluster = static_cast<int>(m_flat.clusters.size());
            m_flat.clusters.push_back(std::move(frame));
        }
        return cluster;
    }

    void place(const Node& node)
    {
        if (m_perReader[node.id.index()] == PerReader::Constant || m_small[node.id.index()])
            return; // drawn beside each reader (constantCopy) or inside it (connect)
        const int group = groupOf(node);
        if (group >= 0 && !m_options.openGroup(group)) {
            NodeId& box = m_groupNode[static_cast<std::size_t>(group)];
            if (!box.valid()) {
                const NodeGroup& facts = m_options.grouping->groups[static_cast<std::size_t>(group)];
                Node groupNode;
                groupNode.kind = NodeKind::Group;
                groupNode.label = groupLabel(facts);
                groupNode.instruction = facts.first;
                groupNode.chain = facts.chain;
                box = add(std::move(groupNode), NodeOrigin::ofGroup(group), -1);
            }
            m_topMap[node.id.index()] = box;
            return;
        }
        const int parent = group >= 0 ? groupCluster(group) : -1;
        const bool expanded = node.kind == NodeKind::Delegate && node.subgraph && m_options.expand(node);
        if (!expanded) {
            Node copy = node;
            m_topMap[node.id.index()] = add(std::move(copy), { node.id, NodeId::none() }, parent);
            return;
        }
        placeExpanded(node, parent);
    }

    /// An expanded delegate: its inner nodes in a cluster (inside `parent`, an open group).
    void placeExpanded(const Node& node, int parent)
    {
        Cluster frame;
        frame.owner = node.id;
        frame.parent = parent;
        frame.label = node.label + " #" + std::to_string(node.delegate.value);
        const int cluster = static_cast<int>(m_flat.clusters.size());
        m_flat.clusters.push_back(std::move(frame));
        std::vector<NodeId>& ids = m_innerMap[node.id.value];
        // Inside a delegate only stored values are copied: a backend's scalar nodes stay whole.
        const std::vector<PerReader> perReader
            = perReaderValues(*node.subgraph, m_options.constantPerReaderAbove, m_options.scalarPerReaderAbove);
        const std::vector<bool> small = smallConstants(*node.subgraph, m_options.inlineSmallConstants);
        for (const Node& inner : node.subgraph->nodes) {
            Node copy = inner;
            copy.subgraph = nullptr;
            ids.push_back(perReader[inner.id.index()] == PerReader::Constant || small[inner.id.index()]
                    ? NodeId::none()
                    : add(std::move(copy), { node.id, inner.id }, cluster));
        }
        for (const Edge& edge : node.subgraph->edges) {
            if (small[edge.from.index()]) {
                if (const NodeId to = ids[edge.to.index()]; to.valid())
                    m_flat.inlined[to.index()].push_back(inlinedText(node.subgraph->node(edge.from), edge.meta));
                continue;
            }
            NodeId from = ids[edge.from.index()];
            if (!from.valid()) {
                Node copy = node.subgraph->node(edge.from);
                from = add(std::move(copy), { node.id, edge.from }, cluster);
                m_flat.copies[from.index()] = true;
            }
            m_flat.graph.addEdge({ from, ids[edge.to.index()], edge.value, edge.meta, edge.inferred });
        }
    }

    /// A constant read by another group than its own is drawn again inside each group that
    /// reads it: its value needs no wire across the program (a scale shared by every layer
    /// would otherwise pull an edge into every group).
    /// A constant first read in another group is drawn again in each group that reads it; one
    /// read by many nodes (constantPerReaderAbove) once beside each reader.
    std::optional<NodeId> constantCopy(const Node& from, const Node& to, std::size_t edgeIndex)
    {
        const int fromGroup = groupOf(from);
        const int toGroup = groupOf(to);
        const bool everyReader = perReader(from);
        if (!everyReader && (from.kind != NodeKind::Constant || fromGroup < 0 || toGroup < 0 || fromGroup == toGroup))
            return std::nullopt;
        if (toGroup >= 0 && !m_options.openGroup(toGroup))
            return NodeId::none(); // the closed group holds its own copy: no edge
        // Keyed by group, or by edge (negative) for a copy per reader.
        const int slot = everyReader ? -1 - static_cast<int>(edgeIndex) : toGroup;
        const auto [it, inserted] = m_constantCopies.try_emplace({ from.id.value, slot });
        if (inserted) {
            Node copy = from;
            copy.instruction = InstructionId::none(); // a value, not the instruction again
            it->second = add(std::move(copy), { from.id, NodeId::none() }, toGroup >= 0 ? groupCluster(toGroup) : -1);
            m_flat.copies[it->second.index()] = true;
        }
        return it->second;
    }

    bool perReader(const Node& node) const
    {
        return node.id.index() < m_perReader.size() && m_perReader[node.id.index()] != PerReader::No;
    }

    void connect(const Edge& edge, std::size_t edgeIndex)
    {
        // Both ends inside one closed group: the edge vanishes in its box (as below), decided
        // before the copy, which at 100k instructions was a third of a click's graph phase.
        if (const NodeId box = m_topMap[edge.from.index()];
            box.valid() && box == m_topMap[edge.to.index()] && m_flat.graph.node(box).kind == NodeKind::Group)
            return;
        Edge copy = edge;
        copy.from = m_topMap[edge.from.index()];
        copy.to = m_topMap[edge.to.index()];
        const Node& from = m_top.node(edge.from);
        const Node& to = m_top.node(edge.to);
        const bool small = m_small[from.id.index()];
        if (const auto local = small ? std::nullopt : constantCopy(from, to, edgeIndex)) {
            if (!local->valid())
                return;
            copy.from = *local;
        }
        if (const auto it = m_innerMap.find(to.id.value); it != m_innerMap.end()) {
            const auto pos = std::find(to.args.begin(), to.args.end(), edge.value.value);
            const int position = pos == to.args.end() ? -1 : static_cast<int>(pos - to.args.begin());
            bool inferred = position < 0;
            const NodeId port = innerPort(*to.subgraph, NodeKind::Input, position, std::max(position, 0), inferred);
            if (!port.valid())
                return;
            copy.to = it->second[port.index()];
            copy.inferred = copy.inferred || inferred;
        }
        if (const auto it = m_innerMap.find(from.id.value); it != m_innerMap.end()) {
            const auto pos = std::find(from.args.rbegin(), from.args.rend(), edge.value.value);
            const int position = pos == from.args.rend() ? -1 : static_cast<int>(from.args.rend() - pos - 1);
            const int ordinal = std::max(0, position - std::max(0, from.inputCount));
            bool inferred = position < 0;
            const NodeId port = innerPort(*from.subgraph, NodeKind::Output, position, ordinal, inferred);
            if (!port.valid())
                return;
            copy.from = it->second[port.index()];
            copy.inferred = copy.inferred || inferred;
        }
        if (small) {
            if (copy.to.valid() && m_flat.graph.node(copy.to).kind != NodeKind::Group)
                m_flat.inlined[copy.to.index()].push_back(inlinedText(from, edge.meta));
            return;
        }
        // A closed group is one box: edges inside it vanish, parallel edges to it are drawn once.
        const bool grouped = m_flat.graph.node(copy.from).kind == NodeKind::Group
            || m_flat.graph.node(copy.to).kind == NodeKind::Group;
        if (grouped && (copy.from == copy.to || !m_groupEdges.insert({ copy.from.value, copy.to.value }).second))
            return;
        m_flat.graph.addEdge(std::move(copy));
    }

    const Graph& m_top;
    const FlattenOptions& m_options;
    FlatGraph m_flat;
    std::vector<NodeId> m_topMap; ///< top-level node → flat node (its group's box when closed)
    std::map<std::int32_t, std::vector<NodeId>> m_innerMap; ///< expanded delegate → inner id → flat id
    std::vector<NodeId> m_groupNode; ///< closed group → its box
    std::vector<int> m_groupCluster; ///< open group → its cluster
    std::set<std::pair<std::int32_t, std::int32_t>> m_groupEdges;
    /// (constant, group) or (constant, −1 − edge) → its copy
    std::map<std::pair<std::int32_t, int>, NodeId> m_constantCopies;
    std::vector<PerReader> m_perReader; ///< values drawn beside each reader
    std::vector<bool> m_small; ///< constants drawn inside their readers
};

} // namespace

int FlatGraph::clusterOf(NodeId node) const
{
    return node.valid() && node.index() < nodeCluster.size() ? nodeCluster[node.index()] : -1;
}

FlatGraph flattenGraph(const Graph& top, const FlattenOptions& options)
{
    return Flattener(top, options).run();
}

FlatGraph flattenGraph(const Graph& top, const std::function<bool(const Node&)>& expand)
{
    FlattenOptions options;
    options.expand = expand;
    return flattenGraph(top, options);
}

} // namespace etscope::core
