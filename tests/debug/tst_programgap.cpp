// SPDX-License-Identifier: MIT
// The numeric gap across two builds (issue 24): node pairing through diff's matching, the
// dequantization of int8 outputs, thresholds and the first divergence, and each bad input.
// Fixtures come from the project's writer (core/writer/debug/gapfixtures.h: one MLP written
// float-portable, quantized-portable and XNNPACK-delegated, with runs that agree up to a planted
// divergence at the last addmm) and from small programs written here; real generated ETDumps
// are compared with themselves.
//
// Why one file: one test class for compareProgramRuns and the divergence rule; the written MLP
// builds and their runs (gapfixtures, reluRun) serve all of its cases.
#include "tests/common/documentbytes.h"
#include "tests/common/openedrun.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/analysis/gappairing.h"
#include "core/debug/inspectortable.h"
#include "core/debug/programgap.h"
#include "core/util/mappedfile.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>

using namespace etscope::core;
using etscope::test::documentFromBytes;

namespace {

using Opened = etscope::test::OpenedRun;

ProgramRun side(const Opened& o, std::size_t block = 0)
{
    return { o.document->path, o.method, o.mapper.get(), &*o.dump, block };
}

Result<std::unique_ptr<Opened>> open(const std::vector<std::uint8_t>& program, const std::vector<std::uint8_t>& etdump,
    const std::vector<std::uint8_t>& buffer, const std::vector<std::uint8_t>& etrecord, const std::string& name)
{
    return etscope::test::openRun(program, etdump, buffer, etrecord, name);
}

Result<std::unique_ptr<Opened>> open(const GapBuild& build, const std::string& name, bool withRecord)
{
    return etscope::test::openRun(build, name, withRecord);
}

Result<ProgramGapReport> compare(const Opened& run, const Opened& reference, bool records)
{
    auto pairing = pairProgramNodes(*reference.document, *run.document, run.method->name,
        records && reference.record ? &*reference.record : nullptr, records && run.record ? &*run.record : nullptr);
    if (!pairing)
        return pairing.error();
    return compareProgramRuns(side(run), side(reference), *pairing);
}

const ProgramGapRow* rowOf(const ProgramGapReport& report, const std::string& label, int output = 0)
{
    for (const ProgramGapRow& row : report.rows)
        if (row.run.label == label && row.run.outputIndex == output)
            return &row;
    return nullptr;
}

using etscope::test::anyWarning;

// --- small hand-written programs ----------------------------------------------------------------

/// forward(x [4]) = relu(x), the relu writing `type`; with `dequantize`, a
/// dequantize_per_tensor(scale, zero_point) reads the relu's output.
ProgramSpec reluProgram(int type, std::int32_t size, std::optional<std::pair<double, std::int64_t>> dequantize)
{
    ProgramSpec program;
    MethodSpec& method = program.addMethod("forward");
    const auto planned = [&](int scalarType, std::uint64_t offset) {
        TensorSpec t;
        t.scalarType = scalarType;
        t.sizes = { size };
        t.allocation = AllocationSpec { 1, offset };
        return method.addTensor(std::move(t));
    };
    const std::int32_t x = planned(type, 0);
    const std::int32_t r = planned(type, 256);
    method.inputs = { x };
    method.addInstruction(InstructionSpec::kernel(method.addOperator("aten::relu", "out"), { x, r, r }));
    std::int32_t out = r;
    if (dequantize) {
        const std::int32_t scale = method.addValue(ValueSpec::real(dequantize->first));
        const std::int32_t zero = method.addValue(ValueSpec::integer(dequantize->second));
        const std::int32_t qmin = method.addValue(ValueSpec::integer(-128));
        const std::int32_t qmax = method.addValue(ValueSpec::integer(127));
        const std::int32_t dtype = method.addValue(ValueSpec::integer(type));
        const std::int32_t d = planned(scalar_type::Float, 512);
        method.addInstruction(
            InstructionSpec::kernel(method.addOperator("quantized_decomposed::dequantize_per_tensor", "out"),
                { r, scale, zero, qmin, qmax, dtype, d, d }));
        out = d;
    }
    method.outputs = { out };
    method.computeArenaSizes();
    return program;
}

/// One Execute block logging `values` (of `type`, shape [n]) for instruction 0.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> reluRun(int type, const std::vector<double>& values)
{
    DebugBufferWriter buffer;
    RunBlock block;
    block.name = "Execute";
    DebugEvent event;
    event.instructionId = InstructionId(0);
    event.value.kind = DebugValue::Kind::Tensor;
    event.value.rawKind = 5;
    DebugTensor t;
    t.scalarType = type;
    t.sizes = { static_cast<std::int64_t>(values.size()) };
    t.strides = { 1 };
    t.offset = buffer.appendValues(type, values);
    event.value.tensors = { t };
    block.debugEvents.push_back(event);
    return { writeETDump({ block }), buffer.bytes() };
}

Result<std::unique_ptr<Opened>> reluOpened(
    const ProgramSpec& program, int type, const std::vector<double>& values, const std::string& name)
{
    const auto [etdump, buffer] = reluRun(type, values);
    const auto written = writeProgram(program);
    if (!written)
        return written.error();
    return open(written.value(), etdump, buffer, {}, name);
}

} // namespace

class TestProgramGap : public QObject {
    Q_OBJECT
private slots:
    void thresholdsParse()
    {
        auto snr = parseDivergenceThreshold("SNR=15");
        QVERIFY(snr);
        QCOMPARE(snr->metric, std::string("snr"));
        QCOMPARE(snr->value, 15.0);
        auto max = parseDivergenceThreshold("max_abs=1e-3");
        QVERIFY(max);
        QCOMPARE(max->metric, std::string("maxabs"));
        QCOMPARE(max->value, 1e-3);
        QVERIFY(parseDivergenceThreshold("rel=0.05"));
        QVERIFY(!parseDivergenceThreshold("snr"));
        QVERIFY(!parseDivergenceThreshold("psnr=3"));
        QVERIFY(!parseDivergenceThreshold("snr=abc"));
        QVERIFY(!parseDivergenceThreshold("snr=inf"));
        QVERIFY(!parseDivergenceThreshold("snr=3x"));
        const std::vector<DivergenceThreshold> defaults { { "snr", 20 }, { "rel", 0.1 } };
        QVERIFY(defaultDivergenceThresholds() == defaults);
        const std::vector<DivergenceThreshold> imported { { "jump", 1000 } };
        QVERIFY(defaultDivergenceThresholds(true) == imported);
        QCOMPARE(describeThresholds(defaults), std::string("snr < 20 dB or rel > 0.1"));
    }

