// SPDX-License-Identifier: MIT
// The first divergence in the app (issue 24 #2): attach a run and a reference ETDump of one
// program, and the first node whose gap crosses the default thresholds (snr < 20 dB or rel > 0.1)
// carries a "① first divergence" mark, the heatmap says where and why, and "Go to" (Go › First
// Divergence) selects it, expanding its delegate or opening its group first.
//
// Fixtures are the writer's (core/writer/debug/gapfixtures.h): the XNNPACK-lowered MLP
// `0 DelegateCall(FC, Clamp, FC, Clamp) 1 addmm 2 _softmax`. Its planted run adds 4 to element 0
// of the logits the addmm #1 writes; the unplanted run of the same program is the reference, so
// the delegate's output and everything before #1 agree exactly and #1 is the first divergence.
// The delegate case writes its own dumps here: the XNNPACK operators logged as delegate-internal
// events by their profiling names (the runtime's way: the k-th "Fully Connected" event is the
// k-th XNNFullyConnected node), the reference with the values of the float forward pass, the run
// with 4 added to element 0 of the second Fully Connected's output.
#include "core/debug/etdump.h"
#include "core/document/document.h"
#include "core/graph/grouping.h"
#include "core/pte/program.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"
#include "core/writer/transformermodels.h"
#include "tests/common/testsupport.h"
#include "tests/ui/attachwait.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphscene.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/window/documentview.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

bool writeFile(const QString& path, const std::vector<std::uint8_t>& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()))
        == static_cast<qint64>(bytes.size());
}

/// Where a test writes its files: a temporary folder, or with ETSCOPE_SHOTS set, a folder of
/// that name there, kept so that the app can open it (`etscope DIR/lowered.pte` attaches
/// lowered.etdp and lowered.reference.etdp beside it).
struct Folder {
    QTemporaryDir temp;
    QString path;
    explicit Folder(const QString& name)
    {
        path = temp.path();
        if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS")) {
            path = qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name;
            QDir().mkpath(path);
        }
    }
    QString filePath(const QString& file) const { return path + QLatin1Char('/') + file; }
};

/// Writes `dump` as "<stem>.etdp" with "<stem>.debug.bin" beside it (what attach reads).
QString writeDump(const Folder& dir, const QString& stem, const std::vector<std::uint8_t>& etdump,
    const std::vector<std::uint8_t>& buffer)
{
    const QString path = dir.filePath(stem + QStringLiteral(".etdp"));
    if (!writeFile(path, etdump) || !writeFile(dir.filePath(stem + QStringLiteral(".debug.bin")), buffer))
        return {};
    return path;
}

/// Debug events of one Execute block, laid out as the runtime writes them (generated/README.md).
class Dump {
public:
    void tensor(int instruction, std::vector<std::int64_t> sizes, const std::vector<double>& values,
        const std::string& delegateName = {}, bool output = false)
    {
        DebugEvent event = tensorDebugEvent(
            m_buffer, InstructionId(instruction), scalar_type::Float, std::move(sizes), values, output);
        event.delegateDebugIdStr = delegateName;
        event.sequence = m_block.debugEvents.size();
        m_block.debugEvents.push_back(std::move(event));
    }
    QString write(const Folder& dir, const QString& stem)
    {
        m_block.name = "Execute";
        return writeDump(dir, stem, writeETDump({ m_block }), m_buffer.bytes());
    }

private:
    RunBlock m_block;
    DebugBufferWriter m_buffer { 64, 0 };
};

/// A view on `program` (written to `dir`), waiting for its first layout.
struct Fixture {
    DocumentController controller;
    std::unique_ptr<DocumentView> view;

