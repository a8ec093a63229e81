// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace etscope::core {

/// One row of the operator occurrence table, in the spirit of ExecuTorch's
/// get_delegation_info (facts sheet §8).
struct OperatorRow {
    std::string opType;
    int delegated = 0; ///< occurrences inside delegated (lowered) graphs
    int nonDelegated = 0; ///< occurrences at the top level
};

struct OperatorTable {
    std::string source; ///< "program" (from the .pte) or "etrecord" (exact, from the edge graph)
    std::vector<OperatorRow> rows; ///< sorted by op_type (plain byte order); no Total row
    int delegatedSubgraphs = 0;
    int delegatedNodes = 0;
    int nonDelegatedNodes = 0;
    int opaqueSubgraphs = 0; ///< delegates whose inner graph is unknown (their nodes cannot be counted)

    /// The three summary lines, exactly as get_delegation_info prints them.
    std::vector<std::string> summaryLines() const;
};

/// Counts a method graph: non-delegated = top-level operator nodes by op type (KernelCall
/// "name.overload"); delegated subgraphs = delegate nodes; delegated nodes = operator nodes of
/// decoded inner graphs by the backend's node type name.
OperatorTable computeOperatorTable(const Graph& graph);

/// Sorts rows by op type and fills the three totals from the rows.
void finishOperatorTable(OperatorTable& table);

} // namespace etscope::core
