// SPDX-License-Identifier: MIT
// Work kept off the UI thread (issue 27 #13) and views that own their layout requests (#15):
// attaching a large Inspector table reads it on a worker, with progress in the status bar, a
// Cancel that leaves what was attached before, and errors naming the file; a delegate's tab
// opening while its parent lays out no longer cancels the parent's layout. An ETDump opened
// alone builds its profile, tables and timeline on a worker.
#include "core/writer/debug/syntheticdump.h"
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "tests/ui/attachwait.h"
#include "ui/common/reporttablemodel.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/etdump/etdumppage.h"
#include "ui/heatmap/heatmapmodel.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QFile>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

/// Writes an Inspector gap table of `rows` rows as `df.to_csv()` writes one (index column,
/// handles as Python tuples, the gap as a list; the columns of tst_numericgap's
/// "q.csv"): debug handles 1…40 in turn, every row a DELEGATE_CALL.
bool writeGapTable(const QString& path, int rows)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QByteArray text = ",aot_debug_handle,runtime_debug_handle,runtime_ops,gap\n";
    for (int i = 0; i < rows; ++i) {
        const QByteArray handle = QByteArray::number(i % 40 + 1);
        text += QByteArray::number(i) + ",\"(" + handle + ",)\",\"(" + handle + ",)\",['DELEGATE_CALL'],["
            + QByteArray::number((i % 1000) / 1000.0) + "]\n";
    }
    return file.write(text) == text.size();
}

/// The first delegate of `graph` with a decoded inner graph.
NodeId firstDecodedDelegate(const Graph& graph)
{
    for (const Node& node : graph.nodes)
        if (node.kind == NodeKind::Delegate && node.subgraph)
            return node.id;
    return NodeId::none();
}

/// A synthetic trace of 50 runs of 1,000 instructions, every 8th a delegate call, written by
/// core/writer and opened as the app opens a file. Per run: 1 Method::execute + 875 operator
/// calls × 2 events + 125 delegate calls × (1 + 4 inner) = 2,376 events; 118,802 in the file
/// with the two of the Default block.
std::shared_ptr<const Document> syntheticTrace(const QTemporaryDir& dir)
{
    SyntheticDumpOptions options;
    options.runs = 50;
    options.instructions = 1000;
    const std::vector<std::uint8_t> bytes = writeSyntheticETDump(options);
    const QString path = dir.filePath(QStringLiteral("trace.etdp"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()))
            != static_cast<qint64>(bytes.size()))
        return nullptr;
    file.close();
    auto document = openDocument(path.toStdString());
    return document && document.value().etdump ? std::make_shared<const Document>(std::move(document).value())
                                               : nullptr;
}

bool showsBusy(const DocumentView& view)
{
    const auto* panel = view.findChild<QWidget*>(QStringLiteral("busyPanel"));
    return panel && !panel->isHidden();
}

} // namespace

