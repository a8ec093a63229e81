// SPDX-License-Identifier: MIT
// Stages (issue 24, part 3): several builds of one model in one table, each compared with the
// first. Fixtures come from the project's writer (core/writer/debug/gapfixtures.h: one MLP
// written float-portable, quantized-portable and XNNPACK-delegated, the quantized and lowered
// runs off by 4 at logits[0], the last addmm) and a one-relu program written here.
#include "tests/common/documentbytes.h"
#include "tests/common/openedrun.h"
#include "tests/common/require.h"

#include "core/analysis/stagegap.h"
#include "core/util/mappedfile.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <memory>

using namespace etscope::core;
using etscope::test::documentFromBytes;

namespace {

using Opened = etscope::test::OpenedRun;

Stage stage(const Opened& o, const std::string& name)
{
    return { name, &*o.document, o.method, o.mapper.get(), &*o.dump, o.record ? &*o.record : nullptr, 0 };
}

Result<std::unique_ptr<Opened>> open(const std::vector<std::uint8_t>& program, const std::vector<std::uint8_t>& etdump,
    const std::vector<std::uint8_t>& buffer, const std::vector<std::uint8_t>& etrecord, const std::string& name)
{
    return etscope::test::openRun(program, etdump, buffer, etrecord, name);
}

Result<std::unique_ptr<Opened>> open(const GapBuild& build, const std::string& name, bool withRecord = false)
{
    return etscope::test::openRun(build, name, withRecord);
}

/// forward(x [8]) = relu(x), float, and one run logging `values` as its output.
Result<std::unique_ptr<Opened>> reluModel(const std::vector<double>& values)
{
    ProgramSpec program;
    MethodSpec& method = program.addMethod("forward");
    const auto planned = [&](std::uint64_t offset) {
        TensorSpec t;
        t.scalarType = scalar_type::Float;
        t.sizes = { static_cast<std::int32_t>(values.size()) };
        t.allocation = AllocationSpec { 1, offset };
        return method.addTensor(std::move(t));
    };
    const std::int32_t x = planned(0);
    const std::int32_t r = planned(256);
    method.inputs = { x };
    method.addInstruction(InstructionSpec::kernel(method.addOperator("aten::relu", "out"), { x, r, r }));
    method.outputs = { r };
    method.computeArenaSizes();

    DebugBufferWriter buffer;
    RunBlock block;
    block.name = "Execute";
    DebugEvent event;
    event.instructionId = InstructionId(0);
    event.value.kind = DebugValue::Kind::Tensor;
    event.value.rawKind = 5;
    DebugTensor t;
    t.scalarType = scalar_type::Float;
    t.sizes = { static_cast<std::int64_t>(values.size()) };
    t.strides = { 1 };
    t.offset = buffer.appendValues(scalar_type::Float, values);
    event.value.tensors = { t };
    block.debugEvents.push_back(event);
    return open(writeProgram(program).value(), writeETDump({ block }), buffer.bytes(), {}, "relu");
}

const StageRow* rowOf(const StageGapReport& report, const std::string& label, int output = 0)
{
    for (const StageRow& row : report.rows)
        if (row.label == label && row.outputIndex == output)
            return &row;
    return nullptr;
}

using etscope::test::anyWarning;

/// A tensor as torch prints it, "tensor([[v0, v1, …]])" of shape [1, n], each value with 17
/// significant digits so that the float64 read back is exactly `values[i]`.
std::string printedRow(const std::vector<double>& values)
{
    std::string text = "tensor([[";
    char number[40];
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::snprintf(number, sizeof number, "%.17g", values[i]);
        text += (i ? ", " : "") + std::string(number);
    }
    return text + "]])";
}

/// The values the portable build logs (float32, gapfixtures.cpp) as float64.
std::vector<double> asLogged(const std::vector<double>& values)
{
    std::vector<double> out;
    for (const double v : values)
        out.push_back(static_cast<float>(v));
    return out;
}

