// SPDX-License-Identifier: MIT
// Runtime events placed on the program graph and timed: the real ETDumps of samples/generated
// against the programs they were made from (README "How each file was produced").
#include "tests/common/testsupport.h"

#include "core/debug/debugheat.h"
#include "core/debug/runtimeprofile.h"
#include "core/document/document.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace etscope::core;

namespace {

struct Loaded {
    Document document;
    ETDump dump;
    const Graph* graph = nullptr;
};

std::optional<Loaded> load(const std::string& program, const std::string& etdump)
{
    auto document = openDocument(etscope::test::samplePath(program));
    auto dump = readETDumpFile(etscope::test::samplePath("generated/" + etdump));
    if (!document || !dump)
        return std::nullopt;
    Loaded loaded { std::move(document).value(), std::move(dump).value(), nullptr };
    loaded.graph = loaded.document.methods.front().graph.get();
    return loaded;
}

const Node& innerNode(const Graph& graph, const NodeOrigin& origin)
{
    return graph.node(origin.top).subgraph->node(origin.inner);
}

/// Inner operator nodes of the delegate at `top`, in node (execution) order, of `type`.
std::vector<NodeId> innerOfType(const Graph& graph, NodeId top, const std::string& type)
{
    std::vector<NodeId> ids;
    for (const Node& node : graph.node(top).subgraph->nodes)
        if (node.kind == NodeKind::Operator && node.opType == type)
            ids.push_back(node.id);
    return ids;
}

} // namespace

