// SPDX-License-Identifier: MIT
// Every delegated real sample: XNNPACK inner graphs (node counts and types from SOURCES.md),
// delegate inputs/outputs wired to the DelegateCall's own arguments, and the opaque backends
// described with the facts their headers hold (Ethos-U blocks, VGF, QNN, OpenVINO). The expected
// numbers were read off the sample bytes by hand (hex dumps), not produced by ETScope.
#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <map>

using namespace etscope::core;
using namespace etscope::test;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<Attribute>)

namespace {

std::uint64_t elementCount(const std::vector<std::int64_t>& shape)
{
    std::uint64_t n = 1;
    for (const std::int64_t d : shape)
        n *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
    return n;
}

struct Opened {
    Document document;
    const Method* method = nullptr;
    const MethodAnalysis* analysis = nullptr;
};

std::optional<Opened> open(const std::string& sample, const std::string& method = "forward")
{
    auto document = openDocument(etscope::test::samplePath(sample));
    if (!document)
        return std::nullopt;
    Opened opened { std::move(*document), nullptr, nullptr };
    opened.method = opened.document.program->method(method);
    if (!opened.method)
        return std::nullopt;
    opened.analysis = opened.document.analysis(*opened.method);
    return opened;
}

/// The DelegateCall instructions of a method with the delegate they call.
std::vector<const Instruction*> delegateCalls(const Method& method)
{
    std::vector<const Instruction*> calls;
    for (const Chain& chain : method.chains)
        for (const Instruction& instruction : chain.instructions)
            if (instruction.kind == Instruction::Kind::Delegate)
                calls.push_back(&instruction);
    return calls;
}

} // namespace

