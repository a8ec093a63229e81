// SPDX-License-Identifier: MIT
// Matching one method's nodes in two programs (methodmatcher.h); the moves across delegate
// boundaries are in methodmoves.cpp.
#include "core/analysis/methodmatcher.h"
#include "core/analysis/diffalignment.h"
#include "core/util/text.h"

#include <algorithm>
#include <set>

namespace etscope::core::diff {

namespace {

bool isInstructionNode(const Node& node)
{
    switch (node.kind) {
    case NodeKind::Operator:
    case NodeKind::Delegate:
    case NodeKind::Move:
    case NodeKind::JumpFalse:
    case NodeKind::Free:
    case NodeKind::Unknown:
    case NodeKind::Group:
        return true;
    default:
        return false;
    }
}

std::string token(const Node& node)
{
    if (node.kind == NodeKind::Operator)
        return node.opType;
    if (node.kind == NodeKind::Delegate)
        return "delegate " + node.label;
    return std::string(nodeKindName(node.kind));
}

/// Empty when the signatures agree; else the first difference: "input 0: FLOAT [3] planned → FLOAT [1] planned".
std::string describeDifference(const std::vector<Side::Part>& a, const std::vector<Side::Part>& b)
{
    int inputs = 0, outputs = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const int position = a[i].output ? outputs++ : inputs++;
        if (a[i] == b[i])
            continue;
        return std::string(a[i].output ? "output " : "input ") + std::to_string(position) + ": " + a[i].text() + " → "
            + (b[i].output != a[i].output ? (b[i].output ? "output " : "input ") : "") + b[i].text();
    }
    if (a.size() != b.size())
        return std::to_string(a.size()) + " inputs and outputs → " + std::to_string(b.size());
    return {};
}

/// Why two payloads of the same size differ ("payload content differs in 677452 of 1331456 bytes,
/// first at payload offset 296"), or empty when they hold the same bytes. A payload that lies
/// outside its file (damaged) is empty and compares equal only to an empty one.
std::string payloadContentDifference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b)
{
    if (a.size() != b.size())
        return "payload content unreadable in " + std::string(a.empty() ? "A" : "B");
    const ByteDifference difference = differingBytes(a, b);
    if (!difference.count)
        return {};
    return "payload content differs in " + std::to_string(difference.count) + " of " + std::to_string(a.size())
        + " bytes, first at payload offset " + std::to_string(*difference.first);
}

} // namespace

/// The execution order of the nodes that run: top level by (chain, instruction); inside a
/// delegate the operator nodes in the payload's order, which is its data-flow order.
std::vector<NodeId> executionOrder(const Graph& graph, bool topLevel)
{
    std::vector<NodeId> order;
    for (const Node& node : graph.nodes)
        if (topLevel ? isInstructionNode(node) : node.kind == NodeKind::Operator)
            order.push_back(node.id);
    if (topLevel)
        std::stable_sort(order.begin(), order.end(), [&](NodeId x, NodeId y) {
            const Node& a = graph.node(x);
            const Node& b = graph.node(y);
            return a.chain != b.chain ? a.chain < b.chain : a.instruction < b.instruction;
        });
    return order;
}

std::string metaText(const TensorMeta& meta)
{
    return meta.known() ? meta.dtype + " " + formatShape(meta.shape) : "?";
}

ByteDifference differingBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b)
{
    ByteDifference difference;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] != b[i]) {
            ++difference.count;
            if (!difference.first)
                difference.first = i;
        }
    return difference;
}

MethodMatcher::MethodMatcher(const Method* methodA, const Graph* graphA, const Method* methodB, const Graph* graphB,
    const DiffOptions& options, MethodDiff& out)
    : m_options(options)
    , m_out(out)
{
    init(m_a, methodA, graphA);
    init(m_b, methodB, graphB);
}

MethodMatcher& MethodMatcher::withPrograms(const Program& a, const Program& b)
{
    if (a.file && b.file) {
        m_a.program = &a;
        m_b.program = &b;
    }
    return *this;
}

void MethodMatcher::run()
{
    matchEnds(NodeKind::Input);
    matchEnds(NodeKind::Output);
    matchInstructions();
    // Grows while it runs (constants of constants do not exist, so it ends): an index loop,
    // and each pair copied before matchReads appends to m_pairs (which may reallocate).
    for (std::size_t i = 0; i < m_pairs.size(); ++i) { // NOLINT(modernize-loop-convert): m_pairs grows
        const auto [a, b] = m_pairs[i];
        matchReads(a, b);
    }
    leftovers();
}

