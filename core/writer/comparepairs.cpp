// SPDX-License-Identifier: MIT
#include "core/writer/comparepairs.h"

#include "core/writer/syntheticmodels.h"
#include "core/writer/xnnpackwriter.h"

#include <algorithm>
#include <limits>

namespace etscope::core {

namespace {

constexpr std::int32_t kClasses = 10;

struct Layer {
    std::vector<std::uint8_t> bias;
    std::vector<std::uint8_t> weight; ///< [in, out] as addmm reads it
    std::int32_t in = 0, out = 0;
};

/// [in, out] → [out, in] (XNNPACK's fully-connected filter layout).
std::vector<std::uint8_t> transposed(const Layer& layer)
{
    std::vector<std::uint8_t> bytes(layer.weight.size());
    for (std::int32_t i = 0; i < layer.in; ++i)
        for (std::int32_t o = 0; o < layer.out; ++o)
            std::copy_n(layer.weight.begin() + (4 * static_cast<std::ptrdiff_t>(i * layer.out + o)), 4,
                bytes.begin() + (4 * static_cast<std::ptrdiff_t>(o * layer.in + i)));
    return bytes;
}

class Builder {
public:
    Builder(MethodSpec& method, int hidden)
        : m_method(method)
        , m_hidden(hidden)
    {
    }

    std::int32_t planned(std::int32_t width)
    {
        TensorSpec t;
        t.sizes = { 1, width };
        t.allocation = AllocationSpec { 1, m_offset };
        m_offset += std::uint64_t { 64 } * 4; // one slot per activation: the plan is not what this pair compares
        return m_method.addTensor(std::move(t));
    }
    std::int32_t constant(std::vector<std::int32_t> sizes, std::vector<std::uint8_t> bytes)
    {
        TensorSpec t;
        t.sizes = std::move(sizes);
        t.data = std::move(bytes);
        return m_method.addTensor(std::move(t));
    }
    void kernel(const char* name, const char* overload, std::vector<std::int32_t> args)
    {
        m_method.addInstruction(InstructionSpec::kernel(m_method.addOperator(name, overload), std::move(args)));
    }
    std::int32_t addmm(const Layer& layer, std::int32_t input, std::int32_t one)
    {
        const std::int32_t bias = constant({ layer.out }, layer.bias);
        const std::int32_t weight = constant({ layer.in, layer.out }, layer.weight);
        const std::int32_t out = planned(layer.out);
        kernel("aten::addmm", "out", { bias, input, weight, one, one, out, out });
        return out;
    }
    std::int32_t relu(std::int32_t input)
    {
        const std::int32_t out = planned(m_hidden);
        kernel("aten::relu", "out", { input, out, out });
        return out;
    }
    void softmax(std::int32_t logits, std::int32_t one)
    {
        const std::int32_t noHalf = m_method.addValue(ValueSpec::boolean(false));
        const std::int32_t probs = planned(kClasses);
        kernel("aten::_softmax", "out", { logits, one, noHalf, probs, probs });
        m_method.outputs = { probs };
        m_method.computeArenaSizes();
    }

private:
    MethodSpec& m_method;
    std::int32_t m_hidden;
    std::uint64_t m_offset = 0;
};

} // namespace

ComparePair makeMlpComparePair(int hidden)
{
    hidden = std::clamp(hidden, 1, 64);
    std::uint32_t seed = 7001;
    std::vector<Layer> layers;
    for (int i = 0; i < 3; ++i) {
        Layer layer;
        layer.in = hidden;
        layer.out = i == 2 ? kClasses : hidden;
        layer.bias = pseudoRandomFloats(static_cast<std::size_t>(layer.out), seed++, 0.25f);
        layer.weight = pseudoRandomFloats(
            static_cast<std::size_t>(layer.in) * static_cast<std::size_t>(layer.out), seed++, 0.25f);
        layers.push_back(std::move(layer));
    }
    ComparePair pair;
    {
        MethodSpec& method = pair.portable.addMethod("forward");
        Builder build(method, hidden);
        std::int32_t x = build.planned(hidden);
        method.inputs = { x };
        const std::int32_t one = method.addValue(ValueSpec::integer(1));
        x = build.relu(build.addmm(layers[0], x, one));
        x = build.relu(build.addmm(layers[1], x, one));
        build.softmax(build.addmm(layers[2], x, one), one);
    }
    {
        MethodSpec& method = pair.lowered.addMethod("forward");
        Builder build(method, hidden);
        const std::int32_t x = build.planned(hidden);
        method.inputs = { x };
        const std::int32_t one = method.addValue(ValueSpec::integer(1));
        const auto h = static_cast<std::uint32_t>(hidden);
        XnnGraphSpec graph;
        const std::uint32_t in = graph.addExternalInput(xnn::datatype::Fp32, { 1, h });
        std::uint32_t current = in;
        std::uint32_t debugHandle = 1;
        for (int i = 0; i < 2; ++i) {
            const std::uint32_t filter = graph.addConstant(xnn::datatype::Fp32, { h, h }, transposed(layers[i]));
            const std::uint32_t bias = graph.addConstant(xnn::datatype::Fp32, { h }, layers[i].bias);
            const std::uint32_t fc = graph.addInternal(xnn::datatype::Fp32, { 1, h });
            const std::uint32_t clamped = i == 1 ? graph.addExternalOutput(xnn::datatype::Fp32, { 1, h })
                                                 : graph.addInternal(xnn::datatype::Fp32, { 1, h });
            XnnNodeSpec linear = XnnNodeSpec::fullyConnected(current, filter, bias, fc);
            linear.debugHandle = debugHandle++;
            graph.addNode(std::move(linear));
            XnnNodeSpec clamp = XnnNodeSpec::clamp(fc, clamped, 0.0f, std::numeric_limits<float>::infinity());
            clamp.debugHandle = debugHandle++;
            graph.addNode(std::move(clamp));
            current = clamped;
        }
        DelegateSpec delegate;
        delegate.backendId = "XnnpackBackend";
        delegate.payload = writeXnnpackPayload(graph).value();
        pair.payloadBytes = delegate.payload.size();
        const std::int32_t hidden1 = build.planned(hidden);
        method.addInstruction(InstructionSpec::delegate(method.addDelegate(std::move(delegate)), { x, hidden1 }));
        build.softmax(build.addmm(layers[2], hidden1, one), one);
    }
    return pair;
}

} // namespace etscope::core
