// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace etscope::core {

struct SearchHit {
    NodeOrigin origin; ///< top-level node, or a node inside a delegate's subgraph
    std::string field; ///< what matched: "name", "op type", "backend", "shape", "attribute"
    std::string text; ///< the matching text
};

/// Case-insensitive substring search over node labels, op types, backend ids, edge shapes and
/// dtypes (e.g. "1, 3, 224" or "qint8") and attribute values, at the top level and inside every
/// decoded delegate (expanded or not). Hits come in graph order, at most `limit`.
std::vector<SearchHit> searchGraph(const Graph& top, const std::string& query, std::size_t limit = 1000);

/// Every node whose op type is `opType` (top level and inside delegates), in graph order.
std::vector<NodeOrigin> nodesOfType(const Graph& top, const std::string& opType);

} // namespace etscope::core
