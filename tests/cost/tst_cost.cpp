// SPDX-License-Identifier: MIT
// core/cost: every rule against values computed by hand here (the formula is written out in
// each test), on writer-made programs (top level, XNNPACK, Ethos-U) and on the real samples
// (every Conv2D of the Ethos-U and XNNPACK samples recomputed from its shapes).
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "tests/common/velafixtures.h"
#include "tests/common/writertensors.h"

#include "core/cost/cost.h"
#include "core/cost/costreport.h"
#include "core/cost/costrules.h"
#include "core/cost/costvendor.h"
#include "core/cost/ethosucost.h"
#include "core/writer/payloads/ethosupayloadwriter.h"
#include "core/writer/programwriter.h"
#include "core/writer/vendorlogwriter.h"
#include "core/writer/xnnpackwriter.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace etscope::core;
using namespace etscope::core::cost;

namespace {

using etscope::test::floatTensor;

std::int32_t intList(MethodSpec& m, std::vector<std::int64_t> items)
{
    std::vector<std::int64_t> indices;
    for (const std::int64_t item : items)
        indices.push_back(m.addValue(ValueSpec::integer(item)));
    return m.addValue(ValueSpec::intList(indices));
}

const NodeCost* row(const CostReport& report, std::string_view opType, int delegate = -1)
{
    for (const NodeCost& n : report.nodes)
        if (n.opType == opType && n.delegate == delegate)
            return &n;
    return nullptr;
}

Result<CostReport> costOf(const ProgramSpec& spec, const std::string& name)
{
    auto bytes = writeProgram(spec);
    if (!bytes)
        return bytes.error();
    auto document = etscope::test::documentFromBytes(*bytes, name);
    if (!document)
        return makeError(Error::Code::Corrupt, name, "the written program does not open");
    return computeCost(*document);
}

CompileSpec textSpec(const std::string& key, const std::string& value)
{
    CompileSpec spec;
    spec.key = key;
    spec.value.assign(value.begin(), value.end());
    return spec;
}

std::uint64_t product(const std::vector<std::int64_t>& shape, std::size_t from = 0)
{
    std::uint64_t n = 1;
    for (std::size_t i = from; i < shape.size(); ++i)
        n *= static_cast<std::uint64_t>(shape[i]);
    return n;
}

/// A program whose one method is the Ethos-U55 fixture stream as a delegate
/// (core/writer/payloads/ethosupayloadwriter.cpp), built for ethos-u55-128 with
/// Ethos_U55_High_End_Embedded / Shared_Sram.
ProgramSpec ethosUProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    TensorSpec in = floatTensor({ 1, 8, 8, 4 });
    in.scalarType = scalar_type::Char;
    TensorSpec out = floatTensor({ 1, 4, 4, 8 });
    out.scalarType = scalar_type::Char;
    const std::int32_t a = m.addTensor(in);
    const std::int32_t b = m.addTensor(out);
    m.inputs = { a };
    m.outputs = { b };
    DelegateSpec delegate;
    delegate.backendId = "EthosUBackend";
    delegate.payload = writeEthosUPayload(ethosUFixtureU55());
    delegate.compileSpecs = { textSpec("target", "ethos-u55-128"),
        textSpec("compile_flags",
            "--accelerator-config=ethos-u55-128 --config=Arm/vela.ini --system-config=Ethos_U55_High_End_Embedded "
            "--memory-mode=Shared_Sram") };
    m.addInstruction(InstructionSpec::delegate(m.addDelegate(delegate), { a, b }));
    return spec;
}

std::optional<std::string> vendorValue(const std::vector<Attribute>& list, std::string_view name)
{
    for (const Attribute& a : list)
        if (a.name == name)
            return a.value;
    return std::nullopt;
}

/// Writes `text` to `dir`/`name` and returns the path.
std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file) {
        std::fwrite(text.data(), 1, text.size(), file);
        std::fclose(file);
    }
    return path;
}

} // namespace

