// SPDX-License-Identifier: MIT
// XNNPACK payloads (facts sheet §3.1): XH00 header, XN01 FlatBuffer, constant data.
#include "core/writer/xnnpackwriter.h"

#include "core/writer/segmentlayout.h"

#include "xnnpack_generated.h"

#include <limits>

namespace etscope::core {
namespace fbx = etscope::fb::xnnpack;
using flatbuffers::Offset;

namespace {

constexpr const char* kWriter = "XNNPACK payload writer";
constexpr std::uint16_t kHeaderLength = 30;
constexpr std::uint32_t kFlatbufferOffset = 32; // the 30-byte header padded to 16

static_assert(static_cast<int>(fbx::XNodeUnion::XNNAdd) == static_cast<int>(XnnNodeType::Add));
static_assert(static_cast<int>(fbx::XNodeUnion::XNNConv2d) == static_cast<int>(XnnNodeType::Conv2d));
static_assert(static_cast<int>(fbx::XNodeUnion::XNNStaticSlice) == static_cast<int>(XnnNodeType::StaticSlice));
static_assert(static_cast<int>(fbx::XNodeUnion::XNNCos) == static_cast<int>(XnnNodeType::Cos));

std::uint32_t at(const std::vector<std::uint32_t>& ids, std::size_t index)
{
    return index < ids.size() ? ids[index] : xnn::kInvalidId;
}

class XnnSerializer {
public:
    XnnSerializer(const XnnGraphSpec& graph, const XnnWriteOptions& options)
        : m_graph(graph)
        , m_options(options)
    {
    }

    Result<std::vector<std::uint8_t>> write();

private:
    Offset<fbx::XValue> value(std::size_t index);
    Offset<void> nodeTable(const XnnNodeSpec& node);
    Offset<fbx::XNode> node(const XnnNodeSpec& node);
    std::uint32_t externalIdOf(std::size_t index, std::uint32_t id) const;

