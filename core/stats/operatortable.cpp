// SPDX-License-Identifier: MIT
#include "core/stats/operatortable.h"

#include <algorithm>
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

void finishOperatorTable(OperatorTable& table)
{
    std::sort(table.rows.begin(), table.rows.end(),
        [](const OperatorRow& a, const OperatorRow& b) { return a.opType < b.opType; });
    table.delegatedNodes = 0;
    table.nonDelegatedNodes = 0;
    for (const OperatorRow& row : table.rows) {
        table.delegatedNodes += row.delegated;
        table.nonDelegatedNodes += row.nonDelegated;
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
            ++table.delegatedSubgraphs;
            if (!node.subgraph) {
                ++table.opaqueSubgraphs;
                continue;
            }
            for (const Node& inner : node.subgraph->nodes) {
                if (inner.kind != NodeKind::Operator)
                    continue;
                OperatorRow& row = rows[inner.opType];
                row.opType = inner.opType;
                ++row.delegated;
            }
        }
    }
    for (auto& [type, row] : rows)
        table.rows.push_back(std::move(row));
    finishOperatorTable(table);
    return table;
}

} // namespace etscope::core
