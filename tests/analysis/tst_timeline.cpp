// SPDX-License-Identifier: MIT
// The timeline of real ETDumps: lanes, nesting and times checked against the raw ticks. The
// ticks quoted below were read with flatc 2.0.8, independently of ETScope's reader:
//   flatc --json --strict-json --raw-binary --size-prefixed core/schema/etdump.fbs -- X.etdp
// and the µs values computed by hand from them (ticks are ns, facts sheet §4.5).
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/analysis/timeline.h"
#include "core/document/document.h"
#include "core/report/reports.h"
#include "core/writer/debug/etdumpwriter.h"

#include <QDirIterator>
#include <QTest>

using namespace etscope::core;
using nlohmann::json;

namespace {

Result<ETDump> dumpOf(const std::string& relative)
{
    return readETDumpFile(etscope::test::samplePath(relative));
}

Result<Timeline> timelineOf(const ETDump& dump, const EventMapper* mapper = nullptr, TimelineOptions options = {})
{
    return buildTimeline(dump, mapper, options);
}

/// The same for a dump that may not have been read (its error is passed on).
Result<Timeline> timelineOf(const Result<ETDump>& dump)
{
    if (!dump)
        return dump.error();
    return timelineOf(dump.value());
}

/// A program with the mapper of its forward method (the mapper refers into the document).
struct Program {
    Document document;
    std::optional<EventMapper> mapper;
};

Result<std::unique_ptr<Program>> programOf(const std::string& relative)
{
    auto document = openDocument(etscope::test::samplePath(relative));
    if (!document)
        return document.error();
    auto program = std::make_unique<Program>(Program { std::move(document).value(), std::nullopt });
    const Method* method = selectMethod(*program->document.program, "");
    program->mapper.emplace(*program->document.analysis(*method)->graph, nullptr, method->name);
    return program;
}

/// Every ETDump sample (also the Python-serialized one).
QStringList allDumps()
{
    QStringList paths;
    QDirIterator it(etscope::test::samplesRoot(), { QStringLiteral("*.etdp"), QStringLiteral("*.etdump") }, QDir::Files,
        QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    return paths;
}

void checkEvent(const TimelineEvent& event, const char* name, std::uint64_t start, std::uint64_t duration, int depth)
{
    QCOMPARE(event.name, std::string(name));
    QCOMPARE(event.startNs, start);
    QCOMPARE(event.durationNs, duration);
    QCOMPARE(event.depth, depth);
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    /// add.intermediates.x3: three Execute blocks, each Method::execute > OPERATOR_CALL >
    /// native_call_add.out on instruction 0. Raw ticks (start → end):
    ///   run 0: Method::execute 1148378 → 1206137 = 57759 ns (57.759 µs)
    ///          OPERATOR_CALL   1148829 → 1205826 = 56997 ns, starts 1148829 − 1148378 = 451 ns in
    ///          native_call     1149440 → 1205476 = 56036 ns, starts 1062 ns in
    ///   run 1: Method::execute 1212510 → 1213572 = 1062 ns; native_call 1212670 → 1213361 = 691 ns
    ///   run 2: Method::execute 1217168 → 1217869 = 701 ns;  native_call 1217268 → 1217689 = 421 ns
    void threeRunsOfAdd()
    {
        ETSCOPE_TAKE(const ETDump dump, dumpOf("generated/add/add.intermediates.x3.etdp"));
        ETSCOPE_TAKE(const Timeline timeline, timelineOf(dump));
        QCOMPARE(timeline.executeBlocks, std::size_t(3));
        QCOMPARE(timeline.runs.size(), std::size_t(3));
        QVERIFY(timeline.warnings.empty());
        for (std::size_t r = 0; r < 3; ++r) {
            QCOMPARE(timeline.runs[r].index, r);
            QCOMPARE(timeline.runs[r].block, r + 1); // block 0 is Default (load)
            QCOMPARE(timeline.runs[r].lanes.size(), std::size_t(1)); // no delegate
            QCOMPARE(timeline.runs[r].lanes[0].events.size(), std::size_t(3));
            QCOMPARE(timeline.runs[r].lanes[0].maxDepth, 2);
            QCOMPARE(timeline.runs[r].lanes[0].title, std::string("method"));
        }
        const auto& run0 = timeline.runs[0].lanes[0].events;
        checkEvent(run0[0], "Method::execute", 1148378, 57759, 0);
        checkEvent(run0[1], "OPERATOR_CALL", 1148829, 56997, 1);
        checkEvent(run0[2], "native_call_add.out", 1149440, 56036, 2);
        QCOMPARE(run0[0].kind, ProfileRow::Scope::Framework);
        QCOMPARE(run0[2].kind, ProfileRow::Scope::Kernel);
        QCOMPARE(run0[2].parent, 1);
        QCOMPARE(timeline.runs[0].startNs, std::uint64_t(1148378));
        QCOMPARE(timeline.runs[0].endNs, std::uint64_t(1206137));
        checkEvent(timeline.runs[1].lanes[0].events[0], "Method::execute", 1212510, 1062, 0);
        checkEvent(timeline.runs[1].lanes[0].events[2], "native_call_add.out", 1212670, 691, 2);
        checkEvent(timeline.runs[2].lanes[0].events[0], "Method::execute", 1217168, 701, 0);
        checkEvent(timeline.runs[2].lanes[0].events[2], "native_call_add.out", 1217268, 421, 2);

        // --run 2 keeps only the third run; --run 3 names no Execute block.
        ETSCOPE_TAKE(const Timeline third, timelineOf(dump, nullptr, { 2 }));
        QCOMPARE(third.runs.size(), std::size_t(1));
        QCOMPARE(third.runs[0].index, std::size_t(2));
        checkEvent(third.runs[0].lanes[0].events[0], "Method::execute", 1217168, 701, 0);
        const auto missing = buildTimeline(dump, nullptr, { 3 });
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, Error::Code::Usage);
        QVERIFY(missing.error().message().find("numbered 0 to 2") != std::string::npos);

        // CSV: start from the run's start, exact to the ns.
        const Table table = timelineTable(timeline);
        QCOMPARE(table.rows.size(), std::size_t(9));
        QCOMPARE(cellText(table.rows[1][5]), std::string("0.451"));
        QCOMPARE(cellText(table.rows[1][6]), std::string("56.997"));
        QCOMPARE(cellText(table.rows[2][5]), std::string("1.062"));
        QCOMPARE(cellText(table.rows[2][6]), std::string("56.036"));
        QCOMPARE(cellText(table.rows[0][7]), std::string()); // Method::execute is in no chain
    }

    /// quantized.profile (XNNPACK): the method lane holds Method::execute 2312165 → 2366198
    /// (54033 ns) and DELEGATE_CALL 2312967 → 2365807 (52840 ns); the delegate lane XNNPACK's
    /// three operators, laid back to back by XNNPACK: Convert #1 2322765 → 2338765 (16 µs),
    /// GEMM #1 2338765 → 2354765 (16 µs), Convert #2 2354765 → 2354765 (0).
    void xnnpackDelegateLane()
    {
        ETSCOPE_TAKE(const ETDump dump, dumpOf("generated/quantized/quantized.profile.etdp"));
        ETSCOPE_TAKE(const Timeline bare, timelineOf(dump));
        QCOMPARE(bare.runs.size(), std::size_t(1));
        const TimelineRun& run = bare.runs[0];
        QCOMPARE(run.lanes.size(), std::size_t(2));
        QCOMPARE(run.lanes[0].events.size(), std::size_t(2));
        checkEvent(run.lanes[0].events[0], "Method::execute", 2312165, 54033, 0);
        checkEvent(run.lanes[0].events[1], "DELEGATE_CALL", 2312967, 52840, 1);
        const TimelineLane& lane = run.lanes[1];
        QCOMPARE(lane.kind, TimelineLane::Kind::Delegate);
        QCOMPARE(lane.title, std::string("delegate (instruction 0)"));
        QCOMPARE(lane.events.size(), std::size_t(3));
        checkEvent(lane.events[0], "Convert (NC) #1", 2322765, 16000, 0);
        checkEvent(lane.events[1], "Fully Connected (NC, QS8) GEMM #1", 2338765, 16000, 0);
        checkEvent(lane.events[2], "Convert (NC) #2", 2354765, 0, 0); // touches GEMM's end: a sibling
        QCOMPARE(lane.events[1].delegateIdentifier, std::string("Fully Connected (NC, QS8) GEMM #1"));

        // With the program: the lane is named after the delegate, the GEMM lands on the
        // XNNFullyConnected node as `profile` places it, and the dump fits (no warning).
        ETSCOPE_TAKE(const auto program, programOf("executorch-numpy-runtime/quantized.pte"));
        ETSCOPE_TAKE(const Timeline placed, timelineOf(dump, &*program->mapper));
        QVERIFY(placed.warnings.empty());
        QCOMPARE(placed.method, std::string("forward"));
        const TimelineLane& xnn = placed.runs[0].lanes[1];
        QCOMPARE(xnn.title, std::string("XnnpackBackend #0 (instruction 0)"));
        QCOMPARE(xnn.backendId, std::string("XnnpackBackend"));
        QVERIFY(xnn.events[1].placement.matched);
        const Graph& graph = program->mapper->graph();
        const NodeOrigin origin = xnn.events[1].placement.origin;
        QCOMPARE(graph.node(origin.top).subgraph->node(origin.inner).opType, std::string("XNNFullyConnected"));
        QCOMPARE(xnn.events[1].nodeName, std::string("XnnpackBackend › XNNFullyConnected"));
        QCOMPARE(placed.runs[0].lanes[0].events[1].nodeName, std::string("XnnpackBackend"));
        QVERIFY(!placed.runs[0].lanes[0].events[0].placement.matched); // framework: no node

        // CSV start of Convert #1: 2322765 − 2312165 = 10600 ns.
        const Table table = timelineTable(placed);
        QCOMPARE(cellText(table.rows[2][1]), std::string("XnnpackBackend #0 (instruction 0)"));
        QCOMPARE(cellText(table.rows[2][5]), std::string("10.600"));
        QCOMPARE(cellText(table.rows[2][6]), std::string("16.000"));
    }

    /// stress_mlp: two XNNPACK call sites, instruction 6 with 2 inner events and instruction 13
    /// with 13 (flatc: 15 delegate events of 42 profile events in the Execute block).
    /// Another model's ETDump against a program: the fit check warns (etdump.etdp is the
    /// tutorial's 14-operator model, add.pte has one add); with checkFit off (the app, whose
    /// heatmap already checked the run) the same timeline carries no fit warning.
    void fitCheckCanBeLeftToTheCaller()
    {
        ETSCOPE_TAKE(const ETDump dump, dumpOf("executorch/etdump.etdp"));
        ETSCOPE_TAKE(const auto program, programOf("executorch/add.pte"));
        ETSCOPE_TAKE(const Timeline checked, timelineOf(dump, &*program->mapper));
        QVERIFY(!checked.warnings.empty());
        TimelineOptions options;
        options.checkFit = false;
        ETSCOPE_TAKE(const Timeline unchecked, timelineOf(dump, &*program->mapper, options));
        QVERIFY(unchecked.warnings.empty());
        QCOMPARE(unchecked.runs.size(), checked.runs.size());
        QCOMPARE(unchecked.runs[0].eventCount(), checked.runs[0].eventCount());
        // Its events 1 and 2 (OPERATOR_CALL around native_call_convolution.out, tutorialDump) sit
        // at instruction 0, add.pte's aten::add.out: named for another operator, neither is placed
        // there (both were, "aten::add.out" in the timeline's node column).
        const auto& events = checked.runs[0].lanes[0].events;
        QCOMPARE(events[2].name, std::string("native_call_convolution.out"));
        QCOMPARE(events[2].instruction.value, 0);
        for (const std::size_t e : { std::size_t(1), std::size_t(2) }) {
            QVERIFY(!events[e].placement.matched);
            QVERIFY(events[e].placement.nameDisagrees);
            QVERIFY(events[e].nodeName.empty());
        }
    }

    void twoDelegateCallSites()
    {
        ETSCOPE_TAKE(const ETDump dump, dumpOf("generated/stress_mlp/stress_mlp.profile.etdp"));
        ETSCOPE_TAKE(const auto program, programOf("djl-executorch-engine/stress_mlp.pte"));
        ETSCOPE_TAKE(const Timeline timeline, timelineOf(dump, &*program->mapper));
        QVERIFY(timeline.warnings.empty());
        const TimelineRun& run = timeline.runs[0];
        QCOMPARE(run.eventCount(), std::size_t(42));
        QCOMPARE(run.lanes.size(), std::size_t(3));
        QCOMPARE(run.lanes[0].events.size(), std::size_t(27));
        QCOMPARE(run.lanes[1].title, std::string("XnnpackBackend #0 (instruction 6)"));
        QCOMPARE(run.lanes[1].events.size(), std::size_t(2));
        QCOMPARE(run.lanes[2].title, std::string("XnnpackBackend #1 (instruction 13)"));
        QCOMPARE(run.lanes[2].events.size(), std::size_t(13));
        for (const TimelineLane& lane : run.lanes)
            for (const TimelineEvent& event : lane.events)
                if (event.kind != ProfileRow::Scope::Framework)
                    QVERIFY2(event.placement.matched, event.name.c_str());
    }

    /// The ExecuTorch tutorial's etdump.etdp: 29 events in its Execute block, Method::execute
    /// 425313 → 2324134 = 1898821 ns (1898.821 µs) holding 14 OPERATOR_CALLs, each holding its
    /// kernel; the first kernel native_call_convolution.out 426786 → 971569 = 544783 ns.
    void tutorialDump()
    {
        ETSCOPE_TAKE(const Timeline timeline, timelineOf(dumpOf("executorch/etdump.etdp")));
        QCOMPARE(timeline.runs.size(), std::size_t(1));
        const auto& events = timeline.runs[0].lanes[0].events;
        QCOMPARE(events.size(), std::size_t(29));
        checkEvent(events[0], "Method::execute", 425313, 1898821, 0);
        checkEvent(events[1], "OPERATOR_CALL", 425624, 546816, 1);
        checkEvent(events[2], "native_call_convolution.out", 426786, 544783, 2);
        int depth1 = 0;
        for (const TimelineEvent& event : events)
            depth1 += event.depth == 1 ? 1 : 0;
        QCOMPARE(depth1, 14);
    }

    /// The Python-serialized fixture: five runs, all starting at tick 0 (absent start_time).
    /// Run 0: Method::execute 0 → 12000000 (12000 µs), aten::convolution 0 → 7199999,
    /// aten::linear 7199999 → 11999999 (4800 µs); both inside Method::execute, at depth 1.
    void pythonSerializedDump()
    {
        ETSCOPE_TAKE(const Timeline timeline, timelineOf(dumpOf("executorch-matrix/sample.etdump")));
        QCOMPARE(timeline.runs.size(), std::size_t(5));
        QCOMPARE(timeline.runs[0].block, std::size_t(0)); // no Default block in this file
        const auto& events = timeline.runs[0].lanes[0].events;
        QCOMPARE(events.size(), std::size_t(3));
        checkEvent(events[0], "Method::execute", 0, 12000000, 0);
        checkEvent(events[1], "aten::convolution", 0, 7199999, 1);
        checkEvent(events[2], "aten::linear", 7199999, 4800000, 1);
        // Run 4: Method::execute 0 → 14000000.
        checkEvent(timeline.runs[4].lanes[0].events[0], "Method::execute", 0, 14000000, 0);
    }

    /// On every ETDump sample: every profile event of every Execute block is on the timeline
    /// once, durations are end − start, each event lies inside its parent, and the Chrome
    /// trace parses with one complete event per event, each with ph, ts, dur, pid and tid.
    void everySampleIsConsistent()
    {
        const QStringList paths = allDumps();
        QVERIFY(paths.size() >= 40);
        for (const QString& path : paths) {
            ETSCOPE_TAKE(const ETDump dump, dumpOf(path.toStdString()));
            ETSCOPE_TAKE(const Timeline timeline, timelineOf(dump));
            std::size_t expected = 0;
            for (const std::size_t b : dump.executeBlocks())
                expected += dump.runs[b].profileEvents.size();
            std::size_t seen = 0;
            for (const TimelineRun& run : timeline.runs) {
                seen += run.eventCount();
                for (const TimelineLane& lane : run.lanes)
                    for (const TimelineEvent& event : lane.events) {
                        QVERIFY(event.startNs >= run.startNs && event.endNs() <= run.endNs);
                        if (event.parent < 0) {
                            QCOMPARE(event.depth, 0);
                            continue;
                        }
                        const TimelineEvent& parent = lane.events[static_cast<std::size_t>(event.parent)];
                        QCOMPARE(event.depth, parent.depth + 1);
                        QVERIFY2(parent.startNs <= event.startNs && event.endNs() <= parent.endNs(),
                            qPrintable(path + QStringLiteral(": ") + QString::fromStdString(event.name)));
                    }
            }
            QCOMPARE(seen, expected);

            const json trace = json::parse(timelineChromeTrace(timeline));
            ETSCOPE_COMPARE_JSON(trace.at("displayTimeUnit"), "ns");
            std::size_t complete = 0;
            for (const json& event : trace.at("traceEvents")) {
                QVERIFY(event.contains("ph") && event.contains("pid") && event.contains("name"));
                if (event["ph"] != "X") {
                    ETSCOPE_COMPARE_JSON(event["ph"], "M");
                    continue;
                }
                ++complete;
                for (const char* key : { "ts", "dur", "tid" })
                    QVERIFY2(event.contains(key), key);
                QVERIFY(event["dur"].get<double>() >= 0);
            }
            QCOMPARE(complete, expected);
        }
    }

    /// Written by the project's writer: a dump with only its load block has no run and says so;
    /// a kernel that outlives its OPERATOR_CALL (100–200 vs 150–250) is drawn a level deeper
    /// and counted; Python-style delegate events with integer ids get a lane per instruction.
    void writtenFixtures()
    {
        const auto event = [](std::string name, int chain, int instruction, std::uint64_t start, std::uint64_t end) {
            return profileEvent(std::move(name), chain, instruction, start, end);
        };
        RunBlock load;
        load.name = "Default";
        load.profileEvents = { event("Method::init", -1, 0, 10, 20) };
        const auto read = [](const std::vector<RunBlock>& runs) {
            return readETDump(MappedFile::fromBytes("fixture.etdp", writeETDump(runs)));
        };
        ETSCOPE_TAKE(const ETDump loadOnly, read({ load }));
        ETSCOPE_TAKE(const Timeline none, timelineOf(loadOnly));
        QVERIFY(none.runs.empty());
        QCOMPARE(none.warnings.size(), std::size_t(1));
        QVERIFY(none.warnings[0].message.find("fixture.etdp: no Execute block") != std::string::npos);
        QVERIFY(json::parse(timelineChromeTrace(none)).at("traceEvents").empty());

        RunBlock execute;
        execute.name = "Execute";
        ProfileEvent inner = event("", 0, 2, 120, 130);
        inner.delegateDebugIdInt = DelegateDebugId(7);
        execute.profileEvents = { event("native_call_add.out", 0, 0, 150, 250), event("OPERATOR_CALL", 0, 0, 100, 200),
            inner, event("Method::execute", -1, 0, 90, 300) };
        ETSCOPE_TAKE(const ETDump both, read({ load, execute }));
        ETSCOPE_TAKE(const Timeline timeline, timelineOf(both));
        QCOMPARE(timeline.runs.size(), std::size_t(1));
        QCOMPARE(timeline.warnings.size(), std::size_t(1));
        QVERIFY(timeline.warnings[0].message.find("1 event(s) start inside another") != std::string::npos);
        const auto& method = timeline.runs[0].lanes[0].events;
        checkEvent(method[0], "Method::execute", 90, 210, 0);
        checkEvent(method[1], "OPERATOR_CALL", 100, 100, 1);
        checkEvent(method[2], "native_call_add.out", 150, 100, 2);
        const TimelineLane& lane = timeline.runs[0].lanes[1];
        QCOMPARE(lane.title, std::string("delegate (instruction 2)"));
        checkEvent(lane.events[0], "7", 120, 10, 0);
    }

    void microsecondsAreExact()
    {
        QCOMPARE(nanosecondsAsMicros(0), std::string("0.000"));
        QCOMPARE(nanosecondsAsMicros(7), std::string("0.007"));
        QCOMPARE(nanosecondsAsMicros(1898821), std::string("1898.821"));
        QCOMPARE(nanosecondsAsMicros(UINT64_MAX), std::string("18446744073709551.615"));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
