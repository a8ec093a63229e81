// SPDX-License-Identifier: MIT
#include "core/writer/transformerxnnpack.h"

#include "core/writer/segmentlayout.h"
#include "core/writer/syntheticmodels.h"
#include "core/writer/xnnpackwriter.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace etscope::core {

namespace {

/// One XNNPACK layer, node by node. Quantize* steps exist only in the quantised layer.
enum class Step {
    Quantize,
    Query,
    Key,
    Value,
    ReshapeQuery,
    TransposeQuery,
    ReshapeKey,
    TransposeKey,
    ReshapeValue,
    TransposeValue,
    Scores,
    Scale,
    Softmax,
    Context,
    TransposeContext,
    ReshapeContext,
    QuantizeContext,
    Projection,
    Residual,
    QuantizeResidual,
    Up,
    Gelu,
    QuantizeGelu,
    Down,
    MlpResidual,
};

std::vector<Step> layerSteps(bool quantized)
{
    std::vector<Step> steps;
    for (int i = 0; i <= static_cast<int>(Step::MlpResidual); ++i) {
        const auto step = static_cast<Step>(i);
        const bool quantize = step == Step::Quantize || step == Step::QuantizeContext || step == Step::QuantizeResidual
            || step == Step::QuantizeGelu;
        if (quantized || !quantize)
            steps.push_back(step);
    }
    return steps;
}

/// Uniform bytes from `seed` (int8 filter values).
std::vector<std::uint8_t> pseudoRandomBytes(std::size_t count, std::uint32_t seed)
{
    std::vector<std::uint8_t> bytes(count);
    std::uint64_t state = 0x2545f4914f6cdd1dULL ^ (static_cast<std::uint64_t>(seed) * 0x9e3779b97f4a7c15ULL);
    for (std::uint8_t& byte : bytes) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        byte = static_cast<std::uint8_t>(state >> 56);
    }
    return bytes;
}

class XnnBlockBuilder {
public:
    XnnBlockBuilder(const XnnBlockOptions& options, std::uint32_t& seed, std::uint32_t& debugHandle,
        std::vector<NamedBlobSpec>& namedData, XnnBlock& out)
        : m_options(options)
        , m_seed(seed)
        , m_debugHandle(debugHandle)
        , m_namedData(namedData)
        , m_out(out)
        , m_s(static_cast<std::uint32_t>(options.dims.sequence))
        , m_h(static_cast<std::uint32_t>(options.dims.hidden))
        , m_heads(static_cast<std::uint32_t>(options.dims.heads))
        , m_f(static_cast<std::uint32_t>(options.dims.ffnRatio * options.dims.hidden))
    {
    }

    void build();

private:
    void step(Step step);
    std::uint32_t hidden(std::vector<std::uint32_t> dims, int datatype = xnn::datatype::Fp32);
    std::uint32_t constant(int datatype, std::vector<std::uint32_t> dims, std::vector<std::uint8_t> bytes);
    std::uint32_t quantize(std::uint32_t input);
    std::uint32_t fullyConnected(std::uint32_t fp32Input, std::uint32_t in, std::uint32_t out);
    std::uint32_t unary(XnnNodeType type, std::uint32_t input, std::vector<std::uint32_t> dims);
    std::uint32_t binary(XnnNodeType type, std::uint32_t a, std::uint32_t b, std::vector<std::uint32_t> dims);
    std::uint32_t reshape(std::uint32_t input, std::vector<std::uint32_t> dims);
    std::uint32_t transpose(std::uint32_t input, std::vector<std::uint32_t> perm);
    void add(XnnNodeSpec node);

    const XnnBlockOptions& m_options;
    std::uint32_t& m_seed;
    std::uint32_t& m_debugHandle;
    std::vector<NamedBlobSpec>& m_namedData;
    XnnBlock& m_out;
    XnnGraphSpec m_graph;
    std::uint32_t m_s, m_h, m_heads, m_f;
    std::uint32_t m_scale = xnn::kInvalidId; ///< one scale constant shared by every layer's scores
    std::uint32_t m_layerInput = 0;
    std::uint32_t m_quantized = 0; ///< the Convert output the next FullyConnected reads
    std::uint32_t m_q = 0, m_k = 0, m_v = 0, m_scores = 0, m_context = 0, m_residual = 0, m_mlp = 0;
    std::uint32_t m_lastHidden = 0; ///< the latest fp32 [1, S, H] value: the graph's output
};

std::uint32_t XnnBlockBuilder::hidden(std::vector<std::uint32_t> dims, int datatype)
{
    return m_graph.addInternal(datatype, std::move(dims));
}

