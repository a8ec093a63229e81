// SPDX-License-Identifier: MIT
#include "core/writer/syntheticmodels.h"

#include "core/writer/segmentlayout.h"
#include "core/writer/xnnpackwriter.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace etscope::core {

namespace {

constexpr int kActivationSlots = 12; // a residual lives at most ~9 activations; never overwrite it early

/// A constant tensor of `sizes` holding pseudo-random floats from `seed`, which then moves on.
std::int32_t addRandomConstant(MethodSpec& method, std::vector<std::int32_t> sizes, std::uint32_t& seed)
{
    TensorSpec t;
    t.sizes = std::move(sizes);
    t.data = pseudoRandomFloats(t.byteSize() / 4, seed++);
    return method.addTensor(std::move(t));
}

/// Builds `forward` of the MLP one instruction at a time, tallying what it emits.
class MlpBuilder {
public:
    MlpBuilder(const MlpOptions& options, SyntheticProgram& out, MethodSpec& method)
        : m_options(options)
        , m_out(out)
        , m_method(method)
        , m_hidden(static_cast<std::uint32_t>(std::max(1, options.hidden)))
        , m_batch(static_cast<std::uint32_t>(std::max(1, options.batch)))
        , m_seed(options.seed)
    {
    }

    void build();

private:
    std::int32_t activation();
    std::int32_t constant(std::vector<std::int32_t> sizes);
    void kernel(const char* name, const char* overload, std::vector<std::int32_t> args);
    void portableStep();
    void xnnpackPartition();
    void opaqueCall();
    bool done() const { return m_out.instructions >= m_options.nodes; }

