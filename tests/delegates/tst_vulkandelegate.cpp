// SPDX-License-Identifier: MIT
// The Vulkan decoder on payloads made by the project's own writer (core/writer/vulkan), because
// no public Vulkan-delegated .pte exists. Layout and semantics follow facts sheet §3.2: VH00
// header, VK00 graph, value union order Null, Int, Double, Bool, VkTensor, IntList, DoubleList,
// BoolList, ValueList, String, SymInt; call args = schema args + one output id (a ValueList for
// multi-output calls); input_ids[i] ↔ DelegateCall args[i], output_ids[j] ↔ args[n_in + j];
// node_id is the delegate debug id (§2.3).
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/writer/payloads/vulkanpayloadwriter.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <cstring>

using namespace etscope::core;
using namespace etscope::test;

namespace {

const Node* operatorNamed(const Graph& graph, const std::string& name)
{
    for (const Node& node : graph.nodes)
        if (node.kind == NodeKind::Operator && node.opType == name)
            return &node;
    return nullptr;
}

constexpr std::size_t kWeightBytes = 4 * 3 * 3 * 3 * 4;

/// conv → add → split → custom (which also reads add's sym_size), with two graph inputs (values 0, 10) and two outputs
/// (25, 16); every value kind of the union appears once at least.
VulkanPayloadWriter convGraph()
{
    VulkanPayloadWriter w;
    const std::vector<std::uint8_t> weight(kWeightBytes, 0x3F);
    VulkanTensorSpec x { vk::datatype::Float32, { 1, 3, 8, 8 } };
    x.storageType = 1; // TEXTURE_3D
    x.memoryLayout = 2; // TENSOR_CHANNELS_PACKED
    w.addTensor(x); // 0
    VulkanTensorSpec weightTensor { vk::datatype::Float32, { 4, 3, 3, 3 } };
    weightTensor.constantId = w.addConstantBytes(weight);
    w.addTensor(weightTensor); // 1
    VulkanTensorSpec bias { vk::datatype::Float32, { 4 } };
    bias.constantId = w.addNamedConstant("bias_key");
    w.addTensor(bias); // 2
    w.addIntList({ 1, 1 }); // 3 stride
    w.addIntList({ 1, 1 }); // 4 padding
    w.addIntList({ 1, 1 }); // 5 dilation
    w.addBool(false); // 6 transposed
    w.addIntList({ 0, 0 }); // 7 output padding
    w.addInt(1); // 8 groups
    VulkanTensorSpec convOut { vk::datatype::Float32, { 1, 4, 8, 8 } };
    convOut.memObjId = 0;
    w.addTensor(convOut); // 9
    w.addTensor({ vk::datatype::Float32, { 1, 4, 8, 8 } }); // 10 second input
    w.addTensor({ vk::datatype::Float16, { 7 } }); // 11 unused
    w.addInt(1); // 12 alpha
    VulkanTensorSpec sum { vk::datatype::Float32, { 1, 4, 8, 8 } };
    sum.memObjId = 1;
    sum.stagingDatatype = vk::datatype::Float16;
    w.addTensor(sum); // 13
    w.addIntList({ 2, 2 }); // 14 split sizes
    w.addTensor({ vk::datatype::Float32, { 1, 2, 8, 8 } }); // 15
    w.addTensor({ vk::datatype::Float32, { 1, 2, 8, 8 } }); // 16
    w.addInt(1); // 17 dim
    w.addValueList({ 15, 16 }); // 18
    w.addNull(); // 19
    w.addDouble(0.5); // 20
    w.addString("hello"); // 21
    w.addSymInt(7); // 22
    w.addBoolList({ true, false }); // 23
    w.addDoubleList({ 1.5, 2.0 }); // 24
    w.addTensor({ vk::datatype::Float32, { 1, 2, 8, 8 } }); // 25
    w.addCall(0, "aten.convolution.default", { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 });
    w.addCall(1, "aten.add.Tensor", { 9, 10, 12, 13 });
    w.addCall(2, "aten.split_with_sizes_copy.default", { 13, 14, 17, 18 });
    w.addCall(3, "aten.sym_size.int", { 13, 17, 22 });
    w.addCall(4, "et_vk.custom_op.default", { 15, 19, 20, 21, 22, 23, 24, 25 });
    w.setInputs({ 0, 10 });
    w.setOutputs({ 25, 16 });
    w.setVersion("1");
    w.setOverrides(0, 255);
    return w;
}

/// A .pte whose forward is one DelegateCall(VulkanBackend) with args [x, y, out0, out1] and
/// the bias in the program's named data.
std::vector<std::uint8_t> programWith(std::vector<std::uint8_t> payload)
{
    ProgramSpec spec;
    MethodSpec& method = spec.addMethod("forward");
    const auto tensor = [](std::vector<std::int32_t> sizes) {
        TensorSpec t;
        t.sizes = std::move(sizes);
        return t;
    };
    const std::int32_t x = method.addTensor(tensor({ 1, 3, 8, 8 }));
    const std::int32_t y = method.addTensor(tensor({ 1, 4, 8, 8 }));
    const std::int32_t out0 = method.addTensor(tensor({ 1, 2, 8, 8 }));
    const std::int32_t out1 = method.addTensor(tensor({ 1, 2, 8, 8 }));
    method.inputs = { x, y };
    method.outputs = { out0, out1 };
    const std::int32_t delegate = method.addDelegate({ "VulkanBackend", std::move(payload) });
    method.addInstruction(InstructionSpec::delegate(delegate, { x, y, out0, out1 }));
    spec.namedData.push_back({ "bias_key", std::vector<std::uint8_t>(16, 1) });
    auto bytes = writeProgram(spec);
    return bytes ? std::move(*bytes) : std::vector<std::uint8_t> {};
}

std::optional<Document> openBytes(const std::vector<std::uint8_t>& bytes)
{
    return etscope::test::documentFromBytes(bytes, "vulkan-fixture.pte");
}

/// Describes a payload on its own, under `backendId`, with an empty program.
DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& backendId = "VulkanBackend")
{
    DelegateRef ref;
    ref.backendId = backendId;
    return describeAlone(payload, ref);
}

} // namespace

