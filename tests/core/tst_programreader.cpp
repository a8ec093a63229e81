// SPDX-License-Identifier: MIT
// Every file under ../shared/samples opens with its golden facts (transcribed from SOURCES.md,
// which was decoded with the upstream schemas), or fails with a clear message.
#include "core/document/document.h"
#include "core/pte/externaldata.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <map>

using namespace etscope::core;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

std::map<std::string, int> innerNodeTypes(const DelegateInfo& info)
{
    std::map<std::string, int> counts;
    if (info.innerGraph)
        for (const Node& node : info.innerGraph->nodes)
            if (node.kind == NodeKind::Operator)
                ++counts[node.opType];
    return counts;
}

void checkMethod(const Document& document, const Method& method, const json& expected)
{
    const std::string name = expected.at("name");
    QCOMPARE(method.name, name);
    QCOMPARE(method.values.size(), expected.at("values").get<std::size_t>());
    QCOMPARE(method.inputs.size(), expected.at("inputs").get<std::size_t>());
    QCOMPARE(method.outputs.size(), expected.at("outputs").get<std::size_t>());
    const InstructionCounts counts = method.instructionCounts();
    QCOMPARE(counts.total(), expected.at("instructions").get<int>());
    QCOMPARE(counts.kernel, expected.at("kernel").get<int>());
    QCOMPARE(counts.delegate, expected.at("delegate").get<int>());
    std::vector<std::string> operators;
    for (const Operator& op : method.operators)
        operators.push_back(op.qualifiedName());
    QCOMPARE(operators, expected.at("operators").get<std::vector<std::string>>());

    const json& delegates = expected.at("delegates");
    QCOMPARE(method.delegates.size(), delegates.size());
    const MethodAnalysis* analysis = document.analysis(method);
    QVERIFY(analysis);
    QCOMPARE(analysis->delegates.size(), method.delegates.size());
    QVERIFY(analysis->graph);
    for (std::size_t d = 0; d < delegates.size(); ++d) {
        const json& e = delegates[d];
        const DelegateRef& ref = method.delegates[d];
        QCOMPARE(ref.backendId, e.at("backend_id").get<std::string>());
        QCOMPARE(std::string(ref.locationName()), e.at("location").get<std::string>());
        QCOMPARE(ref.index, e.at("index").get<std::uint32_t>());
        QCOMPARE(ref.payload.size, e.at("size").get<std::uint64_t>());
        const DelegateInfo& info = analysis->delegates[d];
        QCOMPARE(info.backendId, ref.backendId);
        QVERIFY2(!info.facts.empty(), "every delegate is described");
        if (e.at("inner_nodes").is_null())
            continue;
        QVERIFY2(info.innerGraph, ("delegate " + std::to_string(d) + " should decode").c_str());
        QCOMPARE(static_cast<int>(info.innerGraph->operatorCount()), e.at("inner_nodes").get<int>());
        QCOMPARE(innerNodeTypes(info), (e.at("node_types").get<std::map<std::string, int>>()));
    }
}

} // namespace

