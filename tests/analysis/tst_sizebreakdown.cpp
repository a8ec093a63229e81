// SPDX-License-Identifier: MIT
// The size breakdown: its leaves tile every real sample exactly, and on four samples every part
// has the size computed by hand from `etscope info`, `stat -c %s` and a hexdump of the header.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/analysis/sizebreakdown.h"
#include "core/document/document.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <functional>

using namespace etscope::core;

namespace {

/// Leaf ranges sorted must run from byte 0 to the file size with no gap and no overlap, and each
/// node's bytes must be the sum of its ranges or children. Returns what is wrong, empty if fine.
std::string tilingProblem(const SizeTree& tree)
{
    std::vector<ByteRange> ranges;
    std::function<std::string(const SizeNode&)> check = [&](const SizeNode& node) -> std::string {
        std::uint64_t sum = 0;
        if (node.isLeaf()) {
            for (const ByteRange& r : node.ranges) {
                sum += r.size;
                ranges.push_back(r);
            }
        } else {
            for (const SizeNode& child : node.children) {
                if (auto problem = check(child); !problem.empty())
                    return problem;
                sum += child.bytes;
            }
        }
        return sum == node.bytes ? std::string()
                                 : node.name + ": bytes " + std::to_string(node.bytes) + " != " + std::to_string(sum);
    };
    if (auto problem = check(tree.root); !problem.empty())
        return problem;
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::uint64_t cursor = 0;
    for (const ByteRange& r : ranges) {
        if (r.offset != cursor || r.size == 0)
            return "gap, overlap or empty range at byte " + std::to_string(cursor);
        cursor = r.end();
    }
    if (cursor != tree.fileSize || tree.root.bytes != tree.fileSize)
        return "leaves end at " + std::to_string(cursor) + ", file has " + std::to_string(tree.fileSize);
    return {};
}

std::uint64_t kindBytes(const SizeTree& tree, SizeKind kind)
{
    for (const SizeGroup& group : sizeByKind(tree))
        if (group.kind == kind)
            return group.bytes;
    return 0;
}

const SizeNode* findLeaf(const SizeTree& tree, const std::function<bool(const SizeNode&)>& match)
{
    for (const SizeNode* node : sizeLeaves(tree))
        if (match(*node))
            return node;
    return nullptr;
}

Result<SizeBreakdown> breakdownOf(const std::string& relative, const OpenOptions& options = {})
{
    auto document = openDocument(etscope::test::samplePath(relative), options);
    if (!document)
        return document.error();
    return sizeBreakdown(*document);
}

} // namespace

