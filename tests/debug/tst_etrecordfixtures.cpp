// SPDX-License-Identifier: MIT
// Cases no public ETRecord covers, made by the project's ETRecord writer (core/writer/debug):
// a post-lowering graph with lowered modules (XNNPACK and an opaque QNN partition), a populated
// delegate_map and num_outs map, hostile archives, and events joined to nodes through them.
#include "tests/common/graphchecks.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/debug/etrecord.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/runtimeprofile.h"
#include "core/document/document.h"
#include "core/writer/debug/etrecordwriter.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

EdgeNode node(const std::string& name, const std::string& target, std::vector<std::string> inputs,
    std::optional<std::int64_t> handle = std::nullopt)
{
    EdgeNode n;
    n.name = name;
    n.target = target;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        n.inputs.push_back({ i == 0 ? "self" : "other", "as_tensor", { inputs[i] }, {} });
    n.outputs = { name };
    if (handle)
        n.debugHandle = DebugHandle(*handle);
    if (handle)
        n.stackTrace = "  File \"model.py\", line " + std::to_string(10 + *handle) + ", in forward\n";
    return n;
}

/// A call to a lowered module: first input names the module, then delegate_arg_0, …
EdgeNode delegateCall(const std::string& name, std::shared_ptr<LoweredModule> module, std::vector<std::string> args)
{
    EdgeNode n;
    n.name = name;
    n.target = "torch.ops.higher_order.executorch_call_delegate";
    n.inputs.push_back({ module->name, "as_string", {}, {} });
    for (std::size_t i = 0; i < args.size(); ++i)
        n.inputs.push_back({ "delegate_arg_" + std::to_string(i), "as_tensor", { args[i] }, {} });
    n.outputs = { name };
    n.lowered = std::move(module);
    return n;
}

/// The post-lowering edge graph of §5.3 / §8, by hand:
///   sub → lowered_module_0 (XnnpackBackend: convolution, relu) → getitem
///       → lowered_module_1 (QnnBackend: add, add_1, mul) → getitem_1, getitem_2
///       → lowered_module_0 again → getitem_3
/// get_delegation_info by hand: 2 distinct lowered modules; delegated = convolution 1,
/// relu 1, add 2, mul 1 → 5; non-delegated = sub 1 + getitem 4 → 5.
EdgeProgram loweredProgram()
{
    auto xnn = std::make_shared<LoweredModule>();
    xnn->name = "lowered_module_0";
    xnn->backendId = "XnnpackBackend";
    xnn->processedBytes = 432;
    EdgeProgram xnnGraph;
    xnnGraph.inputs = { "x" };
    xnnGraph.nodes
        = { node("aten_convolution_default", "executorch.exir.dialects.edge.ops.aten.convolution.default", { "x" }, 2),
              node("aten_relu_default", "executorch.exir.dialects.edge.ops.aten.relu.default",
                  { "aten_convolution_default" }, 3) };
    xnnGraph.outputs = { "aten_relu_default" };
    xnn->originalModule = std::make_shared<EdgeProgram>(xnnGraph);
    auto qnn = std::make_shared<LoweredModule>();
    qnn->name = "lowered_module_1";
    qnn->backendId = "QnnBackend";
    qnn->compileSpecs = { { "soc_model", "SM8650" }, { "qnn_compile_spec", "\x01\x02\xff" } };
    EdgeProgram qnnGraph;
    qnnGraph.nodes = { node("aten_add_tensor", "executorch.exir.dialects.edge.ops.aten.add.Tensor", { "a", "b" }, 4),
        node("aten_add_tensor_1", "executorch.exir.dialects.edge.ops.aten.add.Tensor", { "aten_add_tensor", "b" }, 5),
        node("aten_mul_tensor", "executorch.exir.dialects.edge.ops.aten.mul.Tensor", { "aten_add_tensor_1", "a" }, 6) };
    qnn->originalModule = std::make_shared<EdgeProgram>(qnnGraph);
    EdgeProgram top;
    top.inputs = { "x" };
    top.nodes = { node("aten_sub_tensor", "executorch.exir.dialects.edge.ops.aten.sub.Tensor", { "x", "x" }, 1),
        delegateCall("executorch_call_delegate", xnn, { "aten_sub_tensor" }),
        node("getitem", "_operator.getitem", { "executorch_call_delegate" }),
        delegateCall("executorch_call_delegate_1", qnn, { "getitem", "getitem" }),
        node("getitem_1", "_operator.getitem", { "executorch_call_delegate_1" }),
        node("getitem_2", "_operator.getitem", { "executorch_call_delegate_1" }),
        delegateCall("executorch_call_delegate_2", xnn, { "getitem_2" }),
        node("getitem_3", "_operator.getitem", { "executorch_call_delegate_2" }) };
    top.outputs = { "getitem_1", "getitem_3" };
    top.tensors["x"] = TensorMeta { "FLOAT", { 1, 3, -1 } };
    return top;
}