class TestCost : public QObject {
    Q_OBJECT

private slots:
    void rules()
    {
        // Conv 2-D: N·Cout·Hout·Wout · (Cin/groups)·kh·kw = 1·16·32·32 · 3·3·3.
        QCOMPARE(dotProductWork(Shape { 1, 16, 32, 32 }, Shape { 3, 3, 3 }, "").macs, std::uint64_t(442368));
        // Grouped (groups 4, Cin 16): Cin/groups = 4 → 1·32·8·8 · 4·3·3 = 73728.
        QCOMPARE(dotProductWork(Shape { 1, 32, 8, 8 }, Shape { 4, 3, 3 }, "").macs, std::uint64_t(73728));
        // Depthwise: Cin/groups = 1 → 1·32·16·16 · 1·3·3 = 73728.
        QCOMPARE(dotProductWork(Shape { 1, 32, 16, 16 }, Shape { 1, 3, 3 }, "").macs, std::uint64_t(73728));
        // Transposed: N·Cin·Hin·Win · (Cout/groups)·kh·kw = 1·8·4·4 · 16·2·2 = 8192.
        QCOMPARE(transposedConvolutionWork(Shape { 1, 8, 4, 4 }, 16, Shape { 2, 2 }).macs, std::uint64_t(8192));
        // Linear [2, 20] × [10, 20]ᵀ → [2, 10]: 2·10 · 20 = 400; bmm [4, 8, 32] × [4, 32, 16]: 4·8·16 · 32.
        QCOMPARE(dotProductWork(Shape { 2, 10 }, Shape { 20 }, "").macs, std::uint64_t(400));
        QCOMPARE(dotProductWork(Shape { 4, 8, 16 }, Shape { 32 }, "").macs, std::uint64_t(16384));
        // Pooling 2×2 to [1, 8, 4, 4]: 128 outputs · 4 = 512 ops, no MACs.
        const Work pool = poolingWork(Shape { 1, 8, 4, 4 }, Shape { 2, 2 });
        QCOMPARE(pool.ops, std::uint64_t(512));
        QCOMPARE(pool.macs, std::uint64_t(0));
        QCOMPARE(elementwiseWork(Shape { 2, 3, 4 }).ops, std::uint64_t(24));
        QCOMPARE(reductionWork(Shape { 2, 3, 4 }).ops, std::uint64_t(24));
        QCOMPARE(softmaxWork(Shape { 2, 10 }).ops, std::uint64_t(100)); // 5 per element
        QCOMPARE(layerNormWork(Shape { 2, 10 }).ops, std::uint64_t(120)); // 6 per element
        QCOMPARE(rmsNormWork(Shape { 2, 10 }).ops, std::uint64_t(60)); // 3 per element
        // Attention q [1, 8, 16, 64], k, v [1, 8, 32, 64]: B = 8, L = 16, S = 32, E = Ev = 64:
        // 8·16·32·64 + 8·16·32·64 = 524288 MACs; 5·8·16·32 = 20480 ops.
        const Work sdpa = attentionWork(Shape { 1, 8, 16, 64 }, Shape { 1, 8, 32, 64 }, Shape { 1, 8, 32, 64 });
        QCOMPARE(sdpa.macs, std::uint64_t(524288));
        QCOMPARE(sdpa.ops, std::uint64_t(20480));
        // Data movement counts nothing, and says so.
        QVERIFY(dataMovementWork().ok());
        QCOMPARE(dataMovementWork().macs + dataMovementWork().ops, std::uint64_t(0));
        // A dynamic dimension or an overflow is "no shape", never a number.
        QVERIFY(!dotProductWork(Shape { 1, -1, 4 }, Shape { 3 }, "").ok());
        QVERIFY(!dotProductWork(Shape { 1ll << 40, 1ll << 30 }, Shape { 1 << 20 }, "").ok());
        QVERIFY(!elementCount(Shape { -2 }));
    }

    void dtypesAndText()
    {
        QCOMPARE(dtypeBits("FLOAT").value_or(0), 32);
        QCOMPARE(dtypeBits("fp32").value_or(0), 32);
        QCOMPARE(dtypeBits("INT8").value_or(0), 8);
        QCOMPARE(dtypeBits("qcint4").value_or(0), 4);
        QCOMPARE(dtypeBits("bf16").value_or(0), 16);
        QCOMPARE(dtypeBits("Half").value_or(0), 16);
        QVERIFY(!dtypeBits("mystery"));
        QCOMPARE(tensorBytes("qcint4", Shape { 3 }).value_or(0), std::uint64_t(2)); // ⌈3·4 / 8⌉
        QCOMPARE(tensorBytes("int16", Shape { 2, 3 }).value_or(0), std::uint64_t(12));
        const auto meta = parseMetaText("value 3: fp32 [1, 3, 224, 224], qint8 scale 0.5");
        QVERIFY(meta);
        QCOMPARE(meta->dtype, std::string("fp32"));
        QCOMPARE(meta->shape, (Shape { 1, 3, 224, 224 }));
        QVERIFY(!parseMetaText("x: fp32 [s0, 4]")); // a symbolic dimension: no shape
        QCOMPARE(parseIntList("3 × 3").value_or(Shape {}), (Shape { 3, 3 }));
        QCOMPARE(parseIntList("3×2").value_or(Shape {}), (Shape { 3, 2 }));
    }

    // Top-level kernels of a writer-made program, bytes and all.
    void topLevel()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t input = m.addTensor(floatTensor({ 1, 3, 32, 32 }));
        const std::int32_t weight = m.addTensor(floatTensor({ 16, 3, 3, 3 }, true));
        const std::int32_t bias = m.addTensor(floatTensor({ 16 }, true));
        const std::int32_t ones = intList(m, { 1, 1 });
        const std::int32_t zeros = intList(m, { 0, 0 });
        const std::int32_t transposed = m.addValue(ValueSpec::boolean(false));
        const std::int32_t groups = m.addValue(ValueSpec::integer(1));
        const std::int32_t convOut = m.addTensor(floatTensor({ 1, 16, 32, 32 }));
        const std::int32_t dim = m.addValue(ValueSpec::integer(1));
        const std::int32_t no = m.addValue(ValueSpec::boolean(false));
        const std::int32_t softmaxOut = m.addTensor(floatTensor({ 1, 16, 32, 32 }));
        const std::int32_t mysteryOut = m.addTensor(floatTensor({ 1, 16, 32, 32 }));
        const std::int32_t mat1 = m.addTensor(floatTensor({ 2, 20 }));
        const std::int32_t mat2 = m.addTensor(floatTensor({ 20, 10 }, true));
        const std::int32_t addBias = m.addTensor(floatTensor({ 10 }, true));
        const std::int32_t one = m.addValue(ValueSpec::integer(1));
        const std::int32_t addmmOut = m.addTensor(floatTensor({ 2, 10 }));
        m.inputs = { input, mat1 };
        m.outputs = { mysteryOut, addmmOut };
        m.addInstruction(InstructionSpec::kernel(m.addOperator("aten::convolution", "out"),
            { input, weight, bias, ones, ones, ones, transposed, zeros, groups, convOut, convOut }));
        m.addInstruction(InstructionSpec::kernel(
            m.addOperator("aten::_softmax", "out"), { convOut, dim, no, softmaxOut, softmaxOut }));
        m.addInstruction(
            InstructionSpec::kernel(m.addOperator("custom::mystery", "out"), { softmaxOut, mysteryOut, mysteryOut }));
        m.addInstruction(InstructionSpec::kernel(
            m.addOperator("aten::addmm", "out"), { addBias, mat1, mat2, one, one, addmmOut, addmmOut }));
        m.computeArenaSizes();
        const auto report = costOf(spec, "toplevel.pte");
        QVERIFY2(report, report ? "" : report.error().message().c_str());

