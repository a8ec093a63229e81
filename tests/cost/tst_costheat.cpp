// SPDX-License-Identifier: MIT
// core/cost/costheat: a CostReport made by hand turned into the heat table the graph is coloured
// by. Every expected number is the hand value written into the report here, or the sum written
// beside it.
#include "tests/common/testsupport.h"

#include "core/cost/costheat.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::core::cost;

namespace {

Node node(NodeKind kind, std::string label, int delegate = -1)
{
    Node n;
    n.kind = kind;
    n.label = std::move(label);
    n.delegate = DelegateIndex(delegate);
    return n;
}

NodeCost cost(int delegate, std::uint32_t index, std::string label, CostStatus status, std::uint64_t macs)
{
    NodeCost c;
    c.method = "forward";
    c.delegate = delegate;
    c.node = index;
    c.label = std::move(label);
    c.status = status;
    c.macs = macs;
    return c;
}

/// forward: input(0), quantize(1, CPU, counted), delegate #0 (2), dequantize(3, CPU, no rule),
/// output(4). Delegate #0 holds conv (inner 1) and a DMA kick (inner 2).
struct Fixture {
    Graph graph;
    CostReport report;

    Fixture()
    {
        graph.addNode(node(NodeKind::Input, "x"));
        graph.addNode(node(NodeKind::Operator, "quantize"));
        graph.addNode(node(NodeKind::Delegate, "EthosUBackend #0", 0));
        graph.addNode(node(NodeKind::Operator, "dequantize"));
        graph.addNode(node(NodeKind::Output, "y"));
        // Report order is not execution order: the CPU rows first, then the delegate's.
        NodeCost q = cost(-1, 1, "quantize", CostStatus::Counted, 0);
        q.ops = 150528; // 1·3·224·224 elements, one op each: not MACs
        q.bytesRead = 602112; // 150528 fp32 · 4 B
        q.bytesWritten = 150528; // int8 · 1 B
        q.vendor.push_back({ "measured: CPU cycles", "41234" });
        NodeCost dq = cost(-1, 3, "dequantize", CostStatus::NoRule, 0);
        dq.bytesRead = 1000; // known bytes of a node with no rule are still not shown
        dq.vendor.push_back({ "measured: CPU cycles", "777" });
        NodeCost conv = cost(0, 1, "Conv 3×3", CostStatus::Counted, 10838016);
        conv.bytesRead = 4000;
        conv.bytesWritten = 2000;
        conv.estimate = NpuEstimate { 42336, 6000, 42336, "compute" };
        conv.vendor.push_back({ "Vela estimate: op cycles", "50000 (row shared by 2 kicks; this is part 1)" });
        NodeCost dma = cost(0, 2, "DMA", CostStatus::Counted, 0);
        dma.bytesRead = 4096;
        dma.bytesWritten = 4096;
        dma.estimate = NpuEstimate { std::nullopt, 512, 512, "memory only" };
        NodeCost other = cost(0, 1, "other method", CostStatus::Counted, 99);
        other.method = "init";
        report.nodes = { q, dq, conv, dma, other };
    }
};

} // namespace