/// One CSV row of calculate_numeric_gap's DataFrame as `df.to_csv()` writes it, handle `handle`
/// on both sides; the runtime column holds `runtime`.
std::string tableRow(
    int index, int handle, const std::string& op, const std::vector<double>& aot, const std::vector<double>& runtime)
{
    const std::string h = "\"(" + std::to_string(handle) + ",)\"";
    return std::to_string(index) + "," + h + ",['" + op + "'],\"" + printedRow(aot) + "\",['native_call_" + op + "'],"
        + h + ",\"" + printedRow(runtime) + "\",[0.0]\n";
}

const char* const kTableHeader
    = ",aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,runtime_debug_handle,runtime_intermediate_"
      "output,gap\n";

/// What the table stage logs at element 0 of handle 3's output minus what the portable run logs
/// there: both are float32; the table's value is float32(h1[0]) + 2, rounded to float32.
double plantedGap(const GapFixtures& f)
{
    const double logged = static_cast<float>(f.h1[0]);
    return static_cast<double>(static_cast<float>(logged + 2.0)) - logged;
}

/// The eager/AOT table of the portable MLP (gapfixtures.h: handles 1…6 on instructions 0…5):
/// rows for handles 1 (addmm #0), 2 (relu #1) and 3 (addmm #2) whose AOT values are exactly what
/// the portable run logs except +2 at element 0 of handle 3's; the runtime column is all 100s
/// (a table stage reads the AOT column alone); and a row of handle 99, which no node has.
std::string portableAotTable(const GapFixtures& f)
{
    std::vector<double> r0;
    for (const double h : f.h0)
        r0.push_back(std::max(0.0, h));
    std::vector<double> h1 = asLogged(f.h1);
    h1[0] += 2.0;
    const std::vector<double> hundreds(f.h0.size(), 100.0);
    return kTableHeader + tableRow(0, 1, "aten_linear_default", asLogged(f.h0), hundreds)
        + tableRow(1, 2, "aten_relu_default", asLogged(r0), hundreds)
        + tableRow(2, 3, "aten_linear_default_1", h1, hundreds)
        + tableRow(3, 99, "aten_mul_tensor", { 1.0, 2.0 }, { 1.0, 2.0 });
}

} // namespace

