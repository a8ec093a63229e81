// SPDX-License-Identifier: MIT
#include "core/cost/costheat.h"

#include <cctype>
#include <map>
#include <vector>

namespace etscope::core::cost {

namespace {

// The vendor attributes costvendor.cpp writes (their names are its own, read back here).
constexpr std::string_view kVelaOpCycles = "Vela estimate: op cycles";
constexpr std::string_view kMeasuredCpuCycles = "measured: CPU cycles";

std::optional<double> vendorFigure(const NodeCost& node, std::string_view name)
{
    for (const Attribute& attribute : node.vendor)
        if (attribute.name == name)
            return leadingNumber(attribute.value);
    return std::nullopt;
}

bool counted(const NodeCost& node)
{
    return node.status == CostStatus::Counted;
}

} // namespace

std::optional<double> leadingNumber(const std::string& text)
{
    double value = 0;
    bool any = false;
    for (const char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c)) == 0)
            break;
        value = value * 10 + (c - '0');
        any = true;
    }
    return any ? std::optional<double>(value) : std::nullopt;
}

HeatTable costHeatTable(
    const CostReport& report, const Graph& graph, const std::string& method, std::optional<int> delegate)
{
    // The report's rows of this method: top-level kernels by node, inner nodes by delegate.
    std::map<std::uint32_t, const NodeCost*> cpu;
    std::map<int, std::vector<const NodeCost*>> inner;
    bool estimates = false;
    bool vela = false;
    bool measured = false;
    for (const NodeCost& node : report.nodes) {
        if (node.method != method || (delegate && node.delegate != *delegate))
            continue;
        if (node.delegate < 0)
            cpu.emplace(node.node, &node);
        else
            inner[node.delegate].push_back(&node);
        estimates = estimates || node.estimate.has_value();
        vela = vela || vendorFigure(node, kVelaOpCycles).has_value();
        measured = measured || vendorFigure(node, kMeasuredCpuCycles).has_value();
    }

    HeatTable table;
    // The heatmap's Data box shows what comes before the first " — ".
    table.title = "Cost — " + method + (estimates ? " (static; cycles are an estimate)" : " (static)");
    table.columns.push_back({ "MACs", true, "", std::nullopt });
    table.columns.push_back({ "bytes moved", true, "B", std::nullopt });
    if (estimates)
        table.columns.push_back({ "cycles (Ethos-U estimate)", true, "cycles", std::nullopt });
    if (vela)
        table.columns.push_back({ "Vela cycles (estimate)", true, "cycles", std::nullopt });
    if (measured)
        table.columns.push_back({ "measured cycles", true, "cycles", std::nullopt });

    const auto addRow = [&](NodeOrigin origin, const NodeCost& node) {
        HeatTable::Row row;
        row.origin = origin;
        row.label = node.label.empty() ? node.opType : node.label;
        // A node with no rule, or no shape for its rule, has no value: never 0.
        row.values.push_back(counted(node) ? std::optional<double>(static_cast<double>(node.macs)) : std::nullopt);
        std::optional<double> bytes;
        if (counted(node) && (node.bytesRead || node.bytesWritten))
            bytes = static_cast<double>(node.bytesRead.value_or(0) + node.bytesWritten.value_or(0));
        row.values.push_back(bytes);
        if (estimates)
            row.values.push_back(
                node.estimate ? std::optional<double>(static_cast<double>(node.estimate->cycles)) : std::nullopt);
        if (vela)
            row.values.push_back(vendorFigure(node, kVelaOpCycles));
        if (measured)
            row.values.push_back(vendorFigure(node, kMeasuredCpuCycles));
        table.rows.push_back(std::move(row));
    };

    // Execution order: the top-level graph's nodes in order, a delegate's inside where it is called.
    std::map<int, bool> placed;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        const NodeId id(static_cast<std::int32_t>(i));
        if (node.kind == NodeKind::Operator && !delegate) {
            if (const auto it = cpu.find(static_cast<std::uint32_t>(i)); it != cpu.end())
                addRow({ id, NodeId::none() }, *it->second);
        } else if (node.kind == NodeKind::Delegate && node.delegate.valid()) {
            const auto it = inner.find(node.delegate.value);
            if (it == inner.end())
                continue;
            placed[node.delegate.value] = true;
            for (const NodeCost* cost : it->second)
                addRow({ id, NodeId(static_cast<std::int32_t>(cost->node)) }, *cost);
        }
    }
    // Rows whose node is not in this graph (another graph was given): kept, matched to no node.
    for (const auto& [index, rows] : inner)
        if (!placed.contains(index))
            for (const NodeCost* cost : rows)
                addRow({ NodeId::none(), NodeId::none() }, *cost);
    return table;
}

} // namespace etscope::core::cost
