// SPDX-License-Identifier: MIT
// The cost of each node as a heat table (issue 34, item 4): what the graph is coloured by when
// the user picks "Cost" in the Heatmap tab — MACs, bytes moved, the Ethos-U cycle ESTIMATE and,
// when vendor logs were joined (costvendor.h), Vela's cycle estimate and measured cycles. A node
// with no rule (or no shape) has no value, never 0: it stays uncoloured.
#pragma once

#include "core/cost/cost.h"
#include "core/graph/graph.h"
#include "core/table/heattable.h"

#include <optional>
#include <string>

namespace etscope::core::cost {

/// One row per operator node of `method` in `report`, in execution order (the top-level graph's
/// node order, each delegate's inner nodes where its call is), placed on `graph` (the method's
/// top-level graph): top-level kernels as {node, none}, inner nodes as {delegate call, inner
/// node}. With `delegate`, only that delegate's inner nodes (its tab). Columns (each higher is
/// worse, none with an "identical" value):
/// - "MACs": counted nodes (an elementwise op counts 0 MACs; its other arithmetic is not MACs);
/// - "bytes moved": bytes read + written, where the rule knows them;
/// - "cycles (Ethos-U estimate)": only when some node has an NPU estimate;
/// - "Vela cycles (estimate)": Vela's per-layer op cycles, when a Vela log was joined;
/// - "measured cycles": the runner log's CPU cycles per operator, when one was joined.
/// Vendor figures are shown whatever the rule's status: they are read, not computed.
HeatTable costHeatTable(
    const CostReport& report, const Graph& graph, const std::string& method, std::optional<int> delegate = {});

/// The leading number of a vendor attribute's value ("1234 (row shared by 2 kicks…)" → 1234);
/// nullopt when it does not start with a digit.
std::optional<double> leadingNumber(const std::string& text);

} // namespace etscope::core::cost
