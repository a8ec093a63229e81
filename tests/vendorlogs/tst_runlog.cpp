// SPDX-License-Identifier: MIT
// The runner log reader (core/vendorlogs/runlog.h) and its join to a method (vendorjoin.h).
//
// Read by hand off tinycnn/fvp_e84_final_compare.log (100 lines, the Corstone-300 FVP running
// tinycnn_u55.pte): "PTE Model data loaded. Size: 31696 bytes." (line 31), "NPU Inferences : 1",
// "NPU delegations: 1 (1.00 per inference)", "Profiler report, CPU cycles per operator:" and its
// one operator line "ethos-u : cycle_cnt : 18301 cycles" (line 61), "Operator(s) total: 18301",
// "Inference runtime: 1070301 CPU cycles total", CPU ratio 99.95 %, NPU ratio 0.05 %,
// "cpu_wait_for_npu_cntr : 505", "ethosu_pmu_cycle_cntr : 247553", counters 0–3 = 44542, 3629,
// 42419, 501, named by the Events line (AXI0 read beats, AXI1 read beats, AXI0 write beats,
// NPU idle). tinycnn_u55.pte is 31696 bytes with one DelegateCall to EthosUBackend
// (SOURCES.md), so the log belongs to it; its CPU work is quantize/dequantize kernel calls, for
// which the runner prints no line.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/delegates/delegate.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/vendorlogs/vendorjoin.h"
#include "core/vendorlogs/vendortext.h"
#include "core/writer/vendorlogwriter.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;
using namespace etscope::core::vendor;

namespace {

const std::string kFvp = "tinycnn/fvp_e84_final_compare.log";
const std::string kTiny = "tinycnn/tinycnn_u55.pte";

bool anyWarning(const std::vector<Warning>& warnings, const std::string& part)
{
    return std::any_of(
        warnings.begin(), warnings.end(), [&](const Warning& w) { return w.message.find(part) != std::string::npos; });
}

Graph methodGraph(const Program& program)
{
    std::vector<DelegateInfo> infos;
    for (const DelegateRef& ref : program.methods[0].delegates)
        infos.push_back(describeDelegate(program, ref, {}, "test"));
    return buildMethodGraph(program.methods[0], infos);
}

} // namespace

