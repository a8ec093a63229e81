// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/ids.h"
#include "core/util/result.h"
#include "core/util/sharedvector.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

enum class NodeKind : std::uint8_t {
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

/// A node's attributes, read as (name, value) views into one buffer. A 100,000-instruction
/// LLM has about 1.2 million of them: as two std::strings each (64 bytes and up to two heap
/// blocks) they held 149 MB; packed, one block per node holding the offsets and the text
/// (issue 27: a block of text and another of offsets cost 56 bytes inline and two heap blocks).
class AttributeList {
public:
    struct Entry {
        std::string_view name;
        std::string_view value;
    };
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Entry;
        const_iterator() = default;
        const_iterator(const AttributeList* list, std::size_t index)
            : m_list(list)
            , m_index(index)
        {
        }
        Entry operator*() const { return (*m_list)[m_index]; }
        const_iterator& operator++()
        {
            ++m_index;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++m_index;
            return before;
        }
        bool operator==(const const_iterator& other) const = default;

    private:
        const AttributeList* m_list = nullptr;
        std::size_t m_index = 0;
    };

    void push_back(const Attribute& attribute) { add(attribute.name, attribute.value); }
    void add(std::string_view name, std::string_view value);
    /// Puts an attribute before all others (the instruction index, added last but shown first).
    void addFront(std::string_view name, std::string_view value);
    /// Gives back the spare capacity left by growing (called once the node is complete).
    void shrink();

    std::size_t size() const;
    bool empty() const { return m_data.empty(); }
    Entry operator[](std::size_t index) const;
    Entry back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }
    /// The value of the first attribute of that name, if any.
    std::optional<std::string_view> find(std::string_view name) const;

private:
    std::uint32_t word(std::size_t index) const;
    /// Empty, or: the entry count N, then 2N end offsets (of each name and value, counted from
    /// the start of the text), all std::uint32_t; then name0 value0 name1 value1 … back to back.
    std::string m_data;
};

/// Shape and element type carried by an edge; dtype spelled by the format that defined it
/// ("FLOAT" in programs, "fp32" inside XNNPACK, …). The shape is shared with the value it
/// describes (issue 27: every edge and written value of a method graph held its own copy).
struct TensorMeta {
    std::string dtype;
    SharedVector<std::int64_t> shape;
    bool known() const { return !dtype.empty(); }
};

struct Graph;

/// The inner graph of a delegate node: held, or decoded when first looked at (issue 23/27:
/// the app opens a program without decoding every delegate's inside before its first paint).
///
/// Reads as a `std::shared_ptr<const Graph>`: true when the delegate has an inside (decoded
/// or decodable), `->` and `*` decode a deferred graph on first use. That first use may come
/// from any thread: one decode runs per graph, other callers wait for its result. A deferred
/// decode that yields nothing gives an empty graph (its reason in warnings()).
class SubgraphRef {
public:
    /// Makes the graph when first needed; never throws (a decoder's failure is a warning).
    struct Decoded {
        std::shared_ptr<const Graph> graph;
        std::vector<Warning> warnings; ///< problems found while decoding the inside
    };
    using Decode = std::function<Decoded()>;

    SubgraphRef() = default;
    SubgraphRef(std::nullptr_t) { }
    template <class G>
    SubgraphRef(std::shared_ptr<G> graph) // NOLINT(google-explicit-constructor): reads as the pointer it replaced
        : SubgraphRef(std::shared_ptr<const Graph>(std::move(graph)), 0)
    {
    }
    /// A graph decoded when first asked for, with `operators` operator nodes (known before).
    static SubgraphRef deferred(std::size_t operators, Decode decode);

    explicit operator bool() const { return m_state != nullptr; }
    friend bool operator==(const SubgraphRef& ref, std::nullptr_t) { return !ref; }
    /// The graph, decoded now if it was deferred; nullptr when there is no inside.
    const Graph* get() const;
    const Graph* operator->() const { return get(); }
    const Graph& operator*() const { return *get(); }
    std::shared_ptr<const Graph> shared() const;
    operator std::shared_ptr<const Graph>() const { return shared(); } // NOLINT(google-explicit-constructor)

    /// Whether the graph is there without decoding (false for none and for a pending decode).
    bool decoded() const;
    /// Whether it was deferred (decoded since or not).
    bool deferredDecode() const;
    /// Operator nodes of the graph (Graph::operatorCount()), known without decoding.
    std::size_t operatorCount() const;
    /// Problems found when a deferred graph was decoded (empty before, and for held graphs).
    std::vector<Warning> warnings() const;

private:
    struct State;
    SubgraphRef(std::shared_ptr<const Graph> graph, int);
    std::shared_ptr<State> m_state;
};

/// Fields ordered to leave no padding (issue 27: 150,000 nodes in a 100,000-instruction LLM).
struct Node {
    NodeId id;
    NodeKind kind = NodeKind::Operator;
    bool inferred = false; ///< existence or wiring guessed by a rule, not read
    InstructionId instruction; ///< position in the chain (top level)
    int chain = 0;
    ValueIndex value; ///< Input/Output/Constant/State/View: the value index in its graph
    DelegateIndex delegate; ///< Delegate nodes: index into the method's delegate table
    int argPosition = -1; ///< inner Input/Output: position in the outer DelegateCall's args
    int inputCount = -1; ///< Delegate nodes: how many leading args are inputs
    std::string label; ///< text in the box
    std::string opType; ///< the operator-table key ("aten::add.out", "XNNFullyConnected"); empty for non-ops
    std::optional<DebugHandle> debugHandle; ///< AOT debug handle when the format stores it
    /// Inner nodes: the backend's own id for runtime events (Vulkan OperatorCall.node_id, facts §2.3),
    /// matched against ETDump's delegate_debug_id_int.
    std::optional<std::int64_t> delegateDebugId;
    std::vector<std::int32_t> args; ///< Operator/Delegate at the top level: the instruction's argument values
    /// Operator/Delegate at the top level: the values the instruction writes (facts sheet §1.7)
    /// with their type and shape, in order — also those no other node reads, which no edge carries.
    std::vector<std::pair<std::int32_t, TensorMeta>> writes;
    AttributeList attributes;
    SubgraphRef subgraph; ///< Delegate nodes whose payload is decoded (or decodable: on first use)
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
