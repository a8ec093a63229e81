// SPDX-License-Identifier: MIT
// The .ptd and .bpte writers, read back by the real readers. Fixtures follow facts sheet §1.9
// (FT01 + FH01 named-data layout, external tensors resolved by fully qualified name) and §6
// (BundledProgram BP08 with the program embedded in place).
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"

#include "core/document/document.h"
#include "core/pte/bundledprogram.h"
#include "core/pte/externaldata.h"
#include "core/util/text.h"
#include "core/writer/bundledprogramwriter.h"
#include "core/writer/externaldatawriter.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace etscope::core;
using etscope::test::text;

namespace {

/// `forward` = mul(a, b) with both operands external (keys "a" and "b").
ProgramSpec externalProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    const auto external = [&](const char* name) {
        TensorSpec t;
        t.sizes = { 2, 2 };
        t.external = true;
        t.fullyQualifiedName = name;
        return m.addTensor(t);
    };
    const std::int32_t a = external("a");
    const std::int32_t b = external("b");
    TensorSpec out;
    out.sizes = { 2, 2 };
    out.allocation = AllocationSpec {};
    const std::int32_t o = m.addTensor(out);
    m.addInstruction(InstructionSpec::kernel(m.addOperator("aten::mul", "out"), { a, b, o, o }));
    m.outputs = { o };
    m.computeArenaSizes();
    return spec;
}

ExternalDataSpec externalData()
{
    ExternalDataSpec spec;
    spec.entries.push_back({ "a", filledFloats(4, 1.5f), TensorLayout { scalar_type::Float, { 2, 2 }, { 0, 1 } }, 16 });
    spec.entries.push_back(
        { "b", filledFloats(4, -2.0f), TensorLayout { scalar_type::Float, { 2, 2 }, { 1, 0 } }, 16 });
    spec.entries.push_back({ "a.copy", filledFloats(4, 1.5f), std::nullopt, 16 });
    return spec;
}

std::vector<std::uint8_t> bytesAt(const MappedFile& file, const ByteRange& range)
{
    const auto span = file.bytes().subspan(range.offset, range.size);
    return { span.begin(), span.end() };
}

} // namespace

class TestCompanionWriters : public QObject {
    Q_OBJECT
private:
    etscope::test::ScratchDir m_scratch;

private slots:
    void externalDataFile()
    {
        const ExternalDataSpec spec = externalData();
        ETSCOPE_WRITE(bytes, writeExternalData(spec));
        QCOMPARE(std::memcmp(bytes.data() + 4, "FT01", 4), 0);
        QCOMPARE(std::memcmp(bytes.data() + 8, "FH01", 4), 0);
        QCOMPARE(readLe32(bytes.data() + 12), 40u);
        QCOMPARE(readLe64(bytes.data() + 16), std::uint64_t(48));

        auto read = readExternalData(MappedFile::fromBytes("weights.ptd", bytes));
        QVERIFY2(read, read ? "" : read.error().message().c_str());
        const ExternalData& data = read.value();
        QCOMPARE(data.layout, ExternalData::Layout::NamedData);
        QCOMPARE(data.header.length, 40u);
        QCOMPARE(data.header.flatbufferOffset, std::uint64_t(48));
        QCOMPARE(data.header.segmentBaseOffset % 128, std::uint64_t(0));
        QCOMPARE(std::uint64_t(bytes.size()), data.header.segmentBaseOffset + data.header.segmentDataSize);
        QCOMPARE(data.entries.size(), std::size_t(3));
        QCOMPARE(data.segments.size(), std::size_t(2)); // "a.copy" shares the bytes of "a"
        QCOMPARE(data.entries[0].segmentIndex, data.entries[2].segmentIndex);
        for (std::size_t i = 0; i < spec.entries.size(); ++i) {
            const NamedDataEntry& entry = data.entries[i];
            QCOMPARE(entry.key, spec.entries[i].key);
            QCOMPARE(bytesAt(*data.file, entry.data), spec.entries[i].bytes);
            QCOMPARE(entry.layout.has_value(), spec.entries[i].layout.has_value());
            if (entry.layout) {
                QCOMPARE(entry.layout->scalarType, spec.entries[i].layout->scalarType);
                QCOMPARE(entry.layout->sizes, spec.entries[i].layout->sizes);
                QCOMPARE(entry.layout->dimOrder, spec.entries[i].layout->dimOrder);
            }
        }

        ExternalDataWriteOptions separate;
        separate.dedupe = false;
        separate.segmentAlignment = 16;
        ETSCOPE_WRITE(packed, writeExternalData(spec, separate));
        auto packedRead = readExternalData(MappedFile::fromBytes("packed.ptd", packed));
        QVERIFY(packedRead);
        QCOMPARE(packedRead->segments.size(), std::size_t(3));
        QCOMPARE(packedRead->header.segmentBaseOffset % 16, std::uint64_t(0));
        QVERIFY(packed.size() < bytes.size());
    }

