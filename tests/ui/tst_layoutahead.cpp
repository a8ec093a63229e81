// SPDX-License-Identifier: MIT
// Layouts made ahead of the click (issue 27): the Ethos-U mobilenet's delegate (666 NPU
// operations, 669 boxes) took 400 ms of Graphviz after a double click or its toggle. Once the
// top level is drawn, the document lays out that inside in the background, as its own tab and
// opened in place; the click then finds it in the cache (or waits for the layout running), and
// the drawing is the one the click would have made.
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/layoutservice.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

constexpr int kWaitMs = 60000;

/// One request's answers, as a view would hear them.
struct Heard {
    int started = 0;
    int stopped = 0;
    std::shared_ptr<const Presentation> ready;
    LayoutAnswer answer()
    {
        LayoutAnswer answer;
        answer.started = [this](const QString&) { ++started; };
        answer.ready = [this](std::shared_ptr<const Presentation> presentation) { ready = std::move(presentation); };
        answer.stopped = [this] { ++stopped; };
        return answer;
    }
};

/// The only delegate of the one method (the sample has one EthosUBackend call).
NodeId onlyDelegate(const Document& document)
{
    for (const Node& node : document.methods.front().graph->nodes)
        if (node.kind == NodeKind::Delegate)
            return node.id;
    return NodeId::none();
}

bool sameDrawing(const Presentation& a, const Presentation& b)
{
    if (a.layout.nodes.size() != b.layout.nodes.size() || a.layout.nodes.size() != a.request.nodes.size())
        return false;
    for (std::size_t i = 0; i < a.layout.nodes.size(); ++i)
        if (a.layout.nodes[i].x != b.layout.nodes[i].x || a.layout.nodes[i].y != b.layout.nodes[i].y)
            return false;
    return true;
}

} // namespace

class TestLayoutAhead : public QObject {
    Q_OBJECT
    std::shared_ptr<const Document> m_ethosu;
    NodeId m_delegate;
    QObject m_top; ///< the method's view
    QObject m_tab; ///< the delegate's tab

    /// `controller` with the Ethos-U program and its top level drawn (as its view's first paint).
    std::shared_ptr<const Presentation> drawTopLevel(DocumentController& controller)
    {
        controller.adopt(m_ethosu);
        Heard top;
        controller.requestPresentation(&m_top, GraphContext { 0, NodeId::none() }, {}, top.answer());
        if (!QTest::qWaitFor([&] { return top.ready != nullptr; }, kWaitMs))
            return nullptr;
        return top.ready;
    }

    /// Draws the top level, starts the layouts ahead, and asks for the delegate's tab while
    /// they run (a double click right after the first paint).
    bool doubleClickWhileLaidOutAhead(DocumentController& controller, Heard& tab)
    {
        const auto shown = drawTopLevel(controller);
        if (!shown)
            return false;
        controller.layOutAhead(shown);
        if (!QTest::qWaitFor([&] { return controller.layoutsAhead() == 2; }, kWaitMs))
            return false;
        controller.requestPresentation(&m_tab, GraphContext { 0, m_delegate }, {}, tab.answer());
        return true;
    }

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        // Layouts ahead run only in a helper, as in the app (never on the in-process thread).
        LayoutService::instance()->setWorker(QStringLiteral(ETSCOPE_BINARY), {}, /*startNow=*/false);
        m_ethosu = etscope::test::sharedSampleDocument("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        QVERIFY(m_ethosu);
        m_delegate = onlyDelegate(*m_ethosu);
        QVERIFY(m_delegate.valid());
        // 666 NPU operations (`etscope info`; the STOP is no node) plus the inside's input and
        // output: over the 200 boxes from which a layout is made ahead.
        QCOMPARE(m_ethosu->methods.front().delegates.front().innerGraph->nodes.size(), std::size_t(668));
    }

