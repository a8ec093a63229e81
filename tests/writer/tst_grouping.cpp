// SPDX-License-Identifier: MIT
// Long methods cut into groups: every instruction in exactly one run, cuts between transformer
// blocks, closed groups drawn as one box with their edges merged, open groups as a frame.
#include "core/graph/flatten.h"
#include "core/graph/grouping.h"
#include "core/layout/rankdepth.h"
#include "core/writer/transformermodels.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace etscope::core;

namespace {

struct Built {
    Document document;
    const Graph* graph = nullptr;
    Grouping grouping;
};

} // namespace

class TestGrouping : public QObject {
    Q_OBJECT
    etscope::test::ScratchDir m_scratch;

    Result<Built> transformer(int instructions)
    {
        TransformerOptions options;
        options.instructions = instructions;
        auto document = m_scratch.writeAndOpen(
            makeTransformerProgram(options).program.spec, "transformer" + std::to_string(instructions) + ".pte");
        if (!document)
            return document.error();
        Built built { std::move(document).value() };
        built.graph = built.document.methods.front().graph.get();
        built.grouping = groupLongGraph(*built.graph);
        return built;
    }

private Q_SLOTS:
    void shortMethodsAreDrawnWhole()
    {
        ETSCOPE_TAKE(const Built built, transformer(200));
        QVERIFY(built.graph->nodes.size() <= kGroupAboveNodes);
        QVERIFY(built.grouping.empty());
        QVERIFY(built.grouping.groupOf.empty());
    }

    void everyInstructionInOneRun()
    {
        ETSCOPE_TAKE(const Built built, transformer(3000));
        const Graph& graph = *built.graph;
        const Grouping& grouping = built.grouping;
        QVERIFY(grouping.groups.size() >= 2);
        QVERIFY(grouping.groups.size() <= kMaxGroups);
        QCOMPARE(grouping.groupOf.size(), graph.nodes.size());
        std::size_t members = 0;
        for (std::size_t g = 0; g < grouping.groups.size(); ++g) {
            const NodeGroup& group = grouping.groups[g];
            members += group.members.size();
            QVERIFY(group.first.value <= group.last.value);
            if (g > 0)
                QCOMPARE(group.first.value, grouping.groups[g - 1].last.value + 1);
            int operators = 0;
            for (const NodeId id : group.members) {
                QCOMPARE(grouping.groupOf[id.index()], static_cast<int>(g));
                const Node& node = graph.node(id);
                if (node.instruction.valid()) {
                    QVERIFY(node.instruction.value >= group.first.value);
                    QVERIFY(node.instruction.value <= group.last.value);
                }
                operators += node.kind == NodeKind::Operator ? 1 : 0;
            }
            QCOMPARE(group.operators, operators);
            QVERIFY(!group.topOperators.empty());
            QVERIFY(group.topOperators.size() <= 3);
        }
        QCOMPARE(grouping.groups.front().first.value, 0);
        QCOMPARE(grouping.groups.back().last.value, 2999);
        std::size_t grouped = 0;
        for (const Node& node : graph.nodes) {
            const int g = grouping.groupOf[node.id.index()];
            grouped += g >= 0 ? 1 : 0;
            if (node.kind == NodeKind::Input || node.kind == NodeKind::Output)
                QCOMPARE(g, -1);
            else if (node.instruction.valid())
                QVERIFY(g >= 0);
        }
        QCOMPARE(members, grouped);
    }

    /// Before a block (instruction 0) and before its MLP half (instruction 24, after the
    /// attention's residual add) only the residual stream is live: the cuts fall there.
    void cutsFallBetweenBlocks()
    {
        ETSCOPE_TAKE(const Built built, transformer(6200));
        QVERIFY(built.grouping.groups.size() > 4);
        for (std::size_t g = 1; g < built.grouping.groups.size(); ++g)
            QVERIFY2(built.grouping.groups[g].first.value % transformer::kBlockInstructions == 0
                    || built.grouping.groups[g].first.value % transformer::kBlockInstructions == 24,
                qPrintable(QStringLiteral("group %1 starts at instruction %2")
                               .arg(g)
                               .arg(built.grouping.groups[g].first.value)));
    }