class TestVulkanDelegate : public QObject {
    Q_OBJECT

private slots:
    void graphInsideAProgram()
    {
        const auto bytes = programWith(convGraph().write());
        QVERIFY(!bytes.empty());
        const auto document = openBytes(bytes);
        QVERIFY(document);
        const Method& method = document->program->methods.front();
        const MethodAnalysis& analysis = *document->analysis(method);
        const DelegateInfo& info = analysis.delegates.front();
        QCOMPARE(info.format, std::string("vulkan"));
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(*info.inputCount, 2);
        QCOMPARE(*info.outputCount, 2);
        QCOMPARE(info.summary, std::string("Vulkan graph VK00: 5 operator calls, 2 inputs, 2 outputs"));
        QCOMPARE(fact(info, "header"), std::string("VH00, length 30"));
        QCOMPARE(fact(info, "graph version"), std::string("1"));
        QCOMPARE(fact(info, "values"),
            std::string("26 (bool 1, bool list 1, double 1, double list 1, int 3, int list 5, null 1, string 1, symint "
                        "1, tensor 10, value list 1)"));
        QCOMPARE(fact(info, "operator calls"), std::string("5"));
        QCOMPARE(fact(info, "constants"), std::string("2 (432 B in the payload, 1 named, 16 B)"));
        QCOMPARE(fact(info, "storage type override"), std::string("BUFFER"));
        QCOMPARE(fact(info, "memory layout override"), std::string("DEFAULT_LAYOUT"));

        const Graph& g = *info.innerGraph;
        QCOMPARE(g.format, std::string("vulkan"));
        QCOMPARE(g.operatorCount(), std::size_t(5));
        const Node* conv = operatorNamed(g, "aten.convolution.default");
        const Node* add = operatorNamed(g, "aten.add.Tensor");
        const Node* split = operatorNamed(g, "aten.split_with_sizes_copy.default");
        const Node* symSize = operatorNamed(g, "aten.sym_size.int");
        const Node* custom = operatorNamed(g, "et_vk.custom_op.default");
        QVERIFY(conv && add && split && symSize && custom);
        QCOMPARE(conv->label, std::string("aten.convolution.default"));
        // node_id is kept as the delegate debug id, as a number and as an attribute.
        QCOMPARE(*conv->delegateDebugId, std::int64_t(0));
        QCOMPARE(*custom->delegateDebugId, std::int64_t(4));
        QCOMPARE(attribute(*split, "node id"), std::string("2"));

        const Node* x = nodeWithValue(g, NodeKind::Input, 0);
        const Node* y = nodeWithValue(g, NodeKind::Input, 10);
        const Node* out0 = nodeWithValue(g, NodeKind::Output, 25);
        const Node* out1 = nodeWithValue(g, NodeKind::Output, 16);
        QVERIFY(x && y && out0 && out1);
        QCOMPARE(x->argPosition, 0);
        QCOMPARE(y->argPosition, 1);
        QCOMPARE(out0->argPosition, 2);
        QCOMPARE(out1->argPosition, 3);
        QCOMPARE(attribute(*x, "storage type"), std::string("TEXTURE_3D"));
        QCOMPARE(attribute(*x, "memory layout"), std::string("TENSOR_CHANNELS_PACKED"));

        const Node* weight = nodeWithValue(g, NodeKind::Constant, 1);
        const Node* bias = nodeWithValue(g, NodeKind::Constant, 2);
        QVERIFY(weight && bias);
        QCOMPARE(attribute(*weight, "bytes"), std::to_string(kWeightBytes) + " bytes at offset 0");
        QCOMPARE(attribute(*bias, "bytes"), std::string("named data 'bias_key', 16 bytes"));
        QCOMPARE(attribute(*bias, "constant id"), std::string("1"));

        // Edges follow value ids: args before the last are inputs, the last is the output, and
        // a ValueList output makes every member an output of the call.
        QVERIFY(hasEdge(g, x, conv, 0));
        QVERIFY(hasEdge(g, weight, conv, 1));
        QVERIFY(hasEdge(g, bias, conv, 2));
        QVERIFY(hasEdge(g, conv, add, 9));
        QVERIFY(hasEdge(g, y, add, 10));
        QVERIFY(hasEdge(g, add, split, 13));
        QVERIFY(hasEdge(g, split, custom, 15));
        QVERIFY(hasEdge(g, split, out1, 16));
        QVERIFY(hasEdge(g, custom, out0, 25));
        // A SymInt flows like a tensor: written by sym_size, read by the custom op.
        QVERIFY(hasEdge(g, add, symSize, 13));
        QVERIFY(hasEdge(g, symSize, custom, 22));
        QCOMPARE(g.edges.size(), std::size_t(11));
        for (const Edge& edge : g.edges)
            if (edge.value.value == 9)
                QCOMPARE(edge.meta.shape, (std::vector<std::int64_t> { 1, 4, 8, 8 }));

        // Literal arguments are shown on the call, each kind in its own words.
        QCOMPARE(attribute(*custom, "arg 1"), std::string("value 19: null"));
        QCOMPARE(attribute(*custom, "arg 2"), std::string("value 20: double 0.5"));
        QCOMPARE(attribute(*custom, "arg 3"), std::string("value 21: string \"hello\""));
        QCOMPARE(attribute(*custom, "arg 4"), std::string("value 22: symint 7"));
        QCOMPARE(attribute(*custom, "arg 5"), std::string("value 23: bool list [true, false]"));
        QCOMPARE(attribute(*custom, "arg 6"), std::string("value 24: double list [1.5, 2]"));
        QCOMPARE(attribute(*conv, "arg 3"), std::string("value 3: int list [1, 1]"));
        QCOMPARE(attribute(*conv, "arg 6"), std::string("value 6: bool false"));
        QCOMPARE(attribute(*split, "output"), std::string("value 18: value list [15, 16]"));

        // Outer wiring: the call's split comes from the payload, and expanding the delegate
        // connects the method's inputs and outputs to the inner ones by argument position.
        const Graph& top = *analysis.graph;
        const Node* call = nullptr;
        for (const Node& node : top.nodes)
            if (node.kind == NodeKind::Delegate)
                call = &node;
        QVERIFY(call && !call->inferred);
        QCOMPARE(call->inputCount, 2);
        const FlatGraph flat = flattenGraph(top, [](const Node&) { return true; });
        int crossing = 0;
        for (const Edge& edge : flat.graph.edges) {
            const NodeOrigin from = flat.origins[edge.from.index()];
            const NodeOrigin to = flat.origins[edge.to.index()];
            if (from.inner.valid() == to.inner.valid())
                continue;
            const Node& inner = call->subgraph->node(from.inner.valid() ? from.inner : to.inner);
            QCOMPARE(call->args[static_cast<std::size_t>(inner.argPosition)], edge.value.value);
            QVERIFY(!edge.inferred);
            ++crossing;
        }
        QCOMPARE(crossing, 4);
    }