    bool open(const Folder& dir, const ProgramSpec& spec, const QString& name)
    {
        auto bytes = writeProgram(spec);
        const QString path = dir.filePath(name);
        if (!bytes || !writeFile(path, bytes.value()))
            return false;
        auto document = openDocument(path.toStdString());
        if (!document)
            return false;
        controller.adopt(std::make_shared<const Document>(std::move(document).value()));
        view = std::make_unique<DocumentView>(&controller, GraphContext {});
        view->resize(1400, 900);
        view->show();
        QSignalSpy shown(view.get(), &DocumentView::presentationShown);
        return view->presentation() || shown.wait(20000);
    }
    QString attach(const QString& run, const QString& reference)
    {
        const QString a = etscope::test::attachAndWait(controller, AttachKind::Run, run);
        if (!a.isEmpty())
            return a;
        return etscope::test::attachAndWait(controller, AttachKind::Reference, reference);
    }
    /// Opens `planted`'s program as STEM.pte and attaches its run (STEM.etdp) against the run of
    /// `clean`, the same build without the planted offset (STEM.reference.etdp). Empty when done.
    QString openPlanted(const Folder& dir, const GapBuild& planted, const GapBuild& clean, const QString& stem)
    {
        if (!open(dir, planted.program, stem + QStringLiteral(".pte")))
            return stem + QStringLiteral(".pte does not open");
        const QString run = writeDump(dir, stem, planted.etdump, planted.debugBuffer);
        const QString ref = writeDump(dir, stem + QStringLiteral(".reference"), clean.etdump, clean.debugBuffer);
        return attach(run, ref);
    }
    const Graph& graph() const { return view->presentation()->methodGraph(); }
    HeatmapPanel& heatmap() const { return *view->heatmapPanel(); }
    std::optional<QString> badge(const NodeOrigin& origin) const
    {
        const auto it = view->scene()->marks().find(GraphScene::keyOf(origin));
        if (it == view->scene()->marks().end())
            return std::nullopt;
        return it->second.badge;
    }
};

/// The top-level node of `instruction`.
NodeId nodeOfInstruction(const Graph& graph, int instruction)
{
    for (const Node& node : graph.nodes)
        if ((node.kind == NodeKind::Operator || node.kind == NodeKind::Delegate)
            && node.instruction.value == instruction)
            return node.id;
    return NodeId::none();
}

