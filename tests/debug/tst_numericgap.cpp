// SPDX-License-Identifier: MIT
// Numeric gap: the metrics of facts sheet §7 computed by hand, real ETDumps compared with
// themselves and with the bundled program's expected outputs, and Inspector tables (the §7
// DataFrame columns, as pandas writes them) mapped onto real programs. Perturbed runs written
// by the project's ETDump writer are in tst_debugfixtures.
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include "core/debug/debugheat.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/document/document.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace etscope::core;
using namespace etscope::test;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string generated(const std::string& relative)
{
    return etscope::test::samplePath("generated/" + relative);
}

ETDump dumpWithBuffer(const std::string& relative)
{
    auto dump = readETDumpFile(generated(relative));
    if (!dump)
        qFatal("%s", dump.error().message().c_str());
    if (attachDebugBufferOrDefault(dump.value(), {}))
        qFatal("no buffer");
    return std::move(dump).value();
}

Document program(const std::string& relative)
{
    auto document = openDocument(etscope::test::samplePath(relative));
    if (!document)
        qFatal("%s", document.error().message().c_str());
    return std::move(document).value();
}

const Graph& graphOf(const Document& document)
{
    return *document.methods.front().graph;
}

// An Inspector table for spike_conv.pte / quantized.pte, as `df.to_csv()` writes it: index
// column, tuples and lists printed by Python, tensors by torch (multi-line prints quoted).
const char* const kConvCsv
    = R"csv(,aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,runtime_debug_handle,runtime_intermediate_output,gap,stacktraces
0,"(1,)",['aten_convolution_default'],"tensor([[1., 2.],
        [3., 4.]])",['DELEGATE_CALL'],"(1,)","[tensor([[9., 9.]]), tensor([[1., 2.],
        [3., 5.]])]",[0.25],{'aten_convolution_default': None}
1,"(99,)",['aten_relu_default'],tensor([1.]),['DELEGATE_CALL'],"(99,)",tensor([1.]),[0.0],{}
)csv";

} // namespace

