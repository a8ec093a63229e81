// SPDX-License-Identifier: MIT
#include "core/layout/openinglayout.h"

#include "core/layout/composedlayout.h"
#include "core/layout/edgeroute.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace etscope::core {

namespace {

/// Over this distance above and below an opened frame, what moves sideways beside it fades out.
constexpr double kFade = 24;

/// True when `cluster` is `ancestor` or nested in it.
bool within(const LayoutRequest& request, int cluster, int ancestor)
{
    for (std::size_t hops = 0; cluster >= 0 && hops <= request.clusters.size(); ++hops) {
        if (cluster == ancestor)
            return true;
        if (static_cast<std::size_t>(cluster) >= request.clusters.size())
            return false;
        cluster = request.clusters[static_cast<std::size_t>(cluster)].parent;
    }
    return false;
}

/// Identity up to `centre`, [centre, end] stretched to [centre, end + growth], beyond shifted
/// by `growth`. Continuous and increasing.
struct Stretch {
    double centre = 0;
    double end = 0;
    double growth = 0;
    double operator()(double v) const
    {
        if (v <= centre)
            return v;
        if (v >= end)
            return v + growth;
        return centre + (v - centre) * (end + growth - centre) / (end - centre);
    }
};

/// How the opened box grows into its cluster's frame, and back: the box's top-left corner
/// stays, everything right of the box beside the frame's rows moves by the growth in width,
/// everything from the box's centre down stretches by the growth in height.
struct Growth {
    double left = 0;
    double top = 0;
    double boxWidth = 0;
    double boxHeight = 0;
    double width = 0; ///< the frame's
    double height = 0;

    /// Sideways moves only beside the frame (its rows in the opened drawing), fading out over a
    /// rank gap above and below it: what is above or below stays in its column.
    double sideways(double openedY) const
    {
        const double away = openedY < top ? top - openedY : (openedY > top + height ? openedY - top - height : 0.0);
        return std::max(0.0, 1.0 - away / kFade);
    }
    /// The right side of everything right of the box moves by this much.
    double openX(double x) const { return x > left + boxWidth ? x + width - boxWidth : x; }
    double closeX(double x) const { return x > left + width ? x - (width - boxWidth) : x; }
    Stretch openY() const { return { top + boxHeight / 2, top + boxHeight, height - boxHeight }; }
    Stretch closeY() const { return { top + boxHeight / 2, top + height, boxHeight - height }; }