        const NodeCost* conv = row(*report, "aten::convolution.out");
        QVERIFY(conv);
        QCOMPARE(conv->status, CostStatus::Counted);
        QCOMPARE(std::string(conv->kind), std::string("convolution"));
        // N·Cout·Hout·Wout·(Cin/groups)·kh·kw = 1·16·32·32·3·3·3.
        QCOMPARE(conv->macs, std::uint64_t(1 * 16 * 32 * 32 * 3 * 3 * 3));
        // Read: input 1·3·32·32·4 = 12288, weight 16·3·3·3·4 = 1728, bias 16·4 = 64; written 1·16·32·32·4.
        QCOMPARE(conv->bytesRead.value_or(0), std::uint64_t(12288 + 1728 + 64));
        QCOMPARE(conv->bytesWritten.value_or(0), std::uint64_t(65536));
        QCOMPARE(conv->parameterBytes, std::uint64_t(1728 + 64));
        QVERIFY(conv->intensity());
        QVERIFY(std::abs(*conv->intensity() - 442368.0 / (14080 + 65536)) < 1e-9);

        const NodeCost* softmax = row(*report, "aten::_softmax.out");
        QVERIFY(softmax);
        QCOMPARE(softmax->ops, std::uint64_t(5 * 16 * 32 * 32));
        QCOMPARE(softmax->macs, std::uint64_t(0));

        const NodeCost* mystery = row(*report, "custom::mystery.out");
        QVERIFY(mystery);
        QCOMPARE(mystery->status, CostStatus::NoRule);
        QVERIFY(mystery->reason.find("no cost rule") != std::string::npos);

        const NodeCost* addmm = row(*report, "aten::addmm.out");
        QVERIFY(addmm);
        QCOMPARE(addmm->macs, std::uint64_t(2 * 10 * 20)); // M·N·K

