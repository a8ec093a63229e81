// SPDX-License-Identifier: MIT
// VGF payloads (VgfBackend): the real sample's container, resources, constants and the TOSA
// operations of its SPIR-V graph module; the project's own fixture (core/writer/payloads/
// vgfpayloadwriter) and damaged variants of it.
//
// Sample numbers read by hand, not with this decoder: the payload is the VGF1 file at byte 1920
// of mobilenet_v2_vgf_segments.pte (4,004,032 bytes). Its header gives the four sections; each
// table section dumped with flatc and ETScope's schema:
//   flatc --json --raw-binary --strict-json --root-type etscope.fb.vgf.SequenceTable core/schema/vgf.fbs --
//   sequence.bin
// (likewise ResourceTable, ModuleTable). The constant section starts "CONST00\0", count 105, 24-byte
// records; the SPIR-V words of module 0 were walked with a 40-line python script in /tmp using
// SPIRV-Headers' spirv.core.grammar.json and extinst.tosa.001000.1.grammar.json (instruction
// counts, and the first CONV2D's operands resolved to their OpConstant* definitions).
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/payloads/vgfpayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <map>

using namespace etscope::core;
using namespace etscope::test;

namespace {

const Node* first(const Graph& graph, NodeKind kind, const std::string& label)
{
    for (const Node& node : graph.nodes)
        if (node.kind == kind && node.label == label)
            return &node;
    return nullptr;
}

std::size_t count(const Graph& graph, NodeKind kind)
{
    std::size_t n = 0;
    for (const Node& node : graph.nodes)
        n += node.kind == kind;
    return n;
}

DelegateInfo describe(const std::vector<std::uint8_t>& payload)
{
    DelegateRef ref;
    ref.backendId = "VgfBackend";
    return describeAlone(payload, ref);
}

} // namespace