    LayoutPoint open(LayoutPoint p) const
    {
        const double y = openY()(p.y);
        return { p.x + (openX(p.x) - p.x) * sideways(y), y };
    }
    /// The inverse of open() (outside the frame).
    LayoutPoint close(LayoutPoint p) const
    {
        const double shift = (width - boxWidth) * sideways(p.y);
        return { p.x > left + boxWidth + shift ? p.x - shift : p.x, closeY()(p.y) };
    }
    /// True for a frame (other than the opened one and those around it) that stands beside the
    /// opened frame: its right side right of the box's centre and its rows, in the opened
    /// drawing, meeting the frame's. Its members would have to move unevenly.
    bool besideFrame(double right, double openedTop, double openedBottom) const
    {
        return right > left + boxWidth / 2 && openedTop < top + height + kFade && openedBottom > top - kFade;
    }
    bool inFrame(LayoutPoint p) const
    {
        return p.x > left - 0.5 && p.x < left + width + 0.5 && p.y > top - 0.5 && p.y < top + height + 0.5;
    }
};

/// Per node of `opened`: whether it is inside the opened cluster, when `opening` describes how
/// `opened` differs from `closed` (see LayoutOpening); empty otherwise.
std::optional<std::vector<bool>> correspondence(
    const LayoutRequest& opened, const LayoutRequest& closed, const LayoutOpening& opening)
{
    const std::size_t nodeCount = opened.nodes.size();
    if (opening.previousNode.size() != nodeCount || opening.previousCluster.size() != opened.clusters.size()
        || opening.box < 0 || static_cast<std::size_t>(opening.box) >= closed.nodes.size() || opening.cluster < 0
        || static_cast<std::size_t>(opening.cluster) >= opened.clusters.size())
        return std::nullopt;
    // Every node outside the cluster is a closed node of the same size, each closed node but
    // the box is one of them; clusters likewise.
    std::vector<bool> isInside(nodeCount);
    std::vector<bool> seen(closed.nodes.size(), false);
    std::size_t outside = 0;
    for (std::size_t i = 0; i < nodeCount; ++i) {
        isInside[i] = within(opened, opened.nodes[i].cluster, opening.cluster);
        const int p = opening.previousNode[i];
        if (isInside[i]) {
            if (p >= 0)
                return std::nullopt;
            continue;
        }
        if (p < 0 || static_cast<std::size_t>(p) >= closed.nodes.size() || p == opening.box
            || seen[static_cast<std::size_t>(p)])
            return std::nullopt;
        const auto& earlier = closed.nodes[static_cast<std::size_t>(p)];
        if (std::abs(earlier.width - opened.nodes[i].width) > 0.5
            || std::abs(earlier.height - opened.nodes[i].height) > 0.5)
            return std::nullopt;
        seen[static_cast<std::size_t>(p)] = true;
        ++outside;
    }
    if (outside + 1 != closed.nodes.size())
        return std::nullopt;
    std::vector<bool> clusterSeen(closed.clusters.size(), false);
    std::size_t kept = 0;
    for (std::size_t c = 0; c < opened.clusters.size(); ++c) {
        const int p = opening.previousCluster[c];
        const bool isNew = within(opened, static_cast<int>(c), opening.cluster);
        if (isNew != (p < 0))
            return std::nullopt;
        if (p < 0)
            continue;
        if (static_cast<std::size_t>(p) >= closed.clusters.size() || clusterSeen[static_cast<std::size_t>(p)])
            return std::nullopt;
        clusterSeen[static_cast<std::size_t>(p)] = true;
        ++kept;
    }
    if (kept != closed.clusters.size())
        return std::nullopt;
    return isInside;
}

/// Clusters of `request` that enclose `cluster` (itself included).
std::vector<bool> enclosing(const LayoutRequest& request, int cluster)
{
    std::vector<bool> around(request.clusters.size(), false);
    for (int c = cluster; c >= 0 && static_cast<std::size_t>(c) < request.clusters.size();
         c = request.clusters[static_cast<std::size_t>(c)].parent) {
        if (around[static_cast<std::size_t>(c)])
            break;
        around[static_cast<std::size_t>(c)] = true;
    }
    return around;
}

/// The edges of `request` with both ends drawn: (from, to) → edge indices.
std::multimap<std::pair<int, int>, std::size_t> drawnEdges(const LayoutRequest& request)
{
    std::multimap<std::pair<int, int>, std::size_t> edges;
    for (std::size_t e = 0; e < request.edges.size(); ++e)
        if (request.edges[e].orderOnly == 0)
            edges.emplace(std::make_pair(request.edges[e].from, request.edges[e].to), e);
    return edges;
}

} // namespace

ClusterPart clusterPart(const LayoutRequest& request, int cluster)
{
    ClusterPart part;
    part.request.fontName = request.fontName;
    part.request.fontSize = request.fontSize;
    part.request.safer = request.safer;
    std::vector<int> clusterIndex(request.clusters.size(), -1);
    for (std::size_t c = 0; c < request.clusters.size(); ++c) {
        if (static_cast<int>(c) == cluster || !within(request, static_cast<int>(c), cluster))
            continue;
        clusterIndex[c] = static_cast<int>(part.request.clusters.size());
        LayoutRequest::Cluster copy = request.clusters[c];
        const int parent = copy.parent;
        copy.parent = parent >= 0 && parent != cluster && static_cast<std::size_t>(parent) < c
            ? clusterIndex[static_cast<std::size_t>(parent)]
            : -1;
        part.request.clusters.push_back(std::move(copy));
        part.clusters.push_back(static_cast<int>(c));
    }
    std::vector<int> nodeIndex(request.nodes.size(), -1);
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const int c = request.nodes[i].cluster;
        if (!within(request, c, cluster))
            continue;
        nodeIndex[i] = static_cast<int>(part.request.nodes.size());
        LayoutRequest::Node node = request.nodes[i];
        node.cluster = c == cluster ? -1 : clusterIndex[static_cast<std::size_t>(c)];
        part.request.nodes.push_back(node);
        part.nodes.push_back(static_cast<int>(i));
    }
    const auto inPart = [&](int node) {
        return node >= 0 && static_cast<std::size_t>(node) < nodeIndex.size()
            ? nodeIndex[static_cast<std::size_t>(node)]
            : -1;
    };
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const auto& edge = request.edges[e];
        if (inPart(edge.from) < 0 || inPart(edge.to) < 0)
            continue;
        part.request.edges.push_back({ inPart(edge.from), inPart(edge.to), edge.orderOnly });
        part.edges.push_back(static_cast<int>(e));
    }
    return part;
}

