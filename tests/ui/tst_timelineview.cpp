// SPDX-License-Identifier: MIT
// The timeline of a run, as a user meets it: an ETDump opened alone (its Timeline tab, one run
// at a time), a run attached to its program (the timeline under the graph, linked both ways),
// zooming, and the four exports.
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "tests/ui/attachwait.h"
#include "ui/document/debugsession.h"
#include "ui/document/documentcontroller.h"
#include "ui/etdump/etdumppage.h"
#include "ui/graph/graphscene.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/documentview.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

std::shared_ptr<const Document> load(const std::string& sample)
{
    return etscope::test::sharedSampleDocument(sample);
}

void saveShot(QWidget& widget, const QString& name)
{
    if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void etdumpAloneHasATimelinePerRun()
    {
        // add.intermediates.x3.etdp: three Execute blocks of add.pte, each Method::execute ›
        // OPERATOR_CALL › native_call_add.out (tst_timeline checks the ticks by hand: run 0's
        // Method::execute lasts 57,759 ns, runs 1 and 2 1,062 and 701 ns).
        auto document = load("generated/add/add.intermediates.x3.etdp");
        QVERIFY(document && document->etdump);
        ETDumpPage page(document);
        page.resize(1200, 700);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.isReady(), 20000); // built on a worker
        TimelinePanel* panel = page.timelinePanel();
        QVERIFY(panel && panel->timeline());
        auto* tabs = page.findChild<QTabWidget*>(QStringLiteral("etdumpTabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(panel);
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(panel->timeline()->runs.size(), std::size_t(3));
        auto* runs = panel->findChild<QComboBox*>(QStringLiteral("timelineRuns"));
        QVERIFY(runs);
        QCOMPARE(runs->count(), 3);
        QVERIFY(runs->itemText(0).contains(QStringLiteral("57.76 µs")));
        TimelineView* view = panel->view();
        QCOMPARE(view->currentRun()->index, std::size_t(0));
        QCOMPARE(view->currentRun()->eventCount(), std::size_t(3));
        runs->setCurrentIndex(2);
        QCOMPARE(view->currentRun()->index, std::size_t(2));
        QCOMPARE(view->currentRun()->endNs - view->currentRun()->startNs, std::uint64_t(701));
        // Fitted: the run fills the width right of the lane titles.
        const QRectF outer = view->eventRect(0, 0);
        QVERIFY(outer.left() >= view->gutterWidth());
        QVERIFY(outer.right() <= view->viewport()->width());
        QVERIFY(outer.width() > view->viewport()->width() - view->gutterWidth() - 40);
        // Zooming in makes the same event wider; it never zooms out past the whole run.
        view->zoomBy(4);
        QVERIFY(view->eventRect(0, 0).width() > 3 * outer.width());
        view->zoomBy(1.0 / 1000);
        QCOMPARE(view->eventRect(0, 0).width(), outer.width());
        saveShot(page, QStringLiteral("timeline-etdump.png"));
    }

    void attachedRunIsLinkedToTheGraph()
    {
        // stress_mlp with its profile: 27 events in the method lane, 2 and 13 in the two XNNPACK
        // call sites (tst_timeline), every event placed on a node.
        DocumentController controller;
        controller.adopt(load("djl-executorch-engine/stress_mlp.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        TimelinePanel* panel = view.timelinePanel();
        QVERIFY(panel->isHidden());
        QCOMPARE(etscope::test::attachAndWait(controller, AttachKind::Run,
                     QString::fromStdString(etscope::test::samplePath("generated/stress_mlp/stress_mlp.profile.etdp"))),
            QString());
        QVERIFY(panel->isVisible());
        TimelineView* timeline = panel->view();
        const TimelineRun* run = timeline->currentRun();
        QVERIFY(run);
        QCOMPARE(run->lanes.size(), std::size_t(3));
        QCOMPARE(run->lanes[2].events.size(), std::size_t(13));
        QCOMPARE(QString::fromStdString(run->lanes[2].backendId), QStringLiteral("XnnpackBackend"));

        // Timeline → graph: clicking an XNNPACK event selects its inner node (the delegate is
        // expanded for it).
        const TimelineEvent& gemm = run->lanes[2].events[1];
        QVERIFY(gemm.placement.matched);
        timeline->zoomBy(50);
        timeline->showNode(gemm.placement.origin); // scrolls it into view
        const QRectF box = timeline->eventRect(2, 1);
        QVERIFY(timeline->viewport()->rect().contains(box.center().toPoint()));
        QCOMPARE(timeline->eventAt(box.center().toPoint()), std::optional(std::pair(2, 1)));
        QSignalSpy relaid(&view, &DocumentView::presentationShown);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, box.center().toPoint());
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == gemm.placement.origin, 20000);

        // Graph → timeline: selecting a kernel node marks its events (instruction span and kernel).
        const TimelineEvent* kernel = nullptr;
        for (const TimelineEvent& event : run->lanes[0].events)
            if (event.kind == ProfileRow::Scope::Kernel && event.placement.matched) {
                kernel = &event;
                break;
            }
        QVERIFY(kernel);
        view.selectNode(kernel->placement.origin);
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == kernel->placement.origin, 20000);
        QVERIFY(timeline->markedCount() >= 1);
        saveShot(view, QStringLiteral("timeline-attached.png"));

        // The marks go with the selection (issue 27: they outlived it), and so does the outline
        // of the event clicked before.
        timeline->showNode(gemm.placement.origin); // scrolls it into view again
        const QRectF again = timeline->eventRect(2, 1);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, again.center().toPoint());
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == gemm.placement.origin, 20000);
        QVERIFY(timeline->hasSelectedEvent());
        view.scene()->clearSelection();
        QTRY_VERIFY(!view.selectedNode());
        QCOMPARE(timeline->markedCount(), 0);
        QVERIFY(!timeline->hasSelectedEvent());
    }

    void exportsWhatItShows()
    {
        auto document = load("generated/stress_mlp/stress_mlp.profile.etdp");
        QVERIFY(document && document->etdump);
        ETDumpPage page(document);
        page.resize(1200, 700);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.isReady(), 20000); // built on a worker
        const TimelinePanel* panel = page.timelinePanel();
        QTemporaryDir dir;
        QString error;
        QVERIFY2(panel->exportTo(dir.filePath(QStringLiteral("t.png")), &error), qPrintable(error));
        const QImage image(dir.filePath(QStringLiteral("t.png")));
        // Never shown: the whole run, every lane, 1,000 px wide.
        QCOMPARE(image.height(), panel->view()->contentHeight());
        QCOMPARE(image.width(), 1000);
        QVERIFY2(panel->exportTo(dir.filePath(QStringLiteral("t.svg")), &error), qPrintable(error));
        QFile svg(dir.filePath(QStringLiteral("t.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("Method::execute")); // text stays text
        QVERIFY2(panel->exportTo(dir.filePath(QStringLiteral("t.csv")), &error), qPrintable(error));
        QFile csv(dir.filePath(QStringLiteral("t.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readLine().startsWith("run,lane,depth,name,kind,start_us,duration_us"));
        // One line per event after the header: 27 + 2 + 13 events.
        int lines = 0;
        while (!csv.atEnd())
            lines += csv.readLine().isEmpty() ? 0 : 1;
        QCOMPARE(lines, 42);
        QVERIFY2(panel->exportTo(dir.filePath(QStringLiteral("t.json")), &error), qPrintable(error));
        QFile json(dir.filePath(QStringLiteral("t.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonDocument trace = QJsonDocument::fromJson(json.readAll());
        QVERIFY(trace.isObject() && trace.object().contains(QStringLiteral("traceEvents")));
        QVERIFY(!panel->exportTo(dir.filePath(QStringLiteral("t.pdf")), &error));
        QVERIFY(error.contains(QStringLiteral(".png or .svg")));
    }
};

ETSCOPE_TEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
