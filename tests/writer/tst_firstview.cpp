// SPDX-License-Identifier: MIT
// The first view of a transformer (issue 27 #6): the SymInt of sym_size.int drawn beside each of
// its readers instead of a curtain of edges, repeated blocks grouped below the long-method
// threshold, ETRecord module paths grouping a method, and small non-repetitive samples left as
// they were.
//
// The transformer is written by the project's writer with a dynamic sequence length
// (TransformerOptions::dynamicSequence): instruction 0 is aten::sym_size.int(x, 1) and every
// view_copy reads its Int in its size list, as torch.export writes a symbolic dimension. Counts
// below are worked out by hand from the block listing in core/writer/transformermodels.h
// (transformer::kBlockInstructions = 31, view_copy at block positions 1, 5, 7, 9, 11, 12, 16,
// 18, 20, 22, 25, 29: twelve per block) and were checked against `etscope graph --format json`
// of the file `etscope-synth --shape transformer --instructions 216 --dynamic` writes (83 edges
// leave node 1, aten::sym_size.int).
#include "core/graph/flatten.h"
#include "core/graph/grouping.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/transformermodels.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"
#include "ui/graph/presentation.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace etscope::core;

namespace {

/// 216 instructions: the sym_size.int, six whole blocks (6 × 31 = 186) and 29 instructions of a
/// seventh (block positions 0–28, of which 11 are view_copy: all but position 29).
constexpr int kInstructions = 216;
constexpr int kViews = 6 * 12 + 11; // 83

const Node* symSize(const Graph& graph)
{
    for (const Node& node : graph.nodes)
        if (node.opType == "aten::sym_size.int")
            return &node;
    return nullptr;
}

} // namespace

class TestFirstView : public QObject {
    Q_OBJECT
    etscope::test::ScratchDir m_scratch;

    Result<Document> transformer(bool dynamic)
    {
        TransformerOptions options;
        options.instructions = kInstructions;
        options.dynamicSequence = dynamic;
        return m_scratch.writeAndOpen(
            makeTransformerProgram(options).program.spec, dynamic ? "dynamic.pte" : "static.pte");
    }

private Q_SLOTS:
    void symSizeFeedsEveryView()
    {
        ETSCOPE_TAKE(const Document document, transformer(true));
        const Graph& graph = *document.methods.front().graph;
        const Node* sym = symSize(graph);
        QVERIFY(sym);
        QCOMPARE(sym->instruction.value, 0);
        int readers = 0;
        for (const Edge& edge : graph.edges)
            if (edge.from == sym->id) {
                ++readers;
                QCOMPARE(graph.node(edge.to).opType, std::string("aten::view_copy.out"));
                QCOMPARE(edge.meta.dtype, std::string("Int"));
            }
        QCOMPARE(readers, kViews);
    }

