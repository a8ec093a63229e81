// SPDX-License-Identifier: MIT
// Serialized TOSA 1.0 graphs (schema core/schema/tosa.fbs, facts from pytorch/executorch
// backends/arm/tosa/schemas/tosa_1.0.fbs). Operand names per operator are those of the TOSA 1.0
// specification as the SPIR-V TOSA extended instruction set grammar spells them
// (KhronosGroup/SPIRV-Headers include/spirv/unified1/extinst.tosa.001000.1.grammar.json, commit
// 0d25db97cb9b8f725e4c95e4553001710e7fc39d): attribute operands first, then tensor operands.
// CONST .. CONST_SHAPE (67..75) have no SPIR-V instruction; their operands follow the spec.
//
// Why one file: the operator table (operand names of every TOSA 1.0 op), the value printers and
// TosaReader are one reading of tosa.fbs, whose generated types no other decoder includes; the
// attribute text per operator (addAttributes) is much of the length.
#include "core/delegates/tosa.h"

#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "tosa_generated.h"

#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

namespace etscope::core {
namespace fbt = etscope::fb::tosa;

namespace {

struct OpInfo {
    const char* name;
    const char* attributes; ///< attribute operand names, space separated
    const char* tensors; ///< tensor operand names, space separated
};

// Index = TOSA 1.0 Op number - 1.
constexpr OpInfo kOps[] = {
    { "ARGMAX", "axis nan_mode", "input" }, // 1
    { "AVG_POOL2D", "kernel stride pad acc_type", "input input_zp output_zp" }, // 2
    { "CONV2D", "pad stride dilation acc_type local_bound", "input weight bias input_zp weight_zp" }, // 3
    { "CONV3D", "pad stride dilation acc_type local_bound", "input weight bias input_zp weight_zp" }, // 4
    { "DEPTHWISE_CONV2D", "pad stride dilation acc_type local_bound", "input weight bias input_zp weight_zp" }, // 5
    { "FFT2D", "inverse local_bound", "input_real input_imag" }, // 6
    { "MATMUL", "", "A B A_zp B_zp" }, // 7
    { "MAX_POOL2D", "kernel stride pad nan_mode", "input" }, // 8
    { "RFFT2D", "local_bound", "input_real" }, // 9
    { "TRANSPOSE_CONV2D", "out_pad stride acc_type local_bound", "input weight bias input_zp weight_zp" }, // 10
    { "CLAMP", "min_val max_val nan_mode", "input" }, // 11
    { "ERF", "", "input" }, // 12
    { "SIGMOID", "", "input" }, // 13
    { "TANH", "", "input" }, // 14
    { "ADD", "", "input1 input2" }, // 15
    { "ARITHMETIC_RIGHT_SHIFT", "round", "input1 input2" }, // 16
    { "BITWISE_AND", "", "input1 input2" }, // 17
    { "BITWISE_OR", "", "input1 input2" }, // 18
    { "BITWISE_XOR", "", "input1 input2" }, // 19
    { "INTDIV", "", "input1 input2" }, // 20
    { "LOGICAL_AND", "", "input1 input2" }, // 21
    { "LOGICAL_LEFT_SHIFT", "", "input1 input2" }, // 22
    { "LOGICAL_RIGHT_SHIFT", "", "input1 input2" }, // 23
    { "LOGICAL_OR", "", "input1 input2" }, // 24
    { "LOGICAL_XOR", "", "input1 input2" }, // 25
    { "MAXIMUM", "nan_mode", "input1 input2" }, // 26
    { "MINIMUM", "nan_mode", "input1 input2" }, // 27
    { "MUL", "", "input1 input2 shift" }, // 28
    { "POW", "", "input1 input2" }, // 29
    { "SUB", "", "input1 input2" }, // 30
    { "TABLE", "", "input1 table" }, // 31
    { "ABS", "", "input1" }, // 32
    { "BITWISE_NOT", "", "input1" }, // 33
    { "CEIL", "", "input1" }, // 34
    { "CLZ", "", "input1" }, // 35
    { "COS", "", "input1" }, // 36
    { "EXP", "", "input1" }, // 37
    { "FLOOR", "", "input1" }, // 38
    { "LOG", "", "input1" }, // 39
    { "LOGICAL_NOT", "", "input1" }, // 40
    { "NEGATE", "", "input1 input1_zp output_zp" }, // 41
    { "RECIPROCAL", "", "input1" }, // 42
    { "RSQRT", "", "input1" }, // 43
    { "SIN", "", "input1" }, // 44
    { "SELECT", "", "input1 input2 input3" }, // 45
    { "EQUAL", "", "input1 input2" }, // 46
    { "GREATER", "", "input1 input2" }, // 47
    { "GREATER_EQUAL", "", "input1 input2" }, // 48
    { "REDUCE_ALL", "axis", "input" }, // 49
    { "REDUCE_ANY", "axis", "input" }, // 50
    { "REDUCE_MAX", "axis nan_mode", "input" }, // 51
    { "REDUCE_MIN", "axis nan_mode", "input" }, // 52
    { "REDUCE_PRODUCT", "axis", "input" }, // 53
    { "REDUCE_SUM", "axis", "input" }, // 54
    { "CONCAT", "axis", "input1" }, // 55
    { "PAD", "", "input1 padding pad_const" }, // 56
    { "RESHAPE", "", "input1 shape" }, // 57
    { "REVERSE", "axis", "input1" }, // 58
    { "SLICE", "", "input1 start size" }, // 59
    { "TILE", "", "input1 multiples" }, // 60
    { "TRANSPOSE", "perms", "input1" }, // 61
    { "GATHER", "", "values indices" }, // 62
    { "SCATTER", "", "values_in indices input" }, // 63
    { "RESIZE", "mode", "input scale offset border" }, // 64
    { "CAST", "", "input" }, // 65
    { "RESCALE", "scale32 rounding_mode per_channel input_unsigned output_unsigned",
        "input multiplier shift input_zp output_zp" }, // 66
    { "CONST", "", "" }, // 67
    { "IDENTITY", "", "input1" }, // 68
    { "CUSTOM", "", "input_list" }, // 69
    { "COND_IF", "", "condition input_list" }, // 70
    { "WHILE_LOOP", "", "input_list" }, // 71
    { "VARIABLE", "", "" }, // 72
    { "VARIABLE_WRITE", "", "input1" }, // 73
    { "VARIABLE_READ", "", "" }, // 74
    { "CONST_SHAPE", "", "" }, // 75
};

constexpr const char* kDTypes[] = { "UNKNOWN", "BOOL", "INT4", "INT8", "INT16", "INT32", "INT48", "FP32", "FP16",
    "BF16", "SHAPE", "FP8E4M3", "FP8E5M2" };

constexpr std::size_t kPreviewValues = 16; ///< constant values shown before "…"
constexpr std::size_t kMaxNodes = 2'000'000; ///< far above real graphs; bounds hostile ones

std::vector<std::string_view> splitNames(const char* text)
{
    std::vector<std::string_view> names;
    std::string_view rest(text);
    while (!rest.empty()) {
        const auto space = rest.find(' ');
        names.push_back(rest.substr(0, space));
        if (space == std::string_view::npos)
            break;
        rest.remove_prefix(space + 1);
    }
    return names;
}

/// Bits per element of a DType; 0 when unknown.
unsigned elementBits(fbt::DType type)
{
    switch (type) {
    case fbt::DType::BOOL:
    case fbt::DType::INT8:
    case fbt::DType::FP8E4M3:
    case fbt::DType::FP8E5M2:
        return 8;
    case fbt::DType::INT4:
        return 4;
    case fbt::DType::INT16:
    case fbt::DType::FP16:
    case fbt::DType::BF16:
        return 16;
    case fbt::DType::INT32:
    case fbt::DType::FP32:
        return 32;
    case fbt::DType::INT48:
        return 48;
    case fbt::DType::SHAPE:
        return 64; // shape values are stored as int64
    default:
        return 0;
    }
}

std::string dtypeText(fbt::DType type)
{
    const std::string_view name = tosaDTypeName(static_cast<std::uint32_t>(type));
    return name.empty() ? "dtype(" + std::to_string(static_cast<std::uint32_t>(type)) + ")" : std::string(name);
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1f;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {
            int shift = 0;
            while (!(mantissa & 0x400u)) {
                mantissa <<= 1;
                ++shift;
            }
            mantissa &= 0x3ffu;
            bits = sign | static_cast<std::uint32_t>(113 - shift) << 23 | (mantissa << 13);
        }
    } else {
        bits = sign | (exponent + 112) << 23 | (mantissa << 13);
    }
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

/// Element `i` of little-endian data of type `type`, as text; the caller checked the size.
std::string elementText(fbt::DType type, const std::uint8_t* data, std::size_t i)
{
    switch (type) {
    case fbt::DType::BOOL:
        return data[i] ? "true" : "false";
    case fbt::DType::INT4: {
        const int nibble = (i % 2 ? data[i / 2] >> 4 : data[i / 2]) & 0xf;
        return std::to_string(nibble >= 8 ? nibble - 16 : nibble);
    }
    case fbt::DType::INT8:
        return std::to_string(static_cast<std::int8_t>(data[i]));
    case fbt::DType::INT16:
        return std::to_string(static_cast<std::int16_t>(readLe16(data + 2 * i)));
    case fbt::DType::INT32:
        return std::to_string(static_cast<std::int32_t>(readLe32(data + 4 * i)));
    case fbt::DType::INT48: {
        std::uint64_t raw = 0;
        for (int b = 5; b >= 0; --b)
            raw = raw << 8 | data[6 * i + static_cast<std::size_t>(b)];
        const std::int64_t value = raw & (1ull << 47) ? static_cast<std::int64_t>(raw | 0xffff000000000000ull)
                                                      : static_cast<std::int64_t>(raw);
        return std::to_string(value);
    }
    case fbt::DType::SHAPE:
        return std::to_string(static_cast<std::int64_t>(readLe64(data + 8 * i)));
    case fbt::DType::FP32: {
        const std::uint32_t bits = readLe32(data + 4 * i);
        float value;
        std::memcpy(&value, &bits, sizeof value);
        return detail::floatText(value);
    }
    case fbt::DType::FP16:
        return detail::floatText(halfToFloat(readLe16(data + 2 * i)));
    case fbt::DType::BF16: {
        const std::uint32_t bits = static_cast<std::uint32_t>(readLe16(data + 2 * i)) << 16;
        float value;
        std::memcpy(&value, &bits, sizeof value);
        return detail::floatText(value);
    }
    default:
        return "0x" + toHex(std::span<const std::uint8_t>(data + i, 1));
    }
}

/// "[1, 2, 3]" for the first values of `count` elements held in `data`; empty when the type is
/// unknown or the data is too short for even one element.
std::string valuesText(fbt::DType type, std::span<const std::uint8_t> data, std::uint64_t count)
{
    const unsigned bits = elementBits(type);
    if (bits == 0 || count == 0)
        return {};
    const std::uint64_t fit = data.size() * 8 / bits;
    const std::uint64_t shown = std::min<std::uint64_t>({ count, fit, kPreviewValues });
    if (shown == 0)
        return {};
    std::string out = count == 1 ? "" : "[";
    for (std::uint64_t i = 0; i < shown; ++i)
        out += (i ? ", " : "") + elementText(type, data.data(), static_cast<std::size_t>(i));
    if (shown < count)
        out += ", … (" + std::to_string(count) + " values)";
    return count == 1 ? out : out + "]";
}

std::string intListText(const flatbuffers::Vector<std::int32_t>* values)
{
    return formatShape(vectorValues<std::int64_t>(values));
}

std::string boolText(bool value)
{
    return value ? "true" : "false";
}

std::string nanModeText(fbt::NanMode mode)
{
    switch (mode) {
    case fbt::NanMode::PROPAGATE:
        return "PROPAGATE";
    case fbt::NanMode::IGNORE:
        return "IGNORE";
    default:
        return "UNKNOWN (" + std::to_string(static_cast<std::uint32_t>(mode)) + ")";
    }
}

std::string roundingText(fbt::RoundingMode mode)
{
    switch (mode) {
    case fbt::RoundingMode::SINGLE_ROUND:
        return "SINGLE_ROUND";
    case fbt::RoundingMode::INEXACT_ROUND:
        return "INEXACT_ROUND";
    case fbt::RoundingMode::DOUBLE_ROUND:
        return "DOUBLE_ROUND";
    default:
        return "UNKNOWN (" + std::to_string(static_cast<std::uint32_t>(mode)) + ")";
    }
}

std::string resizeText(fbt::ResizeMode mode)
{
    switch (mode) {
    case fbt::ResizeMode::NEAREST:
        return "NEAREST";
    case fbt::ResizeMode::BILINEAR:
        return "BILINEAR";
    default:
        return "UNKNOWN (" + std::to_string(static_cast<std::uint32_t>(mode)) + ")";
    }
}

std::string stringText(const flatbuffers::String* text)
{
    return text ? text->str().substr(0, 256) : std::string();
}

/// One tensor (or shape) of a block, as operators see it.
struct TensorInfo {
    std::string name; ///< as stored (other blocks: "<block>/<name>" in labels)
    const fbt::Tensor* tensor = nullptr;
    const fbt::Shape* shape = nullptr;
    std::int32_t value = -1; ///< index in the graph's value space
    TensorMeta meta;
    std::optional<std::uint64_t> elements; ///< product of the shape when every dimension is known
    std::span<const std::uint8_t> data; ///< constant bytes (inside the FlatBuffer or the file)

