// SPDX-License-Identifier: MIT
// Graph invariants on every real program: every consumed value has a producer, or is an input,
// a constant or a view; edges are well formed; delegate boundaries connect.
#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/methodgraph/graphbuilder.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <set>
#include <tuple>

using namespace etscope::core;

Q_DECLARE_METATYPE(std::string)

namespace {

bool isNoneTensor(const Value& v)
{
    return v.isTensor() && v.tensor.storage == TensorStorage::Runtime && v.tensor.scalarType == 0
        && v.tensor.sizes == std::vector<std::int64_t> { 0 };
}

/// Values a node reads: kernel inputs (args minus outputs and the trailing return slot) or
/// the leading inputs of a delegate call; list arguments expand to their elements.
std::vector<std::int32_t> consumedTensors(const Method& method, const Node& node)
{
    std::vector<std::int32_t> consumed;
    const auto add = [&](std::int32_t value, auto& self) -> void {
        const Value& v = method.values[static_cast<std::size_t>(value)];
        if (v.kind == Value::Kind::TensorList || v.kind == Value::Kind::OptionalTensorList) {
            for (const std::int64_t item : v.items)
                if (item >= 0)
                    self(static_cast<std::int32_t>(item), self);
        } else if (v.isTensor() && !isNoneTensor(v)) {
            consumed.push_back(value);
        }
    };
    if (node.kind == NodeKind::Operator && node.instruction.valid()) {
        const Instruction& instruction
            = method.chains[static_cast<std::size_t>(node.chain)].instructions[node.instruction.index()];
        const auto outputs = kernelOutputs(method, instruction);
        for (std::size_t i = 0; i + 1 < instruction.args.size(); ++i) {
            const std::int32_t arg = instruction.args[i];
            if (std::find(outputs.begin(), outputs.end(), arg) == outputs.end())
                add(arg, add);
        }
    } else if (node.kind == NodeKind::Delegate) {
        for (int i = 0; i < node.inputCount; ++i)
            add(node.args[static_cast<std::size_t>(i)], add);
    }
    return consumed;
}

void checkEdges(const Graph& graph)
{
    for (const Edge& edge : graph.edges) {
        QVERIFY(edge.from.valid() && edge.from.index() < graph.nodes.size());
        QVERIFY(edge.to.valid() && edge.to.index() < graph.nodes.size());
        QVERIFY(edge.from != edge.to);
    }
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        QCOMPARE(graph.nodes[i].id.index(), i);
}

} // namespace

