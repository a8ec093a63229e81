// SPDX-License-Identifier: MIT
#include "core/layout/graphlayout.h"

#include "core/layout/composedlayout.h"
#include "core/layout/edgeroute.h"
#include "core/layout/rankdepth.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

namespace etscope::core {

namespace {

// Up to this many boxes crossing minimisation runs all of its passes; above, fewer.
constexpr std::size_t kFullQualityBoxes = 200;
// Graphviz's node_type of the nodes it adds to carry long edges (its const.h: NORMAL 0, VIRTUAL 1).
constexpr int kVirtualNode = 1;

std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::string& lastGraphvizMessage()
{
    static std::string message;
    return message;
}

int collectGraphvizMessage(char* text)
{
    lastGraphvizMessage() += text;
    return 0;
}

// One context for the process: loading the plugin configuration is not free. Guarded by
// graphvizMutex() like every other Graphviz call.
GVC_t* context()
{
    static GVC_t* gvc = [] {
        agseterrf(&collectGraphvizMessage);
        agseterr(AGWARN);
        return gvContext();
    }();
    return gvc;
}

// The C API takes char*; keep literals out of it.
void set(void* object, const char* name, const std::string& value)
{
    agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
    return buffer;
}

/// Attributes that keep every phase of dot bounded (measured in platform.md and bench/README.md):
/// newrank ranks in one network-simplex pass; crossing minimisation gets fewer passes as the
/// graph grows (mclimit); x-positioning skips network simplex (nslimit=0), which cost 0.3 s
/// on a 67-box sample and, on data-flow graphs, gives a straighter spine without it; and
/// Graphviz never routes splines (its router is pathological on residual edges): edges are
/// drawn through the positions of dot's virtual nodes by routeEdge.
std::vector<std::pair<const char*, std::string>> boundedAttributes(std::size_t boxes, bool safer)
{
    const double mclimit
        = std::clamp(kFullQualityBoxes / static_cast<double>(std::max<std::size_t>(boxes, 1)), 0.05, 1.0);
    std::vector<std::pair<const char*, std::string>> attributes {
        { "newrank", "true" },
        { "splines", "false" },
        { "remincross", "false" },
        { "nslimit", "0" },
        { "searchsize", "30" },
        { "mclimit", number(safer ? 0.01 : mclimit) },
    };
    // Siblings in program order: expanding a delegate does not reshuffle the rest. Graphviz's
    // ordering code is also where its known crashes with clusters live, so a retry drops it.
    if (!safer)
        attributes.emplace_back("ordering", "out");
    return attributes;
}

/// Boxes that no edge touches (a QNN context's op nodes, whose wiring the binary does not state)
/// all land on dot's first rank: 1,552 of them made a row 16,000 px wide and 16 px high once
/// scaled. Where a cluster (or the top level) holds more than kIsolatedRun of them, they are
/// stacked in columns, in request order, by invisible chains of weight 0 that only order ranks:
/// a roughly square block, nothing drawn, no other box moved by it.
void stackIsolatedBoxes(Agraph_t* g, const LayoutRequest& request, const std::vector<Agnode_t*>& nodes)
{
    constexpr std::size_t kIsolatedRun = 12;
    std::vector<bool> touched(request.nodes.size(), false);
    for (std::size_t i = 0; i < request.nodes.size(); ++i)
        touched[i] = request.nodes[i].linkedOutside;
    for (const LayoutRequest::Edge& edge : request.edges)
        for (const int end : { edge.from, edge.to })
            if (end >= 0 && static_cast<std::size_t>(end) < touched.size())
                touched[static_cast<std::size_t>(end)] = true;
    std::map<int, std::vector<std::size_t>> byCluster;
    for (std::size_t i = 0; i < request.nodes.size(); ++i)
        if (!touched[i])
            byCluster[request.nodes[i].cluster].push_back(i);
    std::size_t made = 0;
    for (const auto& [cluster, boxes] : byCluster) {
        if (boxes.size() <= kIsolatedRun)
            continue;
        // Boxes are about four times wider than tall, with rank gaps: columns of about
        // sqrt(3n) boxes give a block about as wide as it is tall.
        const auto rows = static_cast<std::size_t>(std::ceil(std::sqrt(3.0 * static_cast<double>(boxes.size()))));
        for (std::size_t k = 0; k + 1 < boxes.size(); ++k) {
            if ((k + 1) % rows == 0)
                continue; // the next box starts a new column
            const std::string name = "stack" + std::to_string(made++);
            Agedge_t* edge = agedge(g, nodes[boxes[k]], nodes[boxes[k + 1]], const_cast<char*>(name.c_str()), 1);
            set(edge, "weight", "0");
            set(edge, "minlen", "1");
            set(edge, "style", "invis");
        }
    }
}

/// Runs of parallel siblings: boxes of one cluster that all read from the same boxes and feed the
/// same boxes (an Ethos-U command stream's 224 one-row AvgPools that transpose a 3×224×224
/// input: one source, one sink) share one rank, which made a strip 16,000 px wide. A sibling
/// may also have one private feeder (a box with no input that feeds only it: the DMA of a
/// channel slice's weights, 40 Conv 1×1 slices with a DMA each in the same sample); it is stacked
/// above its sibling. More than kSiblingRun of them are stacked in columns, in request order,
/// like the isolated boxes. Their edges would then cross the upper rows of a column on dot's
/// virtual nodes, one per edge and rank, which widens every rank of the block by about 20 pt
/// per sibling: so only the edges into a column's first sibling and out of its last one go to
/// Graphviz (they place the source above and the sink below the block), and the others are
/// drawn afterwards along two lanes in the gaps beside the column, inputs on its left, outputs
/// on its right (routeLane in layoutOnce).
struct SiblingStacks {
    struct Column {
        std::vector<std::size_t> boxes; ///< request node indices, top to bottom (feeders included)
        std::size_t firstSibling = 0;
        std::size_t lastSibling = 0;
    };
    std::vector<Column> columns;
    std::vector<int> columnOf; ///< per request node: its column, -1 for none
    /// Per request edge: -1 drawn by Graphviz, else the column whose lane carries it.
    std::vector<int> laneOf;
    std::vector<bool> intoColumn; ///< per request edge with a lane: an input (left lane), else an output
};

constexpr std::size_t kSiblingRun = 12;
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

SiblingStacks planSiblingStacks(const LayoutRequest& request)
{
    const std::size_t count = request.nodes.size();
    SiblingStacks plan;
    plan.columnOf.assign(count, -1);
    plan.laneOf.assign(request.edges.size(), -1);
    plan.intoColumn.assign(request.edges.size(), false);
    std::vector<std::vector<int>> preds(count), succs(count);
    std::vector<bool> excluded(count, false);
    for (std::size_t i = 0; i < count; ++i)
        excluded[i] = request.nodes[i].linkedOutside;
    const auto valid = [&](int n) { return n >= 0 && static_cast<std::size_t>(n) < count; };
    for (const LayoutRequest::Edge& edge : request.edges) {
        if (!valid(edge.from) || !valid(edge.to))
            continue;
        const auto from = static_cast<std::size_t>(edge.from);
        const auto to = static_cast<std::size_t>(edge.to);
        if (edge.orderOnly > 0 || from == to) {
            excluded[from] = excluded[to] = true;
            continue;
        }
        succs[from].push_back(edge.to);
        preds[to].push_back(edge.from);
    }
    for (std::size_t i = 0; i < count; ++i)
        for (auto* list : { &preds[i], &succs[i] }) {
            std::sort(list->begin(), list->end());
            list->erase(std::unique(list->begin(), list->end()), list->end());
        }
    const auto feeds = [&](int p, std::size_t i) {
        const auto q = static_cast<std::size_t>(p);
        return !excluded[q] && preds[q].empty() && succs[q].size() == 1
            && request.nodes[q].cluster == request.nodes[i].cluster;
    };
    // Key: cluster, inputs other than a private feeder, outputs, whether there is a feeder.
    using Key = std::tuple<int, std::vector<int>, std::vector<int>, bool>;
    std::map<Key, std::vector<std::pair<std::size_t, std::size_t>>> groups; // (feeder or kNone, sibling)
    std::vector<int> shared;
    for (std::size_t i = 0; i < count; ++i) {
        // Only boxes between others: boxes without any edge are stackIsolatedBoxes' part, and a
        // program's inputs (or outputs) stay side by side on the first (or last) rank.
        if (excluded[i] || preds[i].empty() || succs[i].empty())
            continue;
        shared.clear();
        std::size_t feeder = kNone;
        std::size_t feeders = 0;
        for (const int p : preds[i]) {
            if (feeds(p, i)) {
                ++feeders;
                feeder = static_cast<std::size_t>(p);
            } else {
                shared.push_back(p);
            }
        }
        if (feeders > 1 || shared.empty())
            continue;
        groups[Key { request.nodes[i].cluster, shared, succs[i], feeders == 1 }].push_back({ feeder, i });
    }
    for (const auto& [key, members] : groups) {
        if (members.size() <= kSiblingRun)
            continue;
        // As for the isolated boxes: about sqrt(3n) ranks per column give a block about as wide
        // as tall (a sibling with its feeder takes two ranks); the lanes only use the gaps dot
        // leaves between columns anyway.
        const double ranksEach = std::get<3>(key) ? 2.0 : 1.0;
        const auto perColumn
            = static_cast<std::size_t>(std::ceil(std::sqrt(3.0 * static_cast<double>(members.size()) / ranksEach)));
        for (std::size_t k = 0; k < members.size(); ++k) {
            const auto [feeder, sibling] = members[k];
            if (k % perColumn == 0) {
                plan.columns.emplace_back();
                plan.columns.back().firstSibling = sibling;
            }
            SiblingStacks::Column& column = plan.columns.back();
            for (const std::size_t box : { feeder, sibling })
                if (box != kNone) {
                    column.boxes.push_back(box);
                    plan.columnOf[box] = static_cast<int>(plan.columns.size() - 1);
                }
            column.lastSibling = sibling;
        }
    }
    if (plan.columns.empty())
        return plan;
    for (std::size_t e = 0; e < request.edges.size(); ++e) {
        const LayoutRequest::Edge& edge = request.edges[e];
        if (!valid(edge.from) || !valid(edge.to) || edge.orderOnly > 0)
            continue;
        const int fromColumn = plan.columnOf[static_cast<std::size_t>(edge.from)];
        const int toColumn = plan.columnOf[static_cast<std::size_t>(edge.to)];
        // Between two stacked boxes (a feeder and its sibling, or one run feeding another):
        // left to Graphviz.
        if ((fromColumn >= 0) == (toColumn >= 0))
            continue;
        if (toColumn >= 0
            && plan.columns[static_cast<std::size_t>(toColumn)].firstSibling != static_cast<std::size_t>(edge.to)) {
            plan.laneOf[e] = toColumn;
            plan.intoColumn[e] = true;
        } else if (fromColumn >= 0
            && plan.columns[static_cast<std::size_t>(fromColumn)].lastSibling != static_cast<std::size_t>(edge.from)) {
            plan.laneOf[e] = fromColumn;
        }
    }
    return plan;
}

/// Each column of stacked siblings is one invisible chain of weight 2: its boxes on consecutive
/// ranks (weight 0 let dot leave an empty rank in a column) and in line.
void chainSiblingStacks(Agraph_t* g, const SiblingStacks& plan, const std::vector<Agnode_t*>& nodes)
{
    std::size_t made = 0;
    for (const auto& column : plan.columns)
        for (std::size_t k = 0; k + 1 < column.boxes.size(); ++k) {
            const std::string name = "sibling" + std::to_string(made++);
            Agedge_t* edge
                = agedge(g, nodes[column.boxes[k]], nodes[column.boxes[k + 1]], const_cast<char*>(name.c_str()), 1);
            set(edge, "weight", "2");
            set(edge, "minlen", "1");
            set(edge, "style", "invis");
        }
}

/// dot's final step moves the real nodes so that the drawing starts at (0, 0) but leaves its
/// virtual nodes where they were, and the shift is not kept anywhere. Recover it from what is
/// known of dot's solution: in every rank, neighbours are at least rw(left) + lw(right) +
/// nodesep apart. A virtual node to the left of a real one bounds the shift from below, one to
/// the right bounds it from above; any shift in between (the true one is) keeps every virtual
/// node off every box of its rank. In y, all nodes of a rank share one coordinate.
pointf virtualNodeShift(Agraph_t* g)
{
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    std::optional<double> shiftY;
    const double nodesep = GD_nodesep(g);
    for (int r = GD_minrank(g); r <= GD_maxrank(g); ++r) {
        const rank_t& rank = GD_rank(g)[r];
        for (int j = 0; j + 1 < rank.n; ++j) {
            Agnode_t* left = rank.v[j];
            Agnode_t* right = rank.v[j + 1];
            const bool leftVirtual = ND_node_type(left) == kVirtualNode;
            const bool rightVirtual = ND_node_type(right) == kVirtualNode;
            if (leftVirtual == rightVirtual)
                continue;
            const double gap = ND_rw(left) + ND_lw(right) + nodesep;
            if (rightVirtual)
                upper = std::min(upper, ND_coord(right).x - ND_coord(left).x - gap);
            else
                lower = std::max(lower, ND_coord(left).x + gap - ND_coord(right).x);
            if (!shiftY)
                shiftY = ND_coord(leftVirtual ? left : right).y - ND_coord(leftVirtual ? right : left).y;
        }
    }
    const double shiftX = std::isfinite(lower) ? lower : (std::isfinite(upper) ? upper : 0.0);
    return { shiftX, shiftY.value_or(0.0) };
}

/// The virtual nodes on which dot carries an edge across the ranks between its ends, in
/// Graphviz's chain order (top to bottom). Empty for edges between adjacent ranks or when the
/// chain does not look like one (then the edge is drawn directly).
std::vector<Agnode_t*> virtualChain(Agedge_t* edge, std::size_t maxHops)
{
    std::vector<Agnode_t*> points;
    Agedge_t* hop = ED_to_virt(edge);
    if (!hop)
        return points;
    Agnode_t* const tail = agtail(edge);
    Agnode_t* const head = aghead(edge);
    Agnode_t* start = agtail(hop);
    if (start != tail && start != head)
        return {};
    for (std::size_t hops = 0; hop && hops < maxHops; ++hops) {
        Agnode_t* next = aghead(hop);
        if (next == tail || next == head)
            return points;
        if (ND_node_type(next) != kVirtualNode || ND_out(next).size < 1)
            return {};
        points.push_back(next);
        hop = ND_out(next).list[0];
    }
    return {};
}

} // namespace

namespace detail {

/// dot's bounding box leaves out its virtual nodes (its spline router used to widen it): take
/// the drawing's own bounds, edges included, and move the origin back to its top-left.
void fitBounds(LayoutResult& result)
{
    double left = 0, top = 0, right = result.width, bottom = result.height;
    const auto extend = [&](double x0, double y0, double x1, double y1) {
        left = std::min(left, x0);
        top = std::min(top, y0);
        right = std::max(right, x1);
        bottom = std::max(bottom, y1);
    };
    for (const auto& node : result.nodes)
        extend(node.x - node.width / 2, node.y - node.height / 2, node.x + node.width / 2, node.y + node.height / 2);
    for (const auto& edge : result.edges)
        for (const LayoutPoint& p : edge.points)
            extend(p.x, p.y, p.x, p.y);
    for (const auto& cluster : result.clusters)
        extend(cluster.x, cluster.y, cluster.x + cluster.width, cluster.y + cluster.height);
    result.width = right - left;
    result.height = bottom - top;
    if (left == 0 && top == 0)
        return;
    for (auto& node : result.nodes) {
        node.x -= left;
        node.y -= top;
    }
    for (auto& edge : result.edges) {
        for (LayoutPoint& p : edge.points) {
            p.x -= left;
            p.y -= top;
        }
        edge.arrowTip.x -= left;
        edge.arrowTip.y -= top;
    }
    for (auto& cluster : result.clusters) {
        cluster.x -= left;
        cluster.y -= top;
    }
}

} // namespace detail

bool graphvizAvailable(std::string* reason)
{
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = context();
    if (!gvc) {
        if (reason)
            *reason = "Graphviz could not create a context";
        return false;
    }
    Agraph_t* g = agopen(const_cast<char*>("probe"), Agdirected, nullptr);
    agnode(g, const_cast<char*>("a"), 1);
    lastGraphvizMessage().clear();
    const int rc = gvLayout(gvc, g, "dot");
    if (rc == 0)
        gvFreeLayout(gvc, g);
    agclose(g);
    if (rc != 0 && reason)
        *reason = "Graphviz has no 'dot' layout plugin (" + lastGraphvizMessage()
            + "); install the graphviz package or run 'dot -c' as root to register its plugins";
    return rc == 0;
}

Result<LayoutResult> layoutGraph(const LayoutRequest& request, const std::atomic<bool>* cancel)
{
    const bool separate = std::any_of(
        request.clusters.begin(), request.clusters.end(), [](const LayoutRequest::Cluster& c) { return c.separate; });
    return separate ? detail::layoutComposed(request, cancel) : detail::layoutOnce(request, cancel);
}

Result<LayoutResult> detail::layoutOnce(const LayoutRequest& request, const std::atomic<bool>* cancel)
{
    const std::size_t depth = rankDepth(request);
    if (depth > kMaxGraphvizRanks)
        return makeError(Error::Code::Limit, {},
            "the graph is " + std::to_string(depth) + " ranks deep; Graphviz lays out at most "
                + std::to_string(kMaxGraphvizRanks) + " (show it in groups)");
    std::lock_guard lock(graphvizMutex());
    if (cancel && cancel->load())
        return makeError(Error::Code::Cancelled, {}, "layout stopped by the user");
    GVC_t* gvc = context();
    if (!gvc)
        return makeError(Error::Code::Io, {}, "Graphviz could not create a context");

    Agraph_t* g = agopen(const_cast<char*>("etscope"), Agdirected, nullptr);
    set(g, "rankdir", "TB");
    set(g, "nodesep", "0.25");
    set(g, "ranksep", "0.35");
    set(g, "fontname", request.fontName);
    set(g, "fontsize", number(request.fontSize));
    for (const auto& [name, value] : boundedAttributes(request.nodes.size(), request.safer))
        set(g, name, value);

    std::vector<Agraph_t*> clusters;
    for (std::size_t c = 0; c < request.clusters.size(); ++c) {
        const std::string name = "cluster_" + std::to_string(c);
        const int parent = request.clusters[c].parent;
        Agraph_t* owner
            = parent >= 0 && static_cast<std::size_t>(parent) < c ? clusters[static_cast<std::size_t>(parent)] : g;
        Agraph_t* sub = agsubg(owner, const_cast<char*>(name.c_str()), 1);
        set(sub, "label", request.clusters[c].label);
        set(sub, "labeljust", "l");
        set(sub, "fontname", request.fontName);
        set(sub, "fontsize", number(request.fontSize));
        set(sub, "margin", "10");
        clusters.push_back(sub);
    }

    std::vector<Agnode_t*> nodes;
    nodes.reserve(request.nodes.size());
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const LayoutRequest::Node& spec = request.nodes[i];
        const std::string name = "n" + std::to_string(i);
        Agraph_t* owner = spec.cluster >= 0 && static_cast<std::size_t>(spec.cluster) < clusters.size()
            ? clusters[static_cast<std::size_t>(spec.cluster)]
            : g;
        Agnode_t* node = agnode(owner, const_cast<char*>(name.c_str()), 1);
        set(node, "shape", "box");
        set(node, "fixedsize", "true");
        set(node, "label", "");
        set(node, "width", number(spec.width / 72.0));
        set(node, "height", number(spec.height / 72.0));
        nodes.push_back(node);
    }
    const SiblingStacks stacks = planSiblingStacks(request);
    std::vector<Agedge_t*> edges;
    edges.reserve(request.edges.size());
    for (const LayoutRequest::Edge& spec : request.edges) {
        if (stacks.laneOf[edges.size()] >= 0) {
            edges.push_back(nullptr); // drawn along its column's lane after the layout
            continue;
        }
        if (spec.from < 0 || spec.to < 0 || static_cast<std::size_t>(spec.from) >= nodes.size()
            || static_cast<std::size_t>(spec.to) >= nodes.size()) {
            edges.push_back(nullptr);
            continue;
        }
        // Named edges keep parallel edges (two values between the same nodes) apart.
        const std::string name = "e" + std::to_string(edges.size());
        Agedge_t* edge = agedge(g, nodes[static_cast<std::size_t>(spec.from)], nodes[static_cast<std::size_t>(spec.to)],
            const_cast<char*>(name.c_str()), 1);
        if (spec.orderOnly > 0) {
            set(edge, "weight", "0");
            set(edge, "minlen", std::to_string(spec.orderOnly));
            set(edge, "style", "invis");
        }
        edges.push_back(edge);
    }

