// SPDX-License-Identifier: MIT
// The joins of core/vendorlogs/vendorjoin.h: a Vela register listing against ETScope's own
// decode of the same words, per-layer rows to NPU operations, refusing a log of another stream,
// and a summary-only log.
//
// Target of issue 34: "On the RPS log, ETScope's reading of the register listing equals its own
// decode of the same words: every command, every field that both show." The RPS .pte is not
// public, so the words come from the listing itself (payload, parameter and code of each of its
// 1328 command lines; 1862 words, velalog tests count them) and are decoded with ETScope's
// Ethos-U85 decoder; the listing's fields, turned into ETScope's wording, must equal the decode.
// The kicks are 39 NPU_OP_CONV, 22 NPU_OP_POOL and 39 NPU_OP_DMA_START (grep over lines
// 4267–5700), 100 operations. Per-layer rows (74) meet them through the listing's "//" lines:
// 61 kernel operations for 26 Conv2D + 17 MemoryCopy + 3 MaxPool + 1 Transpose + 1 AvgPool
// = 48 rows, the 26 Clamp rows fused into their Conv2D ("subOps: Clamp"), and the 13 Conv2D
// lines that repeat the line before them exactly (39 − 26) are further parts of a split row.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"
#include "tests/common/velafixtures.h"

#include "core/delegates/ethosucommands.h"
#include "core/util/text.h"
#include "core/vendorlogs/vendorjoin.h"
#include "core/vendorlogs/vendortext.h"
#include "core/writer/payloads/ethosupayloadwriter.h"
#include "core/writer/vendorlogwriter.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;
using namespace etscope::core::vendor;
using etscope::test::listingOf;
using etscope::test::velaRow;

namespace {

const std::string kRps = "modelnova/rps_model_conversion_20260219_041725.log";
const std::string kCmsis = "cmsis-executorch/model_conversion_20251126_091256.log";
const std::string kCmsisPte = "cmsis-executorch/ethos_u_minimal_example_u55.pte";

} // namespace

class TestVendorJoin : public QObject {
    Q_OBJECT

private slots:
    void rpsListingEqualsOwnDecode()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        const RegisterListing& listing = log.listings.at(0);
        const std::vector<std::uint8_t> words = listing.bytes();
        QCOMPARE(words.size(), std::size_t(1862 * 4));
        const EthosUStream stream = ethosUStreamFromWords(words, ethosu::Arch::U85);
        QVERIFY(stream.decoded.stopped);
        const StreamComparison c = compareListing(listing, stream);
        for (std::size_t i = 0; i < std::min<std::size_t>(c.differences.size(), 10); ++i)
            qWarning("%s",
                (std::to_string(c.differences[i].offset) + " " + c.differences[i].what + ": listed '"
                    + c.differences[i].listed + "', decoded '" + c.differences[i].decoded + "'")
                    .c_str());
        QCOMPARE(c.listedCommands, std::size_t(1328));
        QCOMPARE(c.decodedCommands, std::size_t(1328));
        QCOMPARE(c.equalCommands, std::size_t(1328));
        QCOMPARE(c.differentCommands, std::size_t(0));
        QCOMPARE(c.onlyListed, std::size_t(0));
        QCOMPARE(c.onlyDecoded, std::size_t(0));
        QCOMPARE(c.operationsCompared, std::size_t(100));
        QCOMPARE(c.fieldsEqual, c.fieldsCompared);
        // Fields compared, by hand: 4 per command (code, parameter, payload, name) = 5312; the
        // kind of each of the 100 operations; 15 per kernel kick (61 = 39 conv + 22 pool: IFM
        // address, strides, zero point; OFM type/shape, address, strides, zero point; kernel,
        // stride, dilation, padding, weight order, clip, block, accumulator) = 915; the 39
        // convolutions' weights and per-channel scales = 78; the 22 pools' mode and global
        // OFM scale = 44; the 39 DMAs' source, destination and length = 117.
        // 5312 + 100 + 915 + 78 + 44 + 117 = 6566.
        QCOMPARE(c.comparedByField.at("code"), std::size_t(1328));
        QCOMPARE(c.comparedByField.at("operation kind"), std::size_t(100));
        QCOMPARE(c.comparedByField.at("kernel"), std::size_t(61));
        QCOMPARE(c.comparedByField.at("weights"), std::size_t(39));
        QCOMPARE(c.comparedByField.at("pooling"), std::size_t(22));
        QCOMPARE(c.comparedByField.at("source"), std::size_t(39));
        QCOMPARE(c.fieldsCompared, std::size_t(6566));
        QVERIFY(c.same());
        qInfo("RPS register listing vs ETScope's decode: %zu commands equal, %zu operations, %zu of %zu fields equal",
            c.equalCommands, c.operationsCompared, c.fieldsEqual, c.fieldsCompared);

