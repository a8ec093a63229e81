// SPDX-License-Identifier: MIT
// TOSA graphs: the two side files Arm's flow wrote for the Ethos-U program of
// shared/samples/executorch_on_arm_labs, attached to its delegates.
//
// The expected numbers were read with flatc and ETScope's own schema (not with this reader):
//   flatc --json --raw-binary --strict-json core/schema/tosa.fbs -- mv2_lrn_int8_output_tag0_TOSA-1.0+INT.tosa
// then counted in the JSON (python3 in /tmp: collections.Counter of regions[0].blocks[0].operators[*].op).
#include "core/delegates/delegate.h"
#include "core/delegates/tosa.h"
#include "core/document/sidegraphs.h"
#include "core/writer/payloads/tosapayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <map>

using namespace etscope::core;
using namespace etscope::test;

namespace {

const std::string kDir = "executorch_on_arm_labs/";
const std::string kProgram = kDir + "mobilenetv2_lrn_int8_ethosu.pte";
const std::string kTag0 = kDir + "mv2_lrn_int8_output_tag0_TOSA-1.0+INT.tosa";
const std::string kTag1 = kDir + "mv2_lrn_int8_output_tag1_TOSA-1.0+INT.tosa";

Result<Graph> readSample(const std::string& relative, TosaGraphFacts* facts = nullptr)
{
    const QByteArray bytes = readFile(QString::fromStdString(samplePath(relative)));
    auto graph = readTosaGraph(
        { reinterpret_cast<const std::uint8_t*>(bytes.constData()), static_cast<std::size_t>(bytes.size()) }, relative,
        facts);
    return graph;
}

const Node* nodeWithLabel(const Graph& graph, NodeKind kind, const std::string& label, int skip = 0)
{
    for (const Node& node : graph.nodes)
        if (node.kind == kind && node.label == label && skip-- == 0)
            return &node;
    return nullptr;
}

Result<Graph> readBytes(const std::vector<std::uint8_t>& bytes)
{
    return readTosaGraph(bytes, "fixture.tosa");
}

/// A payload described on its own under `backendId`, with an empty program.
DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& backendId = "TOSABackend")
{
    DelegateRef ref;
    ref.backendId = backendId;
    return describeAlone(payload, ref);
}

} // namespace

