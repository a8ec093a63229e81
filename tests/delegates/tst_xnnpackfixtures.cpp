// SPDX-License-Identifier: MIT
// XNNPACK forms and details no real sample covers, made with the project's XNNPACK payload
// writer (core/writer/xnnpackwriter): the oldest bare FlatBuffer with identifier XN00 and inline
// constant buffers, every node type of the union with its ports (facts sheet §3.1 parameter
// tables), per-channel / per-group / per-token quantization, node types from the future and
// values that point nowhere.
#include "core/delegates/delegate.h"
#include "core/writer/xnnpackwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <cstring>
#include <map>

using namespace etscope::core;
using namespace etscope::test;

namespace {

DelegateInfo describe(const XnnGraphSpec& graph, const XnnWriteOptions& options = {})
{
    static const Program empty = [] {
        Program p;
        p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    const auto payload = writeXnnpackPayload(graph, options);
    if (!payload)
        return {};
    DelegateRef ref;
    ref.backendId = "XnnpackBackend";
    ref.payload = { 0, payload->size() };
    return describePayload(empty, ref, *payload, {}, "fixture");
}

/// Inputs each node type reads through its parameter table, when given five distinct inputs.
int portsRead(XnnNodeType type)
{
    using T = XnnNodeType;
    switch (type) {
    case T::Add:
    case T::Div:
    case T::Minimum:
    case T::Maximum:
    case T::Multiply:
    case T::Subtract:
    case T::PReLU:
    case T::BatchMatrixMultiply:
    case T::Concatenate2:
        return 2;
    case T::FullyConnected:
    case T::Conv2d:
    case T::DepthwiseConv2d:
    case T::ConvTranspose2d:
    case T::Concatenate3:
        return 3;
    case T::Concatenate4:
        return 4;
    case T::Concatenate5:
    case T::ScaledDotProductAttention:
        return 5;
    default:
        return 1;
    }
}

} // namespace

class TestXnnpackFixtures : public QObject {
    Q_OBJECT

private slots:
    // Release 0.1: no XH00 header, identifier XN00, constants inline in constant_buffer.
    void bareXn00WithInlineConstants()
    {
        XnnGraphSpec graph;
        const auto x = graph.addExternalInput(xnn::datatype::Fp32, { 1, 4 });
        const auto w = graph.addConstant(xnn::datatype::Fp32, { 4, 4 }, std::vector<std::uint8_t>(64, 1));
        const auto y = graph.addExternalOutput(xnn::datatype::Fp32, { 1, 4 });
        graph.addNode(XnnNodeSpec::fullyConnected(x, w, xnn::kInvalidId, y));
        XnnWriteOptions options;
        options.header = false;
        options.identifier = "XN00";
        const DelegateInfo info = describe(graph, options);
        QCOMPARE(info.format, std::string("xnnpack"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "graph identifier"), std::string("XN00 (bare FlatBuffer, no XH00 header)"));
        QCOMPARE(fact(info, "legacy constant buffers"), std::string("2"));
        const Graph& inner = *info.innerGraph;
        const Node* constant = nullptr;
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Constant)
                constant = &node;
        QVERIFY(constant);
        QCOMPARE(attribute(*constant, "bytes"), std::string("64 bytes (inline buffer)"));
        // The absent bias is shown as such and makes no edge.
        const Node& fc = inner.nodes[2];
        QCOMPARE(fc.opType, std::string("XNNFullyConnected"));
        QCOMPARE(attribute(fc, "bias"), std::string("none"));
        QCOMPARE(inner.inEdges(fc.id).size(), std::size_t(2));
    }