        // A listing field changed by hand is found: the IFM base of the first operation.
        VelaLog changed = log;
        for (ListedField& f : changed.listings[0].commands[2].fields)
            if (f.name == "addr")
                f.value = "0xc4040";
        const StreamComparison d = compareListing(changed.listings[0], stream);
        QVERIFY(!d.same());
        QCOMPARE(d.differentCommands, std::size_t(0)); // the words are still equal
        QVERIFY(std::any_of(d.differences.begin(), d.differences.end(), [](const StreamDifference& x) {
            return x.what == "IFM address" && x.listed == "region 1 + 0xc4040" && x.decoded == "region 1 + 0xc4000";
        }));
    }

    void rpsRowsJoined()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        const EthosUStream stream = ethosUStreamFromWords(log.listings.at(0).bytes(), ethosu::Arch::U85);
        const VelaJoin join = joinVelaLog(log, stream);
        QCOMPARE(join.verdict, JoinVerdict::Joined);
        QVERIFY2(join.reason.find("1862 command words") != std::string::npos, join.reason.c_str());
        QCOMPARE(join.listing, 0);
        QCOMPARE(join.table, 0);
        QCOMPARE(join.summary, 0);
        QCOMPARE(join.rowsJoined, std::size_t(74));
        QCOMPARE(join.rowsLeft, std::size_t(0));
        const auto& ops = join.operations;
        QCOMPARE(ops.size(), std::size_t(100));
        // DMA kicks have no row; every kernel kick has one.
        std::size_t withRow = 0;
        std::size_t splitParts = 0;
        std::size_t fused = 0;
        for (const VelaOperation& op : ops) {
            const ethosu::Operation& d = stream.decoded.operations[op.operation];
            QCOMPARE(op.row >= 0, d.kind != ethosu::OpKind::Dma);
            withRow += op.row >= 0;
            splitParts += op.part > 1;
            fused += op.part == 1 && !op.fusedRows.empty();
        }
        QCOMPARE(withRow, std::size_t(61));
        QCOMPARE(splitParts, std::size_t(13));
        QCOMPARE(fused, std::size_t(26));
        // The first kernel kick is the Transpose (row 0, line 5735); the first Conv2D kick
        // (after "// Conv2D , subOps: Clamp, size=3,3 stride=2,2" at line 4349) takes row 2 (Conv2D
        // aten_clamp_default, 296216 op cycles) with row 3 (its Clamp) fused.
        const auto firstConv = std::find_if(ops.begin(), ops.end(), [&](const VelaOperation& op) {
            return stream.decoded.operations[op.operation].kind == ethosu::OpKind::Conv;
        });
        QVERIFY(firstConv != ops.end());
        QCOMPARE(firstConv->row, 2);
        QCOMPARE(firstConv->fusedRows, std::vector<int> { 3 });
        QCOMPARE(log.tables[0].rows[2].opCycles, std::optional<std::int64_t>(296216));
        QVERIFY(firstConv->listed.starts_with("Conv2D , subOps: Clamp, size=3,3 stride=2,2"));
        // Its NPU_OP_CONV is at 0x264 = 612 (listing line 4386): an inner-graph node with that
        // "stream offset" finds it.
        QCOMPARE(firstConv->offset, std::uint64_t(612));
        Node node;
        node.attributes.add("stream offset", "612");
        QCOMPARE(operationForNode(join, node), &*firstConv);
        node.attributes = {};
        node.attributes.add("stream offset", "613");
        QVERIFY(!operationForNode(join, node));
        const std::string text = velaJoinText(join, log, stream);
        QVERIFY(text.find("Vela estimate for the delegate: 5075829 NPU cycles") != std::string::npos);
    }

    void rpsRefusedForAnotherStream()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kRps)));
        std::vector<std::uint8_t> words = log.listings.at(0).bytes();
        words[0x1a0 + 4] ^= 1; // the OFM scale payload of the first Conv2D (listing line 4350)
        const EthosUStream other = ethosUStreamFromWords(words, ethosu::Arch::U85);
        const VelaJoin join = joinVelaLog(log, other);
        QCOMPARE(join.verdict, JoinVerdict::Refused);
        QVERIFY2(join.reason.find("differs from the delegate's command stream at byte 420") != std::string::npos,
            join.reason.c_str());
        QCOMPARE(join.summary, 0); // the summary is still there to show
        words[0x1a0 + 4] ^= 1; // back to the listed word
        words.resize(words.size() - 8);
        const VelaJoin shorter = joinVelaLog(log, ethosUStreamFromWords(words, ethosu::Arch::U85));
        QCOMPARE(shorter.verdict, JoinVerdict::Refused);
        QVERIFY2(shorter.reason.find("has 1862 words, the delegate's command stream 1860") != std::string::npos,
            shorter.reason.c_str());
    }

    void writerMadeJoin()
    {
        const EthosUPayloadSpec fixture = ethosUFixtureU55();
        ETSCOPE_TAKE(const EthosUStream stream, ethosUStream(writeEthosUPayload(fixture), std::nullopt, "fixture"));
        QCOMPARE(stream.arch, ethosu::Arch::U55);
        // The fixture's operations in order, named as Vela would.
        std::vector<std::string> kinds;
        std::vector<VelaRowSpec> rows;
        for (const ethosu::Operation& op : stream.decoded.operations) {
            switch (op.kind) {
            case ethosu::OpKind::Conv:
                kinds.push_back("Conv2D , subOps: Clamp, size=1,1");
                rows.push_back(velaRow("Conv2D", "conv", 500));
                rows.push_back(velaRow("Clamp", "conv", 50));
                break;
            case ethosu::OpKind::Elementwise:
                kinds.push_back("Add , subOps: -");
                rows.push_back(velaRow("Add", "add", 300));
                break;
            case ethosu::OpKind::Pool:
                kinds.push_back("MaxPool , subOps: -");
                rows.push_back(velaRow("MaxPool", "pool", 200));
                break;
            default:
                kinds.push_back("DMA src: OffChipFlash");
                break;
            }
        }
        QCOMPARE(rows.size(), std::size_t(4));
        VelaLogSpec spec = listingOf(fixture.commands, kinds);
        spec.rows = rows;
        spec.npuCycles = 1000;
        const VelaLog log = parseVelaLog(writeVelaLog(spec), "fixture.log");
        QVERIFY2(log.warnings.empty(), log.warnings.empty() ? "" : log.warnings.front().message.c_str());
        const VelaJoin join = joinVelaLog(log, stream);
        QCOMPARE(join.verdict, JoinVerdict::Joined);
        QVERIFY(join.comparison && join.comparison->same());
        QCOMPARE(join.comparison->operationsCompared, std::size_t(4));
        QCOMPARE(join.rowsJoined, std::size_t(4));
        for (const VelaOperation& op : join.operations) {
            const ethosu::Operation& d = stream.decoded.operations[op.operation];
            if (d.kind == ethosu::OpKind::Conv) {
                QCOMPARE(log.tables[0].rows[static_cast<std::size_t>(op.row)].name, std::string("conv"));
                QCOMPARE(op.fusedRows, std::vector<int> { 1 });
            } else if (d.kind == ethosu::OpKind::Dma) {
                QCOMPARE(op.row, -1);
            }
        }

        // The same rows without the listing (the fused Clamp row left out): by order and kind.
        VelaLogSpec rowsOnly;
        for (const ethosu::Operation& op : stream.decoded.operations)
            if (op.kind == ethosu::OpKind::Conv)
                rowsOnly.rows.push_back(velaRow("Conv2D", "conv", 500));
            else if (op.kind == ethosu::OpKind::Elementwise)
                rowsOnly.rows.push_back(velaRow("Add", "add", 300));
            else if (op.kind == ethosu::OpKind::Pool)
                rowsOnly.rows.push_back(velaRow("MaxPool", "pool", 200));
        QCOMPARE(rowsOnly.rows.size(), std::size_t(3));
        const VelaLog rowsLog = parseVelaLog(writeVelaLog(rowsOnly), "rows.log");
        const VelaJoin byOrder = joinVelaLog(rowsLog, stream);
        QCOMPARE(byOrder.verdict, JoinVerdict::Joined);
        QCOMPARE(byOrder.rowsJoined, std::size_t(3));
        QVERIFY(byOrder.method.starts_with("by order and kind"));

        // Rows of another network: refused, naming the row and the operation.
        std::reverse(rowsOnly.rows.begin(), rowsOnly.rows.end());
        const VelaJoin wrong = joinVelaLog(parseVelaLog(writeVelaLog(rowsOnly), "wrong.log"), stream);
        QCOMPARE(wrong.verdict, JoinVerdict::Refused);
        QVERIFY2(wrong.reason.find("per-layer row 1 (") != std::string::npos, wrong.reason.c_str());

        // More rows than the operations take: refused (without the words nothing else ties them).
        std::reverse(rowsOnly.rows.begin(), rowsOnly.rows.end()); // back to stream order
        rowsOnly.rows.push_back(velaRow("MaxPool", "pool2", 100));
        const VelaJoin extra = joinVelaLog(parseVelaLog(writeVelaLog(rowsOnly), "extra.log"), stream);
        QCOMPARE(extra.verdict, JoinVerdict::Refused);
        QVERIFY2(extra.reason.find("has 4 rows but the delegate's 3 NPU operations take only 3") != std::string::npos,
            extra.reason.c_str());

        // A listing of other words: refused.
        std::vector<std::uint32_t> otherWords = fixture.commands;
        otherWords[1] ^= 0x10000;
        const VelaJoin refused = joinVelaLog(parseVelaLog(writeVelaLog(listingOf(otherWords, kinds)), "o.log"), stream);
        QCOMPARE(refused.verdict, JoinVerdict::Refused);
        QVERIFY2(refused.reason.find("differs from the delegate's command stream at byte 4") != std::string::npos,
            refused.reason.c_str());

        // A summary only: unverified when the accelerator matches the stream's CONFIG word
        // (Ethos-U55, 128 MACs), refused when it does not.
        VelaLogSpec summary;
        summary.accelerator = "Ethos_U55_128";
        QCOMPARE(joinVelaLog(parseVelaLog(writeVelaLog(summary), "s.log"), stream).verdict, JoinVerdict::Unverified);
        summary.accelerator = "Ethos_U85_256";
        const VelaJoin other = joinVelaLog(parseVelaLog(writeVelaLog(summary), "s85.log"), stream);
        QCOMPARE(other.verdict, JoinVerdict::Refused);
        QVERIFY2(other.reason.find("Ethos_U85_256") != std::string::npos, other.reason.c_str());
    }

    void notAStream()
    {
        const std::vector<std::uint8_t> junk(64, 0x41);
        const auto none = ethosUStream(junk, std::nullopt, "junk delegate");
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, Error::Code::BadIdentifier);
        QVERIFY(none.error().message().starts_with("junk delegate: not a vela_bin_stream"));
        // A payload cut inside its cmd_data block: the block runs past the payload.
        std::vector<std::uint8_t> payload = writeEthosUPayload(ethosUFixtureU55());
        payload.resize(80); // vela_bin_stream is an empty block (32 bytes), cmd_data starts at 32
        const auto cut = ethosUStream(payload, std::nullopt, "cut delegate");
        QVERIFY(!cut.ok());
        QVERIFY2(
            cut.error().message().find("runs past the payload") != std::string::npos, cut.error().message().c_str());
    }

    void cmsisSummaryOnly()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        ETSCOPE_TAKE(const Program program, readProgramFile(etscope::test::samplePath(kCmsisPte)));
        ETSCOPE_TAKE(const VelaLog log, readVelaLog(etscope::test::samplePath(kCmsis)));
        ETSCOPE_TAKE(const EthosUStream stream, ethosUStream(program, program.methods.at(0).delegates.at(0)));
        const VelaJoin join = joinVelaLog(log, stream);
        // The log has a network summary only (Ethos_U55_128): nothing to compare with the words.
        QCOMPARE(join.verdict, JoinVerdict::Unverified);
        QCOMPARE(join.summary, 0);
        QVERIFY(join.operations.size() == stream.decoded.operations.size());
        QVERIFY(std::all_of(
            join.operations.begin(), join.operations.end(), [](const VelaOperation& op) { return op.row < 0; }));
        QVERIFY2(join.reason.find("only a network summary") != std::string::npos, join.reason.c_str());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestVendorJoin)
#include "tst_vendorjoin.moc"
