// SPDX-License-Identifier: MIT
#include "core/analysis/gappairing.h"

#include "core/analysis/programdiff.h"

#include <algorithm>

namespace etscope::core {

namespace {

NodeOrigin originOf(const DiffNodeRef& ref)
{
    return { ref.node, ref.inner.value_or(NodeId::none()) };
}

const Node* nodeOf(const Document& document, const std::string& method, const DiffNodeRef& ref)
{
    if (!document.program)
        return nullptr;
    for (std::size_t m = 0; m < document.program->methods.size() && m < document.methods.size(); ++m) {
        if (document.program->methods[m].name != method || !document.methods[m].graph)
            continue;
        const Graph& graph = *document.methods[m].graph;
        if (!ref.node.valid() || ref.node.index() >= graph.nodes.size())
            return nullptr;
        const Node& top = graph.node(ref.node);
        if (!ref.inner)
            return &top;
        if (!top.subgraph || !ref.inner->valid() || ref.inner->index() >= top.subgraph->nodes.size())
            return nullptr;
        return &top.subgraph->node(*ref.inner);
    }
    return nullptr;
}

/// The AOT debug handles a node stands for: an inner node's own (XNode.debug_handle), an
/// instruction's from the ETRecord's debug_handle_map.
std::vector<DebugHandle> handlesOf(const Node* node, bool inner, const ETRecord* record, const std::string& method)
{
    if (!node)
        return {};
    if (inner)
        return node->debugHandle ? std::vector<DebugHandle> { *node->debugHandle } : std::vector<DebugHandle> {};
    if (!record || !node->instruction.valid())
        return {};
    return record->handlesOf(method, node->instruction.value);
}

bool intersect(const std::vector<DebugHandle>& a, const std::vector<DebugHandle>& b)
{
    for (const DebugHandle h : a)
        if (std::find(b.begin(), b.end(), h) != b.end())
            return true;
    return false;
}

} // namespace

Result<NodePairing> pairProgramNodes(const Document& reference, const Document& run, const std::string& method,
    const ETRecord* referenceRecord, const ETRecord* runRecord, std::size_t maxAlignCells)
{
    DiffOptions options;
    options.method = method;
    options.maxAlignCells = maxAlignCells;
    options.recordA = referenceRecord;
    options.recordB = runRecord;
    auto diff = diffPrograms(reference, run, options);
    if (!diff)
        return diff.error();
    NodePairing pairing;
    const MethodDiff* found = nullptr;
    for (const MethodDiff& m : diff->methods)
        if (m.name == method)
            found = &m;
    if (!found)
        return makeError(Error::Code::Usage, run.path, "no method '" + method + "' in either program");
    if (!found->inA)
        pairing.warnings.push_back(
            { reference.path + ": has no method '" + method + "' (the run's " + run.path + " has): nothing to pair",
                std::nullopt });
    if (!found->inB)
        pairing.warnings.push_back({ run.path + ": has no method '" + method + "'", std::nullopt });
    if ((referenceRecord != nullptr) != (runRecord != nullptr))
        pairing.warnings.push_back({ std::string("only the ") + (runRecord ? "run's" : "reference's")
                + " ETRecord is given: nodes are paired without debug handles (give --etrecord twice, the run's "
                  "then the reference's)",
            std::nullopt });
    pairing.matching = found->matching;
    const bool rank = found->matching.find("rank") != std::string::npos;
    for (const NodeMatch& match : found->matches) {
        NodePair pair;
        if (match.a)
            pair.reference = originOf(*match.a);
        if (match.b)
            pair.run = originOf(*match.b);
        if (match.a && match.b) {
            const Node* a = nodeOf(reference, method, *match.a);
            const Node* b = nodeOf(run, method, *match.b);
            const auto isEnd = [](const Node* node) {
                return node && (node->kind == NodeKind::Input || node->kind == NodeKind::Output);
            };
            const auto isData = [](const Node* node) {
                return node
                    && (node->kind == NodeKind::Constant || node->kind == NodeKind::State
                        || node->kind == NodeKind::View);
            };
            // A node that moved into a delegate is found by its operator family; when both
            // ETRecords are given and its handles meet the other's (an inner node's own handle,
            // the instruction's from debug_handle_map), the handles vouch for the pair.
            const bool sameHandle = match.byDebugHandle
                || (referenceRecord && runRecord
                    && intersect(handlesOf(a, match.a->inner.has_value(), referenceRecord, method),
                        handlesOf(b, match.b->inner.has_value(), runRecord, method)));
            if (sameHandle)
                pair.matchedBy = "debug handle";
            else if (match.movement != Movement::None)
                pair.matchedBy = isData(a) || isData(b) ? "argument" : "operator family";
            else if (isEnd(a) && isEnd(b))
                pair.matchedBy = "position";
            else if (isData(a) || isData(b))
                pair.matchedBy = "argument";
            else
                pair.matchedBy = rank && !match.a->inner ? "rank" : "execution order";
            if (match.status == MatchStatus::Changed)
                pair.change = match.reason;
        }
        pairing.pairs.push_back(std::move(pair));
    }
    return pairing;
}

} // namespace etscope::core