class TestNumericGap : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void metricsByHand()
    {
        // a (reference) = [1, 2, 3, 4], b (run) = [1, 2, 3, 5]; a − b = [0, 0, 0, −1].
        // MSE = 1/4 = 0.25; L1 = Σ|a−b| = 1; max |a−b| = 1;
        // SNR = 10·log10(mean(a²)/MSE) = 10·log10(7.5/0.25) = 10·log10(30) = 14.7712125472 dB;
        // cosine = a·b/(|a||b|) = 34/√(30·39) = 0.99399908855.
        const std::vector<double> a { 1, 2, 3, 4 };
        const std::vector<double> b { 1, 2, 3, 5 };
        const GapMetrics m = computeGapMetrics(a, b);
        QCOMPARE(m.mse, 0.25);
        QCOMPARE(m.l1, 1.0);
        QCOMPARE(m.maxAbs, 1.0);
        QVERIFY(std::abs(m.snr - 14.7712125472) < 1e-9);
        QVERIFY(std::abs(m.cosine - 0.99399908855) < 1e-10);
        QCOMPARE(m.value(GapMetric::L1), 1.0);
        QCOMPARE(m.value(GapMetric::Snr), m.snr);
    }

    void metricEdgeCases()
    {
        // NaN counts as 0 on both sides (§7): [NaN, 1] vs [0, 1] are identical → SNR +inf.
        const GapMetrics same = computeGapMetrics(std::vector<double> { NAN, 1 }, std::vector<double> { 0, 1 });
        QCOMPARE(same.mse, 0.0);
        QVERIFY(std::isinf(same.snr) && same.snr > 0);
        QCOMPARE(same.cosine, 1.0);
        // Identical zero vectors (ReLU outputs, masks) are a perfect match, not 0/0: cosine 1 and
        // SNR +inf, so a graph coloured by either does not paint them as the worst nodes.
        const GapMetrics zero = computeGapMetrics(std::vector<double> { 0, 0 }, std::vector<double> { 0, 0 });
        QCOMPARE(zero.cosine, 1.0);
        QVERIFY(std::isinf(zero.snr) && zero.snr > 0);
        // One side all zeros: nothing in common (cosine 0), and SNR −inf when the reference is.
        const GapMetrics silent = computeGapMetrics(std::vector<double> { 0, 0 }, std::vector<double> { 1, 0 });
        QCOMPARE(silent.cosine, 0.0);
        QVERIFY(std::isinf(silent.snr) && silent.snr < 0);
        // L1 is a sum, not a mean: 3 elements off by 2 → 6.
        QCOMPARE(computeGapMetrics(std::vector<double> { 1, 1, 1 }, std::vector<double> { 3, 3, 3 }).l1, 6.0);
        // inf on both sides: inf − inf is NaN, and every distance says so (max |a−b| too, which
        // std::max would have turned into 0, "no difference").
        const GapMetrics infinite
            = computeGapMetrics(std::vector<double> { INFINITY, 1 }, std::vector<double> { INFINITY, 1 });
        QVERIFY(std::isnan(infinite.mse));
        QVERIFY(std::isnan(infinite.maxAbs));
        QVERIFY(std::isnan(infinite.snr));
    }

    void nonFiniteCells()
    {
        // +inf (identical), -inf (silent reference) and NaN (inf in the values) print as inf,
        // -inf and nan, never "-nan" (the sign bit x86 gives inf − inf); JSON gets null plus
        // the non_finite column that tells them apart.
        GapReport report;
        report.mode = "etdump";
        const std::vector<std::pair<std::vector<double>, std::vector<double>>> pairs { { { 1, 2 }, { 1, 2 } },
            { { 0, 0 }, { 1, 0 } }, { { INFINITY, 1 }, { INFINITY, 1 } } };
        for (const auto& [reference, run] : pairs) {
            GapRow row;
            row.label = "x";
            row.metrics = computeGapMetrics(reference, run);
            report.rows.push_back(row);
        }
        const Table table = gapTable(report, GapMetric::Snr);
        QCOMPARE(table.columns[7], std::string("snr"));
        QCOMPARE(cellText(table.rows[0][7]), std::string("inf"));
        QCOMPARE(cellText(table.rows[1][7]), std::string("-inf"));
        QCOMPARE(cellText(table.rows[2][7]), std::string("nan"));
        const Table all = gapTable(report);
        for (const TableFormat format :
            { TableFormat::Text, TableFormat::Csv, TableFormat::Tsv, TableFormat::Markdown, TableFormat::Html }) {
            const QString text = QString::fromStdString(renderTable(all, format));
            QVERIFY2(!text.contains(QStringLiteral("-nan")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("nan")), qPrintable(text));
            QVERIFY(text.contains(QStringLiteral("-inf")));
        }
        QVERIFY(std::find(all.columns.begin(), all.columns.end(), "non_finite") == all.columns.end());
        const Table json = gapTable(report, std::nullopt, true);
        QCOMPARE(json.columns.back(), std::string("non_finite"));
        QCOMPARE(std::get<std::string>(json.rows[0].back()), std::string("snr=inf"));
        QCOMPARE(std::get<std::string>(json.rows[1].back()), std::string("snr=-inf"));
        QCOMPARE(std::get<std::string>(json.rows[2].back()),
            std::string("mse=nan, l1=nan, snr=nan, cosine=nan, maxabs=nan"));
        const auto parsed = nlohmann::json::parse(renderTable(json, TableFormat::Json));
        QVERIFY(parsed.at("rows")[0].at("snr").is_null());
        QCOMPARE(parsed.at("rows")[0].at("mse").get<double>(), 0.0);
        QCOMPARE(parsed.at("rows")[1].at("non_finite").get<std::string>(), std::string("snr=-inf"));
    }

    void metricNames()
    {
        QCOMPARE(parseGapMetric("SNR"), std::optional<GapMetric>(GapMetric::Snr));
        QCOMPARE(parseGapMetric("cosine_similarity"), std::optional<GapMetric>(GapMetric::Cosine));
        QCOMPARE(parseGapMetric("maxabs"), std::optional<GapMetric>(GapMetric::MaxAbs));
        QVERIFY(!parseGapMetric("rmse"));
        QVERIFY(!gapHigherIsWorse(GapMetric::Snr));
        QVERIFY(gapHigherIsWorse(GapMetric::L1));
    }

    void sameRunHasNoGap()
    {
        // stress_mlp: 12 KernelCalls logging one out each; the DelegateCall at 6 has 4 inputs and
        // 2 outputs, the one at 13 4 inputs and 1 output (§4.3: all args are logged, outputs
        // last); then the program output. 24 debug events → 12 + 2 + 1 + 1 = 16 compared values.
        const Document document = program("djl-executorch-engine/stress_mlp.pte");
        const ETDump run = dumpWithBuffer("stress_mlp/stress_mlp.intermediates.etdp");
        const EventMapper mapper(graphOf(document));
        const GapReport report = compareETDumps(run, run, mapper);
        QVERIFY(report.warnings.empty());
        QCOMPARE(report.rows.size(), std::size_t(16));
        int delegateRows = 0;
        for (const GapRow& row : report.rows) {
            QVERIFY2(row.matched, row.label.c_str());
            QVERIFY2(row.metrics, row.problem.c_str());
            QCOMPARE(row.metrics->mse, 0.0);
            QCOMPARE(row.metrics->maxAbs, 0.0);
            if (row.runtimeOp == "DELEGATE_CALL")
                ++delegateRows;
        }
        QCOMPARE(delegateRows, 3);
        // The delegate at 13 compares its output [32, 256], not its [32, 256]/[1, 256] inputs.
        const GapRow& last = report.rows[14];
        QCOMPARE(last.instruction, InstructionId(13));
        QCOMPARE(last.shape, (std::vector<std::int64_t> { 32, 256 }));
        QCOMPARE(report.rows.back().label, std::string("output 0"));
        QCOMPARE(graphOf(document).node(report.rows.back().origin.top).kind, NodeKind::Output);
        // Rows are in execution order.
        for (std::size_t r = 1; r + 1 < report.rows.size(); ++r)
            QVERIFY(report.rows[r - 1].instruction.value <= report.rows[r].instruction.value);
    }

    void gapHeat()
    {
        // As heat for the UI: five metric columns, SNR and cosine better when higher, +inf SNR
        // (identical values) kept; an Inspector import adds its own gap column.
        const Document document = program("executorch/add.pte");
        const ETDump run = dumpWithBuffer("add/add.intermediates.etdp");
        const HeatTable heat = gapHeatTable(compareETDumps(run, run, EventMapper(graphOf(document))));
        QCOMPARE(heat.columns.size(), std::size_t(5));
        QVERIFY(heat.columns[0].higherIsWorse);
        QVERIFY(!heat.columns[2].higherIsWorse);
        QCOMPARE(heat.columns[2].unit, std::string("dB"));
        QCOMPARE(heat.rows.size(), std::size_t(2));
        QCOMPARE(heat.rows[0].label, std::string("aten::add.out"));
        QVERIFY(heat.rows[0].origin.top.valid());
        QCOMPARE(*heat.rows[0].values[0], 0.0);
        QVERIFY(std::isinf(*heat.rows[0].values[2]));
        auto rows = parseInspectorTable("aot_debug_handle,gap\n\"(7,)\",[0.5]\n", "t.csv");
        QVERIFY(rows.ok());
        const HeatTable imported
            = gapHeatTable(mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::L1, "t.csv"));
        QCOMPARE(imported.columns.size(), std::size_t(6));
        QCOMPARE(imported.columns[5].name, std::string("inspector l1"));
        QCOMPARE(*imported.rows[0].values[5], 0.5);
        QVERIFY(!imported.rows[0].values[0]);
        QVERIFY(!imported.rows[0].origin.top.valid());
    }

    void blocksOfOneFile()
    {
        // add.intermediates.x3: each of the three runs computed ones + ones = 2.0.
        const Document document = program("executorch/add.pte");
        const ETDump run = dumpWithBuffer("add/add.intermediates.x3.etdp");
        const EventMapper mapper(graphOf(document));
        GapOptions options;
        options.runBlock = 2;
        options.referenceBlock = 0;
        const GapReport report = compareETDumps(run, run, mapper, options);
        QCOMPARE(report.rows.size(), std::size_t(2));
        QCOMPARE(report.rows[0].label, std::string("aten::add.out"));
        QCOMPARE(report.rows[0].metrics->mse, 0.0);
        QVERIFY(std::isinf(report.rows[0].metrics->snr));
        options.runBlock = 3;
        const GapReport none = compareETDumps(run, run, mapper, options);
        QVERIFY(none.rows.empty());
        QCOMPARE(none.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(none.warnings[0].message).contains(QStringLiteral("no Execute block 3")));
    }

    void blocksAndTestCasesAreNamed()
    {
        const Document document = program("executorch/add.pte");
        const ETDump run = dumpWithBuffer("add/add.intermediates.x3.etdp");
        GapOptions options;
        options.runBlock = 1;
        options.referenceBlock = 2;
        const GapReport report = compareETDumps(run, run, EventMapper(graphOf(document)), options);
        QCOMPARE(report.runBlock, std::size_t(1));
        QCOMPARE(report.runBlocks, std::size_t(3));
        QCOMPARE(report.referenceBlock, std::size_t(2));
        QCOMPARE(report.run, run.path() + " (Execute block 1 of 3)");
        QCOMPARE(report.reference, run.path() + " (Execute block 2 of 3)");
        QVERIFY(report.warnings.empty());
        const Table table = gapTable(report);
        QCOMPARE(table.notes[0], "reference: " + run.path() + " (Execute block 2 of 3)");
        QCOMPARE(table.notes[1], "run: " + run.path() + " (Execute block 1 of 3)");
        // A block the file lacks says how many it has.
        options.runBlock = 5;
        const GapReport missing = compareETDumps(run, run, EventMapper(graphOf(document)), options);
        QCOMPARE(missing.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(missing.warnings[0].message)
                    .contains(QStringLiteral("no Execute block 5 (it has 3")));

        const Document bundledProgram = program("executorch/bundled_program.bpte");
        const ETDump outputs = dumpWithBuffer("bundled_program/bundled_program.outputs.etdp");
        GapOptions testCase;
        testCase.testCase = 7;
        auto bundled = compareWithBundled(
            outputs, *bundledProgram.bundled, *bundledProgram.program, EventMapper(graphOf(bundledProgram)), testCase);
        QVERIFY(bundled.ok());
        QCOMPARE(bundled->testCase, std::optional<int>(7));
        QCOMPARE(bundled->testCases, std::size_t(10));
        QVERIFY(QString::fromStdString(bundled->reference)
                    .endsWith(QStringLiteral("(test case 7 of 10: expected outputs)")));
        QCOMPARE(bundled->run, outputs.path() + " (Execute block 0 of 1)");
    }

    void foreignRunIsWarnedAbout()
    {
        // The audit's reproducer: add's run against stress_mlp's own, on stress_mlp.pte.
        const Document document = program("djl-executorch-engine/stress_mlp.pte");
        const ETDump run = dumpWithBuffer("add/add.intermediates.etdp");
        const ETDump reference = dumpWithBuffer("stress_mlp/stress_mlp.intermediates.etdp");
        const GapReport report = compareETDumps(run, reference, EventMapper(graphOf(document)));
        QCOMPARE(report.warnings.size(), std::size_t(4)); // summary + 3 examples, all about the run
        for (const Warning& warning : report.warnings)
            QVERIFY2(warning.message.rfind(run.path() + " (Execute block 0 of 1): ", 0) == 0, warning.message.c_str());
        QVERIFY(QString::fromStdString(report.warnings[0].message).contains(QStringLiteral("3 of")));
        QVERIFY(QString::fromStdString(report.warnings[1].message).contains(QStringLiteral("native_call_add.out")));
        // The run's [1] meets the reference's zero-dim [] and [32, 256] values: "shapes differ".
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY2(report.rows[0].problem.rfind("shapes differ: run [1], reference []", 0) == 0,
            report.rows[0].problem.c_str());
        QVERIFY(report.rows[0].metrics); // as many elements: still compared
        QVERIFY2(
            report.rows[1].problem.rfind("shapes differ: run [1], reference [32, 256] (1 vs 8192 elements)", 0) == 0,
            report.rows[1].problem.c_str());
        QVERIFY(!report.rows[1].metrics);
        // The table carries the warnings in its notes (CLI notes, every format that has notes).
        const Table table = gapTable(report);
        QCOMPARE(table.notes.size(), std::size_t(2 + 4));
        QCOMPARE(table.notes[2], "warning: " + report.warnings[0].message);
        // The other way round the reference is the stranger.
        const GapReport swapped = compareETDumps(reference, run, EventMapper(graphOf(document)));
        QVERIFY(!swapped.warnings.empty());
        QVERIFY(swapped.warnings[0].message.rfind(run.path(), 0) == 0);
    }

    void debugBufferThatIsAnETDump()
    {
        // Tensors "read" from an ETDump file: the comparison still runs, and says why it is nonsense.
        const Document document = program("executorch/add.pte");
        ETDump run = dumpWithBuffer("add/add.intermediates.etdp");
        ETDump reference = dumpWithBuffer("add/add.intermediates.x3.etdp");
        QVERIFY(!attachDebugBuffer(run, generated("add/add.intermediates.etdp")));
        const GapReport report = compareETDumps(run, reference, EventMapper(graphOf(document)));
        QCOMPARE(report.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(report.warnings[0].message)
                    .startsWith(QString::fromStdString(generated("add/add.intermediates.etdp"))
                        + QStringLiteral(": the debug buffer of ")));
        QVERIFY(QString::fromStdString(report.warnings[0].message).contains(QStringLiteral("starts like an ETDump")));
    }

    void profileOnlyRunsSayWhy()
    {
        const Document document = program("executorch/add.pte");
        const ETDump profile = dumpWithBuffer("add/add.profile.etdp");
        const GapReport report = compareETDumps(profile, profile, EventMapper(graphOf(document)));
        QVERIFY(report.rows.empty());
        QCOMPARE(report.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(report.warnings.front().message).contains(QStringLiteral("no debug values")));
    }

    void missingBufferBecomesAProblem()
    {
        const Document document = program("executorch/add.pte");
        auto bare = readETDumpFile(generated("add/add.intermediates.etdp"));
        QVERIFY(bare.ok());
        const GapReport report = compareETDumps(*bare, *bare, EventMapper(graphOf(document)));
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY(!report.rows[0].metrics);
        QVERIFY(QString::fromStdString(report.rows[0].problem).contains(QStringLiteral("no debug buffer")));
    }

    void bundledExpectedOutputs()
    {
        // The bundled program's test case 0 expects [[2, 2], [2, 2]] (INT); the runner verified
        // the run ("Model verified successfully", README), so every distance is 0.
        const Document document = program("executorch/bundled_program.bpte");
        QVERIFY(document.bundled);
        const ETDump run = dumpWithBuffer("bundled_program/bundled_program.outputs.etdp");
        const EventMapper mapper(graphOf(document));
        auto report = compareWithBundled(run, *document.bundled, *document.program, mapper);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().message().c_str());
        QCOMPARE(report->mode, std::string("bundled"));
        QCOMPARE(report->rows.size(), std::size_t(1));
        const GapRow& row = report->rows.front();
        QCOMPARE(row.dtype, std::string("INT"));
        QCOMPARE(row.shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(row.metrics);
        QCOMPARE(row.metrics->mse, 0.0);
        QCOMPARE(row.metrics->cosine, 1.0);
        QVERIFY(row.matched);
        GapOptions options;
        options.testCase = 10; // the suite has 10 cases: 0…9
        auto missing = compareWithBundled(run, *document.bundled, *document.program, mapper, options);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, Error::Code::Usage);
        QVERIFY(QString::fromStdString(missing.error().reason).contains(QStringLiteral("has 10")));
    }

    void gapTableColumns()
    {
        const Document document = program("executorch/add.pte");
        const ETDump run = dumpWithBuffer("add/add.intermediates.etdp");
        const GapReport report = compareETDumps(run, run, EventMapper(graphOf(document)));
        const Table all = gapTable(report);
        QCOMPARE(all.columns,
            (std::vector<std::string> { "#", "node", "runtime_op", "instruction", "output", "shape", "dtype", "mse",
                "l1", "snr", "cosine", "maxabs", "aot_ops", "problem" }));
        QCOMPARE(all.rows.size(), std::size_t(2));
        const Table one = gapTable(report, GapMetric::Cosine);
        QCOMPARE(one.columns[7], std::string("cosine"));
        QCOMPARE(one.columns.size(), std::size_t(10));
        QCOMPARE(std::get<double>(one.rows[0][7]), 1.0);
    }

    void printedTensors()
    {
        auto t = parsePrintedTensors("tensor([[1., 2.],\n        [3., -4.5e-1]])");
        QCOMPARE(t.size(), std::size_t(1));
        QCOMPARE(t[0].values, (std::vector<double> { 1, 2, 3, -0.45 }));
        QCOMPARE(t[0].shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(t[0].complete);
        t = parsePrintedTensors("tensor(2.5000)");
        QCOMPARE(t[0].values, std::vector<double> { 2.5 });
        QVERIFY(t[0].shape.empty());
        t = parsePrintedTensors("[tensor([1, 2], dtype=torch.int32), tensor([True, False])]");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[1].values, (std::vector<double> { 1, 0 }));
        t = parsePrintedTensors("tensor([0.0000, 1.0000, 2.0000,  ..., 7.0000, 8.0000, 9.0000])");
        QVERIFY(!t[0].complete);
        t = parsePrintedTensors("tensor([nan, inf, -inf])");
        QVERIFY(std::isnan(t[0].values[0]) && std::isinf(t[0].values[1]) && t[0].values[2] < 0);
        t = parsePrintedTensors("[[1.0, 2.0], [3.0, 4.0]]");
        QCOMPARE(t[0].shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(parsePrintedTensors("None").empty());
    }

    void inspectorCsvOnXnnpackHandles()
    {
        // Row 0's handle 1 is carried by spike_conv's XNNConv2d (its blob stores the handle);
        // the runtime logged two values, the one shaped like the AOT value is compared:
        // [1,2,3,4] vs [1,2,3,5] → MSE 0.25 (the table's own gap says 0.25 too).
        // Row 1's handle 99 and the second DELEGATE_CALL exist nowhere: unmatched, reported.
        const Document document = program("djl-executorch-engine/spike_conv.pte");
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable(kConvCsv, "gap.csv");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QCOMPARE(rows->rows.size(), std::size_t(2));
        QCOMPARE(rows->rows[0].runtimeOutput.size(), std::size_t(2));
        QCOMPARE(rows->rows[0].aotOps, std::vector<std::string> { "aten_convolution_default" });
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::Mse, "gap.csv");
        QCOMPARE(report.rows.size(), std::size_t(2));
        const GapRow& conv = report.rows[0];
        QVERIFY(conv.matched);
        QVERIFY(conv.origin.inner.valid());
        QCOMPARE(
            graphOf(document).node(conv.origin.top).subgraph->node(conv.origin.inner).opType, std::string("XNNConv2d"));
        QCOMPARE(conv.imported, std::vector<double> { 0.25 });
        QVERIFY(conv.metrics);
        QCOMPARE(conv.metrics->mse, 0.25);
        QCOMPARE(conv.instruction, InstructionId(0));
        QVERIFY(!report.rows[1].matched);
        QCOMPARE(report.warnings.size(), std::size_t(1));
        const Table table = gapTable(report);
        QCOMPARE(table.columns[12], std::string("inspector_gap"));
    }

    void inspectorSharedHandles()
    {
        // quantized.pte: Convert (handle 2), FullyConnected and Convert (both handle 3). A shared
        // handle means the node executed last (§7 step 2).
        const Document document = program("executorch-numpy-runtime/quantized.pte");
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable(",aot_debug_handle,runtime_debug_handle,runtime_ops,gap\n"
                                        "0,\"(2,)\",\"(2,)\",['DELEGATE_CALL'],[0.0]\n"
                                        "1,\"(3,)\",\"(3,)\",['DELEGATE_CALL'],[0.5]\n",
            "q.csv");
        QVERIFY(rows.ok());
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::Snr, "q.csv");
        const Graph& inner = *graphOf(document).node(report.rows[0].origin.top).subgraph;
        QCOMPARE(inner.node(report.rows[0].origin.inner).opType, std::string("XNNConvert"));
        QCOMPARE(inner.node(report.rows[1].origin.inner).opType, std::string("XNNConvert"));
        QVERIFY(report.rows[0].origin.inner != report.rows[1].origin.inner);
        QVERIFY(!report.rows[0].metrics); // no tensors in this table
        QCOMPARE(report.importedMetric, std::optional<GapMetric>(GapMetric::Snr));
    }

    void inspectorOpOrder()
    {
        // Without handles on the graph, the k-th native_call_<op> row meets the k-th node of op.
        const Document document = program("djl-executorch-engine/stress_mlp.pte");
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable("runtime_ops\taot_debug_handle\tgap\n"
                                        "['native_call_select_copy.int_out']\t(50,)\t[1.0]\n"
                                        "['native_call_select_copy.int_out']\t(51,)\t[2.0]\n"
                                        "['native_call_clamp.out']\t(52,)\t[3.0]\n",
            "order.tsv");
        QVERIFY(rows.ok());
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::L1, "order.tsv");
        QCOMPARE(report.rows[0].instruction, InstructionId(2));
        QCOMPARE(report.rows[1].instruction, InstructionId(3));
        QCOMPARE(report.rows[2].instruction, InstructionId(9));
        QCOMPARE(report.rows[2].label, std::string("aten::clamp.out"));
        QVERIFY(report.warnings.empty());
    }

    void inspectorJsonOrients_data()
    {
        QTest::addColumn<std::string>("text");
        // One row, in the pandas to_json orients: handle 1 → spike_conv's XNNConv2d; the printed
        // values [1, 2] vs [1, 2.5] give MSE (0 + 0.25)/2 = 0.125.
        QTest::addRow("records") << std::string(
            R"js([{"aot_debug_handle":[1],"aot_ops":["aten_convolution_default"],"aot_intermediate_output":[1.0,2.0],)js"
            R"js("runtime_ops":["DELEGATE_CALL"],"runtime_debug_handle":[1],"runtime_intermediate_output":[1.0,2.5],"gap":[0.125]}])js");
        QTest::addRow("columns") << std::string(
            R"js({"aot_debug_handle":{"0":[1]},"aot_intermediate_output":{"0":"tensor([1., 2.])"},)js"
            R"js("runtime_debug_handle":{"0":[1]},"runtime_intermediate_output":{"0":"tensor([1.0, 2.5])"},"gap":{"0":[0.125]}})js");
        QTest::addRow("index") << std::string(
            R"js({"0":{"aot_debug_handle":[1],"aot_intermediate_output":[1,2],"runtime_debug_handle":[1],)js"
            R"js("runtime_intermediate_output":[1,2.5],"gap":[0.125]}})js");
        QTest::addRow("split") << std::string(
            R"js({"columns":["aot_debug_handle","aot_intermediate_output","runtime_debug_handle","runtime_intermediate_output","gap"],)js"
            R"js("index":[0],"data":[[[1],[1,2],[1],[1,2.5],[0.125]]]})js");
        QTest::addRow("table") << std::string(
            R"js({"schema":{"fields":[]},"data":[{"index":0,"aot_debug_handle":[1],"aot_intermediate_output":[1,2],)js"
            R"js("runtime_debug_handle":[1],"runtime_intermediate_output":[1,2.5],"gap":[0.125]}]})js");
    }

    void inspectorJsonOrients()
    {
        QFETCH(std::string, text);
        const Document document = program("djl-executorch-engine/spike_conv.pte");
        auto rows = parseInspectorTable(text, "gap.json");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QCOMPARE(rows->rows.size(), std::size_t(1));
        const GapReport report = mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::Mse, "gap.json");
        QVERIFY(report.rows[0].origin.inner.valid());
        QVERIFY(report.rows[0].metrics);
        QCOMPARE(report.rows[0].metrics->mse, 0.125);
        QCOMPARE(report.rows[0].imported, std::vector<double> { 0.125 });
    }

    void inspectorHostileCells()
    {
        // Deep nesting and absurd numbers in cells: parsed, or the row skipped with a warning,
        // never a crash. A tensor print nested beyond any real tensor is malformed.
        std::string deep(100000, '[');
        deep += std::string(100000, ']');
        auto rows = parseInspectorTable("aot_debug_handle,gap,aot_intermediate_output\n\"(1e300, -5)\",\"" + deep
                + "\",\"\"\n\"(2,)\",[0],\"" + deep + "\"\n",
            "deep.csv");
        QVERIFY(rows.ok());
        QCOMPARE(rows->rows.size(), std::size_t(1));
        QCOMPARE(rows->rows[0].aotDebugHandle, handles({ -5 }));
        QVERIFY(rows->rows[0].gap.empty());
        QCOMPARE(rows->warnings.size(), std::size_t(1));
        QVERIFY2(rows->warnings[0].message.starts_with(
                     "deep.csv: row 1: aot_intermediate_output '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…' is not a "
                     "complete tensor print; row skipped"),
            rows->warnings[0].message.c_str());
        // Nesting within the JSON limit: a handle list is read by its numbers, without recursion.
        const std::string nested
            = "[{\"aot_debug_handle\": " + std::string(500, '[') + "1" + std::string(500, ']') + ", \"gap\": [1e300]}]";
        auto json = parseInspectorTable(nested, "deep.json");
        QVERIFY(json.ok());
        QCOMPARE(json->rows[0].aotDebugHandle, handles({ 1 }));
        QCOMPARE(json->rows[0].gap, std::vector<double> { 1e300 });
        // Nested beyond what any recursive JSON operation can take: refused by name, no crash.
        const std::string hostile
            = "[{\"gap\": [1], \"stacktraces\": " + std::string(60000, '[') + std::string(60000, ']') + "}]";
        auto refused = parseInspectorTable(hostile, "hostile.json");
        QVERIFY(!refused.ok());
        QVERIFY(QString::fromStdString(refused.error().message()).contains(QStringLiteral("hostile.json")));
        QVERIFY(QString::fromStdString(refused.error().message()).contains(QStringLiteral("nested deeper")));
    }

    void inspectorMalformedCellsSkipRows_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("warning");
        // Cells the walk-through found accepted silently: each row is skipped, named, and the
        // rows around it still load.
        QTest::addRow("unterminated tensor")
            << std::string(
                   "aot_debug_handle,aot_intermediate_output,gap\n1,tensor([1.]),[0]\n2,\"tensor([1., 2.\",[0]\n"
                   "3,tensor(2.),[0]\n")
            << QStringLiteral("row 1: aot_intermediate_output 'tensor([1., 2.' is not a complete tensor print");
        QTest::addRow("handles of names")
            << std::string("runtime_debug_handle\tgap\n(1,)\t[0]\n(a,b)\t[0]\n[3]\t[0]\n")
            << QStringLiteral("row 1: runtime_debug_handle '(a,b)' is not a list of integers");
        QTest::addRow("json records") << std::string(
            R"js([{"aot_debug_handle":[1],"gap":[0]},{"aot_debug_handle":"(x)","gap":[0]},)js"
            R"js({"aot_debug_handle":3,"gap":[0]}])js")
                                      << QStringLiteral("row 1: aot_debug_handle '(x)' is not a list of integers");
    }

    void inspectorMalformedCellsSkipRows()
    {
        QFETCH(std::string, text);
        QFETCH(QString, warning);
        auto table = parseInspectorTable(text, "t");
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message().c_str());
        QCOMPARE(table->rows.size(), std::size_t(2));
        QCOMPARE(table->warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(table->warnings[0].message),
            QStringLiteral("t: ") + warning + QStringLiteral("; row skipped"));
        // The skip reaches the report's warnings.
        const Document document = program("djl-executorch-engine/spike_conv.pte");
        const GapReport report = mapInspectorTable(*table, EventMapper(graphOf(document)), GapMetric::Mse, "t");
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY(anyWarning(report.warnings, warning.toStdString()));
    }

    void inspectorTablesStream()
    {
        // Rows reach the sink one by one, in the file's order, for CSV and streamed JSON orients.
        std::string csv = "aot_debug_handle,gap\n";
        std::string records = "[";
        for (int i = 0; i < 1000; ++i) {
            csv += "\"(" + std::to_string(i) + ",)\",[" + std::to_string(i) + "]\n";
            records += std::string(i ? "," : "") + "{\"aot_debug_handle\":[" + std::to_string(i) + "],\"gap\":[0]}";
        }
        records += "]";
        for (const std::string& text : { csv, records }) {
            std::vector<std::int64_t> seen;
            auto warnings = readInspectorRows(text, "big", [&](InspectorRow&& row) {
                seen.push_back(row.aotDebugHandle.empty() ? -1 : row.aotDebugHandle.front().value);
            });
            QVERIFY(warnings.ok());
            QCOMPARE(seen.size(), std::size_t(1000));
            QCOMPARE(seen[0], std::int64_t(0));
            QCOMPARE(seen[999], std::int64_t(999));
        }
    }

    void inspectorBadTables_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("reason");
        QTest::addRow("no gap column") << std::string("a,b\n1,2\n")
                                       << QStringLiteral("not a calculate_numeric_gap table");
        QTest::addRow("ragged") << std::string("aot_debug_handle,gap\n1,[0.1],extra\n")
                                << QStringLiteral("record 1 has 3 fields");
        QTest::addRow("open quote") << std::string("aot_debug_handle,gap\n\"(1,,[0.1]\n")
                                    << QStringLiteral("never closes");
        QTest::addRow("bad json") << std::string("{\"gap\": ") << QStringLiteral("not valid JSON");
        QTest::addRow("json scalar") << std::string("[1, 2]") << QStringLiteral("not a DataFrame");
        QTest::addRow("empty") << std::string("") << QStringLiteral("no header line");
    }

    void inspectorBadTables()
    {
        QFETCH(std::string, text);
        QFETCH(QString, reason);
        auto rows = parseInspectorTable(text, "bad.csv");
        QVERIFY(!rows.ok());
        QCOMPARE(rows.error().file, std::string("bad.csv"));
        QVERIFY2(QString::fromStdString(rows.error().reason).contains(reason), rows.error().reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNumericGap)
#include "tst_numericgap.moc"
