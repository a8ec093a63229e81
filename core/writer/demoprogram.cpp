// SPDX-License-Identifier: MIT
// The bundled demo program (issue 6). Its instruction layout is documented in syntheticmodels.h
// and pinned by tests/writer; the demo ETDump pair depends on it.
#include "core/writer/syntheticmodels.h"

#include "core/writer/segmentlayout.h"
#include "core/writer/xnnpackwriter.h"

namespace etscope::core {

namespace {

/// Values of one demo method: planned tensors laid out one after another in arena 1.
class DemoMethod {
public:
    explicit DemoMethod(MethodSpec& method)
        : m_method(method)
    {
    }

    std::int32_t planned(std::vector<std::int32_t> sizes, int scalarType = scalar_type::Float)
    {
        TensorSpec t;
        t.scalarType = scalarType;
        t.sizes = std::move(sizes);
        t.allocation = AllocationSpec { 1, m_next };
        m_next = alignUp(m_next + t.byteSize(), 16);
        return m_method.addTensor(std::move(t));
    }

    std::int32_t weight(const char* name, std::vector<std::int32_t> sizes, std::uint32_t seed)
    {
        TensorSpec t;
        t.sizes = std::move(sizes);
        t.data = pseudoRandomFloats(t.byteSize() / 4, seed, demo::kWeightScale);
        t.fullyQualifiedName = name;
        return m_method.addTensor(std::move(t));
    }

    std::int32_t integer(std::int64_t value) { return m_method.addValue(ValueSpec::integer(value)); }
    std::int32_t boolean(bool value) { return m_method.addValue(ValueSpec::boolean(value)); }
    std::int32_t ints(std::vector<std::int64_t> valueIndices)
    {
        return m_method.addValue(ValueSpec::intList(std::move(valueIndices)));
    }

