// SPDX-License-Identifier: MIT
#include "core/stats/operatortable.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace etscope::core {

std::vector<std::string> OperatorTable::summaryLines() const
{
    return {
        "Total delegated subgraphs: " + std::to_string(delegatedSubgraphs),
        "Number of delegated nodes: " + std::to_string(delegatedNodes),
        "Number of non-delegated nodes: " + std::to_string(nonDelegatedNodes),
    };
}

namespace {

std::string percent(int part, int whole)
{
    if (whole <= 0)
        return "0%";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100.0 * part / whole);
    return text;
}

} // namespace

bool isPlaceholderOpType(const std::string& opType)
{
    return opType.starts_with('(') && opType.ends_with(')');
}

bool isDataMovement(const Node& inner)
{
    // The Ethos-U decoder's DMA commands (core/delegates/ethosuoperations.cpp).
    return inner.kind == NodeKind::Operator && inner.opType == "DMA";
}

std::vector<std::string> OperatorTable::shareLines() const
{
    const int nodes = delegatedNodes + nonDelegatedNodes;
    int types = 0;
    int delegatedTypes = 0;
    int placeholderNodes = 0;
    for (const OperatorRow& row : rows) {
        if (isPlaceholderOpType(row.opType)) {
            placeholderNodes += row.delegated + row.nonDelegated;
            continue;
        }
        ++types;
        delegatedTypes += row.delegated > 0 ? 1 : 0;
    }
    std::vector<std::string> lines {
        "Delegated share: " + percent(delegatedNodes, nodes) + " of nodes (" + std::to_string(delegatedNodes) + " of "
            + std::to_string(nodes) + "), " + percent(delegatedTypes, types) + " of unique op types ("
            + std::to_string(delegatedTypes) + " of " + std::to_string(types) + ")"
            + (placeholderNodes > 0 ? "; " + std::to_string(placeholderNodes)
                        + " node(s) of a type the payload does not store, not counted as an op type"
                                    : std::string())
            + (dataMovements > 0 ? "; " + std::to_string(dataMovements)
                        + " DMA transfer(s) inside delegates: data movement, not counted as operators"
                                 : std::string()),
    };
    for (const auto& [backend, share] : backends) {
        std::string line = "  " + backend + ": " + std::to_string(share.subgraphs) + " subgraph(s), "
            + std::to_string(share.nodes) + " node(s) = " + percent(share.nodes, nodes) + " of nodes, "
            + std::to_string(share.opTypes) + " op type(s) = " + percent(share.opTypes, types) + " of op types";
        if (share.dataMovements > 0)
            line += ", " + std::to_string(share.dataMovements) + " DMA transfer(s)";
        if (share.opaqueSubgraphs > 0)
            line += "; " + std::to_string(share.opaqueSubgraphs)
                + " subgraph(s) not decoded, their nodes not counted (the shares are lower bounds)";
        lines.push_back(std::move(line));
    }
    return lines;
}

void OperatorTable::addSubgraph(const std::string& backend, bool decoded)
{
    ++delegatedSubgraphs;
    BackendShare& share = backends[backend];
    ++share.subgraphs;
    if (!decoded) {
        ++opaqueSubgraphs;
        ++share.opaqueSubgraphs;
    }
}

void OperatorTable::addDelegated(OperatorRow& row, const std::string& backend)
{
    ++row.delegated;
    ++row.delegatedByBackend[backend];
}

void finishOperatorTable(OperatorTable& table)
{
    std::sort(table.rows.begin(), table.rows.end(),
        [](const OperatorRow& a, const OperatorRow& b) { return a.opType < b.opType; });
    table.delegatedNodes = 0;
    table.nonDelegatedNodes = 0;
    for (auto& [backend, share] : table.backends)
        share.nodes = share.opTypes = 0;
    for (const OperatorRow& row : table.rows) {
        table.delegatedNodes += row.delegated;
        table.nonDelegatedNodes += row.nonDelegated;
        for (const auto& [backend, count] : row.delegatedByBackend) {
            BackendShare& share = table.backends[backend];
            share.nodes += count;
            share.opTypes += count > 0 && !isPlaceholderOpType(row.opType) ? 1 : 0;
        }
    }
}

OperatorTable computeOperatorTable(const Graph& graph)
{
    OperatorTable table;
    table.source = "program";
    std::map<std::string, OperatorRow> rows;
    for (const Node& node : graph.nodes) {
        if (node.kind == NodeKind::Operator) {
            OperatorRow& row = rows[node.opType];
            row.opType = node.opType;
            ++row.nonDelegated;
        } else if (node.kind == NodeKind::Delegate) {
            // A delegate node is labelled with its backend id.
            table.addSubgraph(node.label, node.subgraph != nullptr);
            if (!node.subgraph)
                continue;
            for (const Node& inner : node.subgraph->nodes) {
                if (inner.kind != NodeKind::Operator)
                    continue;
                if (isDataMovement(inner)) {
                    ++table.dataMovements;
                    ++table.backends[node.label].dataMovements;
                    continue;
                }
                OperatorRow& row = rows[inner.opType];
                row.opType = inner.opType;
                OperatorTable::addDelegated(row, node.label);
            }
        }
    }
    for (auto& [type, row] : rows)
        table.rows.push_back(std::move(row));
    finishOperatorTable(table);
    return table;
}

} // namespace etscope::core