std::optional<LayoutResult> composeOpening(const LayoutRequest& request, const LayoutRequest& before,
    const LayoutResult& beforeLayout, const LayoutOpening& opening, const LayoutResult& inside)
{
    const auto isInside = correspondence(request, before, opening);
    if (!isInside || beforeLayout.nodes.size() != before.nodes.size()
        || beforeLayout.edges.size() != before.edges.size() || beforeLayout.clusters.size() != before.clusters.size())
        return std::nullopt;
    const std::size_t nodeCount = request.nodes.size();
    const ClusterPart part = clusterPart(request, opening.cluster);
    if (inside.nodes.size() != part.nodes.size() || inside.edges.size() != part.edges.size()
        || inside.clusters.size() != part.clusters.size())
        return std::nullopt;

    // The growth that turns the box into the cluster's frame. Right of the box everything moves
    // right (no point lies over the box itself: edges end on its border and run beside it);
    // from the box's centre down, the drawing stretches so that the box's bottom becomes the
    // frame's.
    const auto& box = beforeLayout.nodes[static_cast<std::size_t>(opening.box)];
    Growth growth;
    growth.left = box.x - box.width / 2;
    growth.top = box.y - box.height / 2;
    growth.boxWidth = box.width;
    growth.boxHeight = box.height;
    growth.width = std::max(box.width, inside.width + 2 * detail::kClusterMargin);
    growth.height = std::max(box.height, inside.height + detail::kClusterTitleHeight + detail::kClusterMargin);
    // Frames around the box widen with it; a frame beside it would need its members moved
    // unevenly, so that case is laid out whole.
    std::vector<bool> aroundBox
        = enclosing(request, request.clusters[static_cast<std::size_t>(opening.cluster)].parent);
    const LayoutPoint origin { growth.left + detail::kClusterMargin, growth.top + detail::kClusterTitleHeight };

    LayoutResult result;
    result.width = beforeLayout.width; // fitBounds widens it to what moved right
    result.height = growth.openY()(beforeLayout.height);
    result.nodes.resize(nodeCount);
    for (std::size_t i = 0; i < nodeCount; ++i) {
        if ((*isInside)[i])
            continue;
        LayoutResult::Node node = beforeLayout.nodes[static_cast<std::size_t>(opening.previousNode[i])];
        const LayoutPoint centre = growth.open({ node.x, node.y });
        node.x = centre.x;
        node.y = centre.y;
        result.nodes[i] = node;
    }
    for (std::size_t k = 0; k < part.nodes.size(); ++k) {
        LayoutResult::Node node = inside.nodes[k];
        node.x += origin.x;
        node.y += origin.y;
        result.nodes[static_cast<std::size_t>(part.nodes[k])] = node;
    }
    result.clusters.resize(request.clusters.size());
    for (std::size_t c = 0; c < request.clusters.size(); ++c) {
        const int p = opening.previousCluster[c];
        if (p < 0)
            continue;
        const auto& earlier = beforeLayout.clusters[static_cast<std::size_t>(p)];
        const LayoutPoint a = growth.open({ earlier.x, earlier.y });
        LayoutPoint b = growth.open({ earlier.x + earlier.width, earlier.y + earlier.height });
        if (aroundBox[c]) {
            b.x = growth.openX(earlier.x + earlier.width);
        } else if (growth.besideFrame(earlier.x + earlier.width, a.y, b.y)) {
            return std::nullopt;
        }
        result.clusters[c] = { a.x, a.y, b.x - a.x, b.y - a.y };
    }
    result.clusters[static_cast<std::size_t>(opening.cluster)]
        = { growth.left, growth.top, growth.width, growth.height };
    for (std::size_t k = 0; k < part.clusters.size(); ++k) {
        LayoutResult::Cluster cluster = inside.clusters[k];
        cluster.x += origin.x;
        cluster.y += origin.y;
        result.clusters[static_cast<std::size_t>(part.clusters[k])] = cluster;
    }

    // Edges: inside from the cluster's own layout, the rest from the earlier routes.
    auto earlierEdges = drawnEdges(before);
    result.edges.resize(request.edges.size());
    std::vector<bool> done(request.edges.size(), false);
    for (std::size_t k = 0; k < part.edges.size(); ++k) {
        LayoutResult::Edge edge = inside.edges[k];
        for (LayoutPoint& p : edge.points)
            p = { p.x + origin.x, p.y + origin.y };
        edge.arrowTip = { edge.arrowTip.x + origin.x, edge.arrowTip.y + origin.y };
        result.edges[static_cast<std::size_t>(part.edges[k])] = std::move(edge);
        done[static_cast<std::size_t>(part.edges[k])] = true;
    }
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const auto& spec = request.edges[e];
        if (done[e] || spec.orderOnly > 0)
            continue;
        if (spec.from < 0 || spec.to < 0 || static_cast<std::size_t>(spec.from) >= nodeCount
            || static_cast<std::size_t>(spec.to) >= nodeCount)
            return std::nullopt;
        const bool fromInside = (*isInside)[static_cast<std::size_t>(spec.from)];
        const bool toInside = (*isInside)[static_cast<std::size_t>(spec.to)];
        const int from = fromInside ? opening.box : opening.previousNode[static_cast<std::size_t>(spec.from)];
        const int to = toInside ? opening.box : opening.previousNode[static_cast<std::size_t>(spec.to)];
        const auto it = earlierEdges.find({ from, to });
        if (it == earlierEdges.end())
            return std::nullopt;
        LayoutResult::Edge edge = beforeLayout.edges[it->second];
        // Edges into or out of the box may be several now (one per member); the others are
        // the same edges as before, one each.
        if (!fromInside && !toInside)
            earlierEdges.erase(it);
        if (edge.points.empty()) {
            result.edges[e] = std::move(edge);
            continue;
        }
        for (LayoutPoint& p : edge.points)
            p = growth.open(p);
        edge.arrowTip = growth.open(edge.arrowTip);
        if (fromInside)
            detail::leaveMember(edge, result.nodes[static_cast<std::size_t>(spec.from)]);
        if (toInside)
            detail::enterMember(edge, result.nodes[static_cast<std::size_t>(spec.to)]);
        result.edges[e] = std::move(edge);
    }
    detail::fitBounds(result);
    return result;
}