class TestDelegateSamples : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // Inner node counts and node types per XNNPACK delegate, as SOURCES.md lists them.
    void xnnpackInnerGraphs()
    {
        int checked = 0;
        const auto golden = etscope::test::goldenSamples();
        for (const auto& sample : golden.at("samples")) {
            if (!sample.contains("methods"))
                continue;
            for (const auto& m : sample.at("methods")) {
                bool any = false;
                for (const auto& d : m.at("delegates"))
                    any = any || d.at("backend_id") == "XnnpackBackend";
                if (!any)
                    continue;
                const auto opened = open(sample.at("path").get<std::string>(), m.at("name").get<std::string>());
                QVERIFY2(opened, sample.at("path").get<std::string>().c_str());
                const auto& delegates = m.at("delegates");
                QCOMPARE(opened->analysis->delegates.size(), delegates.size());
                for (std::size_t d = 0; d < delegates.size(); ++d) {
                    const DelegateInfo& info = opened->analysis->delegates[d];
                    QCOMPARE(info.format, std::string("xnnpack"));
                    QVERIFY(info.warnings.empty());
                    QVERIFY(info.innerGraph);
                    const auto types = operatorTypes(*info.innerGraph);
                    ETSCOPE_COMPARE_JSON(types, delegates[d].at("node_types"));
                    QCOMPARE(
                        static_cast<int>(info.innerGraph->operatorCount()), delegates[d].at("inner_nodes").get<int>());
                    ++checked;
                }
            }
        }
        QCOMPARE(checked, 15); // the XNNPACK delegates SOURCES.md lists
    }

    void innerInputsAndOutputsMatchTheCall_data()
    {
        QTest::addColumn<std::string>("path");
        for (const char* path : { "djl-executorch-engine/spike_add.pte", "djl-executorch-engine/spike_clamp5.pte",
                 "djl-executorch-engine/spike_conv.pte", "djl-executorch-engine/spike_lin129.pte",
                 "djl-executorch-engine/stress_mlp.pte", "executorch-numpy-runtime/dynamic.pte",
                 "executorch-numpy-runtime/quantized.pte", "dnf-executorch/dnf_xnnpack_training.pte",
                 "djl-executorch-engine/openvino_tiny.pte" })
            QTest::addRow("%s", path) << std::string(path);
    }

    // Inner inputs/outputs sit at argument positions 0..n_in-1 and n_in..len-1 of their call,
    // carry as many elements as the outer value there, and the flattened graph's edges into
    // and out of each expanded delegate run between exactly those values.
    void innerInputsAndOutputsMatchTheCall()
    {
        QFETCH(std::string, path);
        const auto opened = open(path);
        QVERIFY(opened);
        const Method& method = *opened->method;
        for (const Instruction* call : delegateCalls(method)) {
            const DelegateInfo& info = opened->analysis->delegates[static_cast<std::size_t>(call->index)];
            QVERIFY(info.innerGraph && info.inputCount && info.outputCount);
            QCOMPARE(*info.inputCount + *info.outputCount, static_cast<int>(call->args.size()));
            std::vector<int> positions;
            for (const Node& node : info.innerGraph->nodes) {
                if (node.kind != NodeKind::Input && node.kind != NodeKind::Output)
                    continue;
                positions.push_back(node.argPosition);
                QCOMPARE(node.kind == NodeKind::Input, node.argPosition < *info.inputCount);
                const Value& outer
                    = method.values[static_cast<std::size_t>(call->args[static_cast<std::size_t>(node.argPosition)])];
                QVERIFY(outer.isTensor());
                // The inner tensor's shape (XNNPACK may store it permuted to NHWC) has the outer
                // tensor's element count.
                const auto edges = node.kind == NodeKind::Input ? info.innerGraph->outEdges(node.id)
                                                                : info.innerGraph->inEdges(node.id);
                QVERIFY(!edges.empty());
                for (const Edge* edge : edges)
                    QCOMPARE(elementCount(edge->meta.shape), elementCount(outer.tensor.sizes));
            }
            std::sort(positions.begin(), positions.end());
            for (std::size_t i = 0; i < positions.size(); ++i)
                QCOMPARE(positions[i], static_cast<int>(i));
            QCOMPARE(positions.size(), call->args.size());
        }

        const Graph& top = *opened->analysis->graph;
        const FlatGraph flat = flattenGraph(top, [](const Node&) { return true; });
        int crossing = 0;
        for (const Edge& edge : flat.graph.edges) {
            const NodeOrigin to = flat.origins[edge.to.index()];
            const NodeOrigin from = flat.origins[edge.from.index()];
            if (to.inner.valid() && !from.inner.valid()) {
                const Node& delegate = top.node(to.top);
                const Node& inner = delegate.subgraph->node(to.inner);
                QCOMPARE(inner.kind, NodeKind::Input);
                QCOMPARE(delegate.args[static_cast<std::size_t>(inner.argPosition)], edge.value.value);
                QVERIFY(!edge.inferred);
                ++crossing;
            }
            if (from.inner.valid() && !to.inner.valid()) {
                const Node& delegate = top.node(from.top);
                const Node& inner = delegate.subgraph->node(from.inner);
                QCOMPARE(inner.kind, NodeKind::Output);
                QCOMPARE(delegate.args[static_cast<std::size_t>(inner.argPosition)], edge.value.value);
                ++crossing;
            }
        }
        QVERIFY(crossing > 0);
    }

    // Debug handles kept per XNNPACK node: stress_mlp's second delegate has 13 nodes, each with one.
    void xnnpackNodesKeepDebugHandles()
    {
        const auto opened = open("djl-executorch-engine/stress_mlp.pte");
        QVERIFY(opened);
        const Graph& inner = *opened->analysis->delegates[1].innerGraph;
        int withHandle = 0;
        for (const Node& node : inner.nodes) {
            if (node.kind != NodeKind::Operator)
                continue;
            QVERIFY(node.debugHandle.has_value());
            QCOMPARE(attribute(node, "debug handle"), std::to_string(node.debugHandle->value));
            ++withHandle;
        }
        QCOMPARE(withHandle, 13);
    }

    // quantized.pte (SOURCES.md: XNNConvert ×2 + XNNFullyConnected, 2 named-data entries): the
    // weights are named-data constants whose sizes come from the program's named data.
    void xnnpackQuantizedConstants()
    {
        const auto opened = open("executorch-numpy-runtime/quantized.pte");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QCOMPARE(fact(info, "graph identifier"), std::string("XN01"));
        QCOMPARE(fact(info, "header"), std::string("XH00, length 30"));
        int named = 0;
        for (const Node& node : info.innerGraph->nodes) {
            if (node.kind != NodeKind::Constant)
                continue;
            const std::string key = attribute(node, "bytes");
            QVERIFY2(key.starts_with("named data '"), key.c_str());
            const std::string name = key.substr(12, key.find('\'', 12) - 12);
            const NamedDataEntry* entry = opened->document.program->findNamedData(name);
            QVERIFY(entry);
            QVERIFY(key.ends_with(", " + std::to_string(entry->data.size) + " bytes"));
            ++named;
        }
        QCOMPARE(named, 2);
        // The fully connected node reads per-tensor quantized int8 weights (8 × 8 = 64 named bytes)
        // and an int32 bias (8 × 4 = 32 bytes).
        for (const Node& node : info.innerGraph->nodes) {
            if (node.opType != "XNNFullyConnected")
                continue;
            QVERIFY2(attribute(node, "filter").starts_with("value 2: qint8 [8, 8], per tensor, scale "),
                attribute(node, "filter").c_str());
            QVERIFY2(attribute(node, "bias").starts_with("value 3: qint32 [8], per tensor, scale "),
                attribute(node, "bias").c_str());
        }
        QCOMPARE(fact(info, "named-data constants"), std::string("2 (96 B)"));
    }

    // Ethos-U blocks, hand-decoded from the two samples' vela_bin_stream.
    void ethosU_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<std::vector<Attribute>>("expected");
        QTest::addRow("cmsis minimal u55") << std::string("cmsis-executorch/ethos_u_minimal_example_u55.pte")
                                           << std::vector<Attribute> {
                                                  { "blocks",
                                                      "7 (vela_bin_stream, cmd_data, weight_data, scratch_size, "
                                                      "inputs, outputs, vela_end_stream)" },
                                                  { "command stream", "908 bytes, tag COP1" },
                                                  { "weights", "32 bytes (32 B)" },
                                                  { "scratch", "144 bytes (144 B)" },
                                                  { "inputs", "2" },
                                                  { "input 0",
                                                      "shape [1, 1, 1, 1, 1, 1], element size 1, 1 bytes at offset 64 "
                                                      "of region 1" },
                                                  { "input 1",
                                                      "shape [1, 1, 1, 1, 1, 1], element size 1, 1 bytes at offset 16 "
                                                      "of region 1" },
                                                  { "outputs", "1" },
                                                  { "output 0",
                                                      "shape [1, 1, 1, 1, 1, 1], element size 1, 1 bytes at offset 0 "
                                                      "of region 1" },
                                              };
        QTest::addRow("mobilenet v2 u55") << std::string("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte")
                                          << std::vector<Attribute> {
                                                 { "command stream", "29120 bytes, tag COP1" },
                                                 { "weights", "3349920 bytes (3.2 MiB)" },
                                                 { "scratch", "1509584 bytes (1.4 MiB)" },
                                                 { "inputs", "1" },
                                                 { "input 0",
                                                     "shape [1, 1, 1, 3, 224, 224], element size 1, 150528 bytes at "
                                                     "offset 150528 of region 1" },
                                                 { "outputs", "1" },
                                                 { "output 0",
                                                     "shape [1, 1, 1, 1, 1, 1000], element size 1, 1000 bytes at "
                                                     "offset 0 of region 1" },
                                             };
    }

    void ethosU()
    {
        QFETCH(std::string, path);
        QFETCH(std::vector<Attribute>, expected);
        const auto opened = open(path);
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QCOMPARE(info.format, std::string("ethos-u"));
        QVERIFY(info.warnings.empty());
        // The command stream is decoded into NPU operations (tst_ethosudelegate checks them).
        QVERIFY(info.innerGraph);
        QCOMPARE(info.innerGraph->format, std::string("ethos-u"));
        for (const Attribute& a : expected)
            QCOMPARE(fact(info, a.name), a.value);
        QCOMPARE(fact(info, "block vela_end_stream"), std::string("0 bytes"));
    }

    // QNN: magic, signature and context-binary size at bytes 0/4/12 of the payload; the
    // compile spec shown in full as hex.
    void qnnHeader()
    {
        const auto opened = open("executorch/stories260k_hybrid_llama_qnn.pte", "kv_forward");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QCOMPARE(info.format, std::string("qnn"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "header magic"), std::string("0x5678abcd"));
        QCOMPARE(fact(info, "graph signature"), std::string("1780651886543080982 (0x18b62574de078e16)"));
        QCOMPARE(fact(info, "context binary size"), std::string("1331200 bytes (1.3 MiB)"));
        // The 200-byte compile spec is read into named facts (tst_qnncompilespec, tst_targetfacts).
        QCOMPARE(fact(info, "compile_spec qnn_compile_spec"),
            std::string("200 bytes, a QnnExecuTorchOptions FlatBuffer (its fields follow)"));
        QVERIFY(info.summary.find("1780651886543080982") != std::string::npos);
    }

    // VGF: the 128-byte header of the sample (version bytes 0.4.0, four sections back to back).
    void vgfHeader()
    {
        const auto opened = open("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QCOMPARE(info.format, std::string("vgf"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "format version"), std::string("0.4.0"));
        QCOMPARE(fact(info, "module table"), std::string("451756 bytes (441.2 KiB) at offset 128"));
        QCOMPARE(fact(info, "model sequence table"), std::string("764 bytes (764 B) at offset 451884"));
        QCOMPARE(fact(info, "model resource table"), std::string("6928 bytes (6.8 KiB) at offset 452648"));
        QCOMPARE(fact(info, "constant section"), std::string("3544456 bytes (3.4 MiB) at offset 459576"));
        QCOMPARE(fact(info, "section layout"), std::string("(no fact 'section layout')"));
        QVERIFY(info.innerGraph); // the TOSA operations of its SPIR-V graph: tst_vgfdelegate
    }

    // OpenVINO: the IR inside the export stream, its six layers and five edges as a graph.
    void openvinoLayers()
    {
        const auto opened = open("djl-executorch-engine/openvino_tiny.pte");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QCOMPARE(info.format, std::string("openvino"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "export model"), std::string("3377 bytes at offset 392"));
        QCOMPARE(fact(info, "export constants"), std::string("288 bytes at offset 104"));
        QCOMPARE(fact(info, "IR name"), std::string("Model0"));
        QCOMPARE(fact(info, "IR version"), std::string("11"));
        const std::vector<Attribute> layers = {
            { "layer 0", "arg_0 (Parameter, opset1)" },
            { "layer 1", "Constant_3 (Const, opset1)" },
            { "layer 2", "Constant_4846 (Const, opset1)" },
            { "layer 3", "aten_addmm_default/aten.addmm.default/Add (FullyConnected, ie_internal_opset)" },
            { "layer 4", "aten_relu_default/aten.relu.default/Relu (ReLU, opset1)" },
            { "layer 5", "Result_18 (Result, opset1)" },
        };
        for (const Attribute& layer : layers)
            QCOMPARE(fact(info, layer.name), layer.value);
        QCOMPARE(fact(info, "edges"), std::string("5"));

        const Graph& graph = *info.innerGraph;
        QCOMPARE(graph.nodes.size(), std::size_t(6));
        QCOMPARE(graph.edges.size(), std::size_t(5));
        ETSCOPE_COMPARE_JSON(
            operatorTypes(graph), (std::map<std::string, int> { { "FullyConnected", 1 }, { "ReLU", 1 } }));
        QCOMPARE(graph.nodes[0].kind, NodeKind::Input);
        QCOMPARE(graph.nodes[1].kind, NodeKind::Constant);
        QCOMPARE(graph.nodes[5].kind, NodeKind::Output);
        QCOMPARE(attribute(graph.nodes[1], "data size"), std::string("256"));
        QCOMPARE(attribute(graph.nodes[3], "input ports"), std::string("0: FP32 [1, 8]; 1: FP32 [8, 8]; 2: FP32 [8]"));
        // FullyConnected reads the parameter and both constants; ReLU reads its output.
        const auto into = graph.inEdges(graph.nodes[3].id);
        QCOMPARE(into.size(), std::size_t(3));
        QCOMPARE(into[0]->meta.dtype, std::string("FP32"));
        QCOMPARE(into[0]->meta.shape, (std::vector<std::int64_t> { 1, 8 }));
        QCOMPARE(graph.inEdges(graph.nodes[4].id).at(0)->from, graph.nodes[3].id);
        QCOMPARE(*info.inputCount, 1);
        QCOMPARE(*info.outputCount, 1);
        // The call's split now comes from the payload, not from inference.
        const Node* call = nullptr;
        for (const Node& node : opened->analysis->graph->nodes)
            if (node.kind == NodeKind::Delegate)
                call = &node;
        QVERIFY(call && !call->inferred);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestDelegateSamples)
#include "tst_delegatesamples.moc"