    // Every member of XNodeUnion (tags 1–47) is named as the backend names it and wired through
    // its own parameter table: with five distinct inputs offered, each reads exactly its ports.
    void everyNodeType()
    {
        XnnGraphSpec graph;
        std::vector<std::uint32_t> inputs;
        for (int i = 0; i < 5; ++i)
            inputs.push_back(graph.addExternalInput(xnn::datatype::Fp32, { 1, 2, 2, 2 }));
        std::vector<XnnNodeType> types;
        for (int tag = 1; tag <= 47; ++tag)
            types.push_back(static_cast<XnnNodeType>(tag));
        std::uint32_t last = 0;
        for (const XnnNodeType type : types) {
            XnnNodeSpec node;
            node.type = type;
            node.inputs = inputs;
            last = graph.addInternal(xnn::datatype::Fp32, { 1, 2, 2, 2 });
            node.outputs = { last, graph.addInternal(xnn::datatype::Int32, { 1, 2, 2, 2 }) };
            node.list = { 0, 1, 2, 3 };
            node.list2 = { 1, 1, 1, 1 };
            node.debugHandle = static_cast<std::uint32_t>(type) + 100;
            graph.addNode(node);
        }
        graph.outputIds = { last };
        graph.values[last].flags = xnn::kFlagExternalOutput;
        const DelegateInfo info = describe(graph);
        QCOMPARE(info.format, std::string("xnnpack"));
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        const Graph& inner = *info.innerGraph;
        QCOMPARE(inner.operatorCount(), std::size_t(47));
        std::size_t n = 0;
        for (const Node& node : inner.nodes) {
            if (node.kind != NodeKind::Operator)
                continue;
            const XnnNodeType type = types[n++];
            QCOMPARE(node.opType, xnnNodeTypeName(type));
            QCOMPARE(*node.debugHandle, DebugHandle(static_cast<std::int64_t>(type) + 100));
            QCOMPARE(static_cast<int>(inner.inEdges(node.id).size()), portsRead(type));
        }
        // Parameters are read from each table.
        for (const Node& node : inner.nodes) {
            if (node.opType == "XNNConv2d") {
                QCOMPARE(attribute(node, "kernel (h × w)"), std::string("1 × 1"));
                QCOMPARE(attribute(node, "groups"), std::string("1"));
            } else if (node.opType == "XNNStaticSlice") {
                QCOMPARE(attribute(node, "offsets"), std::string("[0, 1, 2, 3]"));
                QCOMPARE(attribute(node, "sizes"), std::string("[1, 1, 1, 1]"));
                QCOMPARE(attribute(node, "num dims"), std::string("4"));
            } else if (node.opType == "XNNArgMaxPooling2d") {
                QVERIFY(attribute(node, "output index").starts_with("value "));
            } else if (node.opType == "XNNScaledDotProductAttention") {
                QVERIFY(attribute(node, "mask").starts_with("value 4: fp32"));
            }
        }
    }

