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
};

QTEST_GUILESS_MAIN(TestStageGap)
#include "tst_stagegap.moc"