    void companionAttachedOnOpen()
    {
        ETSCOPE_WRITE(program, writeProgram(externalProgram()));
        ETSCOPE_WRITE(data, writeExternalData(externalData()));
        const std::string programPath = m_scratch.path("model.pte");
        QVERIFY(!writeBytesToFile(programPath, program));
        QVERIFY(!writeBytesToFile(m_scratch.path("model.ptd"), data));

        auto document = openDocument(programPath);
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        QCOMPARE(document->externalData.size(), std::size_t(1));
        for (const char* key : { "a", "b" }) {
            const auto found = document->findNamedData(key);
            QVERIFY(found);
            QCOMPARE(found->first, m_scratch.path("model.ptd"));
        }
        const auto a = document->findNamedData("a");
        QCOMPARE(bytesAt(*document->externalData[0].file, a->second), filledFloats(4, 1.5f));
        QVERIFY(std::none_of(document->warnings.begin(), document->warnings.end(),
            [](const Warning& w) { return w.message.find("have no data") != std::string::npos; }));

        // Given explicitly instead of found beside the program.
        const std::string elsewhere = m_scratch.path("other.pte");
        QVERIFY(!writeBytesToFile(elsewhere, program));
        OpenOptions options;
        options.findCompanions = false;
        options.dataFiles = { m_scratch.path("model.ptd") };
        auto explicitDocument = openDocument(elsewhere, options);
        QVERIFY(explicitDocument);
        QVERIFY(explicitDocument->findNamedData("b"));

        // Without any .ptd the program still opens and says what is missing.
        QTemporaryDir lonely;
        const std::string alone = lonely.filePath(QStringLiteral("alone.pte")).toStdString();
        QVERIFY(!writeBytesToFile(alone, program));
        auto missing = openDocument(alone);
        QVERIFY(missing);
        QVERIFY(std::any_of(missing->warnings.begin(), missing->warnings.end(),
            [](const Warning& w) { return w.message.find("2 external tensor(s) have no data") != std::string::npos; }));
    }