    void kernel(const char* name, const char* overload, std::vector<std::int32_t> args)
    {
        m_method.addInstruction(InstructionSpec::kernel(m_method.addOperator(name, overload), std::move(args)));
    }

private:
    MethodSpec& m_method;
    std::uint64_t m_next = 0;
};

CompileSpec textSpec(const char* key, const std::string& value)
{
    return { key, std::vector<std::uint8_t>(value.begin(), value.end()) };
}

/// Conv block of `forward`: NCHW→NHWC, 3×3 convolution, clamp to [0, 6], back to NCHW.
DelegateSpec convBlock(ProgramSpec& program)
{
    XnnGraphSpec graph;
    const std::uint32_t x = graph.addExternalInput(xnn::datatype::Fp32, { 1, 3, 16, 16 });
    const std::uint32_t nhwc = graph.addInternal(xnn::datatype::Fp32, { 1, 16, 16, 3 });
    const auto named = [&](std::vector<std::uint32_t> dims, std::size_t count, std::uint32_t seed) {
        std::vector<std::uint8_t> bytes = pseudoRandomFloats(count, seed, demo::kWeightScale);
        const std::string key = contentKey(bytes);
        const std::uint64_t size = bytes.size();
        program.namedData.push_back({ key, std::move(bytes), 16 });
        return graph.addNamedConstant(xnn::datatype::Fp32, std::move(dims), key, size);
    };
    const std::uint32_t filter = named({ 8, 3, 3, 3 }, std::size_t { 8 } * 3 * 3 * 3, demo::kConvFilterSeed);
    const std::uint32_t bias = named({ 8 }, 8, demo::kConvBiasSeed);
    const std::uint32_t conv = graph.addInternal(xnn::datatype::Fp32, { 1, 16, 16, 8 });
    const std::uint32_t clamped = graph.addInternal(xnn::datatype::Fp32, { 1, 16, 16, 8 });
    const std::uint32_t out = graph.addExternalOutput(xnn::datatype::Fp32, { 1, 8, 16, 16 });

    XnnWindowSpec window;
    window.paddingTop = window.paddingRight = window.paddingBottom = window.paddingLeft = 1;
    window.height = window.width = 3;
    window.groupInputChannels = 3;
    window.groupOutputChannels = 8;
    XnnNodeSpec nodes[] = {
        XnnNodeSpec::transpose({ 0, 2, 3, 1 }, x, nhwc),
        XnnNodeSpec::conv2d(nhwc, filter, bias, conv, window),
        XnnNodeSpec::clamp(conv, clamped, 0.0f, 6.0f),
        XnnNodeSpec::transpose({ 0, 3, 1, 2 }, clamped, out),
    };
    std::uint32_t handle = 1;
    for (XnnNodeSpec& node : nodes) {
        node.debugHandle = handle++;
        graph.addNode(node);
    }
    DelegateSpec delegate;
    delegate.backendId = "XnnpackBackend";
    delegate.payload = writeXnnpackPayload(graph).value();
    return delegate;
}

/// An accelerator nobody can decode: a made-up backend with readable compile specs.
DelegateSpec npuBlock()
{
    DelegateSpec delegate;
    delegate.backendId = "AcmeNpuBackend";
    delegate.payload = { 'A', 'C', 'M', 'E', 'N', 'P', 'U', '1' };
    const std::vector<std::uint8_t> body = pseudoRandomFloats(512, demo::kNpuBodySeed);
    delegate.payload.insert(delegate.payload.end(), body.begin(), body.end());
    delegate.compileSpecs = {
        textSpec("target", "acme-npu-v2"),
        textSpec("opt_level", "O3"),
        textSpec("memory", "sram=512KiB"),
    };
    return delegate;
}

void addEmbed(MethodSpec& method)
{
    DemoMethod m(method);
    const std::int32_t ids = m.planned({ 4 }, scalar_type::Long);
    method.inputs = { ids };
    const std::int32_t table = m.weight("embedding.weight", { 16, 8 }, demo::kEmbeddingSeed);
    const std::int32_t minusOne = m.integer(-1);
    const std::int32_t no = m.boolean(false);
    const std::int32_t emb = m.planned({ 4, 8 });
    m.kernel("aten::embedding", "out", { table, ids, minusOne, no, no, emb, emb });

    const std::int32_t zero = m.integer(0);
    const std::int32_t dims = m.ints({ zero });
    const std::int32_t noDtype = method.addValue(ValueSpec::null());
    const std::int32_t mean = m.planned({ 8 });
    m.kernel("aten::mean", "out", { emb, dims, no, noDtype, mean, mean });

    TensorSpec running;
    running.sizes = { 8 };
    running.allocation = AllocationSpec { 2, 0 };
    running.data = filledFloats(8, 0.5f);
    running.fullyQualifiedName = "stats.running";
    const std::int32_t state = method.addTensor(std::move(running));
    const std::int32_t one = m.integer(1);
    const std::int32_t y = m.planned({ 8 });
    m.kernel("aten::add", "out", { mean, state, one, y, y });
    method.outputs = { y };
    method.computeArenaSizes();
}

void addForward(MethodSpec& method, ProgramSpec& program)
{
    DemoMethod m(method);
    const std::int32_t x = m.planned({ 1, 3, 16, 16 });
    method.inputs = { x };
    method.outputSpec = "T2#1#1($,$)";

    const std::int32_t a0 = m.planned({ 1, 8, 16, 16 });
    method.addInstruction(InstructionSpec::delegate(method.addDelegate(convBlock(program)), { x, a0 }));

    const std::int32_t zero = m.integer(0);
    const std::int32_t one = m.integer(1);
    const std::int32_t two = m.integer(2);
    const std::int32_t kernelSize = m.ints({ two, two });
    const std::int32_t stride = m.ints({ two, two });
    const std::int32_t padding = m.ints({ zero, zero });
    const std::int32_t dilation = m.ints({ one, one });
    const std::int32_t no = m.boolean(false);
    const std::int32_t p0 = m.planned({ 1, 8, 8, 8 });
    const std::int32_t indices = m.planned({ 1, 8, 8, 8 }, scalar_type::Long);
    const std::int32_t pooled = method.addValue(ValueSpec::tensorList({ p0, indices }));
    m.kernel(
        "aten::max_pool2d_with_indices", "out", { a0, kernelSize, stride, padding, dilation, no, p0, indices, pooled });

    const std::int32_t flatSize = m.ints({ one, m.integer(512) });
    const std::int32_t f0 = m.planned({ 1, 512 });
    m.kernel("aten::view_copy", "out", { p0, flatSize, f0, f0 });

    const std::int32_t h0 = m.planned({ 1, 64 });
    method.addInstruction(InstructionSpec::delegate(method.addDelegate(npuBlock()), { f0, h0 }));

    const std::int32_t fc1Weight = m.weight("fc1.weight", { 64, 32 }, demo::kFc1WeightSeed);
    const std::int32_t fc1Bias = m.weight("fc1.bias", { 32 }, demo::kFc1BiasSeed);
    const std::int32_t l0 = m.planned({ 1, 32 });
    m.kernel("aten::addmm", "out", { fc1Bias, h0, fc1Weight, one, one, l0, l0 });

    const std::int32_t r0 = m.planned({ 1, 32 });
    m.kernel("aten::relu", "out", { l0, r0, r0 });

    const std::int32_t fc2Weight = m.weight("fc2.weight", { 32, 10 }, demo::kFc2WeightSeed);
    const std::int32_t fc2Bias = m.weight("fc2.bias", { 10 }, demo::kFc2BiasSeed);
    const std::int32_t logits = m.planned({ 1, 10 });
    m.kernel("aten::addmm", "out", { fc2Bias, r0, fc2Weight, one, one, logits, logits });

    const std::int32_t probs = m.planned({ 1, 10 });
    m.kernel("aten::_softmax", "out", { logits, one, no, probs, probs });

    const std::int32_t cls = m.planned({ 1 }, scalar_type::Long);
    m.kernel("aten::argmax", "out", { probs, one, no, cls, cls });
    method.outputs = { probs, cls };
    method.computeArenaSizes();
}

} // namespace

ProgramSpec makeDemoProgram()
{
    ProgramSpec program;
    addEmbed(program.addMethod("embed"));
    addForward(program.addMethod("forward"), program);
    return program;
}

} // namespace etscope::core