    const MlpOptions& m_options;
    SyntheticProgram& m_out;
    MethodSpec& m_method;
    std::uint32_t m_hidden;
    std::uint32_t m_batch;
    std::uint32_t m_seed;
    std::int32_t m_one = -1;
    std::int32_t m_current = -1;
    std::int32_t m_residual = -1;
    int m_slot = 0;
    int m_layer = 0;
    int m_step = 0; ///< within a layer: 0 addmm, 1 relu, 2 residual add
    int m_partitions = 0;
    std::uint32_t m_debugHandle = 1;
    bool m_opaqueDone = false;
};

std::int32_t MlpBuilder::activation()
{
    TensorSpec t;
    t.sizes = { static_cast<std::int32_t>(m_batch), static_cast<std::int32_t>(m_hidden) };
    const std::uint64_t slotBytes = alignUp(t.byteSize(), 16);
    t.allocation = AllocationSpec { 1, slotBytes * static_cast<std::uint64_t>(m_slot) };
    m_slot = (m_slot + 1) % kActivationSlots;
    return m_method.addTensor(std::move(t));
}

std::int32_t MlpBuilder::constant(std::vector<std::int32_t> sizes)
{
    return addRandomConstant(m_method, std::move(sizes), m_seed);
}

void MlpBuilder::kernel(const char* name, const char* overload, std::vector<std::int32_t> args)
{
    m_method.addInstruction(InstructionSpec::kernel(m_method.addOperator(name, overload), std::move(args)));
    ++m_out.nonDelegated[std::string(name) + "." + overload];
    ++m_out.instructions;
}

void MlpBuilder::portableStep()
{
    const auto h = static_cast<std::int32_t>(m_hidden);
    if (m_step == 0) {
        // aten::addmm.out(self=bias, mat1, mat2, *, beta, alpha, out) + the return slot
        const std::int32_t bias = constant({ h });
        const std::int32_t weight = constant({ h, h });
        const std::int32_t out = activation();
        kernel("aten::addmm", "out", { bias, m_current, weight, m_one, m_one, out, out });
        m_current = out;
        m_step = 1;
    } else if (m_step == 1) {
        const std::int32_t out = activation();
        kernel("aten::relu", "out", { m_current, out, out });
        m_current = out;
        m_step = m_layer % 3 == 2 ? 2 : 0;
    } else {
        const std::int32_t out = activation();
        kernel("aten::add", "out", { m_current, m_residual, m_one, out, out });
        m_current = out;
        m_residual = out;
        m_step = 0;
    }
    if (m_step == 0)
        ++m_layer;
}

void MlpBuilder::xnnpackPartition()
{
    // FullyConnected → Clamp (relu) → FullyConnected → Add(residual of the partition input).
    const std::vector<std::uint32_t> shape { m_batch, m_hidden };
    const bool named = m_partitions % 2 == 0;
    XnnGraphSpec graph;
    const std::uint32_t in = graph.addExternalInput(xnn::datatype::Fp32, shape);
    const auto weight = [&](std::vector<std::uint32_t> dims) {
        std::size_t count = 1;
        for (const std::uint32_t d : dims)
            count *= d;
        std::vector<std::uint8_t> bytes = pseudoRandomFloats(count, m_seed++);
        if (!named)
            return graph.addConstant(xnn::datatype::Fp32, std::move(dims), std::move(bytes));
        const std::string key = contentKey(bytes);
        const std::uint64_t size = bytes.size();
        m_out.spec.namedData.push_back({ key, std::move(bytes), 16 });
        return graph.addNamedConstant(xnn::datatype::Fp32, std::move(dims), key, size);
    };
    const std::uint32_t w1 = weight({ m_hidden, m_hidden });
    const std::uint32_t b1 = weight({ m_hidden });
    const std::uint32_t w2 = weight({ m_hidden, m_hidden });
    const std::uint32_t b2 = weight({ m_hidden });
    const std::uint32_t t1 = graph.addInternal(xnn::datatype::Fp32, shape);
    const std::uint32_t t2 = graph.addInternal(xnn::datatype::Fp32, shape);
    const std::uint32_t t3 = graph.addInternal(xnn::datatype::Fp32, shape);
    const std::uint32_t out = graph.addExternalOutput(xnn::datatype::Fp32, shape);
    const XnnNodeSpec nodes[] = {
        XnnNodeSpec::fullyConnected(in, w1, b1, t1),
        XnnNodeSpec::clamp(t1, t2, 0.0f, 3.4e38f),
        XnnNodeSpec::fullyConnected(t2, w2, b2, t3),
        XnnNodeSpec::binary(XnnNodeType::Add, t3, in, out),
    };
    for (XnnNodeSpec node : nodes) {
        node.debugHandle = m_debugHandle++;
        ++m_out.delegated[xnnNodeTypeName(node.type)];
        graph.addNode(std::move(node));
    }
    DelegateSpec delegate;
    delegate.backendId = "XnnpackBackend";
    delegate.payload = writeXnnpackPayload(graph).value();
    const std::int32_t result = activation();
    const std::int32_t index = m_method.addDelegate(std::move(delegate));
    m_method.addInstruction(InstructionSpec::delegate(index, { m_current, result }));
    m_current = result;
    ++m_partitions;
    ++m_out.xnnpackCalls;
    ++m_out.instructions;
}

void MlpBuilder::opaqueCall()
{
    DelegateSpec delegate;
    delegate.backendId = "AcmeNpuBackend";
    delegate.payload = { 'A', 'C', 'M', 'E', 'N', 'P', 'U', '1' };
    const std::vector<std::uint8_t> body = pseudoRandomFloats(1024, m_seed++);
    delegate.payload.insert(delegate.payload.end(), body.begin(), body.end());
    const auto spec = [](const char* key, const std::string& value) {
        return CompileSpec { key, std::vector<std::uint8_t>(value.begin(), value.end()) };
    };
    delegate.compileSpecs = { spec("target", "acme-npu-v2"), spec("opt_level", "O3") };
    const std::int32_t result = activation();
    const std::int32_t index = m_method.addDelegate(std::move(delegate));
    m_method.addInstruction(InstructionSpec::delegate(index, { m_current, result }));
    m_current = result;
    m_opaqueDone = true;
    ++m_out.opaqueCalls;
    ++m_out.instructions;
}

void MlpBuilder::build()
{
    TensorSpec input;
    input.sizes = { static_cast<std::int32_t>(m_batch), static_cast<std::int32_t>(m_hidden) };
    input.allocation = AllocationSpec { 1, 0 };
    m_current = m_method.addTensor(std::move(input));
    m_residual = m_current;
    m_slot = 1;
    m_method.inputs = { m_current };
    m_one = m_method.addValue(ValueSpec::integer(1));

    int partitionedLayer = 0;
    while (!done()) {
        const bool layerBoundary = m_step == 0;
        if (layerBoundary && m_options.xnnpackEvery > 0 && m_layer > 0 && m_layer % m_options.xnnpackEvery == 0
            && partitionedLayer != m_layer) {
            partitionedLayer = m_layer;
            xnnpackPartition();
            continue;
        }
        if (layerBoundary && m_options.opaqueDelegate && !m_opaqueDone && m_out.instructions >= m_options.nodes / 2) {
            opaqueCall();
            continue;
        }
        portableStep();
    }
    m_method.outputs = { m_current };
    m_method.computeArenaSizes();
}

void addClassifyMethod(MethodSpec& method, const MlpOptions& options, std::uint32_t seed)
{
    const std::int32_t batch = std::max(1, options.batch);
    const std::int32_t hidden = std::max(1, options.hidden);
    constexpr std::int32_t kClasses = 10;
    const auto planned = [&](std::vector<std::int32_t> sizes, std::uint64_t offset) {
        TensorSpec t;
        t.sizes = std::move(sizes);
        t.allocation = AllocationSpec { 1, offset };
        return method.addTensor(std::move(t));
    };
    const auto constant
        = [&](std::vector<std::int32_t> sizes) { return addRandomConstant(method, std::move(sizes), seed); };
    const std::int32_t x = planned({ batch, hidden }, 0);
    method.inputs = { x };
    const std::uint64_t logitsAt
        = alignUp(static_cast<std::uint64_t>(batch) * static_cast<std::uint64_t>(hidden) * 4, 16);
    const std::int32_t bias = constant({ kClasses });
    const std::int32_t weight = constant({ hidden, kClasses });
    const std::int32_t one = method.addValue(ValueSpec::integer(1));
    const std::int32_t noHalf = method.addValue(ValueSpec::boolean(false));
    const std::int32_t logits = planned({ batch, kClasses }, logitsAt);
    const std::int32_t probs = planned({ batch, kClasses }, 0);
    method.addInstruction(InstructionSpec::kernel(
        method.addOperator("aten::addmm", "out"), { bias, x, weight, one, one, logits, logits }));
    method.addInstruction(
        InstructionSpec::kernel(method.addOperator("aten::_softmax", "out"), { logits, one, noHalf, probs, probs }));
    method.outputs = { probs };
    method.computeArenaSizes();
}

} // namespace

