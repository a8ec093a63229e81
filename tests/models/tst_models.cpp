// SPDX-License-Identifier: MIT
// Every item model under QAbstractItemModelTester, plus the operator table's sorting rules
// (Total stays last in both orders) and filtering, on real samples.
#include "core/document/document.h"
#include "core/graph/search.h"
#include "core/stats/operatortable.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"
#include "ui/common/elide.h"
#include "ui/heatmap/heatmapmodel.h"
#include "ui/operators/operatortablemodel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/search/searchmodel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QFontMetricsF>
#include <QSet>
#include <QStringList>
#include <QTest>

using namespace etscope::core;
using namespace etscope::test;
using namespace etscope::ui;

#include <limits>

class TestModels : public QObject {
    Q_OBJECT
private:
    std::optional<Document> m_document;

    const Graph& graph() const { return *m_document->methods[0].graph; }

private slots:
    void namesElideWhereTheyDifferLeast()
    {
        // The walk-through's pair: the ends that tell them apart stay, the namespace gives way.
        const QString quantize = QStringLiteral("quantized_decomposed::quantize_per_tensor.out");
        const QString dequantize = QStringLiteral("quantized_decomposed::dequantize_per_tensor.out");
        QCOMPARE(elideName(quantize, 40), QStringLiteral("quantized_decomp…quantize_per_tensor.out"));
        QCOMPARE(elideName(dequantize, 40), QStringLiteral("quantized_deco…dequantize_per_tensor.out"));
        QCOMPARE(elideName(dequantize, 26), QStringLiteral("…dequantize_per_tensor.out"));
        QCOMPARE(elideName(quantize, 100), quantize);
        QCOMPARE(elideName(QStringLiteral("a_very_long_name_without_any_namespace_at_all"), 21),
            QStringLiteral("a_very_lon…ace_at_all"));
        for (const int n : { 40, 30, 26, 20, 12, 5, 2, 1 }) {
            QVERIFY(elideName(quantize, n).size() <= n);
            QVERIFY2(elideName(quantize, n) != elideName(dequantize, n) || n < 5, qPrintable(QString::number(n)));
        }
        // To a width: the longest text that fits, never wider, and still different.
        const QFontMetricsF metrics { QFont() };
        for (const qreal width : { 400.0, 200.0, 150.0, 100.0, 60.0 }) {
            const QString a = elideNameToWidth(quantize, metrics, width);
            const QString b = elideNameToWidth(dequantize, metrics, width);
            QVERIFY(metrics.horizontalAdvance(a) <= width);
            QVERIFY(metrics.horizontalAdvance(b) <= width);
            QVERIFY2(a != b, qPrintable(a));
        }
        QCOMPARE(elideNameToWidth(quantize, metrics, 1e4), quantize);
    }

