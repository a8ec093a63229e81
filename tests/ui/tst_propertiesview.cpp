// SPDX-License-Identifier: MIT
// The properties panel offscreen: long keys (a Core ML payload's debug symbols) leave the value
// column on screen, rows copy as "key<TAB>value" lines. With ETSCOPE_GRAB_DIR set, the panes
// are saved there as PNG for a person to look at (never into the repository).
#include "core/writer/payloads/coremlpayloadwriter.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "ui/common/elidedelegate.h"
#include "ui/document/documentcontroller.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/properties/propertiesview.h"
#include "ui/window/documentview.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTreeView>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

std::vector<std::uint8_t> bytesOf(const std::string& text)
{
    return { text.begin(), text.end() };
}

/// Debug symbols as coremltools writes them for a transformer layer: long, one per operation.
const std::vector<std::string> kLongSymbols = {
    "model_layers_0_self_attn_q_proj_linear_default_cast_fp16_to_fp32_quantized_per_block",
    "model_layers_0_self_attn_k_proj_linear_default_cast_fp16_to_fp32_quantized_per_block",
    "model_layers_0_self_attn_scaled_dot_product_attention_default_cast_fp16_softmax_out",
};

/// forward = DelegateCall(CoreMLBackend, [x, y, z]) with a payload whose debug info holds
/// kLongSymbols.
std::shared_ptr<const Document> coreMlDocument()
{
    std::string handles;
    for (std::size_t i = 0; i < kLongSymbols.size(); ++i)
        handles += (i ? "," : "") + ("\"" + kLongSymbols[i] + "\":[" + std::to_string(i + 3) + "]");
    const std::string debugInfo = R"({"versionInfo":{"coremltools":"8.1"},"debugSymbolToHandles":{)" + handles + "}}";
    const std::vector<CoreMlFileSpec> files = {
        { "model.mlpackage/Manifest.json", bytesOf(R"({"fileFormatVersion":"1.0.0"})") },
        { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", std::vector<std::uint8_t>(100, 0x0A) },
        { "metadata.json", bytesOf(R"({"identifier":"a1b2-c3","inputNames":["x","y"],"outputNames":["z"]})") },
        { "debug_info.json", bytesOf(debugInfo) },
    };
    ProgramSpec spec;
    MethodSpec& method = spec.addMethod("forward");
    TensorSpec t;
    t.sizes = { 2, 2 };
    const std::int32_t x = method.addTensor(t);
    const std::int32_t y = method.addTensor(t);
    const std::int32_t z = method.addTensor(t);
    method.inputs = { x, y };
    method.outputs = { z };
    const std::int32_t delegate = method.addDelegate({ "CoreMLBackend", writeCoreMlPayload(files) });
    method.addInstruction(InstructionSpec::delegate(delegate, { x, y, z }));
    auto bytes = writeProgram(spec);
    return bytes ? etscope::test::sharedDocumentFromBytes(*bytes, "coreml-long-symbols.pte") : nullptr;
}

std::shared_ptr<const Document> load(const std::string& sample)
{
    return etscope::test::sharedSampleDocument(sample);
}

int methodNamed(const Document& document, const std::string& name)
{
    for (std::size_t m = 0; m < document.program->methods.size(); ++m)
        if (document.program->methods[m].name == name)
            return static_cast<int>(m);
    return -1;
}

/// The top-level node of `method` labelled `label`.
NodeOrigin nodeLabelled(const Document& document, int method, const std::string& label)
{
    for (const Node& node : document.methods[static_cast<std::size_t>(method)].graph->nodes)
        if (node.label == label)
            return { node.id, NodeId::none() };
    return {};
}

/// The rows of the group titled `title` as "key<TAB>value" lines.
QStringList groupRows(const QStandardItemModel& model, const QString& title)
{
    QStringList rows;
    for (int g = 0; g < model.rowCount(); ++g) {
        const QModelIndex group = model.index(g, 0);
        if (group.data().toString() != title)
            continue;
        for (int r = 0; r < model.rowCount(group); ++r)
            rows << model.index(r, 0, group).data().toString() + QLatin1Char('\t')
                    + model.index(r, 1, group).data().toString();
    }
    return rows;
}

int groupRow(const QStandardItemModel& model, const QString& title)
{
    for (int g = 0; g < model.rowCount(); ++g)
        if (model.index(g, 0).data().toString() == title)
            return g;
    return -1;
}

/// Every key of `tree` starting with `prefix`: as the model has it, as the key column shows it,
/// and as a cut in the middle would show it.
struct ShownKeys {
    QStringList keys;
    QStringList shown;
    QStringList middle;
};
ShownKeys shownKeys(QTreeView* tree, const QString& prefix)
{
    ShownKeys out;
    const auto* names = dynamic_cast<DistinctNameDelegate*>(tree->itemDelegateForColumn(0));
    QAbstractItemModel* model = tree->model();
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int r = 0; r < model->rowCount(group); ++r) {
            const QModelIndex key = model->index(r, 0, group);
            const QString text = key.data().toString();
            if (!text.startsWith(prefix))
                continue;
            // The text's room: the key's cell less the style's text margins.
            const int room = tree->visualRect(key).width() - 6;
            out.keys << text;
            out.shown << (names ? names->shownText(key, tree->font(), room) : QString());
            out.middle << tree->fontMetrics().elidedText(text, Qt::ElideMiddle, room);
        }
    }
    return out;
}

