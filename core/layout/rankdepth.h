// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout/graphlayout.h"

#include <cstddef>
#include <vector>

namespace etscope::core {

/// The rank of every node when each edge goes down at least one rank (longest path from the
/// sources, the ranking dot starts from). Nodes on a cycle are ranked after everything else,
/// one rank each, so the depth is an upper bound of what Graphviz will need. Linear time.
std::vector<int> longestPathRanks(const LayoutRequest& request);

/// 1 + the largest rank of longestPathRanks (0 for an empty graph).
std::size_t rankDepth(const LayoutRequest& request);

/// Graphviz 2.42 counts ranks in 16 bits: deeper graphs corrupt its heap ("out of memory" in
/// dot_mincross, then SIGSEGV). Layouts deeper than this are refused before Graphviz sees them.
constexpr std::size_t kMaxGraphvizRanks = 30000;

} // namespace etscope::core
