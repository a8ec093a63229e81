// SPDX-License-Identifier: MIT
// The operator occurrence table against hand counts. The KernelCall counts were made by
// decoding each file with flatc and the project's schema and counting instructions per
// operator by hand; the delegated counts are the XNNPACK node types listed in SOURCES.md.
#include "core/document/document.h"
#include "core/report/reports.h"
#include "core/stats/operatortable.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <memory>

using namespace etscope::core;

Q_DECLARE_METATYPE(std::string)

struct ExpectedRow {
    std::string opType;
    int delegated;
    int nonDelegated;
};
Q_DECLARE_METATYPE(std::vector<ExpectedRow>)

class TestOperatorTable : public QObject {
    Q_OBJECT
private slots:
    void handCounts_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<std::vector<ExpectedRow>>("rows");
        QTest::addColumn<int>("subgraphs");
        QTest::addColumn<int>("opaque");

        QTest::addRow("stress_mlp") << std::string("djl-executorch-engine/stress_mlp.pte")
                                    << std::vector<ExpectedRow> {
                                           { "XNNAdd", 3, 0 },
                                           { "XNNFullyConnected", 10, 0 },
                                           { "XNNMultiply", 2, 0 },
                                           { "aten::clamp.out", 0, 2 },
                                           { "aten::index_select.out", 0, 2 },
                                           { "aten::select_copy.int_out", 0, 4 },
                                           { "dim_order_ops::_to_dim_order_copy.out", 0, 4 },
                                       }
                                    << 2 << 0;
        QTest::addRow("dnf_xnnpack_training") << std::string("dnf-executorch/dnf_xnnpack_training.pte")
                                              << std::vector<ExpectedRow> {
                                                     { "XNNAdd", 1, 0 },
                                                     { "XNNMultiply", 3, 0 },
                                                     { "XNNNegate", 1, 0 },
                                                     { "XNNStaticTranspose", 4, 0 },
                                                     { "XNNSubtract", 1, 0 },
                                                     { "aten::addmm.out", 0, 1 },
                                                     { "aten::alias_copy.out", 0, 1 },
                                                     { "aten::expand_copy.out", 0, 1 },
                                                     { "aten::full_like.out", 0, 1 },
                                                     { "aten::mm.out", 0, 1 },
                                                     { "aten::sum.IntList_out", 0, 2 },
                                                     { "aten::view_copy.out", 0, 1 },
                                                 }
                                              << 4 << 0;
        // The Ethos-U command stream (issue 23), counted in its hex dump: six DMA_START words
        // (0x00000010), ELEMENTWISE (0x00010006 add, 0x00000006 mul) three times each, one STOP
        // (0x00000000): 6 operations; the DMA transfers are data movement, counted apart (issue
        // 38), and the STOP ends the stream and is no operator.
        QTest::addRow("ethos_u_minimal (decoded command stream)")
            << std::string("cmsis-executorch/ethos_u_minimal_example_u55.pte")
            << std::vector<ExpectedRow> {
                   { "Add", 3, 0 },
                   { "Mul", 3, 0 },
                   { "quantized_decomposed::dequantize_per_tensor.out", 0, 1 },
                   { "quantized_decomposed::quantize_per_tensor.out", 0, 2 },
               }
            << 1 << 0;
    }

    void handCounts()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(std::string, path);
        QFETCH(std::vector<ExpectedRow>, rows);
        QFETCH(int, subgraphs);
        QFETCH(int, opaque);
        auto document = openDocument(etscope::test::samplePath(path));
        QVERIFY(document);
        const Method& method = *document->program->defaultMethod();
        const OperatorTable table = computeOperatorTable(*document->analysis(method)->graph);
        QCOMPARE(table.rows.size(), rows.size());
        int delegated = 0;
        int nonDelegated = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(table.rows[i].opType, rows[i].opType);
            QCOMPARE(table.rows[i].delegated, rows[i].delegated);
            QCOMPARE(table.rows[i].nonDelegated, rows[i].nonDelegated);
            delegated += rows[i].delegated;
            nonDelegated += rows[i].nonDelegated;
        }
        QCOMPARE(table.delegatedSubgraphs, subgraphs);
        QCOMPARE(table.opaqueSubgraphs, opaque);
        QCOMPARE(table.delegatedNodes, delegated);
        QCOMPARE(table.nonDelegatedNodes, nonDelegated);
        const auto summary = table.summaryLines();
        QCOMPARE(summary.at(0), "Total delegated subgraphs: " + std::to_string(subgraphs));
        QCOMPARE(summary.at(1), "Number of delegated nodes: " + std::to_string(delegated));
        QCOMPARE(summary.at(2), "Number of non-delegated nodes: " + std::to_string(nonDelegated));

        // The report keeps rows in op_type order and ends with the Total row.
        const Table report = operatorTableReport(table);
        QCOMPARE(report.rows.size(), rows.size() + 1);
        QCOMPARE(cellText(report.rows.back()[0]), std::string("Total"));
        QCOMPARE(cellText(report.rows.back()[1]), std::to_string(delegated));
        QCOMPARE(cellText(report.rows.back()[2]), std::to_string(nonDelegated));
    }

    void delegatedShare()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        // executorch#12495's question, by hand from the counts above. stress_mlp: 15 of 27 nodes,
        // XNNAdd/XNNFullyConnected/XNNMultiply of 7 op types, all in two XNNPACK subgraphs.
        auto mlp = openDocument(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(mlp);
        const OperatorTable table = computeOperatorTable(*mlp->analysis(*mlp->program->defaultMethod())->graph);
        QCOMPARE(table.shareLines(),
            (std::vector<std::string> { "Delegated share: 55.6% of nodes (15 of 27), 42.9% of unique op types (3 of 7)",
                "  XnnpackBackend: 2 subgraph(s), 15 node(s) = 55.6% of nodes, 3 op type(s) = 42.9% of op types" }));
        const Table report = operatorTableReport(table);
        QCOMPARE(report.notes.size(), std::size_t(5));
        QCOMPARE(report.notes[3], table.shareLines()[0]);

        // dnf_xnnpack_training: 10 of 18 nodes, 5 of 12 op types. Ethos-U: a decoded command stream.
        auto dnf = openDocument(etscope::test::samplePath("dnf-executorch/dnf_xnnpack_training.pte"));
        QVERIFY(dnf);
        const OperatorTable dnfTable = computeOperatorTable(*dnf->analysis(*dnf->program->defaultMethod())->graph);
        QCOMPARE(dnfTable.shareLines().front(),
            std::string("Delegated share: 55.6% of nodes (10 of 18), 41.7% of unique op types (5 of 12)"));
        auto ethos = openDocument(etscope::test::samplePath("cmsis-executorch/ethos_u_minimal_example_u55.pte"));
        QVERIFY(ethos);
        const auto ethosLines
            = computeOperatorTable(*ethos->analysis(*ethos->program->defaultMethod())->graph).shareLines();
        QCOMPARE(ethosLines.size(), std::size_t(2));
        // Its 6 NPU operations (the counts above; the 6 DMA transfers apart, the STOP none) beside
        // 3 kernel calls; 2 NPU op types (Add, Mul) of 4.
        QCOMPARE(ethosLines,
            (std::vector<std::string> {
                "Delegated share: 66.7% of nodes (6 of 9), 50.0% of unique op types (2 of 4); 6 "
                "DMA transfer(s) inside delegates: data movement, not counted as operators",
                "  EthosUBackend: 1 subgraph(s), 6 node(s) = 66.7% of nodes, 2 op type(s) = 50.0% of op types, 6 DMA "
                "transfer(s)" }));
    }

    // Issue 36 and 38, on a graph made here: a placeholder type ("(op type not stored)", QNN's
    // nodes whose type the binary does not keep) counts its nodes but is no op type; DMA
    // transfers are data movement, apart from the operators. By hand: top level 2 kernel calls
    // of 1 type; inside, 3 Conv + 4 untyped + 2 DMA: delegated nodes 7 of 9, op types Conv and
    // aten::add.out, 1 of 2 delegated.
    void placeholderTypesAndDataMovement()
    {
        auto inner = std::make_shared<Graph>();
        const auto add = [&inner](const char* type, int count) {
            for (int i = 0; i < count; ++i) {
                Node node;
                node.kind = NodeKind::Operator;
                node.opType = type;
                node.label = type;
                inner->addNode(node);
            }
        };
        add("Conv", 3);
        add("(op type not stored)", 4);
        add("DMA", 2);
        Graph top;
        for (int i = 0; i < 2; ++i) {
            Node kernel;
            kernel.kind = NodeKind::Operator;
            kernel.opType = "aten::add.out";
            top.addNode(kernel);
        }
        Node delegate;
        delegate.kind = NodeKind::Delegate;
        delegate.label = "SomeBackend";
        delegate.subgraph = inner;
        top.addNode(delegate);
        const OperatorTable table = computeOperatorTable(top);
        QCOMPARE(table.delegatedNodes, 7);
        QCOMPARE(table.nonDelegatedNodes, 2);
        QCOMPARE(table.dataMovements, 2);
        QCOMPARE(table.rows.size(), std::size_t(3)); // no DMA row
        QCOMPARE(table.shareLines(),
            (std::vector<std::string> {
                "Delegated share: 77.8% of nodes (7 of 9), 50.0% of unique op types (1 of 2); 4 node(s) of a type the "
                "payload does not store, not counted as an op type; 2 DMA transfer(s) inside delegates: data movement, "
                "not counted as operators",
                "  SomeBackend: 1 subgraph(s), 7 node(s) = 77.8% of nodes, 1 op type(s) = 50.0% of op types, 2 DMA "
                "transfer(s)" }));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestOperatorTable)
#include "tst_operatortable.moc"