    const XnnGraphSpec& m_graph;
    const XnnWriteOptions& m_options;
    flatbuffers::FlatBufferBuilder m_fbb;
    std::vector<std::uint32_t> m_constantIndex; ///< per value
};

std::uint32_t XnnSerializer::externalIdOf(std::size_t index, std::uint32_t id) const
{
    if (const auto& given = m_graph.values[index].externalId)
        return *given;
    for (std::size_t i = 0; i < m_graph.inputIds.size(); ++i)
        if (m_graph.inputIds[i] == id)
            return static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < m_graph.outputIds.size(); ++i)
        if (m_graph.outputIds[i] == id)
            return static_cast<std::uint32_t>(m_graph.inputIds.size() + i);
    return xnn::kInvalidId;
}

Offset<fbx::XValue> XnnSerializer::value(std::size_t index)
{
    const XnnValueSpec& spec = m_graph.values[index];
    const std::uint32_t id = spec.idOut.value_or(static_cast<std::uint32_t>(index));
    const auto dims = m_fbb.CreateVector(spec.dims);
    const auto tensor = fbx::CreateTensorValue(m_fbb, static_cast<std::int16_t>(spec.datatype),
        static_cast<std::uint32_t>(spec.dims.size()), dims, m_constantIndex[index], externalIdOf(index, id), spec.flags,
        id);
    if (!spec.quant)
        return fbx::CreateXValue(m_fbb, fbx::XValueUnion::TensorValue, tensor.Union());

    const XnnQuantSpec& q = *spec.quant;
    using Q = fbx::QuantParams;
    Q tag = Q::PerTensorQuant;
    Offset<void> params;
    switch (q.kind) {
    case XnnQuantSpec::Kind::PerTensor:
        params = fbx::CreatePerTensorQuant(m_fbb, q.scale, q.zeroPoint).Union();
        break;
    case XnnQuantSpec::Kind::PerChannel: {
        const auto scales = m_fbb.CreateVector(q.scales);
        tag = Q::PerChannelQuant;
        params = fbx::CreatePerChannelQuant(m_fbb, scales, q.channelDim, 0, static_cast<std::uint32_t>(q.scales.size()))
                     .Union();
        break;
    }
    case XnnQuantSpec::Kind::PerTokenDynamic:
        tag = Q::PerTokenDynamicQuant;
        params = fbx::CreatePerTokenDynamicQuant(m_fbb, q.numNonbatchDims).Union();
        break;
    case XnnQuantSpec::Kind::PerChannelGroup: {
        const auto scales = m_fbb.CreateVector(q.scales);
        tag = Q::PerChannelGroupQuant;
        params = fbx::CreatePerChannelGroupQuant(
            m_fbb, scales, q.channelDim, q.groupSize, 0, 0, static_cast<std::uint32_t>(q.scales.size()))
                     .Union();
        break;
    }
    }
    const auto quantized = fbx::CreateQuantizedTensorValue(m_fbb, tensor, tag, params);
    return fbx::CreateXValue(m_fbb, fbx::XValueUnion::QuantizedTensorValue, quantized.Union());
}

Offset<void> XnnSerializer::nodeTable(const XnnNodeSpec& n)
{
    const auto& in = n.inputs;
    const auto& out = n.outputs;
    const XnnWindowSpec& w = n.window;
    using T = XnnNodeType;
    if (n.rawTag)
        return fbx::CreateNode1x1(m_fbb, at(in, 0), at(out, 0), n.flags).Union();
    switch (n.type) {
    case T::Add:
    case T::Div:
    case T::Minimum:
    case T::Maximum:
    case T::Multiply:
    case T::Subtract:
    case T::PReLU:
    case T::BatchMatrixMultiply:
        return fbx::CreateNode2x1(m_fbb, at(in, 0), at(in, 1), at(out, 0), n.flags).Union();
    case T::FullyConnected:
        return fbx::CreateFullyConnected(m_fbb, at(in, 0), at(in, 1), at(in, 2), at(out, 0), n.flags).Union();
    case T::Conv2d:
    case T::DepthwiseConv2d:
    case T::ConvTranspose2d:
        return fbx::CreateConv(m_fbb, w.paddingTop, w.paddingRight, w.paddingBottom, w.paddingLeft, w.height, w.width,
            w.strideHeight, w.strideWidth, w.dilationHeight, w.dilationWidth, w.groupInputChannels,
            w.groupOutputChannels, w.groups, w.adjustmentHeight, w.adjustmentWidth, at(in, 0), at(in, 1), at(in, 2),
            at(out, 0), n.flags)
            .Union();
    case T::AvgPooling2d:
    case T::MaxPooling2d:
        return fbx::CreatePooling2D(m_fbb, w.paddingTop, w.paddingRight, w.paddingBottom, w.paddingLeft, w.height,
            w.width, w.strideHeight, w.strideWidth, w.dilationHeight, w.dilationWidth, at(in, 0), at(out, 0), n.flags)
            .Union();
    case T::ArgMaxPooling2d:
        return fbx::CreateArgMaxPooling2d(m_fbb, w.paddingTop, w.paddingRight, w.paddingBottom, w.paddingLeft, w.height,
            w.width, at(in, 0), at(out, 0), at(out, 1), n.flags)
            .Union();
    case T::Concatenate2:
    case T::Concatenate3:
    case T::Concatenate4:
    case T::Concatenate5:
        return fbx::CreateCat(m_fbb, n.axis, at(in, 0), at(in, 1), at(in, 2), at(in, 3), at(out, 0), n.flags, at(in, 4))
            .Union();
    case T::StaticTranspose: {
        const auto perm = m_fbb.CreateVector(n.list);
        return fbx::CreateStaticTranspose(
            m_fbb, static_cast<std::uint32_t>(n.list.size()), perm, at(in, 0), at(out, 0), n.flags)
            .Union();
    }
    case T::StaticReshape: {
        const auto shape = m_fbb.CreateVector(n.list);
        return fbx::CreateStaticReshape(
            m_fbb, static_cast<std::uint32_t>(n.list.size()), shape, at(in, 0), at(out, 0), n.flags)
            .Union();
    }
    case T::StaticSlice: {
        const auto offsets = m_fbb.CreateVector(n.list);
        const auto sizes = m_fbb.CreateVector(n.list2);
        return fbx::CreateStaticSlice(
            m_fbb, static_cast<std::uint32_t>(n.list.size()), offsets, sizes, at(in, 0), at(out, 0), n.flags)
            .Union();
    }
    case T::StaticResizeBilinear2D:
        return fbx::CreateResizeBilinear2D(m_fbb, w.height, w.width, at(in, 0), at(out, 0), n.flags).Union();
    case T::StaticConstantPad: {
        const auto pre = m_fbb.CreateVector(n.list);
        const auto post = m_fbb.CreateVector(n.list2);
        return fbx::CreateConstantPad(m_fbb, pre, post, n.scalar, at(in, 0), at(out, 0), n.flags).Union();
    }
    case T::ELU:
        return fbx::CreateELU(m_fbb, n.scalar, at(in, 0), at(out, 0), n.flags).Union();
    case T::LeakyReLU:
        return fbx::CreateLeakyReLU(m_fbb, n.scalar, at(in, 0), at(out, 0), n.flags).Union();
    case T::ScaledDotProductAttention:
        return fbx::CreateSDPA(m_fbb, at(in, 0), at(in, 1), at(in, 2), at(in, 3), at(in, 4), at(out, 0), n.flags)
            .Union();
    default:
        // Every remaining type is one input, one output (Softmax, Clamp, Convert, …).
        return fbx::CreateNode1x1(m_fbb, at(in, 0), at(out, 0), n.flags).Union();
    }
}

Offset<fbx::XNode> XnnSerializer::node(const XnnNodeSpec& n)
{
    const auto table = nodeTable(n);
    Offset<fbx::OutputMinMax> minMax = 0;
    if (n.outputMinMax)
        minMax = fbx::CreateOutputMinMax(m_fbb, n.outputMinMax->first, n.outputMinMax->second);
    const auto tag = static_cast<fbx::XNodeUnion>(n.rawTag ? *n.rawTag : static_cast<std::uint8_t>(n.type));
    return fbx::CreateXNode(m_fbb, tag, table, n.debugHandle, minMax);
}

Result<std::vector<std::uint8_t>> XnnSerializer::write()
{
    // Constants are numbered from 1 in value order; entry 0 is the reserved dummy.
    std::vector<std::uint8_t> constantData;
    std::vector<Offset<fbx::ConstantDataOffset>> constantEntries;
    std::vector<Offset<fbx::Buffer>> legacyBuffers;
    if (m_options.header)
        constantEntries.push_back(fbx::CreateConstantDataOffset(m_fbb, 0, 0));
    else
        legacyBuffers.push_back(fbx::CreateBuffer(m_fbb));
    m_constantIndex.assign(m_graph.values.size(), 0);
    for (std::size_t i = 0; i < m_graph.values.size(); ++i) {
        const XnnValueSpec& v = m_graph.values[i];
        if (!v.isConstant())
            continue;
        if (!v.namedKey.empty()) {
            const auto key = m_fbb.CreateString(v.namedKey);
            constantEntries.push_back(
                fbx::CreateConstantDataOffset(m_fbb, std::numeric_limits<std::uint64_t>::max(), v.namedSize, key));
        } else if (m_options.header) {
            constantData.resize(alignUp(constantData.size(), m_options.constantAlignment), 0);
            constantEntries.push_back(
                fbx::CreateConstantDataOffset(m_fbb, constantData.size(), v.constantBytes->size()));
            constantData.insert(constantData.end(), v.constantBytes->begin(), v.constantBytes->end());
        } else {
            m_fbb.ForceVectorAlignment(v.constantBytes->size(), sizeof(std::uint8_t), 16);
            const auto storage = m_fbb.CreateVector(*v.constantBytes);
            legacyBuffers.push_back(fbx::CreateBuffer(m_fbb, storage));
        }
        const std::size_t count = m_options.header ? constantEntries.size() : legacyBuffers.size();
        m_constantIndex[i] = static_cast<std::uint32_t>(count - 1);
    }

    std::vector<Offset<fbx::XValue>> values;
    for (std::size_t i = 0; i < m_graph.values.size(); ++i)
        values.push_back(value(i));
    std::vector<Offset<fbx::XNode>> nodes;
    for (const XnnNodeSpec& n : m_graph.nodes)
        nodes.push_back(node(n));

    const auto version = m_fbb.CreateString(m_graph.version);
    const auto nodeVector = m_fbb.CreateVector(nodes);
    const auto valueVector = m_fbb.CreateVector(values);
    const auto inputs = m_fbb.CreateVector(m_graph.inputIds);
    const auto outputs = m_fbb.CreateVector(m_graph.outputIds);
    Offset<flatbuffers::Vector<Offset<fbx::Buffer>>> legacy = 0;
    Offset<flatbuffers::Vector<Offset<fbx::ConstantDataOffset>>> constants = 0;
    if (m_options.header)
        constants = m_fbb.CreateVector(constantEntries);
    else
        legacy = m_fbb.CreateVector(legacyBuffers);
    const std::uint32_t externs
        = m_graph.numExterns.value_or(static_cast<std::uint32_t>(m_graph.inputIds.size() + m_graph.outputIds.size()));
    m_fbb.Finish(
        fbx::CreateXNNGraph(m_fbb, version, nodeVector, valueVector, externs, inputs, outputs, legacy, 0, constants),
        m_options.identifier.c_str());

    const std::uint8_t* fb = m_fbb.GetBufferPointer();
    const std::uint64_t fbSize = m_fbb.GetSize();
    if (!m_options.header)
        return std::vector<std::uint8_t>(fb, fb + fbSize);

    const std::uint64_t constantOffset = alignUp(kFlatbufferOffset + fbSize, 16);
    if (constantOffset > std::numeric_limits<std::uint32_t>::max())
        return makeError(Error::Code::Limit, kWriter,
            "the graph is " + std::to_string(fbSize) + " bytes; the XH00 header holds 32-bit offsets");
    std::vector<std::uint8_t> bytes { 0, 0, 0, 0, 'X', 'H', '0', '0' };
    appendLe16(bytes, kHeaderLength);
    appendLe32(bytes, kFlatbufferOffset);
    appendLe32(bytes, static_cast<std::uint32_t>(fbSize));
    appendLe32(bytes, static_cast<std::uint32_t>(constantOffset));
    appendLe64(bytes, constantData.size());
    bytes.resize(kFlatbufferOffset, 0);
    bytes.insert(bytes.end(), fb, fb + fbSize);
    bytes.resize(constantOffset, 0);
    bytes.insert(bytes.end(), constantData.begin(), constantData.end());
    return bytes;
}

} // namespace

