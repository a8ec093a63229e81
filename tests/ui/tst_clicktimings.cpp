// SPDX-License-Identifier: MIT
// `--timings` of clicks (ui/graph/clicktiming.h, issue 27): a view offscreen, driven with real
// mouse events and the search panel, prints each click phase once — "etscope timing: <phase>
// <number> ms" and its "<phase>-stall" — when its result is painted, nothing for a click that
// closes, nothing with --timings off. Times are not asserted (that is bench/click_timings.sh).
// Also: opening a group with small constants inline (the app's default) lays out only the group
// (the drawing to open from was never found under that option).
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"
#include "tests/common/documentbytes.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/graph/clicktiming.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/graph/presentation.h"
#include "ui/search/searchmodel.h"
#include "ui/window/documentview.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>
#include <memory>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

/// `forward` of 2,000 instructions: drawn as groups (more than 1,200 boxes), an XNNPACK
/// partition every 8 layers (decoded: ⊕ expands it in place).
std::shared_ptr<const Document> longProgram()
{
    MlpOptions options;
    options.nodes = 2000;
    auto bytes = writeProgram(makeMlpProgram(options).spec);
    return bytes ? etscope::test::sharedDocumentFromBytes(*bytes, "clicks.pte") : nullptr;
}

/// What --timings printed (to a file of the test's own).
class Output {
public:
    Output()
        : m_file(std::tmpfile())
    {
        timings::setOutput(m_file);
    }
    ~Output()
    {
        timings::setOutput(nullptr);
        if (m_file)
            std::fclose(m_file);
    }
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;

    bool valid() const { return m_file != nullptr; }

    QString text() const
    {
        std::fflush(m_file);
        const long size = std::ftell(m_file);
        std::rewind(m_file);
        QByteArray bytes(size, '\0');
        const std::size_t read = std::fread(bytes.data(), 1, static_cast<std::size_t>(size), m_file);
        std::fseek(m_file, 0, SEEK_END);
        return QString::fromUtf8(bytes.left(static_cast<qsizetype>(read)));
    }

    /// Lines "etscope timing: <phase> <number> ms" of exactly this phase.
    int count(const QString& phase) const
    {
        const QRegularExpression line(
            QStringLiteral("^etscope timing: %1 [0-9]+\\.[0-9] ms$").arg(QRegularExpression::escape(phase)),
            QRegularExpression::MultilineOption);
        int n = 0;
        for (auto it = line.globalMatch(text()); it.hasNext(); it.next())
            ++n;
        return n;
    }

private:
    std::FILE* m_file;
};

/// The position of `local` (item coordinates) in the view's viewport, the item scrolled there.
QPoint inView(GraphView* view, QGraphicsItem* item, const QPointF& local)
{
    view->centreOn(item->mapToScene(local));
    return view->mapFromScene(item->mapToScene(local));
}

bool settled()
{
    return QTest::qWaitFor([] { return !clicktiming::waiting(); }, 30000);
}

} // namespace

