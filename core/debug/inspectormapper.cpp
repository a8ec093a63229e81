// SPDX-License-Identifier: MIT
// Imported Inspector rows placed on the graph: InspectorGapMapper (inspectortable.h).
#include "core/debug/inspectortable.h"
#include "core/util/text.h"

#include <algorithm>
#include <set>
#include <string>

namespace etscope::core {

namespace {

/// The last pair the Inspector would compare: the AOT value against the runtime value of equal
/// size (the unique one of equal shape when several were logged, else the last).
std::optional<std::pair<const PrintedTensor*, const PrintedTensor*>> comparable(const InspectorRow& row)
{
    if (row.aotOutput.empty() || row.runtimeOutput.empty())
        return std::nullopt;
    const PrintedTensor& aot = row.aotOutput.back();
    const PrintedTensor* runtime = &row.runtimeOutput.back();
    if (row.runtimeOutput.size() > 1) {
        std::vector<const PrintedTensor*> same;
        for (const PrintedTensor& t : row.runtimeOutput)
            if (t.shape == aot.shape)
                same.push_back(&t);
        if (same.size() == 1)
            runtime = same.front();
    }
    return std::make_pair(&aot, runtime);
}

} // namespace

InspectorGapMapper::InspectorGapMapper(
    const EventMapper& mapper, GapMetric metric, const std::string& source, RowHandler handler)
    : m_mapper(mapper)
    , m_handler(std::move(handler))
{
    m_report.mode = "inspector";
    m_report.reference = source + " (aot_intermediate_output)";
    m_report.run = source + " (runtime_intermediate_output)";
    m_report.importedMetric = metric;
    // Inner nodes carrying AOT handles (XNNPACK stores one per node), in execution order.
    for (const Node& top : mapper.graph().nodes)
        if (top.kind == NodeKind::Delegate && top.subgraph)
            for (const Node& inner : top.subgraph->nodes)
                if (inner.kind == NodeKind::Operator && inner.debugHandle)
                    m_handled.push_back({ { top.id, inner.id }, *inner.debugHandle });
}

void InspectorGapMapper::add(const InspectorRow& in)
{
    const Graph& graph = m_mapper.graph();
    GapRow row;
    const std::vector<DebugHandle>& handles = in.runtimeDebugHandle.empty() ? in.aotDebugHandle : in.runtimeDebugHandle;
    const std::set<DebugHandle> handleSet(handles.begin(), handles.end());
    row.debugHandles = handles;
    row.aotOps = in.aotOps;
    row.imported = in.gap;
    for (const std::string& op : in.runtimeOps)
        row.runtimeOp += (row.runtimeOp.empty() ? "" : ", ") + op;
    const std::string firstOp = in.runtimeOps.empty() ? std::string() : in.runtimeOps.front();
    const int ordinal = m_seenOps[firstOp]++;

    std::optional<NodeOrigin> inner;
    for (const auto& [origin, handle] : m_handled)
        if (!handles.empty() && handle == handles.back())
            inner = origin;
    if (!inner)
        for (const auto& [origin, handle] : m_handled)
            if (handleSet.count(handle))
                inner = origin;
    std::optional<int> instruction;
    if (const ETRecord* record = m_mapper.record()) {
        if (const auto map = record->debugHandleMap.find(m_mapper.method()); map != record->debugHandleMap.end())
            for (const auto& [id, entry] : map->second)
                for (const DebugHandle h : entry.handles)
                    if (handleSet.count(h))
                        instruction = std::max(instruction.value_or(id), id);
    }
    if (instruction) {
        row.instruction = InstructionId(*instruction);
        row.origin = { m_mapper.instructionNode(ChainIndex(0), row.instruction), NodeId::none() };
        if (inner && inner->top == row.origin.top)
            row.origin = *inner;
    } else if (inner) {
        row.origin = *inner;
    } else if (!firstOp.empty()) {
        // Runtime op order: the k-th row of an op meets the k-th node of that op.
        const bool delegate = firstOp == "DELEGATE_CALL";
        const std::string kernel = firstOp.starts_with("native_call_") ? firstOp.substr(12) : firstOp;
        int k = 0;
        for (const Node& node : graph.nodes) {
            bool same = false;
            if (delegate)
                same = node.kind == NodeKind::Delegate;
            else if (node.kind == NodeKind::Operator)
                same = withoutNamespace(node.opType) == kernel || node.opType == kernel;
            if (same && k++ == ordinal) {
                row.origin = { node.id, NodeId::none() };
                break;
            }
        }
    }
    row.matched = row.origin.top.valid();
    if (row.matched) {
        row.label = m_mapper.label(row.origin);
        if (row.instruction.value < 0)
            row.instruction = graph.node(row.origin.top).instruction;
    } else {
        ++m_unmatched;
        row.label = in.aotOps.empty() ? "(no node)" : in.aotOps.back();
    }
    if (const auto pair = comparable(in)) {
        const auto& [aot, runtime] = *pair;
        row.shape = runtime->shape;
        if (!aot->complete || !runtime->complete)
            row.problem = "the table printed a summarised tensor (…): metrics not recomputed";
        else if (aot->values.size() != runtime->values.size())
            row.problem = "printed tensors differ in size: metrics not recomputed";
        else
            row.metrics = computeGapMetrics(aot->values, runtime->values);
    }
    ++m_rows;
    if (m_handler)
        m_handler(std::move(row));
    else
        m_report.rows.push_back(std::move(row));
}

GapReport InspectorGapMapper::finish(std::vector<Warning> readWarnings)
{
    m_report.warnings = std::move(readWarnings);
    if (m_unmatched)
        m_report.warnings.push_back({ std::to_string(m_unmatched) + " of " + std::to_string(m_rows)
                + " Inspector row(s) match no node (attach the ETRecord for debug handles)",
            std::nullopt });
    return std::move(m_report);
}

GapReport mapInspectorTable(
    const InspectorTable& table, const EventMapper& mapper, GapMetric metric, const std::string& source)
{
    InspectorGapMapper gap(mapper, metric, source);
    for (const InspectorRow& row : table.rows)
        gap.add(row);
    return gap.finish(table.warnings);
}

Result<GapReport> importInspectorTable(const std::string& path, const EventMapper& mapper, GapMetric metric,
    const InspectorGapMapper::RowHandler& handler, std::uint64_t maxBytes)
{
    InspectorGapMapper gap(mapper, metric, path, handler);
    auto warnings = readInspectorTableFile(
        path, [&](InspectorRow&& row) { gap.add(row); }, maxBytes);
    if (!warnings)
        return warnings.error();
    return gap.finish(std::move(warnings).value());
}

} // namespace etscope::core