SyntheticProgram makeMlpProgram(const MlpOptions& options)
{
    SyntheticProgram out;
    if (options.secondMethod)
        addClassifyMethod(out.spec.addMethod("classify"), options, options.seed + 0x9e3779b9u);
    MethodSpec& forward = out.spec.addMethod("forward");
    MlpBuilder(options, out, forward).build();
    return out;
}

SyntheticProgram makeWideProgram(const MlpOptions& options)
{
    SyntheticProgram out;
    MethodSpec& forward = out.spec.addMethod("forward");
    const std::int32_t hidden = std::max(1, options.hidden);
    const std::int32_t batch = std::max(1, options.batch);
    std::uint32_t seed = options.seed;
    std::uint64_t nextOffset = 0;
    const auto activation = [&] {
        TensorSpec t;
        t.sizes = { batch, hidden };
        t.allocation = AllocationSpec { 1, nextOffset };
        nextOffset += alignUp(t.byteSize(), 16);
        return forward.addTensor(std::move(t));
    };
    const auto constant
        = [&](std::vector<std::int32_t> sizes) { return addRandomConstant(forward, std::move(sizes), seed); };
    const auto kernel = [&](const char* name, const char* overload, std::vector<std::int32_t> args) {
        forward.addInstruction(InstructionSpec::kernel(forward.addOperator(name, overload), std::move(args)));
        ++out.nonDelegated[std::string(name) + "." + overload];
        ++out.instructions;
    };
    const std::int32_t input = activation();
    forward.inputs = { input };
    const std::int32_t one = forward.addValue(ValueSpec::integer(1));
    const int nodes = std::max(2, options.nodes);
    const int branches = std::max(1, (nodes + 1) / 3);
    std::vector<std::int32_t> level;
    for (int b = 0; b < branches; ++b) {
        const std::int32_t bias = constant({ hidden });
        const std::int32_t weight = constant({ hidden, hidden });
        const std::int32_t mm = activation();
        kernel("aten::addmm", "out", { bias, input, weight, one, one, mm, mm });
        level.push_back(mm);
    }
    for (std::int32_t& value : level) {
        const std::int32_t relu = activation();
        kernel("aten::relu", "out", { value, relu, relu });
        value = relu;
    }
    while (level.size() > 1) { // pairwise sums, an odd one carried up
        std::vector<std::int32_t> next;
        for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
            const std::int32_t sum = activation();
            kernel("aten::add", "out", { level[i], level[i + 1], one, sum, sum });
            next.push_back(sum);
        }
        if (level.size() % 2)
            next.push_back(level.back());
        level = std::move(next);
    }
    std::int32_t result = level.front();
    while (out.instructions < nodes) {
        const std::int32_t relu = activation();
        kernel("aten::relu", "out", { result, relu, relu });
        result = relu;
    }
    forward.outputs = { result };
    forward.computeArenaSizes();
    return out;
}

std::vector<std::uint8_t> pseudoRandomFloats(std::size_t count, std::uint32_t seed, float scale)
{
    std::vector<std::uint8_t> bytes;
    bytes.reserve(count * 4);
    std::uint64_t state = 0x853c49e6748fea9bULL ^ (static_cast<std::uint64_t>(seed) * 0x9e3779b97f4a7c15ULL);
    for (std::size_t i = 0; i < count; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double unit = static_cast<double>(state >> 40) / static_cast<double>(1ULL << 24);
        const auto value = static_cast<float>((unit * 2.0 - 1.0) * scale);
        appendLe32(bytes, std::bit_cast<std::uint32_t>(value));
    }
    return bytes;
}

std::vector<std::uint8_t> filledFloats(std::size_t count, float value)
{
    std::vector<std::uint8_t> bytes;
    bytes.reserve(count * 4);
    for (std::size_t i = 0; i < count; ++i)
        appendLe32(bytes, std::bit_cast<std::uint32_t>(value));
    return bytes;
}

std::string contentKey(std::span<const std::uint8_t> bytes)
{
    std::string key;
    for (std::uint64_t lane = 0; lane < 4; ++lane) {
        std::uint64_t hash = 0xcbf29ce484222325ULL ^ (lane * 0x100000001b3ULL);
        for (const std::uint8_t byte : bytes)
            hash = (hash ^ byte) * 0x100000001b3ULL;
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
        key += text;
    }
    return key;
}

} // namespace etscope::core