class TestProgramReader : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(etscope::test::goldenSamples().at("samples").size() >= 40);
    }

    void samples_data()
    {
        QTest::addColumn<std::string>("entry");
        const nlohmann::json golden = etscope::test::goldenSamples();
        for (const json& entry : golden.at("samples"))
            QTest::addRow("%s", entry.at("path").get<std::string>().c_str()) << entry.dump();
    }

    void samples()
    {
        QFETCH(std::string, entry);
        const json e = json::parse(entry);
        const std::string path = etscope::test::samplePath(e.at("path"));
        auto document = openDocument(path);

        if (e.value("invalid", false)) {
            QVERIFY(!document);
            const std::string message = document.error().message();
            QVERIFY2(message.find(path) != std::string::npos, message.c_str());
            QVERIFY2(message.find("not an ExecuTorch file") != std::string::npos, message.c_str());
            return;
        }
        QVERIFY2(document, document ? "" : document.error().message().c_str());

        if (e.at("identifier") == "FT01") {
            QCOMPARE(document->kind, FileKind::ExternalData);
            const ExternalData& data = document->externalData.front();
            QCOMPARE(std::string(data.layoutName()), e.at("layout").get<std::string>());
            QCOMPARE(data.segments.size(), e.at("ptd_segments").get<std::size_t>());
            std::vector<std::string> keys;
            for (const NamedDataEntry& item : data.entries)
                keys.push_back(item.key);
            QCOMPARE(keys, e.at("entries").get<std::vector<std::string>>());
            return;
        }

        QVERIFY(document->program);
        const Program& program = *document->program;
        QCOMPARE(program.file->size(), e.at("size").get<std::size_t>());

        if (e.at("identifier") == "BP08") {
            QCOMPARE(document->kind, FileKind::BundledProgram);
            QVERIFY(document->bundled);
            const json& suite = e.at("test_suites").at(0);
            QCOMPARE(document->bundled->suites.size(), std::size_t(1));
            QCOMPARE(document->bundled->suites[0].methodName, suite.at("method").get<std::string>());
            QCOMPARE(document->bundled->suites[0].cases.size(), suite.at("test_cases").get<std::size_t>());
            const Method* method = program.method(e.at("inner_method").at("name").get<std::string>());
            QVERIFY(method);
            QCOMPARE(static_cast<int>(method->instructionTotal()), e.at("inner_method").at("instructions").get<int>());
            std::vector<std::string> operators;
            for (const Operator& op : method->operators)
                operators.push_back(op.qualifiedName());
            QCOMPARE(operators, e.at("inner_method").at("operators").get<std::vector<std::string>>());
            return;
        }

        QCOMPARE(document->kind, FileKind::Program);
        QCOMPARE(program.identifier, e.at("identifier").get<std::string>());
        if (e.at("extended_header").is_null()) {
            QVERIFY(!program.header);
        } else {
            QVERIFY(program.header);
            const json& h = e.at("extended_header");
            QCOMPARE(program.header->length, h.at("header_length").get<std::uint32_t>());
            QCOMPARE(program.header->programSize, h.at("program_size").get<std::uint64_t>());
            QCOMPARE(program.header->segmentBaseOffset, h.at("segment_base_offset").get<std::uint64_t>());
            const json& dataSize = h.at("segment_data_size");
            // null in the golden file: a 24-byte header has no such field, read as 0.
            QCOMPARE(program.header->segmentDataSize, dataSize.is_null() ? 0 : dataSize.get<std::uint64_t>());
            QCOMPARE(dataSize.is_null(), program.header->length < 32);
        }
        QCOMPARE(program.segments.size(), e.at("segments").get<std::size_t>());
        const json& methods = e.at("methods");
        QCOMPARE(program.methods.size(), methods.size());
        for (std::size_t m = 0; m < methods.size(); ++m)
            checkMethod(*document, program.methods[m], methods[m]);
    }

    // The external tensors of a program come from the .ptd beside it (both FT01 layouts).
    void companionData_data()
    {
        QTest::addColumn<std::string>("program");
        QTest::addColumn<std::string>("companion");
        QTest::addColumn<int>("externalTensors");
        QTest::addRow("linear (first FT01 layout)")
            << std::string("executorch/linear.pte") << std::string("linear.ptd") << 2;
        QTest::addRow("xor (named_data)") << std::string("executorch/xor.pte") << std::string("xor.ptd") << 4;
        QTest::addRow("data_map (default name)")
            << std::string("executorch-rs/data_map_model.pte") << std::string("_default_external_constant.ptd") << 2;
    }

    void companionData()
    {
        QFETCH(std::string, program);
        QFETCH(std::string, companion);
        QFETCH(int, externalTensors);
        auto document = openDocument(etscope::test::samplePath(program));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        QCOMPARE(document->externalData.size(), std::size_t(1));
        QVERIFY(document->externalData.front().path().ends_with(companion));
        int found = 0;
        for (const Method& method : document->program->methods) {
            for (const Value& value : method.values) {
                const bool external = value.isTensor()
                    && (value.tensor.storage == TensorStorage::External
                        || value.tensor.storage == TensorStorage::ExternalMutable);
                if (!external)
                    continue;
                const auto named = document->findNamedData(value.tensor.fullyQualifiedName);
                QVERIFY2(named, value.tensor.fullyQualifiedName.c_str());
                QCOMPARE(named->second.size, value.tensor.byteSize());
                ++found;
            }
        }
        QCOMPARE(found, externalTensors);

        // Opened without looking for companions, the program still opens and says what is missing.
        OpenOptions alone;
        alone.findCompanions = false;
        auto bare = openDocument(etscope::test::samplePath(program), alone);
        QVERIFY(bare);
        QVERIFY(bare->externalData.empty());
        QVERIFY(std::any_of(bare->warnings.begin(), bare->warnings.end(),
            [](const Warning& w) { return w.message.find("external tensor(s) have no data") != std::string::npos; }));
    }

    // First-layout .ptd: entries resolve to the right bytes (values checked against SOURCES.md's shapes).
    void firstLayoutPtd()
    {
        auto data = readExternalDataFile(etscope::test::samplePath("executorch/linear.ptd"));
        QVERIFY2(data, data ? "" : data.error().message().c_str());
        QCOMPARE(data->layout, ExternalData::Layout::Tensors);
        QCOMPARE(data->tensorAlignment, 16u);
        const NamedDataEntry* weight = data->find("linear.weight");
        const NamedDataEntry* bias = data->find("linear.bias");
        QVERIFY(weight && bias);
        QCOMPARE(weight->layout->sizes, (std::vector<std::int64_t> { 3, 3 }));
        QCOMPARE(weight->data.size, std::uint64_t(36));
        QCOMPARE(bias->data.size, std::uint64_t(12));
        QCOMPARE(bias->data.offset - weight->data.offset, std::uint64_t(48));
    }

    // Bundled program: the inner program is read in place, its delegates/graph analysed.
    void bundledInnerProgram()
    {
        auto document = openDocument(etscope::test::samplePath("executorch/bundled_program.bpte"));
        QVERIFY(document);
        QVERIFY(document->program->region.offset > 0);
        QCOMPARE(document->program->identifier, std::string("ET12"));
        const auto& testCase = document->bundled->suites[0].cases[0];
        QVERIFY(!testCase.inputs.empty());
        QVERIFY(!testCase.expectedOutputs.empty());
        QCOMPARE(testCase.expectedOutputs[0].kind, BundledValue::Kind::Tensor);
        QVERIFY(testCase.expectedOutputs[0].data.end() <= document->program->file->size());
    }

    // Issue 27: values of one shape share one block. add.pte's forward (SOURCES.md; its graph
    // reads "v0: Tensor FLOAT [1]", "v1: …", "v2: …", "v3: Int 1") holds three FLOAT [1]
    // tensors with dim order [0] and the Int alpha.
    void sharedShapes()
    {
        auto document = openDocument(etscope::test::samplePath("executorch/add.pte"));
        QVERIFY(document);
        const std::vector<Value>& values = document->program->methods[0].values;
        QCOMPARE(values.size(), std::size_t(4));
        for (std::size_t i = 0; i < 3; ++i) {
            QVERIFY(values[i].isTensor());
            QVERIFY(values[i].tensor.sizes == std::vector<std::int64_t> { 1 });
            QVERIFY(values[i].tensor.dimOrder == std::vector<std::uint8_t> { 0 });
            QVERIFY(values[i].tensor.sizes.sharesWith(values[0].tensor.sizes));
            QVERIFY(values[i].tensor.dimOrder.sharesWith(values[0].tensor.dimOrder));
        }
        QCOMPARE(values[3].kind, Value::Kind::Int);
        QVERIFY(values[3].tensor.sizes.empty());
        QVERIFY(!values[3].tensor.sizes.sharesWith(values[0].tensor.sizes));
    }

    // The rare String / list payloads are shared by copies until one of them is changed.
    void rarePayloadCopies()
    {
        Value a;
        a.kind = Value::Kind::String;
        a.setString("first");
        Value b = a;
        b.setString("second");
        QCOMPARE(a.stringValue(), std::string("first"));
        QCOMPARE(b.stringValue(), std::string("second"));
        b.setDoubles({ 1.5 });
        QCOMPARE(b.stringValue(), std::string("second"));
        QCOMPARE(b.doubles(), std::vector<double> { 1.5 });
        QVERIFY(a.doubles().empty());
        QVERIFY(Value().bools().empty());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestProgramReader)
#include "tst_programreader.moc"
