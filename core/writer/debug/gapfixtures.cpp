// SPDX-License-Identifier: MIT
#include "core/writer/debug/gapfixtures.h"

#include "core/writer/comparepairs.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/syntheticmodels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace etscope::core {

namespace {

constexpr int kClasses = 10;

std::vector<double> floatsOf(const std::vector<std::uint8_t>& bytes)
{
    std::vector<double> values(bytes.size() / 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
        float f = 0;
        std::memcpy(&f, bytes.data() + 4 * i, 4);
        values[i] = f;
    }
    return values;
}

struct Layer {
    std::vector<double> bias; ///< [out]
    std::vector<double> weight; ///< [in, out]
    int in = 0, out = 0;

    std::vector<double> apply(const std::vector<double>& x) const
    {
        std::vector<double> y(bias);
        for (int o = 0; o < out; ++o)
            for (int i = 0; i < in; ++i)
                y[static_cast<std::size_t>(o)] += x[static_cast<std::size_t>(i)]
                    * weight[(static_cast<std::size_t>(i) * static_cast<std::size_t>(out))
                        + static_cast<std::size_t>(o)];
        return y;
    }
};

/// The weights makeMlpComparePair writes: seeds 7001… in the order bias, weight per layer.
std::vector<Layer> mlpLayers(int hidden)
{
    std::uint32_t seed = 7001;
    std::vector<Layer> layers;
    for (int i = 0; i < 3; ++i) {
        Layer layer;
        layer.in = hidden;
        layer.out = i == 2 ? kClasses : hidden;
        // Rounded to float32 as stored, so the "runs" compute what the program's bytes say.
        layer.bias = floatsOf(pseudoRandomFloats(static_cast<std::size_t>(layer.out), seed++, 0.25f));
        layer.weight = floatsOf(pseudoRandomFloats(
            static_cast<std::size_t>(layer.in) * static_cast<std::size_t>(layer.out), seed++, 0.25f));
        layers.push_back(std::move(layer));
    }
    return layers;
}

std::vector<double> relu(std::vector<double> v)
{
    for (double& x : v)
        x = std::max(x, 0.0);
    return v;
}

std::vector<double> softmax(const std::vector<double>& v)
{
    const double top = *std::max_element(v.begin(), v.end());
    std::vector<double> out(v.size());
    double sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        sum += out[i] = std::exp(v[i] - top);
    for (double& x : out)
        x /= sum;
    return out;
}

double symmetricScale(const std::vector<double>& v)
{
    double top = 0;
    for (const double x : v)
        top = std::max(top, std::abs(x));
    return top > 0 ? top / 127.0 : 1.0;
}

std::vector<double> quantize(const std::vector<double>& v, double scale)
{
    std::vector<double> q(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        q[i] = std::clamp(std::nearbyint(v[i] / scale), -128.0, 127.0);
    return q;
}

std::vector<double> dequantize(const std::vector<double>& q, double scale)
{
    std::vector<double> v(q.size());
    for (std::size_t i = 0; i < q.size(); ++i)
        v[i] = q[i] * scale;
    return v;
}

/// Debug events of one Execute block, written as the runtime lays them out (generated/README.md).
class RunWriter {
public:
    void tensor(int instruction, int scalarType, std::vector<std::int64_t> sizes, const std::vector<double>& values,
        bool output = false)
    {
        push(tensorDebugEvent(m_buffer, InstructionId(instruction), scalarType, std::move(sizes), values, output));
    }

    /// An intermediate output the delegate at `instruction` logs itself, under a delegate debug
    /// identifier: an integer (`id`) or, when `name` is not empty, a string.
    void inner(int instruction, int id, const std::string& name, std::vector<std::int64_t> sizes,
        const std::vector<double>& values)
    {
        DebugEvent event
            = tensorDebugEvent(m_buffer, InstructionId(instruction), scalar_type::Float, std::move(sizes), values);
        if (name.empty())
            event.delegateDebugIdInt = DelegateDebugId(id);
        else
            event.delegateDebugIdStr = name;
        push(std::move(event));
    }

    void finish(GapBuild& build)
    {
        m_execute.name = "Execute";
        build.etdump = writeETDump({ m_execute });
        build.debugBuffer = m_buffer.bytes();
    }

private:
    void push(DebugEvent event)
    {
        event.sequence = m_sequence++;
        m_execute.debugEvents.push_back(std::move(event));
    }

    RunBlock m_execute;
    DebugBufferWriter m_buffer { 64, 0 };
    std::size_t m_sequence = 0;
};

std::vector<std::uint8_t> record(const std::vector<std::vector<std::int64_t>>& handles,
    const std::optional<DelegateMapEntry>& delegate = std::nullopt)
{
    ETRecordWriteSpec spec;
    for (std::size_t k = 0; k < handles.size(); ++k) {
        DebugHandleEntry entry;
        for (const std::int64_t h : handles[k])
            entry.handles.emplace_back(h);
        entry.isList = handles[k].size() > 1;
        spec.debugHandleMap["forward"][static_cast<int>(k)] = entry;
    }
    if (delegate)
        spec.delegateMap["forward"][0] = *delegate;
    return writeETRecord(spec).value();
}

/// The quantized build: makeMlpComparePair's portable method with int8 activations around the relus.
ProgramSpec quantizedProgram(const std::vector<Layer>& layers, int hidden, double scale0, double scale1)
{
    ProgramSpec program;
    MethodSpec& method = program.addMethod("forward");
    std::uint64_t offset = 0;
    const auto planted = [&](std::int32_t width, int type) {
        TensorSpec t;
        t.scalarType = type;
        t.sizes = { 1, width };
        t.allocation = AllocationSpec { 1, offset };
        offset += std::uint64_t { 64 } * 4;
        return method.addTensor(std::move(t));
    };
    const auto constant = [&](std::vector<std::int32_t> sizes, const std::vector<double>& values) {
        TensorSpec t;
        t.sizes = std::move(sizes);
        std::vector<std::uint8_t> bytes(values.size() * 4);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const float f = static_cast<float>(values[i]);
            std::memcpy(bytes.data() + 4 * i, &f, 4);
        }
        t.data = std::move(bytes);
        return method.addTensor(std::move(t));
    };
    const auto kernel = [&](const char* name, const char* overload, std::vector<std::int32_t> args) {
        method.addInstruction(InstructionSpec::kernel(method.addOperator(name, overload), std::move(args)));
    };
    const std::int32_t one = method.addValue(ValueSpec::integer(1));
    const std::int32_t zero = method.addValue(ValueSpec::integer(0));
    const std::int32_t qmin = method.addValue(ValueSpec::integer(-128));
    const std::int32_t qmax = method.addValue(ValueSpec::integer(127));
    const std::int32_t int8 = method.addValue(ValueSpec::integer(scalar_type::Char));
    std::int32_t x = planted(hidden, scalar_type::Float);
    method.inputs = { x };
    const auto addmm = [&](const Layer& layer, std::int32_t input) {
        const std::int32_t bias = constant({ layer.out }, layer.bias);
        const std::int32_t weight = constant({ layer.in, layer.out }, layer.weight);
        const std::int32_t out = planted(layer.out, scalar_type::Float);
        kernel("aten::addmm", "out", { bias, input, weight, one, one, out, out });
        return out;
    };
    for (int i = 0; i < 2; ++i) {
        const std::int32_t scale = method.addValue(ValueSpec::real(i == 0 ? scale0 : scale1));
        const std::int32_t h = addmm(layers[static_cast<std::size_t>(i)], x);
        const std::int32_t q = planted(hidden, scalar_type::Char);
        kernel("quantized_decomposed::quantize_per_tensor", "out", { h, scale, zero, qmin, qmax, int8, q, q });
        const std::int32_t r = planted(hidden, scalar_type::Char);
        kernel("aten::relu", "out", { q, r, r });
        const std::int32_t d = planted(hidden, scalar_type::Float);
        kernel("quantized_decomposed::dequantize_per_tensor", "out", { r, scale, zero, qmin, qmax, int8, d, d });
        x = d;
    }
    const std::int32_t logits = addmm(layers[2], x);
    const std::int32_t noHalf = method.addValue(ValueSpec::boolean(false));
    const std::int32_t probs = planted(kClasses, scalar_type::Float);
    kernel("aten::_softmax", "out", { logits, one, noHalf, probs, probs });
    method.outputs = { probs };
    method.computeArenaSizes();
    return program;
}

} // namespace

