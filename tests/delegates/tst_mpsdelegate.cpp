// SPDX-License-Identifier: MIT
// The MPS decoder on payloads from the project's own writer (core/writer/vulkan/mpspayloadwriter),
// as no public MPS-delegated .pte exists. Layout per facts sheet §3.3: "MP00" at bytes 4–7,
// constant-segment offset and size at 8 and 16, the MPSGraph FlatBuffer from byte 24 with its own
// "MP00" at 28; node tags 7 MPSAdd, 9 MPSMul, 53 MPSMatMul; MPSDataType 2 = f32, 1 = f16.
#include "core/delegates/delegate.h"
#include "core/writer/payloads/mpspayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

DelegateInfo describe(const std::vector<std::uint8_t>& payload)
{
    return describeAlone(payload, "MPSBackend");
}

MpsGraphSpec smallGraph()
{
    MpsGraphSpec graph;
    graph.version = "1";
    graph.nodeTags = { 53, 7, 9, 7 };
    graph.values = { { 2, { 1, 4 } }, { 2, { 4, 4 }, 64, 0 }, { 2, { 1, 4 } }, { 1, { 1, 4 } }, { 2, { 1, 4 } } };
    graph.inputIds = { 0 };
    graph.outputIds = { 4 };
    graph.constantIds = { 1 };
    graph.constantSegment.assign(64, 0x11);
    return graph;
}

} // namespace

class TestMpsDelegate : public QObject {
    Q_OBJECT

private slots:
    void describesTheGraph()
    {
        const DelegateInfo info = describe(writeMpsPayload(smallGraph()));
        QCOMPARE(info.format, std::string("mps"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "graph version"), std::string("1"));
        QCOMPARE(fact(info, "graph type"), std::string("mps_graph"));
        QCOMPARE(fact(info, "nodes"), std::string("4 (MPSAdd 2, MPSMatMul 1, MPSMul 1)"));
        QCOMPARE(fact(info, "values"), std::string("5 (f16 1, f32 4)"));
        QCOMPARE(fact(info, "constants"), std::string("1 (64 B)"));
        QVERIFY(fact(info, "constant segment").starts_with("64 bytes at payload offset "));
        QCOMPARE(*info.inputCount, 1);
        QCOMPARE(*info.outputCount, 1);
        QCOMPARE(info.summary, std::string("MPS graph: 4 nodes, 1 input, 1 output"));
    }

    void damaged()
    {
        auto payload = writeMpsPayload(smallGraph());
        auto lying = payload;
        lying[16] = 0xFF; // segment size far beyond the payload
        lying[20] = 0x7F;
        const DelegateInfo sizeLie = describe(lying);
        QVERIFY(anyWarning(sizeLie, "constant segment outside the payload"));
        QCOMPARE(sizeLie.format, std::string("mps")); // the graph itself is still readable
        QVERIFY(anyWarning(sizeLie, "MPS value 1 places its constant outside the constant segment"));

        auto broken = payload;
        broken[24] = 0xFC; // the root offset now points outside the graph
        broken[25] = 0xFF;
        broken[26] = 0xFF;
        const DelegateInfo verifier = describe(broken);
        QCOMPARE(verifier.format, std::string("opaque"));
        QVERIFY(anyWarning(verifier, "the FlatBuffers verifier rejected the MPS graph"));

        for (std::size_t cut = 0; cut < payload.size(); ++cut) {
            const DelegateInfo info = describe({ payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(cut) });
            if (info.format == "opaque")
                QVERIFY(!info.warnings.empty());
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestMpsDelegate)
#include "tst_mpsdelegate.moc"