    void webGpuCompileSpecIsNamed()
    {
        // WebGPU lowers to the same VulkanBackend id and VH00/VK00 payload; its one compile spec
        // (a single byte, 1 = record the q4gsw decode route) is the only trace it leaves.
        DelegateRef ref;
        ref.backendId = "VulkanBackend";
        ref.compileSpecs.push_back({ "webgpu_record_q4gsw_decode_route", { 1 } });
        const DelegateInfo info = describeAlone(convGraph().write(), ref);
        QCOMPARE(info.format, std::string("vulkan"));
        QCOMPARE(fact(info, "runtime hint"),
            std::string("compile spec webgpu_record_q4gsw_decode_route is read only by the WebGPU backend"));
        QCOMPARE(fact(describe(convGraph().write()), "runtime hint"), std::string("(no fact 'runtime hint')"));
    }

    void bareFlatbufferAndMagicSniffing()
    {
        VulkanWriteOptions bare;
        bare.header = false;
        const DelegateInfo info = describe(convGraph().write(bare));
        QCOMPARE(info.format, std::string("vulkan"));
        QCOMPARE(fact(info, "header"), std::string("none (bare VK00 FlatBuffer)"));
        QCOMPARE(info.innerGraph->operatorCount(), std::size_t(5));
        // Without the header the constant area cannot be located; the entry says so.
        const Node* weight = nodeWithValue(*info.innerGraph, NodeKind::Constant, 1);
        QVERIFY(weight);
        QCOMPARE(attribute(*weight, "bytes"),
            std::to_string(kWeightBytes)
                + " bytes at offset 0 (no VH00 header, so the constant bytes cannot be located)");

        // A renamed backend with the Vulkan magic is still decoded, and says how it was found.
        const DelegateInfo renamed = describe(convGraph().write(), "VulkanBackendV2");
        QCOMPARE(renamed.format, std::string("vulkan"));
        QCOMPARE(fact(renamed, "recognised by"), std::string("the VulkanBackend payload magic"));
    }