Result<ETRecord> readBack(const std::vector<std::uint8_t>& bytes, const std::string& name = "written.etrecord")
{
    return readETRecord(MappedFile::fromBytes(name, bytes));
}

Result<std::vector<std::uint8_t>> written(const ETRecordWriteSpec& spec)
{
    return writeETRecord(spec);
}

/// Reads back what `written` gave, or passes on why it could not write.
Result<ETRecord> readBack(const Result<std::vector<std::uint8_t>>& bytes, const std::string& name = "written.etrecord")
{
    if (!bytes)
        return bytes.error();
    return readBack(bytes.value(), name);
}

Result<std::vector<std::uint8_t>> zip(const std::vector<ZipWriteEntry>& entries)
{
    return writeZip(entries);
}

Result<Document> program(const std::string& relative, const ETRecord* record = nullptr)
{
    OpenOptions options;
    if (record)
        options.delegateOutputCounts = record->allDelegateOutputCounts();
    return openDocument(etscope::test::samplePath(relative), options);
}

/// stress_mlp's record as the exporter would write it (handles chosen to match the XNNPACK
/// blob: delegate 13's first XNNFullyConnected carries handle 9, its first XNNAdd 8).
ETRecordWriteSpec stressRecord()
{
    ETRecordWriteSpec spec;
    EdgeProgram edge;
    edge.nodes = { node("aten_select_copy_int", "executorch.exir.dialects.edge.ops.aten.select_copy.int", { "x" }, 5),
        node("aten_linear_default", "executorch.exir.dialects.edge.ops.aten.linear.default", { "x" }, 9),
        node("aten_add_tensor", "executorch.exir.dialects.edge.ops.aten.add.Tensor", { "x" }, 8) };
    spec.edgePrograms = { { "forward", edge } };
    spec.debugHandleMap["forward"][2] = { handles({ 5 }), false };
    spec.debugHandleMap["forward"][13] = { handles({ 8, 9, 11 }), true };
    // The delegate_map of instruction 13 names an identifier the runtime might log.
    spec.delegateMap["forward"][13]
        = { "XnnpackBackend", { { "fc_first", handles({ 9 }) }, { "add", handles({ 8 }) } } };
    spec.numOutsMap["forward"][6] = 1;
    spec.numOutsMap["forward"][13] = 1;
    return spec;
}

} // namespace

