// SPDX-License-Identifier: MIT
// The demo's ETDump pair: the forward pass of makeDemoProgram() evaluated from its own weights,
// logged the way the runtime logs a run (facts sheet §4.3, §4.4; generated/README.md).
#include "core/writer/demorun.h"

#include "core/debug/etdump.h"
#include "core/util/scalartype.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/syntheticmodels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace etscope::core {

namespace {

std::vector<double> weights(std::size_t count, std::uint32_t seed, float scale = demo::kWeightScale)
{
    const std::vector<std::uint8_t> bytes = pseudoRandomFloats(count, seed, scale);
    std::vector<double> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        float f = 0;
        std::memcpy(&f, bytes.data() + 4 * i, 4);
        out[i] = f;
    }
    return out;
}

/// Every stage stores float32 results, as the runtime does.
void toFloat32(std::vector<double>& values)
{
    for (double& v : values)
        v = static_cast<float>(v);
}

/// The device's XNNPACK block computes in fp16: round to the nearest half-precision value.
void toHalf(std::vector<double>& values)
{
    const std::vector<std::uint8_t> bytes = encodeElements(scalar_type::Half, values);
    std::vector<double> back;
    decodeElements(scalar_type::Half, bytes.data(), values.size(), back);
    values = std::move(back);
}

/// The device's NPU returns symmetric int8 activations with scale 1/127 (its output is a tanh).
void toInt8(std::vector<double>& values)
{
    for (double& v : values)
        v = std::clamp(std::nearbyint(v * 127.0), -127.0, 127.0) / 127.0;
}

constexpr int kChannelsIn = 3, kChannelsOut = 8, kSide = 16, kPooled = 8, kHidden = 64, kFc1 = 32, kClasses = 10;

std::vector<double> demoInput()
{
    std::vector<double> x(static_cast<std::size_t>(kChannelsIn) * kSide * kSide);
    for (int c = 0; c < kChannelsIn; ++c)
        for (int h = 0; h < kSide; ++h)
            for (int w = 0; w < kSide; ++w)
                x[(c * kSide + h) * kSide + w] = std::sin(0.35 * h + 0.9 * c) * std::cos(0.25 * w - 0.4 * c);
    toFloat32(x);
    return x;
}

/// XNNPACK block: NCHW→NHWC, 3×3 convolution (pad 1, filter OHWI), clamp [0, 6], back to NCHW.
std::vector<double> convBlock(const std::vector<double>& x)
{
    const std::vector<double> filter
        = weights(static_cast<std::size_t>(kChannelsOut) * 9 * kChannelsIn, demo::kConvFilterSeed);
    const std::vector<double> bias = weights(kChannelsOut, demo::kConvBiasSeed);
    std::vector<double> out(static_cast<std::size_t>(kChannelsOut) * kSide * kSide);
    for (int oc = 0; oc < kChannelsOut; ++oc)
        for (int h = 0; h < kSide; ++h)
            for (int w = 0; w < kSide; ++w) {
                double sum = bias[oc];
                for (int kh = 0; kh < 3; ++kh)
                    for (int kw = 0; kw < 3; ++kw) {
                        const int y = h + kh - 1, z = w + kw - 1;
                        if (y < 0 || y >= kSide || z < 0 || z >= kSide)
                            continue;
                        for (int ic = 0; ic < kChannelsIn; ++ic)
                            sum += x[(ic * kSide + y) * kSide + z]
                                * filter[((oc * 3 + kh) * 3 + kw) * kChannelsIn + ic];
                    }
                out[(oc * kSide + h) * kSide + w] = std::clamp(sum, 0.0, 6.0);
            }
    return out;
}

/// aten::max_pool2d_with_indices 2×2, stride 2; indices are flat positions in the input plane.
void maxPool(const std::vector<double>& a, std::vector<double>& pooled, std::vector<double>& indices)
{
    pooled.assign(static_cast<std::size_t>(kChannelsOut) * kPooled * kPooled, 0);
    indices.assign(pooled.size(), 0);
    for (int c = 0; c < kChannelsOut; ++c)
        for (int h = 0; h < kPooled; ++h)
            for (int w = 0; w < kPooled; ++w) {
                double best = -std::numeric_limits<double>::infinity();
                int at = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        const int position = (2 * h + dy) * kSide + 2 * w + dx;
                        const double v = a[c * kSide * kSide + position];
                        if (v > best) {
                            best = v;
                            at = position;
                        }
                    }
                pooled[(c * kPooled + h) * kPooled + w] = best;
                indices[(c * kPooled + h) * kPooled + w] = at;
            }
}

