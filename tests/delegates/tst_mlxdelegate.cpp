// SPDX-License-Identifier: MIT
// The MLX decoder on payloads from the project's own writer (core/writer/payloads/mlxpayloadwriter),
// as no public MLX-delegated .pte is stored. Layout per pytorch/executorch
// backends/mlx/serialization/mlx_graph_serialize.py and schema.fbs (commit cff6f4dd32e6): bytes
// 0-3 zero, "MLX0" at 4, data segment offset (uint64 LE) at 8 and size at 16, the MLXGraph
// FlatBuffer from byte 24; OpNode union tags (1-based: 0 is NONE, NoopNode 1) 3 AddmmNode,
// 27 SiluNode, 36 SoftmaxNode, 47 ConcatenateNode; tensor ids below num_constant_tensors are constants named by
// named_slots.
#include "core/delegates/deferredpayload.h"
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/payloads/mlxpayloadwriter.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& backend = "MLXBackend")
{
    return describeAlone(payload, backend);
}

std::uint64_t u64At(const std::vector<std::uint8_t>& bytes, std::size_t at)
{
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < 8; ++i)
        value |= static_cast<std::uint64_t>(bytes[at + i]) << (8 * i);
    return value;
}

} // namespace

class TestMlxDelegate : public QObject {
    Q_OBJECT

private slots:
    void headerAsWritten()
    {
        // The fixture's own bytes, read by hand: the magic, and the data segment (16 × 0xAB) at
        // the offset the header gives, which is 16-aligned and ends the payload.
        const auto payload = writeMlxPayload(smallMlxGraph());
        QCOMPARE(std::string(payload.begin() + 4, payload.begin() + 8), std::string("MLX0"));
        const std::uint64_t offset = u64At(payload, 8);
        QCOMPARE(u64At(payload, 16), std::uint64_t(16));
        QCOMPARE(offset % 16, std::uint64_t(0));
        QCOMPARE(offset + 16, std::uint64_t(payload.size()));
        QCOMPARE(payload[offset], std::uint8_t(0xAB));

        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("mlx"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "header"), std::string("MLX0, 24 bytes"));
        QCOMPARE(fact(info, "data segment"), "16 bytes at offset " + std::to_string(offset));
        QCOMPARE(fact(info, "graph FlatBuffer"), std::to_string(offset - 24) + " bytes at offset 24");
        QCOMPARE(fact(info, "graph version"), std::string("1"));
        QCOMPARE(fact(info, "tensors"), std::string("2 constant, 1 input, 2 output, 0 mutable buffer, 2 temporary"));
        QCOMPARE(fact(info, "instruction chains"), std::string("1 (instructions: 4)"));
        QCOMPARE(fact(info, "init chain"), std::string("none"));
        QCOMPARE(fact(info, "named slots"), std::string("2"));
        QCOMPARE(info.summary, std::string("MLX graph: 4 instructions, 1 input, 2 outputs"));
        QCOMPARE(info.inputCount, std::optional<int>(1));
        QCOMPARE(info.outputCount, std::optional<int>(2));
    }

    void innerGraphWiring()
    {
        // Written: x (tensor 2) → Addmm(2, w=0, bias b=1) → 3 → Silu → 4 → Softmax(axis -1) → 5
        // (output 0); Concatenate(5, 3) → 6 (output 1). Nine nodes: one input, two constants,
        // four instructions, two outputs; nine edges.
        const DelegateInfo info = describe(writeMlxPayload(smallMlxGraph()));
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(g.nodes.size(), std::size_t(9));
        QCOMPARE(g.edges.size(), std::size_t(9));
        QCOMPARE(g.operatorCount(), std::size_t(4));
        const Node* input = nodeLabelled(g, "input 0");
        const Node* w = nodeLabelled(g, "w");
        const Node* b = nodeLabelled(g, "b");
        const Node* addmm = nodeLabelled(g, "Addmm");
        const Node* silu = nodeLabelled(g, "Silu");
        const Node* softmax = nodeLabelled(g, "Softmax");
        const Node* concat = nodeLabelled(g, "Concatenate");
        const Node* out0 = nodeLabelled(g, "output 0");
        const Node* out1 = nodeLabelled(g, "output 1");
        QVERIFY(input && w && b && addmm && silu && softmax && concat && out0 && out1);
        QCOMPARE(input->argPosition, 0);
        QCOMPARE(out0->argPosition, 1);
        QCOMPARE(out1->argPosition, 2);
        QCOMPARE(w->kind, NodeKind::Constant);
        QCOMPARE(attribute(w, "named data key"), std::string("w"));
        QCOMPARE(attribute(w, "bytes"), std::string("not found in the program or an attached .ptd"));
        QVERIFY(hasEdge(g, input, addmm, 2));
        QVERIFY(hasEdge(g, w, addmm, 0));
        QVERIFY(hasEdge(g, b, addmm, 1));
        QVERIFY(hasEdge(g, addmm, silu, 3));
        QVERIFY(hasEdge(g, silu, softmax, 4));
        QVERIFY(hasEdge(g, softmax, concat, 5));
        QVERIFY(hasEdge(g, addmm, concat, 3));
        QVERIFY(hasEdge(g, softmax, out0, 5));
        QVERIFY(hasEdge(g, concat, out1, 6));
        for (const Edge& edge : g.edges)
            if (edge.to == concat->id && edge.value.value == 3) {
                QCOMPARE(edge.meta.dtype, std::string("FLOAT")); // ScalarType 6
                QCOMPARE(edge.meta.shape, (std::vector<std::int64_t> { 1, 4 }));
            }
        QCOMPARE(attribute(addmm, "mat1"), std::string("tensor 2"));
        QCOMPARE(attribute(addmm, "bias"), std::string("tensor 1"));
        QCOMPARE(attribute(softmax, "axis"), std::string("-1"));
        QCOMPARE(attribute(concat, "tensors"), std::string("[tensor 5, tensor 3]"));
        QCOMPARE(attribute(concat, "axis"), std::string("(no attribute 'axis')")); // 0 is the default: not stored
    }

    void tensorInsideAChoiceIsRead()
    {
        // RopeNode's offset is a VidOrTid; written with is_vid false and tid 1, so Rope reads
        // tensors 0 (x) and 1 (positions), both call inputs, and writes tensor 2, the output.
        MlxGraphSpec spec;
        spec.inputTensors = 2;
        spec.outputTensors = 1;
        spec.tensorMeta = { { 6, { 1, 8, 64 } }, { 3, { 1 } }, { 6, { 1, 8, 64 } } };
        spec.inputs = { 0, 1 };
        spec.outputs = { 2 };
        spec.instructions = { { MlxInstructionSpec::Kind::Rope, { 0, 1 }, { 2 }, 64 } };
        const DelegateInfo info = describe(writeMlxPayload(spec));
        QVERIFY(info.warnings.empty());
        const Graph& g = *info.innerGraph;
        const Node* rope = nodeLabelled(g, "Rope");
        QVERIFY(hasEdge(g, nodeLabelled(g, "input 0"), rope, 0));
        QVERIFY(hasEdge(g, nodeLabelled(g, "input 1"), rope, 1));
        QVERIFY(hasEdge(g, rope, nodeLabelled(g, "output 0"), 2));
        QCOMPARE(attribute(rope, "offset"), std::string("tensor 1"));
        QCOMPARE(attribute(rope, "dims"), std::string("64"));
        for (const Edge& edge : g.edges)
            if (edge.value.value == 1)
                QCOMPARE(edge.meta.dtype, std::string("INT")); // ScalarType 3
    }

    void deferredOpenGivesTheSameGraph()
    {
        static const Program empty = [] {
            Program p;
            p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
            return p;
        }();
        const auto payload = writeMlxPayload(smallMlxGraph());
        DelegateRef ref;
        ref.backendId = "MLXBackend";
        ref.payload = { 0, payload.size() };
        const auto sources = std::make_shared<DeferredDecodeSources>(empty, std::span<const ExternalData* const> {});
        const DelegateInfo deferred = describePayloadDeferred(empty, ref, payload, {}, "fixture", sources);
        const DelegateInfo eager = describe(payload);
        QCOMPARE(deferred.summary, eager.summary);
        QCOMPARE(deferred.innerGraph.operatorCount(), std::size_t(4));
        QCOMPARE(deferred.innerGraph->nodes.size(), eager.innerGraph->nodes.size());
        QCOMPARE(deferred.innerGraph->edges.size(), eager.innerGraph->edges.size());
    }

    void graphInsideAProgram()
    {
        // A program whose one method calls the MLX delegate with x and returns two outputs, and
        // whose named data holds "w" (64 bytes, 4 × 4 floats) and "b" (16 bytes).
        ProgramSpec spec;
        MethodSpec& method = spec.addMethod("forward");
        const auto tensor = [](std::vector<std::int32_t> sizes) {
            TensorSpec t;
            t.sizes = std::move(sizes);
            return t;
        };
        const std::int32_t x = method.addTensor(tensor({ 1, 4 }));
        const std::int32_t out0 = method.addTensor(tensor({ 1, 4 }));
        const std::int32_t out1 = method.addTensor(tensor({ 2, 4 }));
        method.inputs = { x };
        method.outputs = { out0, out1 };
        const std::int32_t delegate = method.addDelegate({ "MLXBackend", writeMlxPayload(smallMlxGraph()) });
        method.addInstruction(InstructionSpec::delegate(delegate, { x, out0, out1 }));
        spec.namedData.push_back({ "w", std::vector<std::uint8_t>(64, 1) });
        spec.namedData.push_back({ "b", std::vector<std::uint8_t>(16, 2) });
        const auto bytes = writeProgram(spec);
        QVERIFY(bytes);
        const auto document = etscope::test::documentFromBytes(*bytes, "mlx-fixture.pte");
        QVERIFY(document);
        const DelegateInfo& info = document->analysis(document->program->methods.front())->delegates.front();
        QCOMPARE(info.format, std::string("mlx"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(info.summary, std::string("MLX graph: 4 instructions, 1 input, 2 outputs"));
        const Graph& g = *info.innerGraph;
        QCOMPARE(attribute(nodeLabelled(g, "w"), "bytes"), std::string("64"));
        QCOMPARE(attribute(nodeLabelled(g, "b"), "bytes"), std::string("16"));
        QCOMPARE(g.operatorCount(), std::size_t(4));
    }

    void recognisedByMagic()
    {
        const DelegateInfo info = describe(writeMlxPayload(smallMlxGraph()), "SomeRenamedBackend");
        QCOMPARE(info.format, std::string("mlx"));
        QCOMPARE(fact(info, "recognised by"), std::string("the MLXBackend payload magic"));
    }

    void unknownOpBecomesANode()
    {
        // Tag 200 lies past the last member this build knows (UpdateAndAttendNode = 134).
        MlxGraphSpec spec = smallMlxGraph();
        spec.instructions.insert(
            spec.instructions.begin() + 1, MlxInstructionSpec { MlxInstructionSpec::Kind::RawTag, {}, {}, 0, 200 });
        const DelegateInfo info = describe(writeMlxPayload(spec));
        QCOMPARE(info.format, std::string("mlx"));
        const Node* unknown = nodeLabelled(*info.innerGraph, "unknown MLX op 200");
        QVERIFY(unknown);
        QCOMPARE(unknown->kind, NodeKind::Unknown);
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QVERIFY(info.warnings[0].message.find("instruction 1 has op type 200") != std::string::npos);
    }

    void damagedHeaderStillReadsTheGraph()
    {
        auto payload = writeMlxPayload(smallMlxGraph());
        for (std::size_t i = 8; i < 16; ++i)
            payload[i] = 0xFF; // data segment offset far past the end
        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("mlx"));
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QCOMPARE(info.warnings[0].offset, std::optional<std::uint64_t>(8));
        QCOMPARE(info.innerGraph->operatorCount(), std::size_t(4));
    }

    void truncatedGraphIsRejected()
    {
        auto payload = writeMlxPayload(smallMlxGraph());
        payload.resize(24 + 40);
        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(!info.innerGraph);
        QCOMPARE(fact(info, "header"), std::string("MLX0, 24 bytes")); // read before the damage
        bool verifier = false;
        for (const Warning& w : info.warnings)
            if (w.message.find("verifier rejected the MLX graph") != std::string::npos && w.offset == 24u)
                verifier = true;
        QVERIFY(verifier);
    }

    void mainChainOutOfRange()
    {
        MlxGraphSpec spec = smallMlxGraph();
        spec.mainChain = 3;
        const DelegateInfo info = describe(writeMlxPayload(spec));
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(!info.warnings.empty());
        QVERIFY(info.warnings.back().message.find("main chain index 3") != std::string::npos);
    }

    void everyCutIsSafe()
    {
        // Every prefix of the payload: described, never crashing, never reading outside.
        const auto payload = writeMlxPayload(smallMlxGraph());
        for (std::size_t size = 0; size < payload.size(); ++size) {
            const std::vector<std::uint8_t> cut(payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(size));
            const DelegateInfo info = describe(cut);
            QVERIFY(!info.summary.empty());
        }
    }
    void everyByteFlipIsSafe()
    {
        // Each byte in turn set to 0xFF, 0x00, 0x01 and 0x80: described (decoded or not), every edge
        // inside the graph, never crashing or reading outside (the verifier runs first).
        const auto payload = writeMlxPayload(smallMlxGraph());
        for (std::size_t at = 0; at < payload.size(); ++at) {
            for (const std::uint8_t value :
                { std::uint8_t(0xFF), std::uint8_t(0x00), std::uint8_t(0x01), std::uint8_t(0x80) }) {
                auto damaged = payload;
                damaged[at] = value;
                const DelegateInfo info = describe(damaged);
                QVERIFY(!info.summary.empty());
                if (info.innerGraph)
                    for (const Edge& edge : info.innerGraph->edges)
                        QVERIFY(edge.from.index() < info.innerGraph->nodes.size()
                            && edge.to.index() < info.innerGraph->nodes.size());
            }
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestMlxDelegate)
#include "tst_mlxdelegate.moc"
