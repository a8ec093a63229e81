// SPDX-License-Identifier: MIT
#pragma once

// What File › Compare… draws on the two graphs: a mark per node from the matches of
// core's diffPrograms, the lookups from a drawn node to its match, and the tables of a method.

#include "core/analysis/programdiff.h"
#include "core/graph/flatten.h"
#include "core/table/table.h"
#include "ui/graph/graphitems.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace etscope::ui {

enum class CompareSide { A, B };

/// What one compared method shows, made off the UI thread with the diff.
struct CompareMarks {
    std::map<std::pair<int, int>, int> byKeyA, byKeyB; ///< keyOf(origin) → the match holding it
    std::map<std::pair<int, int>, NodeMark> marksA, marksB;
    core::Table nodes; ///< one row per match, in the diff's order
    std::vector<char> same; ///< per row of `nodes`: the match is `same`
    core::Table operators, moved;
};

/// The colour of a status: amber for changed, crimson for only in A, green for only in B (a
/// move takes its backend's colour).
QColor compareColour(core::MatchStatus status);

/// A side's node as the graph names it.
core::NodeOrigin diffOrigin(const core::DiffNodeRef& ref);
/// The node of a match's side: a top-level node of `top`, or one inside a decoded delegate;
/// null when the reference is out of range.
const core::Node* diffNode(const core::Graph* top, const core::DiffNodeRef& ref);

/// The mark a node of `side` gets for `match` (nullopt for `same`): Δ, −, +, or → in
/// `backend`'s colour for a move; the tooltip gives the reason and the partner.
std::optional<NodeMark> compareMark(const core::NodeMatch& match, CompareSide side, const QString& backend);

/// Marks, lookups and tables of one method of both files (`graphA`, `graphB`: its graphs;
/// `where` names it in the tables' titles). A node in several matches (an undecoded delegate
/// that operators moved into) gets the strongest mark with every reason, and its own match.
CompareMarks prepareCompareMarks(
    const core::MethodDiff& method, const core::Graph* graphA, const core::Graph* graphB, const QString& where);

} // namespace etscope::ui
