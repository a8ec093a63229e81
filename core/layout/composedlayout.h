// SPDX-License-Identifier: MIT
#pragma once

// Internal to core/layout: one Graphviz call, and the composition of several.

#include "core/layout/graphlayout.h"

namespace etscope::core::detail {

constexpr double kClusterMargin = 10; ///< inside a cluster laid out alone, around its drawing
constexpr double kClusterTitleHeight = 26; ///< room for the cluster's title above its drawing

/// A vertical S-curve (one cubic) from `from` to `to`, appended to `points` (which ends at `from`).
void appendCurve(std::vector<LayoutPoint>& points, LayoutPoint from, LayoutPoint to);
/// An edge routed to a cluster's border continued to the top of the member it enters.
void enterMember(LayoutResult::Edge& edge, const LayoutResult::Node& member);
/// An edge routed from a cluster's border started at the bottom of the member it leaves.
void leaveMember(LayoutResult::Edge& edge, const LayoutResult::Node& member);

/// One Graphviz call for the whole request (clusters included); see layoutGraph.
Result<LayoutResult> layoutOnce(const LayoutRequest& request, const std::atomic<bool>* cancel);

/// Lays out each separate cluster on its own, then the rest with each of them as one box of
/// its drawing's size, and puts the parts together: members moved into their box, edges that
/// cross a box's border drawn from the outer route to the member's top (or from its bottom).
/// Expanding one 5,000-node delegate costs its own layout plus a small one.
Result<LayoutResult> layoutComposed(const LayoutRequest& request, const std::atomic<bool>* cancel);

/// Moves the drawing so that it starts at (0, 0) and its size covers every node, edge point
/// and cluster.
void fitBounds(LayoutResult& result);

} // namespace etscope::core::detail