void MethodMatcher::init(Side& side, const Method* method, const Graph* graph)
{
    side.method = method;
    side.graph = graph;
    if (!graph)
        return;
    side.adjacency = graph->adjacency();
    side.used.assign(graph->nodes.size(), false);
    side.order = executionOrder(*graph, true);
}

void MethodMatcher::add(const DiffNodeRef& a, const DiffNodeRef& b, Movement movement, std::string reason)
{
    m_a.markUsed(a);
    m_b.markUsed(b);
    NodeMatch match { a, b, MatchStatus::Same, movement, std::move(reason) };
    if (movement == Movement::None && match.reason.empty())
        match.reason = describeDifference(m_a.signature(a), m_b.signature(b));
    if (!match.reason.empty())
        match.status = MatchStatus::Changed;
    m_out.matches.push_back(std::move(match));
    m_pairs.emplace_back(a, b);
}

std::map<std::string, std::deque<NodeId>>& MethodMatcher::familiesOf(const Side& side, NodeId delegate)
{
    auto& cache = &side == &m_a ? m_familiesA : m_familiesB;
    auto it = cache.find(delegate.value);
    if (it == cache.end()) {
        const Graph& inner = *side.graph->node(delegate).subgraph;
        std::map<std::string, std::deque<NodeId>> families;
        for (const NodeId id : executionOrder(inner, false))
            families[operatorFamily(inner.node(id).opType)].push_back(id);
        it = cache.emplace(delegate.value, std::move(families)).first;
    }
    return it->second;
}

void MethodMatcher::matchEnds(NodeKind kind)
{
    if (!m_a.graph || !m_b.graph)
        return;
    std::map<int, NodeId> inB;
    for (const Node& node : m_b.graph->nodes)
        if (node.kind == kind)
            inB.emplace(node.argPosition, node.id);
    for (const Node& node : m_a.graph->nodes)
        if (node.kind == kind)
            if (const auto it = inB.find(node.argPosition); it != inB.end())
                add({ node.id, {} }, { it->second, {} });
}

std::vector<DebugHandle> MethodMatcher::handlesOf(const Side& side, NodeId id) const
{
    const ETRecord* record = &side == &m_a ? m_options.recordA : m_options.recordB;
    const Node& node = side.graph->node(id);
    if (!useHandles() || node.chain != 0 || !node.instruction.valid())
        return {};
    return normalised(record->handlesOf(m_out.name, node.instruction.value));
}

std::vector<DebugHandle> MethodMatcher::innerHandlesOf(const Side& side, NodeId delegate, NodeId id) const
{
    const ETRecord* record = &side == &m_a ? m_options.recordA : m_options.recordB;
    const Node& call = side.graph->node(delegate);
    const Node& node = call.subgraph->node(id);
    if (!useHandles() || call.chain != 0 || !call.instruction.valid())
        return {};
    std::optional<std::int64_t> identifier = node.delegateDebugId;
    if (!identifier && node.debugHandle)
        identifier = node.debugHandle->value;
    if (identifier)
        if (auto handles = record->delegateHandles(m_out.name, call.instruction.value, std::to_string(*identifier)))
            return normalised(std::move(*handles));
    if (node.debugHandle)
        return { *node.debugHandle };
    return {};
}