class TestStageGap : public QObject {
    Q_OBJECT
private slots:
    /// portable → quantized → lowered: rows are the portable run's outputs in its order, a
    /// column per later stage.
    void threeStages()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable"));
        ETSCOPE_TAKE(const auto quantized, open(f.quantized, "quantized"));
        ETSCOPE_TAKE(const auto lowered, open(f.lowered, "lowered"));
        auto report = compareStages(
            { stage(*portable, "portable.pte"), stage(*quantized, "quantized.pte"), stage(*lowered, "lowered.pte") });
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->names, (std::vector<std::string> { "portable.pte", "quantized.pte", "lowered.pte" }));
        // The portable build logs its 6 instructions (addmm relu addmm relu addmm _softmax,
        // gapfixtures.h) and the program output: 7 rows in that order.
        QCOMPARE(report->rows.size(), std::size_t(7));
        QCOMPARE(report->rows[0].label, std::string("#0 aten::addmm.out"));
        QCOMPARE(report->rows[1].label, std::string("#1 aten::relu.out"));
        QCOMPARE(report->rows[4].label, std::string("#4 aten::addmm.out"));
        QCOMPARE(report->rows[5].label, std::string("#5 aten::_softmax.out"));

        // Cell (row 0, quantized): the first addmm runs in float in both builds on the same
        // input and weights, so its outputs are identical: SNR inf.
        const StageCell& addmm = report->rows[0].cells[1];
        QVERIFY(addmm.paired);
        QCOMPARE(addmm.node, std::string("#0 aten::addmm.out"));
        QVERIFY(addmm.metrics);
        QVERIFY(std::isinf(addmm.metrics->snr) && addmm.metrics->snr > 0);

        // Cell (row 1 "#1 aten::relu.out", quantized): the quantized build's relu #2 writes int8
        // q = max(0, nearbyint(h0 / scale0)), dequantized with scale0 (zero point 0) by the
        // dequantize_per_tensor after it; the portable relu writes max(0, h0), logged as float32.
        // By hand, from the fixture's own h0 and scale0: SNR = 10 log10(Σ a² / Σ (a − b)²).
        double signal = 0, noise = 0;
        for (const double h : f.h0) {
            const double a = static_cast<float>(std::max(0.0, h));
            const double b = std::max(0.0, std::nearbyint(h / f.scale0)) * f.scale0;
            signal += a * a;
            noise += (a - b) * (a - b);
        }
        QVERIFY(noise > 0);
        const double expectedSnr = 10.0 * std::log10(signal / noise);
        const StageCell& relu = report->rows[1].cells[1];
        QVERIFY(relu.paired);
        QCOMPARE(relu.node, std::string("#2 aten::relu.out"));
        QVERIFY(relu.metrics);
        QVERIFY2(std::abs(relu.metrics->snr - expectedSnr) < 1e-6,
            qPrintable(QStringLiteral("%1 vs %2").arg(relu.metrics->snr).arg(expectedSnr)));
        QVERIFY(!relu.dequantized.empty());

        // The planted divergence: the last addmm, quantized #8 and lowered #1.
        const std::size_t planted = 4;
        QCOMPARE(report->summaries[1].firstDivergence, std::optional<std::size_t>(planted));
        QVERIFY2(report->summaries[1].firstDivergenceText.rfind("forward › #8 aten::addmm.out", 0) == 0,
            report->summaries[1].firstDivergenceText.c_str());
        QCOMPARE(report->summaries[2].firstDivergence, std::optional<std::size_t>(planted));
        QVERIFY2(report->summaries[2].firstDivergenceText.rfind("forward › #1 aten::addmm.out", 0) == 0,
            report->summaries[2].firstDivergenceText.c_str());
        QCOMPARE(report->rows[planted].cells[2].node, std::string("#1 aten::addmm.out"));
        QCOMPARE(report->rows[planted].cells[2].matchedBy, std::string("execution order"));

        // The table: a metric column and a matched_by column per later stage, SNR by default.
        const Table table = stageGapTable(*report);
        QCOMPARE(table.columns,
            (std::vector<std::string> { "#", "node", "instruction", "output", "shape", "dtype", "quantized.pte snr",
                "quantized.pte matched_by", "lowered.pte snr", "lowered.pte matched_by" }));
        QCOMPARE(table.rows.size(), std::size_t(7));
        QCOMPARE(std::get<double>(table.rows[1][6]), relu.metrics->snr);
        bool noted = false;
        for (const std::string& note : table.notes)
            noted = noted || note.rfind("stage 1 quantized.pte first divergence: row 4, forward › #8", 0) == 0;
        QVERIFY(noted);
        const Table mse = stageGapTable(*report, GapMetric::Mse, true);
        QCOMPARE(mse.columns[6], std::string("quantized.pte mse"));
        QCOMPARE(mse.columns[8], std::string("quantized.pte problem"));
        QCOMPARE(std::get<double>(mse.rows[0][6]), 0.0);
    }

    /// portable → inside (issue 24 #4): the XNNPACK build whose delegate logs its inner nodes'
    /// outputs fills the rows the lowered build leaves empty. Without ETRecords the inner nodes
    /// pair with the portable ops by operator family (FullyConnected ↔ addmm, Clamp ↔ relu, in
    /// order); the planted offset 4 at element 0 of the second FullyConnected's [1, 8] output
    /// gives row 2 ("#2 aten::addmm.out") mse 4²/8 = 2 and makes it this stage's first
    /// divergence; rows 0 and 1 are identical (SNR inf).
    void insideStage()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable"));
        ETSCOPE_TAKE(const auto inside, open(f.inside, "inside"));
        auto report = compareStages({ stage(*portable, "portable.pte"), stage(*inside, "inside.pte") });
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->rows.size(), std::size_t(7));
        for (std::size_t r = 0; r < 4; ++r) {
            const StageCell& cell = report->rows[r].cells[1];
            QVERIFY(cell.paired);
            QVERIFY2(cell.node.rfind("#0 XnnpackBackend › XNN", 0) == 0, cell.node.c_str());
            QVERIFY(cell.metrics);
        }
        QVERIFY(std::isinf(report->rows[0].cells[1].metrics->snr));
        QVERIFY(std::isinf(report->rows[1].cells[1].metrics->snr));
        QVERIFY(std::abs(report->rows[2].cells[1].metrics->mse - 2.0) < 1e-5);
        QCOMPARE(report->summaries[1].firstDivergence, std::optional<std::size_t>(2));
        QVERIFY2(report->summaries[1].firstDivergenceText.rfind(
                     "forward › #0 XnnpackBackend › XNNFullyConnected (node 7)", 0)
                == 0,
            report->summaries[1].firstDivergenceText.c_str());
    }

    /// One stage is no comparison.
    void oneStage()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable"));
        const auto report = compareStages({ stage(*portable, "portable.pte") });
        QVERIFY(!report);
        QCOMPARE(report.error().code, Error::Code::Usage);
        QVERIFY(report.error().message().find("give at least two --stage") != std::string::npos);
        QVERIFY(!compareStages({}));
    }

    /// A stage whose program is another model (a single relu): a warning naming its file, empty
    /// cells where nothing pairs, and the rest of the table still compared.
    void stageOfAnotherModel()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable"));
        ETSCOPE_TAKE(const auto quantized, open(f.quantized, "quantized"));
        ETSCOPE_TAKE(const auto relu, reluModel({ 1, 2, 3, 4, 5, 6, 7, 8 }));
        auto report = compareStages(
            { stage(*portable, "portable.pte"), stage(*relu, "relu.pte"), stage(*quantized, "quantized.pte") });
        QVERIFY(report);
        QVERIFY(anyWarning(report->warnings, "stage 1 (relu.pte): "));
        QVERIFY(anyWarning(report->warnings, "the programs look like different models"));
        QVERIFY(anyWarning(report->warnings, "have no partner in relu.etdp (empty cells)"));
        std::size_t empty = 0;
        for (const StageRow& row : report->rows)
            empty += row.cells[1].paired ? 0 : 1;
        QVERIFY(empty >= report->rows.size() - 2);
        // The quantized stage is unaffected.
        QCOMPARE(report->summaries[2].firstDivergence, std::optional<std::size_t>(4));
        QVERIFY(rowOf(*report, "#1 aten::relu.out")->cells[2].metrics);
    }

    /// A stage whose run was cut short: empty cells for what it did not log, a note naming it.
    void runOfDifferentLength()
    {
        const GapFixtures f = makeGapFixtures();
        auto dump = readETDump(MappedFile::fromBytes("p.etdp", f.portable.etdump));
        QVERIFY(dump);
        RunBlock block = dump->runs.front();
        block.debugEvents.resize(2);
        GapBuild cut = f.portable;
        cut.etdump = writeETDump({ block });
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable"));
        ETSCOPE_TAKE(const auto shortRun, open(cut, "cut"));
        auto report = compareStages({ stage(*portable, "portable.pte"), stage(*shortRun, "cut.pte") });
        QVERIFY(report);
        QVERIFY(anyWarning(report->warnings, "runs of different lengths: cut.etdp"));
        QVERIFY(report->rows[0].cells[1].metrics);
        QVERIFY(!rowOf(*report, "#2 aten::addmm.out")->cells[1].metrics);
        // No divergence in what was compared.
        QVERIFY(!report->summaries[1].firstDivergence);
    }
    /// An Inspector table as stage 0 (the eager/AOT reference) on the portable program, the
    /// portable run as stage 1. The table's three placed rows are the rows, in execution order;
    /// by hand (portableAotTable): rows 0 and 1 hold exactly the run's values (mse 0, SNR inf),
    /// row 2 differs at one of 8 elements by d = float32(float32(h1[0]) + 2) − float32(h1[0])
    /// (2 up to the float32 rounding of the sum; the stage logs float32): mse d²/8, maxabs d,
    /// l1 (a sum) d. With
    /// maxabs > 1 as the threshold, row 2 is the first divergence.
    void tableAsStageZero()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable", true));
        auto table = parseInspectorTable(portableAotTable(f), "aot.csv");
        QVERIFY2(table, table ? "" : table.error().message().c_str());
        QCOMPARE(table->rows.size(), std::size_t(4));
        // A [1, 8] print reads as shape [1, 8], complete (the reader once took it for ragged).
        QCOMPARE(table->rows[0].aotOutput.size(), std::size_t(1));
        QCOMPARE(table->rows[0].aotOutput[0].shape, (std::vector<std::int64_t> { 1, 8 }));
        QVERIFY(table->rows[0].aotOutput[0].complete);
        QCOMPARE(parsePrintedTensors("tensor([[1., 2.], [3., 4.], [5., 6.]])").front().shape,
            (std::vector<std::int64_t> { 3, 2 }));
        const TableStageRun run = tableStageRun(*table, *portable->mapper, "aot.csv");
        QCOMPARE(run.rows, std::size_t(4));
        QCOMPARE(run.placed, std::size_t(3));
        QCOMPARE(
            run.description, std::string("Inspector table aot.csv (aot_intermediate_output, 3 of 4 row(s) placed)"));
        QVERIFY(anyWarning(run.warnings, "1 of 4 Inspector row(s) match no node"));
        QCOMPARE(run.dump.path(), std::string("aot.csv"));

        Stage aot = stage(*portable, "aot");
        aot.dump = &run.dump;
        aot.run = run.description;
        auto report = compareStages({ aot, stage(*portable, "portable.pte") }, DivergenceRule({ { "maxabs", 1.0 } }));
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->rows.size(), std::size_t(3));
        QCOMPARE(report->rows[0].label, std::string("#0 aten::addmm.out"));
        QCOMPARE(report->rows[1].label, std::string("#1 aten::relu.out"));
        QCOMPARE(report->rows[2].label, std::string("#2 aten::addmm.out"));
        QCOMPARE(report->rows[2].shape, (std::vector<std::int64_t> { 1, 8 }));
        QVERIFY2(
            report->sources[0].find("Inspector table aot.csv (aot_intermediate_output, 3 of 4") != std::string::npos,
            report->sources[0].c_str());
        for (std::size_t r = 0; r < 2; ++r) {
            const StageCell& cell = report->rows[r].cells[1];
            QVERIFY(cell.paired && cell.metrics);
            QCOMPARE(cell.metrics->mse, 0.0);
            QVERIFY(std::isinf(cell.metrics->snr));
        }
        const StageCell& diverged = report->rows[2].cells[1];
        QVERIFY(diverged.paired && diverged.metrics);
        QCOMPARE(diverged.node, std::string("#2 aten::addmm.out"));
        QCOMPARE(diverged.matchedBy, std::string("debug handle"));
        const double d = plantedGap(f);
        QVERIFY(std::abs(d - 2.0) < 1e-5);
        QCOMPARE(diverged.metrics->mse, d * d / 8);
        QCOMPARE(diverged.metrics->maxAbs, d);
        QCOMPARE(diverged.metrics->l1, d);
        QCOMPARE(report->summaries[1].firstDivergence, std::optional<std::size_t>(2));
        QVERIFY2(report->summaries[1].firstDivergenceText.rfind("forward › #2 aten::addmm.out", 0) == 0,
            report->summaries[1].firstDivergenceText.c_str());
        // The table: its cells are those metrics.
        const Table mse = stageGapTable(*report, GapMetric::Mse);
        QCOMPARE(mse.rows.size(), std::size_t(3));
        QCOMPARE(std::get<double>(mse.rows[2][6]), d * d / 8);
        QCOMPARE(std::get<double>(mse.rows[0][6]), 0.0);
    }

    /// The same table as a later stage: stage 0 is the portable run (7 rows), the table fills
    /// rows 0-2 and leaves the others empty; row 2 again differs by d at one of 8 elements.
    void tableAsLaterStage()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable", true));
        auto table = parseInspectorTable(portableAotTable(f), "aot.csv");
        QVERIFY(table);
        const TableStageRun run = tableStageRun(*table, *portable->mapper, "aot.csv");
        Stage aot = stage(*portable, "aot.csv");
        aot.dump = &run.dump;
        aot.run = run.description;
        auto report = compareStages({ stage(*portable, "portable.pte"), aot }, DivergenceRule({ { "maxabs", 1.0 } }));
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->rows.size(), std::size_t(7));
        QVERIFY(report->rows[2].cells[1].metrics);
        QCOMPARE(report->rows[2].cells[1].metrics->mse, plantedGap(f) * plantedGap(f) / 8);
        // Rows 3-6 (relu #3, addmm #4, _softmax #5, the program output): the table has no row
        // for them; their cells say the table logged nothing.
        for (std::size_t r = 3; r < 7; ++r) {
            const StageCell& cell = report->rows[r].cells[1];
            QVERIFY(!cell.metrics);
            QVERIFY2(!cell.paired || cell.problem.find("aot.csv logged no output 0") != std::string::npos,
                cell.problem.c_str());
        }
        QCOMPARE(report->summaries[1].firstDivergence, std::optional<std::size_t>(2));
    }

    /// Bad input: a table none of whose rows lands on the program (handles no node has; and
    /// without the ETRecord, no handle places anything). A warning naming the table says so,
    /// the comparison runs and has nothing to compare; nothing crashes.
    void tableOnNothing()
    {
        const GapFixtures f = makeGapFixtures();
        ETSCOPE_TAKE(const auto portable, open(f.portable, "portable", true));
        auto table
            = parseInspectorTable(std::string(kTableHeader) + tableRow(0, 97, "aten_mul_tensor", { 1.0 }, { 1.0 })
                    + tableRow(1, 98, "aten_mul_tensor", { 2.0 }, { 2.0 }),
                "other.csv");
        QVERIFY(table);
        const TableStageRun run = tableStageRun(*table, *portable->mapper, "other.csv");
        QCOMPARE(run.placed, std::size_t(0));
        QVERIFY(
            anyWarning(run.warnings, "other.csv: none of the 2 Inspector row(s) maps onto a node of method 'forward'"));
        Stage aot = stage(*portable, "other.csv");
        aot.dump = &run.dump;
        auto report = compareStages({ aot, stage(*portable, "portable.pte") });
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(report->rows.size(), std::size_t(0));
        QVERIFY(!report->summaries[1].firstDivergence);

        // Without the ETRecord the handles place nothing and the rows' runtime ops
        // (native_call_aten_mul_tensor) name no node of the program either.
        ETSCOPE_TAKE(const auto bare, open(f.portable, "portable"));
        const TableStageRun none = tableStageRun(*table, *bare->mapper, "other.csv");
        QCOMPARE(none.placed, std::size_t(0));
        QVERIFY(anyWarning(none.warnings, "none of the 2 Inspector row(s)"));
        // Rows on a node whose AOT cell is empty ("tensor([])") or missing: left out, counted.
        auto emptyCells = parseInspectorTable(std::string(kTableHeader)
                + "0,\"(1,)\",['aten_linear_default'],tensor([]),['native_call_addmm.out'],\"(1,)\",tensor([]),[0.0]\n"
                + "1,\"(2,)\",['aten_relu_default'],,['native_call_relu.out'],\"(2,)\",tensor([1.]),[0.0]\n",
            "cells.csv");
        QVERIFY2(emptyCells, emptyCells ? "" : emptyCells.error().message().c_str());
        const TableStageRun noValues = tableStageRun(*emptyCells, *portable->mapper, "cells.csv");
        QCOMPARE(noValues.placed, std::size_t(0));
        QVERIFY(anyWarning(noValues.warnings, "cells.csv: 2 of 2 Inspector row(s) have no aot_intermediate_output"));
        // An empty table: a warning, no rows.
        auto empty = parseInspectorTable(kTableHeader, "empty.csv");
        QVERIFY2(empty, empty ? "" : empty.error().message().c_str());
        const TableStageRun nothing = tableStageRun(*empty, *portable->mapper, "empty.csv");
        QCOMPARE(nothing.rows, std::size_t(0));
        QVERIFY(anyWarning(nothing.warnings, "empty.csv: the Inspector table has no rows"));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestStageGap)
#include "tst_stagegap.moc"