    bool hasData() const { return !data.empty(); }
    fbt::DType type() const { return shape ? fbt::DType::SHAPE : tensor ? tensor->type() : fbt::DType::UNKNOWN; }
    /// "INT8 [1, 3]" plus " = [values]" for small constants.
    std::string text() const
    {
        std::string out = meta.dtype + " " + formatShape(meta.shape);
        if (hasData() && elements && *elements <= kPreviewValues)
            if (const std::string values = valuesText(type(), data, *elements); !values.empty())
                out += " = " + values;
        return out;
    }
};

class TosaReader {
public:
    TosaReader(std::span<const std::uint8_t> bytes, std::string where, Graph& graph)
        : m_bytes(bytes)
        , m_where(std::move(where))
        , m_graph(graph)
    {
    }

    void readBlock(const fbt::Block& block, std::size_t blockIndex, bool main, TosaGraphFacts& facts);
    bool full() const { return m_graph.nodes.size() >= kMaxNodes; }
    void warn(const std::string& message, std::optional<std::uint64_t> offset = std::nullopt)
    {
        if (m_graph.warnings.size() < 200)
            m_graph.warnings.push_back({ m_where + ": " + message, offset });
        else if (m_graph.warnings.size() == 200)
            m_graph.warnings.push_back({ m_where + ": more problems not listed", std::nullopt });
    }
    std::uint64_t offsetOf(const void* p) const
    {
        return static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(p) - m_bytes.data());
    }
    std::map<std::string, int> opCounts;
    std::uint64_t constantBytes = 0;
    std::size_t tensorCount = 0;

private:
    void collectTensors(const fbt::Block& block);
    NodeId sourceOf(const std::string& name, std::size_t op, const std::string& opName);
    void addConstant(const fbt::Operator& op, std::size_t index, const std::string& opName);
    void addOperator(const fbt::Operator& op, std::size_t index);
    void addAttributes(const fbt::Operator& op, Node& node, const std::vector<const TensorInfo*>& inputs);
    void tensorAttributes(Node& node, const TensorInfo& info) const;
    const TensorInfo* find(const std::string& name) const
    {
        const auto it = m_tensors.find(name);
        return it == m_tensors.end() ? nullptr : &it->second;
    }