std::optional<LayoutResult> composeClosing(const LayoutRequest& request, const LayoutRequest& opened,
    const LayoutResult& openedLayout, const LayoutOpening& opening)
{
    const auto isInside = correspondence(opened, request, opening);
    if (!isInside || openedLayout.nodes.size() != opened.nodes.size()
        || openedLayout.edges.size() != opened.edges.size() || openedLayout.clusters.size() != opened.clusters.size())
        return std::nullopt;
    const std::size_t nodeCount = request.nodes.size();

    // The frame shrinks back into the box at its top-left corner.
    const auto& frame = openedLayout.clusters[static_cast<std::size_t>(opening.cluster)];
    const auto& boxSpec = request.nodes[static_cast<std::size_t>(opening.box)];
    Growth growth;
    growth.left = frame.x;
    growth.top = frame.y;
    growth.boxWidth = std::min(boxSpec.width, frame.width);
    growth.boxHeight = std::min(boxSpec.height, frame.height);
    growth.width = frame.width;
    growth.height = frame.height;
    const std::vector<bool> aroundBox = enclosing(request, boxSpec.cluster);

    LayoutResult result;
    result.width = openedLayout.width - (growth.width - growth.boxWidth); // fitBounds widens it to what is there
    result.height = growth.closeY()(openedLayout.height);
    result.nodes.resize(nodeCount);
    result.nodes[static_cast<std::size_t>(opening.box)]
        = { growth.left + boxSpec.width / 2, growth.top + boxSpec.height / 2, boxSpec.width, boxSpec.height };
    for (std::size_t i = 0; i < opened.nodes.size(); ++i) {
        if ((*isInside)[i])
            continue;
        LayoutResult::Node node = openedLayout.nodes[i];
        const LayoutPoint centre = growth.close({ node.x, node.y });
        node.x = centre.x;
        node.y = centre.y;
        result.nodes[static_cast<std::size_t>(opening.previousNode[i])] = node;
    }
    result.clusters.resize(request.clusters.size());
    for (std::size_t c = 0; c < opened.clusters.size(); ++c) {
        const int p = opening.previousCluster[c];
        if (p < 0)
            continue;
        const auto& wide = openedLayout.clusters[c];
        const LayoutPoint a = growth.close({ wide.x, wide.y });
        LayoutPoint b = growth.close({ wide.x + wide.width, wide.y + wide.height });
        if (aroundBox[static_cast<std::size_t>(p)]) {
            b.x = growth.closeX(wide.x + wide.width);
        } else if (growth.besideFrame(wide.x + wide.width, wide.y, wide.y + wide.height)) {
            return std::nullopt;
        }
        result.clusters[static_cast<std::size_t>(p)] = { a.x, a.y, b.x - a.x, b.y - a.y };
    }

    // Edges keep their routes outside the frame; those that crossed its border end on (or
    // start from) the box with one curve from their last knot outside.
    const auto& box = result.nodes[static_cast<std::size_t>(opening.box)];
    const auto borderX = [&](double x) {
        const double margin = std::min(6.0, box.width / 2);
        return std::clamp(x, growth.left + margin, growth.left + box.width - margin);
    };
    std::multimap<std::pair<int, int>, std::size_t> openedEdges;
    for (std::size_t e = 0; e < opened.edges.size(); ++e) {
        const auto& spec = opened.edges[e];
        if (spec.orderOnly > 0 || spec.from < 0 || spec.to < 0
            || static_cast<std::size_t>(spec.from) >= opened.nodes.size()
            || static_cast<std::size_t>(spec.to) >= opened.nodes.size())
            continue;
        const bool fromInside = (*isInside)[static_cast<std::size_t>(spec.from)];
        const bool toInside = (*isInside)[static_cast<std::size_t>(spec.to)];
        if (fromInside && toInside)
            continue;
        openedEdges.emplace(
            std::make_pair(fromInside ? opening.box : opening.previousNode[static_cast<std::size_t>(spec.from)],
                toInside ? opening.box : opening.previousNode[static_cast<std::size_t>(spec.to)]),
            e);
    }
    result.edges.resize(request.edges.size());
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const auto& spec = request.edges[e];
        if (spec.orderOnly > 0)
            continue;
        const auto it = openedEdges.find({ spec.from, spec.to });
        if (it == openedEdges.end())
            return std::nullopt;
        LayoutResult::Edge edge = openedLayout.edges[it->second];
        const bool toBox = spec.to == opening.box;
        const bool fromBox = spec.from == opening.box;
        // Edges of the box were several (one per member); the others are one each.
        if (!toBox && !fromBox)
            openedEdges.erase(it);
        if (edge.points.empty()) {
            result.edges[e] = std::move(edge);
            continue;
        }
        std::vector<LayoutPoint>& points = edge.points;
        // Never both: the box has no edge to itself (openedEdges leaves out edges inside).
        if (toBox) {
            // Up to the last knot before the route first reaches the frame, then into the box.
            std::size_t keep = 0;
            while (keep + 3 < points.size() && !growth.inFrame(points[keep + 3]))
                keep += 3;
            const LayoutPoint reach = keep + 3 < points.size() ? points[keep + 3] : edge.arrowTip;
            points.resize(keep + 1);
            for (LayoutPoint& p : points)
                p = growth.close(p);
            const LayoutPoint tip { borderX(reach.x), box.y - box.height / 2 };
            detail::appendCurve(points, points.back(), { tip.x, tip.y - kArrowHeadLength });
            edge.arrowTip = tip;
            edge.hasArrow = true;
        } else if (fromBox) {
            // From the box to the first knot after the route last leaves the frame.
            std::size_t from = points.size() - 1;
            from -= from % 3;
            while (from >= 3 && !growth.inFrame(points[from - 3]))
                from -= 3;
            if (growth.inFrame(points[from]) && from + 3 < points.size())
                from += 3;
            std::vector<LayoutPoint> kept(points.begin() + static_cast<std::ptrdiff_t>(from), points.end());
            for (LayoutPoint& p : kept)
                p = growth.close(p);
            const LayoutPoint start { borderX(kept.front().x), box.y + box.height / 2 };
            std::vector<LayoutPoint> route { start };
            detail::appendCurve(route, start, kept.front());
            route.insert(route.end(), kept.begin() + 1, kept.end());
            points = std::move(route);
            edge.arrowTip = growth.close(edge.arrowTip);
        } else {
            for (LayoutPoint& p : points)
                p = growth.close(p);
            edge.arrowTip = growth.close(edge.arrowTip);
        }
        result.edges[e] = std::move(edge);
    }
    detail::fitBounds(result);
    return result;
}

} // namespace etscope::core
