// SPDX-License-Identifier: MIT
// Hostile delegate payloads never crash, hang or fail a file: every real delegated sample's
// payload is truncated, given lying sizes, bit-flipped and replaced by random bytes, and then
// handed to every decoder (by backend id). Each result is a described delegate; when nothing
// could be decoded it says why in a warning. The mutations follow the layouts of facts sheet
// §3.1 (XH00 sizes at 14 and 22), §3.4 (vela block size at 16, QNN binary size at 12) and the
// headers the decoders read (VGF sections at 16.., OpenVINO offsets at 0..47).
#include "core/delegates/deferredpayload.h"
#include "core/document/document.h"
#include "tests/common/testsupport.h"

#include <QElapsedTimer>
#include <QTest>

#include <cstring>
#include <random>

using namespace etscope::core;

Q_DECLARE_METATYPE(std::string)

namespace {

const char* const kBackends[] = { "XnnpackBackend", "VulkanBackend", "MPSBackend", "CoreMLBackend", "EthosUBackend",
    "VgfBackend", "QnnBackend", "OpenvinoBackend", "TOSABackend", "MLXBackend", "NativeBackend", "SomeFutureBackend" };

const char* const kSamples[] = { "djl-executorch-engine/spike_conv.pte", "executorch-numpy-runtime/quantized.pte",
    "cmsis-executorch/ethos_u_minimal_example_u55.pte", "djl-executorch-engine/openvino_tiny.pte",
    "executorch/stories260k_hybrid_llama_qnn.pte", "pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte" };

void putLe(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t value, int width)
{
    for (int i = 0; i < width && at + static_cast<std::size_t>(i) < bytes.size(); ++i)
        bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

/// Describes `payload` under every backend id and checks the result is a sane description.
void describeEverywhere(const Program& program, const DelegateRef& original, const std::vector<std::uint8_t>& payload,
    const std::string& what)
{
    for (const char* backend : kBackends) {
        DelegateRef ref = original;
        ref.backendId = backend;
        const DelegateInfo info = describePayload(program, ref, payload, {}, what);
        QVERIFY2(info.backendId == backend, what.c_str());
        QVERIFY2(!info.summary.empty(), what.c_str());
        QVERIFY2(!info.facts.empty() && info.facts.front().name == "backend_id", what.c_str());
        if (info.format == "opaque" && std::string(backend) != "SomeFutureBackend")
            QVERIFY2(!info.warnings.empty(), (what + " under " + backend).c_str());
        if (info.innerGraph) {
            for (const Edge& edge : info.innerGraph->edges) {
                QVERIFY(edge.from.index() < info.innerGraph->nodes.size());
                QVERIFY(edge.to.index() < info.innerGraph->nodes.size());
            }
        }
        // The app's open (deferred inner graphs) says the same of the damaged payload: the same
        // facts and summary before decoding, the same graph and warnings once decoded.
        const auto sources = std::make_shared<DeferredDecodeSources>(program, std::span<const ExternalData* const> {});
        const DelegateInfo deferred = describePayloadDeferred(program, ref, payload, {}, what, sources);
        QVERIFY2(deferred.summary == info.summary, (what + " under " + backend).c_str());
        QCOMPARE(deferred.facts.size(), info.facts.size());
        QCOMPARE(bool(deferred.innerGraph), bool(info.innerGraph));
        if (info.innerGraph) {
            QCOMPARE(deferred.innerGraph.operatorCount(), info.innerGraph->operatorCount());
            QCOMPARE(deferred.innerGraph->nodes.size(), info.innerGraph->nodes.size());
            QCOMPARE(deferred.innerGraph->edges.size(), info.innerGraph->edges.size());
        }
        QCOMPARE(deferred.warnings.size() + deferred.innerGraph.warnings().size(), info.warnings.size());
    }
}

} // namespace

class TestHostilePayloads : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void mutatedPayloads_data()
    {
        QTest::addColumn<std::string>("path");
        for (const char* path : kSamples)
            QTest::addRow("%s", path) << std::string(path);
    }