class TestRuntimeProfile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void percentilesInterpolateLinearly()
    {
        // numpy's linear method: rank = p/100·(n−1). For 1,2,3,4: p10 → 1.3, p50 → 2.5, p90 → 3.7.
        const TimingStats stats = computeTimingStats({ 4, 1, 3, 2 });
        QCOMPARE(stats.count, std::size_t(4));
        QCOMPARE(stats.min, 1.0);
        QCOMPARE(stats.max, 4.0);
        QVERIFY(qFuzzyCompare(stats.p10, 1.3));
        QCOMPARE(stats.p50, 2.5);
        QVERIFY(qFuzzyCompare(stats.p90, 3.7));
        QCOMPARE(stats.avg, 2.5);
        QCOMPARE(stats.total, 10.0);
        const TimingStats one = computeTimingStats({ 7 });
        QCOMPARE(one.p10, 7.0);
        QCOMPARE(one.p90, 7.0);
        QCOMPARE(computeTimingStats({}).count, std::size_t(0));
    }

    void wrappedTimestamps()
    {
        // §4.5: one 32-bit wrap-around is allowed when both values fit in 32 bits.
        ProfileEvent e;
        e.startTime = 0xfffffff0u;
        e.endTime = 0x10;
        QCOMPARE(e.duration(), std::uint64_t(0x20));
        e.startTime = 5;
        e.endTime = 9;
        QCOMPARE(e.duration(), std::uint64_t(4));
    }

    void portableKernelsMeetTheirInstructions()
    {
        auto loaded = load("djl-executorch-engine/stress_mlp.pte", "stress_mlp/stress_mlp.profile.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        QCOMPARE(profile.executeBlocks, std::size_t(1));
        QVERIFY(profile.warnings.empty());
        int kernels = 0;
        for (const ProfileRow& row : profile.rows) {
            QVERIFY2(row.placement.matched, row.name.c_str());
            if (row.scope != ProfileRow::Scope::Kernel)
                continue;
            ++kernels;
            // native_call_<op>.<overload> runs the node whose operator is <ns>::<op>.<overload>.
            QVERIFY(row.name.starts_with("native_call_"));
            const Node& node = loaded->graph->node(row.placement.origin.top);
            QCOMPARE(node.instruction, row.instruction);
            QVERIFY2(node.opType.ends_with("::" + row.name.substr(12)), node.opType.c_str());
            QCOMPARE(row.placement.rule, std::string("instruction"));
        }
        QCOMPARE(kernels, 12); // SOURCES.md: 12 KernelCalls
        // Framework events: Method::init and Program::load_method (Default), Method::execute.
        std::set<std::string> framework;
        for (const ProfileRow& row : profile.framework) {
            framework.insert(row.blockName + "/" + row.name);
            QCOMPARE(row.scope, ProfileRow::Scope::Framework);
            QVERIFY(!row.placement.matched);
        }
        QCOMPARE(framework,
            (std::set<std::string> {
                "Default/Method::init", "Default/Program::load_method", "Execute/Method::execute" }));
    }

    void xnnpackEventsMeetInnerNodes()
    {
        // README: stress_mlp's XNNPACK ops are Multiply #1-#2 (delegate at instruction 6) and
        // Add #1, Fully Connected GEMM #1-#5, Add #2, GEMM #6-#10, Add #3 (instruction 13).
        auto loaded = load("djl-executorch-engine/stress_mlp.pte", "stress_mlp/stress_mlp.profile.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        std::map<InstructionId, std::vector<const ProfileRow*>> byInstruction;
        for (const ProfileRow& row : profile.rows)
            if (row.scope == ProfileRow::Scope::DelegateInternal)
                byInstruction[row.instruction].push_back(&row);
        QCOMPARE(byInstruction.size(), std::size_t(2));
        QCOMPARE(byInstruction[InstructionId(6)].size(), std::size_t(2));
        QCOMPARE(byInstruction[InstructionId(13)].size(), std::size_t(13));
        for (const auto& [instruction, rows] : byInstruction) {
            const NodeId top = mapper.instructionNode(ChainIndex(0), instruction);
            std::map<std::string, int> seenPerFamily;
            std::set<std::int32_t> distinct;
            for (const ProfileRow* row : rows) {
                QCOMPARE(row->placement.rule, std::string("xnnpack order"));
                QCOMPARE(row->placement.origin.top, top);
                const std::string family = xnnpackFamily(row->name);
                const std::string type = family == "Fully Connected" ? "XNNFullyConnected"
                    : family == "Add"                                ? "XNNAdd"
                                                                     : "XNNMultiply";
                QCOMPARE(innerNode(*loaded->graph, row->placement.origin).opType, type);
                // The k-th event of a family is the k-th node of that type ("#k" in the name).
                const int k = seenPerFamily[family]++;
                QCOMPARE(
                    row->placement.origin.inner, innerOfType(*loaded->graph, top, type)[static_cast<std::size_t>(k)]);
                QVERIFY(row->name.ends_with("#" + std::to_string(k + 1)));
                distinct.insert(row->placement.origin.inner.value);
            }
            QCOMPARE(distinct.size(), rows.size());
        }
        // Inner nodes get their own timing; the delegate its DELEGATE_CALL.
        std::size_t innerTimings = 0;
        for (const NodeTiming& timing : profile.nodes)
            innerTimings += timing.origin.inner.valid() ? 1 : 0;
        QCOMPARE(innerTimings, std::size_t(15));
        const NodeTiming* delegate
            = profile.timingOf({ mapper.instructionNode(ChainIndex(0), InstructionId(13)), NodeId::none() });
        QVERIFY(delegate);
        QCOMPARE(profile.rows[delegate->row].name, std::string("DELEGATE_CALL"));
    }

    void xnnpackFamilies_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("etdump");
        QTest::addColumn<QStringList>("types");
        // README "Delegate profile events per model" against SOURCES.md's inner node types.
        QTest::addRow("spike_conv") << "djl-executorch-engine/spike_conv.pte"
                                    << "spike_conv/spike_conv.profile.etdp"
                                    << QStringList { "XNNStaticTranspose", "XNNConv2d", "XNNStaticTranspose" };
        QTest::addRow("quantized") << "executorch-numpy-runtime/quantized.pte"
                                   << "quantized/quantized.profile.etdp"
                                   << QStringList { "XNNConvert", "XNNFullyConnected", "XNNConvert" };
        QTest::addRow("spike_add") << "djl-executorch-engine/spike_add.pte"
                                   << "spike_add/spike_add.profile.etdp" << QStringList { "XNNAdd" };
        QTest::addRow("spike_lin129") << "djl-executorch-engine/spike_lin129.pte"
                                      << "spike_lin129/spike_lin129.profile.etdp"
                                      << QStringList { "XNNFullyConnected" };
    }

    void xnnpackFamilies()
    {
        QFETCH(QString, program);
        QFETCH(QString, etdump);
        QFETCH(QStringList, types);
        auto loaded = load(program.toStdString(), etdump.toStdString());
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        QStringList seen;
        std::set<std::int32_t> distinct;
        for (const ProfileRow& row : profile.rows)
            if (row.scope == ProfileRow::Scope::DelegateInternal) {
                QVERIFY(row.placement.origin.inner.valid());
                seen << QString::fromStdString(innerNode(*loaded->graph, row.placement.origin).opType);
                distinct.insert(row.placement.origin.inner.value);
            }
        QCOMPARE(seen, types);
        QCOMPARE(distinct.size(), static_cast<std::size_t>(types.size()));
    }

    void trainingDelegatesAllPlaced()
    {
        // README: dnf_xnnpack_training has 4 DELEGATE_CALLs and 10 XNNPACK ops (Transpose,
        // Subtract, Multiply, Negate, Add); SOURCES.md lists 1 + 2 + 5 + 2 inner nodes.
        auto loaded
            = load("dnf-executorch/dnf_xnnpack_training.pte", "dnf_xnnpack_training/dnf_xnnpack_training.profile.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        std::set<std::pair<int, int>> inner;
        for (const ProfileRow& row : profile.rows)
            if (row.scope == ProfileRow::Scope::DelegateInternal) {
                QCOMPARE(row.placement.rule, std::string("xnnpack order"));
                inner.insert({ row.placement.origin.top.value, row.placement.origin.inner.value });
            }
        QCOMPARE(inner.size(), std::size_t(10));
        QVERIFY(profile.warnings.empty());
    }

    void statisticsAcrossRuns()
    {
        // add.intermediates.x3: three Execute blocks, each with native_call_add.out, OPERATOR_CALL
        // and Method::execute (README table: Execute(3p/2d) ×3).
        auto loaded = load("executorch/add.pte", "add/add.intermediates.x3.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        QCOMPARE(profile.executeBlocks, std::size_t(3));
        QCOMPARE(profile.rows.size(), std::size_t(2)); // native_call_add.out, OPERATOR_CALL
        std::vector<double> kernel;
        std::vector<double> span;
        for (const std::size_t b : loaded->dump.executeBlocks())
            for (const ProfileEvent& e : loaded->dump.runs[b].profileEvents) {
                if (e.name == "OPERATOR_CALL")
                    span.push_back(static_cast<double>(e.endTime - e.startTime));
                else if (e.name == "native_call_add.out")
                    kernel.push_back(static_cast<double>(e.endTime - e.startTime));
            }
        QCOMPARE(kernel.size(), std::size_t(3));
        QCOMPARE(profile.nodes.size(), std::size_t(1));
        const NodeTiming& timing = profile.nodes.front();
        QCOMPARE(loaded->graph->node(timing.origin.top).opType, std::string("aten::add.out"));
        // The table's time is the kernel's (native_call), the OPERATOR_CALL span is kept beside it.
        QCOMPARE(profile.rows[timing.row].name, std::string("native_call_add.out"));
        QCOMPARE(timing.kernel.count, std::size_t(3));
        std::sort(kernel.begin(), kernel.end());
        QCOMPARE(timing.kernel.min, kernel[0]);
        QCOMPARE(timing.kernel.p50, kernel[1]);
        QCOMPARE(timing.kernel.max, kernel[2]);
        QCOMPARE(timing.kernel.avg, (kernel[0] + kernel[1] + kernel[2]) / 3);
        QVERIFY(qFuzzyCompare(timing.kernel.p90, kernel[1] + 0.8 * (kernel[2] - kernel[1])));
        QVERIFY(timing.span);
        QCOMPARE(timing.span->count, std::size_t(3));
        QCOMPARE(timing.span->max, *std::max_element(span.begin(), span.end()));
        QVERIFY(timing.span->min >= timing.kernel.min); // the span wraps the kernel
        QCOMPARE(profile.toMs(1e6), 1.0);
    }

    void table()
    {
        auto loaded = load("executorch/add.pte", "add/add.intermediates.x3.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        const Table hidden = runtimeProfileTable(profile, mapper);
        QCOMPARE(hidden.columns[1], std::string("event_name"));
        QCOMPARE(hidden.columns[8], std::string("p50 (ms)"));
        // Framework first (Method::init, Program::load_method, Method::execute), then the kernel.
        QCOMPARE(hidden.rows.size(), std::size_t(4));
        QCOMPARE(std::get<std::string>(hidden.rows[3][1]), std::string("native_call_add.out"));
        QCOMPARE(std::get<std::string>(hidden.rows[3][2]), std::string("aten::add.out"));
        QCOMPARE(std::get<long long>(hidden.rows[3][5]), 3LL);
        QCOMPARE(std::get<double>(hidden.rows[3][8]), profile.nodes.front().kernel.p50 / 1e6);
        const Table all = runtimeProfileTable(profile, mapper, true);
        QCOMPARE(all.rows.size(), std::size_t(5));
    }

    void eventTableOfADumpAlone()
    {
        // The same file without its program: every event has a row, none is placed, no warning.
        auto dump = readETDumpFile(etscope::test::samplePath("generated/add/add.intermediates.x3.etdp"));
        QVERIFY(dump);
        const RuntimeProfile profile = buildDumpProfile(*dump);
        QVERIFY(profile.warnings.empty());
        QVERIFY(profile.nodes.empty());
        const Table table = eventProfileTable(profile);
        QCOMPARE(table.columns[2], std::string("kind"));
        QCOMPARE(table.rows.size(), std::size_t(4)); // 3 framework + native_call_add.out
        QCOMPARE(std::get<std::string>(table.rows[3][1]), std::string("native_call_add.out"));
        QCOMPARE(std::get<std::string>(table.rows[3][2]), std::string("kernel"));
        QCOMPARE(std::get<long long>(table.rows[3][6]), 3LL);
        QVERIFY(table.notes.back().find("1 OPERATOR_CALL span(s) not shown") != std::string::npos);
        QCOMPARE(eventProfileTable(profile, true).rows.size(), std::size_t(5));
        // The kernel row's numbers equal the placed profile's.
        auto loaded = load("executorch/add.pte", "add/add.intermediates.x3.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile placed = buildRuntimeProfile(loaded->dump, mapper);
        QCOMPARE(std::get<double>(table.rows[3][8]), placed.nodes.front().kernel.p50 / 1e6);
    }

    void heatTables()
    {
        // The heat view of the same numbers: one row per timed node, values in ms.
        auto x3 = load("executorch/add.pte", "add/add.intermediates.x3.etdp");
        auto one = load("executorch/add.pte", "add/add.profile.etdp");
        QVERIFY(x3 && one);
        const EventMapper mapper(*x3->graph);
        const RuntimeProfile three = buildRuntimeProfile(x3->dump, mapper);
        const RuntimeProfile single = buildRuntimeProfile(one->dump, EventMapper(*one->graph));
        const HeatTable heat = timingHeatTable(three);
        QCOMPARE(heat.columns.size(), std::size_t(7));
        // The panel colours by the first column unless told otherwise: a latency, never the count.
        QCOMPARE(heat.columns[0].name, std::string("p50 (ms)"));
        QVERIFY(heat.columns[0].higherIsWorse);
        QCOMPARE(heat.rows.size(), std::size_t(1));
        QCOMPARE(heat.rows[0].origin, three.nodes[0].origin);
        QCOMPARE(*heat.rows[0].values[0], three.nodes[0].kernel.p50 / 1e6);
        QCOMPARE(*heat.rows[0].values[5], three.nodes[0].span->p50 / 1e6);
        // Last, the count of runs behind the statistics: three Execute blocks, no cost.
        QCOMPARE(heat.columns[6].name, std::string("count"));
        QCOMPARE(heat.columns[6].unit, std::string("runs"));
        QVERIFY(!heat.columns[6].higherIsWorse);
        QCOMPARE(*heat.rows[0].values[6], 3.0);
        QCOMPARE(*timingHeatTable(single).rows[0].values[6], 1.0);
        const HeatTable both = timingComparisonHeatTable({ { "x3", &three }, { "single", &single } });
        QCOMPARE(both.columns.size(), std::size_t(2));
        QCOMPARE(both.rows.size(), std::size_t(1)); // the same add node in both runs
        QCOMPARE(*both.rows[0].values[0], three.nodes[0].kernel.avg / 1e6);
        QCOMPARE(*both.rows[0].values[1], single.nodes[0].kernel.avg / 1e6);
    }

    void nodeTable()
    {
        // `etscope profile`: one row per node; the median of add's three native_call_add.out
        // durations, read here straight from the file.
        auto loaded = load("executorch/add.pte", "add/add.intermediates.x3.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        std::vector<double> durations;
        for (const std::size_t b : loaded->dump.executeBlocks())
            for (const ProfileEvent& e : loaded->dump.runs[b].profileEvents)
                if (e.name == "native_call_add.out")
                    durations.push_back(static_cast<double>(e.endTime - e.startTime));
        QCOMPARE(durations.size(), std::size_t(3));
        std::sort(durations.begin(), durations.end());
        const Table table = nodeTimingTable(profile);
        QCOMPARE(table.columns,
            (std::vector<std::string> { "node", "event_name", "instruction", "count", "min (ms)", "p50 (ms)",
                "p90 (ms)", "avg (ms)", "max (ms)", "op_types" }));
        QCOMPARE(table.rows.size(), std::size_t(1));
        const auto& row = table.rows[0];
        QCOMPARE(std::get<std::string>(row[0]), std::string("aten::add.out"));
        QCOMPARE(std::get<std::string>(row[1]), std::string("native_call_add.out"));
        QCOMPARE(std::get<long long>(row[2]), 0LL);
        QCOMPARE(std::get<long long>(row[3]), 3LL);
        QCOMPARE(std::get<double>(row[4]), durations[0] / 1e6);
        QCOMPARE(std::get<double>(row[5]), durations[1] / 1e6);
        QVERIFY(qFuzzyCompare(std::get<double>(row[6]), (durations[1] + 0.8 * (durations[2] - durations[1])) / 1e6));
        QVERIFY(qFuzzyCompare(std::get<double>(row[7]), (durations[0] + durations[1] + durations[2]) / 3 / 1e6));
        QCOMPARE(std::get<double>(row[8]), durations[2] / 1e6);
        QVERIFY(QString::fromStdString(table.notes[0]).startsWith(QStringLiteral("3 Execute block(s)")));
        QVERIFY(QString::fromStdString(table.notes[1]).startsWith(QStringLiteral("Method::execute: count 3")));
    }

    void nodeTableOfDelegates()
    {
        // stress_mlp: 12 kernels, 2 DELEGATE_CALLs and 15 XNNPACK operators, each timed once; the
        // XNNPACK rows are named by the delegate's identifier and sit on the inner nodes.
        auto loaded = load("djl-executorch-engine/stress_mlp.pte", "stress_mlp/stress_mlp.profile.etdp");
        QVERIFY(loaded);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, EventMapper(*loaded->graph));
        const Table table = nodeTimingTable(profile);
        QCOMPARE(table.rows.size(), std::size_t(12 + 2 + 15));
        std::map<std::pair<std::string, int>, double> raw;
        for (const ProfileEvent& e : loaded->dump.runs[loaded->dump.executeBlocks().front()].profileEvents)
            raw.try_emplace({ e.name.empty() ? e.delegateIdentifier() : e.name, e.instructionId.value },
                static_cast<double>(e.endTime - e.startTime));
        int inner = 0;
        for (const auto& row : table.rows) {
            const std::string name = std::get<std::string>(row[1]);
            const auto it = raw.find({ name, static_cast<int>(std::get<long long>(row[2])) });
            QVERIFY2(it != raw.end(), name.c_str());
            QCOMPARE(std::get<long long>(row[3]), 1LL);
            QCOMPARE(std::get<double>(row[5]), it->second / 1e6); // p50 of one sample is the sample
            QCOMPARE(std::get<double>(row[4]), std::get<double>(row[8]));
            inner += QString::fromStdString(std::get<std::string>(row[0])).contains(QStringLiteral(" › ")) ? 1 : 0;
        }
        QCOMPARE(inner, 15);
    }

    void foreignDumpIsReported()
    {
        // stress_mlp's events against add.pte: most instructions do not exist there.
        auto loaded = load("executorch/add.pte", "stress_mlp/stress_mlp.profile.etdp");
        QVERIFY(loaded);
        const EventMapper mapper(*loaded->graph);
        const RuntimeProfile profile = buildRuntimeProfile(loaded->dump, mapper);
        QCOMPARE(profile.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(profile.warnings.front().message).contains(QStringLiteral("match no node")));
        std::size_t unmatched = 0;
        for (const ProfileRow& row : profile.rows)
            unmatched += row.placement.matched ? 0 : 1;
        QVERIFY(unmatched > 20);
    }

    /// executorch/etdump.etdp is a conv/relu/max_pool/addmm model's run (SOURCES.md: its Execute
    /// block has native_call_convolution.out ×2, relu.out ×4, …); add.pte's only instruction 0 is
    /// aten::add.out. Its first kernel event, native_call_convolution.out at instruction 0
    /// (0.544783 ms, `etscope profile executorch/etdump.etdp`), was timed on add.out.
    void eventNamedForAnotherOperatorIsNotPlaced()
    {
        auto document = openDocument(etscope::test::samplePath("executorch/add.pte"));
        auto dump = readETDumpFile(etscope::test::samplePath("executorch/etdump.etdp"));
        QVERIFY(document && dump);
        const EventMapper mapper(*document->methods.front().graph);
        const RuntimeProfile profile = buildRuntimeProfile(*dump, mapper);
        QVERIFY(profile.nodes.empty()); // neither the convolution nor its OPERATOR_CALL span lands on add.out
        const auto conv = std::find_if(profile.rows.begin(), profile.rows.end(), [](const ProfileRow& row) {
            return row.name == "native_call_convolution.out" && row.instruction.value == 0;
        });
        QVERIFY(conv != profile.rows.end());
        QVERIFY(!conv->placement.matched);
        QVERIFY(conv->placement.nameDisagrees);
        const Table table = nodeTimingTable(profile);
        QCOMPARE(table.rows.size(), std::size_t(2)); // the kernel event and its span, both "(not placed)"
        QCOMPARE(std::get<std::string>(table.rows[0][0]), std::string("(not placed)"));
        QCOMPARE(std::get<std::string>(table.rows[0][1]), std::string("native_call_convolution.out"));
        QVERIFY(std::any_of(table.notes.begin(), table.notes.end(),
            [](const std::string& n) { return n.rfind("2 event(s) not placed: named for another operator", 0) == 0; }));
        // The program's own run still lands: native_call_add.out at instruction 0.
        auto own = load("executorch/add.pte", "add/add.profile.etdp");
        QVERIFY(own);
        const EventMapper ownMapper(*own->graph);
        const RuntimeProfile placed = buildRuntimeProfile(own->dump, ownMapper);
        QCOMPARE(placed.nodes.size(), std::size_t(1));
        QVERIFY(placed.warnings.empty());
        // Which names fit: a kernel's own name, spans of its kind; unknown conventions are not judged.
        const Node& add = own->graph->node(ownMapper.instructionNode(ChainIndex(0), InstructionId(0)));
        QCOMPARE(eventNameFits(add, "native_call_add.out"), std::optional<bool>(true));
        QCOMPARE(eventNameFits(add, "native_call_convolution.out"), std::optional<bool>(false));
        QCOMPARE(eventNameFits(add, "DELEGATE_CALL"), std::optional<bool>(false));
        QCOMPARE(eventNameFits(add, "my_custom_kernel"), std::optional<bool>());
    }

    /// Framework events (chain_index -1 in the ETDump, instruction_id stored as 0) run in no
    /// instruction: their chain and instruction cells have no value (blank, JSON null), not -1/0.
    void frameworkEventsHaveNoInstruction()
    {
        auto dump = readETDumpFile(etscope::test::samplePath("executorch/etdump.etdp"));
        QVERIFY(dump);
        const Table table = eventProfileTable(buildDumpProfile(*dump));
        QCOMPARE(std::get<std::string>(table.rows[0][1]), std::string("Method::init"));
        QVERIFY(std::holds_alternative<std::monostate>(table.rows[0][3]));
        QVERIFY(std::holds_alternative<std::monostate>(table.rows[0][4]));
        QVERIFY(renderTable(table, TableFormat::Json).find("\"instruction\": null") != std::string::npos);
        // A kernel event keeps its chain 0 and instruction.
        QCOMPARE(std::get<std::string>(table.rows[3][1]), std::string("native_call_convolution.out"));
        QCOMPARE(std::get<long long>(table.rows[3][3]), 0LL);
        QCOMPARE(std::get<long long>(table.rows[3][4]), 0LL);
    }

    void families()
    {
        QCOMPARE(xnnpackFamily("Fully Connected (NC, F32) GEMM #1"), std::string("Fully Connected"));
        QCOMPARE(xnnpackFamily("Add (ND) #3"), std::string("Add"));
        QCOMPARE(xnnpackFamily("Transpose #2"), std::string("Transpose"));
        QCOMPARE(xnnpackNodeTypes("Convolution"), (std::vector<std::string> { "XNNConv2d", "XNNDepthwiseConv2d" }));
        QVERIFY(xnnpackNodeTypes("Unheard Of").empty());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestRuntimeProfile)
#include "tst_runtimeprofile.moc"