void MethodMatcher::matchInstructions()
{
    if (!m_a.graph || !m_b.graph) {
        m_out.matching = "none";
        return;
    }
    std::vector<std::string> tokensA, tokensB;
    std::vector<std::vector<DebugHandle>> handlesA, handlesB;
    std::vector<int> kindsA, kindsB;
    for (const NodeId id : m_a.order) {
        tokensA.push_back(token(m_a.graph->node(id)));
        handlesA.push_back(handlesOf(m_a, id));
        kindsA.push_back(static_cast<int>(m_a.graph->node(id).kind));
    }
    for (const NodeId id : m_b.order) {
        tokensB.push_back(token(m_b.graph->node(id)));
        handlesB.push_back(handlesOf(m_b, id));
        kindsB.push_back(static_cast<int>(m_b.graph->node(id).kind));
    }
    const AnchoredAlignment alignment
        = alignWithAnchors(tokensA, tokensB, handlesA, handlesB, kindsA, kindsB, m_options.maxAlignCells);
    const auto& pairs = alignment.pairs;
    const bool aligned = alignment.aligned;
    if (alignment.anchors.empty())
        m_out.matching = aligned ? "aligned" : "rank";
    else if (alignment.anchors.size() == pairs.size() + alignment.crossing.size())
        m_out.matching = "debug handles";
    else
        m_out.matching = aligned ? "debug handles + aligned" : "debug handles + rank";
    const auto matchPair = [&](std::size_t i, std::size_t j) {
        const NodeId a = m_a.order[i];
        const NodeId b = m_b.order[j];
        const bool anchor = alignment.anchors.count({ i, j }) > 0;
        const std::size_t index = m_out.matches.size();
        const Node& na = m_a.graph->node(a);
        const Node& nb = m_b.graph->node(b);
        if (na.kind == NodeKind::Delegate)
            matchDelegates(a, b);
        else
            add({ a, {} }, { b, {} }, Movement::None,
                tokensA[i] != tokensB[j] ? "operator " + (na.opType.empty() ? tokensA[i] : na.opType) + " → "
                        + (nb.opType.empty() ? tokensB[j] : nb.opType)
                                         : std::string());
        if (anchor)
            m_out.matches[index].byDebugHandle = true;
    };
    for (const auto& [i, j] : alignment.crossing)
        matchPair(i, j);
    for (const auto& [i, j] : pairs)
        matchPair(i, j);
    if (!aligned) {
        // No order to rely on: any operator may have moved into any delegate.
        pairAcrossBackends(0, m_a.order.size(), 0, m_b.order.size());
        moveBetween(0, m_a.order.size(), 0, m_b.order.size(), std::nullopt, std::nullopt);
        return;
    }
    // Operators that left the top level between two aligned anchors went into a delegate of
    // the other side between the same anchors (or into one of the anchors, when it is one).
    std::size_t ia = 0, jb = 0;
    std::optional<std::pair<std::size_t, std::size_t>> before;
    for (std::size_t k = 0; k <= pairs.size(); ++k) {
        const std::size_t endA = k < pairs.size() ? pairs[k].first : m_a.order.size();
        const std::size_t endB = k < pairs.size() ? pairs[k].second : m_b.order.size();
        const std::optional<std::pair<std::size_t, std::size_t>> after
            = k < pairs.size() ? std::optional(pairs[k]) : std::nullopt;
        if (endA > ia && endB > jb)
            pairAcrossBackends(ia, endA, jb, endB);
        if (endA > ia || endB > jb)
            moveBetween(ia, endA, jb, endB, before, after);
        if (k < pairs.size()) {
            ia = endA + 1;
            jb = endB + 1;
            before = pairs[k];
        }
    }
}

void MethodMatcher::pairAcrossBackends(std::size_t fromA, std::size_t toA, std::size_t fromB, std::size_t toB)
{
    const auto unused = [](const Side& side, std::size_t from, std::size_t to, NodeKind kind) {
        std::vector<NodeId> list;
        for (std::size_t k = from; k < to; ++k)
            if (const NodeId id = side.order[k]; !side.used[id.index()] && side.graph->node(id).kind == kind)
                list.push_back(id);
        return list;
    };
    const std::vector<NodeId> delegatesA = unused(m_a, fromA, toA, NodeKind::Delegate);
    const std::vector<NodeId> delegatesB = unused(m_b, fromB, toB, NodeKind::Delegate);
    for (std::size_t k = 0; k < delegatesA.size() && k < delegatesB.size(); ++k)
        if (m_a.graph->node(delegatesA[k]).label != m_b.graph->node(delegatesB[k]).label)
            matchDelegates(delegatesA[k], delegatesB[k]);
    std::map<std::string, std::deque<NodeId>> familiesB;
    for (const NodeId id : unused(m_b, fromB, toB, NodeKind::Operator))
        familiesB[operatorFamily(m_b.graph->node(id).opType)].push_back(id);
    for (const NodeId id : unused(m_a, fromA, toA, NodeKind::Operator)) {
        const Node& na = m_a.graph->node(id);
        const auto it = familiesB.find(operatorFamily(na.opType));
        if (it == familiesB.end() || it->second.empty())
            continue;
        const Node& nb = m_b.graph->node(it->second.front());
        it->second.pop_front();
        add({ id, {} }, { nb.id, {} }, Movement::None,
            na.opType != nb.opType ? "operator " + na.opType + " → " + nb.opType : std::string());
    }
}

