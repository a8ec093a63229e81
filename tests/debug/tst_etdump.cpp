// SPDX-License-Identifier: MIT
// The ETDump reader on every real ETDump: the 41 files of samples/generated (facts from their
// README table) and samples/executorch/etdump.etdp (SOURCES.md), plus bad input.
#include "tests/common/testsupport.h"

#include "core/debug/etdump.h"
#include "core/util/scalartype.h"

#include <QTest>

#include <cstring>
#include <map>

using namespace etscope::core;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string generated(const std::string& relative)
{
    return etscope::test::samplePath("generated/" + relative);
}

/// "Default(2p/0d); Execute(5p/3d)" for a dump, in the README's notation.
std::string blockSummary(const ETDump& dump)
{
    std::string text;
    for (const RunBlock& block : dump.runs)
        text += (text.empty() ? "" : "; ") + block.name + "(" + std::to_string(block.profileEvents.size()) + "p/"
            + std::to_string(block.debugEvents.size()) + "d)";
    return text;
}

std::string dtypeSummary(const ETDump& dump)
{
    std::map<std::string, int> counts;
    for (const RunBlock& block : dump.runs)
        for (const DebugEvent& event : block.debugEvents)
            for (const DebugTensor& tensor : event.value.tensors)
                ++counts[scalarTypeName(tensor.scalarType)];
    std::string text;
    for (const auto& [name, count] : counts)
        text += (text.empty() ? "" : ",") + name + ":" + std::to_string(count);
    return text;
}

std::shared_ptr<const MappedFile> bytesFile(const std::string& name, const std::vector<std::uint8_t>& bytes)
{
    return MappedFile::fromBytes(name, bytes);
}

std::vector<std::uint8_t> fileBytes(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return {};
    const auto span = file.value()->bytes();
    return { span.begin(), span.end() };
}

} // namespace

