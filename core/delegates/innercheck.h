// SPDX-License-Identifier: MIT
// A self-check of a decoded delegate's inner graph (issue 36): what a decoder claims about the
// data flow must hold together. A decoder failing it has a bug, not the payload.
#pragma once

#include "core/delegates/delegate.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// What checkInnerGraph and checkDelegateInnerGraph found.
struct InnerGraphCheck {
    std::vector<std::string> problems; ///< empty: every check passed
    std::size_t edges = 0; ///< edges checked
    std::size_t outputs = 0; ///< output nodes checked
    std::size_t reads = 0; ///< reads of inner operations checked (decoders that know them)
    std::uint64_t readBytes = 0;
    bool ok() const { return problems.empty(); }
};

/// The graph on its own: every edge's endpoints are nodes of the graph (and no edge is a node's
/// edge to itself), every output node has a producer. Never fails; a problem is a line of text.
InnerGraphCheck checkInnerGraph(const Graph& graph);

/// checkInnerGraph of the delegate's inner graph (decoded now if deferred), plus what the
/// backend's decoder can tell: for Ethos-U, every byte an NPU operation reads was written before
/// by an operation of the stream, a delegate input or the weight block (ethosuflow.h), and
/// every output record is written. A delegate without an inner graph passes with nothing checked.
InnerGraphCheck checkDelegateInnerGraph(const Program& program, const DelegateRef& ref, const DelegateInfo& info);

} // namespace etscope::core
