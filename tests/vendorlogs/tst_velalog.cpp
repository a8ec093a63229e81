// SPDX-License-Identifier: MIT
// The Vela log reader (core/vendorlogs/velalog.h) on the real logs, on writer-made logs and on
// damaged ones.
//
// Read by hand off modelnova/rps_model_conversion_20260219_041725.log (5871 lines, LF):
// - "Register command stream: 1862 words" at line 4267; the listing's 1328 command lines
//   (`grep -c '^0x'` over lines 4267–5700) run from 0x000000 to NPU_OP_STOP at 0x001d14, so
//   0x1d14 + 4 = 7448 bytes = 1862 words; 100 "//" lines: 39 "// DMA", 39 Conv2D, 17 MemoryCopy,
//   3 MaxPool, 1 Transpose, 1 AvgPool.
// - "Performance for NPU Grap /tmp/tmpwi96ywea/output/out" at line 5732, header 5733, dashes 5734,
//   rows 5735–5808: 74 rows (26 Conv2D, 26 Clamp, 17 MemoryCopy, 3 MaxPool, 1 Transpose,
//   1 AvgPool, counted with awk on the NNG Operator column).
// - "Network summary for out" at line 5810 and 33 value lines under it (6 accelerator/bandwidth
//   lines, 2 memory used, 2 operator counts, 2×6 bandwidth lines, 2 weight sizes, the MACs,
//   Tops/s, 6 cycle lines, the inference time).
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/vendorlogs/velalog.h"
#include "core/writer/vendorlogwriter.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;
using namespace etscope::core::vendor;

namespace {

const std::string kRps = "modelnova/rps_model_conversion_20260219_041725.log";
const std::string kCmsis = "cmsis-executorch/model_conversion_20251126_091256.log";

bool anyWarning(const std::vector<Warning>& warnings, const std::string& part)
{
    return std::any_of(
        warnings.begin(), warnings.end(), [&](const Warning& w) { return w.message.find(part) != std::string::npos; });
}

VelaLogSpec threeRows()
{
    VelaLogSpec spec;
    spec.accelerator = "Ethos_U85_256";
    spec.clockMHz = 400;
    spec.npuOperators = 3;
    spec.macs = 123456;
    spec.npuCycles = 9000;
    spec.sramAccessCycles = 800;
    spec.offChipFlashAccessCycles = 70;
    spec.totalCycles = 9100;
    spec.inferenceMs = 0.02;
    spec.inferencesPerSecond = 43956.04;
    VelaRowSpec conv;
    conv.opCycles = 5000;
    conv.npuCycles = 5000;
    conv.sramAc = 600;
    conv.macs = 100000;
    conv.utilPercent = 78.12;
    conv.name = "aten_convolution_default";
    VelaRowSpec clamp = conv;
    clamp.originalOperator = clamp.nngOperator = "Clamp";
    clamp.opCycles = clamp.npuCycles = 1000;
    clamp.macs = 20000;
    VelaRowSpec pool;
    pool.originalOperator = pool.nngOperator = "MaxPool";
    pool.opCycles = 3000;
    pool.npuCycles = 2500;
    pool.sramAc = 3000;
    pool.macs = 3456;
    pool.name = "aten_max_pool2d_default";
    spec.rows = { conv, clamp, pool };
    spec.listing = {
        { 0x00010105, std::nullopt, "NPU_SET_IFM_PRECISION", "activation_type = ACTIVATION_TYPE_SIGNED",
            "Conv2D , subOps: Clamp" },
        { 0x00004000, 0xc4000u, "NPU_SET_IFM_BASE0", "addr = 0xc4000", "" },
        { 0x00000002, std::nullopt, "NPU_OP_CONV", "", "" },
        { 0xffff0000, std::nullopt, "NPU_OP_STOP", "mask = 65535", "" },
    };
    return spec;
}

} // namespace

