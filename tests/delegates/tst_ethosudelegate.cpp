// SPDX-License-Identifier: MIT
// The Ethos-U command stream decoder, on the real samples and on payloads written by the
// project's own writer (core/writer/payloads/ethosupayloadwriter.cpp), U55 and U85, whole and
// damaged. The expectations on the samples were decoded by hand from the command words of each
// cmd_data block (quoted in the comments as "index @byte: word [payload]", byte offsets from the
// first command word, which follows the 32 bytes of COP1 framing); the operation counts are the
// operation words (0x0002 conv, 0x0003 depthwise, 0x0005 pool, 0x0006 elementwise, 0x0010
// DMA_START, 0x0007 resize) counted in a hex dump of the stream, with their mode parameters.
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/payloads/ethosupayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <chrono>

using namespace etscope::core;
using namespace etscope::test;

Q_DECLARE_METATYPE(std::string)

namespace {

struct Opened {
    Document document;
    const MethodAnalysis* analysis = nullptr;
};

std::optional<Opened> open(const std::string& sample)
{
    auto document = openDocument(samplePath(sample));
    if (!document)
        return std::nullopt;
    Opened opened { std::move(*document), nullptr };
    const Method* method = opened.document.program->method("forward");
    if (!method)
        return std::nullopt;
    opened.analysis = opened.document.analysis(*method);
    return opened;
}

/// The inner node made from command `index` of the stream.
const Node* atCommand(const Graph& graph, int index)
{
    for (const Node& node : graph.nodes)
        if (node.attributes.find("command index") == std::to_string(index))
            return &node;
    return nullptr;
}

const Node* firstOfKind(const Graph& graph, NodeKind kind)
{
    for (const Node& node : graph.nodes)
        if (node.kind == kind)
            return &node;
    return nullptr;
}

/// The producers of `node`'s incoming edges, by their command index ("input 0" for inputs).
std::vector<std::string> sources(const Graph& graph, const Node& node)
{
    std::vector<std::string> out;
    for (const Edge* edge : graph.inEdges(node.id)) {
        const Node& from = graph.node(edge->from);
        out.push_back(from.kind == NodeKind::Input ? from.label : attribute(from, "command index"));
    }
    return out;
}

const Edge* edgeBetween(const Graph& graph, const Node& from, const Node& to)
{
    for (const Edge* edge : graph.inEdges(to.id))
        if (edge->from == from.id)
            return edge;
    return nullptr;
}

DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& target)
{
    DelegateRef ref;
    ref.backendId = "EthosUBackend";
    if (!target.empty())
        ref.compileSpecs.push_back({ "target", std::vector<std::uint8_t>(target.begin(), target.end()) });
    return describeAlone(payload, ref);
}

/// The command index and byte offset (from the first command word) of the first word whose
/// low 16 bits are `low`, counting a long command as one command.
std::pair<int, std::size_t> findCommand(const std::vector<std::uint32_t>& words, std::uint32_t low)
{
    int index = 0;
    for (std::size_t i = 0; i < words.size(); ++index) {
        if ((words[i] & 0xFFFF) == low)
            return { index, i * 4 };
        i += (words[i] & 0x4000) ? 2 : 1;
    }
    return { -1, 0 };
}

} // namespace

