// SPDX-License-Identifier: MIT
// XNNPACK payloads written by core/writer decode, through the real decoder, to the inner graph
// they describe. Fixtures follow facts sheet §3.1: XH00 header, XN01/XN00 FlatBuffer, constant
// data (entry 0 reserved), external ids = positions in the DelegateCall args.
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"

#include "core/delegates/delegate.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/util/text.h"
#include "core/writer/programwriter.h"
#include "core/writer/xnnpackwriter.h"

#include <QTest>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace etscope::core;
using namespace etscope::test;

namespace {

std::vector<std::uint8_t> pattern(std::size_t size, std::uint8_t start)
{
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(start + 3 * i);
    return bytes;
}

/// True when some attribute value of `node` contains every one of `needles` (the decoder's
/// wording is its own; the facts in it are what the writer controls).
bool mentions(const Node& node, std::initializer_list<const char*> needles)
{
    return std::any_of(node.attributes.begin(), node.attributes.end(), [&](const AttributeList::Entry a) {
        return std::all_of(needles.begin(), needles.end(),
            [&](const char* needle) { return a.value.find(needle) != std::string::npos; });
    });
}

/// The delegate of a one-delegate program, described by the real decoder.
struct Decoded {
    Program program;
    DelegateInfo info;
};

Result<Decoded> decodeOnly(const std::vector<std::uint8_t>& payload, std::vector<NamedBlobSpec> named = {})
{
    ProgramSpec spec;
    spec.namedData = std::move(named);
    MethodSpec& m = spec.addMethod("forward");
    m.addDelegate({ "XnnpackBackend", payload, {}, {} });
    auto bytes = writeProgram(spec);
    if (!bytes)
        return bytes.error();
    auto program = etscope::test::readBack(bytes.value());
    if (!program)
        return program.error();
    Decoded decoded { std::move(program).value(), {} };
    decoded.info = describeDelegate(decoded.program, decoded.program.methods[0].delegates[0], {}, "test");
    return decoded;
}

} // namespace

class TestXnnpackWriter : public QObject {
    Q_OBJECT
private slots:
    void decodesTheDescribedGraph()
    {
        using T = XnnNodeType;
        namespace dt = xnn::datatype;
        XnnGraphSpec g;
        const std::uint32_t in0 = g.addExternalInput(dt::Fp32, { 1, 4 });
        const std::uint32_t out = g.addExternalOutput(dt::Fp32, { 1, 4 }); // numbered after the inputs anyway
        const std::uint32_t in1 = g.addExternalInput(dt::QInt8, { 1, 4 });
        g.values[in1].quant = XnnQuantSpec { XnnQuantSpec::Kind::PerTensor, 0.5f, 3 };
        const std::vector<std::uint8_t> weightBytes = pattern(64, 1);
        const std::uint32_t w = g.addConstant(dt::Fp32, { 4, 4 }, weightBytes);
        const std::uint32_t b = g.addNamedConstant(dt::Fp32, { 4 }, "k-bias", 16);
        const std::uint32_t cw = g.addConstant(dt::Fp32, { 4, 1, 1, 4 }, pattern(16, 7));
        const auto internal = [&](std::vector<std::uint32_t> dims) { return g.addInternal(dt::Fp32, std::move(dims)); };
        const std::uint32_t c0 = internal({ 1, 4 }), a0 = internal({ 1, 4 }), s0 = internal({ 1, 4 });
        const std::uint32_t m0 = internal({ 1, 4 }), f0 = internal({ 1, 4 }), k0 = internal({ 1, 4 });
        const std::uint32_t r0 = internal({ 1, 1, 1, 4 }), cv = internal({ 1, 1, 1, 4 }), tp = internal({ 1, 4, 1, 1 });
        const std::uint32_t rs = internal({ 1, 4 });
        const std::uint32_t out2 = g.addExternalOutput(dt::Fp32, { 1, 8 });

        XnnNodeSpec reshape4 = XnnNodeSpec::unary(T::StaticReshape, k0, r0);
        reshape4.list = { 1, 1, 1, 4 };
        XnnNodeSpec reshape2 = XnnNodeSpec::unary(T::StaticReshape, tp, rs);
        reshape2.list = { 1, 4 };
        XnnWindowSpec window;
        window.groupInputChannels = 4;
        window.groupOutputChannels = 4;
        std::vector<XnnNodeSpec> nodes {
            XnnNodeSpec::unary(T::Convert, in1, c0),
            XnnNodeSpec::binary(T::Add, in0, c0, a0),
            XnnNodeSpec::binary(T::Subtract, a0, in0, s0),
            XnnNodeSpec::binary(T::Multiply, s0, c0, m0),
            XnnNodeSpec::fullyConnected(m0, w, b, f0),
            XnnNodeSpec::clamp(f0, k0, -1.0f, 1.0f),
            reshape4,
            XnnNodeSpec::conv2d(r0, cw, xnn::kInvalidId, cv, window),
            XnnNodeSpec::transpose({ 0, 3, 1, 2 }, cv, tp),
            reshape2,
            XnnNodeSpec::unary(T::Softmax, rs, out),
            XnnNodeSpec::binary(T::Concatenate2, in0, rs, out2),
        };
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            nodes[i].debugHandle = static_cast<std::uint32_t>(10 + i);
            g.addNode(nodes[i]);
        }