    /// The rule on rows made here: reference [1, 2, 3, 4] against runs written by hand.
    void ruleOnRows()
    {
        const std::vector<double> reference { 1, 2, 3, 4 };
        const auto row = [&](std::vector<double> run) {
            GapRow r;
            r.metrics = computeGapMetrics(reference, run);
            return r;
        };
        const DivergenceRule rule;
        // One element off by 0.2: mse 0.01, mean(a²) = 30/4 = 7.5 → snr 10·log10(750) = 28.75 dB;
        // rel 0.2/4 = 0.05. Within both.
        QVERIFY(!rule.crosses(row({ 1, 2, 3, 4.2 })));
        // Off by 2 in one element: mse 1, snr 10·log10(7.5) = 8.75 dB < 20.
        auto crossing = rule.crosses(row({ 1, 2, 3, 6 }));
        QVERIFY(crossing);
        QCOMPARE(crossing->metric, std::string("snr"));
        QVERIFY(std::abs(crossing->value - 10 * std::log10(7.5)) < 1e-12);
        // Said with the precision a reader uses (issue 27: "snr 8.75061 dB"): snr to 0.1 dB.
        QCOMPARE(crossing->text, std::string("snr 8.8 dB < 20 dB"));
        // The row's measures: mse 1; cosine = (1+4+9+24)/√(30·50) = 38/√1500 = 0.98116, 1 − it =
        // 0.0188, so 3 decimals; maxabs 2; reference max |a| 4.
        FirstDivergence first;
        first.crossing = *crossing;
        first.path = { "forward", "#0 aten::relu.out" };
        const GapRow diverging = row({ 1, 2, 3, 6 });
        auto lines = firstDivergenceLines(first, &diverging, 1, 1, rule, nullptr);
        QVERIFY(std::find(lines.begin(), lines.end(), "  snr 8.8 dB < 20 dB (thresholds: snr < 20 dB or rel > 0.1)")
            != lines.end());
        QVERIFY(
            std::find(lines.begin(), lines.end(), "  mse 1, snr 8.8 dB, cosine 0.981, maxabs 2 (reference max |a| 4)")
            != lines.end());
        // Off by 0.2: cosine 30.8/√(30·31.64) = 0.9997050, 1 − it = 2.95e-4: shown to its second
        // significant digit (5 decimals), not as 1; mse 0.2²/4 = 0.01; snr 28.75 dB.
        const GapRow close = row({ 1, 2, 3, 4.2 });
        lines = firstDivergenceLines(first, &close, 1, 1, rule, nullptr);
        QVERIFY(std::find(lines.begin(), lines.end(),
                    "  mse 0.01, snr 28.8 dB, cosine 0.99970, maxabs 0.2 (reference max |a| 4)")
            != lines.end());
        // A value that rounds onto the threshold keeps the digits that show the crossing: mse 1
        // against a user's snr < 8.751 (the row's snr is 8.7506).
        const auto near = DivergenceRule({ { "snr", 8.751 } }).crosses(diverging);
        QVERIFY(near);
        QCOMPARE(near->text, std::string("snr 8.7506 dB < 8.751 dB"));
        // Only rel: reference [100, 100, 100, 1], run off by 15 in the first element: mse 56.25,
        // mean(a²) 7500.25 → snr 21.25 dB (within), rel 15/100 = 0.15 > 0.1.
        GapRow relRow;
        relRow.metrics
            = computeGapMetrics(std::vector<double> { 100, 100, 100, 1 }, std::vector<double> { 115, 100, 100, 1 });
        crossing = rule.crosses(relRow);
        QVERIFY(crossing);
        QCOMPARE(crossing->metric, std::string("rel"));
        QCOMPARE(crossing->value, 0.15);
        // A NaN in the run crosses (read as 0: the error is the element itself).
        QVERIFY(DivergenceRule({ { "maxabs", 10 } }).crosses(row({ 1, 2, 3, std::nan("") })) == std::nullopt);
        GapRow nanRow;
        nanRow.metrics = GapMetrics {};
        nanRow.metrics->snr = std::nan("");
        QVERIFY(rule.crosses(nanRow));
        // User thresholds replace the defaults: maxabs 1 → off by 2 crosses, off by 0.2 not.
        const DivergenceRule absolute({ { "maxabs", 1.0 } });
        QVERIFY(absolute.crosses(row({ 1, 2, 3, 6 })));
        QVERIFY(!absolute.crosses(row({ 1, 2, 3, 4.2 })));
        // Identical: snr inf, rel 0.
        QVERIFY(!rule.crosses(row({ 1, 2, 3, 4 })));
    }

    /// "jump": imported gaps 0.25, 0.25, 2.5e8 (10⁹ × the others), 0.25 → median of the positive
    /// gaps 0.25, the third is 1e9 × it.
    void jumpOnImportedGaps()
    {
        DivergenceRule rule(defaultDivergenceThresholds(true), GapMetric::Mse);
        std::vector<GapRow> rows(4);
        const double gaps[] = { 0.25, 0.25, 2.5e8, 0.25 };
        for (int i = 0; i < 4; ++i)
            rows[static_cast<std::size_t>(i)].imported = { gaps[i] };
        for (const GapRow& r : rows)
            rule.observe(r);
        QCOMPARE(*rule.jumpBaseline(), 0.25);
        QVERIFY(!rule.crosses(rows[0]));
        const auto crossing = rule.crosses(rows[2]);
        QVERIFY(crossing);
        QCOMPARE(crossing->metric, std::string("jump"));
        QCOMPARE(crossing->value, 1e9);
    }

