// SPDX-License-Identifier: MIT
// The native_graph decoder (ExecuTorch's NativeBackend) on payloads from the project's own writer
// (core/writer/payloads/nativegraphwriter), as no public NativeBackend .pte is stored. Layout per
// pytorch/executorch backends/native/serialization/native_graph.fbs (commit cff6f4dd32e6): the
// payload is the Program FlatBuffer with identifier "NPTG" at bytes 4-7; OpKind 0 CALL_FUNCTION,
// 1 PLACEHOLDER, 2 OUTPUT; InputKind 1 PARAMETER; ScalarType 6 FLOAT.
#include "core/delegates/delegate.h"
#include "core/util/text.h"
#include "core/writer/payloads/nativegraphwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& backend = "NativeBackend")
{
    return describeAlone(payload, backend);
}

} // namespace

class TestNativeGraph : public QObject {
    Q_OBJECT

private slots:
    void describesTheProgram()
    {
        const auto payload = writeNativeGraphPayload(smallNativeGraph());
        QCOMPARE(std::string(payload.begin() + 4, payload.begin() + 8), std::string("NPTG"));
        const DelegateInfo info = describe(payload);
        QCOMPARE(info.format, std::string("native_graph"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "identifier"), std::string("NPTG (no header)"));
        QCOMPARE(fact(info, "graph version"), std::string("0"));
        QCOMPARE(fact(info, "methods"), std::string("1 (forward)"));
        QCOMPARE(fact(info, "fx nodes"), std::string("6"));
        QCOMPARE(fact(info, "constants"), std::string("1 (PARAMETER 1)"));
        QCOMPARE(info.summary, std::string("native graph NPTG: 3 operators, 1 input, 1 output"));
        QCOMPARE(info.inputCount, std::optional<int>(1));
        QCOMPARE(info.outputCount, std::optional<int>(1));
    }

    void innerGraphWiring()
    {
        // Written: x, w → linear → relu; cat([relu, linear], dim 1) → output "cat". Six nodes
        // (input, constant, three calls, output), six edges.
        const DelegateInfo info = describe(writeNativeGraphPayload(smallNativeGraph()));
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(g.nodes.size(), std::size_t(6));
        QCOMPARE(g.edges.size(), std::size_t(6));
        QCOMPARE(g.operatorCount(), std::size_t(3));
        const Node* x = nodeLabelled(g, "input 0");
        const Node* w = nodeLabelled(g, "weight");
        const Node* linear = nodeLabelled(g, "aten.linear.default");
        const Node* relu = nodeLabelled(g, "aten.relu.default");
        const Node* cat = nodeLabelled(g, "aten.cat.default");
        const Node* out = nodeLabelled(g, "output 0");
        QVERIFY(x && w && linear && relu && cat && out);
        QCOMPARE(x->argPosition, 0);
        QCOMPARE(out->argPosition, 1);
        QCOMPARE(w->kind, NodeKind::Constant);
        QCOMPARE(attribute(w, "kind"), std::string("PARAMETER"));
        QCOMPARE(attribute(w, "shape"), formatShape({ 4, 4 }));
        QVERIFY(hasEdge(g, x, linear));
        QVERIFY(hasEdge(g, w, linear));
        QVERIFY(hasEdge(g, linear, relu));
        QVERIFY(hasEdge(g, relu, cat));
        QVERIFY(hasEdge(g, linear, cat));
        QVERIFY(hasEdge(g, cat, out));
        for (const Edge& edge : g.edges)
            if (edge.from == linear->id && edge.to == relu->id) {
                QCOMPARE(edge.meta.dtype, std::string("FLOAT"));
                QCOMPARE(edge.meta.shape, (std::vector<std::int64_t> { 1, 4 }));
            }
        QCOMPARE(attribute(cat, "tensors"), std::string("[relu, linear]"));
        QCOMPARE(attribute(cat, "dim"), std::string("1"));
    }

    void recognisedByIdentifier()
    {
        const DelegateInfo info = describe(writeNativeGraphPayload(smallNativeGraph()), "SomeRenamedBackend");
        QCOMPARE(info.format, std::string("native_graph"));
        QCOMPARE(fact(info, "recognised by"), std::string("the NativeBackend payload magic"));
    }

    void unknownKindAndDanglingName()
    {
        NativeGraphSpec spec = smallNativeGraph();
        spec.nodes[3].kind = 9; // relu: an fx op kind past OUTPUT (2)
        spec.nodes[4].listArg = { "relu", "nowhere" };
        const DelegateInfo info = describe(writeNativeGraphPayload(spec));
        QCOMPARE(info.format, std::string("native_graph"));
        const Node* unknown = nodeLabelled(*info.innerGraph, "unknown fx op kind 9");
        QVERIFY(unknown);
        QCOMPARE(unknown->kind, NodeKind::Unknown);
        QVERIFY(anyWarning(info, "node 3 has op kind 9"));
        QVERIFY(anyWarning(info, "reads 'nowhere', which no earlier node defines"));
        QCOMPARE(info.innerGraph->operatorCount(), std::size_t(2));
    }

    void damagedIsRejectedAndEveryCutIsSafe()
    {
        const auto payload = writeNativeGraphPayload(smallNativeGraph());
        auto cut = payload;
        cut.resize(payload.size() / 2);
        const DelegateInfo info = describe(cut);
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(anyWarning(info, "verifier rejected the native graph"));
        QCOMPARE(info.warnings.back().offset, std::optional<std::uint64_t>(0));
        for (std::size_t size = 0; size < payload.size(); ++size) {
            const std::vector<std::uint8_t> prefix(
                payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(size));
            QVERIFY(!describe(prefix).summary.empty());
        }
    }
    void everyByteFlipIsSafe()
    {
        // Each byte in turn set to 0xFF, 0x00, 0x01 and 0x80: described (decoded or not), every edge
        // inside the graph, never crashing or reading outside (the verifier runs first).
        const auto payload = writeNativeGraphPayload(smallNativeGraph());
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

ETSCOPE_TEST_GUILESS_MAIN(TestNativeGraph)
#include "tst_nativegraph.moc"