    std::span<const std::uint8_t> m_bytes;
    std::string m_where;
    Graph& m_graph;
    std::string m_block; ///< "block 'main'" for messages
    std::string m_prefix; ///< "" for the main block, "<block>/" for others
    std::unordered_map<std::string, TensorInfo> m_tensors;
    std::unordered_map<std::string, NodeId> m_producer;
    std::int32_t m_nextValue = 0;
};

void TosaReader::collectTensors(const fbt::Block& block)
{
    m_tensors.clear();
    m_producer.clear();
    const auto add = [&](TensorInfo info, const void* at) {
        if (info.name.empty()) {
            warn(m_block + " has a tensor without a name", offsetOf(at));
            return;
        }
        if (m_tensors.count(info.name)) {
            warn(m_block + " declares tensor '" + info.name + "' twice; the first is used", offsetOf(at));
            return;
        }
        const std::string name = info.name;
        m_tensors.emplace(name, std::move(info));
    };
    if (const auto* tensors = block.tensors()) {
        tensorCount += tensors->size();
        for (const fbt::Tensor* tensor : *tensors) {
            TensorInfo info;
            info.name = stringText(tensor->name());
            info.tensor = tensor;
            info.value = m_nextValue++;
            info.meta.dtype = dtypeText(tensor->type());
            info.meta.shape = vectorValues<std::int64_t>(tensor->shape());
            std::uint64_t elements = 1;
            bool known = !tensor->is_unranked();
            for (const std::int64_t d : info.meta.shape) {
                if (d < 0 || (d > 0 && elements > UINT64_MAX / static_cast<std::uint64_t>(d)))
                    known = false;
                else
                    elements *= static_cast<std::uint64_t>(d);
            }
            if (known)
                info.elements = elements;
            if (tensor->data() && tensor->data()->size()) {
                info.data = { tensor->data()->data(), tensor->data()->size() };
            } else if (tensor->size() > 0) {
                // Graphs over 2 GB keep the bytes after the FlatBuffer, located from the file start.
                if (detail::rangeInside(m_bytes.size(), tensor->offset(), tensor->size()))
                    info.data = m_bytes.subspan(
                        static_cast<std::size_t>(tensor->offset()), static_cast<std::size_t>(tensor->size()));
                else
                    warn("tensor '" + info.name + "' places " + std::to_string(tensor->size()) + " bytes at offset "
                            + std::to_string(tensor->offset()) + ", outside the file",
                        offsetOf(tensor));
            }
            constantBytes += info.data.size();
            if (info.hasData() && info.elements) {
                const unsigned bits = elementBits(tensor->type());
                const std::uint64_t needed
                    = *info.elements > UINT64_MAX / 64 ? UINT64_MAX : (*info.elements * bits + 7) / 8;
                if (bits && info.data.size() < needed)
                    warn("tensor '" + info.name + "' holds " + std::to_string(info.data.size()) + " bytes, "
                            + std::to_string(*info.elements) + " " + info.meta.dtype + " values need "
                            + std::to_string(needed),
                        offsetOf(tensor));
            }
            add(std::move(info), tensor);
        }
    }
    if (const auto* shapes = block.shapes()) {
        for (const fbt::Shape* shape : *shapes) {
            TensorInfo info;
            info.name = stringText(shape->name());
            info.shape = shape;
            info.value = m_nextValue++;
            info.meta.dtype = "SHAPE";
            info.meta.shape = { static_cast<std::int64_t>(shape->rank()) };
            info.elements = shape->rank();
            if (shape->data() && shape->data()->size())
                info.data = { shape->data()->data(), shape->data()->size() };
            add(std::move(info), shape);
        }
    }
}

void TosaReader::tensorAttributes(Node& node, const TensorInfo& info) const
{
    node.attributes.add("tensor", info.name);
    node.attributes.add("dtype", info.meta.dtype);
    node.attributes.add("shape", formatShape(info.meta.shape));
    if (info.tensor && info.tensor->variable())
        node.attributes.add("variable",
            info.tensor->variable_name() && info.tensor->variable_name()->size() ? info.tensor->variable_name()->str()
                                                                                 : "true");
    if (info.tensor && info.tensor->is_unranked())
        node.attributes.add("unranked", "true");
    if (info.hasData()) {
        node.attributes.add("data",
            std::to_string(info.data.size()) + " bytes at offset " + std::to_string(offsetOf(info.data.data())));
        if (info.elements)
            if (const std::string values = valuesText(info.type(), info.data, *info.elements); !values.empty())
                node.attributes.add("values", values);
    }
}

/// The node that provides tensor `name`: its producer, else a Constant for a tensor with data,
/// else a placeholder for a tensor nothing wrote.
NodeId TosaReader::sourceOf(const std::string& name, std::size_t op, const std::string& opName)
{
    if (const auto it = m_producer.find(name); it != m_producer.end())
        return it->second;
    Node node;
    const TensorInfo* info = find(name);
    node.label = m_prefix + name;
    if (info) {
        node.value = ValueIndex(info->value);
        tensorAttributes(node, *info);
    }
    if (info && info->hasData()) {
        node.kind = NodeKind::Constant;
    } else {
        node.kind = NodeKind::View;
        node.inferred = true;
        node.attributes.add(
            "note", "read by operator " + std::to_string(op) + " (" + opName + ") before any operator writes it");
        if (!info)
            warn("operator " + std::to_string(op) + " (" + opName + ") of " + m_block + " reads tensor '" + name
                + "', which the block does not declare");
    }
    const NodeId id = m_graph.addNode(std::move(node));
    m_producer[name] = id;
    return id;
}

void TosaReader::addConstant(const fbt::Operator& op, std::size_t index, const std::string& opName)
{
    const auto* outputs = op.outputs();
    if (!outputs || outputs->size() == 0) {
        warn(opName + " operator " + std::to_string(index) + " of " + m_block + " has no output", offsetOf(&op));
        return;
    }
    for (const flatbuffers::String* output : *outputs) {
        const std::string name = stringText(output);
        Node node;
        node.kind = NodeKind::Constant;
        node.label = m_prefix + name;
        node.attributes.add("operator", opName + " (operator " + std::to_string(index) + ")");
        if (const TensorInfo* info = find(name)) {
            node.value = ValueIndex(info->value);
            tensorAttributes(node, *info);
            if (!info->hasData())
                warn(opName + " operator " + std::to_string(index) + " of " + m_block + " writes '" + name
                        + "', which holds no data",
                    offsetOf(&op));
        } else {
            warn(opName + " operator " + std::to_string(index) + " of " + m_block + " writes '" + name
                    + "', which the block does not declare",
                offsetOf(&op));
        }
        m_producer[name] = m_graph.addNode(std::move(node));
    }
}

void TosaReader::addAttributes(const fbt::Operator& op, Node& node, const std::vector<const TensorInfo*>& inputs)
{
    using A = fbt::Attr;
    const A type = op.attribute_type();
    if (type == A::NONE)
        return;
    if (!op.attribute()) {
        node.attributes.add("attribute", "type " + std::to_string(static_cast<int>(type)) + " without its table");
        return;
    }
    const auto add = [&](const char* name, const std::string& value) { node.attributes.add(name, value); };
    const auto conv = [&](const auto* a) {
        add("pad", intListText(a->pad()));
        add("stride", intListText(a->stride()));
        add("dilation", intListText(a->dilation()));
        add("acc_type", dtypeText(a->acc_type()));
        add("local_bound", boolText(a->local_bound()));
    };
    switch (type) {
    case A::ArgMaxAttr:
        add("axis", std::to_string(op.attribute_as_ArgMaxAttr()->axis()));
        add("nan_mode", nanModeText(op.attribute_as_ArgMaxAttr()->nan_mode()));
        break;
    case A::PoolAvgAttr: {
        const auto* a = op.attribute_as_PoolAvgAttr();
        add("kernel", intListText(a->kernel()));
        add("stride", intListText(a->stride()));
        add("pad", intListText(a->pad()));
        add("acc_type", dtypeText(a->acc_type()));
        break;
    }
    case A::ConvAttr:
        conv(op.attribute_as_ConvAttr());
        break;
    case A::Conv3dAttr:
        conv(op.attribute_as_Conv3dAttr());
        break;
    case A::DepthwiseAttr:
        conv(op.attribute_as_DepthwiseAttr());
        break;
    case A::Fft2dAttr:
        add("inverse", boolText(op.attribute_as_Fft2dAttr()->inverse()));
        add("local_bound", boolText(op.attribute_as_Fft2dAttr()->local_bound()));
        break;
    case A::PoolMaxAttr: {
        const auto* a = op.attribute_as_PoolMaxAttr();
        add("kernel", intListText(a->kernel()));
        add("stride", intListText(a->stride()));
        add("pad", intListText(a->pad()));
        add("nan_mode", nanModeText(a->nan_mode()));
        break;
    }
    case A::Rfft2dAttr:
        add("local_bound", boolText(op.attribute_as_Rfft2dAttr()->local_bound()));
        break;
    case A::TransposeConvAttr: {
        const auto* a = op.attribute_as_TransposeConvAttr();
        add("out_pad", intListText(a->out_pad()));
        add("stride", intListText(a->stride()));
        add("acc_type", dtypeText(a->acc_type()));
        add("local_bound", boolText(a->local_bound()));
        break;
    }
    case A::ClampAttr: {
        // The bounds are stored in the input's element type.
        const auto* a = op.attribute_as_ClampAttr();
        const fbt::DType inputType = !inputs.empty() && inputs[0] ? inputs[0]->type() : fbt::DType::UNKNOWN;
        const auto bound = [&](const flatbuffers::Vector<std::uint8_t>* v) {
            if (!v)
                return std::string("absent");
            const std::string text = valuesText(inputType, { v->data(), v->size() }, 1);
            return text.empty() ? "0x" + toHex({ v->data(), v->size() }, 16) : text;
        };
        add("min_val", bound(a->min_val()));
        add("max_val", bound(a->max_val()));
        add("nan_mode", nanModeText(a->nan_mode()));
        break;
    }
    case A::ArithRightShiftAttr:
        add("round", boolText(op.attribute_as_ArithRightShiftAttr()->round()));
        break;
    case A::MaximumAttr:
        add("nan_mode", nanModeText(op.attribute_as_MaximumAttr()->nan_mode()));
        break;
    case A::MinimumAttr:
        add("nan_mode", nanModeText(op.attribute_as_MinimumAttr()->nan_mode()));
        break;
    case A::ReduceAllAttr:
        add("axis", std::to_string(op.attribute_as_ReduceAllAttr()->axis()));
        break;
    case A::ReduceAnyAttr:
        add("axis", std::to_string(op.attribute_as_ReduceAnyAttr()->axis()));
        break;
    case A::ReduceMaxAttr:
        add("axis", std::to_string(op.attribute_as_ReduceMaxAttr()->axis()));
        add("nan_mode", nanModeText(op.attribute_as_ReduceMaxAttr()->nan_mode()));
        break;
    case A::ReduceMinAttr:
        add("axis", std::to_string(op.attribute_as_ReduceMinAttr()->axis()));
        add("nan_mode", nanModeText(op.attribute_as_ReduceMinAttr()->nan_mode()));
        break;
    case A::ReduceProductAttr:
        add("axis", std::to_string(op.attribute_as_ReduceProductAttr()->axis()));
        break;
    case A::ReduceSumAttr:
        add("axis", std::to_string(op.attribute_as_ReduceSumAttr()->axis()));
        break;
    case A::ConcatAttr:
        add("axis", std::to_string(op.attribute_as_ConcatAttr()->axis()));
        break;
    case A::ReverseAttr:
        add("axis", std::to_string(op.attribute_as_ReverseAttr()->axis()));
        break;
    case A::TransposeAttr:
        add("perms", intListText(op.attribute_as_TransposeAttr()->perms()));
        break;
    case A::ResizeAttr:
        add("mode", resizeText(op.attribute_as_ResizeAttr()->mode()));
        break;
    case A::RescaleAttr: {
        const auto* a = op.attribute_as_RescaleAttr();
        add("scale32", boolText(a->scale32()));
        add("rounding_mode", roundingText(a->rounding_mode()));
        add("per_channel", boolText(a->per_channel()));
        add("input_unsigned", boolText(a->input_unsigned()));
        add("output_unsigned", boolText(a->output_unsigned()));
        break;
    }
    case A::CustomAttr: {
        const auto* a = op.attribute_as_CustomAttr();
        add("operator_name", stringText(a->operator_name()));
        add("domain_name", stringText(a->domain_name()));
        add("implementation_attrs",
            std::to_string(a->implementation_attrs() ? a->implementation_attrs()->size() : 0) + " bytes");
        break;
    }
    case A::CondIfAttr:
        add("then_graph", stringText(op.attribute_as_CondIfAttr()->then_graph()));
        add("else_graph", stringText(op.attribute_as_CondIfAttr()->else_graph()));
        break;
    case A::WhileLoopAttr:
        add("cond_graph", stringText(op.attribute_as_WhileLoopAttr()->cond_graph()));
        add("body_graph", stringText(op.attribute_as_WhileLoopAttr()->body_graph()));
        break;
    default:
        break; // field-less attribute tables, and tags this build does not know
    }
}

void TosaReader::addOperator(const fbt::Operator& op, std::size_t index)
{
    const auto number = static_cast<std::uint32_t>(op.op());
    const std::string_view known = tosaOpName(number);
    const std::string opName = known.empty() ? "op " + std::to_string(number) : std::string(known);
    ++opCounts[opName];
    if (op.op() == fbt::Op::CONST || op.op() == fbt::Op::CONST_SHAPE) {
        addConstant(op, index, opName);
        return;
    }
    Node node;
    node.kind = NodeKind::Operator;
    node.label = known.empty() ? "unknown TOSA op " + std::to_string(number) : opName;
    node.opType = "TOSA " + opName;
    node.attributes.add("operator index", std::to_string(index));
    if (m_prefix.size())
        node.attributes.add("block", m_prefix.substr(0, m_prefix.size() - 1));
    if (known.empty()) {
        node.attributes.add("note", "TOSA 1.0 has no operator number " + std::to_string(number));
        warn(
            "operator " + std::to_string(index) + " of " + m_block + " has unknown op number " + std::to_string(number),
            offsetOf(&op));
    }
    // The attribute table belongs to one op: tag n is op n's table.
    const auto tag = static_cast<std::uint32_t>(op.attribute_type());
    if (tag != 0 && !known.empty() && tag != number)
        node.attributes.add("note",
            "attribute table of "
                + std::string(tosaOpName(tag).empty() ? "op " + std::to_string(tag) : tosaOpName(tag)));

    std::vector<std::string> inputNames;
    if (const auto* inputs = op.inputs())
        for (const flatbuffers::String* input : *inputs)
            inputNames.push_back(stringText(input));
    std::vector<const TensorInfo*> inputInfos;
    inputInfos.reserve(inputNames.size());
    for (const std::string& name : inputNames)
        inputInfos.push_back(find(name));
    addAttributes(op, node, inputInfos);

    const std::vector<std::string_view> roles = tosaOperandNames(number, true);
    for (std::size_t i = 0; i < inputNames.size(); ++i) {
        const TensorInfo* info = inputInfos[i];
        std::string role = i < roles.size() ? std::string(roles[i]) : "input " + std::to_string(i);
        if (i + 1 == roles.size() && roles[i].ends_with("_list") && inputNames.size() > roles.size())
            role = "input " + std::to_string(i); // variadic
        node.attributes.add("in " + std::to_string(i) + " (" + role + ")",
            m_prefix + inputNames[i] + (info ? ": " + info->text() : std::string(": not declared")));
        // A small constant operand is as good as an attribute: show it under its role.
        if (info && info->hasData() && info->elements && *info->elements <= kPreviewValues && i < roles.size() && i > 0)
            if (const std::string values = valuesText(info->type(), info->data, *info->elements); !values.empty())
                node.attributes.add(roles[i], values);
    }
    std::vector<std::string> outputNames;
    if (const auto* outputs = op.outputs())
        for (const flatbuffers::String* output : *outputs)
            outputNames.push_back(stringText(output));
    for (std::size_t o = 0; o < outputNames.size(); ++o) {
        const TensorInfo* info = find(outputNames[o]);
        node.attributes.add("out " + std::to_string(o),
            m_prefix + outputNames[o] + (info ? ": " + info->text() : std::string(": not declared")));
        if (!info)
            warn("operator " + std::to_string(index) + " (" + opName + ") of " + m_block + " writes '" + outputNames[o]
                    + "', which the block does not declare",
                offsetOf(&op));
    }
    if (op.location() && op.location()->text() && op.location()->text()->size())
        node.attributes.add("location", stringText(op.location()->text()));

    std::vector<std::pair<NodeId, std::string>> sources;
    std::set<std::string> seen;
    for (const std::string& name : inputNames)
        if (seen.insert(name).second)
            sources.emplace_back(sourceOf(name, index, opName), name);
    const NodeId id = m_graph.addNode(std::move(node));
    for (const auto& [from, name] : sources) {
        const TensorInfo* info = find(name);
        m_graph.addEdge({ from, id, ValueIndex(info ? info->value : -1), info ? info->meta : TensorMeta {}, false });
    }
    for (const std::string& name : outputNames)
        m_producer[name] = id;
}

void TosaReader::readBlock(const fbt::Block& block, std::size_t blockIndex, bool main, TosaGraphFacts& facts)
{
    const std::string blockName = stringText(block.name());
    m_block = "block '" + (blockName.empty() ? std::to_string(blockIndex) : blockName) + "'";
    m_prefix = main ? std::string() : (blockName.empty() ? std::to_string(blockIndex) : blockName) + "/";
    collectTensors(block);

    int position = 0;
    if (const auto* inputs = block.inputs()) {
        for (const flatbuffers::String* input : *inputs) {
            const std::string name = stringText(input);
            Node node;
            node.kind = NodeKind::Input;
            node.label = m_prefix + name;
            if (main)
                node.argPosition = position;
            if (const TensorInfo* info = find(name)) {
                node.value = ValueIndex(info->value);
                tensorAttributes(node, *info);
            } else {
                warn(m_block + " input " + std::to_string(position) + " names tensor '" + name
                        + "', which the block does not declare",
                    offsetOf(input));
            }
            m_producer[name] = m_graph.addNode(std::move(node));
            ++position;
        }
    }
    const int inputCount = position;
    if (const auto* operators = block.operators()) {
        for (flatbuffers::uoffset_t i = 0; i < operators->size(); ++i) {
            if (full()) {
                warn("more than " + std::to_string(kMaxNodes) + " nodes; the rest of " + m_block + " is not shown");
                return;
            }
            addOperator(*operators->Get(i), i);
        }
        facts.operatorCount += operators->size();
    }
    position = 0;
    if (const auto* outputs = block.outputs()) {
        for (const flatbuffers::String* output : *outputs) {
            const std::string name = stringText(output);
            Node node;
            node.kind = NodeKind::Output;
            node.label = m_prefix + name;
            if (main)
                node.argPosition = inputCount + position;
            const TensorInfo* info = find(name);
            if (info) {
                node.value = ValueIndex(info->value);
                tensorAttributes(node, *info);
            }
            const NodeId id = m_graph.addNode(std::move(node));
            if (const auto from = m_producer.find(name); from != m_producer.end())
                m_graph.addEdge({ from->second, id, ValueIndex(info ? info->value : -1),
                    info ? info->meta : TensorMeta {}, false });
            else
                warn(m_block + " output " + std::to_string(position) + " ('" + name + "') is written by no operator",
                    offsetOf(output));
            ++position;
        }
    }
    if (main) {
        facts.inputCount = inputCount;
        facts.outputCount = position;
    }
}

} // namespace

