// SPDX-License-Identifier: MIT
#include "core/layout/edgeroute.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace etscope::core {

namespace {

// Where an edge leaves or enters a box: on its bottom (or top) border, moved along it towards
// the next point so that fans of edges do not all meet in one pixel, but never off the box.
double portX(const LayoutResult::Node& node, double towards)
{
    const double reach = std::max(0.0, node.width / 2 - 6);
    return node.x + std::clamp((towards - node.x) * 0.5, -reach, reach);
}

LayoutPoint mix(LayoutPoint a, double wa, LayoutPoint b, double wb, LayoutPoint c = {}, double wc = 0)
{
    const double sum = wa + wb + wc;
    return { (a.x * wa + b.x * wb + c.x * wc) / sum, (a.y * wa + b.y * wb + c.y * wc) / sum };
}

void lineTo(std::vector<LayoutPoint>& points, LayoutPoint to)
{
    const LayoutPoint from = points.back();
    points.push_back(mix(from, 2, to, 1));
    points.push_back(mix(from, 1, to, 2));
    points.push_back(to);
}

/// S-shaped: vertical tangents at both ends.
void curveTo(std::vector<LayoutPoint>& points, LayoutPoint to)
{
    const LayoutPoint from = points.back();
    const double bend = (to.y - from.y) / 2;
    points.push_back({ from.x, from.y + bend });
    points.push_back({ to.x, to.y - bend });
    points.push_back(to);
}

/// A uniform cubic B-spline with `control` as its control polygon, clamped to its first and
/// last points, as cubic Bézier segments appended to `points` (which ends at control[0]).
void basisSpline(std::vector<LayoutPoint>& points, const std::vector<LayoutPoint>& control)
{
    lineTo(points, mix(control[0], 5, control[1], 1));
    for (std::size_t i = 2; i <= control.size(); ++i) {
        const LayoutPoint p0 = control[i - 2];
        const LayoutPoint p1 = control[i - 1];
        const LayoutPoint p2 = i < control.size() ? control[i] : control[i - 1];
        points.push_back(mix(p0, 2, p1, 1));
        points.push_back(mix(p0, 1, p1, 2));
        points.push_back(mix(p0, 1, p1, 4, p2, 1));
    }
    lineTo(points, control.back());
}

/// Moves from column `fromX` to `toX` inside the gap [above, below] between two ranks.
void crossGap(std::vector<LayoutPoint>& control, double fromX, double toX, double above, double below)
{
    const double middle = (above + below) / 2;
    const double quarter = (below - above) / 4;
    control.push_back({ fromX, middle - quarter });
    control.push_back({ toX, middle + quarter });
}

} // namespace

LayoutResult::Edge routeEdge(const LayoutResult::Node& from, RankBand fromBand, const LayoutResult::Node& to,
    RankBand toBand, std::span<const Waypoint> waypoints)
{
    LayoutResult::Edge edge;
    edge.hasArrow = true;
    // Same rank (a flat edge): leave by the side facing the target, straight across.
    if (std::abs(to.y - from.y) < 1e-6 && waypoints.empty()) {
        const double side = to.x >= from.x ? 1.0 : -1.0;
        const LayoutPoint start { from.x + side * from.width / 2, from.y };
        edge.arrowTip = { to.x - side * to.width / 2, to.y };
        edge.points = { start };
        lineTo(edge.points, { edge.arrowTip.x - side * kArrowHeadLength, to.y });
        return edge;
    }
    // Graphviz keeps edges pointing down; one drawn upwards (a cycle) is mirrored.
    const double sign = to.y >= from.y ? 1.0 : -1.0;
    const double firstX = waypoints.empty() ? to.x : waypoints.front().x;
    const double lastX = waypoints.empty() ? from.x : waypoints.back().x;
    const LayoutPoint start { portX(from, firstX), from.y + sign * from.height / 2 };
    edge.arrowTip = { portX(to, lastX), to.y - sign * to.height / 2 };
    const double room = std::abs(edge.arrowTip.y - start.y);
    const LayoutPoint end { edge.arrowTip.x, edge.arrowTip.y - sign * std::min(kArrowHeadLength, room * 0.4) };
    edge.points = { start };
    if (waypoints.empty() || sign < 0) {
        curveTo(edge.points, end);
        return edge;
    }
    std::vector<LayoutPoint> control { start };
    control.reserve(4 * waypoints.size() + 4);
    double x = start.x;
    double below = std::max(fromBand.bottom, start.y);
    for (const Waypoint& point : waypoints) {
        const double top = std::max(point.band.top, below);
        crossGap(control, x, point.x, below, top);
        control.push_back({ point.x, top });
        control.push_back({ point.x, std::max(point.band.bottom, top) });
        x = point.x;
        below = std::max(point.band.bottom, top);
    }
    crossGap(control, x, end.x, below, std::clamp(toBand.top, below, end.y));
    control.push_back(end);
    basisSpline(edge.points, control);
    return edge;
}

} // namespace etscope::core