std::string xnnNodeTypeName(XnnNodeType type)
{
    const char* name = fbx::EnumNameXNodeUnion(static_cast<fbx::XNodeUnion>(type));
    return name && *name ? name : "XNNUnknown(" + std::to_string(static_cast<int>(type)) + ")";
}

XnnNodeSpec XnnNodeSpec::unary(XnnNodeType type, std::uint32_t input, std::uint32_t output)
{
    XnnNodeSpec n;
    n.type = type;
    n.inputs = { input };
    n.outputs = { output };
    return n;
}

XnnNodeSpec XnnNodeSpec::binary(XnnNodeType type, std::uint32_t a, std::uint32_t b, std::uint32_t output)
{
    XnnNodeSpec n;
    n.type = type;
    n.inputs = { a, b };
    n.outputs = { output };
    return n;
}

XnnNodeSpec XnnNodeSpec::fullyConnected(
    std::uint32_t input, std::uint32_t filter, std::uint32_t bias, std::uint32_t output)
{
    XnnNodeSpec n;
    n.type = XnnNodeType::FullyConnected;
    n.inputs = { input, filter, bias };
    n.outputs = { output };
    return n;
}

XnnNodeSpec XnnNodeSpec::conv2d(
    std::uint32_t input, std::uint32_t filter, std::uint32_t bias, std::uint32_t output, const XnnWindowSpec& window)
{
    XnnNodeSpec n;
    n.type = XnnNodeType::Conv2d;
    n.inputs = { input, filter, bias };
    n.outputs = { output };
    n.window = window;
    return n;
}