class TestEthosUDelegate : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // NPU operations per delegate, counted in the hex dumps of the four cmd_data blocks.
    void sampleOperationCounts_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<int>("delegate");
        QTest::addColumn<std::string>("npu");
        QTest::addColumn<std::string>("operations");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<int>("outputs");
        // OPTIMIZER_CONFIG words: 0x00001807 (product 0 = U55, SHRAM 0x18 = 24 KiB, 2^7 MACs)
        // and 0x20000118 (product 2 = U85, stream version 1, 2^8 MACs).
        const std::string u55 = "Ethos-U55, 128 MACs/cycle, 24 KiB SHRAM, command stream version 0 (CONFIG 0x00001807)";
        const std::string u85 = "Ethos-U85, 256 MACs/cycle, command stream version 1 (CONFIG 0x20000118)";
        // 0x0006 ×6 with modes 1, 0, 1, 0, 1, 0 and 6 DMA_START.
        QTest::addRow("cmsis minimal u55") << std::string("cmsis-executorch/ethos_u_minimal_example_u55.pte") << 0
                                           << u55 << std::string("12 (3 add, 3 mul, 6 DMA)") << 2 << 1;
        QTest::addRow("mobilenet v2 u55")
            << std::string("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte") << 0 << u55
            << std::string("666 (158 conv, 32 depthwise, 226 avg pool, 30 add, 30 mul, "
                           "190 DMA)")
            << 1 << 1;
        // POOL modes: 3 (SUM) ×7, 4 (NONE) ×1; ELEMENTWISE 1 ×10, 0 ×1.
        QTest::addRow("mobilenet v2 lrn u85 #0")
            << std::string("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") << 0 << u85
            << std::string("323 (128 conv, 24 depthwise, 1 none pool, 7 sum pool, 10 add, 1 mul, 152 DMA)") << 1 << 2;
        QTest::addRow("mobilenet v2 lrn u85 #1")
            << std::string("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") << 1 << u85
            << std::string("16 (3 conv, 1 avg pool, 4 sum pool, 1 add, 2 mul, 5 DMA)") << 2 << 1;
    }

    void sampleOperationCounts()
    {
        QFETCH(std::string, path);
        QFETCH(int, delegate);
        QFETCH(std::string, npu);
        QFETCH(std::string, operations);
        QFETCH(int, inputs);
        QFETCH(int, outputs);
        const auto opened = open(path);
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[static_cast<std::size_t>(delegate)];
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        QCOMPARE(fact(info, "NPU"), npu);
        QCOMPARE(fact(info, "NPU operations"), operations);
        const Graph& g = *info.innerGraph;
        QCOMPARE(g.format, std::string("ethos-u"));
        // Every operation is one operator node, and nothing else is: the final NPU_OP_STOP (word
        // 0x00000000) ends the stream and is no node, so `info`, `ops` and the box count alike.
        const auto total = static_cast<std::size_t>(std::stoi(operations));
        QCOMPARE(g.operatorCount(), total);
        QVERIFY(fact(info, "stream end").starts_with("NPU_OP_STOP at command "));
        for (const Node& node : g.nodes) {
            QVERIFY2(node.label != "Stop" && node.opType != "NPU Stop", node.label.c_str());
            // One naming: the box's title starts with the operator table's key.
            if (node.kind == NodeKind::Operator)
                QVERIFY2(node.label.starts_with(node.opType), (node.label + " / " + node.opType).c_str());
        }
        int in = 0;
        int out = 0;
        for (const Node& node : g.nodes) {
            if (node.kind == NodeKind::Input)
                QCOMPARE(node.argPosition, in++);
            if (node.kind == NodeKind::Output) {
                QCOMPARE(node.argPosition, inputs + out++);
                QVERIFY2(!g.inEdges(node.id).empty(), node.label.c_str()); // some operation writes it
            }
        }
        QCOMPARE(in, inputs);
        QCOMPARE(out, outputs);
        QVERIFY(info.summary.find(std::to_string(total) + " NPU operations") != std::string::npos);
    }

    // mobilenet_v2_ethosu.pte (U55), decoded by hand from its words.
    void mobilenetU55ByHand()
    {
        const auto opened = open("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(fact(info, "NPU architecture"), std::string("1.0.6")); // ID 0x10066001
        QCOMPARE(fact(info, "commands"), std::string("4832 (7272 words at byte 32 of cmd_data)")); // 0x1c680002

        // Command 49 @256: 0x00010005 POOL mode 1 (average), after 0 @0 0x0001010f IFM region 1,
        // 1 @4 0x00004000 [0x00024c00] IFM_BASE0, 5–8: HEIGHT0_M1 2, HEIGHT1_M1 2, WIDTH0_M1 223,
        // DEPTH_M1 223, 9 @52 IFM_STRIDE_Y [0xc400], 10 IFM_STRIDE_X [0xe0], 11 STRIDE_C [1],
        // 13 0x00010105 precision 1 (int8 NHWC), 20 OFM_BASE0 [0], 24/25/29 OFM H/W/D_M1 2/223/223,
        // 30 OFM_STRIDE_Y [0xe0], 31 OFM_STRIDE_X [0x2a0], 34 0x01010114 (int8 NHWC, global
        // scale), 35–37 kernel 1×1, stride 0: a 1×1 average pool that transposes the NCHW input.
        const Node* pool = atCommand(g, 49);
        QVERIFY(pool);
        QCOMPARE(pool->opType, std::string("AvgPool"));
        QCOMPARE(pool->label, std::string("AvgPool 1×1"));
        QCOMPARE(attribute(*pool, "IFM"), std::string("int8 [1, 3, 224, 224] NHWC"));
        QCOMPARE(attribute(*pool, "IFM address"), std::string("region 1 + 0x24c00"));
        QCOMPARE(attribute(*pool, "IFM strides"), std::string("x 224, y 50176, c 1"));
        QCOMPARE(attribute(*pool, "OFM strides"), std::string("x 672, y 224, c 1"));
        QCOMPARE(attribute(*pool, "OFM address"), std::string("region 1 + 0x0"));
        // The input record: region 1, offset 150528 (0x24c00), 3·224·224 bytes — the pool reads it.
        const Node* input = firstOfKind(g, NodeKind::Input);
        QVERIFY(input && edgeBetween(g, *input, *pool));
        QCOMPARE(edgeBetween(g, *input, *pool)->meta.dtype, std::string("int8"));
        QCOMPARE(edgeBetween(g, *input, *pool)->meta.shape, (std::vector<std::int64_t> { 1, 3, 224, 224 }));

        // Command 738 @4868: DMA_START after 733 0x00000130 (source region 0), 734 DMA0_SRC [0],
        // 735 0x00010131 (destination region 1), 736 DMA0_DST [0x86c00], 737 DMA0_LEN [0x5a0].
        const Node* dma = atCommand(g, 738);
        QVERIFY(dma);
        QCOMPARE(attribute(*dma, "source"), std::string("region 0 + 0x0"));
        QCOMPARE(attribute(*dma, "destination"), std::string("region 1 + 0x86c00"));
        QCOMPARE(attribute(*dma, "length"), std::string("1440 bytes"));

        // Command 776 @5064: 0x00000002 CONV. 739 IFM_BASE0 [0x62000], 740/741 HEIGHT0/1_M1 223,
        // 742 DEPTH_M1 2, 743 STRIDE_Y [0x2a0], 744 STRIDE_X [3], 745 0xfff10109 zero point −15,
        // 746/747 PAD_TOP/LEFT 1 (bottom/right still 0), 748 OFM_BASE0 [0], 749–754 OFM 112×112×32,
        // 755 OFM_STRIDE_Y [0xe00], 756 X [0x10], 757 C [0x700], 758 0xfff40118 zero point −12,
        // 759 0x80410114 (int8 NHCWB16, per-channel scales, natural rounding), 760/761 kernel
        // H/W_M1 2, 762 0x00070122 stride bits 0, 1 (2×2) and 2 (part-kernel first), 763–768
        // weights region 1 [0x86d40] length [0x460], scales region 1 [0x86c00] length [0x140],
        // 769/770 ACTIVATION_MIN/MAX 0xfff4 −12 and 0x0018 24, 771–773 block H/W/D_M1 5, 7, 31.
        const Node* conv = atCommand(g, 776);
        QVERIFY(conv);
        QCOMPARE(conv->opType, std::string("Conv"));
        QCOMPARE(conv->label, std::string("Conv 3×3 /2"));
        QCOMPARE(attribute(*conv, "IFM"), std::string("int8 [1, 224, 224, 3] NHWC"));
        QCOMPARE(attribute(*conv, "IFM address"), std::string("region 1 + 0x62000"));
        QCOMPARE(attribute(*conv, "IFM strides"), std::string("x 3, y 672, c 1"));
        QCOMPARE(attribute(*conv, "IFM zero point"), std::string("-15"));
        QCOMPARE(attribute(*conv, "OFM"), std::string("int8 [1, 112, 112, 32] NHCWB16"));
        QCOMPARE(attribute(*conv, "OFM strides"), std::string("x 16, y 3584, c 1792"));
        QCOMPARE(attribute(*conv, "OFM zero point"), std::string("-12"));
        QCOMPARE(attribute(*conv, "kernel"), std::string("3×3"));
        QCOMPARE(attribute(*conv, "stride"), std::string("2×2"));
        QCOMPARE(attribute(*conv, "dilation"), std::string("1×1"));
        QCOMPARE(attribute(*conv, "padding"), std::string("top 1, left 1, bottom 0, right 0"));
        QCOMPARE(attribute(*conv, "weight order"), std::string("part-kernel first"));
        QCOMPARE(attribute(*conv, "weights"), std::string("region 1 + 0x86d40, 1120 bytes"));
        QCOMPARE(attribute(*conv, "scales"), std::string("region 1 + 0x86c00, 320 bytes"));
        QCOMPARE(attribute(*conv, "clip"), std::string("[-12, 24]"));
        QCOMPARE(attribute(*conv, "block (h×w×c)"), std::string("6×8×32"));
        // Its weights and scales come from the DMA of command 738; its IFM (region 1 + 0x62000,
        // 224·672 bytes) from the 224 transposing pools of commands 63…732, every third command.
        QVERIFY(edgeBetween(g, *dma, *conv));
        const auto convSources = sources(g, *conv);
        QCOMPARE(convSources.size(), std::size_t(225));
        QCOMPARE(convSources.front(), std::string("63"));
        QCOMPARE(convSources.back(), std::string("738"));

        // Command 806 @5224: 0x00000003 DEPTHWISE. 781 IFM_BASE0 [0] (the conv's OFM), 782–785
        // IFM 112×112×32, 790 0x00410105 int8 NHCWB16, 791/792 PAD_BOTTOM/RIGHT 1, 793 OFM_BASE0
        // [0x62000], 794 0xffe30118 zero point −29, 795 stride 0, 796/797 weights [0xc4140]
        // [0x150], 798 scales [0xc4000], 799/800 clip 0xffe3 −29 and 0xfff1 −15.
        const Node* depthwise = atCommand(g, 806);
        QVERIFY(depthwise);
        QCOMPARE(depthwise->label, std::string("Depthwise 3×3"));
        QCOMPARE(attribute(*depthwise, "IFM"), std::string("int8 [1, 112, 112, 32] NHCWB16"));
        QCOMPARE(attribute(*depthwise, "OFM address"), std::string("region 1 + 0x62000"));
        QCOMPARE(attribute(*depthwise, "padding"), std::string("top 1, left 1, bottom 1, right 1"));
        QCOMPARE(attribute(*depthwise, "weights"), std::string("region 1 + 0xc4140, 336 bytes"));
        QCOMPARE(attribute(*depthwise, "clip"), std::string("[-29, -15]"));
        QCOMPARE(sources(g, *depthwise), (std::vector<std::string> { "776", "780" }));
        QCOMPARE(edgeBetween(g, *conv, *depthwise)->meta.shape, (std::vector<std::int64_t> { 1, 112, 112, 32 }));

        // Command 1024 @6428: 0x00010006 ELEMENTWISE mode 1 (add). 1002 IFM_BASE0 [0xf6a10],
        // 1003 DEPTH_M1 23, 1011 0x01450114 OFM int32 (size field 2) NHCWB16, 1014 IFM2_SCALAR 0,
        // 1017 0x00800180 IFM2_BROADCAST bit 7: the second operand is the scalar.
        const Node* add = atCommand(g, 1024);
        QVERIFY(add);
        QCOMPARE(add->opType, std::string("Add"));
        QCOMPARE(add->label, std::string("Add scalar"));
        QCOMPARE(attribute(*add, "IFM2"), std::string("scalar 0"));
        QCOMPARE(attribute(*add, "IFM address"), std::string("region 1 + 0xf6a10"));
        QVERIFY(attribute(*add, "OFM").starts_with("int32 ["));
        QVERIFY(attribute(*add, "OFM").ends_with("] NHCWB16"));
    }

    // mobilenetv2_lrn_int8_ethosu.pte delegate 0 (U85), decoded by hand from its words.
    void mobilenetU85ByHand()
    {
        const auto opened = open("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        QVERIFY(opened);
        const DelegateInfo& info = opened->analysis->delegates[0];
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(fact(info, "NPU architecture"), std::string("2.0.0")); // ID 0x20007000
        QCOMPARE(fact(info, "register map"), std::string("Ethos-U85 (from the OPTIMIZER_CONFIG word)"));

        // Command 47 @248: 0x00030005 POOL mode 3 (SUM). 0 0x00010105 IFM int8 NHWC, 2 IFM_BASE0
        // [0xc4000], 6–9 IFM 3×224 tiles and DEPTH_M1 223, strides y [0xc400] x [0xe0] c [1];
        // 19 0x19410114 OFM precision: signed 8-bit, bits 6–7 = 1 NHCWB16, bit 8 global scale,
        // bits 11–13 = 3 transpose WCH; 25–27 OFM H/W/D_M1 2, 223, 223: stored as 224×224×3.
        const Node* pool = atCommand(g, 47);
        QVERIFY(pool);
        QCOMPARE(pool->opType, std::string("SumPool"));
        QCOMPARE(attribute(*pool, "IFM"), std::string("int8 [1, 3, 224, 224] NHWC"));
        QCOMPARE(attribute(*pool, "IFM address"), std::string("region 1 + 0xc4000"));
        QCOMPARE(attribute(*pool, "OFM"), std::string("int8 [1, 224, 224, 3] NHCWB16"));
        QCOMPARE(attribute(*pool, "OFM transpose"), std::string("WCH (stored shape)"));
        QCOMPARE(sources(g, *pool), (std::vector<std::string> { "input 0" }));

        // Command 91 @512: 0x00000002 CONV. 55 0x00410105 IFM int8 NHCWB16, 56 IFM_BASE0 [0],
        // 57/58 HEIGHT0/1_M1 223, 59 DEPTH_M1 2, 60–62 strides y [0xe00] x [0x10] c [0xe00],
        // 63 0xfffe0109 zero point −2, 64/65 PAD_TOP/LEFT 1, 67 OFM_BASE0 [0xc4000], 68–70 OFM
        // 112×112×32, 75 0xff800118 zero point −128, 76/77 kernel 3×3, 78 0x00070122 stride 2×2
        // part-kernel first, 80–85 weights region 1 [0x126140] [0x4d0], scales [0x126000] [0x140],
        // 86–88 block H/W/D_M1 3, 15, 31.
        const Node* conv = atCommand(g, 91);
        QVERIFY(conv);
        QCOMPARE(conv->label, std::string("Conv 3×3 /2"));
        QCOMPARE(attribute(*conv, "IFM"), std::string("int8 [1, 224, 224, 3] NHCWB16"));
        QCOMPARE(attribute(*conv, "IFM zero point"), std::string("-2"));
        QCOMPARE(attribute(*conv, "OFM"), std::string("int8 [1, 112, 112, 32] NHCWB16"));
        QCOMPARE(attribute(*conv, "OFM address"), std::string("region 1 + 0xc4000"));
        QCOMPARE(attribute(*conv, "OFM zero point"), std::string("-128"));
        QCOMPARE(attribute(*conv, "weights"), std::string("region 1 + 0x126140, 1232 bytes"));
        QCOMPARE(attribute(*conv, "scales"), std::string("region 1 + 0x126000, 320 bytes"));
        QCOMPARE(attribute(*conv, "block (h×w×c)"), std::string("4×16×32"));
        // The transposed pool output and the DMA of command 53 (region 0 + 0 → 0x126000, 0x610).
        QCOMPARE(sources(g, *conv), (std::vector<std::string> { "47", "53" }));

        // Command 341 @1940: 0x00010006 add. 320 IFM_BASE0 [0], 324–326 tiles 55 (56×56),
        // 327–329 strides y [0x700] x [0x10] c [0x380], 330 zero point 10, 333 OFM_BASE0
        // [0x18800], 335 zero point 19, 336 0x80410185: IFM2 int8 NHCWB16 with storage bits
        // 14–15 = 2, chained: its second operand is the OFM of the conv of command 314, whose
        // OFM precision 0x8041 (set earlier) says chained too; the edge runs inside the NPU.
        const Node* add = atCommand(g, 341);
        QVERIFY(add);
        QCOMPARE(attribute(*add, "IFM2 storage"), std::string("chained"));
        QCOMPARE(attribute(*add, "IFM address"), std::string("region 1 + 0x0"));
        QCOMPARE(attribute(*add, "IFM zero point"), std::string("10"));
        QCOMPARE(attribute(*add, "OFM address"), std::string("region 1 + 0x18800"));
        QCOMPARE(attribute(*add, "IFM scale"), std::string("scale 524288, shift 0")); // 315: [0x80000]
        const auto addSources = sources(g, *add);
        QCOMPARE(addSources.size(), std::size_t(2));
        QCOMPARE(addSources.back(), std::string("314"));
        QCOMPARE(attribute(*atCommand(g, 314), "OFM storage"), std::string("chained"));
    }

    // The U55 fixture: conv 3×3 pad 1 → DMA → add → max pool 2×2 /2, every word in the writer.
    void u55Fixture()
    {
        const EthosUPayloadSpec spec = ethosUFixtureU55();
        const DelegateInfo info = describe(writeEthosUPayload(spec), "ethos-u55-128");
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(info.format, std::string("ethos-u"));
        QCOMPARE(fact(info, "NPU operations"), std::string("4 (1 conv, 1 max pool, 1 add, 1 DMA)"));
        QCOMPARE(info.summary,
            std::string("Ethos-U55, 128 MACs/cycle, 24 KiB SHRAM: 4 NPU operations (1 conv, 1 max pool, 1 add, 1 "
                        "DMA), 1 input, 1 output"));
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(g.nodes.size(), std::size_t(6)); // input, conv, DMA, add, pool, output (the STOP is no node)
        const Node& input = g.nodes[0];
        const Node& conv = g.nodes[1];
        const Node& dma = g.nodes[2];
        const Node& add = g.nodes[3];
        const Node& pool = g.nodes[4];
        const Node& output = g.nodes[5];
        QCOMPARE(conv.opType, std::string("Conv"));
        QCOMPARE(conv.label, std::string("Conv 3×3"));
        // IFM extent (8 − 1)·1 + 3 − 1 − 1 = 8 rows and columns; 4 channels from DEPTH_M1 3.
        QCOMPARE(attribute(conv, "IFM"), std::string("int8 [1, 8, 8, 4] NHWC"));
        QCOMPARE(attribute(conv, "IFM zero point"), std::string("-3"));
        QCOMPARE(attribute(conv, "OFM"), std::string("int8 [1, 8, 8, 8] NHWC"));
        QCOMPARE(attribute(conv, "OFM address"), std::string("region 1 + 0x100"));
        QCOMPARE(attribute(conv, "padding"), std::string("top 1, left 1, bottom 1, right 1"));
        QCOMPARE(attribute(conv, "weights"), std::string("region 0 + 0x0, 288 bytes"));
        QCOMPARE(attribute(conv, "scales"), std::string("region 0 + 0x200, 80 bytes"));
        QCOMPARE(attribute(conv, "block (h×w×c)"), std::string("8×8×8"));
        QCOMPARE(attribute(dma, "length"), std::string("512 bytes"));
        QCOMPARE(add.opType, std::string("Add"));
        QCOMPARE(attribute(add, "IFM2"), std::string("int8 [1, 8, 8, 8] NHWC"));
        QCOMPARE(attribute(add, "IFM2 zero point"), std::string("-2"));
        QCOMPARE(attribute(add, "IFM2 broadcast"), std::string("none"));
        QCOMPARE(attribute(add, "OFM scale"), std::string("scale 1073741824, shift 30"));
        QCOMPARE(attribute(add, "clip"), std::string("[0, 127]"));
        QCOMPARE(pool.opType, std::string("MaxPool"));
        QCOMPARE(pool.label, std::string("MaxPool 2×2 /2"));
        QCOMPARE(attribute(pool, "OFM"), std::string("int8 [1, 4, 4, 8] NHWC"));
        // Data flow: input [0, 256) → conv → [0x100, 0x300) → add ← DMA [0x300, 0x500); add
        // [0x500, 0x700) → pool [0x700, 0x780) → output (offset 0x700, 128 bytes).
        QCOMPARE(g.edges.size(), std::size_t(5));
        QVERIFY(edgeBetween(g, input, conv));
        QVERIFY(edgeBetween(g, conv, add));
        QVERIFY(edgeBetween(g, dma, add));
        QVERIFY(edgeBetween(g, add, pool));
        QVERIFY(edgeBetween(g, pool, output));
        QCOMPARE(edgeBetween(g, input, conv)->meta.shape, (std::vector<std::int64_t> { 1, 8, 8, 4 }));
        QCOMPARE(edgeBetween(g, dma, add)->meta.dtype, std::string("int8")); // the reader's type
        QCOMPARE(edgeBetween(g, pool, output)->meta.shape, (std::vector<std::int64_t> { 1, 4, 4, 8 }));
        QCOMPARE(output.argPosition, 1);
    }

    // The U85 fixture: stride 3 through the extension bits, broadcast, global scale, resize.
    void u85Fixture()
    {
        const DelegateInfo info = describe(writeEthosUPayload(ethosUFixtureU85()), "ethos-u85-256");
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "NPU operations"), std::string("5 (1 conv, 1 avg pool, 1 add, 1 nearest resize, 1 DMA)"));
        QVERIFY(info.innerGraph);
        const Graph& g = *info.innerGraph;
        QCOMPARE(g.nodes.size(), std::size_t(7)); // the STOP is no node
        const Node& input = g.nodes[0];
        const Node& conv = g.nodes[1];
        const Node& dma = g.nodes[2];
        const Node& add = g.nodes[3];
        const Node& pool = g.nodes[4];
        const Node& resize = g.nodes[5];
        const Node& output = g.nodes[6];
        // KERNEL_STRIDE 0x0244: bits 6 and 9 add 2 to each stride, bit 2 part-kernel first.
        QCOMPARE(conv.label, std::string("Conv 3×3 /3"));
        QCOMPARE(attribute(conv, "stride"), std::string("3×3"));
        QCOMPARE(attribute(conv, "weight order"), std::string("part-kernel first"));
        QCOMPARE(attribute(conv, "IFM"), std::string("int8 [1, 9, 9, 4] NHWC")); // (3 − 1)·3 + 3
        QCOMPARE(attribute(conv, "OFM"), std::string("int8 [1, 3, 3, 8] NHWC"));
        QCOMPARE(attribute(add, "IFM2"), std::string("int8 [1, 3, 3, 1] NHWC")); // broadcast mode 4
        QCOMPARE(attribute(add, "IFM2 broadcast"), std::string("C"));
        QCOMPARE(attribute(add, "IFM2 zero point"), std::string("3"));
        QCOMPARE(attribute(add, "OFM scale"), std::string("scale 536870912, shift 30"));
        QCOMPARE(pool.opType, std::string("AvgPool"));
        QCOMPARE(attribute(pool, "OFM scale"), std::string("scale 536870912, shift 30")); // global
        QCOMPARE(attribute(pool, "scales"), std::string("(no attribute 'scales')"));
        QCOMPARE(resize.opType, std::string("Resize nearest"));
        QCOMPARE(attribute(resize, "IFM"), std::string("int8 [1, 1, 1, 8] NHWC"));
        QCOMPARE(attribute(resize, "OFM"), std::string("int8 [1, 2, 2, 8] NHWC"));
        QCOMPARE(attribute(resize, "resize scale (x, y)"), std::string("2, 2"));
        QCOMPARE(g.edges.size(), std::size_t(6));
        QVERIFY(edgeBetween(g, input, conv));
        QVERIFY(edgeBetween(g, conv, add));
        QVERIFY(edgeBetween(g, dma, add));
        QVERIFY(edgeBetween(g, add, pool));
        QVERIFY(edgeBetween(g, pool, resize));
        QVERIFY(edgeBetween(g, resize, output));
        // The compile spec names the map when the framing has no config word.
        EthosUPayloadSpec bare = ethosUFixtureU85();
        bare.configWord = 0x70000000; // product 7: unknown
        const DelegateInfo byTarget = describe(writeEthosUPayload(bare), "ethos-u85-256");
        QCOMPARE(fact(byTarget, "register map"), std::string("Ethos-U85 (from the compile spec target ethos-u85-256)"));
        QCOMPARE(fact(byTarget, "NPU operations"), fact(info, "NPU operations"));
    }

    // A command the map lacks becomes a node saying so, and decoding goes on.
    void unknownCommand_data()
    {
        QTest::addColumn<bool>("u85");
        QTest::addColumn<std::string>("label");
        QTest::addColumn<std::uint32_t>("word");
        QTest::addRow("resize on a U55") << false << std::string("Unknown command 0x7") << 0x00020007u;
        QTest::addRow("IFM2 scalar on a U85") << true << std::string("Unknown command 0x181") << 0x00090181u;
    }

    void unknownCommand()
    {
        QFETCH(bool, u85);
        QFETCH(std::string, label);
        QFETCH(std::uint32_t, word);
        const EthosUPayloadSpec spec = u85 ? ethosUFixtureU85(true) : ethosUFixtureU55(true);
        const DelegateInfo info = describe(writeEthosUPayload(spec), u85 ? "ethos-u85-256" : "ethos-u55-128");
        QVERIFY(info.innerGraph);
        const auto [index, offset] = findCommand(spec.commands, word & 0xFFFF);
        QVERIFY(index > 0);
        const std::string where = "command " + std::to_string(index) + " at byte " + std::to_string(offset) + " (0x" +
            [&] {
                char b[16];
                std::snprintf(b, sizeof b, "%x", word);
                return std::string(b);
            }()
            + ") is not in the";
        QVERIFY2(anyWarning(info, where), where.c_str());
        QCOMPARE(info.warnings.size(), std::size_t(1));
        const Node* unknown = firstOfKind(*info.innerGraph, NodeKind::Unknown);
        QVERIFY(unknown);
        QCOMPARE(unknown->label, label);
        QCOMPARE(fact(info, "unknown commands"), std::string("1"));
        // Everything after it still decodes: the same operations as the clean fixture.
        const DelegateInfo clean = describe(writeEthosUPayload(u85 ? ethosUFixtureU85() : ethosUFixtureU55()), "");
        QCOMPARE(fact(info, "NPU operations"), fact(clean, "NPU operations"));
        QCOMPARE(info.innerGraph->operatorCount(), clean.innerGraph->operatorCount());
    }

    // A stream cut inside a long command: the operations before the cut, and warnings naming the
    // framing's claim and the command cut short.
    void truncatedStream()
    {
        EthosUPayloadSpec spec = ethosUFixtureU55();
        // Cut after the first word of OFM_SCALE (0x4024), before the add: its payload is gone.
        const auto [index, offset] = findCommand(spec.commands, 0x4024);
        QVERIFY(index > 0);
        spec.commandDataBytes = 32 + offset + 4;
        const DelegateInfo info = describe(writeEthosUPayload(spec), "ethos-u55-128");
        QVERIFY(info.innerGraph);
        QCOMPARE(fact(info, "NPU operations"), std::string("2 (1 conv, 1 DMA)"));
        QVERIFY(anyWarning(info,
            "the COMMAND_STREAM action announces " + std::to_string(spec.commands.size())
                + " words but the block holds " + std::to_string(offset / 4 + 1)));
        const std::string cut = "command " + std::to_string(index) + " at byte " + std::to_string(offset)
            + " is cut short: its payload word is missing";
        QVERIFY2(anyWarning(info, cut), cut.c_str());
        QVERIFY(anyWarning(info, "without NPU_OP_STOP"));
        // The output is then written by nobody, and says so.
        QVERIFY(anyWarning(info, "output 0 (region 1, 128 bytes at offset 1792) is written by no NPU operation"));
        // Warnings carry the file offset of the cut command: payload 0 + cmd_data at 64 + 32.
        bool located = false;
        for (const Warning& w : info.warnings)
            located = located
                || (w.message.find("cut short: its payload") != std::string::npos && w.offset == 64 + 32 + offset);
        QVERIFY(located);
    }

    // regor's COP2 framing carries the same stream: the same graph.
    void cop2Framing()
    {
        EthosUPayloadSpec spec = ethosUFixtureU85();
        spec.cop2 = true;
        const DelegateInfo info = describe(writeEthosUPayload(spec), "ethos-u85-256");
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "command stream").substr(fact(info, "command stream").size() - 4), std::string("COP2"));
        // 16-byte header, 8-byte entry, 16 + 20 bytes of metadata, 4 bytes of padding.
        QCOMPARE(fact(info, "commands").substr(fact(info, "commands").find('(')),
            "(" + std::to_string(spec.commands.size()) + " words at byte 64 of cmd_data)");
        QCOMPARE(
            fact(info, "NPU"), std::string("Ethos-U85, 256 MACs/cycle, command stream version 1 (CONFIG 0x20000118)"));
        QCOMPARE(fact(info, "NPU operations"), std::string("5 (1 conv, 1 avg pool, 1 add, 1 nearest resize, 1 DMA)"));
    }

    // Framing damage: no COP1, a length past the block, no COMMAND_STREAM.
    void damagedFraming()
    {
        EthosUPayloadSpec spec = ethosUFixtureU55();
        spec.announcedWords = 0x00123456; // high byte 0x12 in the reserved byte
        DelegateInfo info = describe(writeEthosUPayload(spec), "ethos-u55-128");
        QVERIFY(anyWarning(info, "announces 1193046 words but the block holds"));
        QCOMPARE(fact(info, "NPU operations"), std::string("4 (1 conv, 1 max pool, 1 add, 1 DMA)"));

        auto bytes = writeEthosUPayload(ethosUFixtureU55());
        std::memcpy(bytes.data() + 64, "XYZW", 4);
        info = describe(bytes, "ethos-u55-128");
        QVERIFY(!info.innerGraph);
        QVERIFY(anyWarning(info, "the command stream starts with XYZW, not COP1 or COP2"));
        QCOMPARE(fact(info, "inputs"), std::string("1")); // the other blocks are still read
    }

    // The decode of the largest real stream (mobilenet_v2, 7272 words, 666 operations) stays far
    // below a frame: measured, and bounded generously for slow CI machines.
    void decodeTime()
    {
        const auto opened = open("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        QVERIFY(opened);
        const Program& program = *opened->document.program;
        const DelegateRef& ref = program.methods.front().delegates.front();
        const auto payload = program.file->bytes().subspan(ref.payload.offset, ref.payload.size);
        constexpr int kRuns = 20;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < kRuns; ++i)
            QVERIFY(describePayload(program, ref, payload, {}, "timing").innerGraph);
        const double ms
            = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / kRuns;
        qInfo("mobilenet_v2_ethosu: %.2f ms per describe (decode + graph)", ms);
        QVERIFY2(ms < 1000, std::to_string(ms).c_str());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestEthosUDelegate)
#include "tst_ethosudelegate.moc"
