// SPDX-License-Identifier: MIT
#include "core/layout/composedlayout.h"

#include "core/layout/edgeroute.h"

#include <algorithm>
#include <cmath>

namespace etscope::core::detail {

namespace {

struct Part {
    int cluster = -1; ///< index into the request's clusters
    std::vector<int> members; ///< request node indices
    LayoutResult layout; ///< members in order, internal edges in order
    int box = -1; ///< node index in the outer request
};

LayoutPoint shifted(LayoutPoint p, double dx, double dy)
{
    return { p.x + dx, p.y + dy };
}

} // namespace

void appendCurve(std::vector<LayoutPoint>& points, LayoutPoint from, LayoutPoint to)
{
    const double bend = (to.y - from.y) / 2;
    points.push_back({ from.x, from.y + bend });
    points.push_back({ to.x, to.y - bend });
    points.push_back(to);
}

void enterMember(LayoutResult::Edge& edge, const LayoutResult::Node& member)
{
    const LayoutPoint tip { member.x, member.y - member.height / 2 };
    const LayoutPoint end { tip.x, tip.y - kArrowHeadLength };
    const LayoutPoint border = edge.arrowTip;
    edge.points.back() = border; // the route stopped one arrow length before the border
    appendCurve(edge.points, border, end);
    edge.arrowTip = tip;
    edge.hasArrow = true;
}

void leaveMember(LayoutResult::Edge& edge, const LayoutResult::Node& member)
{
    std::vector<LayoutPoint> points { { member.x, member.y + member.height / 2 } };
    appendCurve(points, points.front(), edge.points.front());
    points.insert(points.end(), edge.points.begin() + 1, edge.points.end());
    edge.points = std::move(points);
}

Result<LayoutResult> layoutComposed(const LayoutRequest& request, const std::atomic<bool>* cancel)
{
    const std::size_t clusterCount = request.clusters.size();
    std::vector<bool> hasChildren(clusterCount, false);
    for (const auto& cluster : request.clusters)
        if (cluster.parent >= 0 && static_cast<std::size_t>(cluster.parent) < clusterCount)
            hasChildren[static_cast<std::size_t>(cluster.parent)] = true;

    // The parts, and which part each node is in.
    std::vector<int> partOfCluster(clusterCount, -1);
    std::vector<Part> parts;
    for (std::size_t c = 0; c < clusterCount; ++c)
        if (request.clusters[c].separate && !hasChildren[c]) {
            partOfCluster[c] = static_cast<int>(parts.size());
            parts.push_back({ static_cast<int>(c), {}, {}, -1 });
        }
    std::vector<int> partOf(request.nodes.size(), -1);
    std::vector<int> indexInPart(request.nodes.size(), -1);
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const int c = request.nodes[i].cluster;
        if (c < 0 || static_cast<std::size_t>(c) >= clusterCount || partOfCluster[static_cast<std::size_t>(c)] < 0)
            continue;
        Part& part = parts[static_cast<std::size_t>(partOfCluster[static_cast<std::size_t>(c)])];
        partOf[i] = partOfCluster[static_cast<std::size_t>(c)];
        indexInPart[i] = static_cast<int>(part.members.size());
        part.members.push_back(static_cast<int>(i));
    }
    const auto inside = [&](int node) { return partOf[static_cast<std::size_t>(node)]; };