class TestETDump : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void generatedFiles_data()
    {
        QTest::addColumn<std::string>("file");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<std::string>("blocks");
        QTest::addColumn<int>("profile");
        QTest::addColumn<int>("delegateProfile");
        QTest::addColumn<int>("debug");
        QTest::addColumn<int>("delegateDebug");
        QTest::addColumn<int>("outputs");
        QTest::addColumn<int>("tensors");
        QTest::addColumn<std::string>("dtypes");
        QTest::addColumn<qint64>("bufferBytes");
        // Transcribed from samples/generated/README.md, "Decoded facts" (one row per .etdp).
        const auto row = [](const char* file, qint64 bytes, const char* blocks, int profile, int delegateProfile,
                             int debug, int delegateDebug, int outputs, int tensors, const char* dtypes,
                             qint64 buffer) {
            QTest::addRow("%s", file) << std::string(file) << bytes << std::string(blocks) << profile << delegateProfile
                                      << debug << delegateDebug << outputs << tensors << std::string(dtypes) << buffer;
        };
        row("ModuleLinear-no-constant-segment/ModuleLinear-no-constant-segment.intermediates.etdp", 1064,
            "Default(2p/0d); Execute(5p/3d)", 7, 0, 3, 0, 1, 3, "FLOAT:3", 192);
        row("ModuleLinear-no-constant-segment/ModuleLinear-no-constant-segment.outputs.etdp", 808,
            "Default(2p/0d); Execute(5p/1d)", 7, 0, 1, 0, 1, 1, "FLOAT:1", 64);
        row("ModuleLinear-no-constant-segment/ModuleLinear-no-constant-segment.profile.etdp", 616,
            "Default(2p/0d); Execute(5p/0d)", 7, 0, 0, 0, 0, 0, "", -1);
        row("add/add.intermediates.etdp", 784, "Default(2p/0d); Execute(3p/2d)", 5, 0, 2, 0, 1, 2, "FLOAT:2", 116);
        row("add/add.intermediates.x3.etdp", 1688, "Default(2p/0d); Execute(3p/2d); Execute(3p/2d); Execute(3p/2d)", 11,
            0, 6, 0, 3, 6, "FLOAT:6", 372);
        row("add/add.outputs.etdp", 664, "Default(2p/0d); Execute(3p/1d)", 5, 0, 1, 0, 1, 1, "FLOAT:1", 52);
        row("add/add.profile.etdp", 488, "Default(2p/0d); Execute(3p/0d)", 5, 0, 0, 0, 0, 0, "", -1);
        row("bundled_program/bundled_program.intermediates.etdp", 1304, "Default(2p/0d); Execute(7p/4d)", 9, 0, 4, 0, 1,
            4, "INT:4", 4096);
        row("bundled_program/bundled_program.outputs.etdp", 936, "Default(2p/0d); Execute(7p/1d)", 9, 0, 1, 0, 1, 1,
            "INT:1", 4096);
        row("bundled_program/bundled_program.profile.etdp", 744, "Default(2p/0d); Execute(7p/0d)", 9, 0, 0, 0, 0, 0, "",
            -1);
        row("dnf_executorch5/dnf_executorch5.intermediates.etdp", 26464, "Default(2p/0d); Execute(185p/115d)", 187, 0,
            115, 0, 23, 115, "FLOAT:115", 43508);
        row("dnf_executorch5/dnf_executorch5.outputs.etdp", 16016, "Default(2p/0d); Execute(185p/23d)", 187, 0, 23, 0,
            23, 23, "FLOAT:23", 12980);
        row("dnf_executorch5/dnf_executorch5.profile.etdp", 12904, "Default(2p/0d); Execute(185p/0d)", 187, 0, 0, 0, 0,
            0, "", -1);
        row("dnf_xnnpack_training/dnf_xnnpack_training.intermediates.etdp", 5648, "Default(2p/0d); Execute(31p/27d)",
            33, 10, 27, 0, 6, 27, "FLOAT:27", 4404);
        row("dnf_xnnpack_training/dnf_xnnpack_training.outputs.etdp", 3280, "Default(2p/0d); Execute(31p/6d)", 33, 10,
            6, 0, 6, 6, "FLOAT:6", 1140);
        row("dnf_xnnpack_training/dnf_xnnpack_training.profile.etdp", 2456, "Default(2p/0d); Execute(31p/0d)", 33, 10,
            0, 0, 0, 0, "", -1);
        row("module_test_model/module_test_model.intermediates.etdp", 1480, "Default(2p/0d); Execute(9p/5d)", 11, 0, 5,
            0, 1, 5, "BOOL:1,FLOAT:4", 308);
        row("module_test_model/module_test_model.outputs.etdp", 1080, "Default(2p/0d); Execute(9p/1d)", 11, 0, 1, 0, 1,
            1, "FLOAT:1", 52);
        row("module_test_model/module_test_model.profile.etdp", 904, "Default(2p/0d); Execute(9p/0d)", 11, 0, 0, 0, 0,
            0, "", -1);
        row("priced/priced.intermediates.etdp", 1032, "Default(2p/0d); Execute(5p/3d)", 7, 0, 3, 0, 1, 3, "FLOAT:3",
            180);
        row("priced/priced.outputs.etdp", 808, "Default(2p/0d); Execute(5p/1d)", 7, 0, 1, 0, 1, 1, "FLOAT:1", 52);
        row("priced/priced.profile.etdp", 632, "Default(2p/0d); Execute(5p/0d)", 7, 0, 0, 0, 0, 0, "", -1);
        row("quantized/quantized.intermediates.etdp", 1120, "Default(2p/0d); Execute(5p/3d)", 7, 3, 3, 0, 1, 3,
            "FLOAT:3", 240);
        row("quantized/quantized.outputs.etdp", 864, "Default(2p/0d); Execute(5p/1d)", 7, 3, 1, 0, 1, 1, "FLOAT:1",
            112);
        row("quantized/quantized.profile.etdp", 672, "Default(2p/0d); Execute(5p/0d)", 7, 3, 0, 0, 0, 0, "", -1);
        row("spike_add/spike_add.intermediates.etdp", 1000, "Default(2p/0d); Execute(3p/4d)", 5, 1, 4, 0, 1, 4,
            "FLOAT:4", 244);
        row("spike_add/spike_add.outputs.etdp", 680, "Default(2p/0d); Execute(3p/1d)", 5, 1, 1, 0, 1, 1, "FLOAT:1", 52);
        row("spike_add/spike_add.profile.etdp", 504, "Default(2p/0d); Execute(3p/0d)", 5, 1, 0, 0, 0, 0, "", -1);
        row("spike_conv/spike_conv.intermediates.etdp", 1232, "Default(2p/0d); Execute(5p/3d)", 7, 3, 3, 0, 1, 3,
            "FLOAT:3", 19504);
        row("spike_conv/spike_conv.outputs.etdp", 912, "Default(2p/0d); Execute(5p/1d)", 7, 3, 1, 0, 1, 1, "FLOAT:1",
            8240);
        row("spike_conv/spike_conv.profile.etdp", 688, "Default(2p/0d); Execute(5p/0d)", 7, 3, 0, 0, 0, 0, "", -1);
        row("spike_dtypes/spike_dtypes.intermediates.etdp", 1136, "Default(2p/0d); Execute(5p/4d)", 7, 0, 4, 0, 2, 4,
            "FLOAT:2,LONG:2", 244);
        row("spike_dtypes/spike_dtypes.outputs.etdp", 912, "Default(2p/0d); Execute(5p/2d)", 7, 0, 2, 0, 2, 2,
            "FLOAT:1,LONG:1", 116);
        row("spike_dtypes/spike_dtypes.profile.etdp", 616, "Default(2p/0d); Execute(5p/0d)", 7, 0, 0, 0, 0, 0, "", -1);
        row("spike_lin129/spike_lin129.intermediates.etdp", 928, "Default(2p/0d); Execute(3p/3d)", 5, 1, 3, 0, 1, 3,
            "FLOAT:3", 1136);
        row("spike_lin129/spike_lin129.outputs.etdp", 704, "Default(2p/0d); Execute(3p/1d)", 5, 1, 1, 0, 1, 1,
            "FLOAT:1", 304);
        row("spike_lin129/spike_lin129.profile.etdp", 528, "Default(2p/0d); Execute(3p/0d)", 5, 1, 0, 0, 0, 0, "", -1);
        row("spike_med_output/spike_med_output.profile.etdp", 496, "Default(2p/0d); Execute(3p/0d)", 5, 0, 0, 0, 0, 0,
            "", -1);
        row("stress_mlp/stress_mlp.intermediates.etdp", 5896, "Default(2p/0d); Execute(42p/24d)", 44, 15, 24, 0, 1, 24,
            "FLOAT:20,LONG:4", 138160);
        row("stress_mlp/stress_mlp.outputs.etdp", 3688, "Default(2p/0d); Execute(42p/1d)", 44, 15, 1, 0, 1, 1,
            "FLOAT:1", 32816);
        row("stress_mlp/stress_mlp.profile.etdp", 3496, "Default(2p/0d); Execute(42p/0d)", 44, 15, 0, 0, 0, 0, "", -1);
    }

    void generatedFiles()
    {
        QFETCH(std::string, file);
        QFETCH(qint64, bytes);
        QFETCH(std::string, blocks);
        QFETCH(int, profile);
        QFETCH(int, delegateProfile);
        QFETCH(int, debug);
        QFETCH(int, delegateDebug);
        QFETCH(int, outputs);
        QFETCH(int, tensors);
        QFETCH(std::string, dtypes);
        QFETCH(qint64, bufferBytes);
        auto dump = readETDumpFile(generated(file));
        QVERIFY2(dump.ok(), dump.ok() ? "" : dump.error().message().c_str());
        QCOMPARE(static_cast<qint64>(dump->file->size()), bytes);
        QVERIFY(dump->sizePrefixed);
        QCOMPARE(dump->version, 0u);
        QCOMPARE(blockSummary(*dump), blocks);
        int p = 0, dp = 0, d = 0, dd = 0, out = 0;
        for (const RunBlock& block : dump->runs) {
            QCOMPARE(block.bundledInputIndex, -1); // neither runner sets it (README "Structure")
            QVERIFY(block.allocators.empty());
            QVERIFY(block.allocationEvents.empty());
            p += static_cast<int>(block.profileEvents.size());
            d += static_cast<int>(block.debugEvents.size());
            for (const ProfileEvent& e : block.profileEvents) {
                dp += e.delegateDebugIdStr.empty() ? 0 : 1;
                QCOMPARE(e.delegateDebugIdInt, DelegateDebugId::none());
                // Delegate-internal events carry no name; everything else does.
                QCOMPARE(e.name.empty(), e.isDelegateInternal());
                QVERIFY(e.endTime >= e.startTime);
            }
            for (const DebugEvent& e : block.debugEvents) {
                dd += e.isDelegateInternal() ? 1 : 0;
                out += e.value.output ? 1 : 0;
                // Program outputs come after execution: chain -1 as ulong, instruction 0.
                if (e.value.output) {
                    QCOMPARE(e.chainIndex, std::numeric_limits<std::uint64_t>::max());
                    QCOMPARE(e.instructionId, InstructionId(0));
                    QCOMPARE(e.chain(), ChainIndex::none());
                } else {
                    QCOMPARE(e.chainIndex, std::uint64_t(0));
                    QCOMPARE(e.chain(), ChainIndex(0));
                    QVERIFY(e.instructionId.valid());
                }
                QCOMPARE(e.value.kind, DebugValue::Kind::Tensor);
                QVERIFY(e.name.empty());
            }
        }
        QCOMPARE(p, profile);
        QCOMPARE(dp, delegateProfile);
        QCOMPARE(d, debug);
        QCOMPARE(dd, delegateDebug);
        QCOMPARE(out, outputs);
        QCOMPARE(static_cast<int>(dump->tensorCount()), tensors);
        QCOMPARE(dtypeSummary(*dump), dtypes);
        QCOMPARE(dump->runs.front().name, std::string("Default"));
        QCOMPARE(dump->runs.front().profileEvents.size(), std::size_t(2));
        for (const ProfileEvent& e : dump->runs.front().profileEvents)
            QCOMPARE(e.chainIndex, ChainIndex::none());

        // The debug buffer beside the file, by the generated/ naming.
        QVERIFY(!attachDebugBufferOrDefault(dump.value(), {}));
        if (bufferBytes < 0) {
            QVERIFY(!dump->buffer);
            return;
        }
        QVERIFY(dump->buffer);
        QCOMPARE(static_cast<qint64>(dump->buffer->file->size()), bufferBytes);
        const std::int64_t firstOffset = file.starts_with("bundled_program/") ? 32 : 48;
        bool first = true;
        for (const RunBlock& block : dump->runs)
            for (const DebugEvent& e : block.debugEvents)
                for (const DebugTensor& t : e.value.tensors) {
                    QVERIFY(t.inBuffer);
                    QVERIFY(t.offset >= 0);
                    // BufferDataSink aligns absolute addresses to 64 on a 16-aligned block.
                    QCOMPARE(t.offset % 64, firstOffset);
                    if (first)
                        QCOMPARE(t.offset, firstOffset); // README: 48 (executor_runner), 32 (example_runner)
                    first = false;
                    QVERIFY(tensorValues(*dump, t).ok());
                }
    }

    void tutorialDump()
    {
        // SOURCES.md: 2 run_data blocks; Default {Method::init, Program::load_method}; Execute:
        // 29 profile events, OPERATOR_CALL ×14, native_call_relu.out ×4, … , Method::execute ×1.
        auto dump = readETDumpFile(etscope::test::samplePath("executorch/etdump.etdp"));
        QVERIFY2(dump.ok(), dump.ok() ? "" : dump.error().message().c_str());
        QCOMPARE(dump->runs.size(), std::size_t(2));
        QCOMPARE(dump->runs[0].name, std::string("Default"));
        QCOMPARE(dump->runs[0].profileEvents.size(), std::size_t(2));
        QCOMPARE(dump->runs[1].name, std::string("Execute"));
        QCOMPARE(dump->runs[1].profileEvents.size(), std::size_t(29));
        QVERIFY(dump->runs[1].debugEvents.empty());
        std::map<std::string, int> names;
        for (const ProfileEvent& e : dump->runs[1].profileEvents)
            ++names[e.name];
        const std::map<std::string, int> expected { { "OPERATOR_CALL", 14 }, { "native_call_relu.out", 4 },
            { "native_call_permute_copy.out", 3 }, { "native_call_addmm.out", 3 }, { "native_call_convolution.out", 2 },
            { "native_call_max_pool2d_with_indices.out", 2 }, { "Method::execute", 1 } };
        QVERIFY(names == expected);
        std::map<std::string, int> load;
        for (const ProfileEvent& e : dump->runs[0].profileEvents)
            ++load[e.name];
        QVERIFY((load == std::map<std::string, int> { { "Method::init", 1 }, { "Program::load_method", 1 } }));
    }

    void tensorValuesAreRead()
    {
        // README: add.pte with all-ones inputs gives 2.0; spike_dtypes gives LONG 2 and FLOAT 2.0.
        auto add = readETDumpFile(generated("add/add.intermediates.etdp"));
        QVERIFY(add.ok());
        QVERIFY(!attachDebugBufferOrDefault(add.value(), {}));
        for (const DebugEvent& e : add->runs[1].debugEvents) {
            auto values = tensorValues(*add, e.value.tensors.front());
            QVERIFY(values.ok());
            QCOMPARE(values->size(), std::size_t(1));
            QCOMPARE(values->front(), 2.0);
        }
        auto dtypes = readETDumpFile(generated("spike_dtypes/spike_dtypes.outputs.etdp"));
        QVERIFY(dtypes.ok());
        QVERIFY(!attachDebugBufferOrDefault(dtypes.value(), {}));
        std::map<std::string, double> seen;
        for (const DebugEvent& e : dtypes->runs[1].debugEvents) {
            auto values = tensorValues(*dtypes, e.value.tensors.front());
            QVERIFY(values.ok());
            for (const double v : *values)
                QCOMPARE(v, 2.0);
            seen[scalarTypeName(e.value.tensors.front().scalarType)] = values->front();
        }
        QCOMPARE(seen.size(), std::size_t(2));
        QVERIFY(seen.count("LONG") && seen.count("FLOAT"));
    }

    void threeRunsShareOneBuffer()
    {
        // README: add.intermediates.x3 has three Execute blocks whose tensors sit at 48, 112 |
        // 176, 240 | 304, 368 in one buffer.
        auto dump = readETDumpFile(generated("add/add.intermediates.x3.etdp"));
        QVERIFY(dump.ok());
        QCOMPARE(dump->executeBlocks(), (std::vector<std::size_t> { 1, 2, 3 }));
        std::vector<std::int64_t> offsets;
        for (const std::size_t b : dump->executeBlocks())
            for (const DebugEvent& e : dump->runs[b].debugEvents)
                offsets.push_back(e.value.tensors.front().offset);
        QCOMPARE(offsets, (std::vector<std::int64_t> { 48, 112, 176, 240, 304, 368 }));
    }

    void zeroDimTensors()
    {
        // README: zero-dim tensors (sizes [], one element) occur in module_test_model; BOOL from eq.
        auto dump = readETDumpFile(generated("module_test_model/module_test_model.intermediates.etdp"));
        QVERIFY(dump.ok());
        QVERIFY(!attachDebugBufferOrDefault(dump.value(), {}));
        bool sawScalar = false;
        for (const DebugEvent& e : dump->runs[1].debugEvents) {
            const DebugTensor& t = e.value.tensors.front();
            if (!t.sizes.empty())
                continue;
            sawScalar = true;
            QCOMPARE(t.elementCount(), std::uint64_t(1));
            auto values = tensorValues(*dump, t);
            QVERIFY(values.ok());
            QCOMPARE(values->size(), std::size_t(1));
            if (t.scalarType == scalar_type::Bool)
                QVERIFY(values->front() == 0.0 || values->front() == 1.0);
        }
        QVERIFY(sawScalar);
    }

    void bufferTooSmall()
    {
        // Every tensor is checked against the buffer: a cut buffer marks the tensors outside it.
        auto dump = readETDumpFile(generated("spike_conv/spike_conv.intermediates.etdp"));
        QVERIFY(dump.ok());
        std::vector<std::uint8_t> buffer = fileBytes(generated("spike_conv/spike_conv.intermediates.debug.bin"));
        buffer.resize(4000); // the input [1,3,16,16] at 48 fits (3072 bytes), the output at 3120 does not
        attachDebugBuffer(dump.value(), bytesFile("cut.bin", buffer));
        std::vector<bool> inside;
        for (const DebugEvent& e : dump->runs[1].debugEvents)
            inside.push_back(e.value.tensors.front().inBuffer);
        QCOMPARE(inside, (std::vector<bool> { true, false, false }));
        QVERIFY(!dump->warnings.empty());
        QVERIFY(QString::fromStdString(dump->warnings.front().message).contains(QStringLiteral("cut.bin")));
        auto values = tensorValues(*dump, dump->runs[1].debugEvents[1].value.tensors.front());
        QVERIFY(!values.ok());
        QCOMPARE(values.error().code, Error::Code::Corrupt);
        QCOMPARE(values.error().file, std::string("cut.bin"));
        QCOMPARE(values.error().offset, std::optional<std::uint64_t>(3120));
        // No buffer at all: a usage error that says where the values are.
        auto bare = readETDumpFile(generated("spike_conv/spike_conv.intermediates.etdp"));
        QVERIFY(bare.ok());
        QCOMPARE(
            tensorValues(*bare, bare->runs[1].debugEvents[0].value.tensors.front()).error().code, Error::Code::Usage);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        const std::vector<std::uint8_t> real = fileBytes(generated("add/add.profile.etdp"));
        const QByteArray good(reinterpret_cast<const char*>(real.data()), static_cast<int>(real.size()));
        QTest::addRow("tiny") << good.left(10) << int(Error::Code::Truncated) << QStringLiteral("too small");
        QTest::addRow("truncated") << good.left(good.size() - 40) << int(Error::Code::Truncated)
                                   << QStringLiteral("size prefix announces");
        QByteArray wrongId = good;
        wrongId[8] = 'X';
        QTest::addRow("wrong identifier")
            << wrongId << int(Error::Code::BadIdentifier) << QStringLiteral("not an ETDump");
        QByteArray badRoot = good;
        badRoot[4] = char(0xf0); // root offset far outside the buffer
        badRoot[5] = char(0xff);
        QTest::addRow("verifier") << badRoot << int(Error::Code::Verifier) << QStringLiteral("verifier rejected");
        QByteArray shortPrefix = good;
        shortPrefix[0] = char(0xff);
        shortPrefix[1] = char(0xff);
        QTest::addRow("lying prefix") << shortPrefix << int(Error::Code::Truncated) << QStringLiteral("size prefix");
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, code);
        QFETCH(QString, reason);
        const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
        auto dump = readETDump(bytesFile("hostile.etdp", data));
        QVERIFY(!dump.ok());
        QCOMPARE(int(dump.error().code), code);
        QCOMPARE(dump.error().file, std::string("hostile.etdp"));
        QVERIFY2(QString::fromStdString(dump.error().reason).contains(reason), dump.error().reason.c_str());
    }

    void pythonSerializedDump()
    {
        // executorch-matrix's fixture, from serialize_to_etdump_flatcc: size-prefixed with fields
        // aligned after the prefix, five Execute blocks of three events (times decoded by hand:
        // Method::execute ends at 12, 10, 11, 13 and 14 ms, every start time left at 0).
        auto dump = readETDumpFile(etscope::test::samplePath("executorch-matrix/sample.etdump"));
        QVERIFY2(dump, dump ? "" : dump.error().message().c_str());
        QVERIFY(dump->sizePrefixed);
        QVERIFY(dump->alignedAfterPrefix);
        QVERIFY(dump->warnings.empty());
        QCOMPARE(blockSummary(*dump),
            std::string("Execute(3p/0d); Execute(3p/0d); Execute(3p/0d); Execute(3p/0d); "
                        "Execute(3p/0d)"));
        const std::vector<std::uint64_t> expected { 12000000, 10000000, 11000000, 13000000, 14000000 };
        for (std::size_t r = 0; r < 5; ++r) {
            const ProfileEvent& execute = dump->runs[r].profileEvents.front();
            QCOMPARE(execute.name, std::string("Method::execute"));
            QCOMPARE(execute.duration(), expected[r]);
            QCOMPARE(dump->runs[r].profileEvents[1].name, std::string("aten::convolution"));
            QCOMPARE(dump->runs[r].profileEvents[2].name, std::string("aten::linear"));
        }
    }

    void everyPrefixIsSafe()
    {
        // Cutting a real file anywhere must give an error, never a crash (run under ASan in CI).
        const std::vector<std::uint8_t> real = fileBytes(generated("stress_mlp/stress_mlp.intermediates.etdp"));
        for (std::size_t size = 0; size < real.size(); size += 7) {
            auto dump
                = readETDump(bytesFile("cut.etdp", { real.begin(), real.begin() + static_cast<std::ptrdiff_t>(size) }));
            QVERIFY(!dump.ok());
        }
    }

    void flippedBytesAreSafe()
    {
        // Corrupting any byte must give an error or a readable dump, never a crash or a hang.
        const std::vector<std::uint8_t> real
            = fileBytes(generated("dnf_xnnpack_training/dnf_xnnpack_training.intermediates.etdp"));
        const auto buffer
            = MappedFile::open(generated("dnf_xnnpack_training/dnf_xnnpack_training.intermediates.debug.bin"));
        QVERIFY(buffer.ok());
        int readable = 0;
        for (std::size_t i = 0; i < real.size(); i += 3) {
            std::vector<std::uint8_t> bytes = real;
            bytes[i] ^= 0xa5;
            auto dump = readETDump(bytesFile("flipped.etdp", bytes));
            if (!dump.ok())
                continue;
            ++readable;
            attachDebugBuffer(dump.value(), buffer.value());
            for (const RunBlock& block : dump->runs)
                for (const DebugEvent& e : block.debugEvents)
                    for (const DebugTensor& t : e.value.tensors)
                        (void)tensorValues(*dump, t, 1u << 20);
        }
        QVERIFY(readable > 0); // most flips hit timestamps or tensor data and still verify
    }

    void defaultBufferName()
    {
        QCOMPARE(defaultDebugBufferPath("/x/add.intermediates.etdp"), std::string("/x/add.intermediates.debug.bin"));
        QCOMPARE(defaultDebugBufferPath("run.etdp"), std::string("run.debug.bin"));
    }

    void decodeHalfAndBfloat()
    {
        // IEEE half 0x3c00 = 1.0, 0xc000 = -2.0, 0x0001 = 2^-24; bfloat16 0x3f80 = 1.0, 0xc040 = -3.0.
        const std::uint8_t half[] = { 0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00 };
        std::vector<double> out;
        QVERIFY(decodeElements(scalar_type::Half, half, 3, out));
        QCOMPARE(out, (std::vector<double> { 1.0, -2.0, std::ldexp(1.0, -24) }));
        const std::uint8_t bf16[] = { 0x80, 0x3f, 0x40, 0xc0 };
        out.clear();
        QVERIFY(decodeElements(scalar_type::BFloat16, bf16, 2, out));
        QCOMPARE(out, (std::vector<double> { 1.0, -3.0 }));
        QVERIFY(!decodeElements(9 /* COMPLEXFLOAT */, bf16, 1, out));
    }

    void stridesGiveLogicalOrder()
    {
        // A [2, 3] tensor stored column-major (strides [1, 2]): memory 0 3 1 4 2 5 → rows 0 1 2 / 3 4 5.
        std::vector<double> values { 0, 3, 1, 4, 2, 5 };
        QVERIFY(!reorderByStrides(values, { 2, 3 }, { 1, 2 }));
        QCOMPARE(values, (std::vector<double> { 0, 1, 2, 3, 4, 5 }));
        std::vector<double> bad { 0, 1 };
        QVERIFY(reorderByStrides(bad, { 2 }, { 5 }).has_value());
        QVERIFY(reorderByStrides(bad, { 2 }, { 1, 1 }).has_value());
        std::vector<double> four { 0, 1, 2, 3 };
        QVERIFY(reorderByStrides(four, { 2, 2 }, { std::numeric_limits<std::int64_t>::max(), 1 }).has_value());
        QVERIFY(reorderByStrides(four, { 2, 2 }, { -2, 1 }).has_value());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestETDump)
#include "tst_etdump.moc"
