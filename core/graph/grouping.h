// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace etscope::core {

/// A run of consecutive instructions of a long method, drawn as one box until it is opened, so
/// that no single layout holds more than a few hundred instructions.
struct NodeGroup {
    /// What the group is when known: "block 3" (a repeated layer), "layers.2" (an ETRecord
    /// module); empty for a cut of a long method.
    std::string name;
    int chain = 0;
    InstructionId first; ///< first instruction of the run
    InstructionId last; ///< last instruction of the run (inclusive)
    std::vector<NodeId> members; ///< top-level nodes: the run's instructions and the constants they read first
    int operators = 0; ///< Operator nodes among the members
    int delegates = 0; ///< Delegate nodes among the members
    /// The most frequent operator types (opType, count), most frequent first, at most three.
    std::vector<std::pair<std::string, int>> topOperators;
};

/// The label of a group's box: "instructions 300–599", or for a named one "block 3 · #63–93".
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

/// Graphs of more boxes than this (a screen's worth) and at most kGroupAboveNodes are grouped
/// by their repeated blocks when the method repeats.
inline constexpr std::size_t kRepeatGroupAboveNodes = 100;
/// A method repeats with period P when at least this share of its instructions run the same
/// operator as the instruction P later (the overlap of the sequence with itself shifted by P).
inline constexpr double kRepeatMatchShare = 0.9;
/// At least this many whole blocks, of at least kMinBlockInstructions instructions each.
inline constexpr int kMinRepeatedBlocks = 3;
inline constexpr int kMinBlockInstructions = 4;

/// The repetition of a method's operator sequence (positions in program order).
struct Repetition {
    int period = 0; ///< instructions per block
    int start = 0; ///< position of the first instruction of the first block
    int blocks = 0; ///< whole blocks from start
};

/// The smallest period P ≥ kMinBlockInstructions at which the sequence of operator types
/// (instructions in program order) matches itself shifted by P for kRepeatMatchShare of the
/// overlap, with at least kMinRepeatedBlocks whole blocks; the first block starts where the
/// repetition starts, moved (within a quarter block) to where the fewest values are live across
/// the cut. nullopt for methods that do not repeat. Quadratic in the instruction count: only
/// for methods below kGroupAboveNodes.
std::optional<Repetition> findRepetition(const Graph& graph);

/// Groups of a repetitive method of more than `groupAbove` boxes: one per block ("block 1",
/// …), a tail of at least half a block one more; instructions before the first block (and a
/// shorter tail) stay at the top level. Empty when the method does not repeat.
Grouping groupRepeatedBlocks(const Graph& graph, std::size_t groupAbove = kRepeatGroupAboveNodes);

/// The module path of the innermost entry of a serialized `nn_module_stack`
/// ("key,path,type;key,path,type", torch/_export/serde/serialize.py serialize_metadata):
/// "layers.0.attention"; empty when there is none.
std::string innermostModule(std::string_view nnModuleStack);

/// Groups of a method by the modules an ETRecord records for its instructions (`moduleOf`:
/// instruction → module path, "layers.0.attention.wq"). The depth is the shallowest at which
/// no run of consecutive instructions in one module holds more than half of the instructions
/// and at least kMinRepeatedBlocks runs exist ("layers.0", "layers.1", …); runs of one
/// instruction stay at the top level. Empty when the modules do not cut the method.
Grouping groupByModules(const Graph& graph, const std::map<int, std::string>& moduleOf);

/// The first view's grouping: by modules when given and they cut the method, else long methods
/// by groupLongGraph, else repetitive methods by groupRepeatedBlocks, else none.
Grouping groupMethodGraph(const Graph& graph, const std::map<int, std::string>* moduleOf = nullptr);

} // namespace etscope::core
