// SPDX-License-Identifier: MIT
// The operator table's op_type column on arduino_KeywordSpotting_model.pte (Arm's cortex_m
// kernels): its eight op types, read from the program's operator list with
// `strings -n 6 arduino_KeywordSpotting_model.pte | grep ::` (cortex_m::dequantize_per_tensor,
// quantize_per_tensor, quantized_linear, quantized_avg_pool2d, quantized_conv2d,
// quantized_depthwise_conv2d, pad and dim_order_ops::_clone_dim_order, each with the "out"
// overload), share the "cortex_m::" namespace, "quantize" and ".out": cut in the middle several
// read alike. The count columns stay as narrow as their numbers; the key column takes the rest,
// and what it must still shorten keeps the words that tell the rows apart.
#include "core/document/document.h"
#include "core/stats/operatortable.h"
#include "tests/common/testsupport.h"
#include "ui/common/elidedelegate.h"
#include "ui/operators/operatorpanel.h"
#include "ui/operators/operatortablemodel.h"

#include <QHeaderView>
#include <QTableView>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

class TestOperatorPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void armNamesStayApart()
    {
        auto document = openDocument(etscope::test::samplePath("executorch/arduino_KeywordSpotting_model.pte"));
        QVERIFY(document);
        OperatorPanel panel;
        panel.setTables(computeOperatorTable(*document->methods[0].graph), std::nullopt);
        auto* view = panel.findChild<QTableView*>(QStringLiteral("operatorTable"));
        QVERIFY(view);
        auto* names = qobject_cast<DistinctNameDelegate*>(view->itemDelegateForColumn(OperatorTableModel::OpType));
        QVERIFY(names);
        QHeaderView* header = view->horizontalHeader();
        // The side pane at 1280 px and at 1024 px (docshots), and narrower still.
        for (const int width : { 400, 330, 260 }) {
            panel.resize(width, 500);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTest::qWait(10);
            // The counts (at most two digits here) and their short titles take less than the names.
            QVERIFY2(
                header->sectionSize(OperatorTableModel::OpType) > header->sectionSize(OperatorTableModel::Delegated)
                        + header->sectionSize(OperatorTableModel::NonDelegated),
                qPrintable(QStringLiteral("%1 px: op_type %2 px, counts %3 + %4 px")
                               .arg(width)
                               .arg(header->sectionSize(OperatorTableModel::OpType))
                               .arg(header->sectionSize(OperatorTableModel::Delegated))
                               .arg(header->sectionSize(OperatorTableModel::NonDelegated))));
            QStringList full;
            QStringList shown;
            const int room = header->sectionSize(OperatorTableModel::OpType) - 8;
            for (int row = 0; row < view->model()->rowCount(); ++row) {
                const QModelIndex index = view->model()->index(row, OperatorTableModel::OpType);
                if (index.data(OperatorTableModel::IsTotalRole).toBool())
                    continue;
                full << index.data().toString();
                shown << names->shownText(index, view->font(), room);
            }
            QCOMPARE(full.size(), 8);
            const QString all = shown.join(QLatin1Char('\n'));
            // Every row keeps the word that tells it from the others.
            const QStringList words { QStringLiteral("dequantize"), QStringLiteral("linear"), QStringLiteral("avg"),
                QStringLiteral("pad"), QStringLiteral("depthwise"), QStringLiteral("clone"),
                QStringLiteral("quantize_") };
            for (const QString& word : words)
                QVERIFY2(
                    all.contains(word), qPrintable(QStringLiteral("%1 px: no %2 in\n%3").arg(width).arg(word, all)));
            QStringList distinct = shown;
            distinct.removeDuplicates();
            QVERIFY2(distinct.size() == shown.size(), qPrintable(all));
            // No scrap of a namespace before the part kept ("c…quantize_per_tensor.out").
            for (const QString& text : shown)
                QVERIFY2(
                    !QStringView(text).left(3).contains(QStringLiteral("…")) || text.startsWith(QStringLiteral("…")),
                    qPrintable(text));
        }
    }
};

ETSCOPE_TEST_MAIN(TestOperatorPanel)
#include "tst_operatorpanel.moc"