class TestRunLog : public QObject {
    Q_OBJECT

private slots:
    void fvpLog()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const RunLog log, readRunLog(etscope::test::samplePath(kFvp)));
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.lines, std::size_t(100));
        QCOMPARE(log.programSize, std::optional<std::uint64_t>(31696));
        QCOMPARE(log.npuInferences, std::optional<std::int64_t>(1));
        QCOMPARE(log.npuDelegations, std::optional<std::uint64_t>(1));
        QVERIFY(log.profilerReport);
        QCOMPARE(log.operatorCycles.size(), std::size_t(1));
        QCOMPARE(log.operatorCycles[0].tag, std::string("ethos-u"));
        QCOMPARE(log.operatorCycles[0].cycles, std::uint64_t(18301));
        QCOMPARE(log.operatorCycles[0].perInference, std::optional<double>(18301));
        QCOMPARE(log.operatorCycles[0].line, std::size_t(61));
        QCOMPARE(log.operatorsTotal, std::optional<std::uint64_t>(18301));
        QCOMPARE(log.inferenceRuntime, std::optional<std::uint64_t>(1070301));
        QCOMPARE(log.cpuRatioPercent, std::optional<double>(99.95));
        QCOMPARE(log.npuRatioPercent, std::optional<double>(0.05));
        QCOMPARE(log.cpuWaitForNpu, std::optional<std::uint64_t>(505));
        QVERIFY(log.pmuReport);
        QCOMPARE(log.npuCycles, std::optional<std::uint64_t>(247553));
        QCOMPARE(log.counters.size(), std::size_t(4));
        const std::uint64_t counts[] = { 44542, 3629, 42419, 501 };
        const char* events[] = { "ETHOSU_PMU_AXI0_RD_DATA_BEAT_RECEIVED", "ETHOSU_PMU_AXI1_RD_DATA_BEAT_RECEIVED",
            "ETHOSU_PMU_AXI0_WR_DATA_BEAT_WRITTEN", "ETHOSU_PMU_NPU_IDLE" };
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(log.counters[i].index, static_cast<int>(i));
            QCOMPARE(log.counters[i].count, counts[i]);
            QCOMPARE(log.counters[i].event, std::string(events[i]));
        }
    }

    void joinTinyCnn()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const RunLog log, readRunLog(etscope::test::samplePath(kFvp)));
        ETSCOPE_TAKE(const Program program, readProgramFile(etscope::test::samplePath(kTiny)));
        const Graph graph = methodGraph(program);
        const RunJoin join = joinRunLog(log, program, program.methods[0], graph);
        QCOMPARE(join.verdict, JoinVerdict::Joined);
        QVERIFY(join.reason.find("31696") != std::string::npos);
        QCOMPARE(join.delegates.size(), std::size_t(1));
        const MeasuredNode& npu = join.delegates[0];
        QCOMPARE(npu.npuCycles, std::optional<std::uint64_t>(247553));
        QCOMPARE(npu.cpuCycles, std::optional<std::uint64_t>(18301));
        QCOMPARE(npu.counters.size(), std::size_t(4));
        QCOMPARE(npu.counters[3].count, std::uint64_t(501));
        // The CPU nodes are the quantize/dequantize calls; the log has no line for them.
        QVERIFY(!join.cpuNodes.empty());
        for (const MeasuredNode& m : join.cpuNodes) {
            QVERIFY(!m.cpuCycles);
            QVERIFY(m.label.find("quantize") != std::string::npos);
        }
        QVERIFY(join.cpuNote.find("only the Ethos-U delegate's line") != std::string::npos);
        // 1070301 − 18301 = 1052000 CPU cycles for the rest of the method.
        QCOMPARE(join.restOfMethodCyclesPerInference, std::optional<double>(1052000));
        const std::string text = runJoinText(join);
        QVERIFY(text.find("247553 NPU cycles") != std::string::npos);
    }

    void refusedForAnotherProgram()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        RunLogSpec spec;
        spec.programSize = 31712; // the "default" variant of optimization_results.csv, not this file
        spec.npuCycles = 247546;
        const RunLog log = parseRunLog(writeRunLog(spec), "other.log");
        ETSCOPE_TAKE(const Program program, readProgramFile(etscope::test::samplePath(kTiny)));
        const RunJoin join = joinRunLog(log, program, program.methods[0], methodGraph(program));
        QCOMPARE(join.verdict, JoinVerdict::Refused);
        QVERIFY(join.reason.find("31712") != std::string::npos);
        QVERIFY(join.delegates.empty());
        spec.programSize = 31696;
        spec.delegations = 3;
        const RunJoin twice = joinRunLog(
            parseRunLog(writeRunLog(spec), "three.log"), program, program.methods[0], methodGraph(program));
        QCOMPARE(twice.verdict, JoinVerdict::Refused);
        QVERIFY(twice.reason.find("3 NPU delegations") != std::string::npos);
    }

    void writerMadeU85WithPrefix()
    {
        RunLogSpec spec;
        spec.inferences = 2;
        spec.delegations = 2;
        spec.operatorCycles = { { "ethos-u", 4000 }, { "aten::add.out", 600 } };
        spec.inferenceRuntime = 10000;
        spec.cpuRatio = 60;
        spec.npuRatio = 40;
        spec.cpuWaitForNpu = 3000;
        spec.npuCycles = 8000;
        spec.counters = { 1, 2, 3, 4, 5, 6, 7 };
        spec.events = { "ETHOSU_PMU_SRAM_RD_DATA_BEAT_RECEIVED", "ETHOSU_PMU_SRAM_WR_DATA_BEAT_WRITTEN",
            "ETHOSU_PMU_EXT_RD_DATA_BEAT_RECEIVED", "ETHOSU_PMU_EXT_WR_DATA_BEAT_WRITTEN", "ETHOSU_PMU_NPU_IDLE",
            "ETHOSU_PMU_MAC_ACTIVE", "ETHOSU_PMU_WD_ACTIVE" };
        spec.etLogPrefix = true;
        spec.crlf = true;
        const RunLog log = parseRunLog(writeRunLog(spec), "u85.log");
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.operatorCycles.size(), std::size_t(2));
        QCOMPARE(log.operatorCycles[1].tag, std::string("aten::add.out"));
        QCOMPARE(log.operatorCycles[1].perInference, std::optional<double>(300));
        QCOMPARE(log.operatorsTotal, std::optional<std::uint64_t>(4600));
        QCOMPARE(log.npuCycles, std::optional<std::uint64_t>(8000));
        QCOMPARE(log.npuCyclesPerInference, std::optional<double>(4000));
        QCOMPARE(log.counters.size(), std::size_t(7));
        QCOMPARE(log.counters[6].event, std::string("ETHOSU_PMU_WD_ACTIVE"));
        QCOMPARE(log.counters[5].count, std::uint64_t(6));
    }

    void damaged()
    {
        RunLogSpec spec;
        spec.npuCycles = 1234;
        spec.counters = { 10, 20 };
        spec.events = { "A", "B" };
        const std::string whole = writeRunLog(spec);
        // Cut inside the event list: counters read, their names missing, warnings say so.
        spec.cutAtByte = whole.find("Ethos-U PMU Events:[") + 22;
        const RunLog cut = parseRunLog(writeRunLog(spec), "cut.log");
        QCOMPARE(cut.npuCycles, std::optional<std::uint64_t>(1234));
        QCOMPARE(cut.counters.size(), std::size_t(2));
        QVERIFY(anyWarning(cut.warnings, "no closing ']'"));
        const RunLog none = parseRunLog("hello\n" + std::string(70000, 'y') + "\n", "none.log");
        QVERIFY(none.empty());
        QVERIFY(anyWarning(none.warnings, "none.log:2: line of 70000 bytes"));
        QVERIFY(anyWarning(none.warnings, "no executor runner report"));
        QVERIFY(!readRunLog("/nonexistent/run.log").ok());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestRunLog)
#include "tst_runlog.moc"