        ETSCOPE_WRITE(payload, writeXnnpackPayload(g));
        // Header facts of §3.1.
        QCOMPARE(readLe32(payload.data()), 0u);
        QCOMPARE(std::memcmp(payload.data() + 4, "XH00", 4), 0);
        QCOMPARE(readLe16(payload.data() + 8), std::uint16_t(30));
        QCOMPARE(readLe32(payload.data() + 10), 32u);
        const std::uint32_t fbSize = readLe32(payload.data() + 14);
        const std::uint32_t cdOffset = readLe32(payload.data() + 18);
        QCOMPARE(std::memcmp(payload.data() + 32 + 4, "XN01", 4), 0);
        QCOMPARE(cdOffset, (32 + fbSize + 15) / 16 * 16);
        QCOMPARE(readLe64(payload.data() + 22), std::uint64_t(80)); // 64 bytes at 0, 16 at 64
        QCOMPARE(std::uint64_t(payload.size()), cdOffset + std::uint64_t(80));
        QVERIFY(std::equal(weightBytes.begin(), weightBytes.end(), payload.begin() + cdOffset));

        // The program around it: DelegateCall(x0, x1) → (y, y2), the bias in named data.
        ProgramSpec spec;
        spec.namedData.push_back({ "k-bias", pattern(16, 200), 16 });
        MethodSpec& m = spec.addMethod("forward");
        TensorSpec t;
        t.sizes = { 1, 4 };
        const std::int32_t x0 = m.addTensor(t);
        t.scalarType = scalar_type::Char;
        const std::int32_t x1 = m.addTensor(t);
        t.scalarType = scalar_type::Float;
        t.allocation = AllocationSpec {};
        const std::int32_t y = m.addTensor(t);
        t.sizes = { 1, 8 };
        t.allocation = AllocationSpec { 1, 16 };
        const std::int32_t y2 = m.addTensor(t);
        m.inputs = { x0, x1 };
        m.outputs = { y, y2 };
        m.addInstruction(
            InstructionSpec::delegate(m.addDelegate({ "XnnpackBackend", payload, {}, {} }), { x0, x1, y, y2 }));
        ETSCOPE_WRITE(bytes, writeProgram(spec));
        ETSCOPE_READ_BACK(program, bytes);
        const Method& method = program.methods.at(0);
        const DelegateInfo info = describeDelegate(program, method.delegates.at(0), {}, "test");
        QCOMPARE(info.format, std::string("xnnpack"));
        QVERIFY2(info.warnings.empty(), info.warnings.empty() ? "" : info.warnings[0].message.c_str());
        QCOMPARE(info.inputCount, std::optional<int>(2));
        QCOMPARE(info.outputCount, std::optional<int>(2));
        QVERIFY(info.innerGraph);
        const Graph& inner = *info.innerGraph;