qsizetype duplicates(QStringList list)
{
    const auto all = list.size();
    list.removeDuplicates();
    return all - list.size();
}

struct Fixture {
    DocumentController controller;
    std::unique_ptr<DocumentView> view;

    explicit Fixture(std::shared_ptr<const Document> document)
    {
        controller.adopt(std::move(document));
        view = std::make_unique<DocumentView>(&controller, GraphContext {});
        view->resize(1400, 900);
        view->show();
    }
    bool waitForLayout()
    {
        QSignalSpy spy(view.get(), &DocumentView::presentationShown);
        return view->presentation() || spy.wait(20000);
    }
    QTreeView* properties() const { return view->findChild<QTreeView*>(QStringLiteral("propertiesView")); }
    NodeOrigin firstOfKind(NodeKind kind) const
    {
        const Graph& top = view->presentation()->methodGraph();
        for (const Node& node : top.nodes)
            if (node.kind == kind)
                return { node.id, NodeId::none() };
        return {};
    }
    /// Saves the whole view as `name`.png into $ETSCOPE_GRAB_DIR, when set.
    void grab(const QString& name) const
    {
        const QString dir = qEnvironmentVariable("ETSCOPE_GRAB_DIR");
        if (!dir.isEmpty())
            view->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }
};

} // namespace

