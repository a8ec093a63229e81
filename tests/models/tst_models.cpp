// SPDX-License-Identifier: MIT
// Every item model under QAbstractItemModelTester, plus the operator table's sorting rules
// (Total stays last in both orders) and filtering, on real samples.
#include "document/document.h"
#include "graph/search.h"
#include "models/operatortablemodel.h"
#include "models/propertiesmodel.h"
#include "models/searchmodel.h"
#include "stats/operatortable.h"
#include "testsupport.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

class TestModels : public QObject {
    Q_OBJECT
private:
    std::optional<Document> m_document;

    const Graph& graph() const { return *m_document->methods[0].graph; }

private slots:
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
        QCOMPARE(model.columnCount(), 3);
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
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
