// SPDX-License-Identifier: MIT
// The Core ML decoder: the container (flattened file system) on payloads made by the project's
// own writer (core/writer/payloads), the ML Program inside on a written conv → add → relu model
// and on the real sample react-native-executorch/style_candy_640_coreml.pte, and damaged models.
// Container layout per facts sheet §3.4: file contents at aligned offsets, then the node table
// as JSON written in reverse at the end ({"nodes":[{name, kind 0 file / 1 directory,
// dataRegion{offset,size}, children}]}), root holding model.mlpackage/, metadata.json
// (inputNames, outputNames, identifier) and debug_info.json; or "CMJR" +
// {"version","key","functionName"} naming a named-data blob.
//
// Why one file: one test class for the Core ML decoder; the container, the written model and the
// protobuf field builders at the top serve every case, the damaged and hostile ones included.
#include "core/debug/eventmapper.h"
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/payloads/coremlpayloadwriter.h"
#include "core/writer/payloads/coremlprogramwriter.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <map>

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
    return etscope::test::documentFromBytes(bytes, "coreml-fixture.pte");
}

DelegateInfo describe(const std::vector<std::uint8_t>& payload)
{
    return describeAlone(payload, "CoreMLBackend");
}

/// forward = DelegateCall(CoreMLBackend, [x, out]) for a model of one input and one output.
std::vector<std::uint8_t> programWithOneInput(std::vector<std::uint8_t> payload, std::vector<NamedBlobSpec> named = {})
{
    ProgramSpec spec;
    MethodSpec& method = spec.addMethod("forward");
    TensorSpec t;
    t.sizes = { 1, 3, 8, 8 };
    const std::int32_t x = method.addTensor(t);
    t.sizes = { 1, 4, 6, 6 };
    const std::int32_t out = method.addTensor(t);
    method.inputs = { x };
    method.outputs = { out };
    const std::int32_t delegate = method.addDelegate({ "CoreMLBackend", std::move(payload) });
    method.addInstruction(InstructionSpec::delegate(delegate, { x, out }));
    spec.namedData = std::move(named);
    auto bytes = writeProgram(spec);
    return bytes ? std::move(*bytes) : std::vector<std::uint8_t> {};
}

/// The fixture package with its model.mlmodel replaced by `model`.
std::vector<std::uint8_t> fixtureWithModel(const std::vector<std::uint8_t>& model)
{
    static const std::vector<CoreMlFileSpec> package = convAddReluPackage();
    auto files = package;
    for (CoreMlFileSpec& file : files)
        if (file.path.ends_with("model.mlmodel"))
            file.content = model;
    return writeCoreMlPayload(files);
}

std::vector<std::uint8_t> fixtureModel()
{
    for (const CoreMlFileSpec& file : convAddReluPackage())
        if (file.path.ends_with("model.mlmodel"))
            return file.content;
    return {};
}

const Node* nodeWithAttribute(const Graph& graph, const std::string& name, const std::string& value)
{
    for (const Node& node : graph.nodes)
        if (node.attributes.find(name) == std::string_view(value))
            return &node;
    return nullptr;
}

std::vector<const Edge*> edgesInto(const Graph& graph, NodeId id)
{
    std::vector<const Edge*> edges;
    for (const Edge& edge : graph.edges)
        if (edge.to == id)
            edges.push_back(&edge);
    return edges;
}

std::size_t countKind(const Graph& graph, NodeKind kind)
{
    return static_cast<std::size_t>(
        std::count_if(graph.nodes.begin(), graph.nodes.end(), [&](const Node& n) { return n.kind == kind; }));
}

/// Protobuf by hand, for models the writer would never make.
void appendVarint(std::vector<std::uint8_t>& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(value | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(value));
}

std::vector<std::uint8_t> field(std::uint32_t number, const std::vector<std::uint8_t>& content)
{
    std::vector<std::uint8_t> out;
    appendVarint(out, (static_cast<std::uint64_t>(number) << 3) | 2);
    appendVarint(out, content.size());
    out.insert(out.end(), content.begin(), content.end());
    return out;
}