class TestPropertiesView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void memoryPlanOfTensors()
    {
        // Checked against `etscope graph executorch/add.pte --format json`: input 1 is
        // "arena 1 + 16", 4 bytes, dim_order [0].
        const auto add = load("executorch/add.pte");
        QVERIFY(add);
        PropertiesModel model;
        model.showNode(*add, 0, nodeLabelled(*add, 0, "input 1"));
        QCOMPARE(groupRows(model, QStringLiteral("Memory plan")),
            QStringList({ QStringLiteral("mem_id\t1"), QStringLiteral("offset\t16"), QStringLiteral("bytes\t4"),
                QStringLiteral("dim order\t[0] (contiguous)") }));
        // The attributes keep what the plan does not show.
        QCOMPARE(groupRows(model, QStringLiteral("Attributes")),
            QStringList({ QStringLiteral("value\tv1: Tensor FLOAT [1]"), QStringLiteral("storage\tplanned") }));
        model.showNode(*add, 0, nodeLabelled(*add, 0, "output 0"));
        QCOMPARE(groupRows(model, QStringLiteral("Memory plan")).at(1), QStringLiteral("offset\t32"));
        // An edge shows the plan of the value it carries (v0 at the start of arena 1).
        const Graph& graph = *add->methods.front().graph;
        const Edge* fromInput0 = nullptr;
        for (const Edge& edge : graph.edges)
            if (edge.value.value == 0)
                fromInput0 = &edge;
        QVERIFY(fromInput0);
        model.showEdge(
            *add, 0, graph, { fromInput0->from, NodeId::none() }, static_cast<int>(fromInput0 - graph.edges.data()));
        QCOMPARE(groupRows(model, QStringLiteral("Memory plan")).at(1), QStringLiteral("offset\t0"));

        // The Qualcomm LLM's inputs are not planned: the caller hands their memory in.
        const auto qnn = load("executorch/stories260k_hybrid_llama_qnn.pte");
        QVERIFY(qnn);
        const int kv = methodNamed(*qnn, "kv_forward");
        QVERIFY(kv >= 0);
        model.showNode(*qnn, kv, nodeLabelled(*qnn, kv, "input 1"));
        QCOMPARE(groupRows(model, QStringLiteral("Memory plan")),
            QStringList({ QStringLiteral("storage\truntime (not memory-planned)"), QStringLiteral("bytes\t256"),
                QStringLiteral("dim order\t[0, 1, 2, 3] (contiguous)") }));
    }

    void inputsAndOutputsRead()
    {
        const auto add = load("executorch/add.pte");
        QVERIFY(add);
        QCOMPARE(add->program->methods.front().inputSpec, std::string("T2#2#0(T2#1#1($,$),D0())"));
        PropertiesModel model;
        model.showDocument(*add, 0);
        QCOMPARE(groupRows(model, QStringLiteral("Inputs (2)")),
            QStringList({ QStringLiteral("input 0\tTensor FLOAT [1] (v0, args[0])"),
                QStringLiteral("input 1\tTensor FLOAT [1] (v1, args[1])") }));
        // The output spec "$" is the single value itself: no path to show.
        QCOMPARE(add->program->methods.front().outputSpec, std::string("$"));
        QCOMPARE(groupRows(model, QStringLiteral("Outputs (1)")),
            QStringList({ QStringLiteral("output 0\tTensor FLOAT [1] (v2)") }));
        // The specs read as the containers they encode (issue 38: the encoded text alone), the
        // encoded text beneath.
        const QStringList method = groupRows(model, QStringLiteral("Method forward"));
        QVERIFY2(method.contains(QStringLiteral("input spec\targs (input 0, input 1) · kwargs {}")),
            qPrintable(method.join(QLatin1Char('|'))));
        QVERIFY(method.contains(QStringLiteral("output spec\toutput 0")));
        const QModelIndex group = model.index(groupRow(model, QStringLiteral("Method forward")), 0);
        const auto spec = model.match(model.index(0, 0, group), Qt::DisplayRole, QStringLiteral("input spec"));
        QCOMPARE(spec.size(), 1);
        QCOMPARE(model.index(0, 1, spec.front()).data().toString(), QStringLiteral("T2#2#0(T2#1#1($,$),D0())"));
    }

    void qnnCompileSpecInThePanel()
    {
        const auto qnn = load("executorch/stories260k_hybrid_llama_qnn.pte");
        QVERIFY(qnn);
        const int kv = methodNamed(*qnn, "kv_forward");
        PropertiesModel model;
        model.showNode(*qnn, kv, nodeLabelled(*qnn, kv, "QnnBackend"));
        const QStringList payload = groupRows(model, QStringLiteral("Delegate payload"));
        QVERIFY2(
            payload.contains(QStringLiteral("compile spec soc_model\tSM8650 (57)")), qPrintable(payload.join(u'|')));
        QVERIFY(payload.contains(QStringLiteral("compile spec htp performance_mode\tkHtpBurst")));
        QVERIFY(payload.contains(QStringLiteral("compile spec log_level\tkLogLevelError")));
    }

    void copyRows()
    {
        const auto add = load("executorch/add.pte");
        QVERIFY(add);
        PropertiesModel model;
        model.showNode(*add, 0, nodeLabelled(*add, 0, "input 1"));
        PropertiesView view;
        view.setModel(&model);
        view.resize(400, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // A narrow pane: the key column stays within its share, the values keep their room.
        QVERIFY(view.header()->sectionSize(0) <= view.viewport()->width() * PropertiesView::kMaxKeyShare + 1);
        QVERIFY(view.viewport()->width() - view.header()->sectionSize(0) >= PropertiesView::kMinValueWidth);
        // A pane of a 1024 px window (~290 px): the keys whole ("identifier" read "ide…ier").
        PropertiesModel file;
        file.showDocument(*add, 0);
        PropertiesView narrow;
        narrow.setModel(&file);
        narrow.resize(290, 400);
        narrow.show();
        QVERIFY(QTest::qWaitForWindowExposed(&narrow));
        const int keys = static_cast<const QAbstractItemView&>(narrow).sizeHintForColumn(0); // public there
        QVERIFY2(narrow.header()->sectionSize(0) >= keys,
            qPrintable(QStringLiteral("%1 < %2").arg(narrow.header()->sectionSize(0)).arg(keys)));

        const int plan = groupRow(model, QStringLiteral("Memory plan"));
        QVERIFY(plan >= 0);
        const QModelIndex group = model.index(plan, 0);
        view.selectionModel()->select(QItemSelection(model.index(0, 0, group), model.index(1, 1, group)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("mem_id\t1\noffset\t16"));
        // A heading copies as its title alone; rows come in the order shown, whatever the
        // order of selecting them.
        view.selectionModel()->select(
            model.index(3, 0, group), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view.selectionModel()->select(group, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(),
            QStringLiteral("Memory plan\nmem_id\t1\noffset\t16\ndim order\t[0] (contiguous)"));
        QVERIFY(view.allRowsText().startsWith(QStringLiteral("Node\nlabel\tinput 1\nkind\tinput\n")));
        QCOMPARE(view.allRowsText().count(QLatin1Char('\n')) + 1, [&] {
            int rows = model.rowCount();
            for (int g = 0; g < model.rowCount(); ++g)
                rows += model.rowCount(model.index(g, 0));
            return rows;
        }());
    }

    // A view fits itself once per show… call, when the model says it is filled, not on every
    // row inserted (issue 27: that measured all rows again per row during the first paint);
    // the groups are expanded when the call returns, as before.
    void fitsOncePerFill()
    {
        const auto program = load("dnf-executorch/dnf_executorch5.pte");
        QVERIFY(program);
        PropertiesModel model;
        PropertiesView view;
        view.setModel(&model);
        view.resize(400, 400);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy filled(&model, &PropertiesModel::filled);
        model.showDocument(*program, 0);
        QVERIFY(!model.filling());
        QCOMPARE(filled.count(), 1);
        QVERIFY(inserted.count() > 10); // one per row: what the view no longer answers each time
        QVERIFY(model.rowCount() >= 2); // File, Method forward, …
        for (int g = 0; g < model.rowCount(); ++g)
            QVERIFY(view.isExpanded(model.index(g, 0)));
        model.showNode(*program, 0, NodeOrigin { NodeId(0), NodeId::none() });
        QCOMPARE(filled.count(), 2);
        for (int g = 0; g < model.rowCount(); ++g)
            QVERIFY(view.isExpanded(model.index(g, 0)));
    }

    void longKeysLeaveTheValuesVisible()
    {
        Fixture f(coreMlDocument());
        QVERIFY(f.waitForLayout());
        const NodeOrigin delegate = f.firstOfKind(NodeKind::Delegate);
        QVERIFY(delegate.top.valid());
        f.view->selectNode(delegate);
        QTreeView* tree = f.properties();
        QVERIFY(tree);
        QVERIFY(QTest::qWaitForWindowExposed(f.view.get()));
        QCoreApplication::processEvents();

        // The debug symbols are rows of the delegate's payload group.
        const QString longKey = QStringLiteral("debug symbol ") + QString::fromStdString(kLongSymbols.front());
        const auto hits = f.view->propertiesModel()->match(
            f.view->propertiesModel()->index(0, 0), Qt::DisplayRole, longKey, 1, Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(hits.size(), 1);
        tree->scrollTo(hits.front(), QAbstractItemView::PositionAtCenter);
        QCoreApplication::processEvents();
        f.grab(QStringLiteral("props-coreml"));
        QCOMPARE(hits.front().siblingAtColumn(1).data().toString(), QStringLiteral("[3]"));
        // The key column is capped: the value column keeps a good part of the pane.
        const int viewport = tree->viewport()->width();
        const int keyWidth = tree->header()->sectionSize(0);
        const QString widths = QStringLiteral("key %1 of %2").arg(keyWidth).arg(viewport);
        // Keys get up to 55 % (issue 27: keys are what tells ~250 rows apart), values the rest.
        QVERIFY2(keyWidth <= viewport * 0.55 + 1, qPrintable(widths));
        QVERIFY2(viewport - keyWidth >= viewport * 0.45 - 1, qPrintable(widths));
        QVERIFY2(viewport - keyWidth >= 200, qPrintable(widths));
        // The long key does not fit: it keeps what tells it from its siblings, the full text in
        // its tooltip.
        QVERIFY(tree->fontMetrics().horizontalAdvance(longKey) > keyWidth);
        QCOMPARE(hits.front().data(Qt::ToolTipRole).toString(), longKey);
    }

    void realCoreMlKeysStayDistinct()
    {
        // style_candy_640_coreml.pte: one CoreMLBackend delegate whose debug_info.json maps
        // symbols such as "_inversed_aten_div_tensor_1_y_0_to_fp16:const" to handles; the panel
        // lists the first 20 as "debug symbol NAME" rows (core/delegates/coreml.cpp). Cut in the
        // middle to the key column they read "debug symbol…o_fp16:const" several times over;
        // each must stay told apart.
        Fixture f(load("react-native-executorch/style_candy_640_coreml.pte"));
        QVERIFY(f.waitForLayout());
        const NodeOrigin delegate = f.firstOfKind(NodeKind::Delegate);
        QVERIFY(delegate.top.valid());
        f.view->selectNode(delegate);
        QTreeView* tree = f.properties();
        QVERIFY(QTest::qWaitForWindowExposed(f.view.get()));
        QCoreApplication::processEvents();
        const auto* names = dynamic_cast<DistinctNameDelegate*>(tree->itemDelegateForColumn(0));
        QVERIFY(names);
        const int width = tree->header()->sectionSize(0);
        QStringList keys;
        QStringList shown;
        QStringList cutInTheMiddle;
        QAbstractItemModel* model = tree->model();
        for (int g = 0; g < model->rowCount(); ++g) {
            const QModelIndex group = model->index(g, 0);
            for (int r = 0; r < model->rowCount(group); ++r) {
                const QModelIndex key = model->index(r, 0, group);
                if (!key.data().toString().startsWith(QStringLiteral("debug symbol ")))
                    continue;
                // The text's room: the column less the tree's indentation of a child row.
                const QRect rect = tree->visualRect(key);
                keys << key.data().toString();
                shown << names->shownText(key, tree->font(), rect.width() - 6);
                cutInTheMiddle << tree->fontMetrics().elidedText(
                    key.data().toString(), Qt::ElideMiddle, rect.width() - 6);
            }
        }
        QCOMPARE(keys.size(), 20);
        QVERIFY2(width > 0, "key column");
        const auto duplicates = [](QStringList list) {
            const auto all = list.size();
            list.removeDuplicates();
            return all - list.size();
        };
        QCOMPARE(duplicates(keys), 0);
        QVERIFY2(duplicates(cutInTheMiddle) > 0, "the old middle elision told them apart anyway?");
        QVERIFY2(duplicates(shown) == 0, qPrintable(shown.join(QLatin1Char('\n'))));
        f.grab(QStringLiteral("props-coreml-real"));
    }

    void qnnCompileSpecKeysStayDistinct()
    {
        // stories260k_hybrid_llama_qnn.pte, kv_forward's QnnBackend: its compile spec rows
        // ("compile spec soc_model", "compile spec htp performance_mode", …) in a narrow pane.
        const auto qnn = load("executorch/stories260k_hybrid_llama_qnn.pte");
        QVERIFY(qnn);
        const int kv = methodNamed(*qnn, "kv_forward");
        DocumentController controller;
        controller.adopt(qnn);
        DocumentView view(&controller, GraphContext { kv, {} });
        view.resize(1000, 800);
        view.show();
        QSignalSpy shownSpy(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shownSpy.wait(20000));
        view.selectNode(nodeLabelled(*qnn, kv, "QnnBackend"));
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        auto* tree = view.findChild<QTreeView*>(QStringLiteral("propertiesView"));
        const ShownKeys keys = shownKeys(tree, QStringLiteral("compile spec "));
        QVERIFY2(keys.keys.size() >= 3, qPrintable(QString::number(keys.keys.size())));
        QCOMPARE(duplicates(keys.keys), 0);
        QVERIFY2(duplicates(keys.shown) == 0, qPrintable(keys.shown.join(QLatin1Char('\n'))));
        const QString dir = qEnvironmentVariable("ETSCOPE_GRAB_DIR");
        if (!dir.isEmpty())
            view.grab().save(dir + QStringLiteral("/props-qnn-compile-spec.png"));
    }

    void showsManyRowsByDefault()
    {
        // The walk-through saw 3 to 6 property rows under the side tabs in a small window:
        // at 1024×700 the pane shows at least 10 rows, at 1400×900 at least 14.
        for (const auto& [size, rows] : { std::pair(QSize(1024, 700), 10), std::pair(QSize(1400, 900), 14) }) {
            Fixture f(load("react-native-executorch/style_candy_640_coreml.pte"));
            f.view->resize(size);
            QVERIFY(f.waitForLayout());
            f.view->selectNode(f.firstOfKind(NodeKind::Delegate));
            QVERIFY(QTest::qWaitForWindowExposed(f.view.get()));
            QCoreApplication::processEvents();
            QTreeView* tree = f.properties();
            const int rowHeight = tree->visualRect(tree->model()->index(0, 0)).height();
            QVERIFY(rowHeight > 0);
            const int shown = tree->viewport()->height() / rowHeight;
            QVERIFY2(shown >= rows,
                qPrintable(QStringLiteral("%1 rows at %2x%3").arg(shown).arg(size.width()).arg(size.height())));
            f.grab(QStringLiteral("props-rows-%1").arg(size.width()));
        }
    }
};

ETSCOPE_TEST_MAIN(TestPropertiesView)
#include "tst_propertiesview.moc"
