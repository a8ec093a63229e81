// SPDX-License-Identifier: MIT
// The Core ML decoder on payloads made by the project's own writer (core/writer/vulkan/
// coremlpayloadwriter), because no public Core ML-delegated .pte exists. Layout per facts sheet
// §3.4: file contents at aligned offsets, then the node table as JSON written in reverse at the
// end ({"nodes":[{name, kind 0 file / 1 directory, dataRegion{offset,size}, children}]}), root
// holding model.mlpackage/, metadata.json (inputNames, outputNames, identifier) and
// debug_info.json; or "CMJR" + {"version","key","functionName"} naming a named-data blob.
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/payloads/coremlpayloadwriter.h"
#include "core/writer/programwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;
using namespace etscope::test;

Q_DECLARE_METATYPE(std::vector<std::uint8_t>)

namespace {

std::vector<std::uint8_t> bytesOf(const std::string& text)
{
    return { text.begin(), text.end() };
}

const std::string kManifest = R"({"fileFormatVersion":"1.0.0"})";
const std::string kMetadata = R"({"identifier":"a1b2-c3","inputNames":["x","y"],"outputNames":["z"]})";
const std::string kDebugInfo
    = R"({"versionInfo":{"coremltools":"8.1"},"debugSymbolToOperationPath":{"add_0":[{"Type":"Program"}]},"debugSymbolToHandles":{"add_0":[3,4],"mul_1":[5]}})";

std::vector<CoreMlFileSpec> modelFiles()
{
    return {
        { "model.mlpackage/Manifest.json", bytesOf(kManifest) },
        { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", std::vector<std::uint8_t>(100, 0x0A) },
        { "metadata.json", bytesOf(kMetadata) },
        { "debug_info.json", bytesOf(kDebugInfo) },
    };
}

/// forward = DelegateCall(CoreMLBackend, [x, y, z]); `named` goes into the program's named data.
std::vector<std::uint8_t> programWith(std::vector<std::uint8_t> payload, std::vector<NamedBlobSpec> named = {})
{
    ProgramSpec spec;
    MethodSpec& method = spec.addMethod("forward");
    TensorSpec t;
    t.sizes = { 2, 2 };
    const std::int32_t x = method.addTensor(t);
    const std::int32_t y = method.addTensor(t);
    const std::int32_t z = method.addTensor(t);
    method.inputs = { x, y };
    method.outputs = { z };
    const std::int32_t delegate = method.addDelegate({ "CoreMLBackend", std::move(payload) });
    method.addInstruction(InstructionSpec::delegate(delegate, { x, y, z }));
    spec.namedData = std::move(named);
    auto bytes = writeProgram(spec);
    return bytes ? std::move(*bytes) : std::vector<std::uint8_t> {};
}

std::optional<Document> openBytes(const std::vector<std::uint8_t>& bytes)
{
    auto program = readProgram(MappedFile::fromBytes("coreml-fixture.pte", bytes));
    if (!program)
        return std::nullopt;
    Document document;
    document.kind = FileKind::Program;
    document.program = std::move(*program);
    if (analyseDocument(document))
        return std::nullopt;
    return document;
}

DelegateInfo describe(const std::vector<std::uint8_t>& payload)
{
    static const Program empty = [] {
        Program p;
        p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    DelegateRef ref;
    ref.backendId = "CoreMLBackend";
    ref.payload = { 0, payload.size() };
    return describePayload(empty, ref, payload, {}, "fixture");
}

/// A payload whose file table is `table` (written reversed after `files` bytes of content).
std::vector<std::uint8_t> withTable(std::string table, std::size_t files = 32)
{
    std::vector<std::uint8_t> payload(files, 0x55);
    std::reverse(table.begin(), table.end());
    payload.insert(payload.end(), table.begin(), table.end());
    return payload;
}

} // namespace

class TestCoreMlDelegate : public QObject {
    Q_OBJECT

private slots:
    void fileSystemInAProgram()
    {
        const auto document = openBytes(programWith(writeCoreMlPayload(modelFiles())));
        QVERIFY(document);
        const MethodAnalysis& analysis = *document->analysis(document->program->methods.front());
        const DelegateInfo& info = analysis.delegates.front();
        QCOMPARE(info.format, std::string("coreml"));
        QVERIFY(info.warnings.empty());
        QVERIFY(!info.innerGraph); // only the I/O is known: no inner graph
        QCOMPARE(fact(info, "form"), std::string("flattened file system"));
        QCOMPARE(fact(info, "model"), std::string("model.mlpackage"));
        QCOMPARE(fact(info, "model identifier"), std::string("a1b2-c3"));
        QCOMPARE(fact(info, "inputNames"), std::string("2: x, y"));
        QCOMPARE(fact(info, "outputNames"), std::string("1: z"));
        QCOMPARE(fact(info, "version coremltools"), std::string("8.1"));
        QCOMPARE(fact(info, "debug symbols → operation paths"), std::string("1"));
        QCOMPARE(fact(info, "debug symbols → handles"), std::string("2"));
        QCOMPARE(fact(info, "debug symbol add_0"), std::string("[3,4]"));
        const std::uint64_t total = kManifest.size() + 100 + kMetadata.size() + kDebugInfo.size();
        QCOMPARE(fact(info, "files"), "4 (" + std::to_string(total) + " B)");
        // Files are stored depth first in name order, each at a 16-aligned offset from 0.
        const auto align = [](std::size_t n) { return (n + 15) / 16 * 16; };
        QCOMPARE(fact(info, "file debug_info.json"), std::to_string(kDebugInfo.size()) + " bytes at offset 0");
        QCOMPARE(fact(info, "file metadata.json"),
            std::to_string(kMetadata.size()) + " bytes at offset " + std::to_string(align(kDebugInfo.size())));
        QCOMPARE(fact(info, "file model.mlpackage/Data/com.apple.CoreML/model.mlmodel"),
            "100 bytes at offset " + std::to_string(align(align(kDebugInfo.size()) + kMetadata.size())));
        QCOMPARE(*info.inputCount, 2);
        QCOMPARE(*info.outputCount, 1);
        QCOMPARE(info.summary, "Core ML model.mlpackage: 4 files, " + std::to_string(total) + " B, 2 inputs, 1 output");
        for (const Node& node : analysis.graph->nodes)
            if (node.kind == NodeKind::Delegate)
                QVERIFY(!node.inferred && node.inputCount == 2);
    }

    void multifunctionReference()
    {
        const auto model = writeCoreMlPayload(modelFiles());
        const auto document
            = openBytes(programWith(writeCoreMlReference("coreml_0f1e", "decode"), { { "coreml_0f1e", model } }));
        QVERIFY(document);
        const DelegateInfo& info = document->analysis(document->program->methods.front())->delegates.front();
        QCOMPARE(info.format, std::string("coreml"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "form"), std::string("CMJR reference to a multifunction model in named data"));
        QCOMPARE(fact(info, "reference key"), std::string("coreml_0f1e"));
        QCOMPARE(fact(info, "reference functionName"), std::string("decode"));
        QCOMPARE(fact(info, "reference version"), std::string("1"));
        QCOMPARE(fact(info, "referenced model"), std::to_string(model.size()) + " bytes of named data");
        QCOMPARE(fact(info, "inputNames"), std::string("2: x, y"));
        QVERIFY(info.summary.starts_with("Core ML function 'decode' of Core ML model.mlpackage: 4 files"));

        const DelegateInfo missing = describe(writeCoreMlReference("coreml_gone", "decode"));
        QCOMPARE(missing.format, std::string("coreml"));
        QVERIFY(anyWarning(missing, "'coreml_gone' is not in the program's named data"));
        QCOMPARE(missing.summary, std::string("Core ML reference to 'coreml_gone' (function decode), model not found"));
    }

    void hostileTables_data()
    {
        QTest::addColumn<std::vector<std::uint8_t>>("payload");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("decoded");
        QTest::addRow("no table") << std::vector<std::uint8_t>(64, 7) << QStringLiteral("no Core ML file table")
                                  << false;
        auto cut = withTable(R"({"nodes":[{"name":"root","kind":1,"children":{}}]})");
        cut.pop_back(); // the last byte is the table's opening brace
        QTest::addRow("cut table") << cut << QStringLiteral("no Core ML file table") << false;
        QTest::addRow("not an object") << withTable("{\"nodes\":5}") << QStringLiteral("no Core ML file table")
                                       << false;
        QTest::addRow("cyclic directories") << withTable(
            R"({"nodes":[{"name":"a","kind":1,"children":{"b":1}},{"name":"root","kind":1,"children":{"a":0,"self":1}}]})")
                                            << QStringLiteral("cyclic") << true;
        QTest::addRow("file outside") << withTable(
            R"({"nodes":[{"name":"metadata.json","kind":0,"dataRegion":{"offset":4096,"size":10},"children":{}},{"name":"root","kind":1,"children":{"metadata.json":0}}]})")
                                      << QStringLiteral("lies outside the file area") << true;
        QTest::addRow("child index out of range")
            << withTable(R"({"nodes":[{"name":"root","kind":1,"children":{"x":99}}]})") << QStringLiteral("node 99")
            << true;
        QTest::addRow("unknown kind") << withTable(R"({"nodes":[{"name":"root","kind":7}]})")
                                      << QStringLiteral("has kind 7") << true;
        QTest::addRow("metadata not JSON") << withTable(
            R"({"nodes":[{"name":"metadata.json","kind":0,"dataRegion":{"offset":0,"size":8},"children":{}},{"name":"root","kind":1,"children":{"metadata.json":0}}]})")
                                           << QStringLiteral("metadata.json is not a JSON object") << true;
        std::string deep(20000, '[');
        deep += std::string(20000, ']');
        QTest::addRow("deep nesting") << withTable("{\"nodes\":" + deep + "}")
                                      << QStringLiteral("no Core ML file table") << false;
        // Every directory lists the one below twice: walking it as a tree would take 2^40 steps.
        std::string shared = R"({"nodes":[{"name":"f","kind":0,"dataRegion":{"offset":0,"size":1},"children":{}})";
        for (int i = 1; i <= 40; ++i)
            shared += R"(,{"name":"d","kind":1,"children":{"x":)" + std::to_string(i - 1) + R"(,"y":)"
                + std::to_string(i - 1) + "}}";
        QTest::addRow("shared directories") << withTable(shared + "]}") << QStringLiteral("shared") << true;
        QTest::addRow("CMJR garbage") << bytesOf("CMJR{not json") << QStringLiteral("not a JSON object") << false;
        // Members of the wrong type used to throw out of nlohmann's value() and end the process.
        QTest::addRow("CMJR key of the wrong type") << bytesOf(R"(CMJR{"key":7,"functionName":[1]})")
                                                    << QStringLiteral("model '' is not in the program") << true;
        QTest::addRow("kind and regions of the wrong type") << withTable(
            R"({"nodes":[{"name":"f","kind":"0"},{"name":"g","kind":0,"dataRegion":[1]},{"name":"root","kind":1,"children":{"f":0,"g":1}}]})")
                                                            << QStringLiteral("has kind -1") << true;
    }

    void hostileTables()
    {
        QFETCH(std::vector<std::uint8_t>, payload);
        QFETCH(QString, warning);
        QFETCH(bool, decoded);
        const DelegateInfo info = describe(payload);
        QVERIFY2(anyWarning(info, warning.toStdString()),
            info.warnings.empty() ? "no warning" : info.warnings.front().message.c_str());
        QCOMPARE(info.format, std::string(decoded ? "coreml" : "opaque"));
    }

    void everyTruncation()
    {
        const auto payload = writeCoreMlPayload(modelFiles());
        for (std::size_t cut = 0; cut < payload.size(); ++cut) {
            const DelegateInfo info = describe({ payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(cut) });
            // The table sits at the end: every cut removes its opening brace.
            QCOMPARE(info.format, std::string("opaque"));
            QVERIFY(!info.warnings.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TestCoreMlDelegate)
#include "tst_coremldelegate.moc"