    // Each part alone.
    std::vector<std::vector<int>> partEdges(parts.size()); ///< request edge indices inside each part
    std::vector<bool> linkedOutside(request.nodes.size(), false);
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const auto& edge = request.edges[e];
        if (inside(edge.from) >= 0 && inside(edge.from) == inside(edge.to)) {
            partEdges[static_cast<std::size_t>(inside(edge.from))].push_back(static_cast<int>(e));
        } else {
            for (const int end : { edge.from, edge.to })
                if (end >= 0 && static_cast<std::size_t>(end) < linkedOutside.size())
                    linkedOutside[static_cast<std::size_t>(end)] = true;
        }
    }
    for (std::size_t p = 0; p < parts.size(); ++p) {
        LayoutRequest sub;
        sub.fontName = request.fontName;
        sub.fontSize = request.fontSize;
        sub.safer = request.safer;
        for (const int member : parts[p].members)
            sub.nodes.push_back({ request.nodes[static_cast<std::size_t>(member)].width,
                request.nodes[static_cast<std::size_t>(member)].height, -1,
                linkedOutside[static_cast<std::size_t>(member)] });
        for (const int e : partEdges[p]) {
            const auto& edge = request.edges[static_cast<std::size_t>(e)];
            sub.edges.push_back({ indexInPart[static_cast<std::size_t>(edge.from)],
                indexInPart[static_cast<std::size_t>(edge.to)], edge.orderOnly });
        }
        auto layout = layoutOnce(sub, cancel);
        if (!layout)
            return layout.error();
        parts[p].layout = std::move(layout).value();
    }

    // The rest, each part one box; clusters renumbered without the parts.
    LayoutRequest outer;
    outer.fontName = request.fontName;
    outer.fontSize = request.fontSize;
    outer.safer = request.safer;
    std::vector<int> clusterIndex(clusterCount, -1);
    for (std::size_t c = 0; c < clusterCount; ++c) {
        if (partOfCluster[c] >= 0)
            continue;
        clusterIndex[c] = static_cast<int>(outer.clusters.size());
        LayoutRequest::Cluster copy = request.clusters[c];
        copy.parent = copy.parent >= 0 ? clusterIndex[static_cast<std::size_t>(copy.parent)] : -1;
        outer.clusters.push_back(std::move(copy));
    }
    const auto outerCluster = [&](int c) {
        return c >= 0 && static_cast<std::size_t>(c) < clusterCount ? clusterIndex[static_cast<std::size_t>(c)] : -1;
    };
    std::vector<int> outerNode(request.nodes.size(), -1);
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        if (partOf[i] >= 0)
            continue;
        outerNode[i] = static_cast<int>(outer.nodes.size());
        outer.nodes.push_back(
            { request.nodes[i].width, request.nodes[i].height, outerCluster(request.nodes[i].cluster) });
    }
    for (Part& part : parts) {
        part.box = static_cast<int>(outer.nodes.size());
        outer.nodes.push_back(
            { part.layout.width + 2 * kClusterMargin, part.layout.height + kClusterTitleHeight + kClusterMargin,
                outerCluster(request.clusters[static_cast<std::size_t>(part.cluster)].parent) });
    }
    const auto outerEnd = [&](int node) {
        const int p = inside(node);
        return p >= 0 ? parts[static_cast<std::size_t>(p)].box : outerNode[static_cast<std::size_t>(node)];
    };
    std::vector<int> outerEdge(request.edges.size(), -1);
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const auto& edge = request.edges[e];
        if (inside(edge.from) >= 0 && inside(edge.from) == inside(edge.to))
            continue;
        outerEdge[e] = static_cast<int>(outer.edges.size());
        outer.edges.push_back({ outerEnd(edge.from), outerEnd(edge.to), edge.orderOnly });
    }
    auto outerLayout = layoutOnce(outer, cancel);
    if (!outerLayout)
        return outerLayout.error();
    const LayoutResult& around = outerLayout.value();

    // Put together.
    LayoutResult result;
    result.width = around.width;
    result.height = around.height;
    result.nodes.resize(request.nodes.size());
    result.edges.resize(request.edges.size());
    result.clusters.resize(clusterCount);
    std::vector<LayoutPoint> origin(parts.size()); ///< top-left of each part's drawing in the result
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const auto& box = around.nodes[static_cast<std::size_t>(parts[p].box)];
        const double left = box.x - box.width / 2;
        const double top = box.y - box.height / 2;
        origin[p] = { left + kClusterMargin, top + kClusterTitleHeight };
        result.clusters[static_cast<std::size_t>(parts[p].cluster)] = { left, top, box.width, box.height };
        for (std::size_t m = 0; m < parts[p].members.size(); ++m) {
            LayoutResult::Node node = parts[p].layout.nodes[m];
            node.x += origin[p].x;
            node.y += origin[p].y;
            result.nodes[static_cast<std::size_t>(parts[p].members[m])] = node;
        }
        for (std::size_t k = 0; k < partEdges[p].size(); ++k) {
            LayoutResult::Edge edge = parts[p].layout.edges[k];
            for (LayoutPoint& point : edge.points)
                point = shifted(point, origin[p].x, origin[p].y);
            edge.arrowTip = shifted(edge.arrowTip, origin[p].x, origin[p].y);
            result.edges[static_cast<std::size_t>(partEdges[p][k])] = std::move(edge);
        }
    }
    for (std::size_t i = 0; i < request.nodes.size(); ++i)
        if (outerNode[i] >= 0)
            result.nodes[i] = around.nodes[static_cast<std::size_t>(outerNode[i])];
    for (std::size_t c = 0; c < clusterCount; ++c)
        if (clusterIndex[c] >= 0 && static_cast<std::size_t>(clusterIndex[c]) < around.clusters.size())
            result.clusters[c] = around.clusters[static_cast<std::size_t>(clusterIndex[c])];

    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        if (outerEdge[e] < 0)
            continue;
        LayoutResult::Edge edge = around.edges[static_cast<std::size_t>(outerEdge[e])];
        if (edge.points.empty()) {
            result.edges[e] = std::move(edge);
            continue;
        }
        const auto& spec = request.edges[e];
        if (inside(spec.from) >= 0)
            leaveMember(edge, result.nodes[static_cast<std::size_t>(spec.from)]);
        if (inside(spec.to) >= 0)
            enterMember(edge, result.nodes[static_cast<std::size_t>(spec.to)]);
        result.edges[e] = std::move(edge);
    }
    fitBounds(result);
    return result;
}

} // namespace etscope::core::detail