    void symSizeDrawnBesideEachReader()
    {
        ETSCOPE_TAKE(const Document document, transformer(true));
        const Graph& graph = *document.methods.front().graph;
        const Node* sym = symSize(graph);
        QVERIFY(sym);
        FlattenOptions options;
        options.scalarPerReaderAbove = 3;
        const FlatGraph flat = flattenGraph(graph, options);
        const GraphAdjacency adjacency = flat.graph.adjacency();
        int original = 0;
        std::set<std::int32_t> readers;
        for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i) {
            if (flat.origins[i].top != sym->id)
                continue;
            if (!flat.copies[i]) {
                // Drawn once where it is computed, reading the input; no edge leaves it.
                ++original;
                QCOMPARE(flat.graph.nodes[i].instruction.value, 0);
                QCOMPARE(adjacency.in[i].size(), std::size_t(1));
                QVERIFY(adjacency.out[i].empty());
                continue;
            }
            // Each copy: one short edge into one view_copy, no instruction of its own.
            QVERIFY(!flat.graph.nodes[i].instruction.valid());
            QVERIFY(adjacency.in[i].empty());
            QCOMPARE(adjacency.out[i].size(), std::size_t(1));
            const Edge& edge = flat.graph.edges[adjacency.out[i].front()];
            QCOMPARE(flat.graph.node(edge.to).opType, std::string("aten::view_copy.out"));
            readers.insert(edge.to.value);
        }
        QCOMPARE(original, 1);
        QCOMPARE(static_cast<int>(readers.size()), kViews);
        // The one FLOAT [] attn_scale read by the div of each of the 7 blocks: beside each too.
        int scales = 0;
        for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i)
            if (flat.graph.nodes[i].label == "attn_scale") {
                QVERIFY(flat.copies[i]);
                ++scales;
            }
        QCOMPARE(scales, 7);
    }

    void twoReadersKeepTheirEdges()
    {
        // The threshold counts readers: at 84 a value read 83 times keeps its edges.
        ETSCOPE_TAKE(const Document document, transformer(true));
        const Graph& graph = *document.methods.front().graph;
        FlattenOptions options;
        options.scalarPerReaderAbove = kViews + 1;
        const FlatGraph flat = flattenGraph(graph, options);
        QVERIFY(std::none_of(flat.copies.begin(), flat.copies.end(), [](bool copy) { return copy; }));
        QCOMPARE(flat.graph.edges.size(), graph.edges.size());
    }

    void repeatedBlocksFound()
    {
        ETSCOPE_TAKE(const Document document, transformer(true));
        const Graph& graph = *document.methods.front().graph;
        QVERIFY(graph.nodes.size() > kRepeatGroupAboveNodes);
        QVERIFY(graph.nodes.size() <= kGroupAboveNodes);
        const auto repetition = findRepetition(graph);
        QVERIFY(repetition);
        QCOMPARE(repetition->period, 31);
        QCOMPARE(repetition->start, 1); // after the sym_size.int
        QCOMPARE(repetition->blocks, 6); // (216 − 1) / 31
        const Grouping grouping = groupMethodGraph(graph);
        // Six blocks and the 29-instruction tail (more than half a block) as a seventh.
        QCOMPARE(grouping.groups.size(), std::size_t(7));
        for (std::size_t b = 0; b < 6; ++b) {
            QCOMPARE(grouping.groups[b].name, "block " + std::to_string(b + 1));
            QCOMPARE(grouping.groups[b].first.value, 1 + 31 * static_cast<int>(b));
            QCOMPARE(grouping.groups[b].last.value, 31 + 31 * static_cast<int>(b));
            QCOMPARE(grouping.groups[b].operators, 31);
        }
        QCOMPARE(grouping.groups[6].name, std::string("block 7 (partial)"));
        QCOMPARE(grouping.groups[6].first.value, 187);
        QCOMPARE(grouping.groups[6].last.value, 215);
        QCOMPARE(groupLabel(grouping.groups[1]), std::string("block 2 \u00b7 #32\u201362"));
        // The sym_size.int before the blocks, the input and the output stay at the top level.
        QCOMPARE(grouping.groupOfNode(symSize(graph)->id), -1);
        // The first view: 7 group boxes, the sym_size.int, input and output; attn_scale and the
        // sym_size copies are read inside closed groups only.
        FlattenOptions options;
        options.grouping = &grouping;
        options.scalarPerReaderAbove = 3;
        options.constantPerReaderAbove = 3;
        const FlatGraph first = flattenGraph(graph, options);
        QCOMPARE(first.graph.nodes.size(), std::size_t(10));
    }

    void staticTransformerStartsAtZero()
    {
        ETSCOPE_TAKE(const Document document, transformer(false));
        const auto repetition = findRepetition(*document.methods.front().graph);
        QVERIFY(repetition);
        QCOMPARE(repetition->period, 31);
        QCOMPARE(repetition->start, 0);
        QCOMPARE(repetition->blocks, 6); // 216 / 31, a 30-instruction tail
    }

    void smallSamplesUnchanged_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::newRow("stress_mlp") << QStringLiteral("djl-executorch-engine/stress_mlp.pte");
        QTest::newRow("add") << QStringLiteral("executorch/add.pte");
        QTest::newRow("KeywordSpotting") << QStringLiteral("executorch/arduino_KeywordSpotting_model.pte");
        QTest::newRow("dnf_executorch5") << QStringLiteral("dnf-executorch/dnf_executorch5.pte");
    }

    void smallSamplesUnchanged()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(QString, sample);
        ETSCOPE_TAKE(const Document document, openDocument(etscope::test::samplePath(sample.toStdString())));
        for (const MethodAnalysis& method : document.methods) {
            if (!method.graph)
                continue;
            const Graph& graph = *method.graph;
            // Not repetitive, or too small to need groups: drawn whole.
            QVERIFY(groupMethodGraph(graph).empty());
            // No scalar or small constant read three times: the same boxes and edges as before.
            FlattenOptions before;
            FlattenOptions after;
            after.scalarPerReaderAbove = 3;
            const FlatGraph a = flattenGraph(graph, before);
            const FlatGraph b = flattenGraph(graph, after);
            QCOMPARE(b.graph.nodes.size(), a.graph.nodes.size());
            QCOMPARE(b.graph.edges.size(), a.graph.edges.size());
        }
    }

    void moduleStackParsed()
    {
        // torch/_export/serde/serialize.py serialize_metadata: "key,orig_path,type" per module,
        // outermost first, joined by ';'.
        QCOMPARE(innermostModule("L__self__,,model.Transformer;L__self___layers_0,layers.0,model.Block;"
                                 "L__self___layers_0_attention,layers.0.attention,model.Attention"),
            std::string("layers.0.attention"));
        QCOMPARE(innermostModule("L__self___norm,norm,torch.nn.modules.normalization.LayerNorm"), std::string("norm"));
        QCOMPARE(innermostModule(""), std::string());
        QCOMPARE(innermostModule("no commas"), std::string());
    }

    void groupedByModules()
    {
        ETSCOPE_TAKE(const Document document, transformer(true));
        const Graph& graph = *document.methods.front().graph;
        // As an ETRecord of this program would record them: the sym_size.int in no module,
        // instruction i of block b in layers.b, attention for block positions 0–23, MLP after.
        std::map<int, std::string> modules;
        for (int i = 1; i < kInstructions; ++i) {
            const int block = (i - 1) / 31;
            const int position = (i - 1) % 31;
            modules[i] = "layers." + std::to_string(block) + (position < 24 ? ".attention" : ".feed_forward");
        }
        // Depth 1 ("layers": 215 of 216 instructions in one run) is too coarse; depth 2 cuts
        // one group per layer.
        const Grouping grouping = groupByModules(graph, modules);
        QCOMPARE(grouping.groups.size(), std::size_t(7));
        for (std::size_t b = 0; b < 7; ++b)
            QCOMPARE(grouping.groups[b].name, "layers." + std::to_string(b));
        QCOMPARE(grouping.groups[6].first.value, 187);
        QCOMPARE(grouping.groups[6].last.value, 215);
        // The modules win over the detected period when given.
        QCOMPARE(groupMethodGraph(graph, &modules).groups.front().name, std::string("layers.0"));
        // Modules that do not cut the method (one run) group nothing.
        std::map<int, std::string> one;
        for (int i = 0; i < kInstructions; ++i)
            one[i] = "encoder";
        QVERIFY(groupByModules(graph, one).empty());
    }

    void groupedByTheAttachedETRecord()
    {
        // An ETRecord of this program as the exporter writes one: debug_handle_map gives
        // instruction i handle i + 1, and the edge program's node of that handle records its
        // nn_module_stack (serialize_metadata's "key,path,type;…"). The sym_size.int (i = 0)
        // belongs to the top module only.
        ETSCOPE_TAKE(const Document document, transformer(true));
        const auto shared = std::make_shared<const Document>(document);
        EdgeProgram program;
        ETRecordWriteSpec spec;
        for (int i = 0; i < kInstructions; ++i) {
            EdgeNode node;
            node.name = "node_" + std::to_string(i);
            node.target = "executorch.exir.dialects.edge.ops.aten.view_copy.default";
            node.debugHandle = DebugHandle(i + 1);
            node.nnModuleStack = "L__self__,,model.Transformer";
            if (i > 0) {
                const std::string layer = std::to_string((i - 1) / 31);
                node.nnModuleStack += ";L__self___layers_" + layer + ",layers." + layer
                    + ",model.Block;L__self___layers_" + layer + "_attention,layers." + layer
                    + ".attention,model.Attention";
            }
            program.nodes.push_back(std::move(node));
            spec.debugHandleMap["forward"][i] = DebugHandleEntry { { DebugHandle(i + 1) }, false };
        }
        spec.edgePrograms.emplace_back("forward", std::move(program));
        ETSCOPE_TAKE(const auto bytes, writeETRecord(spec));
        const std::string path = m_scratch.path("etrecord.bin");
        QVERIFY(!writeBytesToFile(path, bytes));
        ETSCOPE_TAKE(const ETRecord record, readETRecordFile(path));
        const Graph& graph = *document.methods.front().graph;
        const std::map<int, std::string> modules = etscope::ui::instructionModules(record, graph, "forward");
        QCOMPARE(modules.size(), std::size_t(kInstructions - 1)); // all but the sym_size.int (top module, path "")
        QCOMPARE(modules.at(32), std::string("layers.1.attention"));
        const auto grouping = etscope::ui::firstViewGrouping(*shared, 0, &record);
        QCOMPARE(grouping->groups.size(), std::size_t(7));
        QCOMPARE(grouping->groups.front().name, std::string("layers.0"));
        QCOMPARE(grouping->groups.back().name, std::string("layers.6"));
        QCOMPARE(grouping->groups.back().first.value, 187);
        // Without the record: the detected blocks.
        QCOMPARE(etscope::ui::firstViewGrouping(*shared, 0)->groups.front().name, std::string("block 1"));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestFirstView)
#include "tst_firstview.moc"