    void damagedHeaders_data()
    {
        QTest::addColumn<int>("field");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("decoded");
        QTest::addRow("header length below 30") << 0 << QStringLiteral("header length 12 is below 30") << false;
        QTest::addRow("graph beyond the payload")
            << 1 << QStringLiteral("places the graph outside the payload") << false;
        QTest::addRow("graph size lies") << 2 << QStringLiteral("places the graph outside the payload") << false;
        QTest::addRow("constant bytes lie")
            << 3 << QStringLiteral("places the constant bytes outside the payload") << true;
        QTest::addRow("graph offset inside the header") << 4 << QStringLiteral("places the graph outside") << false;
    }

    // A damaged VH00 header gives a warning, never a crash: the delegate is then described
    // with the header facts it has, or still decoded when only the constant range is wrong.
    void damagedHeaders()
    {
        QFETCH(int, field);
        QFETCH(QString, warning);
        QFETCH(bool, decoded);
        VulkanWriteOptions options;
        switch (field) {
        case 0:
            options.headerLength = 12;
            break;
        case 1:
            options.flatbufferOffset = 1u << 30;
            break;
        case 2:
            options.flatbufferSize = 0xFFFFFFF0u;
            break;
        case 3:
            options.bytesSize = 1ull << 40;
            break;
        case 4:
            options.flatbufferOffset = 8;
            break;
        }
        const DelegateInfo info = describe(convGraph().write(options));
        QVERIFY2(anyWarning(info, warning.toStdString()),
            info.warnings.empty() ? "no warning" : info.warnings.front().message.c_str());
        QCOMPARE(info.format, std::string(decoded ? "vulkan" : "opaque"));
        QVERIFY(info.facts.size() > 5); // the common facts and the header's own
        QVERIFY(fact(info, "header").starts_with("VH00"));
        if (decoded) {
            const Node* weight = nodeWithValue(*info.innerGraph, NodeKind::Constant, 1);
            QVERIFY(weight);
            QVERIFY(attribute(*weight, "bytes").ends_with("(the header's constant range is damaged)"));
        }
    }