GapFixtures makeGapFixtures(const GapFixtureOptions& options)
{
    const int hidden = std::clamp(options.hidden, 1, 64);
    const std::vector<Layer> layers = mlpLayers(hidden);
    GapFixtures f;
    f.input.resize(static_cast<std::size_t>(hidden));
    for (int i = 0; i < hidden; ++i)
        f.input[static_cast<std::size_t>(i)] = std::sin(1.0 + i) * 2.0;
    const std::int64_t h = hidden;
    const double plant = options.plant ? options.offset : 0.0;

    // Float forward pass.
    const std::vector<double> h0 = layers[0].apply(f.input);
    const std::vector<double> r0 = relu(h0);
    const std::vector<double> h1 = layers[1].apply(r0);
    const std::vector<double> r1 = relu(h1);
    const std::vector<double> logits = layers[2].apply(r1);
    f.h0 = h0;

    ComparePair pair = makeMlpComparePair(hidden);
    {
        RunWriter w;
        w.tensor(0, scalar_type::Float, { 1, h }, h0);
        w.tensor(1, scalar_type::Float, { 1, h }, r0);
        w.tensor(2, scalar_type::Float, { 1, h }, h1);
        w.tensor(3, scalar_type::Float, { 1, h }, r1);
        w.tensor(4, scalar_type::Float, { 1, kClasses }, logits);
        const std::vector<double> probs = softmax(logits);
        w.tensor(5, scalar_type::Float, { 1, kClasses }, probs);
        w.tensor(0, scalar_type::Float, { 1, kClasses }, probs, true);
        f.portable.program = std::move(pair.portable);
        w.finish(f.portable);
        f.portable.etrecord = record({ { 1 }, { 2 }, { 3 }, { 4 }, { 5 }, { 6 } });
    }
    {
        // Lowered: the delegate logs its argument x, then its output r1 (inputs first).
        RunWriter w;
        w.tensor(0, scalar_type::Float, { 1, h }, f.input);
        w.tensor(0, scalar_type::Float, { 1, h }, r1);
        std::vector<double> wrong = logits;
        wrong[0] += plant;
        w.tensor(1, scalar_type::Float, { 1, kClasses }, wrong);
        const std::vector<double> probs = softmax(wrong);
        w.tensor(2, scalar_type::Float, { 1, kClasses }, probs);
        w.tensor(0, scalar_type::Float, { 1, kClasses }, probs, true);
        f.lowered.program = std::move(pair.lowered);
        w.finish(f.lowered);
        DelegateMapEntry delegate;
        delegate.backend = "XnnpackBackend";
        delegate.identifiers = { { "1", { DebugHandle(1) } }, { "2", { DebugHandle(2) } }, { "3", { DebugHandle(3) } },
            { "4", { DebugHandle(4) } } };
        f.lowered.etrecord = record({ { 1, 2, 3, 4 }, { 5 }, { 6 } }, delegate);
    }
    // The lowered program again, its delegate logging each inner node's output the QNN way:
    // under a delegate debug identifier that the ETRecord's delegate_map resolves to the AOT
    // handles of the ops the inner node came from (1, 2, 3, 4 — which the XNNPACK payload's
    // nodes carry too). Integer ids count 0, 1, 2, 3 as ExecuTorch's DelegateMappingBuilder
    // generates them, which is also XNNPACK's node order (facts sheet §2.3). The planted offset sits inside: element 0
    // of the second FullyConnected's output, which the rest of the run then follows.
    const auto insideBuild = [&](const std::vector<std::string>& names) {
        std::vector<double> h1Wrong = h1;
        h1Wrong[0] += plant;
        const std::vector<double> r1Wrong = relu(h1Wrong);
        const std::vector<double> logitsWrong = layers[2].apply(r1Wrong);
        const std::vector<double> probs = softmax(logitsWrong);
        const std::vector<double>* innerOutputs[4] = { &h0, &r0, &h1Wrong, &r1Wrong };
        RunWriter w;
        for (int k = 0; k < 4; ++k)
            w.inner(
                0, k, names.empty() ? std::string() : names[static_cast<std::size_t>(k)], { 1, h }, *innerOutputs[k]);
        w.tensor(0, scalar_type::Float, { 1, h }, f.input);
        w.tensor(0, scalar_type::Float, { 1, h }, r1Wrong);
        w.tensor(1, scalar_type::Float, { 1, kClasses }, logitsWrong);
        w.tensor(2, scalar_type::Float, { 1, kClasses }, probs);
        w.tensor(0, scalar_type::Float, { 1, kClasses }, probs, true);
        GapBuild build;
        build.program = makeMlpComparePair(hidden).lowered;
        w.finish(build);
        DelegateMapEntry delegate;
        delegate.backend = "XnnpackBackend";
        for (int k = 0; k < 4; ++k)
            delegate.identifiers.push_back(
                { names.empty() ? std::to_string(k) : names[static_cast<std::size_t>(k)], { DebugHandle(k + 1) } });
        build.etrecord = record({ { 1, 2, 3, 4 }, { 5 }, { 6 } }, delegate);
        return build;
    };
    f.inside = insideBuild({});
    f.insideNamed = insideBuild({ "linear_1", "relu_1", "linear_2", "relu_2" });
    f.h1 = h1;

    {
        const double s0 = symmetricScale(h0);
        f.scale0 = s0;
        const std::vector<double> q0 = quantize(h0, s0);
        const std::vector<double> rq0 = relu(q0);
        const std::vector<double> d0 = dequantize(rq0, s0);
        const std::vector<double> qh1 = layers[1].apply(d0);
        const double s1 = symmetricScale(qh1);
        const std::vector<double> q1 = quantize(qh1, s1);
        const std::vector<double> rq1 = relu(q1);
        const std::vector<double> d1 = dequantize(rq1, s1);
        std::vector<double> qlogits = layers[2].apply(d1);
        qlogits[0] += plant;
        const std::vector<double> probs = softmax(qlogits);
        RunWriter w;
        w.tensor(0, scalar_type::Float, { 1, h }, h0);
        w.tensor(1, scalar_type::Char, { 1, h }, q0);
        w.tensor(2, scalar_type::Char, { 1, h }, rq0);
        w.tensor(3, scalar_type::Float, { 1, h }, d0);
        w.tensor(4, scalar_type::Float, { 1, h }, qh1);
        w.tensor(5, scalar_type::Char, { 1, h }, q1);
        w.tensor(6, scalar_type::Char, { 1, h }, rq1);
        w.tensor(7, scalar_type::Float, { 1, h }, d1);
        w.tensor(8, scalar_type::Float, { 1, kClasses }, qlogits);
        w.tensor(9, scalar_type::Float, { 1, kClasses }, probs);
        w.tensor(0, scalar_type::Float, { 1, kClasses }, probs, true);
        f.quantized.program = quantizedProgram(layers, hidden, s0, s1);
        w.finish(f.quantized);
        f.quantized.etrecord = record({ { 1 }, { 7 }, { 2 }, { 8 }, { 3 }, { 9 }, { 4 }, { 10 }, { 5 }, { 6 } });
    }
    return f;
}

} // namespace etscope::core
