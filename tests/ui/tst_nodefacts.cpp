// SPDX-License-Identifier: MIT
// The node facts in the app (issue 34 item 4, issue 35 item 3): what each node costs and why
// operators stayed on the CPU, computed on a worker after the first paint and shown in the
// operator table, Properties, Search and as a "?" on the graph; logs attached (a runner log, a
// Vela log, a partition report) compute them again. On a writer-made program and on real
// samples; the expected values are worked out by hand in the comments. With ETSCOPE_GRAB_DIR
// set, the views are saved there as PNG for a person to look at.
#include "core/vendorlogs/vendorjoin.h"
#include "core/writer/partitionlogwriter.h"
#include "core/writer/programwriter.h"
#include "core/writer/vendorlogwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "tests/common/velafixtures.h"
#include "tests/common/writertensors.h"
#include "tests/ui/attachwait.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/operators/operatorpanel.h"
#include "ui/operators/operatortablemodel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/search/searchmodel.h"
#include "ui/search/searchpanel.h"
#include "ui/window/documentview.h"

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

const QString kVendor = QStringLiteral("Vela and measured figures");

using etscope::test::floatTensor;

/// forward: #0 aten::addmm.out (bias [10], mat1 [2, 20], mat2 [20, 10] → [2, 10]) and
/// #1 custom::mystery.out, an operator ETScope has no cost rule for.
std::shared_ptr<const Document> writerProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    const std::int32_t mat1 = m.addTensor(floatTensor({ 2, 20 }));
    const std::int32_t mat2 = m.addTensor(floatTensor({ 20, 10 }, true));
    const std::int32_t bias = m.addTensor(floatTensor({ 10 }, true));
    const std::int32_t one = m.addValue(ValueSpec::integer(1));
    const std::int32_t out = m.addTensor(floatTensor({ 2, 10 }));
    const std::int32_t mysteryOut = m.addTensor(floatTensor({ 2, 10 }));
    m.inputs = { mat1 };
    m.outputs = { mysteryOut };
    m.addInstruction(
        InstructionSpec::kernel(m.addOperator("aten::addmm", "out"), { bias, mat1, mat2, one, one, out, out }));
    m.addInstruction(InstructionSpec::kernel(m.addOperator("custom::mystery", "out"), { out, mysteryOut, mysteryOut }));
    m.computeArenaSizes();
    auto bytes = writeProgram(spec);
    return bytes ? etscope::test::sharedDocumentFromBytes(*bytes, "facts.pte") : nullptr;
}

struct Fixture {
    DocumentController controller;
    std::unique_ptr<DocumentView> view;