        QCOMPARE(report->total.nodes, std::size_t(4));
        QCOMPARE(report->total.noRule, std::size_t(1));
        QCOMPARE(report->total.macs, std::uint64_t(442368 + 400));
        QCOMPARE(report->cpu.macs, report->total.macs);
        // JSON: what was not counted is null, never 0.
        const nlohmann::json json = costJson(*report);
        bool sawNull = false;
        for (const auto& node : json.at("nodes"))
            if (node.at("op_type") == "custom::mystery.out")
                sawNull = node.at("macs").is_null() && node.at("status") == "no rule";
        QVERIFY(sawNull);
    }

    // XNNPACK nodes: conv (from kernel and group input channels) and fully connected.
    void xnnpackNodes()
    {
        XnnGraphSpec g;
        const std::uint32_t in = g.addExternalInput(xnn::datatype::Fp32, { 1, 8, 8, 3 });
        const std::uint32_t filter
            = g.addConstant(xnn::datatype::Fp32, { 16, 3, 3, 3 }, std::vector<std::uint8_t>(1728));
        const std::uint32_t bias = g.addConstant(xnn::datatype::Fp32, { 16 }, std::vector<std::uint8_t>(64));
        const std::uint32_t convOut = g.addInternal(xnn::datatype::Fp32, { 1, 8, 8, 16 });
        XnnWindowSpec window;
        window.height = window.width = 3;
        window.paddingTop = window.paddingRight = window.paddingBottom = window.paddingLeft = 1;
        window.groupInputChannels = 3;
        window.groupOutputChannels = 16;
        g.addNode(XnnNodeSpec::conv2d(in, filter, bias, convOut, window));
        const std::uint32_t flat = g.addInternal(xnn::datatype::Fp32, { 64, 16 });
        XnnNodeSpec reshape;
        reshape.type = XnnNodeType::StaticReshape;
        reshape.inputs = { convOut };
        reshape.outputs = { flat };
        reshape.list = { 64, 16 };
        g.addNode(reshape);
        const std::uint32_t fcWeight = g.addConstant(xnn::datatype::Fp32, { 10, 16 }, std::vector<std::uint8_t>(640));
        const std::uint32_t out = g.addExternalOutput(xnn::datatype::Fp32, { 64, 10 });
        g.addNode(XnnNodeSpec::fullyConnected(flat, fcWeight, xnn::kInvalidId, out));
        g.inputIds = { in };
        g.outputIds = { out };
        const auto payload = writeXnnpackPayload(g);
        QVERIFY(payload);

        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t a = m.addTensor(floatTensor({ 1, 8, 8, 3 }));
        const std::int32_t b = m.addTensor(floatTensor({ 64, 10 }));
        m.inputs = { a };
        m.outputs = { b };
        DelegateSpec delegate;
        delegate.backendId = "XnnpackBackend";
        delegate.payload = *payload;
        m.addInstruction(InstructionSpec::delegate(m.addDelegate(delegate), { a, b }));
        const auto report = costOf(spec, "xnnpack.pte");
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        const NodeCost* conv = row(*report, "XNNConv2d", 0);
        QVERIFY(conv);
        // 1·8·8·16 outputs · 3 (group input channels)·3·3.
        QCOMPARE(conv->macs, std::uint64_t(1 * 8 * 8 * 16 * 3 * 3 * 3));
        // Read: input 1·8·8·3·4 = 768, filter 1728, bias 64; written 1·8·8·16·4 = 4096.
        QCOMPARE(conv->bytesRead.value_or(0), std::uint64_t(768 + 1728 + 64));
        QCOMPARE(conv->bytesWritten.value_or(0), std::uint64_t(4096));
        QCOMPARE(conv->parameterBytes, std::uint64_t(1792));
        const NodeCost* fc = row(*report, "XNNFullyConnected", 0);
        QVERIFY(fc);
        QCOMPARE(fc->macs, std::uint64_t(64 * 10 * 16)); // M·N·K
        const NodeCost* moved = row(*report, "XNNStaticReshape", 0);
        QVERIFY(moved);
        QCOMPARE(std::string(moved->kind), std::string("data movement"));
        QCOMPARE(report->delegates.size(), std::size_t(1));
        QCOMPARE(report->delegates[0].totals.macs, std::uint64_t(27648 + 10240));
        QCOMPARE(report->cpu.nodes, std::size_t(0));
        bool backend = false;
        for (const CostTotals& t : report->perBackend)
            backend = backend || (t.name == "XnnpackBackend" && t.macs == 27648 + 10240);
        QVERIFY(backend);
    }

    // The Ethos-U55 fixture stream (core/writer/payloads/ethosupayloadwriter.cpp: conv 3×3 8×8×4 →
    // 8×8×8, DMA 512 bytes, add 8×8×8, max pool 2×2 → 4×4×8) built for ethos-u55-128 with
    // Ethos_U55_High_End_Embedded / Shared_Sram: Axi0 = SRAM, 8 bytes/cycle (64-bit AXI · 1.0),
    // Axi1 = flash, 1 byte/cycle (8 · 0.125); weights and scales (region 0) on Axi1, arena on Axi0.
    void ethosUKicks()
    {
        const ProgramSpec spec = ethosUProgram();
        const auto report = costOf(spec, "ethosu.pte");
        QVERIFY2(report, report ? "" : report.error().message().c_str());

        const NodeCost* conv = row(*report, "Conv", 0);
        QVERIFY(conv);
        // OFM 1·8·8·8 · IFM depth 4 · 3·3 = 18432 MACs.
        QCOMPARE(conv->macs, std::uint64_t(8 * 8 * 8 * 4 * 3 * 3));
        // IFM 8·8·4 = 256 + weights 0x120 = 288 + scales 0x50 = 80 read; OFM 8·8·8 = 512 written.
        QCOMPARE(conv->bytesRead.value_or(0), std::uint64_t(256 + 288 + 80));
        QCOMPARE(conv->bytesWritten.value_or(0), std::uint64_t(512));
        QCOMPARE(conv->parameterBytes, std::uint64_t(368));
        // Estimate: compute ⌈18432 / 128⌉ = 144; Axi1 368 bytes / 1 = 368; Axi0 (256 + 512) / 8 = 96.
        QVERIFY(conv->estimate);
        QCOMPARE(conv->estimate->computeCycles.value_or(0), std::uint64_t(144));
        QCOMPARE(conv->estimate->memoryCycles.value_or(0), std::uint64_t(368));
        QCOMPARE(conv->estimate->cycles, std::uint64_t(368));
        QCOMPARE(conv->estimate->bound, std::string("memory"));

        const NodeCost* add = row(*report, "Add", 0);
        QVERIFY(add);
        QCOMPARE(add->ops, std::uint64_t(8 * 8 * 8)); // one per OFM element
        QCOMPARE(add->bytesRead.value_or(0), std::uint64_t(1024)); // IFM and IFM2, 512 each
        // ⌈512 / 128⌉ = 4 compute; (1024 + 512) / 8 = 192 on Axi0.
        QCOMPARE(add->estimate->cycles, std::uint64_t(192));

        const NodeCost* pool = row(*report, "MaxPool", 0);
        QVERIFY(pool);
        QCOMPARE(pool->ops, std::uint64_t(4 * 4 * 8 * 2 * 2)); // OFM 4·4·8 · window 2·2
        // IFM 8·8·8 = 512 and the per-channel scales (80, region 0) read; OFM 4·4·8 = 128 written.
        QCOMPARE(pool->bytesRead.value_or(0), std::uint64_t(592));
        // Axi0 (512 + 128) / 8 = 80; Axi1 80 / 1 = 80; compute ⌈512 / 128⌉ = 4.
        QCOMPARE(pool->estimate->cycles, std::uint64_t(80));

        const NodeCost* dma = row(*report, "DMA", 0);
        QVERIFY(dma);
        QCOMPARE(std::string(dma->kind), std::string("data movement"));
        // 512 bytes from region 0 (Axi1, 1 byte/cycle) to region 1 (Axi0): 512 cycles.
        QCOMPARE(dma->estimate->cycles, std::uint64_t(512));

        // Three operators: the conv, the add with the DMA that fetched its operand, the pool.
        QCOMPARE(report->npuOperators.size(), std::size_t(3));
        QCOMPARE(report->npuOperators[1].nodes.size(), std::size_t(2));
        QCOMPARE(report->delegates[0].totals.estimatedCycles.value_or(0), std::uint64_t(368 + 512 + 192 + 80));
        QVERIFY(report->delegates[0].npu);
        QCOMPARE(report->delegates[0].npu->macsPerCycle, 128);
        QCOMPARE(portBytesPerCycle(*report->delegates[0].npu, 0), 8.0);
        QCOMPARE(portBytesPerCycle(*report->delegates[0].npu, 1), 1.0);
    }

    // Damaged Ethos-U payloads: a stream cut inside a command and bytes that are no
    // vela_bin_stream are counted as far as they go, or not at all with the reason, never a crash.
    void ethosUDamaged()
    {
        for (const std::size_t cut : { std::size_t(0), std::size_t(7), std::size_t(40), std::size_t(200) }) {
            EthosUPayloadSpec fixture = ethosUFixtureU55();
            fixture.commandDataBytes = cut;
            ProgramSpec spec;
            MethodSpec& m = spec.addMethod("forward");
            const std::int32_t a = m.addTensor(floatTensor({ 1, 8, 8, 4 }));
            DelegateSpec delegate;
            delegate.backendId = "EthosUBackend";
            delegate.payload = writeEthosUPayload(fixture);
            m.inputs = { a };
            m.addInstruction(InstructionSpec::delegate(m.addDelegate(delegate), { a }));
            const auto report = costOf(spec, "cut.pte");
            QVERIFY2(report, report ? "" : report.error().message().c_str());
            QCOMPARE(report->delegates.size(), std::size_t(1));
            for (const NodeCost& n : report->nodes)
                QVERIFY(n.status != CostStatus::Counted || n.kind.size() > 0);
        }
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t a = m.addTensor(floatTensor({ 4 }));
        DelegateSpec delegate;
        delegate.backendId = "EthosUBackend";
        delegate.payload = std::vector<std::uint8_t>(100, 0xAB);
        m.inputs = { a };
        m.addInstruction(InstructionSpec::delegate(m.addDelegate(delegate), { a }));
        const auto report = costOf(spec, "junk.pte");
        QVERIFY(report);
        QCOMPARE(report->delegates.size(), std::size_t(1));
        QCOMPARE(report->delegates[0].totals.nodes, std::size_t(0));
        QVERIFY(!report->delegates[0].note.empty()); // "not counted: …"
    }

    // Without the compile flags' system config there is no memory term, and the text says why.
    void ethosUWithoutSystemConfig()
    {
        NpuSetup setup;
        setup.macsPerCycle = 256;
        NpuKickCost cost;
        cost.kind = "convolution";
        cost.work.macs = 1000;
        const auto estimate = estimateKick(cost, setup);
        QVERIFY(estimate);
        QCOMPARE(estimate->cycles, std::uint64_t(4)); // ⌈1000 / 256⌉
        QCOMPARE(estimate->bound, std::string("compute only"));
        QVERIFY(!estimate->memoryCycles);
        NpuKickCost none;
        QVERIFY(!estimateKick(none, setup)); // no rule: no estimate
        QVERIFY(findSystemConfig("Ethos_U85_SYS_DRAM_Mid"));
        // U85 SYS_DRAM_Mid: SRAM 2 ports · 16 bytes · 1.0 = 32 bytes/cycle (vela.ini: 32 GB/s at 1 GHz).
        setup.axiBytesPerCycle = 16;
        setup.system = *findSystemConfig("Ethos_U85_SYS_DRAM_Mid");
        QCOMPARE(portBytesPerCycle(setup, 0), 32.0);
        QCOMPARE(portBytesPerCycle(setup, 1), 12.0); // DRAM 16 · 0.75 = 12 GB/s at 1 GHz
    }

    // tinycnn_u55.pte (Corstone-300, Ethos-U55-128), its NPU kicks read off `etscope graph
    // --delegate 0`: three 3×3 stride-2 convs on a 96×96×3 int8 image (16, 32, 64 channels),
    // global average pool, then a 1×1 conv to 4 classes. optimization_results.csv (row "default")
    // says Vela made 7 NPU operators of it.
    // `cost --vela`: a writer-made Vela log of the fixture's own stream (its listing = the
    // fixture's command words, rows conv 500 + fused clamp 50, add 300, pool 200 cycles, summary
    // 1000 NPU cycles) joins: each row's figures land on its kick beside ETScope's estimate, the
    // summary on the delegate. The same log with one word changed is refused and attaches nothing.
    void velaFiguresOnKicks()
    {
        auto bytes = writeProgram(ethosUProgram());
        QVERIFY(bytes);
        auto document = etscope::test::documentFromBytes(*bytes, "ethosu.pte");
        QVERIFY(document);
        const EthosUPayloadSpec fixture = ethosUFixtureU55();
        VelaLogSpec spec = etscope::test::listingOf(fixture.commands,
            { "Conv2D , subOps: Clamp", "DMA src: OffChipFlash", "Add , subOps: -", "MaxPool , subOps: -" });
        spec.rows = { etscope::test::velaRow("Conv2D", "conv", 500), etscope::test::velaRow("Clamp", "conv", 50),
            etscope::test::velaRow("Add", "add", 300), etscope::test::velaRow("MaxPool", "pool", 200) };
        spec.npuCycles = 1000;
        QTemporaryDir dir;
        const std::string log = writeFile(dir, "vela.log", writeVelaLog(spec));

        auto report = computeCost(*document);
        QVERIFY(report);
        const auto joined = joinVendorLogs(*report, *document, VendorLogs { { log }, {} });
        QVERIFY2(joined, joined ? "" : joined.error().message().c_str());
        QVERIFY2(joined->find(": joined: ") != std::string::npos, joined->c_str());
        const NodeCost* conv = row(*report, "Conv", 0);
        const NodeCost* add = row(*report, "Add", 0);
        QVERIFY(conv && add);
        QCOMPARE(vendorValue(conv->vendor, "Vela estimate: op cycles").value_or(""), std::string("500"));
        QCOMPARE(vendorValue(conv->vendor, "Vela MACs").value_or(""), std::string("5000"));
        QVERIFY(vendorValue(conv->vendor, "Vela fused rows")); // the Clamp row folded into the conv
        QCOMPARE(vendorValue(add->vendor, "Vela estimate: op cycles").value_or(""), std::string("300"));
        QCOMPARE(report->delegates.size(), std::size_t(1));
        const DelegateCost& delegate = report->delegates.front();
        QCOMPARE(vendorValue(delegate.vendor, "Vela estimate: NPU cycles").value_or(""), std::string("1000"));
        // Side by side: ETScope's estimate is the sum of the kicks' (368 + 512 + 192 + 80, see
        // ethosUKicks), Vela's the summary's.
        QCOMPARE(vendorValue(delegate.vendor, "NPU cycles").value_or(""),
            std::string("ETScope estimate: ") + std::to_string(*delegate.totals.estimatedCycles)
                + " cycles; Vela estimate: 1000 cycles");
        QCOMPARE(report->vendorSources, std::vector<std::string> { "Vela log " + log });

        // One listed word changed: the log is of another stream.
        VelaLogSpec other = spec;
        other.listing[0].word ^= 0x10000;
        const std::string otherLog = writeFile(dir, "other.log", writeVelaLog(other));
        auto second = computeCost(*document);
        QVERIFY(second);
        const auto refused = joinVendorLogs(*second, *document, VendorLogs { { otherLog }, {} });
        QVERIFY(refused);
        QVERIFY2(refused->find(": refused: ") != std::string::npos, refused->c_str());
        for (const NodeCost& node : second->nodes)
            QVERIFY(node.vendor.empty());
        QVERIFY(vendorValue(second->delegates.front().vendor, "Vela log").value_or("").starts_with("refused: "));

        // A log that cannot be read fails, naming it.
        auto third = computeCost(*document);
        QVERIFY(third);
        const auto missing
            = joinVendorLogs(*third, *document, VendorLogs { { dir.filePath("none.log").toStdString() }, {} });
        QVERIFY(!missing);
        QVERIFY(missing.error().message().find("none.log") != std::string::npos);
    }

    // `cost --run-log` on tinycnn_u55.pte with the FVP run of that exact file: the PMU's cycle
    // counter (247553, "ethosu_pmu_cycle_cntr : 247553" in the log) and the delegate call's CPU
    // cycles (18301, "ethos-u : cycle_cnt : 18301 cycles") land on the delegate, beside the estimate.
    void runLogOnTinycnn()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        QVERIFY(document);
        auto report = computeCost(*document);
        QVERIFY(report);
        const auto joined = joinVendorLogs(
            *report, *document, VendorLogs { {}, { etscope::test::samplePath("tinycnn/fvp_e84_final_compare.log") } });
        QVERIFY2(joined, joined ? "" : joined.error().message().c_str());
        QVERIFY2(joined->find("forward: joined: ") != std::string::npos, joined->c_str());
        QCOMPARE(report->delegates.size(), std::size_t(1));
        const DelegateCost& delegate = report->delegates.front();
        QCOMPARE(vendorValue(delegate.vendor, "measured: NPU cycles (ethosu_pmu_cycle_cntr)").value_or(""),
            std::string("247553"));
        QCOMPARE(vendorValue(delegate.vendor, "measured: CPU cycles of the delegate call").value_or(""),
            std::string("18301"));
        QVERIFY(vendorValue(delegate.vendor, "NPU cycles").value_or("").ends_with("; measured: 247553 cycles"));

        // The cmsis x + y log has a summary only: not attached to tinycnn's delegate.
        auto second = computeCost(*document);
        QVERIFY(second);
        const auto cmsis = joinVendorLogs(*second, *document,
            VendorLogs { { etscope::test::samplePath("cmsis-executorch/model_conversion_20251126_091256.log") }, {} });
        QVERIFY(cmsis);
        QVERIFY2(cmsis->find(": unverified: ") != std::string::npos, cmsis->c_str());
        QVERIFY(second->delegates.front().vendor.empty());
    }

    void tinycnn()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        QVERIFY(document);
        const auto report = computeCost(*document);
        QVERIFY(report);
        const std::uint64_t conv1 = 48ull * 48 * 16 * 3 * 3 * 3; // OFM 48·48·16, IFM depth 3, 3×3
        const std::uint64_t conv2 = 24ull * 24 * 32 * 16 * 3 * 3;
        const std::uint64_t conv3 = 12ull * 12 * 64 * 32 * 3 * 3;
        const std::uint64_t classifier = 1ull * 1 * 4 * 64; // 1×1 conv, 64 → 4
        std::size_t npuDelegates = 0;
        for (const DelegateCost& d : report->delegates)
            if (d.backend == "EthosUBackend") {
                ++npuDelegates;
                QCOMPARE(d.totals.macs, conv1 + conv2 + conv3 + classifier);
                QCOMPARE(d.totals.noRule + d.totals.noShape, std::size_t(0));
                QVERIFY(d.totals.estimatedCycles.value_or(0) > 0);
            }
        QCOMPARE(npuDelegates, std::size_t(1));
        QCOMPARE(report->npuOperators.size(), std::size_t(7));
    }

    // MobileNetV2 (224×224, width 1.0, 1000 classes) exported twice: for Ethos-U55 (counted from
    // the NPU's registers) and for VGF (counted from the TOSA operators in its SPIR-V). Both
    // equal the architecture's MACs summed here by hand from its table (Sandler et al. 2018,
    // Table 2: stem 3×3/2 → 32; bottlenecks (t, c, n, s); 1×1 → 1280; FC → 1000):
    //   expand 1×1: H·W·(t·Cin)·Cin, depthwise 3×3: H'·W'·(t·Cin)·9, project 1×1: H'·W'·c·(t·Cin).
    void mobilenetV2()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        std::uint64_t h = 112, cin = 32;
        std::uint64_t expected = h * h * 32 * 3 * 3 * 3;
        const std::uint64_t blocks[][4] = { { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
            { 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 } };
        for (const auto& [t, c, n, s] : blocks)
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t hidden = cin * t;
                if (t != 1)
                    expected += h * h * hidden * cin;
                h /= i == 0 ? s : 1;
                expected += h * h * hidden * 9 + h * h * c * hidden;
                cin = c;
            }
        expected += h * h * 1280 * cin + 1280 * 1000;
        QCOMPARE(expected, std::uint64_t(300774272));
        for (const char* sample : { "pte-adapter-model-explorer/mobilenet_v2_ethosu.pte",
                 "pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte" }) {
            auto document = openDocument(etscope::test::samplePath(sample));
            QVERIFY2(document, sample);
            const auto report = computeCost(*document);
            QVERIFY(report);
            QCOMPARE(report->total.macs, expected);
            QCOMPARE(report->total.noRule + report->total.noShape, std::size_t(0));
        }
    }

    // Every Conv2D of the real Ethos-U and XNNPACK samples: MACs equal a hand computation from
    // the shapes. XNNPACK: output elements · filter [Cout, kh, kw, Cin/groups] without Cout (from
    // the filter port, not the parameters the rule reads). Ethos-U: OFM elements · IFM depth ·
    // kernel w·h from the replayed registers.
    // CMSIS-NN and Cadence CPU kernels, from the shapes the program states (etscope graph
    // --format json): KeywordSpotting's cortex_m::quantized_conv2d has out [1, 64, 25, 5] = 8,000
    // elements and an OHWI weight [64, 1, 1, 64], 1·1·64 = 64 MACs each: 512,000; its first
    // depthwise conv writes [1, 64, 25, 5] with an IHWO weight [1, 10, 4, 64]: 10·4 = 40 MACs per
    // output, 320,000; the other four depthwise [1, 3, 3, 64]: 9 · 8,000 = 72,000; the linear
    // reads [1, 64] and writes [1, 12]: 12 · 64 = 768; the average pool's 24×5 window over
    // [1, 64, 1, 1] is 7,680 ops. Cadence's demo conv: out [1, 64, 112, 112] = 802,816 elements,
    // OIHW weight [64, 3, 7, 7]: 3·7·7 = 147 MACs each, 118,013,952.
    void vendorKernels()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto kws = openDocument(etscope::test::samplePath("executorch/arduino_KeywordSpotting_model.pte"));
        QVERIFY(kws);
        const auto report = computeCost(*kws);
        QVERIFY(report);
        std::vector<std::uint64_t> depthwise;
        std::uint64_t convs = 0;
        for (const NodeCost& n : report->nodes) {
            QVERIFY2(n.status == CostStatus::Counted, n.opType.c_str());
            if (n.opType == "cortex_m::quantized_conv2d.out") {
                QCOMPARE(n.macs, std::uint64_t(512000));
                ++convs;
            }
            if (n.opType == "cortex_m::quantized_depthwise_conv2d.out")
                depthwise.push_back(n.macs);
            if (n.opType == "cortex_m::quantized_linear.out")
                QCOMPARE(n.macs, std::uint64_t(768));
            if (n.opType == "cortex_m::quantized_avg_pool2d.out")
                QCOMPARE(n.ops, std::uint64_t(7680));
        }
        QCOMPARE(convs, std::uint64_t(4));
        QCOMPARE(depthwise, (std::vector<std::uint64_t> { 320000, 72000, 72000, 72000, 72000 }));
        QCOMPARE(report->total.macs, std::uint64_t(4 * 512000 + 320000 + 4 * 72000 + 768)); // 2,656,768

        const auto cadence = openDocument(etscope::test::samplePath("executorch/cadence_CadenceDemoModel.pte"));
        QVERIFY(cadence);
        const auto demo = computeCost(*cadence);
        QVERIFY(demo);
        bool seen = false;
        for (const NodeCost& n : demo->nodes)
            if (n.opType == "cadence::quantized_conv2d_nchw.per_tensor_out") {
                QCOMPARE(n.macs, std::uint64_t(118013952));
                seen = true;
            }
        QVERIFY(seen);
    }

    void realSamplesConvolutions()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        std::size_t xnnConvs = 0;
        std::size_t npuConvs = 0;
        QDirIterator it(
            etscope::test::samplesRoot(), { QStringLiteral("*.pte") }, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            auto document = openDocument(path);
            if (!document)
                continue;
            const auto report = computeCost(*document);
            QVERIFY2(report, path.c_str());
            for (const NodeCost& n : report->nodes) {
                if (n.opType == "XNNConv2d") {
                    std::size_t m = 0;
                    while (document->program->methods[m].name != n.method)
                        ++m;
                    const Graph& inner
                        = *document->methods[m].delegates[static_cast<std::size_t>(n.delegate)].innerGraph;
                    const Node& node = inner.nodes[n.node];
                    const auto filter = parseMetaText(std::string(node.attributes.find("filter").value_or("")));
                    const auto output = parseMetaText(std::string(node.attributes.find("output").value_or("")));
                    QVERIFY2(filter && output, path.c_str());
                    const std::uint64_t expected = product(output->shape) * product(filter->shape, 1);
                    QCOMPARE(n.macs, expected);
                    ++xnnConvs;
                }
                if (n.backend == "EthosUBackend" && n.opType == "Conv") {
                    QVERIFY(n.streamOffset);
                    ++npuConvs;
                }
            }
            // Ethos-U: replay the stream here and compute each Conv's MACs from its registers.
            for (std::size_t m = 0; m < document->program->methods.size(); ++m) {
                const Method& method = document->program->methods[m];
                for (std::size_t d = 0; d < method.delegates.size(); ++d) {
                    if (document->methods[m].delegates[d].format != "ethos-u")
                        continue;
                    std::string why;
                    const auto block = findCommandBlock(document->program->bytes(method.delegates[d].payload), why);
                    QVERIFY2(block, why.c_str());
                    const auto framing = ethosu::readDriverPayload(*block);
                    const TargetFact* npu = findTarget(document->methods[m].delegates[d], "ethosu.stream_npu");
                    const ethosu::Arch arch = npu && npu->number == 2 ? ethosu::Arch::U85 : ethosu::Arch::U55;
                    const auto stream
                        = ethosu::decodeCommands(block->subspan(framing.commandOffset, framing.commandWords * 4), arch);
                    for (const ethosu::Operation& op : stream.operations) {
                        if (op.opType != "Conv")
                            continue;
                        // The IFM read from memory, or (U85) chained from the previous kick.
                        std::vector<std::int64_t> ifm;
                        for (const auto& r : op.reads)
                            if (std::string_view(r.role) == "IFM")
                                ifm = r.meta.shape.vector();
                        if (ifm.empty() && op.chainedInput)
                            ifm = op.chainedInput->shape.vector();
                        std::vector<std::int64_t> ofm;
                        for (const auto& w : op.writes)
                            if (std::string_view(w.role) == "OFM")
                                ofm = w.meta.shape.vector();
                        if (ofm.empty() && op.chainedOutput)
                            ofm = op.chainedOutput->shape.vector();
                        QVERIFY(ifm.size() == 4 && ofm.size() == 4);
                        int kw = 0, kh = 0;
                        QCOMPARE(std::sscanf(
                                     std::string(op.attributes.find("kernel").value_or("")).c_str(), "%d×%d", &kw, &kh),
                            2);
                        const std::uint64_t expected
                            = product(ofm) * static_cast<std::uint64_t>(ifm[3]) * static_cast<std::uint64_t>(kw * kh);
                        bool matched = false;
                        for (const NodeCost& n : report->nodes)
                            if (n.delegate == static_cast<int>(d) && n.method == method.name
                                && n.streamOffset == op.offset) {
                                QCOMPARE(n.macs, expected);
                                matched = true;
                            }
                        QVERIFY(matched);
                    }
                }
            }
        }
        // The set has XNNPACK convolutions (mobilenet-style samples) and Ethos-U ones.
        QVERIFY(xnnConvs > 0);
        QVERIFY(npuConvs > 0);
        qInfo("%zu XNNPACK Conv2d nodes and %zu Ethos-U Conv kicks checked", xnnConvs, npuConvs);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