    // A payload that announces VH00 but ends before the header's 30 bytes.
    void truncatedHeader()
    {
        std::vector<std::uint8_t> payload(20, 0);
        std::memcpy(payload.data() + 4, "VH00", 4);
        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(anyWarning(info, "the VH00 header is truncated: 20 of 30 bytes"));
    }

    void verifierFailure()
    {
        std::vector<std::uint8_t> payload = convGraph().write();
        // The root offset of the FlatBuffer (payload offset 32) now points far outside it.
        payload[32] = 0xF0;
        payload[33] = 0xFF;
        payload[34] = 0xFF;
        payload[35] = 0x0F;
        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(anyWarning(info, "the FlatBuffers verifier rejected the Vulkan graph"));
        QVERIFY(!info.innerGraph);

        std::vector<std::uint8_t> wrongId = convGraph().write();
        wrongId[36] = 'X';
        const DelegateInfo other = describe(wrongId);
        QVERIFY(anyWarning(other, "expected VK00"));
    }

    // Ids that point nowhere are warnings on a graph that is still shown.
    void danglingIds()
    {
        VulkanPayloadWriter w;
        w.addTensor({ vk::datatype::Float32, { 2 } }); // 0
        VulkanTensorSpec missingConstant { vk::datatype::Float32, { 2 } };
        missingConstant.constantId = 5;
        w.addTensor(missingConstant); // 1
        w.addTensor({ vk::datatype::Float32, { 2 } }); // 2
        w.addTensor({ vk::datatype::Int32, { 2 } }); // 3, read before anything writes it
        w.addCall(10, "aten.mul.Tensor", { 0, 1, 999, 3, 2 });
        w.addCall(11, "aten.noargs.default", {});
        w.setInputs({ 0, 500 });
        w.setOutputs({ 2, 4 });
        const DelegateInfo info = describe(w.write());
        QCOMPARE(info.format, std::string("vulkan"));
        QVERIFY(anyWarning(info, "names value 999, which does not exist"));
        QVERIFY(anyWarning(info, "input id 500 names no value"));
        QVERIFY(anyWarning(info, "names constant 5, which does not exist"));
        QVERIFY(anyWarning(info, "output value 4 is not written by any call"));
        QVERIFY(anyWarning(info, "has no arguments"));
        const Node* placeholder = nodeWithValue(*info.innerGraph, NodeKind::View, 3);
        QVERIFY(placeholder && placeholder->inferred);
        QCOMPARE(*info.inputCount, 2);
        QCOMPARE(*info.outputCount, 2);
    }

    // A union tag without its table passes the verifier; such values and tags from the future
    // are shown for what they are, never read.
    void valuesWithoutTablesAndFutureKinds()
    {
        VulkanPayloadWriter w;
        w.addTensor({ vk::datatype::Float32, { 2 } }); // 0
        w.addRawTag(2, false); // 1: Int without its table
        w.addRawTag(5, false); // 2: VkTensor without its table
        w.addRawTag(42, true); // 3: a kind this build does not know
        w.addTensor({ vk::datatype::Float32, { 2 } }); // 4
        w.addCall(0, "aten.add.Tensor", { 0, 2, 1, 3, 4 });
        w.setInputs({ 0 });
        w.setOutputs({ 4 });
        const DelegateInfo info = describe(w.write());
        QCOMPARE(info.format, std::string("vulkan"));
        const Node* add = operatorNamed(*info.innerGraph, "aten.add.Tensor");
        QVERIFY(add);
        QCOMPARE(attribute(*add, "arg 1"), std::string("value 2: tensor without its table"));
        QCOMPARE(attribute(*add, "arg 2"), std::string("value 1: int without its table"));
        QCOMPARE(attribute(*add, "arg 3"), std::string("value 3: unknown value kind 42"));
        QCOMPARE(info.innerGraph->inEdges(add->id).size(), std::size_t(1));
    }

    void everyTruncation()
    {
        const std::vector<std::uint8_t> payload = convGraph().write();
        for (std::size_t cut = 0; cut < payload.size(); ++cut) {
            const DelegateInfo info = describe({ payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(cut) });
            if (info.format == "opaque")
                QVERIFY2(!info.warnings.empty(), std::to_string(cut).c_str());
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestVulkanDelegate)
#include "tst_vulkandelegate.moc"