std::uint32_t XnnBlockBuilder::constant(int datatype, std::vector<std::uint32_t> dims, std::vector<std::uint8_t> bytes)
{
    if (!m_options.namedWeights)
        return m_graph.addConstant(datatype, std::move(dims), std::move(bytes));
    // XNNPACK names shared weights by their digest; contentKey stands in for it.
    const std::string key = contentKey(bytes);
    const std::uint64_t size = bytes.size();
    m_namedData.push_back({ key, std::move(bytes), 16 });
    return m_graph.addNamedConstant(datatype, std::move(dims), key, size);
}

void XnnBlockBuilder::add(XnnNodeSpec node)
{
    node.debugHandle = m_debugHandle++;
    ++m_out.nodeCounts[xnnNodeTypeName(node.type)];
    ++m_out.nodes;
    const std::vector<std::uint32_t> hiddenDims { 1, m_s, m_h };
    for (const std::uint32_t output : node.outputs) {
        const XnnValueSpec& value = m_graph.values[output];
        if (value.datatype == xnn::datatype::Fp32 && value.dims == hiddenDims)
            m_lastHidden = output;
    }
    m_graph.addNode(std::move(node));
}

std::uint32_t XnnBlockBuilder::quantize(std::uint32_t input)
{
    // Dynamic per-token int8: the runtime computes each row's scale; only the scheme is stored.
    const std::uint32_t out = hidden(m_graph.values[input].dims, xnn::datatype::QDInt8);
    XnnQuantSpec quant;
    quant.kind = XnnQuantSpec::Kind::PerTokenDynamic;
    quant.numNonbatchDims = 1;
    m_graph.values[out].quant = quant;
    add(XnnNodeSpec::unary(XnnNodeType::Convert, input, out));
    return out;
}

std::uint32_t XnnBlockBuilder::fullyConnected(std::uint32_t fp32Input, std::uint32_t in, std::uint32_t out)
{
    std::uint32_t filter = 0;
    if (m_options.quantized) {
        filter = constant(xnn::datatype::QCInt8, { out, in }, pseudoRandomBytes(std::size_t(out) * in, m_seed++));
        XnnQuantSpec quant;
        quant.kind = XnnQuantSpec::Kind::PerChannel;
        quant.channelDim = 0;
        const std::vector<std::uint8_t> scales = pseudoRandomFloats(out, m_seed++, 0.004f);
        for (std::uint32_t i = 0; i < out; ++i) {
            std::uint32_t bits = 0;
            for (int b = 0; b < 4; ++b)
                bits |= std::uint32_t(scales[i * 4 + b]) << (8 * b);
            quant.scales.push_back(0.005f + std::abs(std::bit_cast<float>(bits)));
        }
        m_graph.values[filter].quant = quant;
    } else {
        filter = constant(xnn::datatype::Fp32, { out, in }, pseudoRandomFloats(std::size_t(out) * in, m_seed++));
    }
    const std::uint32_t bias = constant(xnn::datatype::Fp32, { out }, pseudoRandomFloats(out, m_seed++, 0.1f));
    std::vector<std::uint32_t> dims = m_graph.values[fp32Input].dims;
    dims.back() = out;
    const std::uint32_t result = hidden(std::move(dims));
    add(XnnNodeSpec::fullyConnected(m_options.quantized ? m_quantized : fp32Input, filter, bias, result));
    return result;
}

std::uint32_t XnnBlockBuilder::unary(XnnNodeType type, std::uint32_t input, std::vector<std::uint32_t> dims)
{
    const std::uint32_t out = hidden(std::move(dims));
    add(XnnNodeSpec::unary(type, input, out));
    return out;
}

std::uint32_t XnnBlockBuilder::binary(
    XnnNodeType type, std::uint32_t a, std::uint32_t b, std::vector<std::uint32_t> dims)
{
    const std::uint32_t out = hidden(std::move(dims));
    add(XnnNodeSpec::binary(type, a, b, out));
    return out;
}

std::uint32_t XnnBlockBuilder::reshape(std::uint32_t input, std::vector<std::uint32_t> dims)
{
    XnnNodeSpec node = XnnNodeSpec::unary(XnnNodeType::StaticReshape, input, hidden(dims));
    node.list = std::move(dims);
    const std::uint32_t out = node.outputs[0];
    add(std::move(node));
    return out;
}

std::uint32_t XnnBlockBuilder::transpose(std::uint32_t input, std::vector<std::uint32_t> perm)
{
    const std::vector<std::uint32_t>& from = m_graph.values[input].dims;
    std::vector<std::uint32_t> dims;
    dims.reserve(perm.size());
    for (const std::uint32_t axis : perm)
        dims.push_back(from[axis]);
    const std::uint32_t out = hidden(std::move(dims));
    add(XnnNodeSpec::transpose(std::move(perm), input, out));
    return out;
}

