// SPDX-License-Identifier: MIT
#include "core/delegates/innercheck.h"
#include "core/delegates/ethosuflow.h"

namespace etscope::core {

InnerGraphCheck checkInnerGraph(const Graph& graph)
{
    InnerGraphCheck check;
    const std::size_t nodes = graph.nodes.size();
    std::vector<bool> produced(nodes, false);
    for (std::size_t i = 0; i < graph.edges.size(); ++i) {
        const Edge& edge = graph.edges[i];
        ++check.edges;
        const bool from = edge.from.valid() && edge.from.index() < nodes;
        const bool to = edge.to.valid() && edge.to.index() < nodes;
        if (!from || !to) {
            const auto name = [](NodeId id) { return id.valid() ? std::to_string(id.index()) : std::string("none"); };
            check.problems.push_back("edge " + std::to_string(i) + " runs between nodes the graph does not have ("
                + name(edge.from) + " → " + name(edge.to) + ", of " + std::to_string(nodes) + ")");
            continue;
        }
        if (edge.from == edge.to)
            check.problems.push_back("edge " + std::to_string(i) + " runs from node "
                + std::to_string(edge.from.index()) + " (" + graph.node(edge.from).label + ") to itself");
        produced[edge.to.index()] = true;
    }
    for (std::size_t i = 0; i < nodes; ++i) {
        const Node& node = graph.nodes[i];
        if (node.id.index() != i)
            check.problems.push_back("node " + std::to_string(i) + " (" + node.label + ") carries the id "
                + std::to_string(node.id.index()));
        if (node.kind != NodeKind::Output)
            continue;
        ++check.outputs;
        if (!produced[i])
            check.problems.push_back("output node " + std::to_string(i) + " (" + node.label + ") has no producer");
    }
    return check;
}

InnerGraphCheck checkDelegateInnerGraph(const Program& program, const DelegateRef& ref, const DelegateInfo& info)
{
    InnerGraphCheck check;
    const Graph* graph = info.innerGraph.get();
    if (!graph)
        return check;
    check = checkInnerGraph(*graph);
    if (info.format == "ethos-u" && program.file) {
        const ethosu::FlowCheck flow = ethosu::checkDataFlow(program, ref, program.bytes(ref.payload));
        check.reads = flow.reads;
        check.readBytes = flow.readBytes;
        if (!flow.decoded)
            check.problems.emplace_back("the Ethos-U command stream did not decode again for the check");
        for (const std::string& text : flow.uncovered)
            check.problems.push_back(text);
        if (flow.uncoveredReads > flow.uncovered.size())
            check.problems.push_back(std::to_string(flow.uncoveredReads - flow.uncovered.size())
                + " further reads of bytes nothing wrote before them");
        for (const std::string& text : flow.unwrittenOutputs)
            check.problems.push_back(text);
    }
    return check;
}

} // namespace etscope::core