    stackIsolatedBoxes(g, request, nodes);
    chainSiblingStacks(g, stacks, nodes);

    lastGraphvizMessage().clear();
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        return makeError(Error::Code::Io, {},
            "Graphviz could not lay out the graph: "
                + (lastGraphvizMessage().empty() ? std::string("unknown error") : lastGraphvizMessage())
                + " (is the graphviz package installed? 'dot -c' registers its plugins)");
    }

    LayoutResult result;
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    const auto flip = [&](pointf p) { return LayoutPoint { p.x - bb.LL.x, top - p.y }; };

    result.nodes.reserve(nodes.size());
    for (Agnode_t* node : nodes) {
        const LayoutPoint centre = flip(ND_coord(node));
        result.nodes.push_back({ centre.x, centre.y, ND_width(node) * 72.0, ND_height(node) * 72.0 });
    }
    result.edges.resize(edges.size());
    const std::size_t maxHops = static_cast<std::size_t>(std::max(0, GD_maxrank(g) - GD_minrank(g))) + 2;
    std::vector<Waypoint> waypoints;
    const pointf shift = virtualNodeShift(g);
    // A rank's extent around the y of one of its nodes (ht2 above the centre, ht1 below).
    const auto band = [&](Agnode_t* node, double centreY) {
        const rank_t& rank = GD_rank(g)[ND_rank(node)];
        return RankBand { centreY - rank.ht2, centreY + rank.ht1 };
    };
    // The extent of rank r, from any of its nodes (a virtual one moved by the lost shift).
    const auto rankBand = [&](int r) -> std::optional<RankBand> {
        if (r < GD_minrank(g) || r > GD_maxrank(g) || GD_rank(g)[r].n < 1)
            return std::nullopt;
        Agnode_t* any = GD_rank(g)[r].v[0];
        pointf centre = ND_coord(any);
        if (ND_node_type(any) == kVirtualNode)
            centre = { centre.x - shift.x, centre.y - shift.y };
        const double y = flip(centre).y;
        return RankBand { y - GD_rank(g)[r].ht2, y + GD_rank(g)[r].ht1 };
    };
    // A stacked sibling's edge runs straight down a lane beside its column: inputs a third of
    // the column gap to the left of the column's boxes, outputs a third to the right, so the two
    // lanes in one gap stay apart. Above the column a lane follows its first box, below it the
    // last.
    const double laneOffset = GD_nodesep(g) / 3;
    const auto routeLane = [&](std::size_t e) {
        const auto from = static_cast<std::size_t>(request.edges[e].from);
        const auto to = static_cast<std::size_t>(request.edges[e].to);
        const auto& column = stacks.columns[static_cast<std::size_t>(stacks.laneOf[e])].boxes;
        const bool input = stacks.intoColumn[e];
        waypoints.clear();
        std::size_t k = 0;
        for (int r = ND_rank(nodes[from]) + 1; r < ND_rank(nodes[to]); ++r) {
            while (k + 1 < column.size() && ND_rank(nodes[column[k + 1]]) <= r)
                ++k;
            const auto& box = result.nodes[column[k]];
            const double x = input ? box.x - box.width / 2 - laneOffset : box.x + box.width / 2 + laneOffset;
            if (const auto rankExtent = rankBand(r))
                waypoints.push_back({ x, *rankExtent });
        }
        const auto& a = result.nodes[from];
        const auto& b = result.nodes[to];
        result.edges[e] = routeEdge(a, band(nodes[from], a.y), b, band(nodes[to], b.y), waypoints);
    };
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (stacks.laneOf[i] >= 0) {
            routeLane(i);
            continue;
        }
        if (!edges[i] || request.edges[i].orderOnly > 0)
            continue;
        const auto from = static_cast<std::size_t>(request.edges[i].from);
        const auto to = static_cast<std::size_t>(request.edges[i].to);
        waypoints.clear();
        for (Agnode_t* hop : virtualChain(edges[i], maxHops)) {
            const LayoutPoint p = flip({ ND_coord(hop).x - shift.x, ND_coord(hop).y - shift.y });
            waypoints.push_back({ p.x, band(hop, p.y) });
        }
        const auto& a = result.nodes[from];
        const auto& b = result.nodes[to];
        result.edges[i] = routeEdge(a, band(nodes[from], a.y), b, band(nodes[to], b.y), waypoints);
    }
    for (Agraph_t* sub : clusters) {
        const boxf box = GD_bb(sub);
        const LayoutPoint topLeft = flip({ box.LL.x, box.UR.y });
        result.clusters.push_back({ topLeft.x, topLeft.y, box.UR.x - box.LL.x, box.UR.y - box.LL.y });
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    detail::fitBounds(result);
    return result;
}

} // namespace etscope::core
