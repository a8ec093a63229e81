// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"

#include <map>
#include <string>
#include <vector>

namespace etscope::core {

/// One row of the operator occurrence table, in the spirit of ExecuTorch's
/// get_delegation_info (facts sheet §8).
struct OperatorRow {
    std::string opType;
    int delegated = 0; ///< occurrences inside delegated (lowered) graphs
    int nonDelegated = 0; ///< occurrences at the top level
    std::map<std::string, int> delegatedByBackend; ///< `delegated`, per backend id
};

/// One backend's part of a method: its subgraphs (decoded or not) and the operators inside.
struct BackendShare {
    int subgraphs = 0;
    int opaqueSubgraphs = 0; ///< payloads that could not be decoded: their nodes are not counted
    int nodes = 0;
    int opTypes = 0;
    int dataMovements = 0; ///< copies it schedules (Ethos-U DMA): counted apart from its operators
};

/// True for an op type that names no operator: a placeholder a decoder gives nodes whose type the
/// payload does not store ("(op type not stored)" of QNN), written in parentheses. Such a row
/// counts its nodes but is no op type of its own in the delegated share.
bool isPlaceholderOpType(const std::string& opType);

/// True for a node of a delegate's inner graph that moves data rather than computing: the NPU's
/// DMA commands (Ethos-U, opType "DMA"). The operator table counts them apart (issue 38: they
/// were counted as operators in the delegated share and the table).
bool isDataMovement(const Node& inner);

struct OperatorTable {
    std::string source; ///< "program" (from the .pte) or "etrecord" (exact, from the edge graph)
    std::vector<OperatorRow> rows; ///< sorted by op_type (plain byte order); no Total row
    int delegatedSubgraphs = 0;
    int delegatedNodes = 0;
    int nonDelegatedNodes = 0;
    int opaqueSubgraphs = 0; ///< delegates whose inner graph is unknown (their nodes cannot be counted)
    int dataMovements = 0; ///< data movement inside delegates (isDataMovement), not operators

    std::map<std::string, BackendShare> backends; ///< by backend id

    /// The three summary lines, exactly as get_delegation_info prints them.
    std::vector<std::string> summaryLines() const;
    /// The delegated share as users ask for it (executorch#12495): the percentage of nodes and
    /// of unique op types delegated, overall and per backend, and the undecoded subgraphs.
    std::vector<std::string> shareLines() const;
    /// Counts one delegated subgraph of `backend` (`decoded` false: its nodes are unknown).
    void addSubgraph(const std::string& backend, bool decoded);
    /// Counts one delegated operator node of `backend`.
    static void addDelegated(OperatorRow& row, const std::string& backend);
};

/// Counts a method graph: non-delegated = top-level operator nodes by op type (KernelCall
/// "name.overload"); delegated subgraphs = delegate nodes; delegated nodes = operator nodes of
/// decoded inner graphs by the backend's node type name.
OperatorTable computeOperatorTable(const Graph& graph);

/// Sorts rows by op type and fills the totals (and each backend's nodes and op types) from the rows.
void finishOperatorTable(OperatorTable& table);

} // namespace etscope::core