class TestETRecordFixtures : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void loweredGraphRoundTrip()
    {
        ETRecordWriteSpec spec;
        spec.edgePrograms = { { "forward", loweredProgram() } };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        QVERIFY(record.warnings.empty());
        const ETRecordGraph* edge = record.edgeProgram("forward");
        QVERIFY(edge);
        QCOMPARE(edge->entry, std::string("edge_dialect_exported_program/forward"));
        const EdgeProgram& program = *edge->program;
        QCOMPARE(program.nodes.size(), std::size_t(8));
        QCOMPARE(program.loweredModuleCount(), std::size_t(3));
        QCOMPARE(program.nodeCountRecursive(), std::size_t(8 + 2 + 3 + 2));
        const EdgeNode& call = program.nodes[3];
        QVERIFY(call.isDelegateCall());
        QVERIFY(call.lowered);
        QCOMPARE(call.lowered->name, std::string("lowered_module_1"));
        QCOMPARE(call.lowered->backendId, std::string("QnnBackend"));
        QCOMPARE(call.lowered->compileSpecs[0].value, std::string("SM8650"));
        QCOMPARE(call.lowered->compileSpecs[1].value, std::string("0x0102ff")); // not printable: hex
        QCOMPARE(call.inputs[1].name, std::string("delegate_arg_0"));
        QCOMPARE(program.nodes[1].lowered->processedBytes, std::uint64_t(432));
        // The opaque backend's inner edge ops are known from the original module.
        const EdgeProgram& inner = *call.lowered->originalModule;
        QCOMPARE(inner.nodes[1].name, std::string("aten_add_tensor_1"));
        QCOMPARE(inner.nodes[1].inputs[0].tensors, std::vector<std::string> { "aten_add_tensor" });
        QCOMPARE(inner.nodes[1].debugHandle, std::optional<DebugHandle>(DebugHandle(5)));
        QVERIFY(inner.nodes[1].stackTrace.find("line 15") != std::string::npos);
        // Handles are found through lowered modules.
        QCOMPARE(program.nodesWithHandle(DebugHandle(6)).size(), std::size_t(1));
        QCOMPARE(program.nodesWithHandle(DebugHandle(6)).front()->name, std::string("aten_mul_tensor"));
        QCOMPARE(program.tensors.at("x").shape, (std::vector<std::int64_t> { 1, 3, -1 }));
    }

    void delegationInfoIsExact()
    {
        // The hand count of loweredProgram(): rows sorted by op_type, the same lowered module
        // called twice counted once.
        ETRecordWriteSpec spec;
        spec.edgePrograms = { { "forward", loweredProgram() } };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        auto table = etrecordOperatorTable(record, "forward");
        QVERIFY(table.ok());
        QCOMPARE(table->source, std::string("etrecord"));
        const std::vector<std::tuple<std::string, int, int>> expected { { "aten_add_tensor", 2, 0 },
            { "aten_convolution_default", 1, 0 }, { "aten_mul_tensor", 1, 0 }, { "aten_relu_default", 1, 0 },
            { "aten_sub_tensor", 0, 1 }, { "getitem", 0, 4 } };
        QCOMPARE(table->rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(table->rows[i].opType, std::get<0>(expected[i]));
            QCOMPARE(table->rows[i].delegated, std::get<1>(expected[i]));
            QCOMPARE(table->rows[i].nonDelegated, std::get<2>(expected[i]));
        }
        QCOMPARE(table->summaryLines(),
            (std::vector<std::string> {
                "Total delegated subgraphs: 2", "Number of delegated nodes: 5", "Number of non-delegated nodes: 5" }));
        // The share by hand: 5 of 10 nodes; add, convolution, mul, relu of 6 op types; XNNPACK
        // holds convolution and relu, QNN add twice and mul.
        QCOMPARE(table->shareLines(),
            (std::vector<std::string> { "Delegated share: 50.0% of nodes (5 of 10), 66.7% of unique op types (4 of 6)",
                "  QnnBackend: 1 subgraph(s), 3 node(s) = 30.0% of nodes, 2 op type(s) = 33.3% of op types",
                "  XnnpackBackend: 1 subgraph(s), 2 node(s) = 20.0% of nodes, 2 op type(s) = 33.3% of op types" }));
    }

    void graphMapHoldsTheLoweredGraph()
    {
        // Recommended flow: the edge program is pre-lowering; a lowered copy in the graph map
        // ("edge_after_transform/forward") gives the exact table. Legacy entry name for the method.
        ETRecordWriteSpec spec;
        EdgeProgram pre;
        pre.nodes = { node("aten_sub_tensor", "…sub.Tensor", { "x" }, 1) };
        spec.edgePrograms = { { "forward", pre } };
        spec.legacyEdgeEntry = true;
        spec.extraGraphs = { { "edge_after_transform/forward", loweredProgram() } };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        QCOMPARE(record.edgeProgram("forward")->entry, std::string("edge_dialect_exported_program"));
        QCOMPARE(record.otherGraphs.size(), std::size_t(1));
        auto table = etrecordOperatorTable(record, "forward");
        QVERIFY(table.ok());
        QCOMPARE(table->delegatedSubgraphs, 2);
        QCOMPARE(table->delegatedNodes, 5);
    }

    void approximateTableFromHandles()
    {
        // §8 approximation: handles 2 and 3 sit in a DelegateCall's list → delegated; 1 is a kernel.
        ETRecordWriteSpec spec;
        EdgeProgram pre;
        pre.nodes = { node("aten_sub_tensor", "…sub.Tensor", { "x" }, 1),
            node("aten_convolution_default", "…", { "x" }, 2), node("aten_relu_default", "…", { "x" }, 3) };
        spec.edgePrograms = { { "forward", pre } };
        spec.debugHandleMap["forward"][0] = { handles({ 1 }), false };
        spec.debugHandleMap["forward"][1] = { handles({ 2, 3 }), true };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        auto table = etrecordOperatorTable(record, "forward");
        QVERIFY(table.ok());
        QVERIFY(table->source.starts_with("etrecord (approximate"));
        QCOMPARE(table->delegatedSubgraphs, 1);
        QCOMPARE(table->delegatedNodes, 2);
        QCOMPARE(table->nonDelegatedNodes, 1);
    }

    void mapsRoundTrip()
    {
        ETSCOPE_TAKE(const ETRecord record, readBack(written(stressRecord())));
        QCOMPARE(record.handlesOf("forward", 2), handles({ 5 }));
        QVERIFY(!record.debugHandleMap.at("forward").at(2).isList);
        QVERIFY(record.debugHandleMap.at("forward").at(13).isList);
        QCOMPARE(record.delegateMap.at("forward").at(13).backend, std::string("XnnpackBackend"));
        QCOMPARE(record.delegateMap.at("forward").at(13).identifiers[0].first, std::string("fc_first"));
        QCOMPARE(record.delegateOutputCounts("forward"), (std::map<int, int> { { 6, 1 }, { 13, 1 } }));
        QCOMPARE(record.methods(), std::vector<std::string> { "forward" });
        // §2.4 lookups: exact key; keys contained in the identifier override, the last winning;
        // an instruction without an entry → nullopt; an unknown identifier → no handles.
        QCOMPARE(
            record.delegateHandles("forward", 13, "fc_first"), std::optional<std::vector<DebugHandle>>(handles({ 9 })));
        QCOMPARE(record.delegateHandles("forward", 13, "fc_first then add"),
            std::optional<std::vector<DebugHandle>>(handles({ 8 })));
        QCOMPARE(record.delegateHandles("forward", 13, "nothing"),
            std::optional<std::vector<DebugHandle>>(std::vector<DebugHandle> {}));
        QVERIFY(!record.delegateHandles("forward", 6, "fc_first"));
    }

    void eventsThroughTheRecord()
    {
        // With the record: kernels get edge node names through debug_handle_map; a delegate event
        // whose identifier is in delegate_map lands on the inner node carrying the handle.
        ETSCOPE_TAKE(const ETRecord record, readBack(written(stressRecord())));
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte", &record));
        const Graph& graph = *document.methods.front().graph;
        const EventMapper mapper(graph, &record, "forward");
        const EventPlacement kernel = mapper.placeInstruction(ChainIndex(0), InstructionId(2));
        QCOMPARE(kernel.debugHandles, handles({ 5 }));
        QCOMPARE(mapper.edgeNodeNames(kernel.debugHandles), std::vector<std::string> { "aten_select_copy_int" });
        DelegateEventCursor cursor;
        const EventPlacement mapped
            = mapper.placeDelegateEvent(ChainIndex(0), InstructionId(13), DelegateDebugId::none(), "fc_first", cursor);
        QCOMPARE(mapped.rule, std::string("delegate_map"));
        const Node& inner = graph.node(mapped.origin.top).subgraph->node(mapped.origin.inner);
        QCOMPARE(inner.opType, std::string("XNNFullyConnected"));
        QCOMPARE(inner.debugHandle, std::optional<DebugHandle>(DebugHandle(9)));
        // XNNPACK's own names still go by operator order; their handles are empty (Inspector rule).
        const EventPlacement named = mapper.placeDelegateEvent(
            ChainIndex(0), InstructionId(13), DelegateDebugId::none(), "Add (ND) #1", cursor);
        QCOMPARE(named.rule, std::string("xnnpack order"));
        QVERIFY(named.debugHandles.empty());
        // num_outs from the record wins over the graph's split (2 outputs at instruction 6).
        QCOMPARE(EventMapper(graph).delegateOutputCount(InstructionId(6)), 2);
        QCOMPARE(mapper.delegateOutputCount(InstructionId(6)), 1);
    }

    void recordChangesTheGap()
    {
        // With num_outs[6] = 1 only the last arg of that delegate is compared: 16 rows → 15.
        ETSCOPE_TAKE(const ETRecord record, readBack(written(stressRecord())));
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte", &record));
        auto dump = readETDumpFile(etscope::test::samplePath("generated/stress_mlp/stress_mlp.intermediates.etdp"));
        QVERIFY(dump.ok());
        QVERIFY(!attachDebugBufferOrDefault(dump.value(), {}));
        const EventMapper mapper(*document.methods.front().graph, &record, "forward");
        const GapReport report = compareETDumps(*dump, *dump, mapper);
        QCOMPARE(report.rows.size(), std::size_t(15));
        QCOMPARE(report.rows[2].aotOps, std::vector<std::string> { "aten_select_copy_int" });
        // Profiling rows carry the edge names too.
        auto profileDump = readETDumpFile(etscope::test::samplePath("generated/stress_mlp/stress_mlp.profile.etdp"));
        QVERIFY(profileDump.ok());
        const RuntimeProfile profile = buildRuntimeProfile(*profileDump, mapper);
        bool named = false;
        for (const ProfileRow& row : profile.rows)
            if (row.instruction == InstructionId(2) && row.scope == ProfileRow::Scope::Kernel) {
                QCOMPARE(row.edgeNodes, std::vector<std::string> { "aten_select_copy_int" });
                named = true;
            }
        QVERIFY(named);
        // An Inspector row with handle (5,) finds instruction 2 through the record.
        auto rows
            = parseInspectorTable("aot_debug_handle,runtime_debug_handle,gap\n\"(5,)\",\"(5,)\",[0.0]\n", "t.csv");
        QVERIFY(rows.ok());
        const GapReport imported = mapInspectorTable(*rows, mapper, GapMetric::Mse, "t.csv");
        QCOMPARE(imported.rows[0].instruction, InstructionId(2));
        QVERIFY(imported.rows[0].matched);
    }

    void vulkanNodeIds()
    {
        // A Vulkan inner graph keeps each operator call's node id (§2.3): integer delegate ids
        // land on the node with that id. The graph is built in memory (no Vulkan sample exists).
        auto inner = std::make_shared<Graph>();
        inner->format = "vulkan";
        for (const int id : { 0, 1, 2 }) {
            Node op;
            op.kind = NodeKind::Operator;
            op.opType = "aten.relu.default";
            op.attributes.push_back({ "node id", std::to_string(id * 10) });
            inner->addNode(op);
        }
        Graph top;
        Node delegate;
        delegate.kind = NodeKind::Delegate;
        delegate.instruction = InstructionId(0);
        delegate.subgraph = inner;
        top.addNode(delegate);
        const EventMapper mapper(top);
        DelegateEventCursor cursor;
        const EventPlacement placement
            = mapper.placeDelegateEvent(ChainIndex(0), InstructionId(0), DelegateDebugId(20), "", cursor);
        QCOMPARE(placement.rule, std::string("vulkan node id"));
        QCOMPARE(placement.origin.inner, NodeId(2));
        QCOMPARE(mapper.placeDelegateEvent(ChainIndex(0), InstructionId(0), DelegateDebugId(99), "", cursor).rule,
            std::string("delegate"));
    }

    void hostileArchives_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::addRow("no marker") << 0 << int(Error::Code::BadIdentifier)
                                   << QStringLiteral("without the ETRECORD_V0 entry");
        QTest::addRow("climbing name") << 1 << int(Error::Code::Corrupt)
                                       << QStringLiteral("entry '../evil': the name climbs out");
        QTest::addRow("control character") << 2 << int(Error::Code::Corrupt) << QStringLiteral("control character");
        QTest::addRow("absolute name") << 3 << int(Error::Code::Corrupt) << QStringLiteral("absolute path");
        QTest::addRow("zip bomb") << 4 << int(Error::Code::Limit)
                                  << QStringLiteral("entry 'delegate_map': compression ratio above 200:1");
        QTest::addRow("too many entries")
            << 5 << int(Error::Code::Limit) << QStringLiteral("4097 entries (limit 4096)");
        QTest::addRow("broken map") << 6 << int(Error::Code::Corrupt)
                                    << QStringLiteral("entry 'debug_handle_map': not valid JSON");
        QTest::addRow("map of the wrong shape")
            << 7 << int(Error::Code::Corrupt) << QStringLiteral("expected a JSON object");
        QTest::addRow("duplicate names") << 8 << int(Error::Code::Corrupt)
                                         << QStringLiteral("two entries share one name");
        // Used to overflow the stack: the ordered delegate_map was copied into plain JSON to
        // measure its depth, and that copy recursed once per level.
        QTest::addRow("delegate_map nested 100,000 levels")
            << 9 << int(Error::Code::Corrupt)
            << QStringLiteral("entry 'delegate_map': JSON nested deeper than 1000 levels");
        QTest::addRow("map with a syntax error")
            << 10 << int(Error::Code::Corrupt)
            << QStringLiteral(
                   "entry 'instruction_id_to_num_outs_map': not valid JSON: parse error at line 1, column 13");
    }

    void hostileArchives()
    {
        QFETCH(int, which);
        QFETCH(int, code);
        QFETCH(QString, reason);
        std::vector<ZipWriteEntry> entries { { "ETRECORD_V0", "", false } };
        switch (which) {
        case 0:
            entries = { { "debug_handle_map", "{}", false } };
            break;
        case 1:
            entries.push_back({ "../evil", "x", false });
            break;
        case 2:
            entries.push_back({ "bad_Xname", "x", false });
            break;
        case 3:
            entries.push_back({ "/etc/passwd", "x", false });
            break;
        case 4:
            entries.push_back({ "delegate_map", std::string(4u << 20, ' '), true }); // 4 MiB deflating to ~4 KiB
            break;
        case 5:
            for (int i = 0; i < 4096; ++i)
                entries.push_back({ "e" + std::to_string(i), "", false });
            break;
        case 6:
            entries.push_back({ "debug_handle_map", "{\"forward\": {", false });
            break;
        case 7:
            entries.push_back({ "delegate_map", "[1, 2]", false });
            break;
        case 8:
            entries.push_back({ "debug_handle_map", "{}", false });
            entries.push_back({ "debug_handle_mbp", "{}", false });
            break;
        case 9:
            entries.push_back({ "delegate_map",
                "{\"forward\": {\"0\": {\"delegate_map\": " + std::string(100000, '[') + std::string(100000, ']')
                    + "}}}",
                false });
            break;
        case 10:
            entries.push_back({ "instruction_id_to_num_outs_map", "{\"forward\": x}", false });
            break;
        }
        ETSCOPE_TAKE(std::vector<std::uint8_t> bytes, zip(entries));
        // libzip refuses to write control characters or two entries of one name: patch the name
        // in place (the local header and the central directory both hold it; no CRC covers it).
        const auto patch = [&](const std::string& from, std::size_t at, std::uint8_t to) {
            for (std::size_t i = 0; i + from.size() <= bytes.size(); ++i)
                if (std::equal(from.begin(), from.end(), bytes.begin() + static_cast<std::ptrdiff_t>(i)))
                    bytes[i + at] = to;
        };
        if (which == 2)
            patch("bad_Xname", 4, 0x01);
        if (which == 8)
            patch("debug_handle_mbp", 14, 'a');
        auto record = readETRecord(MappedFile::fromBytes("hostile.etrecord", bytes));
        QVERIFY(!record.ok());
        QCOMPARE(int(record.error().code), code);
        QCOMPARE(record.error().file, std::string("hostile.etrecord"));
        QVERIFY2(QString::fromStdString(record.error().reason).contains(reason), record.error().reason.c_str());
    }

    void damagedGraphIsAWarning()
    {
        // A graph that is not JSON (or not a program) is skipped; the maps still load.
        ETRecordWriteSpec spec = stressRecord();
        spec.extraEntries = { { "edge_after_transform/forward", "not json", false },
            { "exported_program", "{\"graph_module\": {}}", false }, { "forward_state_dict", "PK…", false } };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        QCOMPARE(record.warnings.size(), std::size_t(2));
        QCOMPARE(record.otherGraphs.size(), std::size_t(0));
        QCOMPARE(record.delegateOutputCounts("forward").size(), std::size_t(2));
        QCOMPARE(record.entries.back().role, std::string("companion"));
    }

    void hostileGraphsAreWarnings()
    {
        // Graphs of the wrong types or nested too deeply are skipped with a warning naming the
        // entry; nothing throws out of the reader (schema_version.major used to, as a string).
        ETRecordWriteSpec spec = stressRecord();
        spec.extraEntries = {
            { "edge_after_transform/forward",
                R"({"schema_version": {"major": "5", "minor": [4]}, "graph_module": {"graph": {"nodes": [7, {"name": 3,
                   "target": {"x": 1}, "inputs": {"a": 1}, "outputs": "y", "metadata": {"debug_handle": "12x"}}]}}})",
                false },
            { "edge_after_transform/deep", std::string(5000, '[') + std::string(5000, ']'), false },
        };
        ETSCOPE_TAKE(const ETRecord record, readBack(written(spec)));
        QCOMPARE(record.otherGraphs.size(), std::size_t(1));
        const EdgeProgram& odd = *record.otherGraphs.front().program;
        QCOMPARE(odd.schemaVersion, std::string("0.0"));
        QCOMPARE(odd.nodes.size(), std::size_t(1));
        QCOMPARE(odd.nodes.front().name, std::string("node_1"));
        QVERIFY(!odd.nodes.front().debugHandle);
        QVERIFY(anyWarning(record.warnings, "node 0 is not an object"));
        QVERIFY(anyWarning(record.warnings, "entry 'edge_after_transform/deep': JSON nested deeper than 1000 levels"));
    }

    void bytesInFrontAreForgiven()
    {
        // A stub (or a writer counting from elsewhere) in front: every offset is read shifted,
        // as Python's zipfile and unzip do, and a warning says by how much.
        ETSCOPE_TAKE(const auto plain, written(stressRecord()));
        ETSCOPE_TAKE(const ETRecord reference, readBack(plain));
        for (const std::size_t front : { std::size_t(1), std::size_t(12), std::size_t(4096) }) {
            std::vector<std::uint8_t> bytes(front, 0x23);
            bytes.insert(bytes.end(), plain.begin(), plain.end());
            ETSCOPE_TAKE(const ETRecord record, readBack(bytes));
            QVERIFY(anyWarning(record.warnings, std::to_string(front) + " extra bytes at the beginning"));
            QCOMPARE(record.entries.size(), reference.entries.size());
            QVERIFY(record.edgeProgram("forward"));
            QCOMPARE(record.edgeProgram("forward")->program->nodes.size(), std::size_t(3));
            QCOMPARE(record.delegateOutputCounts("forward"), reference.delegateOutputCounts("forward"));
            QVERIFY(!anyWarning(record.warnings, "cannot be read"));
        }
        QVERIFY(reference.warnings.empty());
    }

    void shiftedCentralDirectorySample()
    {
        // The 2024 ETRecord: the central directory counts 12 bytes more than lie before it, and two
        // JSON entries are longer than declared. What Python reads, this reads; the two graphs that
        // Python cannot read either ("Bad magic number for file header") are named in warnings.
        auto record = readETRecordFile(samplePath("executorch-2024/etrecord_dev_tools_2024-07.bin"));
        QVERIFY2(record, record ? "" : record.error().message().c_str());
        QCOMPARE(record->entries.size(), std::size_t(7));
        QVERIFY(anyWarning(record->warnings, "12 extra bytes at the beginning of or within the ZIP archive"));
        QVERIFY(anyWarning(record->warnings,
            "entry 'edge_dialect_exported_program': its local header is not where the central directory says"));
        QVERIFY(anyWarning(record->warnings,
            "entry 'aten_dialect_output/forward': its local header is not where the central directory says"));
        QVERIFY(!record->edgeProgram("forward"));
        QVERIFY(record->debugHandleMap.empty());
    }

    void compressedEntriesRead()
    {
        // Python may also deflate; a modest deflated JSON map reads like a stored one.
        std::string map = "{\"forward\": {";
        for (int i = 0; i < 200; ++i)
            map += (i ? ", \"" : "\"") + std::to_string(i) + "\": 1";
        map += "}}";
        std::vector<ZipWriteEntry> entries { { "ETRECORD_V0", "", false },
            { "instruction_id_to_num_outs_map", map, true } };
        ETSCOPE_TAKE(const ETRecord record, readBack(zip(entries)));
        QCOMPARE(record.delegateOutputCounts("forward").size(), std::size_t(200));
        QCOMPARE(record.delegateOutputCounts("forward").at(199), 1);
        QVERIFY(record.entries[1].size != record.entries[1].compressedSize);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestETRecordFixtures)
#include "tst_etrecordfixtures.moc"