        std::vector<const Node*> operators;
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Operator)
                operators.push_back(&node);
        QCOMPARE(operators.size(), nodes.size());
        const auto adjacency = inner.adjacency();
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const Node& node = *operators[i];
            QCOMPARE(node.opType, xnnNodeTypeName(nodes[i].type));
            QCOMPARE(node.debugHandle, std::optional<DebugHandle>(DebugHandle(10 + i)));
            std::set<std::int32_t> expected;
            for (const std::uint32_t id : nodes[i].inputs)
                if (id != xnn::kInvalidId)
                    expected.insert(static_cast<std::int32_t>(id));
            std::set<std::int32_t> actual;
            for (const std::size_t e : adjacency.in[node.id.index()])
                actual.insert(inner.edges[e].value.value);
            QCOMPARE(actual, expected);
        }
        QCOMPARE(operators[0]->label, std::string("XNNConvert"));
        QCOMPARE(attribute(*operators[5], "output min"), std::string("-1"));
        QCOMPARE(attribute(*operators[5], "output max"), std::string("1"));
        QCOMPARE(attribute(*operators[6], "new shape"), std::string("[1, 1, 1, 4]"));
        QCOMPARE(attribute(*operators[8], "perm"), std::string("[0, 3, 1, 2]"));

        // External ids ↔ positions in the DelegateCall args.
        QCOMPARE(nodeWithValue(inner, NodeKind::Input, in0)->argPosition, 0);
        QCOMPARE(nodeWithValue(inner, NodeKind::Input, in1)->argPosition, 1);
        QCOMPARE(nodeWithValue(inner, NodeKind::Output, out)->argPosition, 2);
        QCOMPARE(nodeWithValue(inner, NodeKind::Output, out2)->argPosition, 3);
        const Node& quantized = *nodeWithValue(inner, NodeKind::Input, in1);
        QCOMPARE(attribute(quantized, "dtype"), std::string("qint8"));
        QCOMPARE(attribute(quantized, "quantization"), std::string("per tensor"));
        QCOMPARE(attribute(quantized, "scale"), std::string("0.5"));
        QCOMPARE(attribute(quantized, "zero point"), std::string("3"));

        // Constants: in the payload, or in the program's named data.
        QVERIFY(mentions(*nodeWithValue(inner, NodeKind::Constant, w), { "64", "offset 0" }));
        QVERIFY(mentions(*nodeWithValue(inner, NodeKind::Constant, cw), { "16", "offset 64" }));
        QVERIFY(mentions(*nodeWithValue(inner, NodeKind::Constant, b), { "k-bias" }));

        // The outer graph splits the call's args with the payload's counts: x0, x1 in; y, y2 out.
        const Graph outer = buildMethodGraph(method, std::span<const DelegateInfo>(&info, 1));
        const auto delegateNode = std::find_if(
            outer.nodes.begin(), outer.nodes.end(), [](const Node& n) { return n.kind == NodeKind::Delegate; });
        QVERIFY(delegateNode != outer.nodes.end());
        QCOMPARE(delegateNode->inputCount, 2);
        QVERIFY(!delegateNode->inferred);
        std::set<std::int32_t> into;
        std::set<std::int32_t> outOf;
        for (const Edge& edge : outer.edges) {
            if (edge.to == delegateNode->id)
                into.insert(edge.value.value);
            if (edge.from == delegateNode->id)
                outOf.insert(edge.value.value);
        }
        QCOMPARE(into, (std::set<std::int32_t> { x0, x1 }));
        QCOMPARE(outOf, (std::set<std::int32_t> { y, y2 }));
    }

    void everyNodeTypeKeepsItsTag()
    {
        for (int tag = static_cast<int>(XnnNodeType::Add); tag <= static_cast<int>(XnnNodeType::Cos); ++tag) {
            const auto type = static_cast<XnnNodeType>(tag);
            XnnGraphSpec g;
            const std::uint32_t in = g.addExternalInput(xnn::datatype::Fp32, { 1, 2, 2, 2 });
            const std::uint32_t out = g.addExternalOutput(xnn::datatype::Fp32, { 1, 2, 2, 2 });
            XnnNodeSpec node;
            node.type = type;
            node.inputs = { in, in, xnn::kInvalidId, in, in };
            node.outputs = { out, out };
            g.addNode(node);
            ETSCOPE_WRITE(payload, writeXnnpackPayload(g));
            auto decoded = decodeOnly(payload);
            QVERIFY2(decoded, decoded ? "" : decoded.error().message().c_str());
            const DelegateInfo& info = decoded->info;
            QVERIFY2(info.innerGraph, xnnNodeTypeName(type).c_str());
            QCOMPARE(info.innerGraph->operatorCount(), std::size_t(1));
            for (const Node& n : info.innerGraph->nodes)
                if (n.kind == NodeKind::Operator)
                    QCOMPARE(n.opType, xnnNodeTypeName(type));
            QVERIFY2(info.warnings.empty(), xnnNodeTypeName(type).c_str());
        }
        QCOMPARE(xnnNodeTypeName(XnnNodeType::FullyConnected), std::string("XNNFullyConnected"));
    }

    void bareFlatbuffer()
    {
        XnnGraphSpec g;
        const std::uint32_t in = g.addExternalInput(xnn::datatype::Fp32, { 2 });
        const std::uint32_t c = g.addConstant(xnn::datatype::Fp32, { 2 }, pattern(8, 5));
        const std::uint32_t out = g.addExternalOutput(xnn::datatype::Fp32, { 2 });
        g.addNode(XnnNodeSpec::binary(XnnNodeType::Add, in, c, out));
        XnnWriteOptions options;
        options.header = false;
        options.identifier = "XN00";
        ETSCOPE_WRITE(payload, writeXnnpackPayload(g, options));
        QCOMPARE(std::memcmp(payload.data() + 4, "XN00", 4), 0);
        auto decoded = decodeOnly(payload);
        QVERIFY(decoded);
        const DelegateInfo& info = decoded->info;
        QCOMPARE(info.format, std::string("xnnpack"));
        const auto fact = std::find_if(
            info.facts.begin(), info.facts.end(), [](const Attribute& a) { return a.name == "graph identifier"; });
        QVERIFY(fact != info.facts.end());
        QCOMPARE(fact->value, std::string("XN00 (bare FlatBuffer, no XH00 header)"));
        QVERIFY(mentions(*nodeWithValue(*info.innerGraph, NodeKind::Constant, c), { "8", "inline buffer" }));

        g.values[c].constantBytes.reset();
        g.values[c].namedKey = "key";
        auto refused = writeXnnpackPayload(g, options);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, Error::Code::Usage);
    }

    void unknownNodeTypeStillDecodes()
    {
        XnnGraphSpec g;
        const std::uint32_t in = g.addExternalInput(xnn::datatype::Fp32, { 2 });
        const std::uint32_t out = g.addExternalOutput(xnn::datatype::Fp32, { 2 });
        XnnNodeSpec future = XnnNodeSpec::unary(XnnNodeType::Abs, in, out);
        future.rawTag = 200;
        g.addNode(future);
        ETSCOPE_WRITE(payload, writeXnnpackPayload(g));
        auto decoded = decodeOnly(payload);
        QVERIFY(decoded);
        QCOMPARE(decoded->info.format, std::string("xnnpack"));
        QCOMPARE(decoded->info.innerGraph->operatorCount(), std::size_t(1));
        QVERIFY(std::any_of(decoded->info.innerGraph->nodes.begin(), decoded->info.innerGraph->nodes.end(),
            [](const Node& n) { return n.label == "XNNUnknown(200)"; }));
        QVERIFY(std::any_of(decoded->info.warnings.begin(), decoded->info.warnings.end(),
            [](const Warning& w) { return w.message.find("node type 200") != std::string::npos; }));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestXnnpackWriter)
#include "tst_xnnpackwriter.moc"