class TestCostHeat : public QObject {
    Q_OBJECT
private slots:
    void methodTable()
    {
        const Fixture f;
        const HeatTable table = costHeatTable(f.report, f.graph, "forward");
        QCOMPARE(QString::fromStdString(table.title.substr(0, table.title.find(" — "))), QStringLiteral("Cost"));
        // MACs, bytes, the NPU estimate (the conv has one), Vela's figure, the measured one.
        QCOMPARE(table.columns.size(), std::size_t(5));
        QCOMPARE(table.columns[0].name, std::string("MACs"));
        QCOMPARE(table.columns[1].name, std::string("bytes moved"));
        QCOMPARE(table.columns[2].name, std::string("cycles (Ethos-U estimate)"));
        QCOMPARE(table.columns[3].name, std::string("Vela cycles (estimate)"));
        QCOMPARE(table.columns[4].name, std::string("measured cycles"));
        for (const auto& column : table.columns) {
            QVERIFY(column.higherIsWorse);
            QVERIFY(!column.identical);
        }
        // Execution order: quantize (node 1), the delegate's conv and DMA (node 2), dequantize
        // (node 3); the init method's row is not here.
        QCOMPARE(table.rows.size(), std::size_t(4));
        QCOMPARE(table.rows[0].label, std::string("quantize"));
        QVERIFY((table.rows[0].origin == NodeOrigin { NodeId(1), NodeId::none() }));
        QCOMPARE(table.rows[1].label, std::string("Conv 3×3"));
        QVERIFY((table.rows[1].origin == NodeOrigin { NodeId(2), NodeId(1) }));
        QVERIFY((table.rows[2].origin == NodeOrigin { NodeId(2), NodeId(2) }));
        QVERIFY((table.rows[3].origin == NodeOrigin { NodeId(3), NodeId::none() }));

        // quantize: 0 MACs (counted: elementwise), 602112 + 150528 = 752640 bytes, no NPU
        // estimate, no Vela row, 41234 measured cycles.
        const auto& q = table.rows[0].values;
        QCOMPARE(*q[0], 0.0);
        QCOMPARE(*q[1], 752640.0);
        QVERIFY(!q[2]);
        QVERIFY(!q[3]);
        QCOMPARE(*q[4], 41234.0);
        // conv: 10838016 MACs, 4000 + 2000 = 6000 bytes, 42336 estimated cycles, Vela's 50000.
        const auto& c = table.rows[1].values;
        QCOMPARE(*c[0], 10838016.0);
        QCOMPARE(*c[1], 6000.0);
        QCOMPARE(*c[2], 42336.0);
        QCOMPARE(*c[3], 50000.0);
        QVERIFY(!c[4]);
        // DMA: 0 MACs, 8192 bytes, 512 cycles.
        QCOMPARE(*table.rows[2].values[1], 8192.0);
        QCOMPARE(*table.rows[2].values[2], 512.0);
        // dequantize has no rule: no MACs and no bytes (never 0), but its measured cycles (read,
        // not computed) are shown.
        const auto& dq = table.rows[3].values;
        QVERIFY(!dq[0]);
        QVERIFY(!dq[1]);
        QVERIFY(!dq[2]);
        QCOMPARE(*dq[4], 777.0);
        // The range of MACs runs from the quantize's 0 to the conv's 10838016.
        QCOMPARE(table.range(0)->first, 0.0);
        QCOMPARE(table.range(0)->second, 10838016.0);
    }

    void oneDelegate()
    {
        const Fixture f;
        const HeatTable table = costHeatTable(f.report, f.graph, "forward", 0);
        // Only the delegate's two inner nodes; no measured column (only CPU nodes had one).
        QCOMPARE(table.rows.size(), std::size_t(2));
        QCOMPARE(table.columns.size(), std::size_t(4));
        QVERIFY((table.rows[0].origin == NodeOrigin { NodeId(2), NodeId(1) }));
        QVERIFY((table.rows[1].origin == NodeOrigin { NodeId(2), NodeId(2) }));
    }

    void withoutEstimates()
    {
        // A CPU-only method: no estimate, no vendor figure — two columns.
        Fixture f;
        f.report.nodes.resize(1);
        f.report.nodes[0].vendor.clear();
        const HeatTable table = costHeatTable(f.report, f.graph, "forward");
        QCOMPARE(table.columns.size(), std::size_t(2));
        QCOMPARE(table.rows.size(), std::size_t(1));
        // No method of that name: an empty table, never an error.
        QVERIFY(costHeatTable(f.report, f.graph, "missing").rows.empty());
    }

    void leadingNumbers()
    {
        QCOMPARE(*leadingNumber("1234 (row shared by 2 kicks)"), 1234.0);
        QCOMPARE(*leadingNumber("7"), 7.0);
        QVERIFY(!leadingNumber("refused: another stream"));
        QVERIFY(!leadingNumber(""));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCostHeat)
#include "tst_costheat.moc"