std::string_view tosaOpName(std::uint32_t op)
{
    return op >= 1 && op <= std::size(kOps) ? kOps[op - 1].name : std::string_view();
}

std::string_view tosaDTypeName(std::uint32_t dtype)
{
    return dtype < std::size(kDTypes) ? kDTypes[dtype] : std::string_view();
}

std::vector<std::string_view> tosaOperandNames(std::uint32_t op, bool tensorOperandsOnly)
{
    if (op < 1 || op > std::size(kOps))
        return {};
    std::vector<std::string_view> names
        = tensorOperandsOnly ? std::vector<std::string_view>() : splitNames(kOps[op - 1].attributes);
    for (const std::string_view name : splitNames(kOps[op - 1].tensors))
        names.push_back(name);
    return names;
}

Result<Graph> readTosaGraph(std::span<const std::uint8_t> bytes, const std::string& where, TosaGraphFacts* factsOut)
{
    if (bytes.size() < 8)
        return makeError(Error::Code::Truncated, where,
            "a TOSA graph needs at least 8 bytes, this one has " + std::to_string(bytes.size()), 0);
    if (std::memcmp(bytes.data() + 4, "TOSA", 4) != 0)
        return makeError(Error::Code::BadIdentifier, where,
            "not a TOSA graph: identifier " + magicText(bytes.subspan(4, 4)) + " (expected TOSA)", 4);
    if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return makeError(Error::Code::Limit, where, "the TOSA graph is larger than a FlatBuffer can be (2 GiB)", 0);
    if (!verifyFlatbuffer<fbt::Graph>(bytes.data(), bytes.size(), "TOSA", false))
        return makeError(Error::Code::Verifier, where, "the FlatBuffers verifier rejected the TOSA graph", 0);
    const fbt::Graph* root = fbt::GetGraph(bytes.data());

    Graph graph;
    graph.name = "TOSA graph";
    graph.format = "tosa";
    TosaGraphFacts facts;
    TosaReader reader(bytes, where, graph);
    const fbt::Version* version = root->version();
    const std::string versionText = std::to_string(version->major()) + "." + std::to_string(version->minor()) + "."
        + std::to_string(version->patch()) + (version->draft() ? " (draft)" : "");
    facts.facts.push_back({ "TOSA version", versionText });
    if (version->major() != 1)
        reader.warn("TOSA version " + versionText + ": this reader knows the 1.0 numbering of ops and types");

    std::size_t regions = 0;
    std::size_t blocks = 0;
    bool mainDone = false;
    if (const auto* list = root->regions()) {
        regions = list->size();
        for (flatbuffers::uoffset_t r = 0; r < list->size(); ++r) {
            const auto* blockList = list->Get(r)->blocks();
            if (!blockList)
                continue;
            for (flatbuffers::uoffset_t b = 0; b < blockList->size() && !reader.full(); ++b) {
                reader.readBlock(*blockList->Get(b), blocks, !mainDone, facts);
                mainDone = true;
                ++blocks;
            }
        }
    }
    if (!mainDone)
        reader.warn("the TOSA graph has no block");
    facts.facts.push_back({ "regions", std::to_string(regions) });
    facts.facts.push_back({ "blocks", std::to_string(blocks) });
    std::string kinds;
    for (const auto& [name, count] : reader.opCounts)
        kinds += (kinds.empty() ? "" : ", ") + name + " " + std::to_string(count);
    facts.facts.push_back(
        { "TOSA operators", std::to_string(facts.operatorCount) + (kinds.empty() ? "" : " (" + kinds + ")") });
    facts.facts.push_back({ "tensors", std::to_string(reader.tensorCount) });
    facts.facts.push_back({ "constant data", formatBytes(reader.constantBytes) });
    if (factsOut)
        *factsOut = std::move(facts);
    return graph;
}

} // namespace etscope::core