XnnNodeSpec XnnNodeSpec::transpose(std::vector<std::uint32_t> perm, std::uint32_t input, std::uint32_t output)
{
    XnnNodeSpec n = unary(XnnNodeType::StaticTranspose, input, output);
    n.list = std::move(perm);
    return n;
}

XnnNodeSpec XnnNodeSpec::clamp(std::uint32_t input, std::uint32_t output, float min, float max)
{
    XnnNodeSpec n = unary(XnnNodeType::Clamp, input, output);
    n.outputMinMax = std::make_pair(min, max);
    return n;
}

std::uint32_t XnnGraphSpec::addValue(XnnValueSpec value)
{
    values.push_back(std::move(value));
    return static_cast<std::uint32_t>(values.size() - 1);
}

std::uint32_t XnnGraphSpec::addExternalInput(int datatype, std::vector<std::uint32_t> dims)
{
    XnnValueSpec v;
    v.datatype = datatype;
    v.dims = std::move(dims);
    v.flags = xnn::kFlagExternalInput;
    const std::uint32_t id = addValue(std::move(v));
    inputIds.push_back(id);
    return id;
}

std::uint32_t XnnGraphSpec::addExternalOutput(int datatype, std::vector<std::uint32_t> dims)
{
    XnnValueSpec v;
    v.datatype = datatype;
    v.dims = std::move(dims);
    v.flags = xnn::kFlagExternalOutput;
    const std::uint32_t id = addValue(std::move(v));
    outputIds.push_back(id);
    return id;
}