    void mutatedPayloads()
    {
        QFETCH(std::string, path);
        const auto program = readProgramFile(etscope::test::samplePath(path));
        QVERIFY(program);
        const Method* method = program->defaultMethod();
        QVERIFY(method && !method->delegates.empty());
        const DelegateRef& ref = method->delegates.front();
        const auto whole = program->bytes(ref.payload);
        // Big payloads: the header region is what the decoders parse; keep the test quick.
        const std::vector<std::uint8_t> payload(
            whole.begin(), whole.begin() + std::min<std::size_t>(whole.size(), 8192));
        QElapsedTimer timer;
        timer.start();

        for (const std::size_t cut : { 0, 1, 3, 4, 7, 8, 16, 20, 29, 30, 31, 32, 48, 64, 100, 128, 255, 256, 1000 })
            if (cut < payload.size())
                describeEverywhere(*program, ref,
                    { payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(cut) },
                    path + " cut at " + std::to_string(cut));

        // Lying sizes and offsets in every header field position the decoders read.
        for (const std::size_t field : { 8, 10, 12, 14, 16, 18, 20, 22, 24, 32, 40, 48, 56, 64, 72 }) {
            for (const std::uint64_t lie : { 0xFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFF0ull, 1ull }) {
                std::vector<std::uint8_t> bytes = payload;
                putLe(bytes, field, lie, 8);
                describeEverywhere(*program, ref, bytes, path + " lie at " + std::to_string(field));
            }
        }

        std::mt19937 random(20261122);
        for (int round = 0; round < 60; ++round) {
            std::vector<std::uint8_t> bytes = payload;
            const int flips = 1 + static_cast<int>(random() % 16);
            for (int f = 0; f < flips && !bytes.empty(); ++f)
                bytes[random() % bytes.size()] ^= static_cast<std::uint8_t>(1u << (random() % 8));
            describeEverywhere(*program, ref, bytes, path + " flips round " + std::to_string(round));
        }
        for (int round = 0; round < 20; ++round) {
            // Random bytes behind the real magic/header, so the decoders get past their first check.
            std::vector<std::uint8_t> bytes(
                payload.begin(), payload.begin() + std::min<std::size_t>(payload.size(), 32));
            bytes.resize(32 + random() % 2048);
            for (std::size_t i = 32; i < bytes.size(); ++i)
                bytes[i] = static_cast<std::uint8_t>(random());
            describeEverywhere(*program, ref, bytes, path + " random tail " + std::to_string(round));
        }
        QVERIFY2(timer.elapsed() < 60'000, "decoding hostile payloads took more than a minute");
    }

    void randomBytes()
    {
        const auto program = readProgramFile(etscope::test::samplePath("djl-executorch-engine/spike_add.pte"));
        QVERIFY(program);
        const DelegateRef& ref = program->methods.front().delegates.front();
        std::mt19937 random(7);
        for (int round = 0; round < 100; ++round) {
            std::vector<std::uint8_t> bytes(random() % 4096);
            for (auto& b : bytes)
                b = static_cast<std::uint8_t>(random());
            // Half of the rounds carry a real magic so the decoder goes further.
            static const char* const kMagics[] = { "\0\0\0\0XH00", "\0\0\0\0VH00", "\0\0\0\0MP00", "vela_bin_stream",
                "VGF1", "\xCD\xAB\x78\x56", "CMJR{", "\0\0\0\0XN01", "\0\0\0\0TOSA" };
            if (round % 2 && bytes.size() > 16) {
                const char* magic = kMagics[(round / 2) % std::size(kMagics)];
                const std::size_t length = (magic[0] == 0 ? 8 : std::strlen(magic));
                std::memcpy(bytes.data(), magic, length);
            }
            describeEverywhere(*program, ref, bytes, "random round " + std::to_string(round));
        }
    }

    // A payload damaged inside a real file: the file still opens, the delegate is described and
    // the method still has its graph.
    void damagedPayloadInAFileStillOpens_data()
    {
        QTest::addColumn<std::string>("path");
        for (const char* path : kSamples)
            QTest::addRow("%s", path) << std::string(path);
    }

    void damagedPayloadInAFileStillOpens()
    {
        QFETCH(std::string, path);
        auto file = MappedFile::open(etscope::test::samplePath(path));
        QVERIFY(file);
        const auto program = readProgram(*file);
        QVERIFY(program);
        const Method* method = program->defaultMethod();
        const DelegateRef& ref = method->delegates.front();
        std::vector<std::uint8_t> bytes((*file)->bytes().begin(), (*file)->bytes().end());
        // Zero the payload's first 64 bytes and make the rest of its first KiB noise.
        std::mt19937 random(3);
        for (std::uint64_t i = 0; i < std::min<std::uint64_t>(ref.payload.size, 1024); ++i)
            bytes[ref.payload.offset + i] = i < 64 ? 0 : static_cast<std::uint8_t>(random());
        auto damaged = readProgram(MappedFile::fromBytes(path + " (damaged)", bytes));
        QVERIFY2(damaged, damaged ? "" : damaged.error().message().c_str());
        Document document;
        document.path = path;
        document.kind = FileKind::Program;
        document.program = std::move(*damaged);
        QVERIFY(!analyseDocument(document));
        const MethodAnalysis* analysis = document.analysis(*document.program->defaultMethod());
        QVERIFY(analysis && analysis->graph);
        const DelegateInfo& info = analysis->delegates.front();
        QCOMPARE(info.format, std::string("opaque"));
        QVERIFY(!info.warnings.empty());
        QVERIFY(info.warnings.front().message.find(ref.backendId) != std::string::npos);
        QVERIFY(info.summary.find("not decoded") != std::string::npos);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestHostilePayloads)
#include "tst_hostilepayloads.moc"