    /// An Inspector table as pandas prints it (`df.to_string()`, the table of tst_numericgap's
    /// kMlpToString for stress_mlp.pte) with the third row's gap 10⁹ × the others' 0.25: the
    /// first divergence is that row (row 2: aten_mul_tensor's DELEGATE_CALL).
    void inspectorPrintedTableDivergence()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const char* table
            = "   idx                                 aot_ops                aot_intermediate_output                  "
              "      runtime_ops            runtime_intermediate_output                    gap\n"
              "0    0                  [aten_select_copy_int]                      tensor([0.1250])  "
              "[native_call_select_copy.int_out]                      tensor([0.6250])                 [0.25]\n"
              "1    1                [aten_select_copy_int_1]                         tensor(2.5000)  "
              "[native_call_select_copy.int_out]                             tensor(2.)                 [0.25]\n"
              "2    2    [aten_mul_tensor, aten_mul_tensor_1]                         tensor(2.5000)  "
              "                  [DELEGATE_CALL]                         tensor(2.5000)          [250000000.0]\n"
              "3    3                    [aten_clamp_default]                              tensor(3)  "
              "          [native_call_clamp.out]                            tensor(2.5)                 [0.25]\n";
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("gap.txt")).toStdString();
        std::ofstream(path) << table;
        auto document = openDocument(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(document);
        const EventMapper mapper(*document->methods.front().graph, nullptr, "forward");
        auto report = importInspectorTable(path, mapper, GapMetric::Mse);
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->rows.size(), std::size_t(4));
        const auto divergence = findFirstDivergence(*report, mapper, DivergenceRule({}, GapMetric::Mse));
        QVERIFY(!divergence); // no thresholds: nothing crosses
        const auto found
            = findFirstDivergence(*report, mapper, DivergenceRule(defaultDivergenceThresholds(true), GapMetric::Mse));
        QVERIFY(found);
        // The Inspector's own gap decides (the printed tensors of rows 0 and 1 differ by 0.5, as
        // their gap 0.25 says; row 2's agree as printed).
        QCOMPARE(found->row, std::size_t(2));
        QCOMPARE(found->crossing.metric, std::string("jump"));
        QCOMPARE(found->crossing.value, 1e9);
        QCOMPARE(found->comparedBefore, std::size_t(2));
    }

    /// relu writing int8 [0, 2, 4, 10] with dequantize_per_tensor(scale 0.5, zero_point -2)
    /// after it, against a float relu of [1, 2, 3, 5]: (q − (−2)) × 0.5 = [1, 2, 3, 6]; the
    /// differences [0, 0, 0, 1] give mse 1/4, l1 1, maxabs 1; mean(a²) = (1+4+9+25)/4 = 9.75, so
    /// snr = 10·log10(9.75/0.25) = 10·log10(39) dB; rel = 1/5.
    void dequantizesInt8ByHand()
    {
        ETSCOPE_TAKE(const auto run,
            reluOpened(reluProgram(scalar_type::Char, 4, std::pair(0.5, std::int64_t(-2))), scalar_type::Char,
                { 0, 2, 4, 10 }, "q"));
        ETSCOPE_TAKE(const auto reference,
            reluOpened(reluProgram(scalar_type::Float, 4, std::nullopt), scalar_type::Float, { 1, 2, 3, 5 }, "f"));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        const ProgramGapRow* row = rowOf(report, "#0 aten::relu.out");
        QVERIFY(row);
        QCOMPARE(row->referenceLabel, std::string("#0 aten::relu.out"));
        QCOMPARE(row->matchedBy, std::string("execution order"));
        QVERIFY(row->run.metrics);
        QCOMPARE(row->run.metrics->mse, 0.25);
        QCOMPARE(row->run.metrics->l1, 1.0);
        QCOMPARE(row->run.metrics->maxAbs, 1.0);
        QVERIFY(std::abs(row->run.metrics->snr - 10 * std::log10(39.0)) < 1e-12);
        QCOMPARE(row->run.metrics->referenceMaxAbs, 5.0);
        QCOMPARE(
            row->dequantized, std::string("run dequantized (scale 0.5, zero_point -2, from dequantize_per_tensor #1)"));
        // snr 15.9 dB < 20: the relu is the first divergence.
        const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
        QVERIFY(divergence);
        QCOMPARE(joinNodePath(divergence->path), std::string("forward › #0 aten::relu.out"));
        QCOMPARE(divergence->crossing.metric, std::string("snr"));
    }

    /// Where the parameters come from, on graphs made here: a delegate call whose XNNPACK
    /// external output (argument 1 of the call) states "per tensor, scale 0.25, zero point 3";
    /// the inner node writing that output; a quantize_per_tensor's own Double/Int arguments; and
    /// nothing for a per-channel output or a plain node.
    void quantizationSources()
    {
        Graph graph;
        auto inner = std::make_shared<Graph>();
        Node fc;
        fc.kind = NodeKind::Operator;
        fc.label = "XNNFullyConnected";
        const NodeId fcId = inner->addNode(fc);
        Node out;
        out.kind = NodeKind::Output;
        out.label = "output 0";
        out.argPosition = 1;
        out.attributes.add("quantization", "per tensor");
        out.attributes.add("scale", "0.25");
        out.attributes.add("zero point", "3");
        const NodeId outId = inner->addNode(out);
        Edge edge;
        edge.from = fcId;
        edge.to = outId;
        inner->addEdge(edge);
        Node call;
        call.kind = NodeKind::Delegate;
        call.label = "XnnpackBackend";
        call.instruction = InstructionId(0);
        call.args = { 0, 1 };
        call.inputCount = 1;
        call.subgraph = inner;
        const NodeId callId = graph.addNode(call);

        Method method;
        method.values.resize(5);
        method.values[2].kind = Value::Kind::Double;
        method.values[2].doubleValue = 0.125;
        method.values[3].kind = Value::Kind::Int;
        method.values[3].intValue = -7;
        Node quantize;
        quantize.kind = NodeKind::Operator;
        quantize.label = "quantized_decomposed::quantize_per_tensor.out";
        quantize.opType = "quantized_decomposed::quantize_per_tensor.out";
        quantize.instruction = InstructionId(1);
        quantize.args = { 1, 2, 3, 0, 0, 0, 4 };
        const NodeId quantizeId = graph.addNode(quantize);
        Node plain;
        plain.kind = NodeKind::Operator;
        plain.label = "aten::relu.out";
        plain.opType = "aten::relu.out";
        plain.instruction = InstructionId(2);
        const NodeId plainId = graph.addNode(plain);

        const auto call0 = statedQuantization(graph, method, { callId, NodeId::none() }, 0);
        QVERIFY(call0);
        QCOMPARE(call0->scale, 0.25);
        QCOMPARE(call0->zeroPoint, std::int64_t(3));
        QCOMPARE(call0->source, std::string("XnnpackBackend output 0"));
        const auto writer = statedQuantization(graph, method, { callId, fcId }, 0);
        QVERIFY(writer);
        QCOMPARE(writer->scale, 0.25);
        QVERIFY(!statedQuantization(graph, method, { callId, NodeId::none() }, 1)); // no argument 2
        const auto own = statedQuantization(graph, method, { quantizeId, NodeId::none() }, 0);
        QVERIFY(own);
        QCOMPARE(own->scale, 0.125);
        QCOMPARE(own->zeroPoint, std::int64_t(-7));
        QCOMPARE(own->source, std::string("quantize_per_tensor #1"));
        QVERIFY(!statedQuantization(graph, method, { plainId, NodeId::none() }, 0));
        // Per channel: not dequantized.
        auto perChannel = std::make_shared<Graph>(*inner);
        perChannel->nodes[outId.index()].attributes = AttributeList();
        perChannel->nodes[outId.index()].attributes.add("quantization", "per channel");
        graph.nodes[callId.index()].subgraph = perChannel;
        QVERIFY(!statedQuantization(graph, method, { callId, NodeId::none() }, 0));
    }

    /// The same int8 relu without the dequantize: no parameters, so not compared, and the row says
    /// which program lacks them.
    void missingQuantizationParameters()
    {
        ETSCOPE_TAKE(const auto run,
            reluOpened(
                reluProgram(scalar_type::Char, 4, std::nullopt), scalar_type::Char, { 0, 2, 4, 10 }, "noparams"));
        ETSCOPE_TAKE(const auto reference,
            reluOpened(reluProgram(scalar_type::Float, 4, std::nullopt), scalar_type::Float, { 1, 2, 3, 5 }, "f"));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        const ProgramGapRow* row = rowOf(report, "#0 aten::relu.out");
        QVERIFY(row);
        QVERIFY(!row->run.metrics);
        QVERIFY(row->run.problem.find("noparams.pte") != std::string::npos);
        QVERIFY(row->run.problem.find("no quantization parameters") != std::string::npos);
        QVERIFY(row->dequantized.empty());
        QVERIFY(!findFirstDivergence(report, *run->mapper, *reference->mapper));
    }

    /// A relu of 5 elements against one of 4: not compared, both files named.
    void shapesDisagree()
    {
        ETSCOPE_TAKE(const auto run,
            reluOpened(
                reluProgram(scalar_type::Float, 5, std::nullopt), scalar_type::Float, { 1, 2, 3, 4, 5 }, "five"));
        ETSCOPE_TAKE(const auto reference,
            reluOpened(reluProgram(scalar_type::Float, 4, std::nullopt), scalar_type::Float, { 1, 2, 3, 4 }, "four"));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        const ProgramGapRow* row = rowOf(report, "#0 aten::relu.out");
        QVERIFY(row);
        QVERIFY(!row->run.metrics);
        QCOMPARE(row->run.problem,
            std::string("shapes differ: run [5] (five.etdp), reference [4] (four.etdp): not compared"));
    }

    /// XNNPACK-delegated run against the float-portable one, paired by execution order and
    /// operator families (no ETRecords): the delegate's output pairs with portable relu #3
    /// through the XNNClamp that writes it and agrees exactly; the planted offset 4 at the
    /// lowered #1 addmm is the first divergence.
    void loweredAgainstPortable()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(f.lowered, "lowered", false));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", false));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        QVERIFY(report.warnings.empty());
        // Inner node 8 is the second Clamp, writing the delegate output (the decoded inner graph
        // has FullyConnected, Clamp, FullyConnected, Clamp as nodes 3, 4, 7, 8).
        const ProgramGapRow* delegate = rowOf(report, "#0 XnnpackBackend › XNNClamp (node 8)");
        QVERIFY(delegate);
        QCOMPARE(delegate->referenceLabel, std::string("#3 aten::relu.out"));
        QCOMPARE(delegate->matchedBy, std::string("operator family"));
        QVERIFY(delegate->run.metrics);
        QCOMPARE(delegate->run.metrics->mse, 0.0);
        const ProgramGapRow* addmm = rowOf(report, "#1 aten::addmm.out");
        QVERIFY(addmm);
        QCOMPARE(addmm->referenceLabel, std::string("#4 aten::addmm.out"));
        QCOMPARE(addmm->matchedBy, std::string("execution order"));
        // One element off by 4 among 10: mse 16/10, maxabs 4 (both runs store float32, so up to
        // float rounding of the two logits).
        QVERIFY(std::abs(addmm->run.metrics->mse - 1.6) < 1e-5);
        QVERIFY(std::abs(addmm->run.metrics->maxAbs - 4.0) < 1e-5);
        const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
        QVERIFY(divergence);
        QCOMPARE(joinNodePath(divergence->path), std::string("forward › #1 aten::addmm.out"));
        QCOMPARE(joinNodePath(divergence->referencePath), std::string("forward › #4 aten::addmm.out"));
        QCOMPARE(divergence->runNode.top, run->mapper->instructionNode(ChainIndex(0), InstructionId(1)));
        QVERIFY(!divergence->runNode.inner.valid());
        QCOMPARE(divergence->comparedBefore, std::size_t(1));
        // The program output (softmax of the wrong logits) follows, last.
        QCOMPARE(report.rows.back().run.label, std::string("output 0"));
        QCOMPARE(report.rows.back().matchedBy, std::string("position"));
    }

    /// With both ETRecords, every pair of the lowered run comes from the debug handles.
    void loweredWithRecords()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(f.lowered, "lowered", true));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", true));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, true));
        QCOMPARE(report.matching, std::string("debug handles"));
        const ProgramGapRow* delegate = rowOf(report, "#0 XnnpackBackend › XNNClamp (node 8)");
        QVERIFY(delegate);
        QCOMPARE(delegate->referenceLabel, std::string("#3 aten::relu.out"));
        QCOMPARE(delegate->matchedBy, std::string("debug handle"));
        const ProgramGapRow* addmm = rowOf(report, "#1 aten::addmm.out");
        QVERIFY(addmm);
        QCOMPARE(addmm->matchedBy, std::string("debug handle"));
        const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
        QVERIFY(divergence);
        QCOMPARE(joinNodePath(divergence->path), std::string("forward › #1 aten::addmm.out"));
    }

    /// Quantized-portable run against the float one: the int8 relus are dequantized with the
    /// scale the dequantize_per_tensor after them states (scale0 = max|h0|/127, zero point 0),
    /// their rounding stays within the thresholds, and the planted addmm (#8 ↔ #4) is the first
    /// divergence, by debug handle with the ETRecords and by execution order without.
    void quantizedAgainstPortable()
    {
        const GapFixtures f = makeGapFixtures();
        for (const bool records : { false, true }) {
            ETSCOPE_TAKE(const auto run, open(f.quantized, "quantized", records));
            ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", records));
            ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, records));
            const ProgramGapRow* relu = rowOf(report, "#2 aten::relu.out");
            QVERIFY(relu);
            QCOMPARE(relu->referenceLabel, std::string("#1 aten::relu.out"));
            QCOMPARE(relu->matchedBy, std::string(records ? "debug handle" : "execution order"));
            QCOMPARE(relu->run.dtype, std::string("CHAR"));
            QVERIFY(relu->dequantized.find("run dequantized (scale ") == 0);
            QVERIFY(relu->dequantized.find(", zero_point 0, from dequantize_per_tensor #3)") != std::string::npos);
            QVERIFY(relu->run.metrics);
            // Rounding to the nearest step: at most half a step, scale0 / 2, per element.
            QVERIFY(relu->run.metrics->maxAbs <= f.scale0 / 2 + 1e-12);
            // The quantize/dequantize nodes have no partner in the float build.
            QCOMPARE(report.runOnly, std::size_t(4));
            const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
            QVERIFY(divergence);
            QCOMPARE(joinNodePath(divergence->path), std::string("forward › #8 aten::addmm.out"));
            QCOMPARE(joinNodePath(divergence->referencePath), std::string("forward › #4 aten::addmm.out"));
            QCOMPARE(report.rows[divergence->row].matchedBy, std::string(records ? "debug handle" : "execution order"));
        }
    }

    /// Without the plant, neither build diverges from the float one.
    void noPlantNoDivergence()
    {
        const GapFixtures f = makeGapFixtures({ 8, false, 0 });
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", false));
        for (const GapBuild* build : { &f.lowered, &f.quantized, &f.portable }) {
            ETSCOPE_TAKE(const auto run, open(*build, "run", false));
            ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
            QVERIFY(!report.rows.empty());
            QVERIFY(!findFirstDivergence(report, *run->mapper, *reference->mapper));
        }
    }

    /// Different models: the MLP against a single relu: a warning naming both programs, and the
    /// pairs diff still finds are compared.
    void mismatchedPrograms()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(f.portable, "mlp", false));
        ETSCOPE_TAKE(const auto reference,
            reluOpened(reluProgram(scalar_type::Float, 8, std::nullopt), scalar_type::Float, { 1, 2, 3, 4, 5, 6, 7, 8 },
                "relu"));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        QVERIFY(anyWarning(report.warnings, "the programs look like different models"));
        QVERIFY(anyWarning(report.warnings, "mlp.pte"));
        QVERIFY(anyWarning(report.warnings, "relu.pte"));
        // relu #1 of the MLP pairs with the relu ([1, 8] against [8]: as many elements).
        const ProgramGapRow* relu = rowOf(report, "#1 aten::relu.out");
        QVERIFY(relu);
        QVERIFY(relu->run.metrics);
    }

    /// A run cut short (only the first two instructions logged) against the whole one.
    void runsOfDifferentLengths()
    {
        const GapFixtures f = makeGapFixtures();
        auto dump = readETDump(MappedFile::fromBytes("p.etdp", f.portable.etdump));
        QVERIFY(dump);
        RunBlock block = dump->runs.front();
        block.debugEvents.resize(2);
        GapBuild cut = f.portable;
        cut.etdump = writeETDump({ block });
        ETSCOPE_TAKE(const auto run, open(cut, "cut", false));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "whole", false));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        QVERIFY(anyWarning(report.warnings,
            "runs of different lengths: cut.etdp logged the outputs of 2 of 6 instructions, whole.etdp 6 of 6"));
        const ProgramGapRow* missing = rowOf(report, "#2 aten::addmm.out");
        QVERIFY(missing);
        QVERIFY(!missing->run.metrics);
        QCOMPARE(missing->run.problem, std::string("cut.etdp logged no output 0 for #2 aten::addmm.out (its run)"));
        QVERIFY(rowOf(report, "#0 aten::addmm.out")->run.metrics);
        QVERIFY(!findFirstDivergence(report, *run->mapper, *reference->mapper));
    }

    /// Missing Execute block: a warning naming the file, no rows, no crash.
    void missingBlock()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(f.portable, "run", false));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "reference", false));
        auto pairing = pairProgramNodes(*reference->document, *run->document, "forward");
        QVERIFY(pairing);
        auto report = compareProgramRuns(side(*run, 3), side(*reference), *pairing);
        QVERIFY(report);
        QVERIFY(anyWarning(report->warnings, "run.etdp: no Execute block 3 (it has 1)"));
        for (const ProgramGapRow& row : report->rows)
            QVERIFY(!row.run.metrics);
        ProgramRun empty;
        QVERIFY(!compareProgramRuns(empty, side(*reference), *pairing));
    }

    /// Real generated ETDumps (ExecuTorch's runtime) against themselves: every row compared,
    /// identical, no divergence.
    void realDumpsAgainstThemselves_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("dump");
        QTest::addRow("stress_mlp") << "djl-executorch-engine/stress_mlp.pte"
                                    << "stress_mlp/stress_mlp.intermediates";
        QTest::addRow("add") << "executorch/add.pte"
                             << "add/add.intermediates";
        QTest::addRow("quantized") << "executorch-numpy-runtime/quantized.pte"
                                   << "quantized/quantized.intermediates";
        QTest::addRow("spike_conv") << "djl-executorch-engine/spike_conv.pte"
                                    << "spike_conv/spike_conv.intermediates";
    }

    void realDumpsAgainstThemselves()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(QString, program);
        QFETCH(QString, dump);
        const std::string programPath = etscope::test::samplePath(program.toStdString());
        const std::string dumpPath = etscope::test::samplePath("generated/" + dump.toStdString() + ".etdp");
        auto document = openDocument(programPath);
        QVERIFY(document);
        auto etdump = readETDumpFile(dumpPath);
        QVERIFY(etdump);
        QVERIFY(!attachDebugBufferOrDefault(etdump.value(), {}));
        const Method& method = *selectFirstMethod(*document->program);
        const EventMapper mapper(*document->analysis(method)->graph, nullptr, method.name);
        auto pairing = pairProgramNodes(*document, *document, method.name);
        QVERIFY(pairing);
        const ProgramRun side { programPath, &method, &mapper, &*etdump, 0 };
        auto report = compareProgramRuns(side, side, *pairing);
        QVERIFY(report);
        QVERIFY(!report->rows.empty());
        for (const ProgramGapRow& row : report->rows) {
            QVERIFY2(row.run.metrics, row.run.problem.c_str());
            QCOMPARE(row.run.metrics->mse, 0.0);
            QCOMPARE(row.run.label, row.referenceLabel);
        }
        QVERIFY(!findFirstDivergence(*report, mapper, mapper));
    }

    // --- inside delegates (part 4) ------------------------------------------------------------

    /// The inside builds (core/writer/debug/gapfixtures.h): the XNNPACK program whose delegate
    /// logs its four inner nodes' outputs — FullyConnected, Clamp, FullyConnected, Clamp, [1, 8]
    /// each — under identifiers 0…3 (integers) or linear_1, relu_1, linear_2, relu_2 (strings),
    /// which the ETRecord's delegate_map resolves to the AOT handles 1…4 the payload's nodes
    /// carry. Against the float-portable run, with both ETRecords, the inner nodes pair with the
    /// portable ops of the same handle (#0 addmm, #1 relu, #2 addmm, #3 relu). Both runs write
    /// the same float32 values up to the planted offset 4 at element 0 of the second
    /// FullyConnected's output: the first two rows agree exactly (mse 0), the third has one of 8
    /// elements off by 4, mse 4²/8 = 2 and maxabs 4 — the first divergence, inside the delegate,
    /// after 2 compared rows.
    void insideAgainstPortable_data()
    {
        QTest::addColumn<bool>("named");
        QTest::newRow("integer identifiers") << false;
        QTest::newRow("string identifiers") << true;
    }

    void insideAgainstPortable()
    {
        QFETCH(bool, named);
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(named ? f.insideNamed : f.inside, "inside", true));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", true));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, true));
        QVERIFY(report.rows.size() >= 4);
        const NodeId delegate = run->mapper->instructionNode(ChainIndex(0), InstructionId(0));
        const Graph& inner = *run->mapper->graph().node(delegate).subgraph;
        const char* const references[4]
            = { "#0 aten::addmm.out", "#1 aten::relu.out", "#2 aten::addmm.out", "#3 aten::relu.out" };
        const char* const names[4] = { "linear_1", "relu_1", "linear_2", "relu_2" };
        for (int k = 0; k < 4; ++k) {
            const ProgramGapRow& row = report.rows[static_cast<std::size_t>(k)];
            QCOMPARE(row.run.origin.top, delegate);
            QVERIFY(row.run.origin.inner.valid());
            // The inner node is the one carrying handle k + 1 (XNode.debug_handle).
            QCOMPARE(inner.node(row.run.origin.inner).debugHandle, std::optional(DebugHandle(k + 1)));
            QCOMPARE(row.referenceLabel, std::string(references[k]));
            QCOMPARE(row.matchedBy, std::string("debug handle"));
            QCOMPARE(row.run.delegateIdentifier, named ? std::string(names[k]) : std::to_string(k));
            QVERIFY(row.run.metrics);
        }
        QCOMPARE(report.rows[0].run.metrics->mse, 0.0);
        QCOMPARE(report.rows[1].run.metrics->mse, 0.0);
        QVERIFY(std::abs(report.rows[2].run.metrics->mse - 2.0) < 1e-5);
        QVERIFY(std::abs(report.rows[2].run.metrics->maxAbs - 4.0) < 1e-5);
        // The delegate call's own output is what its last Clamp logged: covered, not unpaired.
        QCOMPARE(report.runOnly, std::size_t(0));
        const NodeId fc2 = report.rows[2].run.origin.inner;
        const std::string fc2Text = "XNNFullyConnected (node " + std::to_string(fc2.value) + ")";
        QCOMPARE(report.rows[2].run.label, "#0 XnnpackBackend › " + fc2Text);
        const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
        QVERIFY(divergence);
        QCOMPARE(divergence->row, std::size_t(2));
        QCOMPARE(joinNodePath(divergence->path), "forward › #0 XnnpackBackend › " + fc2Text);
        QCOMPARE(divergence->runNode.top, delegate);
        QCOMPARE(divergence->runNode.inner, fc2);
        QCOMPARE(joinNodePath(divergence->referencePath), std::string("forward › #2 aten::addmm.out"));
        QCOMPARE(divergence->comparedBefore, std::size_t(2));
    }

    /// String identifiers without the ETRecord name nothing: the four inner outputs are not
    /// compared, and the warning says what would place them.
    void insideNamedWithoutRecords()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto run, open(f.insideNamed, "named", false));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", false));
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, false));
        QVERIFY(anyWarning(report.warnings,
            "named.etdp: 4 logged value group(s) fall on no node of named.pte and are not compared (4 logged inside a "
            "delegate: give its ETRecord"));
    }

    /// One program, two runs (compareETDumps): the planted inside run against the same build
    /// run without the offset. Each internal event lands on its inner node — through the
    /// delegate_map with the ETRecord, through XNNPACK's node order (identifier k → node index k)
    /// without it for integer identifiers — and only rows 2 (mse 4²/8 = 2) and 3 (the Clamp
    /// after it: relu(h1[0] + 4) against relu(h1[0]), the one differing element) differ among
    /// the inner rows; the first divergence is row 2, the second FullyConnected.
    void insideSameProgram_data()
    {
        QTest::addColumn<bool>("named");
        QTest::addColumn<bool>("record");
        QTest::newRow("integer, ETRecord") << false << true;
        QTest::newRow("string, ETRecord") << true << true;
        QTest::newRow("integer, node order") << false << false;
    }

    void insideSameProgram()
    {
        QFETCH(bool, named);
        QFETCH(bool, record);
        const GapFixtures planted = makeGapFixtures();
        const GapFixtures clean = makeGapFixtures({ 8, false, 0 });
        ETSCOPE_TAKE(const auto run, open(named ? planted.insideNamed : planted.inside, "planted", record));
        ETSCOPE_TAKE(const auto reference, open(named ? clean.insideNamed : clean.inside, "clean", false));
        const GapReport report = compareETDumps(*run->dump, *reference->dump, *run->mapper);
        QVERIFY(report.rows.size() >= 4);
        const NodeId delegate = run->mapper->instructionNode(ChainIndex(0), InstructionId(0));
        const Graph& inner = *run->mapper->graph().node(delegate).subgraph;
        for (int k = 0; k < 4; ++k) {
            const GapRow& row = report.rows[static_cast<std::size_t>(k)];
            QCOMPARE(row.origin.top, delegate);
            QVERIFY(row.origin.inner.valid());
            QCOMPARE(inner.node(row.origin.inner).debugHandle, std::optional(DebugHandle(k + 1)));
            QVERIFY(row.metrics);
        }
        QCOMPARE(report.rows[0].metrics->mse, 0.0);
        QCOMPARE(report.rows[1].metrics->mse, 0.0);
        QVERIFY(std::abs(report.rows[2].metrics->mse - 2.0) < 1e-5);
        const double h = planted.h1[0];
        const double d = std::max(h + 4.0, 0.0) - std::max(h, 0.0);
        QVERIFY(std::abs(report.rows[3].metrics->mse - d * d / 8) < 1e-5);
        const auto divergence = findFirstDivergence(report, *run->mapper);
        QVERIFY(divergence);
        QCOMPARE(divergence->row, std::size_t(2));
        QCOMPARE(divergence->runNode.inner, report.rows[2].origin.inner);
        QCOMPARE(divergence->comparedBefore, std::size_t(2));
        QCOMPARE(joinNodePath(divergence->path),
            "forward › #0 XnnpackBackend › XNNFullyConnected (node " + std::to_string(divergence->runNode.inner.value)
                + ")");
    }

    /// Any backend: the inside run with string identifiers, its delegate renamed to a backend
    /// this build does not decode (no inner graph to land on). The identifiers still resolve
    /// through the ETRecord's delegate_map to handles 1…4, which pair them with the portable ops
    /// carrying those handles (matched_by "delegate_map"): relu_1 ↔ #1 relu agrees (mse 0),
    /// linear_2 ↔ #2 addmm has the planted mse 4²/8 = 2 and is the first divergence, its path
    /// naming the identifier after the delegate.
    void insideUndecodedBackend()
    {
        const GapFixtures f = makeGapFixtures();
        GapBuild opaque = f.insideNamed;
        // A payload no decoder reads (the XNNPACK bytes would be recognised by their header).
        DelegateSpec& spec = opaque.program.methods.front().delegates.front();
        spec.backendId = "ExampleBackend";
        spec.payload.assign(64, 0x5a);
        ETSCOPE_TAKE(const auto run, open(opaque, "opaque", true));
        ETSCOPE_TAKE(const auto reference, open(f.portable, "portable", true));
        const NodeId delegate = run->mapper->instructionNode(ChainIndex(0), InstructionId(0));
        QVERIFY(!run->mapper->graph().node(delegate).subgraph);
        ETSCOPE_TAKE(const ProgramGapReport report, compare(*run, *reference, true));
        const ProgramGapRow* relu1 = rowOf(report, "#0 ExampleBackend › relu_1");
        QVERIFY(relu1);
        QCOMPARE(relu1->referenceLabel, std::string("#1 aten::relu.out"));
        QCOMPARE(relu1->matchedBy, std::string("delegate_map"));
        QVERIFY(relu1->run.metrics);
        QCOMPARE(relu1->run.metrics->mse, 0.0);
        const ProgramGapRow* linear2 = rowOf(report, "#0 ExampleBackend › linear_2");
        QVERIFY(linear2);
        QCOMPARE(linear2->referenceLabel, std::string("#2 aten::addmm.out"));
        QVERIFY(linear2->run.metrics);
        QVERIFY(std::abs(linear2->run.metrics->mse - 2.0) < 1e-5);
        const auto divergence = findFirstDivergence(report, *run->mapper, *reference->mapper);
        QVERIFY(divergence);
        QCOMPARE(joinNodePath(divergence->path), std::string("forward › #0 ExampleBackend › linear_2"));
        QCOMPARE(joinNodePath(divergence->referencePath), std::string("forward › #2 aten::addmm.out"));
        QCOMPARE(divergence->comparedBefore, std::size_t(2));

        // The other way round (the portable run against the opaque build's): the same pair.
        ETSCOPE_TAKE(const ProgramGapReport back, compare(*reference, *run, true));
        const ProgramGapRow* addmm2 = nullptr;
        for (const ProgramGapRow& row : back.rows)
            if (row.run.label == "#2 aten::addmm.out" && row.matchedBy == "delegate_map")
                addmm2 = &row;
        QVERIFY(addmm2);
        QCOMPARE(addmm2->referenceLabel, std::string("#0 ExampleBackend › linear_2"));
        QVERIFY(addmm2->run.metrics);
        QVERIFY(std::abs(addmm2->run.metrics->mse - 2.0) < 1e-5);

        // One program, two runs: the rows name the identifier under the delegate node.
        const GapFixtures clean = makeGapFixtures({ 8, false, 0 });
        GapBuild cleanOpaque = clean.insideNamed;
        cleanOpaque.program.methods.front().delegates.front() = spec;
        ETSCOPE_TAKE(const auto cleanRun, open(cleanOpaque, "clean", false));
        const GapReport same = compareETDumps(*run->dump, *cleanRun->dump, *run->mapper);
        QVERIFY(same.rows.size() >= 4);
        QCOMPARE(same.rows[2].label, std::string("ExampleBackend › linear_2"));
        QCOMPARE(same.rows[2].debugHandles, std::vector<DebugHandle> { DebugHandle(3) });
        QVERIFY(std::abs(same.rows[2].metrics->mse - 2.0) < 1e-5);
        const auto first = findFirstDivergence(same, *run->mapper);
        QVERIFY(first);
        QCOMPARE(joinNodePath(first->path), std::string("forward › #0 ExampleBackend › linear_2"));
    }

    /// Real programs with a decoded delegate (no real ETDump logs delegate-internal outputs:
    /// generated/README.md counts 0 "delegate debug ev" in every file): the Core ML sample, its
    /// delegate logging three operations under their debug symbols (Core ML's identifiers,
    /// facts sheet §2.3), and an XNNPACK sample logging its first operator nodes under integer
    /// identifiers = node index (XNNPACK's node order). The written runs log [4] tensors
    /// 1, 2, 3, 4 for each, the run with 4 added to element 0 of the second: its row has
    /// mse 4²/4 = 4 and is the first divergence, on that inner node, after 1 compared row.
    void realDelegatesLogInside_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<bool>("coreml");
        QTest::newRow("coreml") << QStringLiteral("react-native-executorch/style_candy_640_coreml.pte") << true;
        QTest::newRow("xnnpack") << QStringLiteral("executorch-numpy-runtime/quantized.pte") << false;
    }

    void realDelegatesLogInside()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(QString, program);
        QFETCH(bool, coreml);
        auto document = openDocument(etscope::test::samplePath(program.toStdString()));
        QVERIFY(document);
        const Method& method = document->program->methods.front();
        const Graph& graph = *document->analysis(method)->graph;
        const EventMapper mapper(graph, nullptr, method.name);
        const NodeId delegate = mapper.instructionNode(ChainIndex(0), InstructionId(0));
        QVERIFY(delegate.valid() && graph.node(delegate).subgraph);
        const Graph& inner = *graph.node(delegate).subgraph;
        // The inner operations to log: Core ML's first three with a debug symbol, XNNPACK's
        // first two nodes (node index 0 and 1).
        std::vector<std::pair<NodeId, std::string>> logged;
        for (const Node& node : inner.nodes) {
            if (node.kind != NodeKind::Operator || logged.size() == (coreml ? 3u : 2u))
                continue;
            const auto key = node.attributes.find(coreml ? "debug symbol" : "node index");
            if (key)
                logged.emplace_back(node.id, std::string(*key));
        }
        QCOMPARE(logged.size(), coreml ? std::size_t(3) : std::size_t(2));
        const auto writeRun = [&](const std::string& name, double plant) {
            DebugBufferWriter buffer;
            RunBlock block;
            block.name = "Execute";
            for (std::size_t k = 0; k < logged.size(); ++k) {
                DebugEvent event = tensorDebugEvent(
                    buffer, InstructionId(0), scalar_type::Float, { 4 }, { 1.0 + (k == 1 ? plant : 0.0), 2, 3, 4 });
                if (coreml)
                    event.delegateDebugIdStr = logged[k].second;
                else
                    event.delegateDebugIdInt = DelegateDebugId(std::stoi(logged[k].second));
                event.sequence = k;
                block.debugEvents.push_back(std::move(event));
            }
            auto dump = readETDump(MappedFile::fromBytes(name + ".etdp", writeETDump({ block })));
            if (dump)
                attachDebugBuffer(dump.value(), MappedFile::fromBytes(name + ".bin", buffer.bytes()));
            return dump;
        };
        auto run = writeRun("run", 4.0);
        auto reference = writeRun("reference", 0.0);
        QVERIFY(run && reference);
        const GapReport report = compareETDumps(run.value(), reference.value(), mapper);
        QCOMPARE(report.rows.size(), logged.size());
        for (std::size_t k = 0; k < logged.size(); ++k) {
            QCOMPARE(report.rows[k].origin, (NodeOrigin { delegate, logged[k].first }));
            QVERIFY(report.rows[k].metrics);
        }
        QCOMPARE(report.rows[0].metrics->mse, 0.0);
        QCOMPARE(report.rows[1].metrics->mse, 4.0);
        const auto divergence = findFirstDivergence(report, mapper);
        QVERIFY(divergence);
        QCOMPARE(divergence->runNode, (NodeOrigin { delegate, logged[1].first }));
        QCOMPARE(divergence->comparedBefore, std::size_t(1));
        QCOMPARE(joinNodePath(divergence->path),
            "forward › #0 " + graph.node(delegate).label + " › " + inner.node(logged[1].first).label + " (node "
                + std::to_string(logged[1].first.value) + ")");
    }

private:
    static const Method* selectFirstMethod(const Program& program)
    {
        for (const Method& m : program.methods)
            if (m.name == "forward")
                return &m;
        return &program.methods.front();
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestProgramGap)
#include "tst_programgap.moc"
