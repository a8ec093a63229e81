// SPDX-License-Identifier: MIT
// Graphviz layout through core/layout: geometry is plain, y points down, clusters hold their
// members, edges run from their source to their target.
#include "layout/graphlayout.h"
#include "testsupport.h"

#include <QTest>

#include <atomic>
#include <cmath>

using namespace etscope::core;

namespace {

bool inside(const LayoutResult::Cluster& c, const LayoutResult::Node& n)
{
    return n.x - n.width / 2 >= c.x - 0.5 && n.x + n.width / 2 <= c.x + c.width + 0.5 && n.y - n.height / 2 >= c.y - 0.5
        && n.y + n.height / 2 <= c.y + c.height + 0.5;
}

double distance(LayoutPoint a, double x, double y)
{
    return std::hypot(a.x - x, a.y - y);
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
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
        }
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

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
