// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core {

/// A run of consecutive instructions of a long method, drawn as one box until it is opened, so
/// that no single layout holds more than a few hundred instructions.
struct NodeGroup {
    int chain = 0;
    InstructionId first; ///< first instruction of the run
    InstructionId last; ///< last instruction of the run (inclusive)
    std::vector<NodeId> members; ///< top-level nodes: the run's instructions and the constants they read first
    int operators = 0; ///< Operator nodes among the members
    int delegates = 0; ///< Delegate nodes among the members
    /// The most frequent operator types (opType, count), most frequent first, at most three.
    std::vector<std::pair<std::string, int>> topOperators;
};

/// The label of a group's box: "instructions 300–599".
std::string groupLabel(const NodeGroup& group);

/// How a top-level graph is cut into groups; empty when the graph is drawn whole.
struct Grouping {
    std::vector<NodeGroup> groups;
    std::vector<int> groupOf; ///< per top-level node: index into groups, -1 when drawn at the top level
    bool empty() const { return groups.empty(); }
    int groupOfNode(NodeId node) const
    {
        return node.valid() && node.index() < groupOf.size() ? groupOf[node.index()] : -1;
    }
};

/// Graphs with more nodes than this are cut into groups.
inline constexpr std::size_t kGroupAboveNodes = 1200;
/// A group holds about this many boxes, constants included (more when a method would need
/// more than kMaxGroups groups).
inline constexpr std::size_t kGroupNodes = 600;
/// A group holds at least this many instructions.
inline constexpr std::size_t kMinGroupInstructions = 64;
/// At most this many groups: longer methods get longer groups.
inline constexpr std::size_t kMaxGroups = 250;

/// Cuts a long top-level graph into runs of consecutive instructions. Each cut is placed where
/// the fewest values are live across it within a quarter of a group of the nominal position, so that
/// repeated blocks (transformer layers) tend to stay whole. Inputs and outputs stay at the top
/// level; constants, state and views join the group of their first reader (a constant read by
/// later groups too is drawn again inside each of them, see flattenGraph). Linear in the size
/// of the graph (plus one sort of the instructions).
Grouping groupLongGraph(const Graph& graph, std::size_t groupAbove = kGroupAboveNodes);

} // namespace etscope::core