void MethodMatcher::matchDelegates(NodeId a, NodeId b)
{
    const Node& da = m_a.graph->node(a);
    const Node& db = m_b.graph->node(b);
    // Another backend: its inner nodes have other names for the same operations, aligned by
    // operator family (Ethos-U's "Add" and VGF's "TOSA ADD").
    const bool otherBackend = da.label != db.label;
    std::string reason = otherBackend ? "backend " + da.label + " → " + db.label : std::string();
    const auto payload = [](const Side& side, const Node& node) -> ByteRange {
        if (!side.method || !node.delegate.valid() || node.delegate.index() >= side.method->delegates.size())
            return {};
        return side.method->delegates[node.delegate.index()].payload;
    };
    const ByteRange pa = payload(m_a, da), pb = payload(m_b, db);
    const auto append = [&reason](const std::string& text) {
        if (!text.empty())
            reason += (reason.empty() ? "" : "; ") + text;
    };
    bool payloadsDiffer = pa.size != pb.size;
    if (pa.size != pb.size)
        append("payload " + std::to_string(pa.size) + " B → " + std::to_string(pb.size) + " B");
    else if (pa.size > 0 && m_a.program && m_b.program) {
        std::string content = payloadContentDifference(m_a.program->bytes(pa), m_b.program->bytes(pb));
        payloadsDiffer = !content.empty();
        append(content);
    }
    const std::size_t na = da.subgraph ? da.subgraph->operatorCount() : 0;
    const std::size_t nb = db.subgraph ? db.subgraph->operatorCount() : 0;
    if (na != nb)
        reason += (reason.empty() ? "" : "; ") + std::string("inner nodes ") + std::to_string(na) + " → "
            + std::to_string(nb);
    add({ a, {} }, { b, {} }, Movement::None, reason); // no reason given: add() compares the calls' tensors
    if (!da.subgraph || !db.subgraph)
        return;
    const std::size_t firstInner = m_out.matches.size();
    // Inside: inputs and outputs by position, operators aligned in payload order.
    std::map<std::pair<int, int>, NodeId> ends;
    for (const Node& inner : db.subgraph->nodes)
        if (inner.kind == NodeKind::Input || inner.kind == NodeKind::Output)
            ends.emplace(std::pair(static_cast<int>(inner.kind), inner.argPosition), inner.id);
    for (const Node& inner : da.subgraph->nodes)
        if (inner.kind == NodeKind::Input || inner.kind == NodeKind::Output)
            if (const auto it = ends.find({ static_cast<int>(inner.kind), inner.argPosition }); it != ends.end())
                add({ a, inner.id }, { b, it->second });
    const std::vector<NodeId> orderA = executionOrder(*da.subgraph, false);
    const std::vector<NodeId> orderB = executionOrder(*db.subgraph, false);
    std::vector<std::string> tokensA, tokensB;
    std::vector<std::vector<DebugHandle>> handlesA, handlesB;
    const auto tokenOf
        = [otherBackend](const Node& node) { return otherBackend ? operatorFamily(node.opType) : node.opType; };
    for (const NodeId id : orderA) {
        tokensA.push_back(tokenOf(da.subgraph->node(id)));
        handlesA.push_back(innerHandlesOf(m_a, a, id));
    }
    for (const NodeId id : orderB) {
        tokensB.push_back(tokenOf(db.subgraph->node(id)));
        handlesB.push_back(innerHandlesOf(m_b, b, id));
    }
    // Inner nodes are all operators: one kind.
    const AnchoredAlignment alignment = alignWithAnchors(tokensA, tokensB, handlesA, handlesB,
        std::vector<int>(orderA.size()), std::vector<int>(orderB.size()), m_options.maxAlignCells);
    const auto matchInner = [&](std::size_t i, std::size_t j) {
        const bool anchor = alignment.anchors.count({ i, j }) > 0;
        const std::string& typeA = da.subgraph->node(orderA[i]).opType;
        const std::string& typeB = db.subgraph->node(orderB[j]).opType;
        add({ a, orderA[i] }, { b, orderB[j] }, Movement::None,
            typeA != typeB ? "operator " + typeA + " → " + typeB : std::string());
        if (anchor)
            m_out.matches.back().byDebugHandle = true;
    };
    for (const auto& [i, j] : alignment.crossing)
        matchInner(i, j);
    for (const auto& [i, j] : alignment.pairs)
        matchInner(i, j);
    if (!payloadsDiffer)
        return;
    // Inner nodes paired by name alone: in payloads that differ, "same" would claim what was not
    // compared (issue 38 item 3). That is every op of a QNN context binary (qnncontext.cpp reads
    // an op's name and no parameter; the few that write a graph output carry that output's
    // tensor, not their own contents), and any inner node of another backend that reads and
    // writes no tensor.
    const bool qnn = da.label == "QnnBackend";
    const std::string what = qnn ? "the context binary's" : "the payload's";
    for (std::size_t i = firstInner; i < m_out.matches.size(); ++i) {
        NodeMatch& match = m_out.matches[i];
        if (match.status != MatchStatus::Same || !match.a || !match.b)
            continue;
        const bool op = m_a.nodeOf(*match.a).kind == NodeKind::Operator;
        if (!(qnn && op) && (!m_a.signature(*match.a).empty() || !m_b.signature(*match.b).empty()))
            continue;
        match.status = MatchStatus::Unverified;
        match.reason = "names equal; " + what + " contents are not comparable node by node";
    }
}

