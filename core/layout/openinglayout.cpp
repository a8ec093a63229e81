// SPDX-License-Identifier: MIT
#include "openinglayout.h"

#include "composedlayout.h"

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
    const std::size_t nodeCount = request.nodes.size();
    if (opening.previousNode.size() != nodeCount || opening.previousCluster.size() != request.clusters.size()
        || beforeLayout.nodes.size() != before.nodes.size() || beforeLayout.edges.size() != before.edges.size()
        || beforeLayout.clusters.size() != before.clusters.size() || opening.box < 0
        || static_cast<std::size_t>(opening.box) >= before.nodes.size() || opening.cluster < 0
        || static_cast<std::size_t>(opening.cluster) >= request.clusters.size())
        return std::nullopt;

    // Every node outside the cluster is an earlier node of the same size, each earlier node but
    // the box is one of them; clusters likewise.
    std::vector<bool> isInside(nodeCount);
    std::vector<bool> seen(before.nodes.size(), false);
    std::size_t outside = 0;
    for (std::size_t i = 0; i < nodeCount; ++i) {
        isInside[i] = within(request, request.nodes[i].cluster, opening.cluster);
        const int p = opening.previousNode[i];
        if (isInside[i]) {
            if (p >= 0)
                return std::nullopt;
            continue;
        }
        if (p < 0 || static_cast<std::size_t>(p) >= before.nodes.size() || p == opening.box
            || seen[static_cast<std::size_t>(p)])
            return std::nullopt;
        const auto& earlier = before.nodes[static_cast<std::size_t>(p)];
        if (std::abs(earlier.width - request.nodes[i].width) > 0.5
            || std::abs(earlier.height - request.nodes[i].height) > 0.5)
            return std::nullopt;
        seen[static_cast<std::size_t>(p)] = true;
        ++outside;
    }
    if (outside + 1 != before.nodes.size())
        return std::nullopt;
    const ClusterPart part = clusterPart(request, opening.cluster);
    if (inside.nodes.size() != part.nodes.size() || inside.edges.size() != part.edges.size()
        || inside.clusters.size() != part.clusters.size())
        return std::nullopt;
    for (std::size_t c = 0; c < request.clusters.size(); ++c) {
        const int p = opening.previousCluster[c];
        const bool isNew = within(request, static_cast<int>(c), opening.cluster);
        if (isNew != (p < 0) || (p >= 0 && static_cast<std::size_t>(p) >= before.clusters.size()))
            return std::nullopt;
    }

    // The stretch that turns the box into the cluster's frame.
    const auto& box = beforeLayout.nodes[static_cast<std::size_t>(opening.box)];
    const double left = box.x - box.width / 2;
    const double top = box.y - box.height / 2;
    const double width = std::max(box.width, inside.width + 2 * detail::kClusterMargin);
    const double height = std::max(box.height, inside.height + detail::kClusterTitleHeight + detail::kClusterMargin);
    // Right of the box everything moves right by the growth (no point lies over the box
    // itself: edges end on its border and run beside it); from the box's centre down, the
    // drawing stretches so that the box's bottom becomes the frame's.
    const auto sx = [&](double x) { return x > left + box.width ? x + width - box.width : x; };
    const Stretch sy { box.y, top + box.height, height - box.height };
    // Sideways only beside the frame (its rows in the new drawing), fading out over a rank gap
    // above and below it: what is above or below stays in its column.
    const auto sideways = [&](double y) {
        const double away = y < top ? top - y : (y > top + height ? y - top - height : 0.0);
        return std::max(0.0, 1.0 - away / kFade);
    };
    const auto map = [&](LayoutPoint p) {
        const double y = sy(p.y);
        return LayoutPoint { p.x + (sx(p.x) - p.x) * sideways(y), y };
    };
    // Frames around the box widen with it; a frame beside it would need its members moved
    // unevenly, so that case is laid out whole.
    std::vector<bool> aroundBox(request.clusters.size(), false);
    for (int c = request.clusters[static_cast<std::size_t>(opening.cluster)].parent;
         c >= 0 && static_cast<std::size_t>(c) < request.clusters.size();
         c = request.clusters[static_cast<std::size_t>(c)].parent) {
        if (aroundBox[static_cast<std::size_t>(c)])
            break;
        aroundBox[static_cast<std::size_t>(c)] = true;
    }
    const LayoutPoint origin { left + detail::kClusterMargin, top + detail::kClusterTitleHeight };

    LayoutResult result;
    result.width = beforeLayout.width; // fitBounds widens it to what moved right
    result.height = sy(beforeLayout.height);
    result.nodes.resize(nodeCount);
    for (std::size_t i = 0; i < nodeCount; ++i) {
        if (isInside[i])
            continue;
        LayoutResult::Node node = beforeLayout.nodes[static_cast<std::size_t>(opening.previousNode[i])];
        const LayoutPoint centre = map({ node.x, node.y });
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
        const LayoutPoint a = map({ earlier.x, earlier.y });
        LayoutPoint b = map({ earlier.x + earlier.width, earlier.y + earlier.height });
        if (aroundBox[c]) {
            b.x = sx(earlier.x + earlier.width);
        } else if (earlier.x + earlier.width > box.x && a.y < top + height + kFade && b.y > top - kFade) {
            return std::nullopt;
        }
        result.clusters[c] = { a.x, a.y, b.x - a.x, b.y - a.y };
    }
    result.clusters[static_cast<std::size_t>(opening.cluster)] = { left, top, width, height };
    for (std::size_t k = 0; k < part.clusters.size(); ++k) {
        LayoutResult::Cluster cluster = inside.clusters[k];
        cluster.x += origin.x;
        cluster.y += origin.y;
        result.clusters[static_cast<std::size_t>(part.clusters[k])] = cluster;
    }

    // Edges: inside from the cluster's own layout, the rest from the earlier routes.
    std::multimap<std::pair<int, int>, std::size_t> earlierEdges;
    for (std::size_t e = 0; e < before.edges.size(); ++e)
        if (before.edges[e].orderOnly == 0)
            earlierEdges.emplace(std::make_pair(before.edges[e].from, before.edges[e].to), e);
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
        const bool fromInside = isInside[static_cast<std::size_t>(spec.from)];
        const bool toInside = isInside[static_cast<std::size_t>(spec.to)];
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
            p = map(p);
        edge.arrowTip = map(edge.arrowTip);
        if (fromInside)
            detail::leaveMember(edge, result.nodes[static_cast<std::size_t>(spec.from)]);
        if (toInside)
            detail::enterMember(edge, result.nodes[static_cast<std::size_t>(spec.to)]);
        result.edges[e] = std::move(edge);
    }
    detail::fitBounds(result);
    return result;
}

} // namespace etscope::core
