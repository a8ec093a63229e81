// SPDX-License-Identifier: MIT
// How `etscope diff` lines up two sequences of nodes (execution order at the top level,
// payload order inside a delegate): debug-handle anchors, then the tokens between them by
// their longest common subsequence. Private to core/analysis (programdiff, methodmatcher).
#pragma once

#include "core/util/ids.h"

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core::diff {

/// Pairs of positions of two sequences: anchors (items whose debug-handle sets intersect, one to
/// one, the largest overlap first, ties by position in a then b), then the tokens between
/// consecutive anchors of the longest chain in order on both sides aligned by their longest
/// common subsequence (alignTokens in diffalignment.cpp). Anchors off that chain (crossing it)
/// are paired too but bound no segment.
struct AnchoredAlignment {
    std::vector<std::pair<std::size_t, std::size_t>> pairs; ///< in order on both sides: chain anchors and aligned pairs
    std::vector<std::pair<std::size_t, std::size_t>> crossing; ///< anchors off the chain
    std::set<std::pair<std::size_t, std::size_t>> anchors; ///< every anchor
    bool aligned = true; ///< false when a segment fell back to rank matching
};

/// Aligns tokensA with tokensB; items pair as anchors only when their kinds agree. An LCS table
/// of more than `maxCells` cells falls back to rank matching (AnchoredAlignment::aligned false).
AnchoredAlignment alignWithAnchors(const std::vector<std::string>& tokensA, const std::vector<std::string>& tokensB,
    const std::vector<std::vector<DebugHandle>>& handlesA, const std::vector<std::vector<DebugHandle>>& handlesB,
    const std::vector<int>& kindsA, const std::vector<int>& kindsB, std::size_t maxCells);

/// Sorted, distinct.
std::vector<DebugHandle> normalised(std::vector<DebugHandle> handles);

} // namespace etscope::core::diff