void MethodMatcher::matchReads(DiffNodeRef a, DiffNodeRef b)
{
    struct Read {
        DiffNodeRef ref;
        std::uint64_t elements = 0;
    };
    const auto reads = [](Side& side, const DiffNodeRef& ref) {
        std::vector<Read> list;
        const Graph& g = side.graphOf(ref);
        const Node& node = side.nodeOf(ref);
        for (const std::size_t e : side.adjacencyOf(ref).in[node.id.index()]) {
            const Edge& edge = g.edges[e];
            const Node& source = g.node(edge.from);
            if (source.kind != NodeKind::Constant && source.kind != NodeKind::State && source.kind != NodeKind::View)
                continue;
            std::uint64_t elements = 1;
            for (const std::int64_t size : edge.meta.shape)
                elements *= static_cast<std::uint64_t>(std::max<std::int64_t>(size, 0));
            list.push_back({ ref.inner ? DiffNodeRef { ref.node, source.id } : DiffNodeRef { source.id, {} },
                edge.meta.known() ? elements : 0 });
        }
        return list;
    };
    const std::vector<Read> readsA = reads(m_a, a);
    std::vector<Read> readsB = reads(m_b, b);
    const bool moved = a.inner.has_value() != b.inner.has_value();
    // Argument order differs between an operator and the backend node it became (addmm reads
    // bias, input, weight; XNNFullyConnected input, filter, bias): pair reads of the same
    // element count first, then the rest in order.
    for (const bool sameSize : { true, false }) {
        for (const Read& readA : readsA) {
            if (m_a.isUsed(readA.ref))
                continue;
            const auto partner = std::find_if(readsB.begin(), readsB.end(), [&](const Read& readB) {
                return !m_b.isUsed(readB.ref) && (!sameSize || readB.elements == readA.elements);
            });
            if (partner == readsB.end())
                continue;
            if (!moved) {
                add(readA.ref, partner->ref);
                continue;
            }
            const Movement direction = a.inner ? Movement::OutOfDelegate : Movement::IntoDelegate;
            const Node& owner = a.inner ? m_a.graph->node(a.node) : m_b.graph->node(b.node);
            add(readA.ref, partner->ref, direction,
                std::string(direction == Movement::IntoDelegate ? "moved into " : "moved out of ") + owner.label);
        }
    }
}

void MethodMatcher::leftovers()
{
    const auto sweep = [&](Side& side, MatchStatus status) {
        if (!side.graph)
            return;
        for (const Node& node : side.graph->nodes) {
            const DiffNodeRef ref { node.id, {} };
            if (!side.used[node.id.index()])
                push(ref, status);
            if (node.kind != NodeKind::Delegate || !node.subgraph)
                continue;
            for (const Node& inner : node.subgraph->nodes)
                if (!side.isUsed({ node.id, inner.id }))
                    push({ node.id, inner.id }, status);
        }
    };
    sweep(m_a, MatchStatus::OnlyInA);
    sweep(m_b, MatchStatus::OnlyInB);
}

void MethodMatcher::push(const DiffNodeRef& ref, MatchStatus status)
{
    NodeMatch match;
    (status == MatchStatus::OnlyInA ? match.a : match.b) = ref;
    match.status = status;
    m_out.matches.push_back(std::move(match));
}

} // namespace etscope::core::diff
