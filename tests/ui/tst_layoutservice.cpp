// SPDX-License-Identifier: MIT
// The layout service runs Graphviz in helper processes (etscope --layout-worker): the same
// geometry as in process, Cancel kills a running layout, a crash is retried with safer
// attributes, and no helper means layouts still happen in process.
#include "tests/common/testsupport.h"
#include "ui/document/layoutservice.h"
#include "ui/document/whenfinished.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

#include <atomic>
#include <new>
#include <optional>
#include <stdexcept>

using namespace etscope;
using namespace etscope::core;

namespace {

/// A chain with a cluster and a skip edge: quick to lay out.
LayoutRequest smallRequest()
{
    LayoutRequest request;
    request.nodes = { { 80, 30, -1 }, { 120, 36, -1 }, { 100, 36, 0 }, { 100, 36, 0 }, { 80, 30, -1 } };
    request.edges = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 1, 4 } };
    request.clusters = { { "delegate", -1, false } };
    return request;
}

/// A graph dot needs many seconds for: a long chain whose every box also reads one shared
/// constant, the shape that made a 5,000-node delegate take 16 s before constants were copied.
LayoutRequest slowRequest()
{
    LayoutRequest request;
    constexpr int kBoxes = 6000;
    for (int i = 0; i < kBoxes; ++i)
        request.nodes.push_back({ 90, 30, -1 });
    for (int i = 2; i < kBoxes; ++i) {
        request.edges.push_back({ i - 1, i });
        request.edges.push_back({ 0, i });
    }
    return request;
}

struct Outcome {
    std::optional<Result<LayoutResult>> result;
};

quint64 submit(ui::LayoutService& service, LayoutRequest request, QObject* context, Outcome& outcome)
{
    return service.submit(std::move(request), context,
        [&outcome](Result<LayoutResult> result) { outcome.result.emplace(std::move(result)); });
}

/// Counts "a background task failed" warnings, then hands every message on (to QTest's handler,
/// which checks ignoreMessage).
std::atomic<int> s_failures { 0 };
QtMessageHandler s_previousHandler = nullptr;
void countFailures(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && message.contains(QLatin1String("a background task failed")))
        ++s_failures;
    if (s_previousHandler)
        s_previousHandler(type, context, message);
}

/// The service's one helper process is running and has been handed the whole request.
bool helperHasTheRequest(const ui::LayoutService& service)
{
    const auto helpers = service.findChildren<QProcess*>();
    return helpers.size() == 1 && helpers.front()->state() == QProcess::Running && helpers.front()->bytesToWrite() == 0;
}

} // namespace

class TestLayoutService : public QObject {
    Q_OBJECT
private slots:
    /// Issue 27 #14: an exception in background work (an analysis, a layout) used to be rethrown
    /// on the GUI thread and end the app; it now reaches the caller's error handler, with its
    /// message, and the result handler is not called.
    void workerExceptionsStopAtTheBoundary()
    {
        QObject context;
        bool handled = false;
        QString error;
        ui::whenFinished(
            &context, QtConcurrent::run([]() -> int { throw std::runtime_error("the plan has no arena 7"); }),
            [&](int) { handled = true; }, [&](const QString& message) { error = message; });
        QTRY_VERIFY(!error.isEmpty());
        QCOMPARE(error, QStringLiteral("the plan has no arena 7"));
        QVERIFY(!handled);
        // Without an error handler the failure is logged, nothing is rethrown.
        QTest::ignoreMessage(QtWarningMsg, "etscope: a background task failed: std::bad_alloc");
        bool resultHandled = false;
        s_failures = 0;
        s_previousHandler = qInstallMessageHandler(countFailures);
        ui::whenFinished(
            &context, QtConcurrent::run([]() -> int { throw std::bad_alloc(); }), [&](int) { resultHandled = true; });
        QTRY_COMPARE(s_failures.load(), 1); // the failure was logged (and ignoreMessage saw it)
        qInstallMessageHandler(s_previousHandler);
        QVERIFY(!resultHandled);
        // A result still arrives as before.
        int value = 0;
        ui::whenFinished(&context, QtConcurrent::run([] { return 42; }), [&](int v) { value = v; });
        QTRY_COMPARE(value, 42);
    }