    explicit Fixture(std::shared_ptr<const Document> document, QSize size = { 1400, 900 })
    {
        controller.adopt(std::move(document));
        view = std::make_unique<DocumentView>(&controller, GraphContext {});
        view->resize(size);
        view->show();
    }
    bool waitForFacts()
    {
        QSignalSpy spy(view.get(), &DocumentView::presentationShown);
        if (!view->presentation() && !spy.wait(20000))
            return false;
        return QTest::qWaitFor([&] { return controller.nodeFacts() && !controller.computingNodeFacts(); }, 60000);
    }
    /// Attaches and waits for the facts computed with it.
    QString attachLog(AttachKind kind, const QString& path)
    {
        const QString error = etscope::test::attachAndWait(controller, kind, path);
        if (!error.isEmpty())
            return error;
        if (!QTest::qWaitFor([&] { return !controller.computingNodeFacts(); }, 60000))
            return QStringLiteral("facts not computed again");
        return {};
    }
    QTableView* operators() const { return view->operatorPanel()->view(); }
    /// The operator table's cell of `opType`, in `column`, with `role`.
    QVariant cell(const QString& opType, int column, int role = Qt::DisplayRole) const
    {
        QAbstractItemModel* model = operators()->model();
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex index = model->index(r, OperatorTableModel::OpType);
            const bool total = index.data(OperatorTableModel::IsTotalRole).toBool();
            if ((opType.isEmpty() && total) || (!total && index.data(OperatorTableModel::OpTypeRole) == opType))
                return model->index(r, column).data(role);
        }
        return {};
    }
    NodeOrigin topNode(const std::string& opType) const
    {
        for (const Node& node : view->presentation()->methodGraph().nodes)
            if (node.opType == opType)
                return { node.id, NodeId::none() };
        return {};
    }
    NodeOrigin delegateNode() const
    {
        for (const Node& node : view->presentation()->methodGraph().nodes)
            if (node.kind == NodeKind::Delegate)
                return { node.id, NodeId::none() };
        return {};
    }
    /// The rows of Properties' group `title`, as "key<TAB>value".
    QStringList group(const QString& title) const
    {
        const PropertiesModel& model = *view->propertiesModel();
        QStringList rows;
        for (int g = 0; g < model.rowCount(); ++g) {
            const QModelIndex index = model.index(g, 0);
            if (index.data().toString() != title)
                continue;
            for (int r = 0; r < model.rowCount(index); ++r)
                rows << model.index(r, 0, index).data().toString() + QLatin1Char('\t')
                        + model.index(r, 1, index).data().toString();
        }
        return rows;
    }
    QString value(const QString& title, const QString& key) const
    {
        for (const QString& row : group(title))
            if (row.section(QLatin1Char('\t'), 0, 0) == key)
                return row.section(QLatin1Char('\t'), 1);
        return {};
    }
    void grab(const QString& name) const
    {
        const QString dir = qEnvironmentVariable("ETSCOPE_GRAB_DIR");
        if (!dir.isEmpty())
            view->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }
    /// Gives the side pane `width` pixels (a user dragging the splitter), for the pictures.
    void widenSide(int width) const
    {
        for (auto* split : view->findChildren<QSplitter*>())
            if (split->orientation() == Qt::Horizontal && split->count() == 2) {
                split->setSizes({ view->width() - width, width });
                return;
            }
    }
    void showOperators() const
    {
        if (auto* tabs = view->operatorPanel()->parentWidget())
            if (auto* widget = qobject_cast<QTabWidget*>(tabs->parentWidget()))
                widget->setCurrentWidget(view->operatorPanel());
    }
};

bool writeText(const QString& path, const std::string& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly)
        && file.write(text.data(), static_cast<qint64>(text.size())) == qint64(text.size());
}

} // namespace