std::uint32_t XnnGraphSpec::addInternal(int datatype, std::vector<std::uint32_t> dims)
{
    XnnValueSpec v;
    v.datatype = datatype;
    v.dims = std::move(dims);
    return addValue(std::move(v));
}

std::uint32_t XnnGraphSpec::addConstant(int datatype, std::vector<std::uint32_t> dims, std::vector<std::uint8_t> bytes)
{
    XnnValueSpec v;
    v.datatype = datatype;
    v.dims = std::move(dims);
    v.constantBytes = std::move(bytes);
    return addValue(std::move(v));
}

std::uint32_t XnnGraphSpec::addNamedConstant(
    int datatype, std::vector<std::uint32_t> dims, std::string key, std::uint64_t size)
{
    XnnValueSpec v;
    v.datatype = datatype;
    v.dims = std::move(dims);
    v.namedKey = std::move(key);
    v.namedSize = size;
    return addValue(std::move(v));
}

Result<std::vector<std::uint8_t>> writeXnnpackPayload(const XnnGraphSpec& graph, const XnnWriteOptions& options)
{
    if (options.identifier.size() != 4)
        return makeError(
            Error::Code::Usage, kWriter, "the identifier must be 4 characters, not '" + options.identifier + "'");
    if (auto error = checkAlignment(kWriter, "the constant alignment", options.constantAlignment))
        return *error;
    if (!options.header)
        for (const XnnValueSpec& value : graph.values)
            if (!value.namedKey.empty())
                return makeError(Error::Code::Usage, kWriter,
                    "named constant '" + value.namedKey
                        + "' needs the XH00 layout; bare payloads keep constants inline");
    return XnnSerializer(graph, options).write();
}

} // namespace etscope::core