class TestSizeBreakdown : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // Every real program, bundled program and .ptd: the leaves partition the file, and every
    // .ptd attached to a program partitions its own file too.
    void everySampleIsTiled()
    {
        int files = 0;
        int refused = 0;
        QDirIterator it(
            etscope::test::samplesRoot(), { "*.pte", "*.bpte", "*.ptd" }, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            auto document = openDocument(path.toStdString());
            if (!document) {
                ++refused; // corrupt.pte, the deliberately invalid sample
                continue;
            }
            ++files;
            auto breakdown = sizeBreakdown(*document);
            QVERIFY2(breakdown.ok(), qPrintable(path));
            QCOMPARE(breakdown->main.fileSize, static_cast<std::uint64_t>(QFileInfo(path).size()));
            QVERIFY2(tilingProblem(breakdown->main).empty(),
                qPrintable(path + ": " + QString::fromStdString(tilingProblem(breakdown->main))));
            QVERIFY2(breakdown->main.warnings.empty(),
                qPrintable(path + ": "
                    + QString::fromStdString(
                        breakdown->main.warnings.empty() ? std::string() : breakdown->main.warnings.front().message)));
            for (const SizeTree& ptd : breakdown->externalData) {
                QCOMPARE(ptd.fileSize, static_cast<std::uint64_t>(QFileInfo(QString::fromStdString(ptd.path)).size()));
                QVERIFY2(tilingProblem(ptd).empty(), qPrintable(QString::fromStdString(ptd.path)));
            }
            std::uint64_t backendSum = 0;
            for (const SizeGroup& group : sizeByBackend(breakdown->main))
                backendSum += group.bytes;
            QCOMPARE(backendSum, breakdown->main.fileSize);
        }
        QCOMPARE(refused, 1);
        QVERIFY(files >= 42);
    }

    // stress_mlp.pte, 2,709,120 bytes (stat -c %s). Header (xxd -l 48): eh00 length 0x20 = 32,
    // program_size 0x1788 = 6024, segment_base_offset 0x1800 = 6144, segment_data_size
    // 0x293e80 = 2,702,976; 6144 + 2,702,976 = 2,709,120: no trailing bytes.
    // `etscope info --json`: 23 segments of sizes 65544, 640, 4976, then 10 × (262144, 1024);
    // constant_segment = segment 0; delegates #0 and #1 (XnnpackBackend) in segments 1 and 2 at
    // file offsets 71808 and 72448; 20 named-data keys in segments 3..22.
    // Segments start at 128-byte boundaries from 6144: seg0 [6144, 71688), seg1 at 6144 +
    // align128(65544) = 6144 + 65664 = 71808 (gap 120), seg2 at 71808 + 640 = 72448 (gap 0),
    // seg3 at 6144 + align128(71280) = 6144 + 71296 = 77440 (gap 16); 262144 and 1024 are
    // multiples of 128: no more gaps. Padding = (6144 − 6024) + 120 + 16 = 256.
    // Constants: FLOAT [64, 256] = 65536 bytes + LONG scalar 8 bytes = 65544 = segment 0.
    void stressMlpByHand()
    {
        ETSCOPE_TAKE(const SizeBreakdown b, breakdownOf("djl-executorch-engine/stress_mlp.pte"));
        const SizeTree& t = b.main;
        QCOMPARE(t.fileSize, std::uint64_t { 2709120 });
        QCOMPARE(kindBytes(t, SizeKind::Header), std::uint64_t { 8 + 32 });
        QCOMPARE(kindBytes(t, SizeKind::ProgramTables), std::uint64_t { 6024 - 40 });
        QCOMPARE(kindBytes(t, SizeKind::Padding), std::uint64_t { 256 });
        QCOMPARE(kindBytes(t, SizeKind::Constant), std::uint64_t { 65536 + 8 });
        QCOMPARE(kindBytes(t, SizeKind::DelegateSegment), std::uint64_t { 640 + 4976 });
        QCOMPARE(kindBytes(t, SizeKind::NamedData), std::uint64_t { 10 * 262144 + 10 * 1024 });
        QCOMPARE(kindBytes(t, SizeKind::Trailing), std::uint64_t { 0 });
        QCOMPARE(40 + 5984 + 256 + 65544 + 5616 + 2631680, 2709120);

        const SizeNode* second
            = findLeaf(t, [](const SizeNode& n) { return n.kind == SizeKind::DelegateSegment && n.segment == 2; });
        QVERIFY(second);
        QCOMPARE(second->ranges.front().offset, std::uint64_t { 72448 });
        QCOMPARE(second->backend, std::string("XnnpackBackend"));
        QCOMPARE(second->refs.size(), std::size_t { 1 });
        QCOMPARE(second->refs.front().method, std::string("forward"));
        QCOMPARE(second->refs.front().delegate.value, 1);
        const SizeNode* firstNamed
            = findLeaf(t, [](const SizeNode& n) { return n.kind == SizeKind::NamedData && n.segment == 3; });
        QVERIFY(firstNamed);
        QCOMPARE(firstNamed->ranges.front().offset, std::uint64_t { 77440 });
        const SizeNode* weights
            = findLeaf(t, [](const SizeNode& n) { return n.kind == SizeKind::Constant && n.bytes == 65536; });
        QVERIFY(weights);
        QCOMPARE(weights->ranges.front().offset, std::uint64_t { 6144 });
        QVERIFY(std::any_of(weights->refs.begin(), weights->refs.end(),
            [](const SizeRef& r) { return r.kind == SizeRef::Kind::Value && r.method == "forward"; }));
    }

    // linear.pte, 1208 bytes: head16 1c000000 45543132 00000000 … — no eh00, so the header is
    // the 8-byte prefix and the rest (1200) is the FlatBuffer; its only segment has 0 bytes.
    // linear.ptd beside it, 336 bytes (xxd -l 48): FH01 length 0x28 = 40 → header 48 bytes;
    // flatbuffer_offset 0x30 = 48, flatbuffer_size 0xe0 = 224 → tables [48, 272);
    // segment_base_offset 0x110 = 272, segment_data_size 0x40 = 64 → 272 + 64 = 336.
    // First layout: linear.weight FLOAT [3, 3] = 36 bytes at 272 (xxd: 9751813e… at 0x110),
    // linear.bias FLOAT [3] = 12 bytes at offset 48 of the segment (the 0x30 in the tensor
    // table; xxd: b93c823e… at 0x140 = 320). Padding: [308, 320) + [332, 336) = 16.
    void linearWithPtdByHand()
    {
        ETSCOPE_TAKE(const SizeBreakdown b, breakdownOf("executorch/linear.pte"));
        QCOMPARE(b.main.fileSize, std::uint64_t { 1208 });
        QCOMPARE(kindBytes(b.main, SizeKind::Header), std::uint64_t { 8 });
        QCOMPARE(kindBytes(b.main, SizeKind::ProgramTables), std::uint64_t { 1200 });
        QCOMPARE(b.externalData.size(), std::size_t { 1 }); // found beside it
        const SizeTree& ptd = b.externalData.front();
        QCOMPARE(ptd.format, std::string("ptd"));
        QCOMPARE(ptd.fileSize, std::uint64_t { 336 });
        QCOMPARE(kindBytes(ptd, SizeKind::Header), std::uint64_t { 48 });
        QCOMPARE(kindBytes(ptd, SizeKind::ProgramTables), std::uint64_t { 224 });
        QCOMPARE(kindBytes(ptd, SizeKind::NamedData), std::uint64_t { 36 + 12 });
        QCOMPARE(kindBytes(ptd, SizeKind::Padding), std::uint64_t { 16 });
        const SizeNode* bias = findLeaf(ptd, [](const SizeNode& n) { return n.name == "'linear.bias'"; });
        QVERIFY(bias);
        QCOMPARE(bias->ranges.front().offset, std::uint64_t { 320 });
        QCOMPARE(bias->bytes, std::uint64_t { 12 });
        // The key is the FQN of an external tensor of forward: the part links to that value.
        QVERIFY(std::any_of(bias->refs.begin(), bias->refs.end(),
            [](const SizeRef& r) { return r.kind == SizeRef::Kind::Value && r.method == "forward"; }));

        // The .ptd alone gives the same tree.
        ETSCOPE_TAKE(const SizeBreakdown alone, breakdownOf("executorch/linear.ptd"));
        QCOMPARE(alone.main.format, std::string("ptd"));
        QCOMPARE(kindBytes(alone.main, SizeKind::NamedData), std::uint64_t { 48 });
        QVERIFY(alone.externalData.empty());
    }

    // mobilenet_v2_vgf_segments.pte, 4,005,952 bytes. xxd -l 48: eh00 length 32, program_size
    // 0x708 = 1800, segment_base_offset 0x780 = 1920, segment_data_size 0x3d18c0 = 4,004,032;
    // 1920 + 4,004,032 = 4,005,952. `etscope info`: segment sizes [0, 4004032], the VgfBackend
    // delegate in segment 1. So: header 40, tables 1800 − 40 = 1760, padding 1920 − 1800 = 120,
    // one delegate blob of 4,004,032 bytes at 1920 (99.95 % of the file).
    void vgfSegmentsByHand()
    {
        ETSCOPE_TAKE(const SizeBreakdown b, breakdownOf("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte"));
        const SizeTree& t = b.main;
        QCOMPARE(kindBytes(t, SizeKind::Header), std::uint64_t { 40 });
        QCOMPARE(kindBytes(t, SizeKind::ProgramTables), std::uint64_t { 1760 });
        QCOMPARE(kindBytes(t, SizeKind::Padding), std::uint64_t { 120 });
        QCOMPARE(kindBytes(t, SizeKind::DelegateSegment), std::uint64_t { 4004032 });
        const auto backends = sizeByBackend(t);
        QCOMPARE(backends.front().name, std::string("VgfBackend"));
        QCOMPARE(backends.front().bytes, std::uint64_t { 4004032 });
        QCOMPARE(backends.back().name, std::string("(not delegated)"));
        QCOMPARE(backends.back().bytes, std::uint64_t { 40 + 1760 + 120 });
        const SizeNode* blob = findLeaf(t, [](const SizeNode& n) { return n.kind == SizeKind::DelegateSegment; });
        QCOMPARE(blob->ranges.front().offset, std::uint64_t { 1920 });
        QCOMPARE(blob->segment, 1);
        QCOMPARE(blob->refs.front().delegate.value, 0);
    }

    // bundled_program.bpte, 4608 bytes. xxd: root offset 0x2c; the program vector's length
    // 0x6a0 = 1696 at 0x3c, its bytes from 64: region [64, 1760). Embedded header at 64: eh00
    // length 0x18 = 24 → header 8 + 24 = 32 bytes [64, 96), zero padding to 16-byte alignment
    // [96, 104) = 8; program_size 0x630 = 1584 → tables [104, 64 + 1584 = 1648) = 1544;
    // segment_base_offset 0x680 = 1664 → padding [1648, 1728) = 80; the constant segment runs to
    // the region's end: 1696 − 1664 = 32 = two INT [2, 2] constants of 16 bytes.
    // Wrapper: 4608 − 1696 = 2912 bytes; `etscope info`: 10 test cases of 'forward', whose two
    // inputs and one output are INT [2, 2] (16 bytes): inputs 10 × 2 × 16 = 320, outputs 160.
    void bundledByHand()
    {
        ETSCOPE_TAKE(const SizeBreakdown b, breakdownOf("executorch/bundled_program.bpte"));
        const SizeTree& t = b.main;
        QCOMPARE(t.format, std::string("bpte"));
        QCOMPARE(t.fileSize, std::uint64_t { 4608 });
        const auto child = [&](const std::string& name) -> const SizeNode* {
            for (const SizeNode& c : t.root.children)
                if (c.name == name)
                    return &c;
            return nullptr;
        };
        const SizeNode* program = child("program (embedded .pte)");
        const SizeNode* wrapper = child("bundled wrapper");
        QVERIFY(program && wrapper);
        QCOMPARE(program->span.offset, std::uint64_t { 64 });
        QCOMPARE(program->bytes, std::uint64_t { 1696 });
        QCOMPARE(wrapper->bytes, std::uint64_t { 2912 });
        QCOMPARE(kindBytes(t, SizeKind::Header), std::uint64_t { 32 });
        QCOMPARE(kindBytes(t, SizeKind::Padding), std::uint64_t { 8 + 80 });
        QCOMPARE(kindBytes(t, SizeKind::ProgramTables), std::uint64_t { 1544 });
        QCOMPARE(kindBytes(t, SizeKind::Constant), std::uint64_t { 32 });
        QCOMPARE(kindBytes(t, SizeKind::BundledTestData), std::uint64_t { 320 + 160 });
        QCOMPARE(kindBytes(t, SizeKind::BundledTables), std::uint64_t { 2912 - 480 });
    }

    // ModuleLinear-no-constant-segment.pte keeps its constants in the deprecated constant_buffer:
    // xxd at 108 and 140 shows the vector lengths 0x10 = 16, then four 2.0f (0x40000000) at 112
    // and four 3.0f (0x40400000) at 144: two FLOAT [2, 2] buffers inside the FlatBuffer.
    void legacyConstantsInsideTheFlatBuffer()
    {
        ETSCOPE_TAKE(const SizeBreakdown b, breakdownOf("executorch/ModuleLinear-no-constant-segment.pte"));
        std::vector<std::uint64_t> offsets;
        for (const SizeNode* node : sizeLeaves(b.main))
            if (node->kind == SizeKind::Constant) {
                QCOMPARE(node->bytes, std::uint64_t { 16 });
                offsets.push_back(node->ranges.front().offset);
            }
        QCOMPARE(offsets, (std::vector<std::uint64_t> { 112, 144 }));
        QCOMPARE(kindBytes(b.main, SizeKind::ProgramTables), std::uint64_t { 1040 - 8 - 32 });
    }

    // A damaged program (built by hand, as no reader would accept it): two segments overlap and
    // one constant buffer runs past its segment. The leaves still tile the file, with warnings.
    void overlapsAreClippedNotDoubleCounted()
    {
        std::vector<std::uint8_t> bytes(1000, 0);
        Program program;
        program.file = MappedFile::fromBytes("damaged.pte", bytes);
        program.region = { 0, 1000 };
        program.identifier = "ET12";
        program.header = ExtendedHeader { 32, 400, 512, 488 };
        program.segments = { { 512, 300 }, { 700, 300 } };
        program.namedData
            = { { "first-key", 0, { 512, 300 }, std::nullopt }, { "second-key", 1, { 700, 300 }, std::nullopt } };
        const SizeTree tree = programSizeTree(program);
        QVERIFY2(tilingProblem(tree).empty(), tilingProblem(tree).c_str());
        QCOMPARE(tree.root.bytes, std::uint64_t { 1000 });
        QCOMPARE(kindBytes(tree, SizeKind::NamedData), std::uint64_t { 300 + 188 }); // 700..812 counted once
        QVERIFY(!tree.warnings.empty());
        QVERIFY(tree.warnings.front().message.find("overlap") != std::string::npos);
    }

    void documentsWithoutSizeAreRefused()
    {
        auto document = openDocument(etscope::test::samplePath("executorch/etdump.etdp"));
        QVERIFY(document.ok());
        auto breakdown = sizeBreakdown(*document);
        QVERIFY(!breakdown.ok());
        QCOMPARE(breakdown.error().code, Error::Code::Usage);
        QVERIFY(breakdown.error().message().find("etdump.etdp") != std::string::npos);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestSizeBreakdown)
#include "tst_sizebreakdown.moc"