class TestNodeFacts : public QObject {
    Q_OBJECT

private slots:
    // The writer's program: addmm counts M·N·K = 2·10·20 = 400 MACs; it reads bias 10·4 = 40,
    // mat1 2·20·4 = 160 and mat2 20·10·4 = 800 bytes (1000) and writes 2·10·4 = 80 (1080 in all);
    // parameters are mat2 and bias, 840 bytes. custom::mystery has no rule: "no rule", never 0.
    void writerProgramCost()
    {
        Fixture f(writerProgram());
        QVERIFY(f.waitForFacts());
        const auto facts = f.controller.nodeFacts();
        QVERIFY(facts->cost);
        QVERIFY(f.view->operatorPanel()->findChild<QTableView*>());
        QCOMPARE(f.cell(QStringLiteral("aten::addmm.out"), OperatorTableModel::Macs, OperatorTableModel::SortRole)
                     .toLongLong(),
            400);
        QCOMPARE(f.cell(QStringLiteral("aten::addmm.out"), OperatorTableModel::Bytes, OperatorTableModel::SortRole)
                     .toLongLong(),
            1080);
        QCOMPARE(f.cell(QStringLiteral("custom::mystery.out"), OperatorTableModel::Macs).toString(),
            QStringLiteral("no rule"));
        QCOMPARE(f.cell(QStringLiteral("custom::mystery.out"), OperatorTableModel::Bytes).toString(),
            QStringLiteral("no rule"));
        // Sorted by MACs, ascending: the uncounted row first, then addmm, Total last.
        f.operators()->sortByColumn(OperatorTableModel::Macs, Qt::AscendingOrder);
        QAbstractItemModel* model = f.operators()->model();
        QCOMPARE(
            model->index(0, 0).data(OperatorTableModel::OpTypeRole).toString(), QStringLiteral("custom::mystery.out"));
        QCOMPARE(model->index(1, 0).data(OperatorTableModel::OpTypeRole).toString(), QStringLiteral("aten::addmm.out"));
        QVERIFY(model->index(2, 0).data(OperatorTableModel::IsTotalRole).toBool());
        QCOMPARE(f.cell({}, OperatorTableModel::Macs, OperatorTableModel::SortRole).toLongLong(), 400);
        // The export carries the columns, "no rule" as a word.
        const Table table = f.view->operatorPanel()->visibleTable();
        QCOMPARE(table.columns.size(), std::size_t(6));
        QCOMPARE(table.columns[3], std::string("macs"));
        QCOMPARE(cellText(table.rows[0][3]), std::string("no rule"));
        QCOMPARE(cellText(table.rows[1][3]), std::string("400"));

        // Properties of addmm: its Cost group.
        f.view->selectNode(f.topNode("aten::addmm.out"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("kind")), QStringLiteral("matmul"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("MACs")), QStringLiteral("400"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("bytes read")), QStringLiteral("1000 B"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("bytes written")), QStringLiteral("80 B"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("parameter bytes")), QStringLiteral("840 B"));
        // Intensity: (400 MACs + ops) / 1080 bytes; with no other arithmetic 400 / 1080 = 0.37.
        QVERIFY2(f.value(QStringLiteral("Cost"), QStringLiteral("intensity")).startsWith(QStringLiteral("0.37")),
            qPrintable(f.value(QStringLiteral("Cost"), QStringLiteral("intensity"))));
        QVERIFY(!f.value(QStringLiteral("Cost"), QStringLiteral("formula")).isEmpty());
        f.view->selectNode(f.topNode("custom::mystery.out"));
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("MACs")), QStringLiteral("no rule"));
        // No delegate: no backend to check against, no answer, no badge.
        QVERIFY(f.group(QStringLiteral("Why on the CPU")).isEmpty());
        QVERIFY(f.view->scene()->notes().empty());
    }

    // tinycnn_u55.pte: one EthosUBackend delegate holding the four convolutions (tst_cost:
    // 48·48·16·27 + 24·24·32·144 + 12·12·64·288 + 64·4 = 995328 + 2654208 + 2654208 + 256 =
    // 6304000 MACs). Its FVP log (fvp_e84_final_compare.log) measured "ethosu_pmu_cycle_cntr :
    // 247553" and "ethos-u : cycle_cnt : 18301 cycles": attached, both land on the delegate.
    void tinycnnMeasured()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        Fixture f(etscope::test::sharedSampleDocument("tinycnn/tinycnn_u55.pte"));
        QVERIFY(f.waitForFacts());
        QCOMPARE(f.cell({}, OperatorTableModel::Macs, OperatorTableModel::SortRole).toLongLong(), 6304000);
        const QString log = QString::fromStdString(etscope::test::samplePath("tinycnn/fvp_e84_final_compare.log"));
        QVERIFY(logKinds(log) == std::vector<AttachKind> { AttachKind::RunLog });
        QCOMPARE(debugArtifactKind(log, false), std::optional<AttachKind>(AttachKind::RunLog));
        QCOMPARE(f.attachLog(AttachKind::RunLog, log), QString());
        QCOMPARE(f.controller.nodeFacts()->logs.runs.size(), std::size_t(1));
        f.view->selectNode(f.delegateNode());
        QCOMPARE(f.value(QStringLiteral("Cost"), QStringLiteral("MACs")), QLocale().toString(6304000ULL));
        QCOMPARE(
            f.value(kVendor, QStringLiteral("measured: NPU cycles (ethosu_pmu_cycle_cntr)")), QStringLiteral("247553"));
        QCOMPARE(
            f.value(kVendor, QStringLiteral("measured: CPU cycles of the delegate call")), QStringLiteral("18301"));
        const QString side = f.value(kVendor, QStringLiteral("cycles side by side"));
        QVERIFY2(side.startsWith(QStringLiteral("ETScope estimate: "))
                && side.endsWith(QStringLiteral("; measured: 247553 cycles")),
            qPrintable(side));
        QVERIFY(
            f.value(QStringLiteral("Cost"), QStringLiteral("ETScope estimate")).contains(QStringLiteral("NPU cycles")));
        f.widenSide(620);
        QTest::qWait(50);
        f.grab(QStringLiteral("tinycnn-delegate-measured"));
    }

    // A Vela per-layer log written for tinycnn's own stream (one row per kernel kick, by order
    // and kind; 500 cycles for a convolution, 200 for a pool, 300 otherwise): each kick shows
    // ETScope's estimate and Vela's figure side by side. The RPS model's log (another network,
    // an Ethos-U85 listing of 1862 words) is refused for tinycnn, which the banner says.
    void tinycnnVelaBeside()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto document = etscope::test::sharedSampleDocument("tinycnn/tinycnn_u55.pte");
        QVERIFY(document);
        auto stream = vendor::ethosUStream(*document->program, document->program->methods[0].delegates[0]);
        QVERIFY2(stream, stream ? "" : stream.error().message().c_str());
        VelaLogSpec spec;
        for (const ethosu::Operation& op : stream->decoded.operations)
            if (op.kind == ethosu::OpKind::Conv)
                spec.rows.push_back(etscope::test::velaRow("Conv2D", "conv", 500));
            else if (op.kind == ethosu::OpKind::Pool)
                spec.rows.push_back(etscope::test::velaRow("AvgPool", "pool", 200));
            else if (op.kind != ethosu::OpKind::Dma)
                spec.rows.push_back(etscope::test::velaRow("Add", "other", 300));
        spec.npuCycles = 1000;
        QVERIFY(!spec.rows.empty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tinycnn_vela.log"));
        QVERIFY(writeText(path, writeVelaLog(spec)));
        QVERIFY(logKinds(path) == std::vector<AttachKind> { AttachKind::VelaLog });

        Fixture f(document);
        QVERIFY(f.waitForFacts());
        QCOMPARE(f.attachLog(AttachKind::VelaLog, path), QString());
        const auto facts = f.controller.nodeFacts();
        QVERIFY2(facts->joins.join(QLatin1Char('\n')).contains(QStringLiteral(": joined: ")),
            qPrintable(facts->joins.join(QLatin1Char('\n'))));
        // The first convolution kick: ETScope's estimate, then Vela's 500 cycles beside it.
        const Graph& inner = *f.view->presentation()->methodGraph().node(f.delegateNode().top).subgraph;
        NodeId kick;
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Operator && node.opType == "Conv") {
                kick = node.id;
                break;
            }
        QVERIFY(kick.valid());
        f.view->selectNode({ f.delegateNode().top, kick });
        QVERIFY(QTest::qWaitFor([&] { return !f.group(QStringLiteral("Cost")).isEmpty(); }, 20000));
        QVERIFY2(f.value(QStringLiteral("Cost"), QStringLiteral("ETScope estimate")).contains(QStringLiteral("cycles")),
            qPrintable(f.group(QStringLiteral("Cost")).join(QLatin1Char('\n'))));
        QVERIFY2(f.value(kVendor, QStringLiteral("Vela estimate: op cycles")).startsWith(QStringLiteral("500")),
            qPrintable(f.group(kVendor).join(QLatin1Char('\n'))));
        QVERIFY(f.value(kVendor, QStringLiteral("cycles side by side"))
                    .contains(QStringLiteral("Vela estimate: op cycles: 500")));
        f.widenSide(620);
        QTest::qWait(50);
        f.grab(QStringLiteral("tinycnn-kick-vela"));

        const QString rps
            = QString::fromStdString(etscope::test::samplePath("modelnova/rps_model_conversion_20260219_041725.log"));
        QCOMPARE(f.attachLog(AttachKind::VelaLog, rps), QString());
        const auto after = f.controller.nodeFacts();
        QVERIFY(std::any_of(after->warnings.begin(), after->warnings.end(), [](const Warning& w) {
            return QString::fromStdString(w.message).contains(QStringLiteral("rps_model_conversion"))
                && QString::fromStdString(w.message).contains(QStringLiteral("refused"));
        }));
    }

    // executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte (tst_why): #3 aten::avg_pool3d.out
    // with kernel [5, 1, 1] fails the Arm backend's 2-D pooling constraint; #0, #4 quantize and
    // #2, #6 dequantize sit at the two EthosUBackend calls' edges: a boundary, by design.
    void whyOnMobilenet()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        Fixture f(etscope::test::sharedSampleDocument("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"));
        QVERIFY(f.waitForFacts());
        const QString pool = f.cell(QStringLiteral("aten::avg_pool3d.out"), OperatorTableModel::Why).toString();
        QVERIFY2(pool.startsWith(QStringLiteral("1 node: constraint fails — kernel 5\u00d71\u00d71 (3-D): ")),
            qPrintable(pool));
        for (const char* type :
            { "quantized_decomposed::quantize_per_tensor.out", "quantized_decomposed::dequantize_per_tensor.out" })
            QCOMPARE(f.cell(QLatin1String(type), OperatorTableModel::Why).toString(),
                QStringLiteral("2 nodes: boundary conversion, by design"));
        QCOMPARE(f.cell({}, OperatorTableModel::Why).toString(), QStringLiteral("5 nodes on the CPU"));
        // The per-node answers in the cell's tooltip.
        QVERIFY(f.cell(QStringLiteral("aten::avg_pool3d.out"), OperatorTableModel::Why, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("#3 (EthosUBackend): constraint fails")));
        f.showOperators();
        f.widenSide(760);
        QTest::qWait(50);
        f.grab(QStringLiteral("mobilenet-operators-why"));

        // One "?" on the graph, on the pool; none on the boundary's quantize/dequantize.
        const NodeOrigin avgPool = f.topNode("aten::avg_pool3d.out");
        const auto& notes = f.view->scene()->notes();
        QCOMPARE(notes.size(), std::size_t(1));
        QCOMPARE(notes.begin()->first, GraphScene::keyOf(avgPool));
        NodeItem* item = f.view->scene()->itemFor(avgPool);
        QVERIFY(item && item->hasNote());
        // Hovering the node says what the "?" stands for.
        QVERIFY2(item->toolTip().contains(
                     QStringLiteral("? Why on the CPU: constraint fails \u2014 kernel 5\u00d71\u00d71")),
            qPrintable(item->toolTip()));
        // A click on it selects the node, and Properties shows why, in view.
        f.view->selectNode(f.delegateNode()); // something else first; centres nothing near the pool
        f.view->selectNode(avgPool); // centres it
        f.view->scene()->clearSelection();
        QSignalSpy noted(f.view->scene(), &GraphScene::noteClicked);
        GraphView* graph = f.view->graphView();
        const QPoint at = graph->mapFromScene(item->mapToScene(item->noteRect().center()));
        QVERIFY(graph->viewport()->rect().contains(at));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(noted.count(), 1);
        QVERIFY(f.view->scene()->selectedNode() == std::optional<NodeOrigin>(avgPool));
        auto* properties = f.view->findChild<QTreeView*>(QStringLiteral("propertiesView"));
        QVERIFY(properties);
        QCOMPARE(properties->currentIndex(), f.view->propertiesModel()->whyGroup());
        QCOMPARE(f.value(QStringLiteral("Why on the CPU"), QStringLiteral("kind")), QStringLiteral("constraint fails"));
        QVERIFY(
            f.value(QStringLiteral("Why on the CPU"), QStringLiteral("reason")).contains(QStringLiteral("2-D only")));
        QVERIFY(f.value(QStringLiteral("Why on the CPU"), QStringLiteral("source"))
                    .contains(QStringLiteral("backends/arm/operator_support/pool_2d_support.py")));
        QVERIFY(f.view->propertiesModel()->whyGroup().isValid());
        f.grab(QStringLiteral("mobilenet-why-properties"));
        // A boundary node: its group's reason, once.
        f.view->selectNode({ NodeId(0), NodeId::none() });
        for (const Node& node : f.view->presentation()->methodGraph().nodes)
            if (node.instruction.valid() && node.instruction.value == 0 && node.kind == NodeKind::Operator)
                f.view->selectNode({ node.id, NodeId::none() });
        QCOMPARE(f.value(QStringLiteral("Why on the CPU"), QStringLiteral("kind")),
            QStringLiteral("boundary conversion, by design"));

        // Search › Left on the CPU: the five operators outside the delegates.
        auto* panel = f.view->findChild<SearchPanel*>();
        QVERIFY(panel);
        panel->cpuFilter()->setChecked(true);
        QVERIFY(QTest::qWaitFor([&] { return f.view->searchModel()->rowCount() == 5; }, 5000));
        bool poolRow = false;
        for (int r = 0; r < f.view->searchModel()->rowCount(); ++r) {
            const QString text = f.view->searchModel()->index(r).data().toString();
            poolRow = poolRow || (text.contains(QStringLiteral("on the CPU: constraint fails")));
        }
        QVERIFY(poolRow);
        f.view->searchEdit()->setText(QStringLiteral("avg_pool"));
        QVERIFY(QTest::qWaitFor([&] { return f.view->searchModel()->rowCount() == 1; }, 5000));

        // A partition report in Arm's format, its row matched to the pool by type and order.
        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("partition_report.txt"));
        QVERIFY(writeText(report,
            writeArmPartitionReport({ { "TOSA-1.0+INT+u55",
                { { "aten_avg_pool3d_default", "aten.avg_pool3d.default", "-", "kernel too deep for u55" } } } })));
        QVERIFY(logKinds(report) == std::vector<AttachKind> { AttachKind::PartitionLog });
        QCOMPARE(f.attachLog(AttachKind::PartitionLog, report), QString());
        f.view->selectNode(avgPool);
        QVERIFY2(f.value(QStringLiteral("Why on the CPU"), QStringLiteral("logged"))
                     .startsWith(QStringLiteral("kernel too deep for u55 (")),
            qPrintable(f.group(QStringLiteral("Why on the CPU")).join(QLatin1Char('\n'))));
    }

    // A file that is no log is refused when attached, naming the file and why.
    void notALog()
    {
        Fixture f(writerProgram());
        QVERIFY(f.waitForFacts());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        QVERIFY(writeText(path, "hello\nworld\n"));
        QVERIFY(logKinds(path).empty());
        const QString error = etscope::test::attachAndWait(f.controller, AttachKind::VelaLog, path);
        QVERIFY2(error.contains(QStringLiteral("notes.txt")) && error.contains(QStringLiteral("not a Vela log")),
            qPrintable(error));
        const QString partition = etscope::test::attachAndWait(f.controller, AttachKind::PartitionLog, path);
        QVERIFY2(partition.contains(QStringLiteral("not a partition report")), qPrintable(partition));
        QVERIFY(f.controller.debug().logs.vela.empty());
    }

    // The shots for the manual and the report: dark theme at 1024×700.
    void darkSmall()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        if (qEnvironmentVariable("ETSCOPE_GRAB_DIR").isEmpty())
            QSKIP("only takes pictures (ETSCOPE_GRAB_DIR)");
        applyTheme(Theme::Dark);
        Fixture f(etscope::test::sharedSampleDocument("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"),
            { 1024, 700 });
        QVERIFY(f.waitForFacts());
        f.view->selectNode(f.topNode("aten::avg_pool3d.out"));
        f.showOperators();
        QTest::qWait(200);
        f.grab(QStringLiteral("mobilenet-dark-1024x700"));
        applyTheme(Theme::Light);
    }
};

ETSCOPE_TEST_MAIN(TestNodeFacts)
#include "tst_nodefacts.moc"