void saveShot(QWidget& widget, const QString& name)
{
    if (!qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        return;
    // Only when saving pictures for people to look at (never in CI): let queued repaints land.
    QTest::qWait(100);
    widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

} // namespace

class TestFirstDivergence : public QObject {
    Q_OBJECT
private slots:
    /// Planted at the top level: the addmm #1 after the delegate.
    void topLevelDivergenceIsMarkedAndSelected()
    {
        Folder dir(QStringLiteral("top"));
        const GapFixtures planted = makeGapFixtures();
        const GapFixtures reference = makeGapFixtures({ 8, false, 0 });
        Fixture f;
        QCOMPARE(f.openPlanted(dir, planted.lowered, reference.lowered, QStringLiteral("lowered")), QString());

        const NodeId addmm = nodeOfInstruction(f.graph(), 1);
        QVERIFY(addmm.valid());
        QCOMPARE(f.graph().node(addmm).label, std::string("aten::addmm.out"));
        const NodeOrigin target { addmm, NodeId::none() };
        QCOMPARE(f.view->firstDivergence(), std::optional<NodeOrigin>(target));
        // The crossing is the first default threshold the row crosses: snr, far below 20 dB
        // (an error of 4 on logits of magnitude < 0.3).
        const QString text = f.heatmap().divergenceText();
        QVERIFY2(
            text.startsWith(QStringLiteral("First divergence: forward › #1 aten::addmm.out — snr ")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral(" dB < 20 dB")), qPrintable(text));
        QVERIFY(f.heatmap().divergenceButton()->isVisibleTo(&f.heatmap()));
        // The mark is on the addmm alone (the delegate before it agrees exactly).
        QCOMPARE(f.badge(target), std::optional<QString>(QStringLiteral("① first divergence")));
        QCOMPARE(f.view->scene()->marks().size(), std::size_t(1));
        NodeItem* item = f.view->scene()->itemFor(target);
        QVERIFY(item && item->mark());

        QVERIFY(!f.view->selectedNode());
        QTest::mouseClick(f.heatmap().divergenceButton(), Qt::LeftButton);
        QTRY_COMPARE(f.view->selectedNode(), std::optional<NodeOrigin>(target));
        saveShot(*f.view, QStringLiteral("firstdivergence-top.png"));

        // The menu's way to the same place, from another selection.
        f.view->selectNode({ nodeOfInstruction(f.graph(), 2), NodeId::none() });
        QVERIFY(f.view->selectedNode() != std::optional<NodeOrigin>(target));
        QVERIFY(f.view->goToFirstDivergence());
        QTRY_COMPARE(f.view->selectedNode(), std::optional<NodeOrigin>(target));
    }

    /// A run against itself: no divergence, and the panel says how many rows it compared.
    void identicalRunsHaveNoDivergence()
    {
        Folder dir(QStringLiteral("identical"));
        const GapFixtures fixtures = makeGapFixtures();
        Fixture f;
        QVERIFY(f.open(dir, fixtures.lowered.program, QStringLiteral("lowered.pte")));
        const QString run
            = writeDump(dir, QStringLiteral("lowered"), fixtures.lowered.etdump, fixtures.lowered.debugBuffer);
        const QString ref = writeDump(
            dir, QStringLiteral("lowered.reference"), fixtures.lowered.etdump, fixtures.lowered.debugBuffer);
        QCOMPARE(f.attach(run, ref), QString());
        // Rows, as the fixture logs them: the delegate's output r1 (its argument x is an input,
        // not compared), the addmm, the softmax and the program output: 4.
        QCOMPARE(f.heatmap().divergenceText(),
            QStringLiteral("No divergence: 4 rows compared, none crosses snr < 20 dB or rel > 0.1."));
        QVERIFY(!f.heatmap().divergenceButton()->isVisibleTo(&f.heatmap()));
        QVERIFY(f.view->scene()->marks().empty());
        QVERIFY(!f.view->goToFirstDivergence());
    }

    /// Planted inside the XNNPACK delegate: the second Fully Connected. The collapsed delegate
    /// says "① inside"; "Go to" expands it and selects the inner node, which carries the mark.
    void divergenceInsideADelegateExpandsIt()
    {
        Folder dir(QStringLiteral("delegate"));
        const GapFixtures fixtures = makeGapFixtures();
        Fixture f;
        QVERIFY(f.open(dir, fixtures.lowered.program, QStringLiteral("lowered.pte")));
        const NodeId delegate = nodeOfInstruction(f.graph(), 0);
        QVERIFY(delegate.valid());
        const Node& call = f.graph().node(delegate);
        QVERIFY(call.kind == NodeKind::Delegate && call.subgraph);
        // The second XNNFullyConnected of the inner graph (the writer's FC, Clamp, FC, Clamp).
        NodeId secondFc = NodeId::none();
        int fcs = 0;
        for (const Node& inner : call.subgraph->nodes)
            if (inner.opType == "XNNFullyConnected" && ++fcs == 2)
                secondFc = inner.id;
        QVERIFY(secondFc.valid());

        // The float forward pass the fixture exposes the start of: x, h0 = layer 0 (x); the rest
        // of the values only need to agree between the two dumps, so they are made up here.
        const std::int64_t h = static_cast<std::int64_t>(fixtures.input.size());
        std::vector<double> r0(fixtures.h0);
        for (double& v : r0)
            v = std::max(v, 0.0);
        std::vector<double> h1(static_cast<std::size_t>(h));
        for (std::size_t i = 0; i < h1.size(); ++i)
            h1[i] = 0.5 - 0.1 * static_cast<double>(i);
        const auto writeRun = [&](const QString& stem, double plant) {
            Dump d;
            std::vector<double> wrong = h1;
            wrong[0] += plant;
            std::vector<double> r1 = wrong;
            for (double& v : r1)
                v = std::max(v, 0.0);
            d.tensor(0, { 1, h }, fixtures.h0, "Fully Connected (NC, F32) GEMM #1");
            d.tensor(0, { 1, h }, r0, "Clamp (NC, F32) #1");
            d.tensor(0, { 1, h }, wrong, "Fully Connected (NC, F32) GEMM #2");
            d.tensor(0, { 1, h }, r1, "Clamp (NC, F32) #2");
            return d.write(dir, stem);
        };
        const QString run = writeRun(QStringLiteral("lowered"), 4.0);
        const QString ref = writeRun(QStringLiteral("lowered.reference"), 0.0);
        QCOMPARE(f.attach(run, ref), QString());

        const NodeOrigin target { delegate, secondFc };
        QCOMPARE(f.view->firstDivergence(), std::optional<NodeOrigin>(target));
        const QString text = f.heatmap().divergenceText();
        QVERIFY2(text.startsWith(QStringLiteral("First divergence: forward › #0 ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("XNNFullyConnected")), qPrintable(text));
        // Collapsed: the delegate's box says what it hides; the inner node has its mark waiting.
        QVERIFY(!f.view->expanded().count(delegate.value));
        QCOMPARE(f.badge({ delegate, NodeId::none() }), std::optional<QString>(QStringLiteral("① inside")));
        QCOMPARE(f.badge(target), std::optional<QString>(QStringLiteral("① first divergence")));
        QVERIFY(f.view->scene()->itemFor({ delegate, NodeId::none() })->mark());
        saveShot(*f.view, QStringLiteral("firstdivergence-delegate-collapsed.png"));

        QSignalSpy shown(f.view.get(), &DocumentView::presentationShown);
        QTest::mouseClick(f.heatmap().divergenceButton(), Qt::LeftButton);
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QVERIFY(f.view->expanded().count(delegate.value));
        QTRY_COMPARE(f.view->selectedNode(), std::optional<NodeOrigin>(target));
        NodeItem* item = f.view->scene()->itemFor(target);
        QVERIFY(item && item->mark());
        QCOMPARE(item->mark()->badge, QStringLiteral("① first divergence"));
        saveShot(*f.view, QStringLiteral("firstdivergence-delegate-expanded.png"));
    }

    /// Inside a delegate that logs its own intermediate outputs the QNN way (issue 24 #4): the
    /// writer's inside run, the delegate logging its four inner nodes' outputs under integer
    /// identifiers 0…3, against the same build's run without the planted offset. No ETRecord is
    /// attached, so the identifiers fall on XNNPACK's node order (id k → the payload's node k:
    /// FC, Clamp, FC, Clamp). The second FullyConnected (element 0 off by 4) is the first
    /// divergence; expanded, the inner nodes carry heat — the two before it none worse than
    /// identical, it and the Clamp after it the worst.
    void delegateLoggedOutputsColourInnerNodes()
    {
        Folder dir(QStringLiteral("inside"));
        const GapFixtures planted = makeGapFixtures();
        const GapFixtures reference = makeGapFixtures({ 8, false, 0 });
        Fixture f;
        QCOMPARE(f.openPlanted(dir, planted.inside, reference.inside, QStringLiteral("inside")), QString());
        const NodeId delegate = nodeOfInstruction(f.graph(), 0);
        QVERIFY(delegate.valid());
        const Node& call = f.graph().node(delegate);
        QVERIFY(call.kind == NodeKind::Delegate && call.subgraph);
        std::vector<NodeId> operators;
        for (const Node& inner : call.subgraph->nodes)
            if (inner.kind == NodeKind::Operator)
                operators.push_back(inner.id);
        QCOMPARE(operators.size(), std::size_t(4));

        const NodeOrigin target { delegate, operators[2] };
        QCOMPARE(f.view->firstDivergence(), std::optional<NodeOrigin>(target));
        const QString text = f.heatmap().divergenceText();
        QVERIFY2(
            text.startsWith(QStringLiteral("First divergence: forward › #0 XnnpackBackend › XNNFullyConnected (node ")),
            qPrintable(text));
        // Heat per inner node (keys as GraphScene::keyOf): all four inner nodes are coloured,
        // the two before the planted offset (mse 0) below the planted one, and the collapsed
        // delegate shows the worst inside it.
        const GraphHeat heat = f.heatmap().graphHeat();
        for (const NodeId id : operators)
            QVERIFY(heat.count({ delegate.value, id.value }));
        const double worst = heat.at({ delegate.value, operators[2].value }).position;
        QVERIFY(heat.at({ delegate.value, operators[0].value }).position < worst);
        QVERIFY(heat.at({ delegate.value, operators[1].value }).position < worst);
        QCOMPARE(heat.at({ delegate.value, NodeId::none().value }).position, worst);

        QSignalSpy shown(f.view.get(), &DocumentView::presentationShown);
        QVERIFY(f.view->goToFirstDivergence());
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QVERIFY(f.view->expanded().count(delegate.value));
        QTRY_COMPARE(f.view->selectedNode(), std::optional<NodeOrigin>(target));
        NodeItem* item = f.view->scene()->itemFor(target);
        QVERIFY(item && item->mark());
        QVERIFY(!item->heatLabel().isEmpty());
        saveShot(*f.view, QStringLiteral("firstdivergence-inside-logged.png"));

        // The delegate's own tab draws the inner graph alone, coloured by the same rows.
        DocumentView tab(&f.controller, GraphContext { 0, delegate });
        tab.resize(1000, 700);
        tab.show();
        QSignalSpy tabShown(&tab, &DocumentView::presentationShown);
        QVERIFY(tab.presentation() || tabShown.wait(20000));
        QTRY_VERIFY(tab.scene()->itemFor(target) && !tab.scene()->itemFor(target)->heatLabel().isEmpty());
        // mse 4²/8 = 2 (the tab formats its own table's numbers: "2.0").
        QVERIFY2(tab.scene()->itemFor(target)->heatLabel().startsWith(QStringLiteral("2.0")),
            qPrintable(tab.scene()->itemFor(target)->heatLabel()));
        saveShot(tab, QStringLiteral("firstdivergence-inside-tab.png"));
    }

    /// A long method drawn as closed groups: the closed group holding the divergence says so,
    /// and "Go to" opens it. The dumps log a [4] tensor for every 50th instruction (the gap
    /// compares run against reference; the program's own shapes only draw a warning), the run
    /// with element 0 off by 4 at the first instruction of group 3.
    void divergenceInsideAClosedGroupOpensIt()
    {
        Folder dir(QStringLiteral("group"));
        TransformerOptions options;
        options.instructions = 3000;
        Fixture f;
        QVERIFY(f.open(dir, makeTransformerProgram(options).program.spec, QStringLiteral("long.pte")));
        const auto presentation = f.view->presentation();
        QVERIFY(presentation->grouping && presentation->grouping->groups.size() >= 4);
        const NodeId hidden = [&] {
            for (const NodeId member : presentation->grouping->groups[3].members)
                if (f.graph().node(member).kind == NodeKind::Operator)
                    return member;
            return NodeId::none();
        }();
        QVERIFY(hidden.valid());
        const int planted = f.graph().node(hidden).instruction.value;
        const auto writeRun = [&](const QString& stem, double plant) {
            Dump d;
            for (int i = 0; i < planted; i += 50)
                d.tensor(i, { 4 }, { 1.0, 2.0, 3.0, 4.0 });
            d.tensor(planted, { 4 }, { 1.0 + plant, 2.0, 3.0, 4.0 });
            return d.write(dir, stem);
        };
        QCOMPARE(f.attach(writeRun(QStringLiteral("lowered"), 4.0), writeRun(QStringLiteral("lowered.reference"), 0.0)),
            QString());
        const NodeOrigin target { hidden, NodeId::none() };
        QCOMPARE(f.view->firstDivergence(), std::optional<NodeOrigin>(target));
        QCOMPARE(f.badge(NodeOrigin::ofGroup(3)), std::optional<QString>(QStringLiteral("① inside")));
        QVERIFY(f.view->scene()->itemFor(NodeOrigin::ofGroup(3))->mark());

        QSignalSpy shown(f.view.get(), &DocumentView::presentationShown);
        QVERIFY(f.view->goToFirstDivergence());
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QVERIFY(f.view->expanded().count(expandKeyOfGroup(3)));
        QTRY_COMPARE(f.view->selectedNode(), std::optional<NodeOrigin>(target));
        QVERIFY(f.view->scene()->itemFor(target)->mark());
    }
};

ETSCOPE_TEST_MAIN(TestFirstDivergence)
#include "tst_firstdivergence.moc"