    void bundledProgram()
    {
        // The embedded program has segments, so their base must resolve inside the bundle.
        ProgramSpec programSpec = makeDemoProgram();
        ETSCOPE_WRITE(program, writeProgram(programSpec));
        BundledProgramSpec spec;
        spec.program = program;
        BundledSuiteSpec forward { "forward", {} };
        for (int c = 0; c < 2; ++c) {
            BundledTestCaseSpec testCase;
            testCase.inputs = { BundledValueSpec::tensor(
                scalar_type::Float, { 1, 3, 16, 16 }, pseudoRandomFloats(3 * 16 * 16, 10 + c)) };
            testCase.expectedOutputs
                = { BundledValueSpec::tensor(scalar_type::Float, { 1, 10 }, filledFloats(10, 0.1f)),
                      BundledValueSpec::tensor(scalar_type::Long, { 1 }, std::vector<std::uint8_t>(8, 0)) };
            forward.cases.push_back(testCase);
        }
        BundledSuiteSpec scalars { "embed", {} };
        scalars.cases.push_back(
            { { BundledValueSpec::integer(-3), BundledValueSpec::boolean(true) }, { BundledValueSpec::real(0.25) } });
        spec.suites = { forward, scalars };
        ETSCOPE_WRITE(bytes, writeBundledProgram(spec));
        QCOMPARE(std::memcmp(bytes.data() + 4, "BP08", 4), 0);

        const std::string path = m_scratch.path("demo.bpte");
        QVERIFY(!writeBytesToFile(path, bytes));
        auto file = MappedFile::open(path);
        QVERIFY(file);
        auto read = readBundledProgram(file.value());
        QVERIFY2(read, read ? "" : read.error().message().c_str());
        const BundledProgram& bundled = read.value();
        QCOMPARE(bundled.version, 2u);
        QCOMPARE(bundled.program.region.size, std::uint64_t(program.size()));
        QCOMPARE(bundled.program.region.offset % 32, std::uint64_t(0));
        QVERIFY(bundled.program.header);
        QCOMPARE(bundled.program.methods.size(), std::size_t(2));
        QCOMPARE(bundled.program.methods[1].instructionTotal(), std::size_t(demo::kForwardInstructions));
        // Delegate payloads resolve relative to the embedded program, not the bundle.
        auto standalone = etscope::test::readBack(program);
        QVERIFY(standalone);
        const auto& inner = bundled.program.methods[1].delegates[0];
        QCOMPARE(etscope::test::rangeBytes(bundled.program, inner.payload),
            etscope::test::rangeBytes(standalone.value(), standalone->methods[1].delegates[0].payload));

        QCOMPARE(bundled.suites.size(), std::size_t(2));
        QCOMPARE(bundled.suites[0].methodName, std::string("forward"));
        QCOMPARE(bundled.suites[0].cases.size(), std::size_t(2));
        for (int c = 0; c < 2; ++c) {
            const BundledTestCase& testCase = bundled.suites[0].cases[static_cast<std::size_t>(c)];
            QCOMPARE(testCase.inputs.size(), std::size_t(1));
            const BundledValue& input = testCase.inputs[0];
            QCOMPARE(input.kind, BundledValue::Kind::Tensor);
            QCOMPARE(input.sizes, (std::vector<std::int64_t> { 1, 3, 16, 16 }));
            QCOMPARE(input.dimOrder, (std::vector<std::uint8_t> { 0, 1, 2, 3 }));
            QCOMPARE(input.data.offset % 16, std::uint64_t(0));
            QCOMPARE(bytesAt(*file.value(), input.data), pseudoRandomFloats(3 * 16 * 16, 10 + c));
            QCOMPARE(testCase.expectedOutputs.size(), std::size_t(2));
            QCOMPARE(testCase.expectedOutputs[1].scalarType, scalar_type::Long);
        }
        const BundledTestCase& scalarCase = bundled.suites[1].cases.at(0);
        QCOMPARE(scalarCase.inputs.at(0).kind, BundledValue::Kind::Int);
        QCOMPARE(scalarCase.inputs[0].intValue, std::int64_t(-3));
        QCOMPARE(scalarCase.inputs.at(1).boolValue, true);
        QCOMPARE(scalarCase.expectedOutputs.at(0).doubleValue, 0.25);

        auto document = openDocument(path);
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        QCOMPARE(document->kind, FileKind::BundledProgram);
        QVERIFY(document->bundled);
        QCOMPARE(document->bundled->suites.size(), std::size_t(2));
        QCOMPARE(document->methods.size(), std::size_t(2));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCompanionWriters)
#include "tst_companionwriters.moc"
