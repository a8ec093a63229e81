// SPDX-License-Identifier: MIT
#pragma once

#include "util/ids.h"
#include "util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

enum class NodeKind {
    Input, ///< a method input (or a delegate's external input, inside an inner graph)
    Output, ///< a method output (or a delegate's external output)
    Constant, ///< a tensor whose bytes are stored (program, named data, .ptd, delegate constants)
    State, ///< a memory-planned tensor with an initial value (mutable buffer / trainable weight)
    Operator, ///< a kernel call, or a backend node inside a delegate
    Delegate, ///< a DelegateCall; may own the decoded inner graph
    Move,
    JumpFalse,
    Free,
    View, ///< a tensor read but never produced: an elided static view or a placeholder
    Unknown, ///< an instruction of a type this build does not know
    Group, ///< a run of instructions of a long method drawn as one box (flattened graphs only)
};

std::string_view nodeKindName(NodeKind kind);

/// A labelled fact shown in properties panels and JSON (parameter, header field, …).
struct Attribute {
    std::string name;
    std::string value;
};

/// Shape and element type carried by an edge; dtype spelled by the format that defined it
/// ("FLOAT" in programs, "fp32" inside XNNPACK, …).
struct TensorMeta {
    std::string dtype;
    std::vector<std::int64_t> shape;
    bool known() const { return !dtype.empty(); }
};

struct Graph;

struct Node {
    NodeId id;
    NodeKind kind = NodeKind::Operator;
    std::string label; ///< text in the box
    std::string opType; ///< the operator-table key ("aten::add.out", "XNNFullyConnected"); empty for non-ops
    InstructionId instruction; ///< position in the chain (top level)
    int chain = 0;
    ValueIndex value; ///< Input/Output/Constant/State/View: the value index in its graph
    DelegateIndex delegate; ///< Delegate nodes: index into the method's delegate table
    int argPosition = -1; ///< inner Input/Output: position in the outer DelegateCall's args
    std::optional<std::uint32_t> debugHandle; ///< AOT debug handle when the format stores it
    /// Inner nodes: the backend's own id for runtime events (Vulkan OperatorCall.node_id, facts §2.3),
    /// matched against ETDump's delegate_debug_id_int.
    std::optional<std::int64_t> delegateDebugId;
    bool inferred = false; ///< existence or wiring guessed by a rule, not read
    std::vector<std::int32_t> args; ///< Operator/Delegate at the top level: the instruction's argument values
    /// Operator/Delegate at the top level: the values the instruction writes (facts sheet §1.7)
    /// with their type and shape, in order — also those no other node reads, which no edge carries.
    std::vector<std::pair<std::int32_t, TensorMeta>> writes;
    int inputCount = -1; ///< Delegate nodes: how many leading args are inputs
    std::vector<Attribute> attributes;
    std::shared_ptr<const Graph> subgraph; ///< Delegate nodes whose payload was decoded
};

struct Edge {
    NodeId from;
    NodeId to;
    ValueIndex value; ///< the value carried (index in the graph's own value space)
    TensorMeta meta;
    bool inferred = false; ///< wiring guessed (delegate output split, re-attached view)
};

/// Edge indices per node, for walking large graphs in linear time.
struct GraphAdjacency {
    std::vector<std::vector<std::size_t>> in; ///< per node: indices of edges ending there
    std::vector<std::vector<std::size_t>> out; ///< per node: indices of edges starting there
};

/// A data-flow graph: a method's top level, or the inside of a delegate.
struct Graph {
    std::string name; ///< method name, or "<backend> #<delegate index>"
    std::string backendId; ///< inner graphs: the backend
    std::string format; ///< inner graphs: "xnnpack", "vulkan"
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Warning> warnings;

    NodeId addNode(Node node);
    void addEdge(Edge edge);
    const Node& node(NodeId id) const { return nodes[id.index()]; }
    Node& node(NodeId id) { return nodes[id.index()]; }
    /// Edges of one node (a scan of all edges: use adjacency() when walking every node).
    std::vector<const Edge*> inEdges(NodeId id) const;
    std::vector<const Edge*> outEdges(NodeId id) const;
    GraphAdjacency adjacency() const;
    /// Operator nodes (kind Operator), counting recursively into subgraphs when asked.
    std::size_t operatorCount(bool recursive = false) const;
};

} // namespace etscope::core