/// AcmeNpuBackend, by definition of the demo: h[j] = tanh(4 · Σₖ f[8j+k] · body[8j+k]).
std::vector<double> npu(const std::vector<double>& f)
{
    const std::vector<double> body = weights(f.size(), demo::kNpuBodySeed, 0.5f);
    std::vector<double> h(kHidden);
    for (int j = 0; j < kHidden; ++j) {
        double sum = 0;
        for (int k = 0; k < 8; ++k)
            sum += f[8 * j + k] * body[8 * j + k];
        h[j] = std::tanh(4.0 * sum);
    }
    return h;
}

/// aten::addmm(bias, x [1, in], weight [in, out]).
std::vector<double> addmm(const std::vector<double>& x, std::uint32_t weightSeed, std::uint32_t biasSeed, int out)
{
    const auto in = static_cast<int>(x.size());
    const std::vector<double> weight = weights(static_cast<std::size_t>(in) * out, weightSeed);
    std::vector<double> y = weights(out, biasSeed);
    for (int o = 0; o < out; ++o)
        for (int i = 0; i < in; ++i)
            y[o] += x[i] * weight[i * out + o];
    return y;
}

} // namespace

DemoForward computeDemoForward(bool device)
{
    DemoForward f;
    f.x = demoInput();
    f.a0 = convBlock(f.x);
    device ? toHalf(f.a0) : toFloat32(f.a0);
    maxPool(f.a0, f.p0, f.indices);
    f.f0 = f.p0;
    f.h0 = npu(f.f0);
    device ? toInt8(f.h0) : toFloat32(f.h0);
    f.l0 = addmm(f.h0, demo::kFc1WeightSeed, demo::kFc1BiasSeed, kFc1);
    toFloat32(f.l0);
    f.r0 = f.l0;
    for (double& v : f.r0)
        v = std::max(v, 0.0);
    f.logits = addmm(f.r0, demo::kFc2WeightSeed, demo::kFc2BiasSeed, kClasses);
    toFloat32(f.logits);
    const double top = *std::max_element(f.logits.begin(), f.logits.end());
    double total = 0;
    for (double v : f.logits)
        total += std::exp(v - top);
    for (double v : f.logits)
        f.probs.push_back(std::exp(v - top) / total);
    toFloat32(f.probs);
    f.cls = { static_cast<double>(std::max_element(f.probs.begin(), f.probs.end()) - f.probs.begin()) };
    return f;
}

namespace {

/// Builds one run's blocks: time advances as events are logged, profile events are appended
/// when their span ends (as flatcc's writer does), debug events right after the kernel ran.
class TraceBuilder {
public:
    TraceBuilder()
    {
        m_default.name = "Default";
        m_execute.name = "Execute";
        const std::uint64_t loadStart = 1'180'000;
        m_default.profileEvents.push_back(profile("Method::init", -1, 0, loadStart + 600, loadStart + 1'210'000));
        m_default.profileEvents.push_back(profile("Program::load_method", -1, 0, loadStart, loadStart + 1'213'000));
        m_now = 2'400'000;
    }

    void tensor(int instruction, int scalarType, std::vector<std::int64_t> sizes, const std::vector<double>& values,
        bool output = false)
    {
        DebugEvent event
            = tensorDebugEvent(m_buffer, InstructionId(instruction), scalarType, std::move(sizes), values, output);
        event.sequence = m_sequence++;
        m_execute.debugEvents.push_back(std::move(event));
    }

    /// A portable kernel: OPERATOR_CALL around native_call_<op>, `work` ns inside.
    void kernel(int instruction, const char* op, std::uint64_t work,
        const std::vector<const std::vector<double>*>& outs, const std::vector<std::vector<std::int64_t>>& shapes,
        const std::vector<int>& dtypes)
    {
        const std::uint64_t start = m_now;
        const std::uint64_t innerStart = start + 420;
        for (std::size_t k = 0; k < outs.size(); ++k)
            tensor(instruction, dtypes[k], shapes[k], *outs[k]);
        m_execute.profileEvents.push_back(
            profile(std::string("native_call_") + op, 0, instruction, innerStart, innerStart + work));
        m_now = innerStart + work + 330;
        m_execute.profileEvents.push_back(profile("OPERATOR_CALL", 0, instruction, start, m_now));
        m_now += 180;
    }