    void backgroundLayoutsGiveWay()
    {
        // Layouts made ahead of a click (issue 27) wait behind every other, run one at a time
        // and only in a helper: the layout someone waits for finds a helper of its own.
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY), {}, /*startNow=*/false);
        QObject context;
        Outcome slowAhead, smallAhead, waitedFor;
        const auto submitAhead = [&](LayoutRequest request, Outcome& outcome) {
            return service.submit(
                std::move(request), &context,
                [&outcome](Result<LayoutResult> result) { outcome.result.emplace(std::move(result)); },
                /*background=*/true);
        };
        const quint64 slow = submitAhead(slowRequest(), slowAhead);
        submitAhead(smallRequest(), smallAhead); // queued: one background layout at a time
        submit(service, smallRequest(), &context, waitedFor);
        QTRY_VERIFY_WITH_TIMEOUT(waitedFor.result.has_value(), 20000);
        QVERIFY(*waitedFor.result);
        QCOMPARE(service.workerCount(), 2);
        QVERIFY(!slowAhead.result && !smallAhead.result);
        service.cancel(slow);
        QTRY_VERIFY_WITH_TIMEOUT(slowAhead.result.has_value(), 20000);
        QCOMPARE(slowAhead.result->error().code, Error::Code::Cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(smallAhead.result.has_value(), 20000);
        QVERIFY(*smallAhead.result);

        // No helper program: never on the in-process thread small layouts need; answered Cancelled.
        ui::LayoutService inProcess;
        Outcome none;
        inProcess.submit(
            smallRequest(), &context, [&none](Result<LayoutResult> result) { none.result.emplace(std::move(result)); },
            /*background=*/true);
        QVERIFY(!none.result);
        QTRY_VERIFY(none.result.has_value());
        QCOMPARE(none.result->error().code, Error::Code::Cancelled);
    }

    void helperGivesTheSameLayout()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY));
        Outcome outcome;
        submit(service, smallRequest(), this, outcome);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 20000);
        QVERIFY2(*outcome.result, outcome.result->ok() ? "" : outcome.result->error().message().c_str());
        const auto here = layoutGraph(smallRequest());
        QVERIFY(here);
        const LayoutResult& there = outcome.result->value();
        QCOMPARE(there.nodes.size(), here->nodes.size());
        for (std::size_t i = 0; i < here->nodes.size(); ++i) {
            QCOMPARE(there.nodes[i].x, here->nodes[i].x);
            QCOMPARE(there.nodes[i].y, here->nodes[i].y);
        }
        QCOMPARE(there.edges.size(), here->edges.size());
        QCOMPARE(there.clusters.size(), std::size_t(1));
        QCOMPARE(service.workerCount(), 1); // kept for the next layout

        // Two requests at once use two helpers.
        Outcome a, b;
        submit(service, smallRequest(), this, a);
        submit(service, smallRequest(), this, b);
        QCOMPARE(service.workerCount(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(a.result.has_value() && b.result.has_value(), 20000);
        QVERIFY(*a.result && *b.result);
    }

    void warmUpKeepsTheFirstLayoutOnTheWarmHelper()
    {
        // The app warms its first helper at start (Graphviz and its plugins load on the first
        // layout): a layout asked for meanwhile waits for that helper instead of starting a
        // cold second one, and gets its own answer.
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY));
        service.warmUp();
        QCOMPARE(service.workerCount(), 1);
        Outcome outcome;
        submit(service, smallRequest(), this, outcome);
        QCOMPARE(service.workerCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 20000);
        QVERIFY2(*outcome.result, outcome.result->ok() ? "" : outcome.result->error().message().c_str());
        QCOMPARE(outcome.result->value().nodes.size(), smallRequest().nodes.size());
        QCOMPARE(service.workerCount(), 1);

        // Without a helper the warm-up runs on the in-process layout thread.
        ui::LayoutService inProcess;
        inProcess.warmUp();
        QCOMPARE(inProcess.workerCount(), 0);
        Outcome here;
        submit(inProcess, smallRequest(), this, here);
        QTRY_VERIFY_WITH_TIMEOUT(here.result.has_value(), 20000);
        QVERIFY(*here.result);
    }

    void smallGraphsStayInProcess()
    {
        // The app lays out graphs under 500 boxes itself and starts its helper later: a small
        // request without clusters then starts no helper; a larger one does, and so does a
        // small one with a cluster (Graphviz's crashes live there: a helper's crash is retried,
        // the app's would end the session).
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY), {}, /*startNow=*/false);
        service.setInProcessBelow(10);
        QCOMPARE(service.workerCount(), 0);
        LayoutRequest flat = smallRequest(); // 5 boxes
        flat.clusters.clear();
        for (auto& node : flat.nodes)
            node.cluster = -1;
        Outcome small;
        submit(service, flat, this, small);
        QTRY_VERIFY_WITH_TIMEOUT(small.result.has_value(), 20000);
        QVERIFY(*small.result);
        QCOMPARE(service.workerCount(), 0);
        Outcome clustered;
        submit(service, smallRequest(), this, clustered);
        QCOMPARE(service.workerCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(clustered.result.has_value(), 20000);
        QVERIFY(*clustered.result);
        LayoutRequest twelve;
        for (int i = 0; i < 12; ++i)
            twelve.nodes.push_back({ 80, 30, -1 });
        for (int i = 1; i < 12; ++i)
            twelve.edges.push_back({ i - 1, i });
        Outcome large;
        submit(service, twelve, this, large);
        QCOMPARE(service.workerCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(large.result.has_value(), 20000);
        QVERIFY2(*large.result, large.result->ok() ? "" : large.result->error().message().c_str());
        QCOMPARE(large.result->value().nodes.size(), std::size_t(12));
        service.startHelper(); // one runs already: no second
        QCOMPARE(service.workerCount(), 1);
    }

    void cancelKillsARunningLayout()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY));
        Outcome slow;
        const quint64 job = submit(service, slowRequest(), this, slow);
        // The helper is running and has the whole request: Graphviz is busy in it now.
        QTRY_VERIFY_WITH_TIMEOUT(helperHasTheRequest(service), 10000);
        QVERIFY(!slow.result.has_value());
        QCOMPARE(service.workerCount(), 1);
        service.cancel(job);
        QTRY_VERIFY_WITH_TIMEOUT(slow.result.has_value(), 5000);
        QVERIFY(!*slow.result);
        QCOMPARE(slow.result->error().code, Error::Code::Cancelled);
        QCOMPARE(service.workerCount(), 0); // the helper was killed, not left computing

        // The next layout gets a fresh helper.
        Outcome next;
        submit(service, smallRequest(), this, next);
        QTRY_VERIFY_WITH_TIMEOUT(next.result.has_value(), 20000);
        QVERIFY(*next.result);
    }

    void queuedJobsCancelAtOnce()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY));
        service.setMaxWorkers(1);
        Outcome first, second;
        const quint64 a = submit(service, slowRequest(), this, first);
        const quint64 b = submit(service, smallRequest(), this, second);
        service.cancel(b);
        QVERIFY(second.result.has_value()); // never started: answered at once
        QCOMPARE(second.result->error().code, Error::Code::Cancelled);
        service.cancel(a);
        QTRY_VERIFY_WITH_TIMEOUT(first.result.has_value(), 5000);
    }

    void crashIsRetriedWithSaferAttributes()
    {
        // A helper that crashes the first time and works the second.
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("crashed-once"));
        ui::LayoutService service;
        service.setWorker(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"),
                QStringLiteral("if [ -e \"$1\" ]; then shift; exec \"$@\"; fi; : > \"$1\"; kill -SEGV $$"),
                QStringLiteral("sh"), marker, QStringLiteral(ETSCOPE_BINARY) });
        Outcome outcome;
        submit(service, smallRequest(), this, outcome);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 20000);
        QVERIFY2(*outcome.result, outcome.result->ok() ? "" : outcome.result->error().message().c_str());
        QVERIFY(QFile::exists(marker));
        QCOMPARE(outcome.result->value().nodes.size(), std::size_t(5));
    }

    void crashingTwiceIsAClearError()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), QStringLiteral("kill -SEGV $$") });
        Outcome outcome;
        submit(service, smallRequest(), this, outcome);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 20000);
        QVERIFY(!*outcome.result);
        const std::string message = outcome.result->error().message();
        QVERIFY2(message.find("failed twice") != std::string::npos, message.c_str());
        QVERIFY2(message.find("crashed") != std::string::npos, message.c_str());
    }

    void missingHelperLaysOutInProcess()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral("/nonexistent/etscope"));
        Outcome outcome;
        submit(service, smallRequest(), this, outcome);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 20000);
        QVERIFY(*outcome.result);
        QVERIFY(service.workerProgram().isEmpty());
        QCOMPARE(service.workerCount(), 0);
    }

    void goneContextGetsNothing()
    {
        ui::LayoutService service;
        service.setWorker(QStringLiteral(ETSCOPE_BINARY));
        Outcome outcome;
        auto* context = new QObject;
        submit(service, smallRequest(), context, outcome);
        delete context;
        Outcome later;
        submit(service, smallRequest(), this, later);
        QTRY_VERIFY_WITH_TIMEOUT(later.result.has_value(), 20000);
        // A fixed wait on purpose: this proves the gone context's result is NOT delivered.
        QTest::qWait(100);
        QVERIFY(!outcome.result.has_value());
    }
};

ETSCOPE_TEST_MAIN(TestLayoutService)
#include "tst_layoutservice.moc"
