// SPDX-License-Identifier: MIT
// File › Compare… as a user meets it: two programs side by side, every node marked by its
// match, a selection on one side selecting its match on the other (expanding delegates as
// needed), the tables linked to the graphs, and the exports. On the writer's portable/XNNPACK
// pair (numbers worked out by hand in tst_programdiff) and on real pairs.
#include "tests/common/deviceprograms.h"
#include "tests/common/testsupport.h"

#include "core/document/document.h"
#include "core/writer/comparepairs.h"
#include "core/writer/programwriter.h"
#include "ui/compare/compareview.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QTimer>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;
using Side = CompareView::Side;

namespace {

void saveShot(QWidget& widget, const QString& name)
{
    if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

NodeOrigin originOf(const DiffNodeRef& ref)
{
    return { ref.node, ref.inner.value_or(NodeId::none()) };
}

/// The badge a match's node should carry (empty: no mark).
QString expectedBadge(const NodeMatch& match)
{
    if (match.movement != Movement::None)
        return QStringLiteral("→");
    switch (match.status) {
    case MatchStatus::Same:
        return {};
    case MatchStatus::Changed:
        return QStringLiteral("Δ");
    case MatchStatus::OnlyInA:
        return QStringLiteral("−");
    case MatchStatus::OnlyInB:
        return QStringLiteral("+");
    case MatchStatus::Unverified:
        return QStringLiteral("?");
    }
    return {};
}

/// Laid out, and expanded when the compare view asked for it (a relayout follows expandAll).
bool settled(DocumentView* view)
{
    const auto presentation = view->presentation();
    return presentation && presentation->context.method == view->context().method
        && presentation->expanded == view->expanded();
}

/// Clicks the drawn node `origin` as a user would.
bool click(DocumentView* view, const NodeOrigin& origin)
{
    NodeItem* item = view->scene()->itemFor(origin);
    if (!item)
        return false;
    GraphView* graph = view->graphView();
    graph->centerOn(item);
    // The title band: the ⊕ of a delegate sits in its corner.
    const QPointF where = item->sceneBoundingRect().center();
    QTest::mouseClick(graph->viewport(), Qt::LeftButton, Qt::NoModifier, graph->mapFromScene(where));
    return true;
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_portable, m_lowered;

    /// Compares and waits until both graphs are laid out (expanded when small).
    bool compare(CompareView& view, const QString& a, const QString& b)
    {
        QSignalSpy ready(&view, &CompareView::ready);
        QSignalSpy failed(&view, &CompareView::failed);
        view.resize(1400, 900);
        view.show();
        view.compareFiles(a, b);
        if (!ready.wait(60000) && ready.isEmpty()) {
            qWarning("not ready: %s", failed.isEmpty() ? "timeout" : qPrintable(failed.first().first().toString()));
            return false;
        }
        return waitSettled(view);
    }

    bool waitSettled(CompareView& view)
    {
        // Expansion asks for a second layout once the first is shown; both happen in the handler
        // of presentationShown, so a view whose shown presentation matches its context and
        // expansion has nothing more coming.
        return QTest::qWaitFor(
            [&] {
                return view.view(Side::A) && view.view(Side::B) && settled(view.view(Side::A))
                    && settled(view.view(Side::B));
            },
            30000);
    }

    /// Every drawn node's mark is its match's: the badge of its status, none for `same`.
    void checkMarks(CompareView& view, Side side)
    {
        const MethodDiff* method = view.methodDiff();
        QVERIFY(method);
        GraphScene* scene = view.view(side)->scene();
        int drawnWithMatch = 0;
        for (NodeItem* item : scene->nodeItems()) {
            if (item->origin().group() >= 0)
                continue; // a closed group of a long method counts the differences inside
            const auto match = view.matchOf(side, item->origin());
            if (!match) {
                QVERIFY2(!item->mark(), "a node without a match is not marked");
                continue;
            }
            ++drawnWithMatch;
            const QString badge = expectedBadge(method->matches[static_cast<std::size_t>(*match)]);
            if (badge.isEmpty()) {
                QVERIFY(!item->mark());
            } else {
                QVERIFY(item->mark());
                QCOMPARE(item->mark()->badge, badge);
            }
        }
        QVERIFY(drawnWithMatch > 0);
        // And every match with a node on this side is marked as its status says.
        for (const NodeMatch& match : method->matches) {
            const auto& ref = side == Side::A ? match.a : match.b;
            if (!ref)
                continue;
            const auto key = GraphScene::keyOf(originOf(*ref));
            const auto it = scene->marks().find(key);
            if (match.status == MatchStatus::Same && match.movement == Movement::None)
                QVERIFY(it == scene->marks().end() || it->second.badge != QStringLiteral("Δ"));
            else
                QVERIFY2(
                    it != scene->marks().end(), match.labelA.empty() ? match.labelB.c_str() : match.labelA.c_str());
        }
    }

    int drawnWithBadge(DocumentView* view, const QString& badge)
    {
        int count = 0;
        for (NodeItem* item : view->scene()->nodeItems())
            if (item->mark() && item->mark()->badge == badge)
                ++count;
        return count;
    }

    const NodeMatch* findMatch(const MethodDiff& method, const std::string& labelA, const std::string& labelB)
    {
        for (const NodeMatch& match : method.matches)
            if ((labelA.empty() || match.labelA.find(labelA) != std::string::npos)
                && (labelB.empty() || match.labelB.find(labelB) != std::string::npos))
                return &match;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
        const ComparePair pair = makeMlpComparePair(8);
        m_portable = m_dir.filePath(QStringLiteral("mlp-portable.pte"));
        m_lowered = m_dir.filePath(QStringLiteral("mlp-xnnpack.pte"));
        for (const auto& [spec, path] :
            { std::pair(&pair.portable, m_portable), std::pair(&pair.lowered, m_lowered) }) {
            auto bytes = writeProgram(*spec);
            QVERIFY(bytes);
            QVERIFY(!writeBytesToFile(path.toStdString(), *bytes));
        }
    }

    /// The writer's pair: A portable addmm, relu, addmm, relu, addmm, _softmax; B
    /// XnnpackBackend[FC, Clamp, FC, Clamp], addmm, _softmax. 4 ops moved into the delegate;
    /// nodes 6 same, 8 changed, 0 only in A, 3 only in B (tst_programdiff works them out).
    void writerPairMarksAndLinks()
    {
        CompareView view;
        QVERIFY(compare(view, m_portable, m_lowered));
        QCOMPARE(view.title(), QStringLiteral("mlp-portable.pte ⇄ mlp-xnnpack.pte"));
        const MethodDiff* method = view.methodDiff();
        QVERIFY(method);
        QCOMPARE(method->name, std::string("forward"));
        QCOMPARE(method->same, 6);
        QCOMPARE(method->changed, 8);
        QCOMPARE(method->onlyInA, 0);
        QCOMPARE(method->onlyInB, 3);
        QCOMPARE(method->movedIntoDelegates, 4);
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("4 ops moved into delegates")));
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("XnnpackBackend delegates 0 → 1")));
        QCOMPARE(view.methodBox()->count(), 1);

        // B's one delegate (4 inner operators) is small: expanded at once, so the moves show.
        QCOMPARE(view.view(Side::B)->expanded().size(), std::size_t(1));
        checkMarks(view, Side::A);
        checkMarks(view, Side::B);
        // The 8 changed: addmm, relu, addmm, relu and the weights that went with them into the
        // payload (w0, b0, w1, b1), on A as top-level nodes, on B inside the expanded delegate.
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("→")), 8);
        QCOMPARE(drawnWithBadge(view.view(Side::B), QStringLiteral("→")), 8);
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("Δ")), 0);
        // Only in B: 3, of which the delegate call itself is drawn as the frame of its inside.
        QCOMPARE(drawnWithBadge(view.view(Side::B), QStringLiteral("+")), 2);
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("−")), 0);
        // The moves are in XNNPACK's colour, with the reason in the tooltip.
        const NodeMatch* firstAddmm = findMatch(*method, "#0 aten::addmm.out", "XNNFullyConnected");
        QVERIFY(firstAddmm && firstAddmm->b && firstAddmm->b->inner);
        NodeItem* fc = view.view(Side::B)->scene()->itemFor(originOf(*firstAddmm->b));
        QVERIFY(fc && fc->mark());
        QCOMPARE(fc->mark()->colour, backendColour(QStringLiteral("XnnpackBackend")));
        QVERIFY(fc->toolTip().contains(QStringLiteral("moved into XnnpackBackend (XNNFullyConnected)")));
        saveShot(view, QStringLiteral("compare-mlp.png"));

        // A click on A's first addmm selects the XNNFullyConnected it became, and back.
        QVERIFY(click(view.view(Side::A), originOf(*firstAddmm->a)));
        QCOMPARE(view.view(Side::A)->selectedNode(), std::optional(originOf(*firstAddmm->a)));
        QCOMPARE(view.view(Side::B)->selectedNode(), std::optional(originOf(*firstAddmm->b)));
        // … and its row in the nodes table.
        QVERIFY(view.nodesView()->currentIndex().isValid());
        QVERIFY(view.nodesView()->currentIndex().siblingAtColumn(1).data().toString().contains(
            QStringLiteral("#0 aten::addmm.out")));
        const NodeMatch* secondRelu = findMatch(*method, "#3 aten::relu.out", "XNNClamp");
        QVERIFY(secondRelu);
        QVERIFY(click(view.view(Side::B), originOf(*secondRelu->b)));
        QCOMPARE(view.view(Side::A)->selectedNode(), std::optional(originOf(*secondRelu->a)));

        // A row of the nodes table selects both nodes.
        QTableView* nodes = view.nodesView();
        int onlyInB = -1;
        for (int row = 0; row < nodes->model()->rowCount(); ++row)
            if (nodes->model()->index(row, 0).data().toString() == QStringLiteral("only-in-B"))
                onlyInB = row;
        QVERIFY(onlyInB >= 0);
        QCOMPARE(nodes->model()->rowCount(), 8 + 3); // the differing ones only
        nodes->setCurrentIndex(nodes->model()->index(onlyInB, 0));
        QVERIFY(view.view(Side::B)->selectedNode());
        QVERIFY(!view.view(Side::A)->selectedNode()); // nothing to match on A
        view.showSameBox()->setChecked(true);
        QCOMPARE(nodes->model()->rowCount(), 6 + 8 + 3);

        // The moved list: a row selects its first move, Enter walks to the next.
        view.tableTabs()->setCurrentWidget(view.movedView());
        QTableView* moved = view.movedView();
        QCOMPARE(moved->model()->rowCount(), 2); // addmm → FC ×2, relu → Clamp ×2
        int reluRow = moved->model()->index(0, 1).data().toString() == QStringLiteral("aten::relu.out") ? 0 : 1;
        moved->setCurrentIndex(moved->model()->index(reluRow, 0));
        const NodeMatch* firstRelu = findMatch(*method, "#1 aten::relu.out", "XNNClamp");
        QVERIFY(firstRelu);
        QCOMPARE(view.view(Side::A)->selectedNode(), std::optional(originOf(*firstRelu->a)));
        QCOMPARE(view.view(Side::B)->selectedNode(), std::optional(originOf(*firstRelu->b)));
        Q_EMIT moved->activated(moved->currentIndex());
        QCOMPARE(view.view(Side::A)->selectedNode(), std::optional(originOf(*secondRelu->a)));
        QCOMPARE(view.view(Side::B)->selectedNode(), std::optional(originOf(*secondRelu->b)));

        // The operators table: a row marks the type on both sides and selects its first node.
        QTableView* operators = view.operatorsView();
        for (int row = 0; row < operators->model()->rowCount(); ++row)
            if (operators->model()->index(row, 0).data().toString() == QStringLiteral("aten::_softmax.out"))
                operators->setCurrentIndex(operators->model()->index(row, 0));
        for (const Side side : { Side::A, Side::B }) {
            QCOMPARE(view.view(side)->scene()->highlightedCount(), 1);
            const auto selected = view.view(side)->selectedNode();
            QVERIFY(selected);
            QCOMPARE(view.view(side)->presentation()->methodGraph().node(selected->top).opType,
                std::string("aten::_softmax.out"));
        }
    }

    /// A real pair: executorch-numpy-runtime/add.pte delegates its add to XNNPACK,
    /// executorch-rs/add.pte runs aten::add.out (etscope diff, README): the delegate only in A,
    /// XNNAdd moved out as aten::add.out.
    void realAddPairSelectsIntoCollapsedDelegate()
    {
        CompareView view;
        QVERIFY(compare(view, QString::fromStdString(etscope::test::samplePath("executorch-numpy-runtime/add.pte")),
            QString::fromStdString(etscope::test::samplePath("executorch-rs/add.pte"))));
        QCOMPARE(view.title(), QStringLiteral("executorch-numpy-runtime/add.pte ⇄ executorch-rs/add.pte"));
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("XnnpackBackend delegates 1 → 0")));
        const MethodDiff* method = view.methodDiff();
        QVERIFY(method);
        QCOMPARE(method->movedOutOfDelegates, 1);
        checkMarks(view, Side::A);
        checkMarks(view, Side::B);
        const NodeMatch* add = findMatch(*method, "XNNAdd", "aten::add.out");
        QVERIFY(add && add->a && add->a->inner && add->b && !add->b->inner);
        QCOMPARE(add->movement, Movement::OutOfDelegate);
        QCOMPARE(drawnWithBadge(view.view(Side::B), QStringLiteral("→")), 1);
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("→")), 1); // A's delegate is expanded
        // Open, A's delegate is a frame, and the frame carries the delegate's mark (a changed or
        // one-sided delegate's frame had none: only its closed box had).
        const auto frames = view.view(Side::A)->scene()->clusterItems();
        QCOMPARE(frames.size(), std::size_t(1));
        QVERIFY(frames.front()->mark());
        QCOMPARE(frames.front()->mark()->badge, QStringLiteral("−"));

        // Collapse A: a click on B's add opens A's delegate again to select the XNNAdd.
        view.view(Side::A)->collapseAll();
        QVERIFY(waitSettled(view));
        QVERIFY(view.view(Side::A)->expanded().empty());
        const NodeMatch* delegate = nullptr;
        for (const NodeMatch& match : method->matches)
            if (match.labelA == "#0 XnnpackBackend")
                delegate = &match;
        QVERIFY(delegate && delegate->status == MatchStatus::OnlyInA && !delegate->a->inner);
        NodeItem* box = view.view(Side::A)->scene()->itemFor(originOf(*delegate->a));
        QVERIFY(box && box->mark());
        QCOMPARE(box->mark()->badge, QStringLiteral("−"));
        QVERIFY(click(view.view(Side::B), originOf(*add->b)));
        QTRY_COMPARE(view.view(Side::A)->selectedNode(), std::optional(originOf(*add->a)));
        QCOMPARE(view.view(Side::A)->expanded().size(), std::size_t(1));
        NodeItem* inner = view.view(Side::A)->scene()->itemFor(originOf(*add->a));
        QVERIFY(inner && inner->mark());
        QCOMPARE(inner->mark()->badge, QStringLiteral("→"));
        QCOMPARE(inner->mark()->colour, backendColour(QStringLiteral("XnnpackBackend")));
        saveShot(view, QStringLiteral("compare-add.png"));
    }

    /// The same MobileNetV2 lowered to Ethos-U (pte-adapter-model-explorer/mobilenet_v2_ethosu.pte:
    /// #0 cortex_m::quantize_per_tensor.out, #1 EthosUBackend, #2 cortex_m::dequantize_per_tensor.out)
    /// and to VGF (mobilenet_v2_vgf_segments.pte: #0 quantized_decomposed::quantize_per_tensor.out,
    /// #1 VgfBackend, #2 quantized_decomposed::dequantize_per_tensor.out), as `etscope graph`
    /// lists them. Issue 38: nothing paired across the backends, and the two quantize nodes,
    /// once marked as changed, both read "…quantize_per_tensor.out".
    void ethosUAgainstVgfPairsAndKeepsNamesApart()
    {
        CompareView view;
        QVERIFY(compare(view,
            QString::fromStdString(etscope::test::samplePath("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte")),
            QString::fromStdString(
                etscope::test::samplePath("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte"))));
        const MethodDiff* method = view.methodDiff();
        QVERIFY(method);
        const NodeMatch* call = findMatch(*method, "#1 EthosUBackend", "#1 VgfBackend");
        QVERIFY(call);
        QCOMPARE(call->status, MatchStatus::Changed);
        QVERIFY(findMatch(*method, "Add", "ADD"));
        const NodeMatch* quantize = nullptr;
        for (const NodeMatch& match : method->matches)
            if (match.labelA.find("cortex_m::quantize_per_tensor.out") != std::string::npos
                && match.labelB.find("quantized_decomposed::quantize_per_tensor.out") != std::string::npos)
                quantize = &match;
        QVERIFY(quantize && quantize->a && quantize->b);
        QCOMPARE(quantize->status, MatchStatus::Changed);
        NodeItem* a = view.view(Side::A)->scene()->itemFor(originOf(*quantize->a));
        NodeItem* b = view.view(Side::B)->scene()->itemFor(originOf(*quantize->b));
        QVERIFY(a && b && a->mark() && b->mark());
        // Each title, shortened or not, keeps its namespace: they read differently.
        QVERIFY2(a->shownTitle() != b->shownTitle(), qPrintable(a->shownTitle() + " | " + b->shownTitle()));
        QVERIFY2(a->shownTitle().contains(QStringLiteral("cortex_m")), qPrintable(a->shownTitle()));
        QVERIFY2(b->shownTitle().contains(QStringLiteral("quantized_d")), qPrintable(b->shownTitle()));
        saveShot(view, QStringLiteral("compare-ethosu-vgf.png"));
    }

    /// dnf_executorch5.pte (portable, 92 kernels in forward) against dnf_xnnpack_training.pte
    /// (4 XNNPACK delegates): four common methods; `etscope diff` says 7 ops moved into
    /// delegates, nodes 8 same, 18 changed, 118 only in A, 23 only in B over all methods.
    void dnfPairMethodsAndExports()
    {
        CompareView view;
        QVERIFY(compare(view, QString::fromStdString(etscope::test::samplePath("dnf-executorch/dnf_executorch5.pte")),
            QString::fromStdString(etscope::test::samplePath("dnf-executorch/dnf_xnnpack_training.pte"))));
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("7 ops moved into delegates")));
        QVERIFY(view.summaryLabel()->text().contains(
            QStringLiteral("nodes: 8 same, 18 changed, 118 only in A, 23 only in B")));
        QCOMPARE(view.methodBox()->count(), 4);
        QCOMPARE(view.methodBox()->currentText(), QStringLiteral("forward"));
        QCOMPARE(view.methodDiff()->movedIntoDelegates, 7);
        QCOMPARE(view.view(Side::B)->expanded().size(), std::size_t(4)); // 4 small delegates
        checkMarks(view, Side::A);
        checkMarks(view, Side::B);
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("→")), 7);
        QCOMPARE(drawnWithBadge(view.view(Side::B), QStringLiteral("→")), 7);
        saveShot(view, QStringLiteral("compare-dnf.png"));

        // Another method: both sides follow, the marks are that method's (8 outputs only in A).
        view.methodBox()->setCurrentIndex(view.methodBox()->findText(QStringLiteral("__et_training_fqn_forward")));
        QVERIFY(waitSettled(view));
        QCOMPARE(view.methodDiff()->name, std::string("__et_training_fqn_forward"));
        QCOMPARE(view.methodDiff()->onlyInA, 8);
        for (const Side side : { Side::A, Side::B }) {
            DocumentView* shown = view.view(side);
            const auto& methods = shown->controller()->document()->program->methods;
            QCOMPARE(methods[static_cast<std::size_t>(shown->context().method)].name,
                std::string("__et_training_fqn_forward"));
            QCOMPARE(shown->presentation()->context.method, shown->context().method);
        }
        checkMarks(view, Side::A);
        QCOMPARE(drawnWithBadge(view.view(Side::A), QStringLiteral("−")), 8);
        saveShot(view, QStringLiteral("compare-dnf-fqn.png"));
        view.methodBox()->setCurrentIndex(view.methodBox()->findText(QStringLiteral("forward")));
        QVERIFY(waitSettled(view));

        // Exports: the diff in three formats, the table shown, each side's picture.
        const QString md = m_dir.filePath(QStringLiteral("dnf.md"));
        const QString json = m_dir.filePath(QStringLiteral("dnf.json"));
        const QString text = m_dir.filePath(QStringLiteral("dnf.txt"));
        QString error;
        QVERIFY2(view.exportDiff(md, TableFormat::Markdown, &error), qPrintable(error));
        QVERIFY2(view.exportDiff(json, TableFormat::Json, &error), qPrintable(error));
        QVERIFY2(view.exportDiff(text, TableFormat::Text, &error), qPrintable(error));
        const QByteArray markdown = etscope::test::readFile(md);
        QVERIFY(markdown.startsWith("# etscope diff"));
        QVERIFY(markdown.contains("| into delegate | aten::sub.out | XNNSubtract | XnnpackBackend | 1 |"));
        QVERIFY(etscope::test::readFile(text).contains("7 ops moved into delegates"));
        QJsonParseError parse;
        const QJsonDocument document = QJsonDocument::fromJson(etscope::test::readFile(json), &parse);
        QCOMPARE(parse.error, QJsonParseError::NoError);
        const QJsonArray methods = document.object().value(QStringLiteral("compared_methods")).toArray();
        QCOMPARE(methods.size(), 4);

        view.tableTabs()->setCurrentWidget(view.movedView());
        const QString csv = m_dir.filePath(QStringLiteral("moved.csv"));
        QVERIFY2(view.exportTable(csv, TableFormat::Csv, &error), qPrintable(error));
        const QList<QByteArray> lines = etscope::test::readFile(csv).trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 4); // header + the four rows of `etscope diff`
        QCOMPARE(lines.front().trimmed(), QByteArray("direction,from,to,backend,count"));
        const QString tableJson = m_dir.filePath(QStringLiteral("moved.json"));
        QVERIFY2(view.exportTable(tableJson, TableFormat::Json, &error), qPrintable(error));
        const QJsonDocument table = QJsonDocument::fromJson(etscope::test::readFile(tableJson), &parse);
        QCOMPARE(parse.error, QJsonParseError::NoError);
        QCOMPARE(table.object().value(QStringLiteral("rows")).toArray().size(), 4);

        for (const Side side : { Side::A, Side::B }) {
            const QString png = m_dir.filePath(side == Side::A ? QStringLiteral("a.png") : QStringLiteral("b.png"));
            QVERIFY2(view.view(side)->exportImage(png, &error), qPrintable(error));
            QVERIFY(!QImage(png).isNull());
        }
    }

    void methodsOnlyInOneFileTakeOneLine()
    {
        // Issue 27: the header grew by a line (with B's full path) per method only in B, beyond
        // the screen for two LLMs. B here is the writer's portable MLP plus 12 copies of its
        // method under other names: 12 methods only in B, said in one line.
        ProgramSpec many = makeMlpComparePair(8).portable;
        const MethodSpec original = many.methods.front();
        for (int i = 0; i < 12; ++i) {
            many.methods.push_back(original);
            many.methods.back().name = "get_" + std::to_string(10 + i);
        }
        const QString path = m_dir.filePath(QStringLiteral("mlp-many-methods.pte"));
        auto bytes = writeProgram(many);
        QVERIFY(bytes);
        QVERIFY(!writeBytesToFile(path.toStdString(), *bytes));
        CompareView view;
        QVERIFY(compare(view, m_portable, path));
        auto* notes = view.findChild<QLabel*>(QStringLiteral("compareNotes"));
        QVERIFY(notes && notes->isVisibleTo(&view));
        QVERIFY2(notes->text().contains(QStringLiteral("12 method(s) only in B")), qPrintable(notes->text()));
        QVERIFY(!notes->text().contains(QLatin1Char('\n')));
        QVERIFY(!notes->wordWrap());
        QVERIFY(notes->height() < 2 * notes->fontMetrics().height());
        QCOMPARE(notes->toolTip().count(QLatin1Char('\n')), 11); // every note in full, one a line
        saveShot(view, QStringLiteral("compare-many-methods.png"));
    }

    /// File › Compare… in the window: A is the current tab's program, B typed in the dialog;
    /// the comparison opens in a tab of its own.
    void fileCompareOpensATab()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy painted(&window, &MainWindow::firstPainted);
        const QString a = QString::fromStdString(etscope::test::samplePath("executorch-numpy-runtime/add.pte"));
        const QString b = QString::fromStdString(etscope::test::samplePath("executorch-rs/add.pte"));
        window.openFile(a);
        QVERIFY(painted.wait(20000) || !painted.isEmpty());
        QAction* action = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* item : menu->menu()->actions())
                    if (item->text() == QStringLiteral("Co&mpare…"))
                        action = item;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
        QString prefilled;
        QTimer::singleShot(100, &window, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            const auto edits = dialog->findChildren<QLineEdit*>();
            prefilled = edits.value(0) ? edits[0]->text() : QString();
            if (edits.size() == 2)
                edits[1]->setText(b);
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        action->trigger();
        QCOMPARE(prefilled, a);
        auto* compare = qobject_cast<CompareView*>(window.tabs()->currentWidget());
        QVERIFY(compare);
        QCOMPARE(window.tabs()->tabText(window.tabs()->currentIndex()),
            QStringLiteral("executorch-numpy-runtime/add.pte ⇄ executorch-rs/add.pte"));
        QTRY_VERIFY_WITH_TIMEOUT(compare->diff() != nullptr, 20000);
        QCOMPARE(compare->methodDiff()->movedOutOfDelegates, 1);
        QVERIFY(waitSettled(*compare));
        saveShot(window, QStringLiteral("compare-window.png"));
    }

    /// Issue 38 item 3: two QNN builds of one graph (writer-made: the ops aten_add_tensor_1,
    /// aten_relu_default_2, aten_mul_tensor_3), the first by QNN SDK 2.45.0, the second by
    /// 2.37.0 for another SoC (43, SM8550). Their inner nodes were "same" by name while the
    /// context binaries differ; now they are "unverified" and say what was compared, and the
    /// Delegate facts tab names the facts that changed.
    void qnnBuildsSayWhatWasCompared()
    {
        std::vector<QnnGraphSpec> graphs(1);
        graphs[0].name = "forward";
        graphs[0].nodes = { { 3, "aten_mul_tensor_3" }, { 2, "aten_relu_default_2" }, { 1, "aten_add_tensor_1" } };
        const auto write = [&](const QString& name, const std::string& build, std::uint32_t soc) {
            QnnWriteOptions options;
            options.buildId = build;
            options.socModel = soc;
            auto bytes
                = writeProgram(etscope::test::oneDelegateProgram("QnnBackend", writeQnnPayload(graphs, options), {}));
            const QString path = m_dir.filePath(name);
            return bytes && !writeBytesToFile(path.toStdString(), *bytes) ? path : QString();
        };
        const QString newer = write(QStringLiteral("qnn-245.pte"), "v2.45.0.fixture", 57);
        const QString older = write(QStringLiteral("qnn-237-sm8550.pte"), "v2.37.0.fixture", 43);
        QVERIFY(!newer.isEmpty() && !older.isEmpty());
        CompareView view;
        QVERIFY(compare(view, newer, older));
        const MethodDiff* method = view.methodDiff();
        QVERIFY(method);
        int unverified = 0;
        for (const NodeMatch& match : method->matches)
            if (match.a && match.a->inner && match.status == MatchStatus::Unverified) {
                QCOMPARE(match.reason,
                    std::string("names equal; the context binary's contents are not comparable node by node"));
                ++unverified;
            }
        QCOMPARE(unverified, 3); // the three ops
        QCOMPARE(method->same,
            static_cast<int>(std::count_if(method->matches.begin(), method->matches.end(),
                [](const NodeMatch& m) { return m.status == MatchStatus::Same; })));
        for (const NodeMatch& match : method->matches)
            if (match.a && match.a->inner)
                QVERIFY2(match.status != MatchStatus::Same, match.labelA.c_str());
        // The inside, expanded (small), is marked "?" node by node.
        checkMarks(view, Side::A);
        QCOMPARE(drawnWithBadge(view.view(Side::B), QStringLiteral("?")), 3);
        // The facts that changed, in a tab of their own, with what the match compared.
        view.tableTabs()->setCurrentIndex(4);
        QVERIFY(view.tableTabs()->tabText(4).startsWith(QStringLiteral("Delegate facts (")));
        const auto* note = view.findChild<QLabel*>(QStringLiteral("compareFactsNote"));
        QVERIFY(note && note->isVisibleTo(&view));
        QVERIFY2(note->text().startsWith(QStringLiteral("3 inner node(s) unverified: names equal; the context "
                                                        "binary's contents are not comparable node by node.")),
            qPrintable(note->text()));
        const Table facts = view.currentTable();
        QCOMPARE(facts.columns, (std::vector<std::string> { "backend", "fact", "A", "B", "delegates" }));
        const auto row = [&](const std::string& fact) -> const std::vector<TableCell>* {
            for (const auto& r : facts.rows)
                if (std::get<std::string>(r[1]) == fact)
                    return &r;
            return nullptr;
        };
        const auto* sdk = row("QNN SDK version");
        QVERIFY(sdk);
        QCOMPARE(std::get<std::string>((*sdk)[2]), std::string("2.45.0"));
        QCOMPARE(std::get<std::string>((*sdk)[3]), std::string("2.37.0"));
        QCOMPARE(std::get<std::string>((*sdk)[4]), std::string("forward #0"));
        const auto* soc = row("QNN SoC model (context binary)");
        QVERIFY(soc);
        QVERIFY2(std::get<std::string>((*soc)[2]).starts_with("SM8650"), std::get<std::string>((*soc)[2]).c_str());
        QVERIFY2(std::get<std::string>((*soc)[3]).starts_with("SM8550"), std::get<std::string>((*soc)[3]).c_str());
        const auto* hash = row("payload hash (FNV-1a 64)");
        QVERIFY(hash);
        QVERIFY(std::get<std::string>((*hash)[2]) != std::get<std::string>((*hash)[3]));
        saveShot(view, QStringLiteral("compare-qnn-facts.png"));
        if (!qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
            return;
        // The picture of the real case: stories260k against a copy with 1000 bytes of its QNN
        // segment's data inverted 64 KiB before its end (both context binaries decode).
        const QString real
            = QString::fromStdString(etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        QFile in(real);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        const auto document = etscope::core::openDocument(real.toStdString());
        QVERIFY(document.ok());
        const ByteRange segment = document->program->methods.front().delegates.front().payload;
        for (std::uint64_t i = 0; i < 1000; ++i)
            bytes[static_cast<qsizetype>(segment.offset + segment.size - 65536 + i)] ^= char(0xff);
        const QString copy = m_dir.filePath(QStringLiteral("stories260k_data_changed.pte"));
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size());
        out.close();
        CompareView stories;
        QVERIFY(compare(stories, real, copy));
        stories.tableTabs()->setCurrentIndex(4);
        saveShot(stories, QStringLiteral("compare-qnn-stories-facts.png"));
        stories.tableTabs()->setCurrentIndex(0);
        saveShot(stories, QStringLiteral("compare-qnn-stories-nodes.png"));
    }

    void unreadableSideSaysWhich()
    {
        CompareView view;
        QSignalSpy failed(&view, &CompareView::failed);
        view.compareFiles(m_portable, m_dir.filePath(QStringLiteral("missing.pte")));
        QVERIFY(failed.wait(10000) || !failed.isEmpty());
        const QString message = failed.first().first().toString();
        QVERIFY2(message.startsWith(QStringLiteral("B cannot be opened")), qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("missing.pte")));
    }
};

ETSCOPE_TEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
