// SPDX-License-Identifier: MIT
// Graphviz layout through core/layout: geometry is plain, y points down, clusters hold their
// members, edges run from their source to their target.
//
// Why one file: one test class for core/layout (Graphviz layout, the opening and composed layouts,
// edge routes, rank depth, the helper's wire format); its short cases share the geometry checks above.
#include "core/layout/edgeroute.h"
#include "core/layout/graphlayout.h"
#include "core/layout/layoutwire.h"
#include "core/layout/openinglayout.h"
#include "core/layout/rankdepth.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <set>

using namespace etscope::core;

namespace {

bool inside(const LayoutResult::Cluster& c, const LayoutResult::Node& n)
{
    return n.x - n.width / 2 >= c.x - 0.5 && n.x + n.width / 2 <= c.x + c.width + 0.5 && n.y - n.height / 2 >= c.y - 0.5
        && n.y + n.height / 2 <= c.y + c.height + 0.5;
}

/// True when one of the curve's knots (not its ends) lies inside a box other than its own ends.
bool knotInsideAnotherBox(const LayoutResult& result, const LayoutRequest::Edge& spec, const LayoutResult::Edge& edge)
{
    for (std::size_t p = 3; p + 1 < edge.points.size(); p += 3)
        for (std::size_t n = 0; n < result.nodes.size(); ++n) {
            if (static_cast<int>(n) == spec.from || static_cast<int>(n) == spec.to)
                continue;
            const auto& box = result.nodes[n];
            if (std::abs(edge.points[p].x - box.x) < box.width / 2
                && std::abs(edge.points[p].y - box.y) < box.height / 2)
                return true;
        }
    return false;
}

double distance(LayoutPoint a, double x, double y)
{
    return std::hypot(a.x - x, a.y - y);
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void wireRoundTrip()
    {
        LayoutRequest request;
        request.nodes = { { 80, 30, -1 }, { 120.5, 36, 0 }, { 100, 36, 1 } };
        request.edges = { { 0, 1 }, { 1, 2 }, { 0, 2, 2 } };
        request.clusters = { { "XnnpackBackend #0", -1, true }, { "inner", 0, false } };
        request.fontName = "DejaVu Sans Mono";
        request.fontSize = 8.5;
        request.safer = true;
        const auto back = decodeLayoutRequest(encodeLayoutRequest(request));
        QVERIFY2(back, back ? "" : back.error().message().c_str());
        QCOMPARE(back->nodes.size(), std::size_t(3));
        QCOMPARE(back->nodes[1].width, 120.5);
        QCOMPARE(back->nodes[2].cluster, 1);
        QCOMPARE(back->edges[2].orderOnly, 2);
        QCOMPARE(back->clusters[0].label, std::string("XnnpackBackend #0"));
        QVERIFY(back->clusters[0].separate);
        QCOMPARE(back->clusters[1].parent, 0);
        QCOMPARE(back->fontName, request.fontName);
        QCOMPARE(back->fontSize, 8.5);
        QVERIFY(back->safer);

        const auto layout = layoutGraph(request);
        QVERIFY2(layout, layout ? "" : layout.error().message().c_str());
        const auto result = decodeLayoutResult(encodeLayoutResult(layout));
        QVERIFY(result);
        QCOMPARE(result->width, layout->width);
        QCOMPARE(result->nodes.size(), layout->nodes.size());
        for (std::size_t i = 0; i < layout->nodes.size(); ++i) {
            QCOMPARE(result->nodes[i].x, layout->nodes[i].x);
            QCOMPARE(result->nodes[i].y, layout->nodes[i].y);
        }
        QCOMPARE(result->edges[1].points.size(), layout->edges[1].points.size());
        QCOMPARE(result->edges[1].hasArrow, layout->edges[1].hasArrow);
        QCOMPARE(result->clusters.size(), layout->clusters.size());

        const auto error = decodeLayoutResult(encodeLayoutResult(
            Result<LayoutResult>(makeError(Error::Code::Limit, "f.pte", "too deep", std::uint64_t(12)))));
        QVERIFY(!error);
        QCOMPARE(error.error().code, Error::Code::Limit);
        QCOMPARE(error.error().message(), std::string("f.pte: too deep (at byte offset 12)"));
    }

    void wireRefusesBadBytes()
    {
        // Every truncation and every single-byte change of a request either decodes to a
        // request or fails with a reason; nothing allocates from a corrupt count.
        LayoutRequest request;
        request.nodes = { { 80, 30, -1 }, { 120, 36, 0 } };
        request.edges = { { 0, 1 } };
        request.clusters = { { "c", -1, false } };
        const std::string bytes = encodeLayoutRequest(request);
        for (std::size_t size = 0; size < bytes.size(); ++size) {
            const auto cut = decodeLayoutRequest(std::string_view(bytes).substr(0, size));
            QVERIFY(!cut);
            QCOMPARE(cut.error().code, Error::Code::Corrupt);
            QVERIFY(cut.error().offset.has_value());
        }
        for (std::size_t at = 0; at < bytes.size(); ++at) {
            std::string changed = bytes;
            changed[at] = static_cast<char>(0xFF);
            (void)decodeLayoutRequest(changed);
        }
        const std::string result = encodeLayoutResult(layoutGraph(request));
        for (std::size_t size = 0; size < result.size(); ++size)
            QVERIFY(!decodeLayoutResult(std::string_view(result).substr(0, size)));

        // Frames: incomplete ones wait for more bytes, oversized lengths are refused.
        const std::string frame = frameBytes("abc");
        std::string_view payload;
        QCOMPARE(*takeFrame(std::string_view(frame).substr(0, 5), payload), std::size_t(0));
        const std::string framed = frame + "rest"; // payload points into it
        QCOMPARE(*takeFrame(framed, payload), std::size_t(11));
        QCOMPARE(payload, std::string_view("abc"));
        const std::string huge(8, '\xFF');
        QVERIFY(!takeFrame(huge, payload));
    }

    void openingKeepsTheRestInPlace()
    {
        // Before: a → B → c, and a → d → c beside B. After: B opens into m1 → m2.
        LayoutRequest before;
        before.nodes = { { 80, 30, -1 }, { 100, 36, -1 }, { 80, 30, -1 }, { 90, 30, -1 } };
        before.edges = { { 0, 1 }, { 1, 2 }, { 0, 3 }, { 3, 2 } };
        const auto earlier = layoutGraph(before);
        QVERIFY(earlier);
        LayoutRequest after;
        after.nodes = { { 80, 30, -1 }, { 80, 30, -1 }, { 90, 30, -1 }, { 200, 36, 0 }, { 200, 36, 0 } };
        after.edges = { { 0, 3 }, { 3, 4 }, { 4, 1 }, { 0, 2 }, { 2, 1 } };
        after.clusters = { { "delegate", -1, false } };
        const ClusterPart part = clusterPart(after, 0);
        QCOMPARE(part.nodes, (std::vector<int> { 3, 4 }));
        QCOMPARE(part.edges, (std::vector<int> { 1 }));
        QVERIFY(part.request.clusters.empty());
        const auto inner = layoutGraph(part.request);
        QVERIFY(inner);
        LayoutOpening opening { 1, 0, { 0, 2, 3, -1, -1 }, { -1 } };
        const auto composed = composeOpening(after, before, *earlier, opening, *inner);
        QVERIFY(composed);

        const auto& box = earlier->nodes[1];
        const auto& frame = composed->clusters[0];
        QCOMPARE(frame.x, box.x - box.width / 2);
        QCOMPARE(frame.y, box.y - box.height / 2);
        QVERIFY(frame.width >= 200 && frame.height > 2 * 36);
        const double growth = frame.height - box.height;
        // a (above) does not move; c (below) moves down by the growth; d keeps its rank's y.
        QCOMPARE(composed->nodes[0].x, earlier->nodes[0].x);
        QCOMPARE(composed->nodes[0].y, earlier->nodes[0].y);
        QCOMPARE(composed->nodes[1].x, earlier->nodes[2].x);
        QCOMPARE(composed->nodes[1].y, earlier->nodes[2].y + growth);
        QCOMPARE(composed->nodes[2].y, earlier->nodes[3].y);
        if (earlier->nodes[3].x > box.x)
            QCOMPARE(composed->nodes[2].x, earlier->nodes[3].x + frame.width - box.width);
        // Members inside the frame; edges continue to them.
        QVERIFY(inside(frame, composed->nodes[3]));
        QVERIFY(inside(frame, composed->nodes[4]));
        const auto& m1 = composed->nodes[3];
        const auto& m2 = composed->nodes[4];
        QCOMPARE(composed->edges[0].arrowTip.x, m1.x);
        QCOMPARE(composed->edges[0].arrowTip.y, m1.y - m1.height / 2);
        QCOMPARE(composed->edges[2].points.front().x, m2.x);
        QCOMPARE(composed->edges[2].points.front().y, m2.y + m2.height / 2);
        QVERIFY(!composed->edges[1].points.empty());

        // Openings that do not describe the two requests are refused.
        LayoutOpening twice = opening;
        twice.previousNode = { 0, 0, 3, -1, -1 };
        QVERIFY(!composeOpening(after, before, *earlier, twice, *inner));
        LayoutOpening boxKept = opening;
        boxKept.previousNode = { 0, 1, 3, -1, -1 };
        QVERIFY(!composeOpening(after, before, *earlier, boxKept, *inner));
        LayoutOpening short_ = opening;
        short_.previousNode.pop_back();
        QVERIFY(!composeOpening(after, before, *earlier, short_, *inner));
        LayoutRequest extraEdge = after;
        extraEdge.edges.push_back({ 0, 1 }); // a → c never existed
        QVERIFY(!composeOpening(extraEdge, before, *earlier, opening, *inner));
    }

    void closingGivesTheRoomBack()
    {
        // Same two requests as above: a → B → c, a → d → c; B opens into m1 → m2.
        LayoutRequest before;
        before.nodes = { { 80, 30, -1 }, { 100, 36, -1 }, { 80, 30, -1 }, { 90, 30, -1 } };
        before.edges = { { 0, 1 }, { 1, 2 }, { 0, 3 }, { 3, 2 } };
        LayoutRequest after;
        after.nodes = { { 80, 30, -1 }, { 80, 30, -1 }, { 90, 30, -1 }, { 200, 36, 0 }, { 200, 36, 0 } };
        after.edges = { { 0, 3 }, { 3, 4 }, { 4, 1 }, { 0, 2 }, { 2, 1 } };
        after.clusters = { { "delegate", -1, false } };
        const LayoutOpening opening { 1, 0, { 0, 2, 3, -1, -1 }, { -1 } };
        const auto earlier = layoutGraph(before);
        const auto inner = layoutGraph(clusterPart(after, 0).request);
        QVERIFY(earlier && inner);
        const auto opened = composeOpening(after, before, *earlier, opening, *inner);
        QVERIFY(opened);

        // Closing what was just opened gives the earlier drawing back.
        const auto closed = composeClosing(before, after, *opened, opening);
        QVERIFY(closed);
        QCOMPARE(closed->nodes.size(), before.nodes.size());
        QCOMPARE(closed->edges.size(), before.edges.size());
        for (std::size_t i = 0; i < before.nodes.size(); ++i) {
            QVERIFY(std::abs(closed->nodes[i].x - earlier->nodes[i].x) < 0.01);
            QVERIFY(std::abs(closed->nodes[i].y - earlier->nodes[i].y) < 0.01);
        }
        QVERIFY(closed->width <= earlier->width + 0.01 && closed->height <= earlier->height + 0.01);
        for (const auto& node : closed->nodes)
            QVERIFY(
                node.x + node.width / 2 <= closed->width + 0.01 && node.y + node.height / 2 <= closed->height + 0.01);

        // Closing a drawing laid out whole: the box takes the frame's top-left corner, nothing
        // above or left of it moves, what is below moves up by what the frame was taller.
        const auto whole = layoutGraph(after);
        QVERIFY(whole);
        const auto shrunk = composeClosing(before, after, *whole, opening);
        QVERIFY(shrunk);
        const auto& frame = whole->clusters[0];
        const auto& box = shrunk->nodes[1];
        QCOMPARE(box.width, 100.0);
        QCOMPARE(box.x - box.width / 2, frame.x);
        QCOMPARE(box.y - box.height / 2, frame.y);
        QCOMPARE(shrunk->nodes[0].x, whole->nodes[0].x);
        QCOMPARE(shrunk->nodes[0].y, whole->nodes[0].y);
        QCOMPARE(shrunk->nodes[2].y, whole->nodes[1].y - (frame.height - box.height));
        QCOMPARE(shrunk->nodes[2].x, whole->nodes[1].x);
        // The edge into the box ends on its top, the one out of it starts at its bottom.
        const auto& in = shrunk->edges[0];
        QVERIFY(in.hasArrow);
        QCOMPARE(in.arrowTip.y, box.y - box.height / 2);
        QVERIFY(in.arrowTip.x >= box.x - box.width / 2 && in.arrowTip.x <= box.x + box.width / 2);
        QCOMPARE((in.points.size() - 1) % 3, std::size_t(0));
        const auto& out = shrunk->edges[1];
        QCOMPARE(out.points.front().y, box.y + box.height / 2);
        QCOMPARE((out.points.size() - 1) % 3, std::size_t(0));
        QCOMPARE(out.arrowTip.y, shrunk->nodes[2].y - shrunk->nodes[2].height / 2);
        // No route is left running through where the members were: no knot inside the box.
        for (const auto& edge : shrunk->edges)
            for (const auto& p : edge.points)
                QVERIFY(std::abs(p.x - box.x) >= box.width / 2 - 1 || std::abs(p.y - box.y) >= box.height / 2 - 1);

        // Openings that do not describe the two requests are refused.
        LayoutOpening twice = opening;
        twice.previousNode = { 0, 0, 3, -1, -1 };
        QVERIFY(!composeClosing(before, after, *whole, twice));
        LayoutRequest extraEdge = before;
        extraEdge.edges.push_back({ 0, 2 }); // a → c is not drawn in the opened drawing
        QVERIFY(!composeClosing(extraEdge, after, *whole, opening));
    }

    void graphvizIsAvailable()
    {
        std::string reason;
        QVERIFY2(graphvizAvailable(&reason), reason.c_str());
    }

    void chainWithCluster()
    {
        // input → a → [cluster: b → c] → output, plus a skip edge a → output.
        LayoutRequest request;
        request.nodes = { { 80, 30, -1 }, { 120, 36, -1 }, { 100, 36, 0 }, { 100, 36, 0 }, { 80, 30, -1 } };
        request.edges = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 1, 4 } };
        request.clusters = { { "XnnpackBackend #0" } };
        auto result = layoutGraph(request);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        QCOMPARE(result->nodes.size(), std::size_t(5));
        QCOMPARE(result->edges.size(), std::size_t(5));
        QCOMPARE(result->clusters.size(), std::size_t(1));
        // Sizes are kept (fixedsize), positions are inside the drawing, ranks go down.
        for (std::size_t i = 0; i < request.nodes.size(); ++i) {
            QVERIFY(std::abs(result->nodes[i].width - request.nodes[i].width) < 1.0);
            QVERIFY(std::abs(result->nodes[i].height - request.nodes[i].height) < 1.0);
            QVERIFY(result->nodes[i].x >= 0 && result->nodes[i].x <= result->width);
            QVERIFY(result->nodes[i].y >= 0 && result->nodes[i].y <= result->height);
        }
        for (const auto& edge : request.edges)
            QVERIFY(result->nodes[static_cast<std::size_t>(edge.from)].y
                < result->nodes[static_cast<std::size_t>(edge.to)].y);
        QVERIFY(inside(result->clusters[0], result->nodes[2]));
        QVERIFY(inside(result->clusters[0], result->nodes[3]));
        QVERIFY(!inside(result->clusters[0], result->nodes[1]));
        // Each edge starts near its source and its arrow points at the target's border.
        for (std::size_t i = 0; i < request.edges.size(); ++i) {
            const auto& geometry = result->edges[i];
            QVERIFY(geometry.points.size() >= 4);
            QCOMPARE((geometry.points.size() - 1) % 3, std::size_t(0));
            const auto& from = result->nodes[static_cast<std::size_t>(request.edges[i].from)];
            const auto& to = result->nodes[static_cast<std::size_t>(request.edges[i].to)];
            QVERIFY(distance(geometry.points.front(), from.x, from.y) <= std::hypot(from.width, from.height) / 2 + 2);
            QVERIFY(geometry.hasArrow);
            QVERIFY(distance(geometry.arrowTip, to.x, to.y) <= std::hypot(to.width, to.height) / 2 + 2);
            QVERIFY(!knotInsideAnotherBox(*result, request.edges[i], geometry));
        }
    }

    /// A separate cluster is laid out alone and placed as one box: its members inside it, no
    /// outside node inside it, edges into it ending on the member's top, edges out of it
    /// starting at the member's bottom.
    void separateClusterIsComposed()
    {
        // input → a → [cluster: chain of 30 with a side branch] → b → output; a → b skips it.
        LayoutRequest request;
        request.nodes = { { 80, 30, -1 }, { 120, 36, -1 } };
        for (int i = 0; i < 30; ++i)
            request.nodes.push_back({ 100, 30, 0 });
        request.nodes.push_back({ 60, 30, 0 }); // side branch, node 32
        request.nodes.push_back({ 120, 36, -1 }); // b, node 33
        request.nodes.push_back({ 80, 30, -1 }); // output, node 34
        request.clusters = { { "delegate", -1, true } };
        request.edges = { { 0, 1 }, { 1, 2 } };
        for (int i = 2; i < 31; ++i)
            request.edges.push_back({ i, i + 1 });
        request.edges.push_back({ 32, 10 });
        request.edges.push_back({ 31, 33 });
        request.edges.push_back({ 33, 34 });
        request.edges.push_back({ 1, 33 });
        auto result = layoutGraph(request);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        const LayoutResult& r = result.value();
        QCOMPARE(r.nodes.size(), request.nodes.size());
        QCOMPARE(r.edges.size(), request.edges.size());
        QCOMPARE(r.clusters.size(), std::size_t(1));
        const auto& frame = r.clusters.front();
        for (std::size_t n = 0; n < r.nodes.size(); ++n) {
            const bool member = request.nodes[n].cluster == 0;
            QCOMPARE(inside(frame, r.nodes[n]), member);
            QVERIFY(
                r.nodes[n].x - r.nodes[n].width / 2 >= -0.5 && r.nodes[n].x + r.nodes[n].width / 2 <= r.width + 0.5);
        }
        QCOMPARE(r.nodes[2].width, 100.0);
        // a → first member: arrives on the member's top, after crossing the frame's top.
        const auto& in = r.edges[1];
        QVERIFY(in.hasArrow);
        QVERIFY(distance(in.arrowTip, r.nodes[2].x, r.nodes[2].y - r.nodes[2].height / 2) < 0.5);
        QVERIFY(in.points.front().y < frame.y);
        QCOMPARE((in.points.size() - 1) % 3, std::size_t(0));
        // last member → b: leaves from the member's bottom, ends on b.
        const auto& out = r.edges[32];
        QVERIFY(distance(out.points.front(), r.nodes[31].x, r.nodes[31].y + r.nodes[31].height / 2) < 0.5);
        QVERIFY(distance(out.arrowTip, r.nodes[33].x, r.nodes[33].y - r.nodes[33].height / 2) < 2);
        QCOMPARE((out.points.size() - 1) % 3, std::size_t(0));
        // Inside edges run down the inside; the skip edge stays outside the frame.
        for (std::size_t e = 2; e < 32; ++e)
            for (const LayoutPoint& p : r.edges[e].points)
                QVERIFY(
                    p.x >= frame.x && p.x <= frame.x + frame.width && p.y >= frame.y && p.y <= frame.y + frame.height);
        QVERIFY(r.nodes[33].y > frame.y + frame.height);
    }

    /// Boxes no edge touches (a QNN context's op nodes) used to share one rank: 1,552 of them a
    /// row 16,000 px wide. Inside a separate cluster, whose inputs are joined to boxes outside
    /// it, the isolated ones are stacked in columns and the joined ones stay on the first rank.
    void isolatedBoxesAreStacked()
    {
        LayoutRequest request;
        request.nodes = { { 80, 30, -1 } }; // outer input, node 0
        request.nodes.push_back({ 100, 30, 0 }); // inner input, node 1
        for (int i = 0; i < 300; ++i)
            request.nodes.push_back({ 120, 30, 0 }); // isolated, nodes 2..301
        request.clusters = { { "delegate", -1, true } };
        request.edges = { { 0, 1 } };
        auto result = layoutGraph(request);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        const LayoutResult& r = result.value();
        QCOMPARE(r.nodes.size(), request.nodes.size());
        // One row would be 300 × 120 pt wide. sqrt(3 · 300) = 30 rows: 10 columns.
        QVERIFY2(r.width < 20 * 140, std::to_string(r.width).c_str());
        QVERIFY2(r.height > 20 * 30, std::to_string(r.height).c_str());
        std::set<long> rows;
        for (int i = 2; i < 302; ++i)
            rows.insert(std::lround(r.nodes[static_cast<std::size_t>(i)].y));
        QCOMPARE(rows.size(), std::size_t(30));
        // The inner input (joined to the outside) is not in a column: it stays on the first rank.
        for (int i = 2; i < 302; ++i)
            QVERIFY(r.nodes[1].y <= r.nodes[static_cast<std::size_t>(i)].y + 0.5);
        // The only drawn edge keeps its route; the stacking adds none.
        QCOMPARE(r.edges.size(), std::size_t(1));
        QVERIFY(!r.edges[0].points.empty());
    }

    /// One source feeding `count` siblings (boxes 1..count) that all feed one sink: an Ethos-U
    /// command stream's 224 one-row AvgPools made a row 16,000 px wide.
    static LayoutRequest fan(int count)
    {
        LayoutRequest request;
        request.nodes.push_back({ 120, 30, -1 });
        for (int i = 0; i < count; ++i)
            request.nodes.push_back({ 120, 30, -1 });
        request.nodes.push_back({ 120, 30, -1 });
        for (int i = 1; i <= count; ++i)
            request.edges.push_back({ 0, i });
        for (int i = 1; i <= count; ++i)
            request.edges.push_back({ i, count + 1 });
        return request;
    }

    static std::set<long> distinctRows(const LayoutResult& r)
    {
        std::set<long> rows;
        for (const auto& node : r.nodes)
            rows.insert(std::lround(node.y));
        return rows;
    }

    void parallelSiblingsAreStacked()
    {
        const LayoutRequest request = fan(30);
        auto result = layoutGraph(request);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        const LayoutResult& r = result.value();
        // sqrt(3 · 30) = 9.5: columns of 10 rows, 3 columns; with the source and the sink,
        // 12 ranks at most (sqrt(3·30) + 2 = 11.5, rounded up).
        QVERIFY2(distinctRows(r).size() <= 12, std::to_string(distinctRows(r).size()).c_str());
        QVERIFY(distinctRows(r).size() >= 10);
        // In one row the 30 boxes would be 30 × (120 + 18 nodesep) = 4,140 pt wide. Three
        // columns are 3 × 138 = 414 pt; the lanes only use the column gaps, so the block stays
        // under four box widths plus gaps (552 pt) where dot's virtual nodes (one per edge and
        // rank crossed, about 20 pt each) would have added some 600 pt more.
        QVERIFY2(r.width < 4 * 138, std::to_string(r.width).c_str());
        // Source above every sibling, sink below every sibling.
        for (int i = 1; i <= 30; ++i) {
            QVERIFY(r.nodes[0].y < r.nodes[static_cast<std::size_t>(i)].y);
            QVERIFY(r.nodes[31].y > r.nodes[static_cast<std::size_t>(i)].y);
        }
        // Request order down each column: sibling i+1 is below sibling i or starts a column.
        std::size_t columnStarts = 1;
        for (int i = 1; i < 30; ++i)
            if (r.nodes[static_cast<std::size_t>(i + 1)].y < r.nodes[static_cast<std::size_t>(i)].y)
                ++columnStarts;
        QCOMPARE(columnStarts, std::size_t(3));
        // Every edge is drawn, from its source's border to its target's, and no point of any
        // edge (the curve stays inside its control polygon's hull) lies inside a box.
        QCOMPARE(r.edges.size(), std::size_t(60));
        for (std::size_t e = 0; e < r.edges.size(); ++e) {
            const auto& edge = r.edges[e];
            QVERIFY(!edge.points.empty());
            QCOMPARE((edge.points.size() - 1) % 3, std::size_t(0));
            const auto& to = r.nodes[static_cast<std::size_t>(request.edges[e].to)];
            QVERIFY(distance(edge.arrowTip, edge.arrowTip.x, to.y - to.height / 2) < 0.5);
            QVERIFY(std::abs(edge.arrowTip.x - to.x) <= to.width / 2);
            for (const LayoutPoint& p : edge.points)
                for (const auto& box : r.nodes)
                    QVERIFY2(!(std::abs(p.x - box.x) < box.width / 2 - 1 && std::abs(p.y - box.y) < box.height / 2 - 1),
                        ("edge " + std::to_string(e) + " crosses a box").c_str());
        }
    }

    /// Vela's channel slices: 40 Conv 1×1 that read one tensor and each its own weights' DMA
    /// (a box without input that feeds only it), all feeding one sink. Each DMA stays above its
    /// conv, on the rank just above it.
    void siblingsWithPrivateFeedersAreStacked()
    {
        LayoutRequest request;
        request.nodes.push_back({ 120, 30, -1 }); // shared input, node 0
        for (int i = 0; i < 40; ++i) {
            request.nodes.push_back({ 120, 30, -1 }); // DMA, node 1 + 2i
            request.nodes.push_back({ 120, 30, -1 }); // conv, node 2 + 2i
        }
        request.nodes.push_back({ 120, 30, -1 }); // sink, node 81
        for (int i = 0; i < 40; ++i) {
            request.edges.push_back({ 0, 2 + 2 * i });
            request.edges.push_back({ 1 + 2 * i, 2 + 2 * i });
            request.edges.push_back({ 2 + 2 * i, 81 });
        }
        auto result = layoutGraph(request);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        const LayoutResult& r = result.value();
        // sqrt(3 · 40 / 2) = 7.7: 8 pairs (16 ranks) per column, 5 columns; with input and sink
        // 18 ranks. One row of 40 convs (and one of 40 DMAs) would be 40 × 138 = 5,520 pt wide;
        // five columns are 690 pt.
        const std::size_t rows = distinctRows(r).size();
        QVERIFY2(rows >= 16 && rows <= 18, std::to_string(rows).c_str());
        QVERIFY2(r.width < 6 * 138, std::to_string(r.width).c_str());
        for (int i = 0; i < 40; ++i) {
            const auto& dma = r.nodes[static_cast<std::size_t>(1 + 2 * i)];
            const auto& conv = r.nodes[static_cast<std::size_t>(2 + 2 * i)];
            QVERIFY(dma.y < conv.y);
            QVERIFY(conv.y - dma.y < 60); // one rank: 30 pt box + 25 pt rank gap
        }
        for (const auto& edge : r.edges)
            for (const LayoutPoint& p : edge.points)
                for (const auto& box : r.nodes)
                    QVERIFY(!(std::abs(p.x - box.x) < box.width / 2 - 1 && std::abs(p.y - box.y) < box.height / 2 - 1));
    }

    void twelveSiblingsStayInOneRow()
    {
        auto result = layoutGraph(fan(12));
        QVERIFY(result);
        // Source, twelve siblings side by side, sink: three rows, as before the stacking.
        QCOMPARE(distinctRows(result.value()).size(), std::size_t(3));
        QVERIFY(result->width > 12 * 120);
    }

    void parallelEdgesAreKept()
    {
        LayoutRequest request;
        request.nodes = { { 60, 30, -1 }, { 60, 30, -1 } };
        request.edges = { { 0, 1 }, { 0, 1 }, { 0, 5 } };
        auto result = layoutGraph(request);
        QVERIFY(result);
        QVERIFY(!result->edges[0].points.empty());
        QVERIFY(!result->edges[1].points.empty());
        QVERIFY(result->edges[2].points.empty()); // out of range: dropped, not a crash
    }

    void cancelledBeforeStart()
    {
        std::atomic<bool> cancel { true };
        LayoutRequest request;
        request.nodes = { { 60, 30, -1 } };
        auto result = layoutGraph(request, &cancel);
        QVERIFY(!result);
        QCOMPARE(result.error().code, Error::Code::Cancelled);
    }

    void longEdgesPassThroughRankGaps()
    {
        // a → b → c → d → e and a skip edge a → e: Graphviz carries the skip edge on virtual
        // nodes beside b, c and d; it must be drawn through them, not across the boxes.
        LayoutRequest request;
        for (int i = 0; i < 5; ++i)
            request.nodes.push_back({ 120, 36, -1 });
        request.edges = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 0, 4 } };
        auto result = layoutGraph(request);
        QVERIFY(result);
        const auto& skip = result->edges[4];
        QVERIFY2(skip.points.size() >= 1 + 3 * 4, "three waypoints and the end: four cubic segments");
        for (std::size_t p = 1; p < skip.points.size(); ++p)
            QVERIFY(skip.points[p].y >= skip.points[p - 1].y - 0.01); // always downwards
        QVERIFY2(!knotInsideAnotherBox(*result, request.edges[4], skip), "a long edge crosses a box");
        // Adjacent ranks: one segment from the source's bottom to one arrow length above the tip.
        const auto& direct = result->edges[0];
        QCOMPARE(direct.points.size(), std::size_t(4));
        QVERIFY(std::abs(direct.points.front().y - (result->nodes[0].y + 18)) < 0.5);
        QVERIFY(std::abs(direct.arrowTip.y - (result->nodes[1].y - 18)) < 0.5);
        QVERIFY(std::abs(direct.points.back().y - (direct.arrowTip.y - kArrowHeadLength)) < 0.5);
    }

    void drawingBoundsHoldEverything()
    {
        // Many long edges fanning out of one node: dot leaves its virtual nodes out of its own
        // bounding box; the result must not.
        LayoutRequest request;
        request.nodes.push_back({ 60, 30, -1 });
        for (int i = 1; i <= 30; ++i) {
            request.nodes.push_back({ 60, 30, -1 });
            request.edges.push_back({ i - 1, i });
            request.edges.push_back({ 0, i });
        }
        auto result = layoutGraph(request);
        QVERIFY(result);
        for (const auto& edge : result->edges)
            for (const LayoutPoint& p : edge.points) {
                QVERIFY(p.x >= -0.01 && p.x <= result->width + 0.01);
                QVERIFY(p.y >= -0.01 && p.y <= result->height + 0.01);
            }
    }

    void routeEdgeEndsAtTheBorders()
    {
        const LayoutResult::Node from { 100, 50, 80, 30 };
        const LayoutResult::Node to { 160, 250, 80, 30 };
        const std::vector<Waypoint> gaps { { 130, { 95, 125 } }, { 150, { 165, 195 } } };
        const auto edge = routeEdge(from, { 35, 65 }, to, { 235, 265 }, gaps);
        QCOMPARE((edge.points.size() - 1) % 3, std::size_t(0));
        QCOMPARE(edge.points.front().y, 65.0); // bottom border of `from`
        QVERIFY(edge.points.front().x > from.x && edge.points.front().x < from.x + 40); // towards the edge
        QCOMPARE(edge.points[1].x, edge.points[0].x); // leaves vertically
        QCOMPARE(edge.arrowTip.y, 235.0); // top border of `to`
        QCOMPARE(edge.points.back().y, 235.0 - kArrowHeadLength);
        QCOMPARE(edge.points.back().x, edge.arrowTip.x); // enters vertically
        for (std::size_t p = 1; p < edge.points.size(); ++p)
            QVERIFY(edge.points[p].y >= edge.points[p - 1].y);
        // Inside each rank it crosses, the curve keeps close to the waypoint's column (where
        // Graphviz left room for it), whatever column it came from.
        for (const Waypoint& gap : gaps) {
            bool crossed = false;
            for (std::size_t p = 0; p < edge.points.size(); p += 3)
                if (edge.points[p].y > gap.band.top && edge.points[p].y < gap.band.bottom) {
                    QVERIFY(std::abs(edge.points[p].x - gap.x) < 5);
                    crossed = true;
                }
            QVERIFY(crossed);
        }
    }

    void tooDeepIsRefusedBeforeGraphviz()
    {
        // Graphviz 2.42 corrupts its heap beyond 32,767 ranks (SIGSEGV): never let it try.
        LayoutRequest request;
        const int count = static_cast<int>(kMaxGraphvizRanks) + 1;
        request.nodes.assign(static_cast<std::size_t>(count), { 60, 30, -1 });
        for (int i = 0; i + 1 < count; ++i)
            request.edges.push_back({ i, i + 1 });
        QCOMPARE(rankDepth(request), std::size_t(count));
        auto result = layoutGraph(request);
        QVERIFY(!result);
        QCOMPARE(result.error().code, Error::Code::Limit);
        QVERIFY2(result.error().reason.find("30001 ranks deep") != std::string::npos, result.error().reason.c_str());
    }

    void rankDepthSurvivesCycles()
    {
        LayoutRequest request;
        request.nodes.assign(4, { 60, 30, -1 });
        request.edges = { { 0, 1 }, { 1, 2 }, { 2, 1 }, { 2, 3 }, { 3, 3 } };
        const auto ranks = longestPathRanks(request);
        QCOMPARE(ranks.size(), std::size_t(4));
        QCOMPARE(ranks[0], 0);
        QVERIFY(rankDepth(request) <= 4);
    }

    void largeChainIsFast()
    {
        // 2,000 nodes must lay out (newrank + nslimit=0); timing targets live in bench/.
        LayoutRequest request;
        for (int i = 0; i < 2000; ++i)
            request.nodes.push_back({ 90, 30, -1 });
        for (int i = 0; i + 1 < 2000; ++i)
            request.edges.push_back({ i, i + 1 });
        for (int i = 0; i + 5 < 2000; i += 5)
            request.edges.push_back({ i, i + 5 });
        auto result = layoutGraph(request);
        QVERIFY(result);
        QVERIFY(result->nodes.back().y > result->nodes.front().y);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