    void quantization()
    {
        XnnGraphSpec graph;
        const auto x = graph.addExternalInput(xnn::datatype::Fp32, { 1, 32 });
        XnnValueSpec dynamic;
        dynamic.datatype = xnn::datatype::QDInt8;
        dynamic.dims = { 1, 32 };
        dynamic.quant = XnnQuantSpec { XnnQuantSpec::Kind::PerTokenDynamic };
        const auto q = graph.addValue(dynamic);
        XnnValueSpec channel;
        channel.datatype = xnn::datatype::QCInt8;
        channel.dims = { 16, 32 };
        channel.constantBytes = std::vector<std::uint8_t>(16 * 32, 0);
        channel.quant = XnnQuantSpec { XnnQuantSpec::Kind::PerChannel };
        channel.quant->scales = std::vector<float>(16, 0.5f);
        const auto w1 = graph.addValue(channel);
        XnnValueSpec group;
        group.datatype = xnn::datatype::QBInt4;
        group.dims = { 16, 32 };
        group.namedKey = "group_weights";
        group.namedSize = 256;
        group.quant = XnnQuantSpec { XnnQuantSpec::Kind::PerChannelGroup };
        group.quant->groupSize = 8;
        group.quant->scales = std::vector<float>(64, 0.25f);
        const auto w2 = graph.addValue(group);
        const auto h = graph.addInternal(xnn::datatype::Fp32, { 1, 16 });
        const auto y = graph.addExternalOutput(xnn::datatype::Fp32, { 1, 16 });
        graph.addNode(XnnNodeSpec::unary(XnnNodeType::Convert, x, q));
        graph.addNode(XnnNodeSpec::fullyConnected(q, w1, xnn::kInvalidId, h));
        graph.addNode(XnnNodeSpec::fullyConnected(q, w2, xnn::kInvalidId, y));
        const DelegateInfo info = describe(graph);
        QCOMPARE(info.format, std::string("xnnpack"));
        QCOMPARE(fact(info, "quantized values"), std::string("3"));
        const Graph& inner = *info.innerGraph;
        std::map<std::string, const Node*> constants;
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Constant)
                constants[attribute(node, "dtype")] = &node;
        QVERIFY(constants.count("qcint8") && constants.count("qbint4"));
        const Node& perChannel = *constants["qcint8"];
        QCOMPARE(attribute(perChannel, "quantization"), std::string("per channel"));
        QCOMPARE(attribute(perChannel, "scales"), std::string("16 (inline)"));
        QCOMPARE(attribute(perChannel, "bytes"), std::string("512 bytes at constant-data offset 0"));
        const Node& perGroup = *constants["qbint4"];
        QCOMPARE(attribute(perGroup, "quantization"), std::string("per channel group"));
        QCOMPARE(attribute(perGroup, "group size"), std::string("8"));
        QCOMPARE(attribute(perGroup, "scales"), std::string("64 (inline)"));
        // The named blob is not in this (empty) program: said, not guessed.
        QCOMPARE(attribute(perGroup, "bytes"),
            std::string("named data 'group_weights', not found in the program or an attached .ptd"));
        QCOMPARE(attribute(inner.nodes[1], "output"), std::string("value 1: qdint8 [1, 32], per token (dynamic)"));
    }

    void futureNodesAndDanglingIds()
    {
        XnnGraphSpec graph;
        const auto x = graph.addExternalInput(xnn::datatype::Fp32, { 4 });
        const auto y = graph.addExternalOutput(xnn::datatype::Fp32, { 4 });
        XnnNodeSpec future = XnnNodeSpec::unary(XnnNodeType::Abs, x, y);
        future.rawTag = 200;
        graph.addNode(future);
        graph.addNode(XnnNodeSpec::binary(XnnNodeType::Add, x, 77, y));
        graph.inputIds.push_back(55);
        const DelegateInfo info = describe(graph);
        QCOMPARE(info.format, std::string("xnnpack"));
        QVERIFY(anyWarning(info, "node type 200, which this build does not know"));
        QVERIFY(anyWarning(info, "reads value 77, which does not exist"));
        QVERIFY(anyWarning(info, "input id 55 names no value"));
        QCOMPARE(info.innerGraph->nodes[2].label, std::string("XNNUnknown(200)"));
        QCOMPARE(info.innerGraph->operatorCount(), std::size_t(2));
    }

    void lyingHeader_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("width");
        QTest::addColumn<qulonglong>("value");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("decoded");
        QTest::addRow("header length") << 8 << 2 << 0ull << QStringLiteral("XH00 header length 0 is below 30") << false;
        QTest::addRow("graph size") << 14 << 4 << 0xFFFFFFF0ull
                                    << QStringLiteral("places the graph outside the payload") << false;
        QTest::addRow("graph inside the header")
            << 10 << 4 << 8ull << QStringLiteral("places the graph outside the payload") << false;
        // Only the constant locations become unknown: the graph is still drawn (as for VH00).
        QTest::addRow("constant size") << 22 << 4 << 0xFFFFFFF0ull
                                       << QStringLiteral("places the constant bytes outside the payload") << true;
    }

    // XH00 fields (facts sheet §3.1 table) that lie: a warning naming the field's problem; the
    // same reader and the same decisions as for Vulkan's VH00 header (tst_vulkandelegate).
    void lyingHeader()
    {
        QFETCH(int, offset);
        QFETCH(int, width);
        QFETCH(qulonglong, value);
        QFETCH(QString, warning);
        QFETCH(bool, decoded);
        XnnGraphSpec graph;
        const auto x = graph.addExternalInput(xnn::datatype::Fp32, { 4 });
        const auto y = graph.addExternalOutput(xnn::datatype::Fp32, { 4 });
        graph.addNode(XnnNodeSpec::unary(XnnNodeType::Abs, x, y));
        auto payload = writeXnnpackPayload(graph);
        QVERIFY(payload);
        for (int i = 0; i < width; ++i)
            (*payload)[static_cast<std::size_t>(offset + i)] = static_cast<std::uint8_t>(value >> (8 * i));
        const DelegateInfo info = describeAt1000(*payload);
        QCOMPARE(info.format, std::string(decoded ? "xnnpack" : "opaque"));
        QVERIFY2(anyWarning(info, warning.toStdString()),
            info.warnings.empty() ? "no warning" : info.warnings.front().message.c_str());
        QVERIFY(fact(info, "header").starts_with("XH00"));
        // The warning's offset is the field's byte in the file (payload at file offset 1000).
        QCOMPARE(*info.warnings.front().offset, std::uint64_t(1000 + (offset == 8 ? 8 : offset == 22 ? 18 : 10)));
    }

    // A payload that announces XH00 but ends before the header's 30 bytes.
    void truncatedHeader()
    {
        std::vector<std::uint8_t> payload(20, 0);
        std::memcpy(payload.data() + 4, "XH00", 4);
        const DelegateInfo info = describeAt1000(payload);
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(anyWarning(info, "the XH00 header is truncated: 20 of 30 bytes"));
    }

private:
    static DelegateInfo describeAt1000(const std::vector<std::uint8_t>& payload)
    {
        static const Program empty = [] {
            Program p;
            p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
            return p;
        }();
        DelegateRef ref;
        ref.backendId = "XnnpackBackend";
        ref.payload = { 1000, payload.size() };
        return describePayload(empty, ref, payload, {}, "fixture");
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestXnnpackFixtures)
#include "tst_xnnpackfixtures.moc"
