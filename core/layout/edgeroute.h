// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout/graphlayout.h"

#include <span>

namespace etscope::core {

/// The vertical extent of one rank of the layout (y down).
struct RankBand {
    double top = 0;
    double bottom = 0;
};

/// Where a long edge crosses a rank: the x of the virtual node Graphviz put there, and the rank.
struct Waypoint {
    double x = 0;
    RankBand band;
};

/// The drawing of one edge from `from` (in rank `fromBand`) to `to` (in `toBand`) through
/// `waypoints`, top to bottom. The control polygon runs straight down through each rank at its
/// waypoint, where no box is, and changes column only in the gaps between ranks; the curve is
/// the smooth B-spline of that polygon (what d3's curveBasis draws for dagre and Netron), which
/// stays close to it. Between adjacent ranks it is one S-shaped Bézier. The result is cubic
/// Bézier segments, linear in the number of waypoints; the curve stops one arrow length before
/// the tip on the target's border. Used instead of Graphviz's spline router, whose cost on real
/// transformer graphs is unbounded (platform.md).
LayoutResult::Edge routeEdge(const LayoutResult::Node& from, RankBand fromBand, const LayoutResult::Node& to,
    RankBand toBand, std::span<const Waypoint> waypoints);

/// How long the arrow head is: the curve ends this far before the tip.
constexpr double kArrowHeadLength = 8;

} // namespace etscope::core