void XnnBlockBuilder::step(Step step)
{
    const std::uint32_t d = m_h / m_heads;
    const std::vector<std::uint32_t> split { 1, m_s, m_heads, d };
    switch (step) {
    case Step::Quantize:
        m_quantized = quantize(m_layerInput);
        break;
    case Step::Query:
        m_q = fullyConnected(m_layerInput, m_h, m_h);
        break;
    case Step::Key:
        m_k = fullyConnected(m_layerInput, m_h, m_h);
        break;
    case Step::Value:
        m_v = fullyConnected(m_layerInput, m_h, m_h);
        break;
    case Step::ReshapeQuery:
        m_q = reshape(m_q, split);
        break;
    case Step::TransposeQuery:
        m_q = transpose(m_q, { 0, 2, 1, 3 });
        break;
    case Step::ReshapeKey:
        m_k = reshape(m_k, split);
        break;
    case Step::TransposeKey:
        m_k = transpose(m_k, { 0, 2, 3, 1 });
        break;
    case Step::ReshapeValue:
        m_v = reshape(m_v, split);
        break;
    case Step::TransposeValue:
        m_v = transpose(m_v, { 0, 2, 1, 3 });
        break;
    case Step::Scores:
        m_scores = binary(XnnNodeType::BatchMatrixMultiply, m_q, m_k, { 1, m_heads, m_s, m_s });
        break;
    case Step::Scale:
        if (m_scale == xnn::kInvalidId) // created on first use, so a cut-short graph has no unread constant
            m_scale = m_graph.addConstant(xnn::datatype::Fp32, { 1 }, filledFloats(1, 1.0f / std::sqrt(float(d))));
        m_scores = binary(XnnNodeType::Multiply, m_scores, m_scale, { 1, m_heads, m_s, m_s });
        break;
    case Step::Softmax:
        m_scores = unary(XnnNodeType::Softmax, m_scores, { 1, m_heads, m_s, m_s });
        break;
    case Step::Context:
        m_context = binary(XnnNodeType::BatchMatrixMultiply, m_scores, m_v, { 1, m_heads, m_s, d });
        break;
    case Step::TransposeContext:
        m_context = transpose(m_context, { 0, 2, 1, 3 });
        break;
    case Step::ReshapeContext:
        m_context = reshape(m_context, { 1, m_s, m_h });
        break;
    case Step::QuantizeContext:
        m_quantized = quantize(m_context);
        break;
    case Step::Projection:
        m_context = fullyConnected(m_context, m_h, m_h);
        break;
    case Step::Residual:
        m_residual = binary(XnnNodeType::Add, m_context, m_layerInput, { 1, m_s, m_h });
        break;
    case Step::QuantizeResidual:
        m_quantized = quantize(m_residual);
        break;
    case Step::Up:
        m_mlp = fullyConnected(m_residual, m_h, m_f);
        break;
    case Step::Gelu:
        m_mlp = unary(XnnNodeType::Gelu, m_mlp, { 1, m_s, m_f });
        break;
    case Step::QuantizeGelu:
        m_quantized = quantize(m_mlp);
        break;
    case Step::Down:
        m_mlp = fullyConnected(m_mlp, m_f, m_h);
        break;
    case Step::MlpResidual:
        m_layerInput = binary(XnnNodeType::Add, m_mlp, m_residual, { 1, m_s, m_h });
        break;
    }
}

void XnnBlockBuilder::build()
{
    const std::vector<Step> steps = layerSteps(m_options.quantized);
    const int budget = m_options.nodes > 0 ? std::max(2, m_options.nodes) : static_cast<int>(steps.size());
    m_layerInput = m_graph.addExternalInput(xnn::datatype::Fp32, { 1, m_s, m_h });
    m_lastHidden = m_layerInput;
    for (int n = 0; n < budget; ++n) {
        const std::size_t position = static_cast<std::size_t>(n) % steps.size();
        if (position == 0)
            ++m_out.layers;
        step(steps[position]);
    }
    // The graph's output is a value nodes wrote; mark it as the partitioner marks a partition's result.
    m_graph.values[m_lastHidden].flags |= xnn::kFlagExternalOutput;
    m_graph.outputIds.push_back(m_lastHidden);
    m_out.payload = writeXnnpackPayload(m_graph).value();
}

} // namespace

XnnBlock makeXnnTransformerBlock(const XnnBlockOptions& options, std::uint32_t& seed, std::uint32_t& debugHandle,
    std::vector<NamedBlobSpec>& namedData)
{
    XnnBlock out;
    XnnBlockBuilder(options, seed, debugHandle, namedData, out).build();
    return out;
}

} // namespace etscope::core