class TestClickTimings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        timings::setEnabled(true);
    }

    void cleanupTestCase() { timings::setEnabled(false); }

    void eachClickPrintsItsPhaseOnce()
    {
        Output output;
        QVERIFY(output.valid());
        DocumentController controller;
        controller.adopt(longProgram());
        QVERIFY(controller.document());
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(QTest::qWaitFor([&] { return view.presentation() != nullptr; }, 30000));
        QTest::qWait(100);
        GraphView* graph = view.graphView();

        // group-open: ⊕ of the second group's box.
        NodeItem* group = view.scene()->itemFor(NodeOrigin::ofGroup(1));
        QVERIFY(group && group->canExpand());
        QTest::mouseClick(
            graph->viewport(), Qt::LeftButton, {}, inView(graph, group, group->expandButtonRect().center()));
        QVERIFY(clicktiming::waiting());
        QVERIFY(settled());
        QVERIFY(view.expanded().count(expandKeyOfGroup(1)));
        QCOMPARE(output.count(QStringLiteral("group-open")), 1);
        QCOMPARE(output.count(QStringLiteral("group-open-stall")), 1);

        // delegate-expand: ⊕ of an XNNPACK call inside the open group.
        NodeItem* delegate = nullptr;
        for (NodeItem* item : view.scene()->nodeItems())
            if (item->canExpand() && item->origin().group() < 0 && !item->origin().inner.valid())
                delegate = item;
        QVERIFY(delegate);
        const NodeOrigin delegateOrigin = delegate->origin();
        QTest::mouseClick(
            graph->viewport(), Qt::LeftButton, {}, inView(graph, delegate, delegate->expandButtonRect().center()));
        QVERIFY(settled());
        QVERIFY(view.expanded().count(delegateOrigin.top.value));
        QCOMPARE(output.count(QStringLiteral("delegate-expand")), 1);
        QCOMPARE(output.count(QStringLiteral("delegate-expand-stall")), 1);

        // Closing it (⊖ of its frame) is no click timed.
        ClusterItem* frame = nullptr;
        for (ClusterItem* cluster : view.scene()->clusterItems())
            if (cluster->owner() == delegateOrigin)
                frame = cluster;
        QVERIFY(frame);
        const QPointF button = frame->collapseButtonRect().center();
        graph->centreOn(button);
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, graph->mapFromScene(button));
        QVERIFY(!view.expanded().count(delegateOrigin.top.value));
        QVERIFY(!clicktiming::waiting());
        QVERIFY(shown.count() > 0 || shown.wait(30000));
        QCOMPARE(output.count(QStringLiteral("delegate-expand")), 1);

        // search-jump: the last hit of an op type, in a group still closed.
        view.runSearch(QStringLiteral("aten::relu"));
        const int rows = view.searchModel()->rowCount();
        QVERIFY(rows > 1);
        const NodeOrigin hit = view.searchModel()->hits()[static_cast<std::size_t>(rows - 1)].origin;
        QVERIFY(view.presentation()->closedGroupOf(hit.top) >= 0);
        view.activateSearchResult(rows - 1);
        QVERIFY(settled());
        QVERIFY(view.selectedNode() == hit);
        QCOMPARE(output.count(QStringLiteral("search-jump")), 1);
        QCOMPARE(output.count(QStringLiteral("search-jump-stall")), 1);
        // The same hit again, already selected where it is: still one line more.
        view.activateSearchResult(rows - 1);
        QVERIFY(settled());
        QCOMPARE(output.count(QStringLiteral("search-jump")), 2);

        // delegate-tab: a double-click on a delegate opens it in a tab of its own (as MainWindow
        // does with openDelegateRequested), timed until that tab is painted.
        std::unique_ptr<DocumentView> tab;
        connect(&view, &DocumentView::openDelegateRequested, this, [&](int method, NodeId node) {
            tab = std::make_unique<DocumentView>(&controller, GraphContext { method, node });
            tab->resize(800, 600);
            tab->show();
        });
        NodeItem* closedDelegate = nullptr;
        for (NodeItem* item : view.scene()->nodeItems())
            if (item->canExpand() && item->origin().group() < 0 && !item->origin().inner.valid())
                closedDelegate = item;
        QVERIFY(closedDelegate);
        QTest::mouseDClick(graph->viewport(), Qt::LeftButton, {}, inView(graph, closedDelegate, QPointF()));
        QVERIFY(tab);
        QVERIFY(settled());
        QCOMPARE(tab->context().delegateNode, closedDelegate->origin().top);
        QCOMPARE(output.count(QStringLiteral("delegate-tab")), 1);
        QCOMPARE(output.count(QStringLiteral("delegate-tab-stall")), 1);
        // Every click above printed its own phase once; none printed another's.
        QCOMPARE(output.count(QStringLiteral("group-open")), 1);
        QCOMPARE(output.count(QStringLiteral("delegate-expand")), 1);
    }

    void silentWithoutTimings()
    {
        Output output;
        timings::setEnabled(false);
        DocumentController controller;
        controller.adopt(longProgram());
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(QTest::qWaitFor([&] { return view.presentation() != nullptr; }, 30000));
        NodeItem* group = view.scene()->itemFor(NodeOrigin::ofGroup(1));
        QVERIFY(group);
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QTest::mouseClick(view.graphView()->viewport(), Qt::LeftButton, {},
            inView(view.graphView(), group, group->expandButtonRect().center()));
        QVERIFY(!clicktiming::waiting());
        QVERIFY(shown.wait(30000));
        QTest::qWait(50);
        timings::setEnabled(true);
        QCOMPARE(output.text(), QString());
    }

    /// With small constants inline (View › Show Small Constants Inline, on by default), the
    /// drawing of the closed groups is found and only the opened group goes to Graphviz: its
    /// plan's part holds the group's members alone, fewer boxes than the whole opened drawing.
    void openingFromTheDrawingBeforeWithConstantsInline()
    {
        const bool was = smallConstantsInline();
        setSmallConstantsInline(true);
        const auto document = longProgram();
        QVERIFY(document);
        int forward = -1;
        for (std::size_t m = 0; m < document->program->methods.size(); ++m)
            if (document->program->methods[m].name == "forward")
                forward = static_cast<int>(m);
        QVERIFY(forward >= 0);
        const GraphContext context { forward, NodeId::none() };
        auto closed = preparePresentation(document, context, {});
        QVERIFY(closed->smallConstantsInline);
        QVERIFY(closed->indexOf(NodeOrigin::ofGroup(1)) >= 0);
        QVERIFY(closed->key().endsWith(QStringLiteral(":inline")));
        // A laid-out drawing: every box somewhere (planOpening needs a layout of each box).
        closed->layout.nodes.resize(closed->request.nodes.size());
        closed->layout.clusters.resize(closed->request.clusters.size());
        const std::shared_ptr<const Presentation> base = closed;
        auto opened = preparePresentation(document, context, { expandKeyOfGroup(1) }, closed->grouping);
        const auto plan = planOpening(*opened,
            [&](const QString& key) { return key == base->key() ? base : std::shared_ptr<const Presentation>(); });
        setSmallConstantsInline(was);
        QVERIFY(plan);
        QCOMPARE(plan->base, base);
        QVERIFY(!plan->part.request.nodes.empty());
        QVERIFY(plan->part.request.nodes.size() < opened->request.nodes.size());
    }
};

ETSCOPE_TEST_MAIN(TestClickTimings)
#include "tst_clicktimings.moc"