class TestTosa : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // tag0: 80 operators = CONST 56, RESCALE 11, TRANSPOSE 2, CONST_SHAPE 2, RESHAPE 2, MUL 2,
    // TABLE 2, ADD 1, AVG_POOL2D 1, CONV2D 1; version 1.0.0, not a draft; inputs getitem
    // [1, 1280, 7, 7] and quantized_decomposed_quantize_per_tensor_default_66 [1, 1, 1280, 7, 7],
    // output aten_view_copy_default_1 [1, 1000], all INT8.
    void tag0Graph()
    {
        TosaGraphFacts facts;
        ETSCOPE_TAKE(const Graph graph, readSample(kTag0, &facts));
        QVERIFY(graph.warnings.empty());
        QCOMPARE(facts.operatorCount, std::size_t(80));
        QCOMPARE(facts.inputCount, 2);
        QCOMPARE(facts.outputCount, 1);
        QCOMPARE(fact(facts.facts, "TOSA version"), std::string("1.0.0"));
        const std::map<std::string, int> expected
            = { { "TOSA ADD", 1 }, { "TOSA AVG_POOL2D", 1 }, { "TOSA CONV2D", 1 }, { "TOSA MUL", 2 },
                  { "TOSA RESCALE", 11 }, { "TOSA RESHAPE", 2 }, { "TOSA TABLE", 2 }, { "TOSA TRANSPOSE", 2 } };
        QCOMPARE(operatorTypes(graph), expected);
        std::size_t constants = 0;
        for (const Node& node : graph.nodes)
            constants += node.kind == NodeKind::Constant;
        QCOMPARE(constants, std::size_t(56 + 2)); // CONST and CONST_SHAPE outputs

        const Node* input = nodeWithLabel(graph, NodeKind::Input, "getitem");
        QVERIFY(input);
        QCOMPARE(input->argPosition, 0);
        QCOMPARE(attribute(*input, "shape"), std::string("[1, 1280, 7, 7]"));
        QCOMPARE(attribute(*input, "dtype"), std::string("INT8"));
        const Node* output = nodeWithLabel(graph, NodeKind::Output, "aten_view_copy_default_1");
        QVERIFY(output);
        QCOMPARE(output->argPosition, 2);
        QCOMPARE(graph.inEdges(output->id).size(), std::size_t(1));
        QCOMPARE(graph.inEdges(output->id).front()->meta.shape, (std::vector<std::int64_t> { 1, 1000 }));

        // AVG_POOL2D: kernel [7, 7], stride [1, 1], pad [0, 0, 0, 0], acc_type INT32.
        const Node* pool = nodeWithLabel(graph, NodeKind::Operator, "AVG_POOL2D");
        QVERIFY(pool);
        QCOMPARE(attribute(*pool, "kernel"), std::string("[7, 7]"));
        QCOMPARE(attribute(*pool, "stride"), std::string("[1, 1]"));
        QCOMPARE(attribute(*pool, "pad"), std::string("[0, 0, 0, 0]"));
        QCOMPARE(attribute(*pool, "acc_type"), std::string("INT32"));
        // The first TRANSPOSE: perms [0, 2, 3, 1] on getitem, which it reads from the input node.
        const Node* transpose = nodeWithLabel(graph, NodeKind::Operator, "TRANSPOSE");
        QVERIFY(transpose);
        QCOMPARE(attribute(*transpose, "perms"), std::string("[0, 2, 3, 1]"));
        QCOMPARE(graph.inEdges(transpose->id).front()->from, input->id);
    }

    // tag1: 700 operators = CONST 546, RESCALE 84, CONV2D 35, DEPTHWISE_CONV2D 17, ADD 10,
    // TRANSPOSE 3, CONST_SHAPE 2, MUL 1, RESHAPE 1, PAD 1. The first CONV2D (operator 107 of the
    // block):
    // pad [1, 0, 1, 0], stride [2, 2], dilation [1, 1], acc_type INT32, inputs
    // tosa_transpose_default INT8 [1, 224, 224, 3], b__frozen_param0 INT8 [32, 3, 3, 3] (864
    // bytes), b__frozen_param1 INT32 [32], input_zp INT8 [1] = byte 254 = -2, weight_zp [1] = 0.
    // The RESCALE after it: scale32 true, rounding SINGLE_ROUND, per_channel true, input_zp
    // INT32 0, output_zp INT8 byte 128 = -128.
    void tag1Graph()
    {
        TosaGraphFacts facts;
        ETSCOPE_TAKE(const Graph graph, readSample(kTag1, &facts));
        QVERIFY(graph.warnings.empty());
        QCOMPARE(facts.operatorCount, std::size_t(700));
        QCOMPARE(facts.inputCount, 1);
        QCOMPARE(facts.outputCount, 2);
        const std::map<std::string, int> expected
            = { { "TOSA ADD", 10 }, { "TOSA CONV2D", 35 }, { "TOSA DEPTHWISE_CONV2D", 17 }, { "TOSA MUL", 1 },
                  { "TOSA PAD", 1 }, { "TOSA RESCALE", 84 }, { "TOSA RESHAPE", 1 }, { "TOSA TRANSPOSE", 3 } };
        QCOMPARE(operatorTypes(graph), expected);
        QCOMPARE(graph.operatorCount(), std::size_t(152));

        const Node* conv = nodeWithLabel(graph, NodeKind::Operator, "CONV2D");
        QVERIFY(conv);
        QCOMPARE(attribute(*conv, "operator index"), std::string("107"));
        QCOMPARE(attribute(*conv, "pad"), std::string("[1, 0, 1, 0]"));
        QCOMPARE(attribute(*conv, "stride"), std::string("[2, 2]"));
        QCOMPARE(attribute(*conv, "dilation"), std::string("[1, 1]"));
        QCOMPARE(attribute(*conv, "acc_type"), std::string("INT32"));
        QCOMPARE(attribute(*conv, "input_zp"), std::string("-2"));
        QCOMPARE(attribute(*conv, "weight_zp"), std::string("0"));
        QCOMPARE(attribute(*conv, "in 1 (weight)"), std::string("b__frozen_param0: INT8 [32, 3, 3, 3]"));
        // Input, weight, bias and the two zero points: five distinct sources.
        QCOMPARE(graph.inEdges(conv->id).size(), std::size_t(5));
        const Node* weight = nodeWithLabel(graph, NodeKind::Constant, "b__frozen_param0");
        QVERIFY(weight);
        QCOMPARE(attribute(*weight, "data").substr(0, 10), std::string("864 bytes "));
        const Node* rescale = nodeWithLabel(graph, NodeKind::Operator, "RESCALE");
        QVERIFY(rescale);
        QCOMPARE(attribute(*rescale, "scale32"), std::string("true"));
        QCOMPARE(attribute(*rescale, "rounding_mode"), std::string("SINGLE_ROUND"));
        QCOMPARE(attribute(*rescale, "per_channel"), std::string("true"));
        QCOMPARE(attribute(*rescale, "input_zp"), std::string("0"));
        QCOMPARE(attribute(*rescale, "output_zp"), std::string("-128"));
    }

    // Both files beside the program, found by their output_tag<N>_TOSA names.
    void findsSideFiles()
    {
        const auto files = findTosaSideFiles(samplePath(kProgram));
        QCOMPARE(files.size(), std::size_t(2));
        QCOMPARE(files[0].delegate, std::size_t(0));
        QVERIFY(files[0].path.ends_with("mv2_lrn_int8_output_tag0_TOSA-1.0+INT.tosa"));
        QCOMPARE(files[1].delegate, std::size_t(1));
        QVERIFY(files[1].path.ends_with("mv2_lrn_int8_output_tag1_TOSA-1.0+INT.tosa"));
    }

    // Attached by their inputs and outputs: tag1 (input [1, 3, 224, 224]) is delegate 0 and tag0
    // (inputs [1, 1280, 7, 7], [1, 1, 1280, 7, 7]; output [1, 1000]) is delegate 1, the order
    // of the DelegateCalls in forward (delegate 0 takes the image, delegate 1 gives the logits).
    void attachesToDelegates()
    {
        auto document = openDocument(samplePath(kProgram));
        QVERIFY(document);
        const std::vector<Warning> warnings = attachTosaSideGraphs(*document);
        for (const Warning& w : warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(warnings.empty());
        const auto& delegates = document->methods[0].delegates;
        QCOMPARE(delegates.size(), std::size_t(2));
        QVERIFY(delegates[0].sideGraph && delegates[1].sideGraph);
        QCOMPARE(delegates[0].sideGraph->operatorCount(), std::size_t(152));
        QCOMPARE(delegates[1].sideGraph->operatorCount(), std::size_t(22));
        QVERIFY(delegates[0].sideGraphPath.ends_with("output_tag1_TOSA-1.0+INT.tosa"));
        QCOMPARE(delegates[1].sideGraph->format, std::string("tosa"));
        QVERIFY(fact(delegates[0].facts, "side graph").ends_with("though its name says output_tag1)"));
    }

    // The same through openDocument's option, which the app can turn on.
    void openDocumentFindsSideGraphs()
    {
        OpenOptions options;
        options.findSideGraphs = true;
        auto document = openDocument(samplePath(kProgram), options);
        QVERIFY(document);
        QVERIFY(document->methods[0].delegates[0].sideGraph);
        QVERIFY(document->methods[0].delegates[1].sideGraph);
        auto plain = openDocument(samplePath(kProgram));
        QVERIFY(plain);
        QVERIFY(!plain->methods[0].delegates[0].sideGraph);
    }

    // Given for a delegate whose I/O shapes differ: attached, with a warning that says so.
    void mismatchWarns()
    {
        auto document = openDocument(samplePath(kProgram));
        QVERIFY(document);
        const auto attached = attachTosaSideGraph(*document, samplePath(kTag0), 0);
        QVERIFY(attached);
        QCOMPARE(attached->delegate, std::size_t(0));
        QCOMPARE(attached->warnings.size(), std::size_t(1));
        QVERIFY(attached->warnings.front().message.find("do not match delegate 0") != std::string::npos);
        QVERIFY(document->methods[0].delegates[0].sideGraph);
        // A delegate that does not exist, and a file that is no TOSA graph, are errors.
        QVERIFY(!attachTosaSideGraph(*document, samplePath(kTag0), 7));
        const auto wrong = attachTosaSideGraph(*document, samplePath(kProgram), 0);
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().code, Error::Code::BadIdentifier);
    }

    // The writer's conv → add → rescale graph, as a TOSABackend payload.
    void fixtureAsPayload()
    {
        const DelegateInfo info = describe(smallTosaGraph().write());
        QCOMPARE(info.format, std::string("tosa"));
        QVERIFY(info.warnings.empty());
        QCOMPARE(info.inputCount, 1);
        QCOMPARE(info.outputCount, 1);
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(graph.backendId, std::string("TOSABackend"));
        QCOMPARE(operatorTypes(graph),
            (std::map<std::string, int> { { "TOSA ADD", 1 }, { "TOSA CONV2D", 1 }, { "TOSA RESCALE", 1 } }));
        const Node* conv = nodeWithLabel(graph, NodeKind::Operator, "CONV2D");
        const Node* add = nodeWithLabel(graph, NodeKind::Operator, "ADD");
        const Node* rescale = nodeWithLabel(graph, NodeKind::Operator, "RESCALE");
        const Node* input = nodeWithLabel(graph, NodeKind::Input, "x");
        const Node* output = nodeWithLabel(graph, NodeKind::Output, "out");
        QVERIFY(conv && add && rescale && input && output);
        QCOMPARE(attribute(*conv, "pad"), std::string("[0, 1, 0, 1]"));
        QCOMPARE(attribute(*conv, "input_zp"), std::string("-1"));
        QCOMPARE(attribute(*conv, "in 2 (bias)"), std::string("b: INT32 [4] = [10, -20, 30, -40]"));
        QCOMPARE(attribute(*rescale, "multiplier"), std::string("1073741824"));
        QCOMPARE(attribute(*rescale, "shift"), std::string("30"));
        QCOMPARE(attribute(*rescale, "output_zp"), std::string("-128"));
        QCOMPARE(attribute(*rescale, "rounding_mode"), std::string("SINGLE_ROUND"));
        QCOMPARE(graph.inEdges(conv->id).size(), std::size_t(5));
        QCOMPARE(graph.inEdges(add->id).size(), std::size_t(2));
        QCOMPARE(graph.inEdges(output->id).front()->from, rescale->id);
        QCOMPARE(graph.inEdges(output->id).front()->meta.dtype, std::string("INT8"));
        QCOMPARE(output->argPosition, 1);
        const Node* weight = nodeWithLabel(graph, NodeKind::Constant, "w");
        QVERIFY(weight);
        QCOMPARE(attribute(*weight, "values"), std::string("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"));
        // Recognised by its identifier under another backend id too.
        const DelegateInfo renamed = describe(smallTosaGraph().write(), "SomeArmBackend");
        QCOMPARE(renamed.format, std::string("tosa"));
    }

    // Damage: a verifier failure is an error, a semantic problem a warning with the graph kept.
    void damaged()
    {
        const auto whole = smallTosaGraph().write();
        for (std::size_t size = 0; size < whole.size(); size += 5) {
            const auto cut = readBytes({ whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size) });
            QVERIFY(!cut);
            QVERIFY(cut.error().file == "fixture.tosa");
        }
        auto wrongId = whole;
        wrongId[4] = 'X';
        QCOMPARE(readBytes(wrongId).error().code, Error::Code::BadIdentifier);
        QCOMPARE(readBytes(wrongId).error().offset, std::optional<std::uint64_t>(4));
        const DelegateInfo broken = describe({ whole.begin(), whole.begin() + 100 });
        QCOMPARE(broken.format, std::string("opaque"));
        QVERIFY(anyWarning(broken.warnings, "verifier rejected the TOSA graph"));

        TosaGraphWriter odd = smallTosaGraph();
        TosaOperatorSpec unknown;
        unknown.op = 200;
        unknown.inputs = { "out", "nowhere" };
        unknown.outputs = { "later" };
        odd.addOperator(unknown);
        TosaOperatorSpec foreign;
        foreign.op = tosa::op::Add;
        foreign.attributeTag = 61; // TRANSPOSE's table on an ADD
        foreign.inputs = { "out", "out" };
        foreign.outputs = { "twice" };
        odd.addOperator(foreign);
        auto graph = readBytes(odd.write());
        QVERIFY(graph);
        QVERIFY(anyWarning(graph->warnings, "unknown op number 200"));
        QVERIFY(anyWarning(graph->warnings, "reads tensor 'nowhere', which the block does not declare"));
        const Node* node = nodeWithLabel(*graph, NodeKind::Operator, "unknown TOSA op 200");
        QVERIFY(node);
        QCOMPARE(node->opType, std::string("TOSA op 200"));
        const Node* add = nodeWithLabel(*graph, NodeKind::Operator, "ADD", 1);
        QVERIFY(add);
        QCOMPARE(attribute(*add, "note"), std::string("attribute table of TRANSPOSE"));
        QCOMPARE(graph->inEdges(add->id).size(), std::size_t(1)); // the same tensor twice: one edge

        const auto draft = readBytes(smallTosaGraph().write(0, 80));
        QVERIFY(draft);
        QVERIFY(anyWarning(draft->warnings, "TOSA version 0.80.0"));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestTosa)
#include "tst_tosa.moc"