    void namesShownTogetherStayDistinct()
    {
        // Keys of style_candy_640_coreml.pte's delegate payload (its debug_info.json, read with
        // strings): cut in the middle to 28 characters, six of them read the same
        // "debug symb…o_fp16:const"-like text; kept apart by what differs, none does.
        const QStringList keys { QStringLiteral("debug symbol _inversed_aten_div_tensor_1_cast_fp16:mul"),
            QStringLiteral("debug symbol _inversed_aten_div_tensor_1_y_0_to_fp16:const"),
            QStringLiteral("debug symbol _inversed_aten_div_tensor_2_cast_fp16:mul"),
            QStringLiteral("debug symbol _inversed_aten_div_tensor_2_y_0_to_fp16:const"),
            QStringLiteral("debug symbol _inversed_aten_div_tensor_cast_fp16:mul"),
            QStringLiteral("debug symbol _inversed_aten_div_tensor_y_0_to_fp16:const"),
            QStringLiteral("debug symbol arg12_1_to_fp16:const"), QStringLiteral("debug symbol arg13_1_to_fp16:const"),
            QStringLiteral("quantized_decomposed::quantize_per_tensor.out"),
            QStringLiteral("quantized_decomposed::dequantize_per_tensor.out") };
        for (const int n : { 40, 32, 28, 24 }) {
            QStringList middle;
            for (const QString& key : keys)
                middle << (key.size() <= n ? key : key.left((n - 1) / 2) + QStringLiteral("…") + key.right(n / 2));
            middle.removeDuplicates();
            QVERIFY2(middle.size() < keys.size(), "middle elision tells them apart anyway?");
            QStringList shown = elideDistinct(keys, n);
            for (const QString& text : shown)
                QVERIFY2(text.size() <= n, qPrintable(text));
            const QString all = shown.join(QLatin1Char('\n'));
            shown.removeDuplicates();
            QVERIFY2(shown.size() == keys.size(), qPrintable(QStringLiteral("%1 chars:\n%2").arg(n).arg(all)));
        }
        // The differing part ("de", widened to its word) stays whole when it fits; the end reads
        // on from it, the shared namespace gives way whole; with less room the text reads on from
        // the part and the overload gives way too.
        QCOMPARE(elideDistinct(keys, 40)[9], QStringLiteral("…dequantize_per_tensor.out"));
        QCOMPARE(elideDistinct(keys, 22)[9], QStringLiteral("…dequantize_per_tenso…"));
        QCOMPARE(elideDistinct({ QStringLiteral("a") }, 5), QStringList { QStringLiteral("a") });
        QVERIFY(elideDistinct({}, 5).isEmpty());
    }

    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(document);
        m_document = std::move(document).value();
    }

    void operatorTable()
    {
        OperatorTableModel model;
        QAbstractItemModelTester sourceTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        OperatorTableProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        model.setTable(computeOperatorTable(graph()));
        QCOMPARE(model.rowCount(), 8); // 7 op types + Total
        // op_type, the two counts, then MACs, bytes and why on the CPU (filled by the node facts).
        QCOMPARE(model.columnCount(), 6);
        QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("occurrences_in_delegated_graphs"));

        const auto lastRow = [&] { return proxy.index(proxy.rowCount() - 1, 0); };
        for (const int column : { 0, 1, 2 }) {
            for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                proxy.sort(column, order);
                QVERIFY2(lastRow().data(OperatorTableModel::IsTotalRole).toBool(), "Total must stay last");
                // The other rows are ordered by the column's raw value.
                for (int row = 0; row + 2 < proxy.rowCount(); ++row) {
                    const QVariant a = proxy.index(row, column).data(OperatorTableModel::SortRole);
                    const QVariant b = proxy.index(row + 1, column).data(OperatorTableModel::SortRole);
                    const bool ordered = column == 0
                        ? (order == Qt::AscendingOrder ? a.toString() <= b.toString() : a.toString() >= b.toString())
                        : (order == Qt::AscendingOrder ? a.toInt() <= b.toInt() : a.toInt() >= b.toInt());
                    QVERIFY2(ordered, qPrintable(QStringLiteral("column %1 row %2").arg(column).arg(row)));
                }
            }
        }
        // With the node facts the cost columns sort by their numbers too, an op type without a
        // rule below every count, Total last.
        model.setFacts(computeNodeFacts(*m_document, {}, nullptr), m_document->program->methods[0].name);
        for (const int column : { int(OperatorTableModel::Macs), int(OperatorTableModel::Bytes) })
            for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                proxy.sort(column, order);
                QVERIFY(lastRow().data(OperatorTableModel::IsTotalRole).toBool());
                for (int row = 0; row + 2 < proxy.rowCount(); ++row) {
                    const qlonglong a = proxy.index(row, column).data(OperatorTableModel::SortRole).toLongLong();
                    const qlonglong b = proxy.index(row + 1, column).data(OperatorTableModel::SortRole).toLongLong();
                    QVERIFY2(order == Qt::AscendingOrder ? a <= b : a >= b,
                        qPrintable(QStringLiteral("column %1 row %2").arg(column).arg(row)));
                }
            }
        proxy.sort(1, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("XNNFullyConnected"));

        proxy.setFilterFixedString(QStringLiteral("xnn"));
        QCOMPARE(proxy.rowCount(), 4); // three XNN types + Total
        proxy.setFilterFixedString(QStringLiteral("no such op"));
        QCOMPARE(proxy.rowCount(), 1);
        QVERIFY(proxy.index(0, 0).data(OperatorTableModel::IsTotalRole).toBool());
    }

    void properties()
    {
        PropertiesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.showDocument(*m_document, 0);
        QVERIFY(model.rowCount() >= 2);
        // A delegate node shows its payload facts.
        const auto delegate = std::find_if(
            graph().nodes.begin(), graph().nodes.end(), [](const Node& n) { return n.kind == NodeKind::Delegate; });
        model.showNode(*m_document, 0, { delegate->id, NodeId::none() });
        QStringList groups;
        for (int row = 0; row < model.rowCount(); ++row)
            groups << model.index(row, 0).data().toString();
        QVERIFY2(groups.contains(QStringLiteral("Delegate payload")), qPrintable(groups.join(QLatin1Char(','))));
        // An inner XNNPACK node shows its parameters and its debug handle.
        const Node& fc = *std::find_if(delegate->subgraph->nodes.begin(), delegate->subgraph->nodes.end(),
            [](const Node& n) { return n.opType == "XNNMultiply"; });
        model.showNode(*m_document, 0, { delegate->id, fc.id });
        QStringList names;
        for (int row = 0; row < model.rowCount(); ++row)
            for (int child = 0; child < model.rowCount(model.index(row, 0)); ++child)
                names << model.index(child, 0, model.index(row, 0)).data().toString();
        QVERIFY(names.contains(QStringLiteral("debug handle")));
        QVERIFY(names.contains(QStringLiteral("inside")));
        model.clearAll();
        QCOMPARE(model.rowCount(), 0);
    }

    void propertiesShowTheETRecordSource()
    {
        // With an ETRecord, a kernel node finds its edge nodes through debug_handle_map and an
        // XNNPACK inner node through its own debug handle (facts sheet §2). Handles and names
        // here are made up; the graph is the real stress_mlp.pte.
        const auto kernel = std::find_if(graph().nodes.begin(), graph().nodes.end(),
            [](const Node& n) { return n.kind == NodeKind::Operator && n.instruction.valid(); });
        const auto delegate = std::find_if(
            graph().nodes.begin(), graph().nodes.end(), [](const Node& n) { return n.kind == NodeKind::Delegate; });
        const Node& inner = *std::find_if(delegate->subgraph->nodes.begin(), delegate->subgraph->nodes.end(),
            [](const Node& n) { return n.kind == NodeKind::Operator && n.debugHandle; });
        EdgeProgram edge;
        EdgeNode select;
        select.name = "aten_select_copy_int";
        select.target = "executorch.exir.dialects.edge.ops.aten.select_copy.int";
        select.debugHandle = DebugHandle(777);
        select.stackTrace = "File \"model.py\", line 7, in forward";
        EdgeNode mul = select;
        mul.name = "aten_mul_tensor";
        mul.target = "executorch.exir.dialects.edge.ops.aten.mul.Tensor";
        mul.debugHandle = *inner.debugHandle;
        edge.nodes = { select, mul };
        ETRecord record;
        record.edgePrograms.push_back({ "edge_dialect_exported_program/forward", "edge_dialect_exported_program",
            "forward", std::make_shared<EdgeProgram>(edge) });
        record.debugHandleMap["forward"][kernel->instruction.value] = { handles({ 777 }), false };

        PropertiesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto sourceRows = [&model] {
            QStringList rows;
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.index(row, 0).data().toString() != QStringLiteral("Source (ETRecord)"))
                    continue;
                const QModelIndex group = model.index(row, 0);
                for (int child = 0; child < model.rowCount(group); ++child)
                    rows << model.index(child, 0, group).data().toString() + QLatin1Char('=')
                            + model.index(child, 1, group).data().toString();
            }
            return rows;
        };
        model.showNode(*m_document, 0, { kernel->id, NodeId::none() }, &record);
        QVERIFY2(sourceRows().contains(QStringLiteral("aten_select_copy_int=aten.select_copy.int")),
            qPrintable(sourceRows().join(QLatin1Char(';'))));
        QVERIFY(sourceRows().contains(QStringLiteral("debug handles=777")));
        model.showNode(*m_document, 0, { delegate->id, inner.id }, &record);
        QVERIFY2(sourceRows().contains(QStringLiteral("aten_mul_tensor=aten.mul.Tensor")),
            qPrintable(sourceRows().join(QLatin1Char(';'))));
        // Without a record there is no such group.
        model.showNode(*m_document, 0, { kernel->id, NodeId::none() });
        QVERIFY(sourceRows().isEmpty());
    }

    void heatPositions()
    {
        QCOMPARE(heatPosition(5, 0, 10, false, true), 0.5);
        QCOMPARE(heatPosition(5, 0, 10, false, false), 0.5);
        QCOMPARE(heatPosition(2, 0, 10, false, false), 0.8); // higher is better: low values are worse
        QCOMPARE(heatPosition(-3, 0, 10, false, true), 0.0); // clamped
        QCOMPARE(heatPosition(10, 1, 100, true, true), 0.5); // log10: 1 → 0, 10 → 0.5, 100 → 1
        QCOMPARE(heatPosition(0, 1, 100, true, true), 0.0);
        // A narrow range on a log scale keeps its bounds: cosine 1 is the best of 0.99999…1,
        // whatever the scale (it once mapped every cosine to "worst").
        QCOMPARE(heatPosition(1.0, 0.99999, 1.0, true, false), 0.0);
        QCOMPARE(heatPosition(0.99999, 0.99999, 1.0, true, false), 1.0);
        QCOMPARE(heatPosition(5, 5, 5, true, true), 0.0); // degenerate: a decade above the floor
        QCOMPARE(heatPosition(std::numeric_limits<double>::infinity(), 0, 1, false, true), 1.0);
    }

    void heatmap()
    {
        // Rows: every top-level operator node, valued by its instruction id (known by hand).
        HeatTable table;
        table.title = QStringLiteral("test").toStdString();
        table.columns = { { "instruction", true, "" }, { "snr (dB)", false, "dB" } };
        for (const Node& node : graph().nodes)
            if (node.kind == NodeKind::Operator)
                table.rows.push_back({ { node.id, NodeId::none() }, node.label,
                    { static_cast<double>(node.instruction.value),
                        node.instruction.value % 2 ? std::optional<double>()
                                                   : std::optional<double>(40.0 - node.instruction.value) } });
        const std::size_t rows = table.rows.size();
        HeatmapModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(table);
        QCOMPARE(static_cast<std::size_t>(model.rowCount()), rows);
        QCOMPARE(model.columnCount(), 3);
        const auto range = model.table().range(0);
        QVERIFY(range);
        // The largest instruction id is the worst (position 1), the smallest the best.
        for (int row = 0; row < model.rowCount(); ++row) {
            const double value = model.index(row, 1).data(HeatmapModel::ValueRole).toDouble();
            const double position = model.index(row, 1).data(HeatmapModel::PositionRole).toDouble();
            QCOMPARE(position, (value - range->first) / (range->second - range->first));
        }
        // SNR: higher is better, missing cells have no position.
        bool sawMissing = false;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QVariant snr = model.index(row, 2).data(HeatmapModel::PositionRole);
            sawMissing = sawMissing || !snr.isValid();
            if (snr.isValid()
                && model.index(row, 2).data(HeatmapModel::ValueRole).toDouble() == model.table().range(1)->second)
                QCOMPARE(snr.toDouble(), 0.0);
        }
        QVERIFY(sawMissing);
        // A threshold flags the worse cells of its own column, and only those.
        HeatScale scale;
        scale.thresholds[0] = 5.0;
        model.setScale(scale);
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.index(row, 1).data(HeatmapModel::FlaggedRole).toBool(),
                model.index(row, 1).data(HeatmapModel::ValueRole).toDouble() > 5.0);
            QVERIFY(!model.index(row, 2).data(HeatmapModel::FlaggedRole).toBool());
        }
        // Exports keep numbers typed.
        const Table report = model.table().toTable();
        QCOMPARE(report.columns.size(), std::size_t(5));
        QCOMPARE(report.rows.size(), rows);
    }

    void search()
    {
        SearchModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResults(&graph(), searchGraph(graph(), "xnnfullyconnected"));
        QCOMPARE(model.rowCount(), 10);
        QVERIFY(model.index(0).data().toString().contains(QStringLiteral("in XnnpackBackend #1")));
        model.setResults(&graph(), searchGraph(graph(), "32, 256"));
        QVERIFY(model.rowCount() > 10); // shapes match too
        model.setResults(&graph(), {});
        QCOMPARE(model.rowCount(), 0);
    }

    // Hits inside a delegate are told apart by the inner node's own number and what it writes
    // (the walk-through: 158 rows "Conv 1×1 (in EthosUBackend #0)" that all read the same).
    void searchInsideDelegate()
    {
        auto document = openDocument(etscope::test::samplePath("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte"));
        QVERIFY(document);
        const Graph& top = *document->methods[0].graph;
        SearchModel model;
        model.setResults(&top, searchGraph(top, "conv"));
        QVERIFY(model.rowCount() >= 158); // the 158 NPU convolutions (tst_ethosudelegate's count)
        QSet<QString> rows;
        for (int row = 0; row < model.rowCount(); ++row)
            rows.insert(model.index(row).data().toString());
        QCOMPARE(rows.size(), model.rowCount());
        // Command 776 @5064 is the first CONV (0x00000002): 3×3, stride 2, OFM 112×112×32 int8
        // (tst_ethosudelegate::mobilenetU55ByHand reads its registers off the words).
        bool found = false;
        for (const QString& row : rows)
            found = found
                || row.startsWith(
                    QStringLiteral("Conv 3×3 /2 · cmd 776 · int8 [1, 112, 112, 32] (in EthosUBackend #0)"));
        QVERIFY2(found, qPrintable(QStringList(rows.values()).join(QLatin1Char('\n')).left(2000)));
    }
};

ETSCOPE_TEST_MAIN(TestModels)
#include "tst_models.moc"