namespace etscope::core {

// TOSABackend (facts §3.4): the payload is the TOSA FlatBuffer itself.
bool decodeTosa(const DelegateContext& context, DelegateInfo& info)
{
    TosaGraphFacts facts;
    auto graph = readTosaGraph(context.payload, context.where + " (" + context.ref.backendId + ")", &facts);
    if (!graph) {
        context.warn(info, graph.error().reason, graph.error().offset);
        return false;
    }
    info.format = "tosa";
    info.facts.insert(info.facts.end(), facts.facts.begin(), facts.facts.end());
    for (const Warning& w : graph->warnings)
        info.warnings.push_back({ w.message,
            w.offset ? std::optional<std::uint64_t>(context.ref.payload.offset + *w.offset) : std::nullopt });
    graph->name = context.ref.backendId;
    graph->backendId = context.ref.backendId;
    info.inputCount = facts.inputCount;
    info.outputCount = facts.outputCount;
    info.summary = "TOSA graph: " + detail::plural(graph->operatorCount(), "operator", "operators") + ", "
        + detail::plural(static_cast<std::uint64_t>(facts.inputCount), "input", "inputs") + ", "
        + detail::plural(static_cast<std::uint64_t>(facts.outputCount), "output", "outputs");
    info.innerGraph = std::make_shared<Graph>(std::move(graph).value());
    return true;
}

} // namespace etscope::core