    void theClickFindsItsDrawingReady()
    {
        DocumentController controller;
        const auto shown = drawTopLevel(controller);
        QVERIFY(shown);
        controller.layOutAhead(shown);
        QTRY_COMPARE_WITH_TIMEOUT(controller.layoutsAhead(), 2, kWaitMs); // the tab and the opening
        QTRY_COMPARE_WITH_TIMEOUT(controller.layoutsAhead(), 0, kWaitMs);

        // The double click: its tab drawn at once, with no Graphviz to wait for.
        Heard tab;
        controller.requestPresentation(&m_tab, GraphContext { 0, m_delegate }, {}, tab.answer());
        QVERIFY(tab.ready);
        QCOMPARE(tab.started, 0);
        QCOMPARE(tab.ready->context.delegateNode, m_delegate);
        // The toggle: opened in place at once, the 669 inner boxes in the drawing.
        Heard opened;
        controller.requestPresentation(
            &m_top, GraphContext { 0, NodeId::none() }, { m_delegate.value }, opened.answer());
        QVERIFY(opened.ready);
        QCOMPARE(opened.started, 0);
        QVERIFY(opened.ready->request.nodes.size() > 669);

        // The same drawings a click makes without a layout ahead.
        DocumentController after;
        QVERIFY(drawTopLevel(after));
        Heard tabAfter, openedAfter;
        after.requestPresentation(&m_tab, GraphContext { 0, m_delegate }, {}, tabAfter.answer());
        after.requestPresentation(
            &m_top, GraphContext { 0, NodeId::none() }, { m_delegate.value }, openedAfter.answer());
        QTRY_VERIFY_WITH_TIMEOUT(tabAfter.ready && openedAfter.ready, kWaitMs);
        QCOMPARE(tabAfter.started, 1);
        QCOMPARE(openedAfter.started, 1);
        QVERIFY(sameDrawing(*tab.ready, *tabAfter.ready));
        QVERIFY(sameDrawing(*opened.ready, *openedAfter.ready));
    }

    void aClickMeanwhileWaitsForTheLayoutAhead()
    {
        DocumentController controller;
        Heard tab;
        QVERIFY(doubleClickWhileLaidOutAhead(controller, tab));
        QCOMPARE(tab.started, 1); // "Laying out…" as for any layout
        QVERIFY(controller.layingOut(&m_tab));
        QVERIFY(controller.busy());
        QTRY_VERIFY_WITH_TIMEOUT(tab.ready, kWaitMs);
        QCOMPARE(tab.ready->context.delegateNode, m_delegate);
        QCOMPARE(tab.ready->layout.nodes.size(), tab.ready->request.nodes.size());
        QVERIFY(!controller.layingOut(&m_tab));
        QTRY_COMPARE_WITH_TIMEOUT(controller.layoutsAhead(), 0, kWaitMs);
        QVERIFY(!controller.busy());
    }

    void stoppingTheWaitLeavesTheLayoutAhead()
    {
        DocumentController controller;
        Heard tab;
        QVERIFY(doubleClickWhileLaidOutAhead(controller, tab));
        controller.stopLayout(&m_tab); // the tab's Cancel
        QCOMPARE(tab.stopped, 1);
        QVERIFY(!controller.layingOut(&m_tab));
        QVERIFY(!controller.busy());
        // Still the likeliest next click: laid out, and the next request finds it.
        QTRY_COMPARE_WITH_TIMEOUT(controller.layoutsAhead(), 0, kWaitMs);
        QVERIFY(!tab.ready);
        Heard again;
        controller.requestPresentation(&m_tab, GraphContext { 0, m_delegate }, {}, again.answer());
        QVERIFY(again.ready);
        QCOMPARE(again.started, 0);
    }

    void smallInsidesAndAnotherFileAreNotLaidOutAhead()
    {
        // stress_mlp's XNNPACK delegates are a few boxes each: laid out after the click in time.
        DocumentController small;
        small.adopt(etscope::test::sharedSampleDocument("djl-executorch-engine/stress_mlp.pte"));
        Heard top;
        small.requestPresentation(&m_top, GraphContext { 0, NodeId::none() }, {}, top.answer());
        QTRY_VERIFY_WITH_TIMEOUT(top.ready, kWaitMs);
        small.layOutAhead(top.ready);
        QTest::qWait(50);
        QCOMPARE(small.layoutsAhead(), 0);

        // Another file adopted meanwhile: the layouts ahead of the old one are dropped.
        DocumentController controller;
        const auto shown = drawTopLevel(controller);
        QVERIFY(shown);
        controller.layOutAhead(shown);
        QTRY_COMPARE_WITH_TIMEOUT(controller.layoutsAhead(), 2, kWaitMs);
        controller.adopt(etscope::test::sharedSampleDocument("djl-executorch-engine/stress_mlp.pte"));
        QCOMPARE(controller.layoutsAhead(), 0);
        QVERIFY(!controller.busy());
    }
};

ETSCOPE_TEST_MAIN(TestLayoutAhead)
#include "tst_layoutahead.moc"