class TestVgfDelegate : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // One GRAPH segment 'graph_segment_0' running module 0 'graph_partition_0' (SPIR-V, 112,909
    // words, 185 TOSA operations: RESCALE 84, CONV2D 36, CLAMP 35, DEPTHWISE_CONV2D 17, ADD 10,
    // TRANSPOSE 1, AVG_POOL2D 1, RESHAPE 1); 107 resources (105 CONSTANT, input 105 INT8
    // [1, 3, 224, 224] "tosa_deserialized_input_0:0", output 106 INT8 [1, 1000]); 105 constants
    // whose sizes add up to 3,541,920 bytes, all of them graph constants the operations read.
    void sample()
    {
        auto document = openDocument(samplePath("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte"));
        QVERIFY(document);
        const DelegateInfo& info = document->methods[0].delegates[0];
        QCOMPARE(info.format, std::string("vgf"));
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "module 0"),
            std::string("'graph_partition_0' (GRAPH, SPIR-V, 112909 words, entry point graph_partition_0, SPIR-V 1.5, "
                        "185 TOSA operations)"));
        QCOMPARE(fact(info, "segment 0"),
            std::string("'graph_segment_0' (GRAPH, module 0, 1 input, 1 output, 105 constants)"));
        QCOMPARE(fact(info, "resources"), std::string("107 (CONSTANT 105, INPUT 1, OUTPUT 1)"));
        QCOMPARE(fact(info, "constants"), std::string("105 (CONST00, 3.4 MiB)"));
        QCOMPARE(fact(info, "input 0"), std::string("tosa_deserialized_input_0:0: INPUT INT8 [1, 3, 224, 224]"));
        QCOMPARE(fact(info, "output 0"), std::string("tosa_deserialized_output_0:0: OUTPUT INT8 [1, 1000]"));
        QCOMPARE(info.inputCount, 1);
        QCOMPARE(info.outputCount, 1);

        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        const std::map<std::string, int> expected = { { "TOSA ADD", 10 }, { "TOSA AVG_POOL2D", 1 },
            { "TOSA CLAMP", 35 }, { "TOSA CONV2D", 36 }, { "TOSA DEPTHWISE_CONV2D", 17 }, { "TOSA RESCALE", 84 },
            { "TOSA RESHAPE", 1 }, { "TOSA TRANSPOSE", 1 } };
        QCOMPARE(operatorTypes(graph), expected);
        QCOMPARE(count(graph, NodeKind::Constant), std::size_t(105));
        QCOMPARE(graph.warnings.size(), std::size_t(0));

        // The first CONV2D: pad %18389 = [1, 0, 1, 0], stride a replicated 2, dilation a replicated
        // 1, acc_type %8 = 1 (INT32), local_bound false, input_zp a one-element INT8 tensor whose
        // constant word is 241 (-15), weight_zp OpConstantNull, weight graph constant 0, bias 1.
        const Node* conv = nullptr;
        for (const Node& node : graph.nodes)
            if (node.label == "CONV2D") {
                conv = &node;
                break;
            }
        QVERIFY(conv);
        QCOMPARE(attribute(*conv, "pad"), std::string("[1, 0, 1, 0]"));
        QCOMPARE(attribute(*conv, "stride"), std::string("all 2"));
        QCOMPARE(attribute(*conv, "dilation"), std::string("all 1"));
        QCOMPARE(attribute(*conv, "acc_type"), std::string("INT32"));
        QCOMPARE(attribute(*conv, "local_bound"), std::string("false"));
        QCOMPARE(attribute(*conv, "input_zp"), std::string("[-15]"));
        QCOMPARE(attribute(*conv, "weight_zp"), std::string("zeros"));
        QCOMPARE(attribute(*conv, "weight"), std::string("graph constant 0: INT8 [32, 3, 3, 3]"));
        QCOMPARE(graph.inEdges(conv->id).size(), std::size_t(3)); // input, weight, bias
        const Node* transpose = first(graph, NodeKind::Operator, "TRANSPOSE");
        QVERIFY(transpose);
        QCOMPARE(attribute(*transpose, "perms"), std::string("[0, 2, 3, 1]"));
        // The model input feeds the TRANSPOSE; the RESHAPE feeds the output.
        const Node* input = first(graph, NodeKind::Input, "tosa_deserialized_input_0:0");
        QVERIFY(input);
        QCOMPARE(input->argPosition, 0);
        QCOMPARE(graph.inEdges(transpose->id).front()->from, input->id);
        const Node* output = first(graph, NodeKind::Output, "tosa_deserialized_output_0:0");
        QVERIFY(output);
        QCOMPARE(output->argPosition, 1);
        QCOMPARE(graph.inEdges(output->id).size(), std::size_t(1));
        QCOMPARE(graph.node(graph.inEdges(output->id).front()->from).label, std::string("RESHAPE"));
        const Node* constant0 = first(graph, NodeKind::Constant, "constant 0");
        QVERIFY(constant0);
        QCOMPARE(attribute(*constant0, "shape"), std::string("[32, 3, 3, 3]"));
        QCOMPARE(attribute(*constant0, "dtype"), std::string("INT8"));
        // Constant 0: 864 bytes at data offset 0; the data starts after 16 + 105 × 24 bytes of the
        // section at payload offset 459576: 459576 + 2536 = 462112.
        QCOMPARE(attribute(*constant0, "data"), std::string("864 bytes at offset 462112"));
    }

    // The fixture: input resource 0 → ADD (with graph constant 0) → CLAMP → output resource 1.
    void fixture()
    {
        const DelegateInfo info = describe(writeSmallVgf());
        QCOMPARE(info.format, std::string("vgf"));
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(operatorTypes(graph), (std::map<std::string, int> { { "TOSA ADD", 1 }, { "TOSA CLAMP", 1 } }));
        const Node* add = first(graph, NodeKind::Operator, "ADD");
        const Node* clamp = first(graph, NodeKind::Operator, "CLAMP");
        const Node* input = first(graph, NodeKind::Input, "in0");
        const Node* output = first(graph, NodeKind::Output, "out0");
        const Node* constant = first(graph, NodeKind::Constant, "constant 0");
        QVERIFY(add && clamp && input && output && constant);
        QCOMPARE(graph.inEdges(add->id).size(), std::size_t(2));
        QCOMPARE(graph.inEdges(clamp->id).front()->from, add->id);
        QCOMPARE(graph.inEdges(output->id).front()->from, clamp->id);
        QCOMPARE(graph.inEdges(add->id).front()->meta.shape, (std::vector<std::int64_t> { 1, 4 }));
        QCOMPARE(attribute(*clamp, "min_val"), std::string("-100"));
        QCOMPARE(attribute(*clamp, "max_val"), std::string("100"));
        QCOMPARE(attribute(*clamp, "nan_mode"), std::string("PROPAGATE"));
        QCOMPARE(attribute(*constant, "data").substr(0, 8), std::string("4 bytes "));
        QCOMPARE(fact(info, "constants"), std::string("1 (CONST00, 4 B)"));

        const DelegateInfo legacy = describe(writeSmallVgf({ .legacyConstants = true }));
        QVERIFY(legacy.warnings.empty());
        QCOMPARE(fact(legacy, "constants"), std::string("1 (FlatBuffer (legacy), 4 B)"));

        // A compute module: the segment becomes one node between the resources.
        const DelegateInfo compute = describe(writeSmallVgf({ .computeModule = true }));
        QVERIFY(compute.warnings.empty());
        QCOMPARE(operatorTypes(*compute.innerGraph), (std::map<std::string, int> { { "VGF compute segment", 1 } }));
        const Node* segment = first(*compute.innerGraph, NodeKind::Operator, "graph_segment_0");
        QVERIFY(segment);
        QCOMPARE(attribute(*segment, "code"), std::string("GLSL (14)"));
        QCOMPARE(attribute(*segment, "dispatch"), std::string("[4, 1, 1]"));
    }

    // Damage: each problem is a warning naming the place, the rest is still shown.
    void damaged()
    {
        VgfWriteOptions outside;
        outside.sectionOffset[1] = 1u << 30;
        const DelegateInfo noSequence = describe(writeSmallVgf(outside));
        QCOMPARE(noSequence.format, std::string("vgf"));
        QVERIFY(anyWarning(noSequence, "model sequence table lies outside the payload"));
        QCOMPARE(noSequence.warnings.front().offset, std::optional<std::uint64_t>(32));
        QCOMPARE(fact(noSequence, "module 0").substr(0, 19), std::string("'graph_partition_0'"));

        const DelegateInfo badCount = describe(writeSmallVgf({ .constantCount = 1'000'000 }));
        QVERIFY(anyWarning(badCount, "announces 1000000 constants"));
        QVERIFY(badCount.innerGraph); // the operations are still there, their constant unknown
        QVERIFY(anyWarning(badCount, "names graph constant 0, but the file has 0 constants"));

        const DelegateInfo truncated = describe(writeSmallVgf({ .truncatedSpirv = true }));
        QVERIFY(anyWarning(truncated, "has word count 9, past the end of the module"));
        QCOMPARE(operatorTypes(*truncated.innerGraph),
            (std::map<std::string, int> { { "TOSA ADD", 1 }, { "TOSA CLAMP", 1 } }));

        const DelegateInfo unknown = describe(writeSmallVgf({ .tosaInstruction = 200 }));
        QVERIFY(anyWarning(unknown, "unknown TOSA instruction 200"));
        QVERIFY(first(*unknown.innerGraph, NodeKind::Operator, "unknown TOSA instruction 200"));

        // Cut anywhere: never a crash, always a VGF or a warning.
        const auto whole = writeSmallVgf();
        for (std::size_t size = 0; size < whole.size(); size += 7) {
            const DelegateInfo cut = describe({ whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size) });
            QVERIFY(cut.format == "vgf" ? !cut.warnings.empty() || size == whole.size() : !cut.warnings.empty());
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestVgfDelegate)
#include "tst_vgfdelegate.moc"