class TestBackgroundWork : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void delegateTabDoesNotCancelItsParentsLayout()
    {
        // A fresh controller: nothing cached, so both views lay out. The parent's request is
        // still running when the delegate's tab asks for its own; it used to be cancelled
        // silently, leaving "Laying out…" on the parent for good.
        DocumentController controller;
        controller.adopt(etscope::test::sharedSampleDocument("djl-executorch-engine/stress_mlp.pte"));
        DocumentView parent(&controller, GraphContext {});
        parent.resize(1200, 800);
        parent.show();
        QVERIFY(controller.layingOut(&parent));
        QVERIFY(showsBusy(parent));
        const auto document = controller.document();
        const int method = parent.context().method;
        const NodeId delegate = firstDecodedDelegate(*document->methods[static_cast<std::size_t>(method)].graph);
        QVERIFY(delegate.valid());
        QSignalSpy parentShown(&parent, &DocumentView::presentationShown);
        DocumentView inner(&controller, GraphContext { method, delegate });
        inner.resize(1200, 800);
        inner.show();
        QVERIFY(controller.layingOut(&inner));
        QVERIFY(controller.layingOut(&parent)); // still its own request
        QTRY_VERIFY_WITH_TIMEOUT(parent.presentation() && inner.presentation(), 20000);
        QCOMPARE(parentShown.count(), 1);
        QVERIFY(!parent.presentation()->context.delegateNode.valid());
        QCOMPARE(inner.presentation()->context.delegateNode, delegate);
        QVERIFY(!showsBusy(parent));
        QVERIFY(!showsBusy(inner));
        QVERIFY(!controller.layingOut(&parent) && !controller.layingOut(&inner));
    }

    void stoppingOneViewsLayoutLeavesTheOthers()
    {
        DocumentController controller;
        controller.adopt(etscope::test::sharedSampleDocument("djl-executorch-engine/stress_mlp.pte"));
        DocumentView parent(&controller, GraphContext {});
        const int method = parent.context().method;
        const NodeId delegate
            = firstDecodedDelegate(*controller.document()->methods[static_cast<std::size_t>(method)].graph);
        DocumentView inner(&controller, GraphContext { method, delegate });
        QSignalSpy stopped(&controller, &DocumentController::layoutStopped);
        QVERIFY(controller.layingOut(&inner));
        controller.stopLayout(&inner); // the delegate tab's Cancel
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 20000);
        QCOMPARE(stopped.first().at(0).value<QObject*>(), &inner);
        QVERIFY(!showsBusy(inner));
        QTRY_VERIFY_WITH_TIMEOUT(parent.presentation(), 20000);
        QVERIFY(!showsBusy(parent));
        QVERIFY(!inner.presentation());
    }

    void attachingALargeTableKeepsTheWindowResponsive()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("gap.csv"));
        constexpr int kRows = 30000;
        QVERIFY(writeGapTable(table, kRows));
        MainWindow window;
        window.show();
        QSignalSpy opened(&window, &MainWindow::documentOpened);
        window.openFile(QString::fromStdString(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte")));
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        DocumentView* view = window.currentView();
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->presentation(), 20000);
        DocumentController* controller = view->controller();
        QSignalSpy progress(controller, &DocumentController::debugProgress);
        QSignalSpy attached(&window, &MainWindow::attached);
        StallWatch stalls;
        stalls.start();
        window.attachToCurrent(AttachKind::InspectorTable, table);
        // Back at once: the table is read on a worker, and the status bar says so with a Cancel.
        QVERIFY(controller->debugBusy());
        QVERIFY(!window.workArea()->isHidden());
        QVERIFY(controller->debug().inspectorPath.isEmpty());
        QVERIFY(attached.wait(60000));
        QCOMPARE(attached.last().at(1).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!controller->debugBusy(), 60000);
        stalls.stop();
        QCOMPARE(controller->debug().inspectorPath, table);
        QCOMPARE(controller->debug().inspectorRows, std::size_t(kRows)); // as written above
        // Every row of the table is a row of the heatmap (matched or not), built off the UI thread.
        QCOMPARE(view->heatmapPanel()->model()->rowCount(), kRows);
        QVERIFY(window.workArea()->isHidden());
        bool countedRows = false;
        for (const QList<QVariant>& args : progress)
            countedRows = countedRows || args.at(1).toString().contains(QStringLiteral("rows"));
        QVERIFY(countedRows);
        // Generous for a loaded Debug build: the read alone took seconds on this thread before.
        QVERIFY2(stalls.longestMs() < 1000, qPrintable(QString::number(stalls.longestMs())));
    }

    void cancellingKeepsWhatWasAttached()
    {
        QTemporaryDir dir;
        const QString small = dir.filePath(QStringLiteral("small.csv"));
        const QString large = dir.filePath(QStringLiteral("large.csv"));
        QVERIFY(writeGapTable(small, 10));
        QVERIFY(writeGapTable(large, 400000));
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QSignalSpy opened(&window, &MainWindow::documentOpened);
        window.openFile(QString::fromStdString(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte")));
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        DocumentView* view = window.currentView();
        DocumentController* controller = view->controller();
        QCOMPARE(etscope::test::attachAndWait(*controller, AttachKind::InspectorTable, small), QString());
        QCOMPARE(view->heatmapPanel()->model()->rowCount(), 10);

        QSignalSpy progress(controller, &DocumentController::debugProgress);
        QSignalSpy attached(&window, &MainWindow::attached);
        window.attachToCurrent(AttachKind::InspectorTable, large);
        // Once the worker has counted its first rows, Esc stops it.
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(progress.begin(), progress.end(),
                [](const QList<QVariant>& args) { return args.at(1).toString().contains(QStringLiteral("rows")); }),
            60000);
        QTest::keyClick(&window, Qt::Key_Escape);
        QTRY_COMPARE_WITH_TIMEOUT(attached.count(), 1, 20000);
        QCOMPARE(attached.first().at(0).toString(), large);
        QCOMPARE(attached.first().at(1).toString(), QStringLiteral("stopped"));
        QTRY_VERIFY_WITH_TIMEOUT(!controller->debugBusy(), 20000);
        // Nothing lost: the table attached before is still attached and shown.
        QCOMPARE(controller->debug().inspectorPath, small);
        QCOMPARE(controller->debug().inspectorRows, std::size_t(10));
        QCOMPARE(view->heatmapPanel()->model()->rowCount(), 10);
        QVERIFY(window.workArea()->isHidden());
        QCOMPARE(controller->attachments().size(), 1);
    }

    void etdumpPageFillsInFromAWorker()
    {
        QTemporaryDir dir;
        const auto document = syntheticTrace(dir);
        QVERIFY(document);
        StallWatch stalls;
        stalls.start();
        ETDumpPage page(document);
        page.resize(1200, 700);
        page.show();
        // Back from the constructor with nothing built yet: the worker's result can only arrive
        // through the event loop, which has not turned since.
        QVERIFY(!page.isReady());
        QCOMPARE(page.profileModel()->rowCount(), 0);
        QVERIFY(!page.findChild<QWidget*>(QStringLiteral("etdumpBusy"))->isHidden());
        QSignalSpy ready(&page, &ETDumpPage::ready);
        QVERIFY(ready.wait(60000));
        stalls.stop();
        QVERIFY(page.isReady());
        QVERIFY(page.findChild<QWidget*>(QStringLiteral("etdumpBusy"))->isHidden());
        // Rows are per event and instruction, "count" the runs with it. From the writer's plan
        // (syntheticTrace): per run, instruction i is a DELEGATE_CALL when i % 8 == 7 (125 of
        // 1,000), around four internal events "… GEMM #1…#4"; otherwise native_call_<op> with
        // op i % 6: addmm for i % 6 == 0, 167 values 0…996, none ≡ 7 mod 8 (they are even).
        const ReportTableModel& profile = *page.profileModel();
        constexpr int kName = 1;
        constexpr int kIdentifier = 5;
        constexpr int kCount = 6;
        QMap<QString, int> rows;
        int gemm1 = 0;
        for (int row = 0; row < profile.rowCount(); ++row) {
            const QString name = profile.index(row, kName).data().toString();
            ++rows[name];
            if (profile.index(row, kIdentifier).data().toString()
                == QStringLiteral("Fully Connected (NC, F32) GEMM #1"))
                ++gemm1;
            if (name == QStringLiteral("Method::execute") || name == QStringLiteral("DELEGATE_CALL")
                || name == QStringLiteral("native_call_addmm"))
                QCOMPARE(profile.index(row, kCount).data(ReportTableModel::SortRole).toLongLong(), 50LL);
        }
        QCOMPARE(rows.value(QStringLiteral("Method::execute")), 1);
        QCOMPARE(rows.value(QStringLiteral("DELEGATE_CALL")), 125);
        QCOMPARE(rows.value(QStringLiteral("native_call_addmm")), 167);
        QCOMPARE(gemm1, 125);
        QCOMPARE(page.runsModel()->rowCount(), 51); // the Default block and 50 Execute blocks
        QVERIFY(page.timelinePanel()->timeline());
        QCOMPARE(page.timelinePanel()->timeline()->runs.size(), std::size_t(50));
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("etdumpSummary"))
                    ->text()
                    .contains(QStringLiteral("118802 profile event(s)")));
        // Generous for a loaded Debug build; building these on the UI thread took far longer.
        QVERIFY2(stalls.longestMs() < 1000, qPrintable(QString::number(stalls.longestMs())));
    }

    void etdumpPageStopsAndBuildsAgain()
    {
        QTemporaryDir dir;
        const auto document = syntheticTrace(dir);
        QVERIFY(document);
        ETDumpPage page(document);
        QSignalSpy ready(&page, &ETDumpPage::ready);
        page.stop();
        auto* stop = page.findChild<QPushButton*>(QStringLiteral("etdumpStop"));
        QVERIFY(stop);
        // The worker stops at its next step and the page says so, with a button to build again.
        QTRY_VERIFY_WITH_TIMEOUT(stop->text() != QStringLiteral("Stop"), 60000);
        QVERIFY(!page.isReady());
        QCOMPARE(ready.count(), 0);
        stop->click();
        QVERIFY(ready.wait(60000));
        QVERIFY(page.profileModel()->rowCount() > 0);
    }

    void etdumpAloneIsPaintedWhenItsPageIsFilled()
    {
        // --quit-after-paint and first-paint wait for the page's tables, not for its empty frame.
        QTemporaryDir dir;
        const auto document = syntheticTrace(dir);
        QVERIFY(document);
        MainWindow window;
        window.show();
        QSignalSpy painted(&window, &MainWindow::firstPainted);
        window.openFile(QString::fromStdString(document->path));
        QVERIFY(painted.wait(60000));
        DocumentView* view = window.currentView();
        QVERIFY(view);
        auto* page = view->findChild<ETDumpPage*>();
        QVERIFY(page && page->isReady());
    }

    void errorsNameTheFileAndTheReason()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.csv"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("aot_debug_handle,gap\n\"(1,)\",[0.5],surplus\n"); // 3 fields under 2 names
        file.close();
        DocumentController controller;
        controller.adopt(etscope::test::sharedSampleDocument("djl-executorch-engine/stress_mlp.pte"));
        const QString error = etscope::test::attachAndWait(controller, AttachKind::InspectorTable, broken);
        QVERIFY2(error.contains(broken) && error.contains(QStringLiteral("field")), qPrintable(error));
        QVERIFY(controller.debug().inspectorPath.isEmpty());
        const QString missing = dir.filePath(QStringLiteral("missing.etdp"));
        const QString gone = etscope::test::attachAndWait(controller, AttachKind::Run, missing);
        QVERIFY2(gone.contains(missing) && gone.contains(QStringLiteral("cannot open")), qPrintable(gone));
        QVERIFY(!controller.debug().run);
        QVERIFY(controller.attachments().isEmpty());
    }
};

ETSCOPE_TEST_MAIN(TestBackgroundWork)
#include "tst_backgroundwork.moc"