class TestVelaLog : public QObject {
    Q_OBJECT

private slots:
    void rpsSummary()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        QCOMPARE(log.lines, std::size_t(5871));
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.summaries.size(), std::size_t(1));
        const VelaSummary& s = log.summaries[0];
        QCOMPARE(s.network, std::string("out"));
        QCOMPARE(s.line, std::size_t(5810));
        QCOMPARE(s.fields.size(), std::size_t(33));
        QCOMPARE(s.accelerator, std::string("Ethos_U85_256"));
        QCOMPARE(s.systemConfiguration, std::string("Ethos_U85_SRAM_MRAM"));
        QCOMPARE(s.memoryMode, std::string("Shared_Sram"));
        QCOMPARE(s.clockMHz, std::optional<double>(400));
        QCOMPARE(s.cpuOperators, std::optional<std::int64_t>(0));
        QCOMPARE(s.npuOperators, std::optional<std::int64_t>(48));
        QCOMPARE(s.macs, std::optional<std::int64_t>(267693188));
        QCOMPARE(s.npuCycles, std::optional<std::int64_t>(5075829));
        QCOMPARE(s.sramAccessCycles, std::optional<std::int64_t>(674460));
        QCOMPARE(s.dramAccessCycles, std::optional<std::int64_t>(0));
        QCOMPARE(s.onChipFlashAccessCycles, std::optional<std::int64_t>(0));
        QCOMPARE(s.offChipFlashAccessCycles, std::optional<std::int64_t>(389938));
        QCOMPARE(s.totalCycles, std::optional<std::int64_t>(5083373));
        QCOMPARE(s.inferenceTimeMs, std::optional<double>(12.71));
        QCOMPARE(s.inferencesPerSecond, std::optional<double>(78.69));
        QCOMPARE(s.batchSize, std::optional<std::int64_t>(1));
        ETSCOPE_TAKE(const SummaryField& sram, s.find("Total   SRAM used"));
        QCOMPARE(sram.number, std::optional<double>(960.27));
        QCOMPARE(sram.unit, std::string("KiB"));
        ETSCOPE_TAKE(const SummaryField& perInput, s.find("Total SRAM bandwidth per input"));
        QCOMPARE(perInput.value, std::string("21.26"));
        QCOMPARE(perInput.unit, std::string("MB/inference"));
        QCOMPARE(perInput.rest, std::string("(batch size 1)"));
        ETSCOPE_TAKE(const SummaryField& flash, s.find("Design peak Off-chip Flash bandwidth"));
        QCOMPARE(flash.number, std::optional<double>(0.72));
        ETSCOPE_TAKE(const SummaryField& encoded, s.find("NPU Encoded Weights Size"));
        QCOMPARE(encoded.number, std::optional<double>(718.75));
    }

    void rpsTable()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        QCOMPARE(log.tables.size(), std::size_t(1));
        const VelaLayerTable& t = log.tables[0];
        QCOMPARE(t.graph, std::string("/tmp/tmpwi96ywea/output/out"));
        QCOMPARE(t.line, std::size_t(5732));
        QCOMPARE(t.columns.size(), std::size_t(16));
        QCOMPARE(t.rows.size(), std::size_t(74));
        const auto count = [&](const char* op) {
            return std::count_if(
                t.rows.begin(), t.rows.end(), [&](const VelaLayerRow& r) { return r.nngOperator == op; });
        };
        QCOMPARE(count("Conv2D"), 26);
        QCOMPARE(count("Clamp"), 26);
        QCOMPARE(count("MemoryCopy"), 17);
        QCOMPARE(count("MaxPool"), 3);
        QCOMPARE(count("Transpose"), 1);
        QCOMPARE(count("AvgPool"), 1);
        // Line 5735: Transpose Transpose NPU 953344 96.95 2140919 42.12 2140919 90944 0 0 0 150528 0.06 0.03
        // tosa_transpose_default
        const VelaLayerRow& first = t.rows.front();
        QCOMPARE(first.line, std::size_t(5735));
        QCOMPARE(first.originalOperator, std::string("Transpose"));
        QCOMPARE(first.target, std::string("NPU"));
        QCOMPARE(first.stagingUsage, std::optional<std::int64_t>(953344));
        QCOMPARE(first.peakStagingPercent, std::optional<double>(96.95));
        QCOMPARE(first.opCycles, std::optional<std::int64_t>(2140919));
        QCOMPARE(first.networkCyclesPercent, std::optional<double>(42.12));
        QCOMPARE(first.npuCycles, std::optional<std::int64_t>(2140919));
        QCOMPARE(first.sramAccessCycles, std::optional<std::int64_t>(90944));
        QCOMPARE(first.dramAccessCycles, std::optional<std::int64_t>(0));
        QCOMPARE(first.onChipFlashAccessCycles, std::optional<std::int64_t>(0));
        QCOMPARE(first.offChipFlashAccessCycles, std::optional<std::int64_t>(0));
        QCOMPARE(first.macCount, std::optional<std::int64_t>(150528));
        QCOMPARE(first.networkMacPercent, std::optional<double>(0.06));
        QCOMPARE(first.utilMacPercent, std::optional<double>(0.03));
        QCOMPARE(first.name, std::string("tosa_transpose_default"));
        // Line 5756: the second MaxPool, whose op cycles (17316) are its SRAM access cycles, not
        // its NPU cycles (12697).
        const VelaLayerRow& pool = t.rows[21];
        QCOMPARE(pool.line, std::size_t(5756));
        QCOMPARE(pool.name, std::string("aten_max_pool2d_default_1"));
        QCOMPARE(pool.opCycles, std::optional<std::int64_t>(17316));
        QCOMPARE(pool.npuCycles, std::optional<std::int64_t>(12697));
        QCOMPARE(pool.sramAccessCycles, std::optional<std::int64_t>(17316));
        // Line 5808: AvgPool … 858 0.02 858 160 0 0 0 676 0.00 0.31 aten_view_copy_default
        const VelaLayerRow& last = t.rows.back();
        QCOMPARE(last.line, std::size_t(5808));
        QCOMPARE(last.nngOperator, std::string("AvgPool"));
        QCOMPARE(last.opCycles, std::optional<std::int64_t>(858));
        QCOMPARE(last.macCount, std::optional<std::int64_t>(676));
        QCOMPARE(last.utilMacPercent, std::optional<double>(0.31));
        QCOMPARE(last.name, std::string("aten_view_copy_default"));
    }

    void rpsListing()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        QCOMPARE(log.listings.size(), std::size_t(1));
        const RegisterListing& l = log.listings[0];
        QCOMPARE(l.line, std::size_t(4267));
        QCOMPARE(l.announcedWords, std::optional<std::uint64_t>(1862));
        QCOMPARE(l.listedWords(), std::uint64_t(1862));
        QVERIFY(l.complete());
        QCOMPARE(l.commands.size(), std::size_t(1328));
        QCOMPARE(l.bytes().size(), std::size_t(7448));
        QCOMPARE(l.operations.size(), std::size_t(100));
        QCOMPARE(std::count_if(l.operations.begin(), l.operations.end(),
                     [](const ListedOperation& op) { return op.kind == "DMA"; }),
            39);
        // Line 4269: "// Transpose , subOps: -, …"; line 4349 "// Conv2D , subOps: Clamp, size=3,3 stride=2,2, …".
        QCOMPARE(l.operations[0].kind, std::string("Transpose"));
        QVERIFY(l.operations[0].subOps.empty());
        QCOMPARE(l.operations[3].line, std::size_t(4349));
        QCOMPARE(l.operations[3].kind, std::string("Conv2D"));
        QCOMPARE(l.operations[3].subOps, std::vector<std::string> { "Clamp" });
        // Line 4270: "0x000000:          0001 0105 - NPU_SET_IFM_PRECISION   1, activation_type = …"
        const ListedCommand& first = l.commands[0];
        QCOMPARE(first.line, std::size_t(4270));
        QCOMPARE(first.offset, std::uint32_t(0));
        QCOMPARE(first.code, std::uint16_t(0x0105));
        QCOMPARE(first.param, std::uint16_t(1));
        QVERIFY(!first.payload);
        QCOMPARE(first.name, std::string("NPU_SET_IFM_PRECISION"));
        QCOMPARE(first.fields.size(), std::size_t(4));
        QCOMPARE(first.fields[1].name, std::string("activation_precision"));
        QCOMPARE(first.fields[1].value, std::string("ACTIVATION_PRECISION_B8"));
        QCOMPARE(first.operation, 0);
        // Line 4272: "0x000008: 000c4000 0000 4000 - NPU_SET_IFM_BASE0  0, addr = 0xc4000"
        const ListedCommand& base = l.commands[2];
        QCOMPARE(base.offset, std::uint32_t(8));
        QCOMPARE(base.payload, std::optional<std::uint32_t>(0xc4000));
        QCOMPARE(base.code, std::uint16_t(0x4000));
        QCOMPARE(base.word(), std::uint32_t(0x00004000));
        QCOMPARE(base.field("addr")->value, std::string("0xc4000"));
        const ListedCommand& stop = l.commands.back();
        QCOMPARE(stop.offset, std::uint32_t(0x1d14));
        QCOMPARE(stop.name, std::string("NPU_OP_STOP"));
        QCOMPARE(stop.param, std::uint16_t(0xffff));
    }

    void cmsisSummaryOnly()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kCmsis)));
        QCOMPARE(log.summaries.size(), std::size_t(1));
        QVERIFY(log.tables.empty());
        QVERIFY(log.listings.empty());
        const VelaSummary& s = log.summaries[0];
        // Lines 42–69 under "Network summary for out" (line 41): 6 + 2 + 2 + 6 + 6 + 1 value lines.
        QCOMPARE(s.fields.size(), std::size_t(23));
        QCOMPARE(s.accelerator, std::string("Ethos_U55_128"));
        QCOMPARE(s.systemConfiguration, std::string("Ethos_U55_High_End_Embedded"));
        QCOMPARE(s.clockMHz, std::optional<double>(500));
        QCOMPARE(s.npuOperators, std::optional<std::int64_t>(12));
        QCOMPARE(s.macs, std::optional<std::int64_t>(0));
        QVERIFY(!s.totalCycles); // this Vela printed no cycle lines
        QCOMPARE(s.find("Total Off-chip Flash used")->number, std::optional<double>(0.03));
    }

    void writerMade()
    {
        const VelaLogSpec spec = threeRows();
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "made.log");
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.summaries.size(), std::size_t(1));
        const VelaSummary& s = log.summaries[0];
        QCOMPARE(s.accelerator, spec.accelerator);
        QCOMPARE(s.npuOperators, std::optional<std::int64_t>(3));
        QCOMPARE(s.macs, std::optional<std::int64_t>(123456));
        QCOMPARE(s.npuCycles, std::optional<std::int64_t>(9000));
        QCOMPARE(s.totalCycles, std::optional<std::int64_t>(9100));
        QCOMPARE(s.inferencesPerSecond, std::optional<double>(43956.04));
        QCOMPARE(log.tables.size(), std::size_t(1));
        QCOMPARE(log.tables[0].rows.size(), std::size_t(3));
        QCOMPARE(log.tables[0].rows[2].nngOperator, std::string("MaxPool"));
        QCOMPARE(log.tables[0].rows[2].npuCycles, std::optional<std::int64_t>(2500));
        QCOMPARE(log.tables[0].rows[0].utilMacPercent, std::optional<double>(78.12));
        QCOMPARE(log.listings.size(), std::size_t(1));
        QCOMPARE(log.listings[0].commands.size(), std::size_t(4));
        QCOMPARE(log.listings[0].listedWords(), std::uint64_t(5));
        QVERIFY(log.listings[0].complete());
        QCOMPARE(log.listings[0].operations.size(), std::size_t(1));
        QCOMPARE(log.listings[0].operations[0].subOps, std::vector<std::string> { "Clamp" });
    }

    void crlfAndTabs()
    {
        VelaLogSpec spec = threeRows();
        spec.damage.crlf = true;
        spec.damage.tabs = true;
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "crlf.log");
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.summaries[0].accelerator, std::string("Ethos_U85_256"));
        QCOMPARE(log.summaries[0].totalCycles, std::optional<std::int64_t>(9100));
        QCOMPARE(log.tables[0].rows.size(), std::size_t(3));
        QCOMPARE(log.tables[0].rows[2].name, std::string("aten_max_pool2d_default"));
        QVERIFY(log.listings[0].complete());
    }

    void unknownAndMissingColumns()
    {
        VelaLogSpec spec = threeRows();
        spec.damage.unknownColumn = "Frobs";
        spec.damage.dropColumn = "Op Cycles";
        const std::string text = writeVelaLog(spec);
        const VelaLog log = parseVelaLog(text, "columns.log");
        QVERIFY(anyWarning(log.warnings, "unknown column 'Frobs'"));
        QVERIFY(anyWarning(log.warnings, "no column 'Op Cycles'"));
        // The warning names the header's line.
        const auto headerLine = 1
            + std::count(
                text.begin(), text.begin() + static_cast<std::ptrdiff_t>(text.find("Original Operator")), '\n');
        QVERIFY(anyWarning(log.warnings, "columns.log:" + std::to_string(headerLine) + ": unknown column"));
        QCOMPARE(log.tables[0].rows.size(), std::size_t(3));
        QVERIFY(!log.tables[0].rows[0].opCycles);
        QCOMPARE(log.tables[0].rows[0].macCount, std::optional<std::int64_t>(100000));
        QCOMPARE(log.tables[0].rows[2].name, std::string("aten_max_pool2d_default"));
    }

    void truncatedTable()
    {
        VelaLogSpec spec = threeRows();
        spec.summary = false;
        const std::string whole = writeVelaLog(spec);
        // Cut in the middle of the third row: two rows whole, the third's name gone.
        const std::size_t third = whole.find("MaxPool");
        spec.damage.cutAtByte = third + 60;
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "cut.log");
        QCOMPARE(log.tables.size(), std::size_t(1));
        QVERIFY(log.tables[0].rows.size() >= 2);
        QCOMPARE(log.tables[0].rows[1].nngOperator, std::string("Clamp"));
        QVERIFY(anyWarning(log.warnings, "cut.log:"));
    }

    void longLineAndInterleaved()
    {
        VelaLogSpec spec = threeRows();
        spec.damage.longLineBytes = 100000;
        spec.damage.interleave = true;
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "long.log");
        QVERIFY(anyWarning(log.warnings, "line of 100000 bytes; only its first 65536 are read"));
        QVERIFY(anyWarning(log.warnings, "not a per-layer row"));
        QVERIFY(anyWarning(log.warnings, "not a register listing line"));
        QCOMPARE(log.tables[0].rows.size(), std::size_t(3));
        QCOMPARE(log.listings[0].commands.size(), std::size_t(4));
        QCOMPARE(log.summaries[0].totalCycles, std::optional<std::int64_t>(9100));
    }

    void cutListing()
    {
        VelaLogSpec spec = threeRows();
        spec.announcedWords = 9;
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "listing.log");
        QVERIFY(!log.listings[0].complete());
        QVERIFY(anyWarning(log.warnings, "announces 9 words but lists 5"));
    }

    void perLayerCsv()
    {
        VelaLogSpec spec = threeRows();
        const VelaLog log = parseVelaLog(writeVelaPerLayerCsv(spec), "out_per-layer.csv");
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        QCOMPARE(log.tables.size(), std::size_t(1));
        QVERIFY(log.tables[0].csv);
        QCOMPARE(log.tables[0].rows.size(), std::size_t(3));
        QCOMPARE(log.tables[0].rows[0].opCycles, std::optional<std::int64_t>(5000));
        QCOMPARE(log.tables[0].rows[2].sramAccessCycles, std::optional<std::int64_t>(3000));
        // The older header (npu_performance.py): TFLite_operator, SRAM Usage, Peak%, two
        // "Network%" (cycles, then MACs) and Util%; Vela wrote NaN where it had no figure.
        const std::string old = "TFLite_operator,NNG Operator,SRAM Usage,Peak%,Op Cycles,Network%,NPU,SRAM AC,DRAM AC,"
                                "OnFlash AC,OffFlash AC,MAC Count,Network%,Util%,Name\n"
                                "CONV_2D,Conv2DBias,1024,50.00,2000,40.00,1800,2000,0,0,0,65536,25.00,NaN,conv1\n";
        const VelaLog oldLog = parseVelaLog(old, "old.csv");
        QCOMPARE(oldLog.tables[0].rows.size(), std::size_t(1));
        const VelaLayerRow& r = oldLog.tables[0].rows[0];
        QCOMPARE(r.originalOperator, std::string("CONV_2D"));
        QCOMPARE(r.stagingUsage, std::optional<std::int64_t>(1024));
        QCOMPARE(r.networkCyclesPercent, std::optional<double>(40));
        QCOMPARE(r.networkMacPercent, std::optional<double>(25));
        QVERIFY(!r.utilMacPercent);
        QCOMPARE(r.name, std::string("conv1"));
        // Only Target is missing from the old header.
        QVERIFY(anyWarning(oldLog.warnings, "no column 'Target'"));
    }

    void limitsAndGarbage()
    {
        LogLimits limits;
        limits.maxLines = 10;
        const VelaLog log = parseVelaLog(writeVelaLog(threeRows()), "limits.log", limits);
        QVERIFY(anyWarning(log.warnings, "reading stopped at the line limit"));
        const VelaLog none = parseVelaLog("hello\nworld\n", "none.log");
        QVERIFY(none.empty());
        QVERIFY(anyWarning(none.warnings, "no Vela network summary"));
        std::string why;
        QVERIFY(!detail::parseListedCommand("0x000008: zzzz 4000 - NPU_SET_IFM_BASE0 0", why));
        QVERIFY(!why.empty());
        QVERIFY(!readVelaLog("/nonexistent/vela.log").ok());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestVelaLog)
#include "tst_velalog.moc"