    /// A delegate call: its internal events back to back (as XNNPACK lays them out), then every
    /// argument logged, then the DELEGATE_CALL span.
    void delegate(int instruction, const std::vector<std::pair<std::string, std::uint64_t>>& inner, std::uint64_t work,
        const std::vector<std::pair<std::vector<std::int64_t>, const std::vector<double>*>>& args)
    {
        const std::uint64_t start = m_now;
        std::uint64_t t = start + 2'100;
        for (const auto& [identifier, duration] : inner) {
            ProfileEvent event = profile({}, 0, instruction, t, t + duration);
            event.delegateDebugIdStr = identifier;
            m_execute.profileEvents.push_back(std::move(event));
            t += duration;
        }
        for (const auto& [shape, values] : args)
            tensor(instruction, scalar_type::Float, shape, *values);
        m_now = std::max(t, start + work) + 1'500;
        m_execute.profileEvents.push_back(profile("DELEGATE_CALL", 0, instruction, start, m_now));
        m_now += 200;
    }

    DemoTrace finish(const DemoForward& f)
    {
        m_execute.profileEvents.push_back(profile("Method::execute", -1, 0, 2'399'500, m_now + 350));
        tensor(0, scalar_type::Float, { 1, kClasses }, f.probs, true);
        tensor(0, scalar_type::Long, { 1 }, f.cls, true);
        return { writeETDump({ m_default, m_execute }), m_buffer.bytes() };
    }

private:
    ProfileEvent profile(std::string name, int chain, int instruction, std::uint64_t start, std::uint64_t end)
    {
        return profileEvent(std::move(name), chain, instruction, start, end, m_sequence++);
    }

    RunBlock m_default;
    RunBlock m_execute;
    DebugBufferWriter m_buffer { 64, 48 };
    std::uint64_t m_now = 0;
    std::size_t m_sequence = 0;
};

DemoTrace trace(bool device)
{
    const DemoForward f = computeDemoForward(device);
    TraceBuilder b;
    // The device's XNNPACK runs fp16 kernels; the host's fp32 ones, a little slower.
    const char* const type = device ? "F16" : "F32";
    const char* const bits = device ? "X16" : "X32";
    b.delegate(demo::kForwardXnnpackCall,
        { { std::string("Transpose (ND, ") + bits + ") #1", device ? 9'000 : 14'000 },
            { std::string("Convolution (NHWC, ") + type + ") IGEMM #1", device ? 31'000 : 58'000 },
            { std::string("Clamp (NC, ") + type + ") #1", device ? 3'000 : 5'000 },
            { std::string("Transpose (ND, ") + bits + ") #2", device ? 11'000 : 17'000 } },
        device ? 60'000 : 100'000, { { { 1, 3, kSide, kSide }, &f.x }, { { 1, 8, kSide, kSide }, &f.a0 } });
    const std::vector<std::int64_t> pooled { 1, 8, kPooled, kPooled };
    b.kernel(demo::kForwardMaxPool, "max_pool2d_with_indices.out", device ? 21'000 : 24'000, { &f.p0, &f.indices },
        { pooled, pooled }, { scalar_type::Float, scalar_type::Long });
    b.kernel(demo::kForwardView, "view_copy.out", 2'600, { &f.f0 }, { { 1, 512 } }, { scalar_type::Float });
    b.delegate(
        demo::kForwardNpuCall, {}, device ? 38'000 : 190'000, { { { 1, 512 }, &f.f0 }, { { 1, kHidden }, &f.h0 } });
    b.kernel(
        demo::kForwardFc1, "addmm.out", device ? 16'500 : 15'800, { &f.l0 }, { { 1, kFc1 } }, { scalar_type::Float });
    b.kernel(demo::kForwardRelu, "relu.out", 1'900, { &f.r0 }, { { 1, kFc1 } }, { scalar_type::Float });
    b.kernel(demo::kForwardFc2, "addmm.out", device ? 6'400 : 6'100, { &f.logits }, { { 1, kClasses } },
        { scalar_type::Float });
    b.kernel(demo::kForwardSoftmax, "_softmax.out", 3'700, { &f.probs }, { { 1, kClasses } }, { scalar_type::Float });
    b.kernel(demo::kForwardArgmax, "argmax.out", 1'800, { &f.cls }, { { 1 } }, { scalar_type::Long });
    return b.finish(f);
}

} // namespace

DemoTraces makeDemoTraces()
{
    return { trace(true), trace(false) };
}

} // namespace etscope::core