    void closedGroupsAreOneBoxEach()
    {
        ETSCOPE_TAKE(const Built built, transformer(3000));
        FlattenOptions options;
        options.grouping = &built.grouping;
        const FlatGraph flat = flattenGraph(*built.graph, options);
        std::size_t groupBoxes = 0;
        std::set<std::pair<int, int>> seen;
        for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i) {
            const Node& node = flat.graph.nodes[i];
            if (node.kind == NodeKind::Group) {
                QCOMPARE(flat.origins[i].group(), static_cast<int>(groupBoxes));
                QCOMPARE(node.label, groupLabel(built.grouping.groups[groupBoxes]));
                ++groupBoxes;
            } else {
                QVERIFY(node.kind == NodeKind::Input || node.kind == NodeKind::Output);
            }
        }
        QCOMPARE(groupBoxes, built.grouping.groups.size());
        QVERIFY(flat.clusters.empty());
        for (const Edge& edge : flat.graph.edges) {
            QVERIFY(edge.from != edge.to);
            QVERIFY2(seen.insert({ edge.from.value, edge.to.value }).second, "parallel edges to a group are merged");
        }
        // The shared attention scale is drawn inside every group: no edge jumps over a group.
        for (const Edge& edge : flat.graph.edges) {
            const int from = flat.origins[edge.from.index()].group();
            const int to = flat.origins[edge.to.index()].group();
            if (from >= 0 && to >= 0)
                QCOMPARE(to, from + 1);
        }
        // A chain of groups between the input and the output: depth grows with groups, not instructions.
        LayoutRequest request;
        request.nodes.resize(flat.graph.nodes.size());
        for (const Edge& edge : flat.graph.edges)
            request.edges.push_back({ edge.from.value, edge.to.value });
        QCOMPARE(rankDepth(request), built.grouping.groups.size() + 2);
    }

    void openGroupIsAFrame()
    {
        ETSCOPE_TAKE(const Built built, transformer(3000));
        const int open = 1;
        FlattenOptions options;
        options.grouping = &built.grouping;
        options.openGroup = [&](int group) { return group == open; };
        const FlatGraph flat = flattenGraph(*built.graph, options);
        QCOMPARE(flat.clusters.size(), std::size_t(1));
        const Cluster& frame = flat.clusters.front();
        QCOMPARE(frame.group, open);
        QVERIFY(!frame.owner.valid());
        std::set<int> drawn;
        for (const NodeId id : frame.members) {
            QCOMPARE(flat.clusterOf(id), 0);
            drawn.insert(flat.origins[id.index()].top.value);
        }
        for (const NodeId id : built.grouping.groups[open].members)
            QVERIFY(drawn.count(id.value));
        // Copies of constants first read by an earlier group (the shared scale) join the frame.
        QVERIFY(frame.members.size() > built.grouping.groups[open].members.size());
        bool fromBefore = false;
        bool toAfter = false;
        for (const Edge& edge : flat.graph.edges) {
            const bool fromInside = flat.clusterOf(edge.from) == 0;
            const bool toInside = flat.clusterOf(edge.to) == 0;
            fromBefore = fromBefore || (!fromInside && toInside && flat.origins[edge.from.index()].group() == open - 1);
            toAfter = toAfter || (fromInside && !toInside && flat.origins[edge.to.index()].group() == open + 1);
        }
        QVERIFY(fromBefore);
        QVERIFY(toAfter);
    }

    /// A constant read by many nodes is drawn beside each reader: no long edge from one box.
    void sharedConstantsBesideEachReader()
    {
        ETSCOPE_TAKE(const Built built, transformer(3000));
        FlattenOptions options;
        options.grouping = &built.grouping;
        options.openGroup = [](int group) { return group == 2; };
        options.constantPerReaderAbove = 3;
        const FlatGraph flat = flattenGraph(*built.graph, options);
        const auto scale = std::find_if(built.graph->nodes.begin(), built.graph->nodes.end(),
            [](const Node& node) { return node.label == "attn_scale"; });
        QVERIFY(scale != built.graph->nodes.end());
        int copies = 0;
        int divisions = 0;
        std::vector<int> readers(flat.graph.nodes.size(), 0);
        for (const Edge& edge : flat.graph.edges)
            ++readers[edge.from.index()];
        for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i) {
            if (flat.origins[i].top == scale->id) {
                ++copies;
                QCOMPARE(readers[i], 1);
            }
            if (flat.graph.nodes[i].opType == "aten::div.out")
                ++divisions;
            if (flat.graph.nodes[i].kind == NodeKind::Constant)
                QVERIFY(readers[i] < 3);
        }
        QVERIFY(divisions > 5);
        QCOMPARE(copies, divisions);
    }

    /// The same inside an expanded delegate: the XNNPACK layers' shared scale.
    void sharedConstantsInsideADelegate()
    {
        LlmOptions options;
        options.instructions = 400;
        options.largeDelegateNodes = 400;
        auto document = m_scratch.writeAndOpen(makeLlmProgram(options).program.spec, "llm.pte");
        QVERIFY(document);
        const auto& methods = document.value().program->methods;
        const auto forward
            = std::find_if(methods.begin(), methods.end(), [](const Method& m) { return m.name == "forward"; });
        QVERIFY(forward != methods.end());
        const Graph& top = *document.value().methods[static_cast<std::size_t>(forward - methods.begin())].graph;
        const auto delegate = std::find_if(top.nodes.begin(), top.nodes.end(),
            [](const Node& node) { return node.subgraph && node.subgraph->nodes.size() > 400; });
        QVERIFY(delegate != top.nodes.end());
        FlattenOptions flatten;
        flatten.expand = [&](const Node& node) { return node.id == delegate->id; };
        flatten.constantPerReaderAbove = 3;
        const FlatGraph flat = flattenGraph(top, flatten);
        std::vector<int> readers(flat.graph.nodes.size(), 0);
        for (const Edge& edge : flat.graph.edges)
            ++readers[edge.from.index()];
        int copies = 0;
        for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i) {
            if (flat.graph.nodes[i].kind != NodeKind::Constant || flat.origins[i].top != delegate->id)
                continue;
            QVERIFY(readers[i] < 3);
            copies += readers[i] == 1 ? 1 : 0;
        }
        QVERIFY(copies > 0);
        // Without the option the inner graph is drawn as stored.
        flatten.constantPerReaderAbove = 0;
        const FlatGraph stored = flattenGraph(top, flatten);
        QCOMPARE(stored.graph.nodes.size(), top.nodes.size() - 1 + delegate->subgraph->nodes.size());
        QVERIFY(flat.graph.nodes.size() > stored.graph.nodes.size());
    }

    void longMethodsStayWithinLimits()
    {
        ETSCOPE_TAKE(const Built built, transformer(100000));
        QCOMPARE(built.grouping.groups.size(), kMaxGroups);
        std::size_t largest = 0;
        for (const NodeGroup& group : built.grouping.groups)
            largest = std::max(largest, group.members.size());
        // A group's own layout stays a few thousand boxes at most.
        QVERIFY2(largest < 2000, qPrintable(QString::number(largest)));
        FlattenOptions options;
        options.grouping = &built.grouping;
        const FlatGraph flat = flattenGraph(*built.graph, options);
        QVERIFY(flat.graph.nodes.size() <= kMaxGroups + 2);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestGrouping)
#include "tst_grouping.moc"