std::vector<std::uint8_t> concat(std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/// Model{mlProgram=502{functions=2{key "main", value{opset=2 "CoreML7", blocks=3{key, value{
/// operations=3 …}}}}}} holding the given serialized operations (MIL.proto / Model.proto numbers).
std::vector<std::uint8_t> modelWithOperations(const std::vector<std::vector<std::uint8_t>>& operations)
{
    std::vector<std::uint8_t> block;
    for (const auto& op : operations)
        block = concat(block, field(3, op));
    const auto blockEntry = concat(field(1, bytesOf("CoreML7")), field(2, block));
    const auto function = concat(field(2, bytesOf("CoreML7")), field(3, blockEntry));
    const auto functionEntry = concat(field(1, bytesOf("main")), field(2, function));
    return field(502, field(2, functionEntry));
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
        // The model file is 100 bytes of 0x0A: fields 1 of 10 bytes each, the last cut short.
        QCOMPARE(info.warnings.size(), std::size_t(2));
        QVERIFY(anyWarning(info, "model.mlmodel: the model protobuf is damaged: field 1 claims 10 bytes, 2 remain"));
        QVERIFY(anyWarning(info, "model.mlmodel: holds no ML Program"));
        QVERIFY(!info.innerGraph); // only the I/O is known: no inner graph
        QCOMPARE(fact(info, "form"), std::string("flattened file system"));
        // The package holds Manifest.json and model.mlmodel; metadata.json and debug_info.json
        // are the container's (issue 36: the summary counted all four as the package's).
        const std::uint64_t package = kManifest.size() + 100;
        QCOMPARE(
            fact(info, "model"), "model.mlpackage: 2 files (" + std::to_string(package) + " B) of the container's 4");
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
        QCOMPARE(info.summary,
            "Core ML model.mlpackage: 2 files, " + std::to_string(package) + " B (container: 4 files, "
                + std::to_string(total) + " B), 2 inputs, 1 output");
        for (const Node& node : analysis.graph->nodes)
            if (node.kind == NodeKind::Delegate)
                QVERIFY(!node.inferred && node.inputCount == 2);
    }

    // The writer's conv → add → relu (coremlprogramwriter.cpp): every value below is what the
    // fixture was written with.
    void milProgramFixture()
    {
        const auto document = openBytes(programWithOneInput(writeCoreMlPayload(convAddReluPackage())));
        QVERIFY(document);
        const MethodAnalysis& analysis = *document->analysis(document->program->methods.front());
        const DelegateInfo& info = analysis.delegates.front();
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(graph.format, std::string("coreml"));
        QCOMPARE(graph.nodes.size(), std::size_t(9));
        QCOMPARE(countKind(graph, NodeKind::Operator), std::size_t(3));
        QCOMPARE(countKind(graph, NodeKind::Constant), std::size_t(4));
        QCOMPARE(fact(info, "specification version"), std::string("8"));
        QCOMPARE(fact(info, "ML Program version"), std::string("1"));
        QCOMPARE(fact(info, "functions"), std::string("1: main"));
        QCOMPARE(fact(info, "function main"),
            std::string("opset CoreML7, 3 operations, 4 constants (7 MIL operations), 1 inputs, 1 outputs"));
        QCOMPARE(fact(info, "model input x"), std::string("fp16 [1, 3, 8, 8]"));
        QCOMPARE(fact(info, "model output relu_out"), std::string("fp16 [1, 4, 6, 6]"));
        QCOMPARE(fact(info, "model metadata com.github.apple.coremltools.version"), std::string("8.1"));
        QCOMPARE(fact(info, "operation types"), std::string("const 4, add 1, conv 1, relu 1"));
        QCOMPARE(fact(info, "operations joined to debug symbols"),
            std::string("5 of 7 (MIL operations, constants included)"));
        QVERIFY(info.summary.ends_with(", ML Program 'main': 3 operations, 4 constants"));

        const Node* input = nodeLabelled(graph, "x", NodeKind::Input);
        QVERIFY(input);
        QCOMPARE(input->argPosition, 0);
        QCOMPARE(attribute(*input, "type"), std::string("fp16 [1, 3, 8, 8]"));

        const Node* conv = nodeLabelled(graph, "conv", NodeKind::Operator);
        QVERIFY(conv);
        QCOMPARE(conv->opType, std::string("conv"));
        QCOMPARE(attribute(*conv, "output"), std::string("conv_out: fp16 [1, 4, 6, 6]"));
        QCOMPARE(attribute(*conv, "weight"), std::string("conv_weight"));
        QCOMPARE(attribute(*conv, "operation"), std::string("3 of main"));
        QCOMPARE(attribute(*conv, "debug symbol"), std::string("conv_out:conv"));
        QCOMPARE(attribute(*conv, "debug handles"), std::string("1, 2"));
        QVERIFY(conv->debugHandle && conv->debugHandle->value == 1);
        const auto convIn = edgesInto(graph, conv->id);
        QCOMPARE(convIn.size(), std::size_t(4)); // x, weight, pad_type, strides
        QCOMPARE(convIn.front()->from, input->id);
        QCOMPARE(convIn.front()->meta.dtype, std::string("fp16"));
        QCOMPARE(convIn.front()->meta.shape, (std::vector<std::int64_t> { 1, 3, 8, 8 }));

        // Record at 64 in weight.bin: 4·3·3·3 fp16 = 216 bytes, data at 64 + 64.
        const Node* weight = nodeLabelled(graph, "conv_weight", NodeKind::Constant);
        QVERIFY(weight);
        QCOMPARE(weight->opType, std::string("const"));
        QCOMPARE(attribute(*weight, "blob file"), std::string("@model_path/weights/weight.bin"));
        QCOMPARE(attribute(*weight, "blob offset"), std::string("64"));
        QCOMPARE(attribute(*weight, "bytes"), std::string("216 fp16 at offset 128"));
        QVERIFY(weight->debugHandle && weight->debugHandle->value == 1);
        QCOMPARE(edgesInto(graph, conv->id)[1]->meta.shape, (std::vector<std::int64_t> { 4, 3, 3, 3 }));

        const Node* strides = nodeLabelled(graph, "conv_strides", NodeKind::Constant);
        QVERIFY(strides);
        QCOMPARE(attribute(*strides, "val"), std::string("[1, 1]"));
        QCOMPARE(attribute(*strides, "bytes"), std::string("8 (in the model)"));
        // No operation path for this symbol: joined by the runtime's "<output>:<operator>".
        QCOMPARE(attribute(*strides, "debug symbol"), std::string("conv_strides:const"));
        const Node* pad = nodeLabelled(graph, "conv_pad_type", NodeKind::Constant);
        QVERIFY(pad);
        QCOMPARE(attribute(*pad, "val"), std::string("\"valid\""));
        QVERIFY(!pad->debugHandle);
        const Node* bias = nodeLabelled(graph, "add_y", NodeKind::Constant);
        QVERIFY(bias);
        QCOMPARE(attribute(*bias, "val"), std::string("[0.5, -1, 2, 0]"));
        QCOMPARE(attribute(*bias, "bytes"), std::string("16 (in the model)"));

        const Node* add = nodeLabelled(graph, "add", NodeKind::Operator);
        const Node* relu = nodeLabelled(graph, "relu", NodeKind::Operator);
        QVERIFY(add && relu);
        QVERIFY(add->debugHandle && add->debugHandle->value == 3);
        QVERIFY(relu->debugHandle && relu->debugHandle->value == 4);
        QCOMPARE(edgesInto(graph, add->id).size(), std::size_t(2));
        QCOMPARE(edgesInto(graph, add->id).front()->from, conv->id);
        QCOMPARE(edgesInto(graph, relu->id).front()->from, add->id);

        const Node* output = nodeLabelled(graph, "relu_out", NodeKind::Output);
        QVERIFY(output);
        QCOMPARE(output->argPosition, 1);
        const auto outIn = edgesInto(graph, output->id);
        QCOMPARE(outIn.size(), std::size_t(1));
        QCOMPARE(outIn.front()->from, relu->id);
        QCOMPARE(outIn.front()->meta.shape, (std::vector<std::int64_t> { 1, 4, 6, 6 }));

        // The DelegateCall's arguments meet the inner Input/Output nodes.
        for (const Node& node : analysis.graph->nodes)
            if (node.kind == NodeKind::Delegate) {
                QCOMPARE(node.inputCount, 1);
                QVERIFY(node.subgraph);
            }

        // Runtime events: Core ML logs each operation's debug symbol as delegate_debug_id_str.
        EventMapper mapper(*analysis.graph);
        DelegateEventCursor cursor;
        const EventPlacement placed
            = mapper.placeDelegateEvent(ChainIndex(0), InstructionId(0), DelegateDebugId(-1), "add_out:add", cursor);
        QCOMPARE(placed.rule, std::string("debug symbol"));
        QCOMPARE(mapper.label(placed.origin), std::string("CoreMLBackend › add"));
        const EventPlacement unknown
            = mapper.placeDelegateEvent(ChainIndex(0), InstructionId(0), DelegateDebugId(-1), "nothing:here", cursor);
        QCOMPARE(unknown.rule, std::string("delegate"));
    }

    // The real sample. Expected numbers read off the bytes, not from ETScope: the payload's
    // reversed JSON table (python: read the file backwards from the '{' before '"sedon"{')
    // puts model.mlmodel at payload offset 128 (1,604,556 bytes) and weight.bin at 1,604,684;
    // `protoc --decode_raw` on the extracted model.mlmodel shows field 502 → 2 → "main" with
    // one block "CoreML5" of 250 field-3 operations, and their field-1 types counted with
    // `grep | sort | uniq -c`: const 155, gather 14, reduce_mean 12, mul 12, add 9, conv 7,
    // sub 6, sqrt 6, real_div 6, clip 6, batch_norm 6, transpose 4, leaky_relu 3, gather_nd 2,
    // cast 2. The first conv's output (field 3) is "aten_convolution_default_cast_fp16", type
    // 10 (fp16), dimensions 1, 12, 320, 320; its weight "arg0_1_to_fp16" is a blob at offset 64
    // whose record in weight.bin (xxd) reads ef be ad de | 01 00 00 00 | c8 0d … | 80 00 …:
    // fp16, 0xdc8 = 3528 bytes (12·3·7·7·2) at 128. debug_info.json maps
    // "aten_sub_tensor_1:const" → [73] and "aten_convolution_default_6:cast" → [236].
    void realSample()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QElapsedTimer timer;
        timer.start();
        auto document = openDocument(samplePath("react-native-executorch/style_candy_640_coreml.pte"));
        const qint64 openMs = timer.elapsed();
        QVERIFY(document);
        const MethodAnalysis& analysis = *document->analysis(document->program->methods.front());
        const DelegateInfo& info = analysis.delegates.front();
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        std::map<std::string, int> types;
        for (const Node& node : graph.nodes)
            if (node.kind == NodeKind::Operator || node.kind == NodeKind::Constant)
                ++types[node.opType];
        const std::map<std::string, int> expected { { "const", 155 }, { "gather", 14 }, { "reduce_mean", 12 },
            { "mul", 12 }, { "add", 9 }, { "conv", 7 }, { "sub", 6 }, { "sqrt", 6 }, { "real_div", 6 }, { "clip", 6 },
            { "batch_norm", 6 }, { "transpose", 4 }, { "leaky_relu", 3 }, { "gather_nd", 2 }, { "cast", 2 } };
        QCOMPARE(types, expected);
        QCOMPARE(countKind(graph, NodeKind::Operator), std::size_t(95));
        QCOMPARE(countKind(graph, NodeKind::Constant), std::size_t(155));
        QCOMPARE(countKind(graph, NodeKind::View), std::size_t(0));
        QCOMPARE(fact(info, "function main"),
            std::string("opset CoreML5, 95 operations, 155 constants (250 MIL operations), 1 inputs, 1 outputs"));
        // One meaning of "operations": the operator nodes (250 MIL operations less the 155 const
        // of the type table above), the number `ops` and the delegate box show.
        QVERIFY(info.summary.ends_with(", ML Program 'main': 95 operations, 155 constants"));
        QCOMPARE(fact(info, "specification version"), std::string("6"));
        QCOMPARE(fact(info, "model input arg26_1"), std::string("fp32 [1, 3, 640, 640]"));
        QCOMPARE(fact(info, "model metadata com.github.apple.coremltools.version"), std::string("7.2"));
        QCOMPARE(fact(info, "operations joined to debug symbols"),
            std::string("250 of 250 (MIL operations, constants included)"));

        const Node* conv
            = nodeWithAttribute(graph, "output", "aten_convolution_default_cast_fp16: fp16 [1, 12, 320, 320]");
        QVERIFY(conv);
        QCOMPARE(conv->opType, std::string("conv"));
        QCOMPARE(attribute(*conv, "weight"), std::string("arg0_1_to_fp16"));
        const Node* weight = nodeLabelled(graph, "arg0_1_to_fp16", NodeKind::Constant);
        QVERIFY(weight);
        QCOMPARE(attribute(*weight, "blob offset"), std::string("64"));
        QCOMPARE(attribute(*weight, "bytes"), std::string("3528 fp16 at offset 128"));
        bool weightFeedsConv = false;
        for (const Edge* edge : edgesInto(graph, conv->id))
            if (edge->from == weight->id)
                weightFeedsConv
                    = edge->meta.dtype == "fp16" && edge->meta.shape == std::vector<std::int64_t> { 12, 3, 7, 7 };
        QVERIFY(weightFeedsConv);

        const Node* sub = nodeLabelled(graph, "aten_sub_tensor_1", NodeKind::Constant);
        QVERIFY(sub && sub->debugHandle && sub->debugHandle->value == 73);
        const Node* input = nodeLabelled(graph, "arg26_1", NodeKind::Input);
        QVERIFY(input);
        QCOMPARE(input->argPosition, 0);
        const Node* output = nodeLabelled(graph, "aten_convolution_default_6", NodeKind::Output);
        QVERIFY(output);
        QCOMPARE(output->argPosition, 1);
        const auto last = edgesInto(graph, output->id);
        QCOMPARE(last.size(), std::size_t(1));
        const Node& cast = graph.node(last.front()->from);
        QCOMPARE(cast.opType, std::string("cast"));
        QVERIFY(cast.debugHandle && cast.debugHandle->value == 236);
        QCOMPARE(last.front()->meta.dtype, std::string("fp32"));
        QCOMPARE(last.front()->meta.shape, (std::vector<std::int64_t> { 1, 3, 640, 640 }));
        timer.restart();
        const Method& method = document->program->methods.front();
        const DelegateInfo again = describeDelegate(*document->program, method.delegates.front(), {}, "timing");
        const qint64 decodeUs = timer.nsecsElapsed() / 1000;
        QVERIFY(again.innerGraph && again.innerGraph->nodes.size() == graph.nodes.size());
        qInfo(
            "style_candy_640_coreml.pte: %zu inner nodes, %zu edges; openDocument %lld ms, the delegate alone %lld us",
            graph.nodes.size(), graph.edges.size(), static_cast<long long>(openMs), static_cast<long long>(decodeUs));
    }

    // Damage: every cut of the fixture's model keeps the decoder inside its bounds and says so.
    void everyModelTruncation()
    {
        const auto model = fixtureModel();
        QVERIFY(model.size() > 100);
        for (std::size_t cut = 0; cut < model.size(); ++cut) {
            const DelegateInfo info
                = describe(fixtureWithModel({ model.begin(), model.begin() + static_cast<std::ptrdiff_t>(cut) }));
            QCOMPARE(info.format, std::string("coreml"));
            QVERIFY2(anyWarning(info, "model.mlmodel: "), ("cut at " + std::to_string(cut)).c_str());
        }
        // Ten bytes short: the last operation (relu, the block's last field) is cut; the six
        // before it are drawn, relu is a node saying it is unreadable, and the output it
        // would have written is a placeholder.
        const DelegateInfo info = describe(fixtureWithModel({ model.begin(), model.end() - 10 }));
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QVERIFY(anyWarning(info, "is damaged after 7 operations: field 3 claims"));
        QVERIFY(anyWarning(info, "operation 6 of main (damaged protobuf"));
        QVERIFY(anyWarning(info, "'relu_out', read by the function's outputs, is not defined before it"));
        QCOMPARE(countKind(graph, NodeKind::Constant), std::size_t(4));
        QCOMPARE(countKind(graph, NodeKind::Operator), std::size_t(3)); // conv, add, unreadable
        QVERIFY(nodeLabelled(graph, "(unreadable operation)", NodeKind::Operator));
        QVERIFY(nodeLabelled(graph, "relu_out", NodeKind::View));
    }

    // cond with two branches: the operations of nested blocks are drawn too, reading the
    // function's values, and the cond node writes the value the branches return.
    void nestedBlocks()
    {
        MilProgramSpec spec;
        spec.inputs = { { "x", MilType::Fp16, { 2 } } };
        spec.outputs = { "c" };
        MilOperationSpec pred { "const", {}, { { "pred", MilType::Bool, {} } } };
        pred.ints = std::vector<std::int32_t> { 1 };
        MilOperationSpec cond { "cond", { { "pred", { "pred" } } }, { { "c", MilType::Fp16, { 2 } } } };
        cond.blocks = {
            { {}, { "a" }, { { "relu", { { "x", { "x" } } }, { { "a", MilType::Fp16, { 2 } } } } } },
            { {}, { "b" }, { { "sigmoid", { { "x", { "x" } } }, { { "b", MilType::Fp16, { 2 } } } } } },
        };
        spec.operations = { pred, cond };
        const DelegateInfo info = describe(writeCoreMlPayload({
            { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", writeMilModel(spec) },
            { "metadata.json", bytesOf(R"({"inputNames":["x"],"outputNames":["c"]})") },
        }));
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(graph.nodes.size(), std::size_t(6)); // x, pred, cond, relu, sigmoid, c
        const Node* relu = nodeLabelled(graph, "relu", NodeKind::Operator);
        const Node* sigmoid = nodeLabelled(graph, "sigmoid", NodeKind::Operator);
        const Node* condNode = nodeLabelled(graph, "cond", NodeKind::Operator);
        QVERIFY(relu && sigmoid && condNode);
        QCOMPARE(attribute(*relu, "operation"), std::string("0 of main › 1 cond block 0"));
        QCOMPARE(attribute(*sigmoid, "operation"), std::string("0 of main › 1 cond block 1"));
        QCOMPARE(attribute(*condNode, "blocks"), std::string("2"));
        QCOMPARE(graph.node(edgesInto(graph, relu->id).front()->from).label, std::string("x"));
        const Node* out = nodeLabelled(graph, "c", NodeKind::Output);
        QVERIFY(out);
        QCOMPARE(edgesInto(graph, out->id).front()->from, condNode->id);
        QCOMPARE(fact(info, "operation types"), std::string("cond 1, const 1, relu 1, sigmoid 1"));
    }

    // Inline int32 tensors are kept as their packed varint bytes and read on demand: negative
    // values travel as 10-byte sign-extended varints (protobuf's int32 encoding), and only the
    // first eight of a long list are spelled out, with the count.
    void packedInts()
    {
        MilProgramSpec spec;
        spec.inputs = { { "x", MilType::Int32, { 10 } } };
        spec.outputs = { "y" };
        MilOperationSpec values { "const", {}, { { "k", MilType::Int32, { 10 } } } };
        values.ints = std::vector<std::int32_t> { -1, 300, 2147483647, -2147483647 - 1, 0, 1, 2, 3, 4, 5 };
        MilOperationSpec add { "add", { { "x", { "x" } }, { "y", { "k" } } }, { { "y", MilType::Int32, { 10 } } } };
        spec.operations = { values, add };
        const DelegateInfo info = describe(writeCoreMlPayload({
            { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", writeMilModel(spec) },
            { "metadata.json", bytesOf(R"({"inputNames":["x"],"outputNames":["y"]})") },
        }));
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const Node* k = nodeLabelled(*info.innerGraph, "k", NodeKind::Constant);
        QVERIFY(k);
        QCOMPARE(attribute(*k, "val"), std::string("[-1, 300, 2147483647, -2147483648, 0, 1, 2, 3, … (10 values)]"));
    }

    // Issue 36: immediate constants stored as raw bytes (fp16 biases such as
    // p_head_reg_preds_0_bias_to_fp16) showed as "8 bytes". They read as values of their type:
    // fp16 0x3C00 = 1, 0xC000 = -2, 0x3555 ≈ 0.333, 0x7C00 = inf; bf16 0x3F80 = 1, 0xC0A0 = -5;
    // int8 0xFF = -1; uint8 0xFF = 255; int16 0x8000 = -32768. A type this build cannot lay out
    // says so, with its size. And an operation's parameter bound to a short constant shows its
    // value beside its name (issue 38: strides, pad, groups read as names only).
    void rawByteConstantsReadAsValues()
    {
        const auto constant
            = [](const char* name, MilType type, std::vector<std::int64_t> shape, std::vector<std::uint8_t> bytes) {
                  MilOperationSpec op { "const", {}, { { name, type, std::move(shape) } } };
                  op.bytes = std::move(bytes);
                  return op;
              };
        MilProgramSpec spec;
        spec.inputs = { { "x", MilType::Fp16, { 4 } } };
        spec.outputs = { "y" };
        MilOperationSpec strides { "const", {}, { { "strides", MilType::Int32, { 2 } } } };
        strides.ints = std::vector<std::int32_t> { 2, 2 };
        MilOperationSpec add { "add", { { "x", { "x" } }, { "y", { "half" } }, { "strides", { "strides" } } },
            { { "y", MilType::Fp16, { 4 } } } };
        spec.operations = { constant("half", MilType::Fp16, { 4 }, { 0x00, 0x3C, 0x00, 0xC0, 0x55, 0x35, 0x00, 0x7C }),
            constant("brain", MilType::Bf16, { 2 }, { 0x80, 0x3F, 0xA0, 0xC0 }),
            constant("signed", MilType::Int8, {}, { 0xFF }), constant("unsigned", MilType::UInt8, {}, { 0xFF }),
            constant("short", MilType::Int16, {}, { 0x00, 0x80 }),
            constant("packed", MilType::Other, { 4 }, { 0x12, 0x34 }), strides, add };
        const DelegateInfo info = describe(writeCoreMlPayload({
            { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", writeMilModel(spec) },
            { "metadata.json", bytesOf(R"({"inputNames":["x"],"outputNames":["y"]})") },
        }));
        QVERIFY(info.innerGraph);
        const auto val = [&](const char* name) {
            const Node* node = nodeLabelled(*info.innerGraph, name, NodeKind::Constant);
            return node ? attribute(*node, "val") : std::string("(no node)");
        };
        QCOMPARE(val("half"), std::string("[1, -2, 0.333252, inf]"));
        QCOMPARE(val("brain"), std::string("[1, -5]"));
        QCOMPARE(val("signed"), std::string("-1"));
        QCOMPARE(val("unsigned"), std::string("255"));
        QCOMPARE(val("short"), std::string("-32768"));
        QCOMPARE(val("packed"), std::string("2 bytes (dtype 25: values not decoded)"));
        const Node* op = nodeLabelled(*info.innerGraph, "add", NodeKind::Operator);
        QVERIFY(op);
        QCOMPARE(attribute(*op, "strides"), std::string("strides = [2, 2]"));
        QCOMPARE(attribute(*op, "y"), std::string("half = [1, -2, 0.333252, inf]"));
    }

    void hostileModels()
    {
        // A ValueType nested 5000 deep (list of list of …) in an operation's output: past
        // protobuf's recursion limit, so that operation alone is unreadable.
        std::vector<std::uint8_t> type;
        for (int i = 0; i < 5000; ++i)
            type = field(2, field(1, type)); // ValueType.listType → ListType.type
        const auto deep = concat(field(1, bytesOf("relu")), field(3, concat(field(1, bytesOf("y")), field(2, type))));
        const auto fine = field(1, bytesOf("relu"));
        DelegateInfo info = describe(fixtureWithModel(modelWithOperations({ fine, deep, fine })));
        QVERIFY(info.innerGraph);
        QVERIFY(anyWarning(info, "operation 1 of main (damaged protobuf"));
        QCOMPARE(countKind(*info.innerGraph, NodeKind::Operator), std::size_t(3));

        // cond inside cond inside … 100 deep: drawn down to 16 levels, then a warning.
        MilOperationSpec nested { "relu", { { "x", { "x" } } }, { { "r", MilType::Fp16, { 2 } } } };
        for (int i = 0; i < 100; ++i) {
            MilOperationSpec outer { "cond", {}, { { "c" + std::to_string(i), MilType::Fp16, { 2 } } } };
            outer.blocks = { { {}, {}, { nested } } };
            nested = std::move(outer);
        }
        MilProgramSpec deepSpec;
        deepSpec.inputs = { { "x", MilType::Fp16, { 2 } } };
        deepSpec.operations = { nested };
        info = describe(fixtureWithModel(writeMilModel(deepSpec)));
        QVERIFY(anyWarning(info, "levels; not drawn"));
        QCOMPARE(countKind(*info.innerGraph, NodeKind::Operator), std::size_t(17)); // the top cond + 16 nested

        // 250,000 empty operations: 200,000 drawn (each a node saying it has no type), the rest
        // counted; the warnings stop at 64 and say how many more there were.
        std::vector<std::uint8_t> many;
        for (int i = 0; i < 250000; ++i)
            many.insert(many.end(), { 0x1A, 0x00 });
        const auto manyBlock = concat(field(1, bytesOf("CoreML7")), field(2, many));
        const auto manyModel = field(502,
            field(2,
                concat(
                    field(1, bytesOf("main")), field(2, concat(field(2, bytesOf("CoreML7")), field(3, manyBlock))))));
        info = describe(fixtureWithModel(manyModel));
        QCOMPARE(countKind(*info.innerGraph, NodeKind::Operator), std::size_t(200000));
        QVERIFY(anyWarning(info, "50000 more operations beyond the first 200000 are not drawn"));
        QVERIFY(anyWarning(info, "more problems like those above"));
        QVERIFY(info.warnings.size() < 80);

        // A group wire type (proto3 never writes one) ends the walk with a warning.
        info = describe(fixtureWithModel({ 0x08, 0x06, 0x0B, 0x0C }));
        QVERIFY(anyWarning(info, "wire type 3 (field 1) is not used by Core ML models"));
        QVERIFY(anyWarning(info, "holds no ML Program"));

        // A neural network model (field 500), not an ML Program.
        info = describe(fixtureWithModel(concat({ 0x08, 0x04 }, field(500, {}))));
        QVERIFY(anyWarning(info, "holds model type field 500, not an ML Program (502)"));
        QVERIFY(!info.innerGraph);

        // A blob whose record is not there, and one with a bad sentinel.
        std::vector<std::uint8_t> blobOp = concat(field(1, bytesOf("const")),
            concat(field(3, concat(field(1, bytesOf("w")), {})),
                field(5,
                    concat(field(1, bytesOf("val")),
                        field(2,
                            field(5,
                                concat(field(1, bytesOf("@model_path/weights/weight.bin")), { 0x10, 0x80, 0x08 })))))));
        info = describe(fixtureWithModel(modelWithOperations({ blobOp })));
        QVERIFY(anyWarning(info, "the blob record lies outside the"));
        auto files = convAddReluPackage();
        for (CoreMlFileSpec& file : files)
            if (file.path.ends_with("weight.bin"))
                file.content[64] = 0;
        info = describe(writeCoreMlPayload(files));
        QVERIFY(anyWarning(info, "not 0xDEADBEEF"));
    }

    // A CMJR reference draws the function it names from the model in named data, with that
    // method's names from the multifunction metadata.json.
    void multifunctionFixture()
    {
        const auto model = writeCoreMlPayload(convAddReluPackage("decode"));
        const auto document = openBytes(
            programWithOneInput(writeCoreMlReference("coreml_0f1e", "decode"), { { "coreml_0f1e", model } }));
        QVERIFY(document);
        const DelegateInfo& info = document->analysis(document->program->methods.front())->delegates.front();
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "methods"), std::string("1"));
        QCOMPARE(fact(info, "inputNames"), std::string("1: x"));
        QCOMPARE(*info.inputCount, 1);
        QCOMPARE(fact(info, "functions"), std::string("1: decode"));
        QCOMPARE(fact(info, "operations joined to debug symbols"),
            std::string("5 of 7 (MIL operations, constants included)"));
        QVERIFY(info.innerGraph);
        QCOMPARE(nodeLabelled(*info.innerGraph, "relu_out", NodeKind::Output)->argPosition, 1);

        // A function the model does not have: the first one is drawn, with a warning; offsets
        // inside named data are not payload offsets, so no file offset is claimed.
        const auto other = openBytes(
            programWithOneInput(writeCoreMlReference("coreml_0f1e", "prefill"), { { "coreml_0f1e", model } }));
        QVERIFY(other);
        const DelegateInfo& missing = other->analysis(other->program->methods.front())->delegates.front();
        QVERIFY(anyWarning(missing, "function 'prefill' is not in the program; drawing 'decode'"));
        QVERIFY(missing.innerGraph);
        for (const Warning& w : missing.warnings)
            QVERIFY(!w.offset);
    }

    void multifunctionReference()
    {
        const auto model = writeCoreMlPayload(modelFiles());
        const auto document
            = openBytes(programWith(writeCoreMlReference("coreml_0f1e", "decode"), { { "coreml_0f1e", model } }));
        QVERIFY(document);
        const DelegateInfo& info = document->analysis(document->program->methods.front())->delegates.front();
        QCOMPARE(info.format, std::string("coreml"));
        QVERIFY(anyWarning(info, "model.mlmodel: holds no ML Program")); // 100 bytes of 0x0A
        QCOMPARE(fact(info, "form"), std::string("CMJR reference to a multifunction model in named data"));
        QCOMPARE(fact(info, "reference key"), std::string("coreml_0f1e"));
        QCOMPARE(fact(info, "reference functionName"), std::string("decode"));
        QCOMPARE(fact(info, "reference version"), std::string("1"));
        QCOMPARE(fact(info, "referenced model"), std::to_string(model.size()) + " bytes of named data");
        QCOMPARE(fact(info, "inputNames"), std::string("2: x, y"));
        QVERIFY2(info.summary.starts_with("Core ML function 'decode' of Core ML model.mlpackage: 2 files"),
            info.summary.c_str());

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

ETSCOPE_TEST_GUILESS_MAIN(TestCoreMlDelegate)
#include "tst_coremldelegate.moc"