class TestGraph : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void attributeListKeepsOrderAndText()
    {
        AttributeList list;
        QVERIFY(list.empty());
        QVERIFY(!list.find("x"));
        list.push_back({ "operator", "aten::add" });
        list.add("", "empty name");
        list.add("arg 0", std::string(300, 'v')); // longer than any small-string buffer
        list.addFront("instruction", "7");
        list.shrink();
        QCOMPARE(list.size(), std::size_t(4));
        std::vector<std::pair<std::string, std::string>> seen;
        for (const auto entry : list)
            seen.emplace_back(entry.name, entry.value);
        const std::vector<std::pair<std::string, std::string>> expected { { "instruction", "7" },
            { "operator", "aten::add" }, { "", "empty name" }, { "arg 0", std::string(300, 'v') } };
        QVERIFY(seen == expected);
        QCOMPARE(list.back().name, std::string_view("arg 0"));
        QCOMPARE(*list.find("operator"), std::string_view("aten::add"));
        QVERIFY(!list.find("overload"));
        const AttributeList copy = list; // views point into the copy's own text
        list.add("later", "x");
        QCOMPARE(copy.size(), std::size_t(4));
        QCOMPARE(copy[1].value, std::string_view("aten::add"));
    }

    void programAttributesArePacked()
    {
        // The first kernel of a real program carries its instruction, operator and arguments.
        const auto document = openDocument(etscope::test::samplePath("executorch/add.pte"));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const Graph& graph = *document->analysis(document->program->methods.front())->graph;
        const auto kernel = std::find_if(
            graph.nodes.begin(), graph.nodes.end(), [](const Node& node) { return node.kind == NodeKind::Operator; });
        QVERIFY(kernel != graph.nodes.end());
        QCOMPARE(kernel->attributes[0].name, std::string_view("instruction"));
        QVERIFY(kernel->attributes.find("operator"));
        // aten::add.out's arguments are named from its schema; the out tensor comes back as the return.
        QVERIFY(kernel->attributes.find("self"));
        QVERIFY(kernel->attributes.find("alpha"));
        QCOMPARE(*kernel->attributes.find("return"), *kernel->attributes.find("out"));
        QVERIFY(!kernel->attributes.find("arg 0"));
    }

    void invariants_data()
    {
        QTest::addColumn<std::string>("path");
        const nlohmann::json golden = etscope::test::goldenSamples();
        for (const auto& entry : golden.at("samples")) {
            if (entry.contains("methods") || entry.contains("inner_method"))
                QTest::addRow("%s", entry.at("path").get<std::string>().c_str()) << entry.at("path").get<std::string>();
        }
    }

    void invariants()
    {
        QFETCH(std::string, path);
        auto document = openDocument(etscope::test::samplePath(path));
        QVERIFY(document);
        for (const Method& method : document->program->methods) {
            const Graph& graph = *document->analysis(method)->graph;
            checkEdges(graph);
            // A method graph carries each (producer, consumer, value) once, however often the
            // instruction names the value (the builder looks for repeats among the edges into
            // the node it is adding, issue 27, where a set of every edge did before).
            std::set<std::tuple<std::int32_t, std::int32_t, std::int32_t>> seen;
            for (const Edge& edge : graph.edges)
                QVERIFY(seen.insert({ edge.from.value, edge.to.value, edge.value.value }).second);
            // One node per instruction plus one per input and output.
            std::size_t instructionNodes = 0;
            std::size_t inputs = 0;
            std::size_t outputs = 0;
            for (const Node& node : graph.nodes) {
                instructionNodes += node.instruction.valid() ? 1 : 0;
                inputs += node.kind == NodeKind::Input ? 1 : 0;
                outputs += node.kind == NodeKind::Output ? 1 : 0;
            }
            QCOMPARE(instructionNodes, method.instructionTotal());
            QCOMPARE(inputs, method.inputs.size());
            QCOMPARE(outputs, method.outputs.size());

            for (const Node& node : graph.nodes) {
                std::set<std::int32_t> incoming;
                for (const Edge* edge : graph.inEdges(node.id)) {
                    incoming.insert(edge->value.value);
                    const Node& from = graph.node(edge->from);
                    // Every edge starts at something that can produce a value.
                    QVERIFY(from.kind != NodeKind::Output && from.kind != NodeKind::Free
                        && from.kind != NodeKind::JumpFalse);
                }
                for (const std::int32_t value : consumedTensors(method, node)) {
                    const std::string what
                        = method.name + ": node '" + node.label + "' reads v" + std::to_string(value);
                    QVERIFY2(incoming.count(value), (what + " without an edge").c_str());
                }
                if (node.kind == NodeKind::Output) {
                    const Value& v = method.values[node.value.index()];
                    if (v.isTensor() || v.isList())
                        QVERIFY2(!graph.inEdges(node.id).empty() || v.isList(),
                            (method.name + ": " + node.label + " is not connected").c_str());
                }
            }
            // The producers of edges are inputs, constants/state, views, or instructions.
            for (const Edge& edge : graph.edges) {
                const Node& from = graph.node(edge.from);
                const bool source = from.kind == NodeKind::Input || from.kind == NodeKind::Constant
                    || from.kind == NodeKind::State || from.kind == NodeKind::View || from.instruction.valid();
                QVERIFY(source);
            }
        }
    }

    // Expanding a decoded delegate reconnects outer edges to its inner inputs and outputs.
    void expandDelegates_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addRow("stress_mlp") << std::string("djl-executorch-engine/stress_mlp.pte");
        QTest::addRow("dnf_xnnpack_training") << std::string("dnf-executorch/dnf_xnnpack_training.pte");
        QTest::addRow("spike_conv") << std::string("djl-executorch-engine/spike_conv.pte");
        QTest::addRow("quantized") << std::string("executorch-numpy-runtime/quantized.pte");
    }

    void expandDelegates()
    {
        QFETCH(std::string, path);
        auto document = openDocument(etscope::test::samplePath(path));
        QVERIFY(document);
        const Method& method = *document->program->method("forward");
        const Graph& top = *document->analysis(method)->graph;
        const FlatGraph flat = flattenGraph(top, [](const Node&) { return true; });
        checkEdges(flat.graph);
        int delegates = 0;
        for (const Node& node : top.nodes) {
            if (node.kind != NodeKind::Delegate)
                continue;
            ++delegates;
            QVERIFY(node.subgraph);
            QVERIFY(!node.inferred); // the split comes from the payload
            // Outer edges into the delegate arrive at the inner input with the same position.
            for (const Edge* edge : top.inEdges(node.id)) {
                const auto it = std::find(node.args.begin(), node.args.end(), edge->value.value);
                QVERIFY(it != node.args.end());
                const int position = static_cast<int>(it - node.args.begin());
                QVERIFY(position < node.inputCount);
                const auto flatEdge
                    = std::find_if(flat.graph.edges.begin(), flat.graph.edges.end(), [&](const Edge& e) {
                          // The producer may itself be an expanded delegate: match by its top-level node.
                          return e.value == edge->value && flat.origins[e.from.index()].top == edge->from
                              && flat.origins[e.to.index()].top == node.id;
                      });
                QVERIFY(flatEdge != flat.graph.edges.end());
                const NodeOrigin& origin = flat.origins[flatEdge->to.index()];
                const Node& inner = node.subgraph->node(origin.inner);
                QCOMPARE(inner.kind, NodeKind::Input);
                QCOMPARE(inner.argPosition, position);
                QVERIFY(!flatEdge->inferred);
            }
            // And leave from the inner outputs.
            for (const Edge* edge : top.outEdges(node.id)) {
                const auto flatEdge
                    = std::find_if(flat.graph.edges.begin(), flat.graph.edges.end(), [&](const Edge& e) {
                          return e.value == edge->value && flat.origins[e.from.index()].top == node.id
                              && flat.origins[e.to.index()].top == edge->to;
                      });
                QVERIFY(flatEdge != flat.graph.edges.end());
                const Node& inner = node.subgraph->node(flat.origins[flatEdge->from.index()].inner);
                QCOMPARE(inner.kind, NodeKind::Output);
                QVERIFY(inner.argPosition >= node.inputCount);
                QCOMPARE(node.args[static_cast<std::size_t>(inner.argPosition)], edge->value.value);
            }
        }
        QVERIFY(delegates > 0);
        QCOMPARE(static_cast<int>(flat.clusters.size()), delegates);
    }

    // When the decoder gives no I/O counts, the output split of a DelegateCall is inferred and
    // marked so (Ethos-U keeps its I/O records as facts and inner Input/Output nodes).
    void opaqueDelegateSplitIsInferred()
    {
        auto document = openDocument(etscope::test::samplePath("cmsis-executorch/ethos_u_minimal_example_u55.pte"));
        QVERIFY(document);
        const Method& method = *document->program->method("forward");
        const Graph& graph = *document->analysis(method)->graph;
        const auto delegate = std::find_if(
            graph.nodes.begin(), graph.nodes.end(), [](const Node& n) { return n.kind == NodeKind::Delegate; });
        QVERIFY(delegate != graph.nodes.end());
        QVERIFY(delegate->inferred);
        QVERIFY(delegate->inputCount >= 1 && delegate->inputCount < static_cast<int>(delegate->args.size()));
        const auto out = graph.outEdges(delegate->id);
        QVERIFY(!out.empty());
        for (const Edge* edge : out)
            QVERIFY(edge->inferred);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestGraph)
#include "tst_graph.moc"
