// SPDX-License-Identifier: MIT
// The ML Program (MIL) of a Core ML model, read into an inner graph: one node per operation of
// the drawn function's block (nested cond/while blocks included), `const`/`constexpr_*`
// operations as Constant nodes, edges from the value names operations bind, function inputs
// and block outputs as Input/Output nodes placed at the DelegateCall's argument positions
// (metadata.json inputNames/outputNames). Each operation is joined to debug_info.json: its
// debug symbol — what the Core ML runtime logs as ETDump delegate_debug_id_str (facts §2.3) —
// and its AOT debug handles.
//
// Schema: core/schema/coreml_mil.proto (field numbers from apple/coremltools). Reading is
// bounded in two steps: the outer levels (Model → Program → Function → Block → operations)
// are walked here over the wire format, keeping only spans into the bytes; each operation is
// then parsed on its own by the generated code from a size-bounded array with a recursion
// limit. A hostile model therefore never grows into one huge message tree, an operation count
// is capped before anything is parsed, and damage stops the walk with what was read kept.
//
// Weight blobs ("blob storage v2", apple/coremltools mlmodel/src/MILBlob/Blob/StorageFormat.hpp
// @ 2e27bd6631ae484da62d0b034d7ba461559a80d4): a blob value's offset points at a 64-byte
// record: u32 sentinel 0xDEADBEEF, u32 data type (1 fp16, 2 fp32, 3 uint8, 4 int8), u64 size in
// bytes, u64 offset of the data in the file, then reserved words.
//
// Why one file: the bounded wire walk, the MIL type and value printers and MilReader are the stages
// of one reading of coreml_mil.proto; no other decoder includes the generated types they share.
#include "core/delegates/coremlprogram.h"

#include "core/delegates/decoderutil.h"
#include "core/delegates/targetfacts.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <coreml_mil.pb.h>
#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace etscope::core::coreml {

namespace {

namespace pb = etscope::coreml;

constexpr std::size_t kMaxOperations = 200000; ///< over all blocks; more are counted, not drawn
constexpr std::size_t kMaxOperationBytes = 4u << 20; ///< one operation's protobuf parsed at most
constexpr std::size_t kMaxDescriptionBytes = 4u << 20;
constexpr int kMaxRecursion = 48; ///< protobuf nesting accepted (Value/ValueType recurse)
constexpr int kMaxBlockDepth = 16; ///< nested cond/while blocks followed
constexpr std::size_t kMaxShownValues = 8; ///< immediate values spelled out
constexpr std::size_t kMaxShownDims = 16;
constexpr std::size_t kMaxFunctionFacts = 32;
constexpr std::size_t kMaxReads = 1024; ///< distinct values one operation reads, drawn as edges
constexpr std::size_t kMaxShownBindings = 32; ///< per parameter, in its attribute
constexpr int kMaxShownEntries = 64; ///< outputs, parameters, attributes of one operation
/// The longest constant value shown beside its name in an operation's parameters.
constexpr std::size_t kMaxInlineValue = 48;
constexpr std::size_t kMaxWarnings = 64; ///< then counted
constexpr std::uint32_t kBlobSentinel = 0xDEADBEEF;
constexpr std::size_t kBlobRecordSize = 64;

// ---- the wire format, for the outer levels ----

struct WireField {
    std::uint32_t number = 0;
    std::uint32_t type = 0; ///< 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
    std::uint64_t varint = 0;
    std::span<const std::uint8_t> bytes; ///< length-delimited content
    std::size_t offset = 0; ///< of the field's tag in the walked span
};

/// Walks the fields of one message. `next` is false at the end and on damage (then `damaged`
/// is set and `damageOffset` names the byte where reading stopped); a length-delimited field
/// that runs past the end is still returned, cut at the end, with `damaged` set.
class WireReader {
public:
    explicit WireReader(std::span<const std::uint8_t> data)
        : m_data(data)
    {
    }
    bool next(WireField& field);
    bool damaged() const { return m_damaged; }
    std::size_t damageOffset() const { return m_damageOffset; }
    const std::string& damageReason() const { return m_reason; }

private:
    bool varint(std::uint64_t& value);
    bool fail(std::string reason)
    {
        m_damaged = true;
        m_damageOffset = m_pos;
        m_reason = std::move(reason);
        return false;
    }
    std::span<const std::uint8_t> m_data;
    std::size_t m_pos = 0;
    bool m_damaged = false;
    std::size_t m_damageOffset = 0;
    std::string m_reason;
};

bool WireReader::varint(std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_pos >= m_data.size())
            return false;
        const std::uint8_t byte = m_data[m_pos++];
        value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

bool WireReader::next(WireField& field)
{
    if (m_damaged || m_pos >= m_data.size())
        return false;
    field = {};
    field.offset = m_pos;
    std::uint64_t tag = 0;
    if (!varint(tag))
        return fail("a field tag runs past the end");
    field.number = static_cast<std::uint32_t>(tag >> 3);
    field.type = static_cast<std::uint32_t>(tag & 7);
    if (field.number == 0 || tag >> 32)
        return fail("field number " + std::to_string(tag >> 3) + " is not valid");
    switch (field.type) {
    case 0:
        if (!varint(field.varint))
            return fail("a varint runs past the end");
        return true;
    case 1:
    case 5: {
        const std::size_t width = field.type == 1 ? 8 : 4;
        if (m_data.size() - m_pos < width)
            return fail("a fixed-width value runs past the end");
        m_pos += width;
        return true;
    }
    case 2: {
        std::uint64_t length = 0;
        if (!varint(length))
            return fail("a length runs past the end");
        if (length > m_data.size() - m_pos) {
            // Cut short: the caller still gets what is there (and reads it up to the cut).
            const std::size_t remain = m_data.size() - m_pos;
            field.bytes = m_data.subspan(m_pos);
            fail("field " + std::to_string(field.number) + " claims " + std::to_string(length) + " bytes, "
                + std::to_string(remain) + " remain");
            m_pos = m_data.size();
            return true;
        }
        field.bytes = m_data.subspan(m_pos, static_cast<std::size_t>(length));
        m_pos += static_cast<std::size_t>(length);
        return true;
    }
    default:
        return fail("wire type " + std::to_string(field.type) + " (field " + std::to_string(field.number)
            + ") is not used by Core ML models");
    }
}

std::string textOf(std::span<const std::uint8_t> bytes)
{
    return { reinterpret_cast<const char*>(bytes.data()), bytes.size() };
}

/// Parses one message with the generated code from exactly `bytes`, with a recursion limit.
template <typename Message> bool parseBounded(Message& message, std::span<const std::uint8_t> bytes)
{
    if (bytes.size() > kMaxOperationBytes)
        return false;
    google::protobuf::io::CodedInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
    stream.SetRecursionLimit(kMaxRecursion);
    return message.ParseFromCodedStream(&stream) && stream.ConsumedEntireMessage();
}

// ---- types and values ----

/// MIL DataType (MIL.proto) → the dtype spelled on edges.
std::string milTypeName(int type)
{
    switch (type) {
    case 1:
        return "bool";
    case 2:
        return "string";
    case 10:
        return "fp16";
    case 11:
        return "fp32";
    case 12:
        return "fp64";
    case 13:
        return "bf16";
    case 21:
        return "int8";
    case 22:
        return "int16";
    case 23:
        return "int32";
    case 24:
        return "int64";
    case 31:
        return "uint8";
    case 32:
        return "uint16";
    case 33:
        return "uint32";
    case 34:
        return "uint64";
    default:
        return "dtype " + std::to_string(type);
    }
}

/// Bytes per element of a MIL data type; 0 when not fixed.
std::uint64_t milTypeBytes(int type)
{
    switch (type) {
    case 1:
    case 21:
    case 31:
        return 1;
    case 10:
    case 13:
    case 22:
    case 32:
        return 2;
    case 11:
    case 23:
    case 33:
        return 4;
    case 12:
    case 24:
    case 34:
        return 8;
    default:
        return 0;
    }
}

/// ArrayFeatureType.ArrayDataType (FeatureTypes.proto) → dtype.
std::string arrayTypeName(int type)
{
    switch (type) {
    case 65552:
        return "fp16";
    case 65568:
        return "fp32";
    case 65600:
        return "fp64";
    case 131080:
        return "int8";
    case 131104:
        return "int32";
    default:
        return "array type " + std::to_string(type);
    }
}

std::string blobTypeName(std::uint32_t type)
{
    switch (type) {
    case 1:
        return "fp16";
    case 2:
        return "fp32";
    case 3:
        return "uint8";
    case 4:
        return "int8";
    default:
        return "blob type " + std::to_string(type);
    }
}

TensorMeta metaOf(const pb::CmlValueType& type)
{
    switch (type.kind_case()) {
    case pb::CmlValueType::kTensorType: {
        const pb::CmlTensorType& tensor = type.tensor_type();
        std::vector<std::int64_t> shape;
        for (int d = 0; d < tensor.dimensions_size() && static_cast<std::size_t>(d) < kMaxShownDims; ++d) {
            const pb::CmlDimension& dim = tensor.dimensions(d);
            shape.push_back(dim.has_constant() && dim.constant().size() <= static_cast<std::uint64_t>(INT64_MAX)
                    ? static_cast<std::int64_t>(dim.constant().size())
                    : -1);
        }
        return { milTypeName(tensor.data_type()), std::move(shape) };
    }
    case pb::CmlValueType::kListType:
        return { "list", {} };
    case pb::CmlValueType::kTupleType:
        return { "tuple", {} };
    case pb::CmlValueType::kDictionaryType:
        return { "dict", {} };
    default:
        return {};
    }
}

std::string metaText(const TensorMeta& meta)
{
    if (!meta.known())
        return "(no type)";
    return meta.shape.empty() && meta.dtype != "list" && meta.dtype != "tuple" && meta.dtype != "dict"
        ? meta.dtype + " scalar"
        : meta.dtype + (meta.shape.empty() ? "" : " " + formatShape(meta.shape));
}

/// Elements of a tensor meta; nullopt when a dimension is unknown or the product overflows.
std::optional<std::uint64_t> elementCount(const TensorMeta& meta)
{
    std::uint64_t count = 1;
    for (const std::int64_t d : meta.shape) {
        if (d < 0 || (d > 0 && count > UINT64_MAX / static_cast<std::uint64_t>(d)))
            return std::nullopt;
        count *= static_cast<std::uint64_t>(d);
    }
    return count;
}

template <typename Values, typename Show> std::string listText(const Values& values, Show show)
{
    std::string text = values.size() == 1 ? "" : "[";
    for (int i = 0; i < values.size() && static_cast<std::size_t>(i) < kMaxShownValues; ++i)
        text += (i ? ", " : "") + show(values.Get(i));
    if (static_cast<std::size_t>(values.size()) > kMaxShownValues)
        text += ", … (" + std::to_string(values.size()) + " values)";
    return values.size() == 1 ? text : text + "]";
}

/// The first values and the count of a packed int32 field held as its raw varints (CmlInts in
/// core/schema/coreml_mil.proto); a varint cut off by the end is not counted.
struct PackedInt32s {
    std::vector<std::int32_t> shown;
    int total = 0;

    int size() const { return total; }
    std::int32_t Get(int i) const { return shown[static_cast<std::size_t>(i)]; }
};

PackedInt32s packedInt32s(const std::string& bytes)
{
    PackedInt32s out;
    std::uint64_t value = 0;
    int shift = 0;
    std::size_t at = 0;
    for (; at < bytes.size() && out.shown.size() < kMaxShownValues; ++at) {
        const auto byte = static_cast<std::uint8_t>(bytes[at]);
        if (shift < 64)
            value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        shift += 7;
        if (byte & 0x80)
            continue;
        // An int32 travels as its sign-extended 64-bit varint: the low 32 bits are the value.
        out.shown.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(value)));
        value = 0;
        shift = 0;
    }
    // The rest are only counted: every varint ends in the one byte of it with the top bit clear.
    std::size_t count = out.shown.size();
    for (; at < bytes.size(); ++at)
        count += (static_cast<std::uint8_t>(bytes[at]) & 0x80) ? 0 : 1;
    out.total = static_cast<int>(std::min<std::size_t>(count, std::numeric_limits<int>::max()));
    return out;
}

/// Raw tensor bytes (TensorValue.bytes: how coremltools stores fp16, bf16, 8- and 16-bit
/// immediates) as values of their MIL data type (little-endian), the first kMaxShownValues; a
/// type whose layout is not known here (sub-byte types of newer specs) says so with its size.
std::string tensorBytesText(const std::string& bytes, int type)
{
    const std::uint64_t width = milTypeBytes(type);
    if (width == 0 || type == 1 || bytes.size() % width != 0)
        return std::to_string(bytes.size()) + " bytes (" + milTypeName(type) + ": values not decoded)";
    const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
    const std::size_t count = bytes.size() / width;
    const auto little = [p, width](std::size_t i) {
        std::uint64_t v = 0;
        for (std::uint64_t b = 0; b < width; ++b)
            v |= static_cast<std::uint64_t>(p[i * width + b]) << (8 * b);
        return v;
    };
    const auto valueText = [&](std::size_t i) -> std::string {
        const std::uint64_t v = little(i);
        switch (type) {
        case 10:
            return detail::floatText(halfToDouble(static_cast<std::uint16_t>(v)));
        case 13:
            return detail::floatText(bfloat16ToDouble(static_cast<std::uint16_t>(v)));
        case 11:
            return detail::floatText(std::bit_cast<float>(static_cast<std::uint32_t>(v)));
        case 12:
            return detail::floatText(std::bit_cast<double>(v));
        case 21:
            return std::to_string(static_cast<std::int8_t>(v));
        case 22:
            return std::to_string(static_cast<std::int16_t>(v));
        case 23:
            return std::to_string(static_cast<std::int32_t>(v));
        case 24:
            return std::to_string(static_cast<std::int64_t>(v));
        default: // unsigned of 1, 2, 4 or 8 bytes
            return std::to_string(v);
        }
    };
    std::string text = count == 1 ? "" : "[";
    for (std::size_t i = 0; i < count && i < kMaxShownValues; ++i)
        text += (i ? ", " : "") + valueText(i);
    if (count > kMaxShownValues)
        text += ", … (" + std::to_string(count) + " values)";
    return count == 1 ? text : text + "]";
}

std::string immediateText(const pb::CmlImmediateValue& value, int depth = 0, int type = 0)
{
    switch (value.kind_case()) {
    case pb::CmlImmediateValue::kTensor: {
        const pb::CmlTensorValue& t = value.tensor();
        switch (t.kind_case()) {
        case pb::CmlTensorValue::kFloats:
            return listText(t.floats().values(), [](float v) { return detail::floatText(v); });
        case pb::CmlTensorValue::kDoubles:
            return listText(t.doubles().values(), [](double v) { return detail::floatText(v); });
        case pb::CmlTensorValue::kInts:
            return listText(packedInt32s(t.ints().values()), [](std::int32_t v) { return std::to_string(v); });
        case pb::CmlTensorValue::kLongInts:
            return listText(t.long_ints().values(), [](std::int64_t v) { return std::to_string(v); });
        case pb::CmlTensorValue::kBools:
            return listText(t.bools().values(), [](bool v) { return std::string(v ? "true" : "false"); });
        case pb::CmlTensorValue::kStrings:
            return listText(t.strings().values(), [](const std::string& v) {
                return "\"" + bytesForDisplay({ reinterpret_cast<const std::uint8_t*>(v.data()), v.size() }, 48) + "\"";
            });
        case pb::CmlTensorValue::kBytes:
            return tensorBytesText(t.bytes().values(), type);
        default:
            return "(empty tensor)";
        }
    }
    case pb::CmlImmediateValue::kTuple:
    case pb::CmlImmediateValue::kList: {
        const auto& values = value.has_tuple() ? value.tuple().values() : value.list().values();
        std::string text = value.has_tuple() ? "(" : "[";
        for (int i = 0; i < values.size() && static_cast<std::size_t>(i) < kMaxShownValues; ++i)
            text += (i ? ", " : "")
                + (depth < 4 && values.Get(i).has_immediate_value()
                        ? immediateText(values.Get(i).immediate_value(), depth + 1)
                        : std::string("…"));
        if (static_cast<std::size_t>(values.size()) > kMaxShownValues)
            text += ", … (" + std::to_string(values.size()) + " values)";
        return text + (value.has_tuple() ? ")" : "]");
    }
    case pb::CmlImmediateValue::kDictionary:
        return "(dictionary)";
    default:
        return "(empty)";
    }
}

/// Stored size of an immediate value in bytes, where the value says it.
std::optional<std::uint64_t> immediateBytes(const pb::CmlImmediateValue& value, const TensorMeta& meta, int type)
{
    if (!value.has_tensor())
        return std::nullopt;
    const pb::CmlTensorValue& t = value.tensor();
    if (t.has_bytes())
        return t.bytes().values().size();
    const auto count = elementCount(meta);
    const std::uint64_t width = milTypeBytes(type);
    if (!count || !width || *count > UINT64_MAX / width)
        return std::nullopt;
    return *count * width;
}

/// Name → its first position in a metadata.json name list.
std::unordered_map<std::string, int> positionsOf(const std::vector<std::string>& names)
{
    std::unordered_map<std::string, int> positions;
    for (std::size_t i = 0; i < names.size(); ++i)
        positions.emplace(names[i], static_cast<int>(i));
    return positions;
}

struct Producer {
    NodeId node;
    ValueIndex value;
    TensorMeta meta;
};

/// Reads one function of the program into a Graph.
class MilReader {
public:
    MilReader(const DelegateContext& context, DelegateInfo& info, const ModelInputs& model)
        : m_context(context)
        , m_info(info)
        , m_model(model)
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "coreml";
    }

    /// `capped`: one of possibly many problems of the same kind, kept up to kMaxWarnings; limits
    /// and whole-model problems are always kept.
    void warn(const std::string& reason, std::optional<std::size_t> modelOffset = {}, bool capped = true)
    {
        if (capped && m_warnings++ >= kMaxWarnings)
            return;
        std::string text = m_model.modelPath.substr(m_model.modelPath.rfind('/') + 1) + ": " + reason;
        std::optional<std::uint64_t> at;
        if (modelOffset) {
            text += " (byte " + std::to_string(*modelOffset) + " of the model)";
            if (m_model.model.payloadOffset)
                at = *m_model.model.payloadOffset + *modelOffset;
        }
        m_context.warn(m_info, text, at);
        m_graph->warnings.push_back({ text, std::nullopt });
    }
    std::size_t offsetIn(std::span<const std::uint8_t> part) const
    {
        return static_cast<std::size_t>(part.data() - m_model.model.bytes.data());
    }

    int addInputs(const std::vector<pb::CmlNamedValueType>& inputs);
    /// Operations of a block, each parsed on its own. `inModel`: the spans point into the model
    /// (so offsets can be named).
    void addOperations(
        std::span<const std::span<const std::uint8_t>> operations, const std::string& where, bool inModel, int depth);
    void addOutputs(const std::vector<std::string>& outputs, int inputCount);
    std::shared_ptr<Graph> graph() const { return m_graph; }
    std::size_t operationCount() const { return m_operations; }
    std::size_t skipped() const { return m_skipped; }
    const std::map<std::string, std::size_t>& typeCounts() const { return m_typeCounts; }
    std::size_t joined() const { return m_joined; }
    /// Warnings beyond kMaxWarnings, counted but not kept.
    std::size_t unsaid() const { return m_warnings > kMaxWarnings ? m_warnings - kMaxWarnings : 0; }

    std::string function;

private:
    void define(const std::string& name, NodeId node, TensorMeta meta)
    {
        const auto it = m_scope.find(name);
        m_undo.emplace_back(name, it == m_scope.end() ? std::nullopt : std::optional<Producer>(it->second));
        m_scope[name] = { node, ValueIndex(m_nextValue++), std::move(meta) };
    }
    void restoreScope(std::size_t mark)
    {
        while (m_undo.size() > mark) {
            auto& [name, before] = m_undo.back();
            if (before)
                m_scope[name] = *before;
            else
                m_scope.erase(name);
            m_undo.pop_back();
        }
    }
    const Producer& sourceOf(const std::string& name, const std::string& reader);
    /// " = [2, 2]" when `name` is a constant in scope whose value is short (a convolution's
    /// strides, pad, dilations, groups), so an operation's Properties show its settings, not only
    /// the names of the constants holding them (issue 38); empty otherwise.
    std::string constantValueText(const std::string& name) const;
    void addOperation(const pb::CmlOperationView& op, std::size_t index, const std::string& where,
        std::optional<std::size_t> modelOffset, int depth);
    void nestedBlocks(const pb::CmlOperationView& op, NodeId parent, const std::string& where, int depth);
    void valueAttributes(Node& node, const std::string& key, const pb::CmlValue& value, const TensorMeta& meta);
    void joinDebugInfo(Node& node, const std::string& output, const std::string& type);

    const DelegateContext& m_context;
    DelegateInfo& m_info;
    const ModelInputs& m_model;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    std::unordered_map<std::string, Producer> m_scope;
    std::vector<std::pair<std::string, std::optional<Producer>>> m_undo;
    std::int32_t m_nextValue = 0;
    std::size_t m_operations = 0;
    std::size_t m_skipped = 0;
    std::size_t m_joined = 0;
    std::size_t m_warnings = 0;
    std::map<std::string, std::size_t> m_typeCounts;
};

int MilReader::addInputs(const std::vector<pb::CmlNamedValueType>& inputs)
{
    const int inputCount
        = m_model.inputNames.empty() ? static_cast<int>(inputs.size()) : static_cast<int>(m_model.inputNames.size());
    const auto positions = positionsOf(m_model.inputNames);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const pb::CmlNamedValueType& input = inputs[i];
        Node node;
        node.kind = NodeKind::Input;
        node.label = input.name();
        const TensorMeta meta = input.has_type() ? metaOf(input.type()) : TensorMeta {};
        // Function inputs are unordered (MIL.proto); the delegate passes them in metadata order.
        if (const auto named = positions.find(input.name()); named != positions.end()) {
            node.argPosition = named->second;
        } else {
            node.argPosition = static_cast<int>(i);
            if (!m_model.inputNames.empty())
                warn("function input '" + input.name() + "' is not among metadata.json's inputNames");
        }
        node.attributes.push_back({ "name", input.name() });
        node.attributes.push_back({ "type", metaText(meta) });
        node.attributes.push_back({ "argument", std::to_string(node.argPosition) });
        const NodeId id = m_graph->addNode(std::move(node));
        define(input.name(), id, meta);
        m_graph->node(id).value = m_scope[input.name()].value;
    }
    return inputCount;
}

const Producer& MilReader::sourceOf(const std::string& name, const std::string& reader)
{
    if (const auto it = m_scope.find(name); it != m_scope.end())
        return it->second;
    // A name no earlier operation, input or block defines: drawn as a placeholder.
    Node node;
    node.kind = NodeKind::View;
    node.label = name;
    node.inferred = true;
    node.attributes.push_back({ "note", "read by " + reader + " but defined nowhere before it" });
    warn("'" + name + "', read by " + reader + ", is not defined before it");
    const NodeId id = m_graph->addNode(std::move(node));
    define(name, id, {});
    m_graph->node(id).value = m_scope[name].value;
    return m_scope[name];
}

std::string MilReader::constantValueText(const std::string& name) const
{
    const auto it = m_scope.find(name);
    if (it == m_scope.end() || !it->second.node.valid())
        return {};
    const Node& constant = m_graph->node(it->second.node);
    if (constant.kind != NodeKind::Constant)
        return {};
    for (const auto attribute : constant.attributes)
        if (attribute.name == "val" && !attribute.value.empty() && attribute.value.size() <= kMaxInlineValue)
            return " = " + std::string(attribute.value);
    return {};
}

void MilReader::valueAttributes(Node& node, const std::string& key, const pb::CmlValue& value, const TensorMeta& meta)
{
    const int type = value.has_type() && value.type().has_tensor_type() ? value.type().tensor_type().data_type() : 0;
    if (value.has_immediate_value()) {
        node.attributes.push_back({ key, immediateText(value.immediate_value(), 0, type) });
        if (node.kind == NodeKind::Constant)
            if (const auto bytes = immediateBytes(value.immediate_value(), meta, type))
                node.attributes.push_back({ "bytes", std::to_string(*bytes) + " (in the model)" });
        return;
    }
    if (!value.has_blob_file_value()) {
        node.attributes.push_back({ key, "(no value)" });
        return;
    }
    const pb::CmlBlobFileValue& blob = value.blob_file_value();
    node.attributes.push_back({ "blob file", blob.file_name() });
    node.attributes.push_back({ "blob offset", std::to_string(blob.offset()) });
    const std::string prefix = "@model_path/";
    const std::string relative
        = blob.file_name().starts_with(prefix) ? blob.file_name().substr(prefix.size()) : blob.file_name();
    const auto file = m_model.packageFile ? m_model.packageFile(relative) : std::nullopt;
    const std::string what
        = "blob '" + blob.file_name() + "' at " + std::to_string(blob.offset()) + " of " + node.label;
    if (!file) {
        node.attributes.push_back({ "bytes", "weight file not in the package" });
        warn(what + ": the weight file is not in the package");
        return;
    }
    const auto bytes = file->bytes;
    if (!detail::rangeInside(bytes.size(), blob.offset(), kBlobRecordSize)) {
        node.attributes.push_back({ "bytes", "record outside the weight file" });
        warn(what + ": the blob record lies outside the " + std::to_string(bytes.size()) + "-byte weight file");
        return;
    }
    const std::uint8_t* record = bytes.data() + blob.offset();
    const std::uint32_t sentinel = readLe32(record);
    const std::uint32_t blobType = readLe32(record + 4);
    const std::uint64_t size = readLe64(record + 8);
    const std::uint64_t dataOffset = readLe64(record + 16);
    if (sentinel != kBlobSentinel) {
        node.attributes.push_back({ "bytes", "bad blob record" });
        warn(what + ": the blob record's sentinel is " + toHex({ record, 4 }) + ", not 0xDEADBEEF");
        return;
    }
    const bool inside = detail::rangeInside(bytes.size(), dataOffset, size);
    node.attributes.push_back({ "bytes",
        std::to_string(size) + " " + blobTypeName(blobType) + " at offset " + std::to_string(dataOffset)
            + (inside ? "" : " (outside the weight file!)") });
    if (!inside)
        warn(what + ": its " + std::to_string(size) + " bytes at " + std::to_string(dataOffset)
            + " lie outside the weight file");
}

void MilReader::joinDebugInfo(Node& node, const std::string& output, const std::string& type)
{
    std::string symbol;
    if (const auto it = m_model.symbolByOperation.find(operationKey(function, output, type));
        it != m_model.symbolByOperation.end())
        symbol = it->second;
    else if (m_model.symbolHandles.count(output + ":" + type))
        symbol = output + ":" + type; // the runtime's own spelling when a path is missing
    if (symbol.empty())
        return;
    ++m_joined;
    node.attributes.push_back({ "debug symbol", symbol });
    const auto handles = m_model.symbolHandles.find(symbol);
    if (handles == m_model.symbolHandles.end() || handles->second.empty())
        return;
    node.debugHandle = DebugHandle(handles->second.front());
    std::string text;
    for (const std::int64_t handle : handles->second)
        text += (text.empty() ? "" : ", ") + std::to_string(handle);
    node.attributes.push_back({ "debug handles", text });
}

void MilReader::addOperation(const pb::CmlOperationView& op, std::size_t index, const std::string& where,
    std::optional<std::size_t> modelOffset, int depth)
{
    ++m_operations;
    const std::string& type = op.type();
    const bool constant = type == "const" || type.starts_with("constexpr_");
    const std::string output = op.outputs_size() > 0 ? op.outputs(0).name() : std::string();
    ++m_typeCounts[type.empty() ? "(no type)" : type];
    Node node;
    node.kind = constant ? NodeKind::Constant : NodeKind::Operator;
    node.opType = type.empty() ? "(no type)" : type;
    node.label = constant ? (output.empty() ? type : output) : node.opType;
    if (type.empty())
        warn("operation " + std::to_string(index) + " of " + where + " has no type", modelOffset);
    node.attributes.push_back({ "operation", std::to_string(index) + " of " + where });
    if (!constant)
        node.attributes.push_back({ "op type", type });
    for (int o = 0; o < op.outputs_size() && o < kMaxShownEntries; ++o) {
        const pb::CmlNamedValueType& out = op.outputs(o);
        node.attributes.push_back({ op.outputs_size() == 1 ? std::string("output") : "output " + std::to_string(o),
            out.name() + ": " + metaText(out.has_type() ? metaOf(out.type()) : TensorMeta {}) });
    }
    // Parameters in the writer's order: names become edges, immediate values attributes.
    std::vector<std::string> reads;
    std::unordered_set<std::string> seen;
    std::size_t unread = 0;
    const std::string reader
        = "'" + node.opType + "' (" + (output.empty() ? "operation " + std::to_string(index) : output) + ")";
    for (int p = 0; p < op.inputs_size(); ++p) {
        const pb::CmlArgumentEntry& entry = op.inputs(p);
        std::string text;
        std::size_t shown = 0;
        for (const pb::CmlBinding& binding : entry.value().arguments()) {
            if (binding.has_name() && seen.insert(binding.name()).second) {
                if (reads.size() < kMaxReads)
                    reads.push_back(binding.name());
                else
                    ++unread;
            }
            if (shown++ == kMaxShownBindings) {
                text += ", … (" + std::to_string(entry.value().arguments_size()) + " bindings)";
                continue;
            }
            if (shown > kMaxShownBindings)
                continue;
            text += text.empty() ? "" : ", ";
            if (binding.has_name())
                text += binding.name() + constantValueText(binding.name());
            else if (binding.has_value() && binding.value().has_immediate_value())
                text += immediateText(binding.value().immediate_value(), 0,
                    binding.value().has_type() && binding.value().type().has_tensor_type()
                        ? binding.value().type().tensor_type().data_type()
                        : 0);
            else
                text += "(value)";
        }
        if (p < kMaxShownEntries)
            node.attributes.push_back({ entry.key(), text.empty() ? "(none)" : text });
    }
    if (unread)
        node.attributes.push_back({ "not drawn", std::to_string(unread) + " more values read" });
    const TensorMeta outMeta
        = op.outputs_size() > 0 && op.outputs(0).has_type() ? metaOf(op.outputs(0).type()) : TensorMeta {};
    for (int a = 0; a < op.attributes_size() && a < kMaxShownEntries; ++a) {
        const pb::CmlValueEntry& attribute = op.attributes(a);
        if (attribute.key() == "name" && attribute.value().has_immediate_value()
            && immediateText(attribute.value().immediate_value()) == "\"" + output + "\"")
            continue; // coremltools repeats the output name
        valueAttributes(node, attribute.key(), attribute.value(), outMeta);
    }
    if (op.blocks_size() > 0)
        node.attributes.push_back({ "blocks", std::to_string(op.blocks_size()) });
    joinDebugInfo(node, output, type);

    std::vector<Producer> sources;
    sources.reserve(reads.size());
    for (const std::string& name : reads)
        sources.push_back(sourceOf(name, reader));
    const NodeId id = m_graph->addNode(std::move(node));
    for (const Producer& source : sources)
        m_graph->addEdge({ source.node, id, source.value, source.meta, false });
    if (op.blocks_size() > 0)
        nestedBlocks(op, id, where + " › " + std::to_string(index) + " " + type, depth);
    for (const pb::CmlNamedValueType& out : op.outputs())
        define(out.name(), id, out.has_type() ? metaOf(out.type()) : TensorMeta {});
}

void MilReader::nestedBlocks(const pb::CmlOperationView& op, NodeId parent, const std::string& where, int depth)
{
    if (depth >= kMaxBlockDepth) {
        warn("the blocks of " + where + " nest deeper than " + std::to_string(kMaxBlockDepth) + " levels; not drawn");
        return;
    }
    for (int b = 0; b < op.blocks_size(); ++b) {
        const std::string& bytes = op.blocks(b);
        const std::string blockName = where + " block " + std::to_string(b);
        const std::size_t mark = m_undo.size();
        // Block: 1 inputs (while_loop's loop variables, given by the operation that owns the
        // block), 2 outputs, 3 operations.
        std::vector<std::span<const std::uint8_t>> operations;
        WireReader block({ reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size() });
        for (WireField f; block.next(f);) {
            if (f.number == 1 && f.type == 2) {
                pb::CmlNamedValueType input;
                if (parseBounded(input, f.bytes))
                    define(input.name(), parent, input.has_type() ? metaOf(input.type()) : TensorMeta {});
            } else if (f.number == 3 && f.type == 2 && operations.size() < kMaxOperations) {
                operations.push_back(f.bytes);
            }
        }
        if (block.damaged())
            warn(blockName + " is damaged after " + std::to_string(operations.size())
                + " operations: " + block.damageReason());
        addOperations(operations, blockName, false, depth + 1);
        restoreScope(mark);
    }
}

void MilReader::addOperations(
    std::span<const std::span<const std::uint8_t>> operations, const std::string& where, bool inModel, int depth)
{
    for (std::size_t i = 0; i < operations.size(); ++i) {
        if (m_operations >= kMaxOperations) {
            m_skipped += operations.size() - i;
            warn(std::to_string(operations.size() - i) + " more operations of " + where + " beyond the first "
                    + std::to_string(kMaxOperations) + " are not drawn",
                std::nullopt, false);
            return;
        }
        // Nested blocks were copied out of their operation: no model offset for them.
        std::optional<std::size_t> at; // written this way: GCC 12 in Release misreads `cond ? optional : nullopt`
        if (inModel)
            at = offsetIn(operations[i]);
        pb::CmlOperationView op;
        if (operations[i].size() > kMaxOperationBytes || !parseBounded(op, operations[i])) {
            // One damaged operation: a node saying so, and the walk goes on.
            ++m_operations;
            ++m_typeCounts["(unreadable)"];
            Node node;
            node.kind = NodeKind::Operator;
            node.opType = "(unreadable operation)";
            node.label = node.opType;
            node.attributes.push_back({ "operation", std::to_string(i) + " of " + where });
            node.attributes.push_back({ "bytes", std::to_string(operations[i].size()) });
            m_graph->addNode(std::move(node));
            warn("operation " + std::to_string(i) + " of " + where + " ("
                    + (operations[i].size() > kMaxOperationBytes ? "larger than the 4 MiB read limit"
                                                                 : "damaged protobuf")
                    + ", " + std::to_string(operations[i].size()) + " bytes) is not readable",
                at);
            continue;
        }
        addOperation(op, i, where, at, depth);
    }
}

void MilReader::addOutputs(const std::vector<std::string>& outputs, int inputCount)
{
    const auto positions = positionsOf(m_model.outputNames);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string& name = outputs[i];
        Node node;
        node.kind = NodeKind::Output;
        node.label = name;
        if (const auto named = positions.find(name); named != positions.end()) {
            node.argPosition = inputCount + named->second;
        } else {
            node.argPosition = inputCount + static_cast<int>(i);
            if (!m_model.outputNames.empty())
                warn("block output '" + name + "' is not among metadata.json's outputNames");
        }
        const Producer source = sourceOf(name, "the function's outputs");
        node.value = source.value;
        node.attributes.push_back({ "name", name });
        node.attributes.push_back({ "type", metaText(source.meta) });
        node.attributes.push_back({ "argument", std::to_string(node.argPosition) });
        const NodeId id = m_graph->addNode(std::move(node));
        m_graph->addEdge({ source.node, id, source.value, source.meta, false });
    }
}

/// The outer levels of one function, as spans into the model.
struct RawFunction {
    std::string name;
    std::span<const std::uint8_t> bytes;
};

struct RawBlock {
    std::string opset;
    std::vector<pb::CmlNamedValueType> inputs; ///< of the function
    std::vector<std::string> outputs;
    std::vector<std::span<const std::uint8_t>> operations;
    std::size_t operationCount = 0; ///< all listed, also those beyond the cap
};

void featureFacts(DelegateInfo& info, const char* what, const pb::CmlFeature& feature)
{
    std::string type = "other";
    if (feature.has_type()) {
        const pb::CmlFeatureType& t = feature.type();
        if (t.has_multi_array_type()) {
            std::vector<std::int64_t> shape(t.multi_array_type().shape().begin(), t.multi_array_type().shape().end());
            if (shape.size() > kMaxShownDims)
                shape.resize(kMaxShownDims);
            type = arrayTypeName(t.multi_array_type().data_type()) + " " + formatShape(shape);
        } else if (t.has_image_type()) {
            type = "image " + std::to_string(t.image_type().width()) + "×" + std::to_string(t.image_type().height());
        } else if (t.has_int64_type() || t.has_double_type() || t.has_string_type()) {
            type = t.has_int64_type() ? "int64" : t.has_double_type() ? "double" : "string";
        } else if (t.has_state_type()) {
            type = "state";
        }
    }
    info.facts.push_back({ std::string(what) + " " + feature.name(), type });
}

/// "95 operations, 155 constants" of 250 MIL operations: constants are drawn as Constant
/// nodes, so "operations" counts the operator nodes, as `ops` and the delegate box do.
std::string operationsAndConstants(std::size_t milOperations, std::size_t constants)
{
    const std::size_t operations = milOperations - std::min(constants, milOperations);
    return detail::plural(operations, "operation", "operations") + ", "
        + detail::plural(constants, "constant", "constants");
}

} // namespace

std::string operationKey(const std::string& function, const std::string& output, const std::string& op)
{
    return function + '\x1f' + output + '\x1f' + op;
}

bool decodeModel(const DelegateContext& context, DelegateInfo& info, const ModelInputs& model)
{
    MilReader reader(context, info, model);
    const auto bytes = model.model.bytes;

    // Model: 1 specificationVersion, 2 description, 502 mlProgram.
    std::span<const std::uint8_t> programBytes;
    bool hasProgram = false;
    std::int64_t specVersion = 0;
    std::vector<std::uint32_t> otherTypes;
    WireReader top(bytes);
    for (WireField f; top.next(f);) {
        if (f.number == 1 && f.type == 0)
            specVersion = static_cast<std::int64_t>(f.varint);
        else if (f.number == 2 && f.type == 2) {
            pb::CmlModelDescription description;
            if (f.bytes.size() <= kMaxDescriptionBytes && parseBounded(description, f.bytes)) {
                for (const pb::CmlFeature& input : description.inputs())
                    featureFacts(info, "model input", input);
                for (const pb::CmlFeature& output : description.outputs())
                    featureFacts(info, "model output", output);
                for (const pb::CmlTextPair& pair : description.metadata().user_defined())
                    info.facts.push_back({ "model metadata " + pair.key(), pair.value() });
            } else {
                reader.warn("the model description is damaged", reader.offsetIn(f.bytes));
            }
        } else if (f.number == 502 && f.type == 2) {
            programBytes = f.bytes;
            hasProgram = true;
        } else if (f.number >= 200 && f.type == 2) {
            otherTypes.push_back(f.number);
        }
    }
    if (top.damaged())
        reader.warn("the model protobuf is damaged: " + top.damageReason(), top.damageOffset());
    info.facts.push_back({ "specification version", std::to_string(specVersion) });
    {
        const std::string os = coreMlOsText(specVersion);
        addTarget(info, "coreml.spec_version", "Core ML specification version",
            std::to_string(specVersion) + (os.empty() ? "" : " (needs " + os + " or later)"), specVersion,
            "model.mlmodel field 1");
    }
    if (!hasProgram) {
        std::string types;
        for (const std::uint32_t t : otherTypes)
            types += (types.empty() ? "" : ", ") + std::to_string(t);
        reader.warn(types.empty() ? "holds no ML Program"
                                  : "holds model type field " + types + ", not an ML Program (502); not drawn");
        return false;
    }

    // Program: 1 version, 2 functions (key 1, value 2).
    std::vector<RawFunction> functions;
    WireReader program(programBytes);
    for (WireField f; program.next(f);) {
        if (f.number == 1 && f.type == 0)
            info.facts.push_back({ "ML Program version", std::to_string(f.varint) });
        if (f.number != 2 || f.type != 2)
            continue;
        RawFunction function;
        WireReader entry(f.bytes);
        for (WireField e; entry.next(e);) {
            if (e.number == 1 && e.type == 2)
                function.name = textOf(e.bytes);
            else if (e.number == 2 && e.type == 2)
                function.bytes = e.bytes;
        }
        if (entry.damaged())
            reader.warn("function entry '" + function.name + "' is damaged: " + entry.damageReason(),
                reader.offsetIn(f.bytes) + entry.damageOffset());
        functions.push_back(std::move(function));
    }
    if (program.damaged())
        reader.warn("the ML Program is damaged: " + program.damageReason(),
            reader.offsetIn(programBytes) + program.damageOffset());
    std::string names;
    for (std::size_t i = 0; i < functions.size() && i < kMaxFunctionFacts; ++i)
        names += (names.empty() ? "" : ", ") + functions[i].name;
    info.facts.push_back({ "functions", std::to_string(functions.size()) + (names.empty() ? "" : ": " + names) });
    if (functions.empty()) {
        reader.warn("the ML Program has no function");
        return false;
    }
    const auto chosen = [&]() -> const RawFunction& {
        for (const std::string& want : { model.functionName, std::string("main") })
            for (const RawFunction& function : functions)
                if (!want.empty() && function.name == want)
                    return function;
        return functions.front();
    }();
    if (!model.functionName.empty() && chosen.name != model.functionName)
        reader.warn("function '" + model.functionName + "' is not in the program; drawing '" + chosen.name + "'");
    reader.function = chosen.name;

    // Function: 1 inputs, 2 opset, 3 block_specializations (key 1, value 2).
    RawBlock block;
    std::vector<std::pair<std::string, std::span<const std::uint8_t>>> blocks;
    WireReader function(chosen.bytes);
    for (WireField f; function.next(f);) {
        if (f.number == 1 && f.type == 2) {
            pb::CmlNamedValueType input;
            if (parseBounded(input, f.bytes))
                block.inputs.push_back(std::move(input));
            else
                reader.warn("an input of function '" + chosen.name + "' is damaged", reader.offsetIn(f.bytes));
        } else if (f.number == 2 && f.type == 2) {
            block.opset = textOf(f.bytes);
        } else if (f.number == 3 && f.type == 2) {
            std::pair<std::string, std::span<const std::uint8_t>> entry;
            WireReader e(f.bytes);
            for (WireField g; e.next(g);) {
                if (g.number == 1 && g.type == 2)
                    entry.first = textOf(g.bytes);
                else if (g.number == 2 && g.type == 2)
                    entry.second = g.bytes;
            }
            if (e.damaged())
                reader.warn("block '" + entry.first + "' is damaged: " + e.damageReason(),
                    reader.offsetIn(f.bytes) + e.damageOffset());
            blocks.push_back(std::move(entry));
        }
    }
    if (function.damaged())
        reader.warn("function '" + chosen.name + "' is damaged: " + function.damageReason(),
            reader.offsetIn(chosen.bytes) + function.damageOffset());
    std::span<const std::uint8_t> blockBytes;
    bool foundBlock = false;
    for (const auto& [key, span] : blocks)
        if (!foundBlock && key == block.opset) {
            blockBytes = span;
            foundBlock = true;
        }
    if (!foundBlock && !blocks.empty()) {
        reader.warn("function '" + chosen.name + "' has no block for its opset '" + block.opset + "'; drawing '"
            + blocks.front().first + "'");
        blockBytes = blocks.front().second;
        foundBlock = true;
    }
    if (!foundBlock) {
        reader.warn("function '" + chosen.name + "' has no block");
        return false;
    }

    // Block: 2 outputs, 3 operations (1 inputs and 4 attributes are not drawn at this level).
    WireReader blockReader(blockBytes);
    for (WireField f; blockReader.next(f);) {
        if (f.number == 2 && f.type == 2) {
            block.outputs.push_back(textOf(f.bytes));
        } else if (f.number == 3 && f.type == 2) {
            ++block.operationCount;
            if (block.operations.size() < kMaxOperations)
                block.operations.push_back(f.bytes);
        }
    }
    if (blockReader.damaged())
        reader.warn("the block of '" + chosen.name + "' is damaged after " + std::to_string(block.operationCount)
                + " operations: " + blockReader.damageReason(),
            reader.offsetIn(blockBytes) + blockReader.damageOffset());

    const int inputCount = reader.addInputs(block.inputs);
    reader.addOperations(block.operations, chosen.name, true, 0);
    reader.addOutputs(block.outputs, inputCount);
    const std::size_t notListed = block.operationCount - block.operations.size();
    if (notListed && !reader.skipped())
        reader.warn(std::to_string(notListed) + " more operations beyond the first "
                + std::to_string(block.operations.size()) + " are not drawn",
            std::nullopt, false);

    const auto& counts = reader.typeCounts();
    std::size_t constants = 0;
    for (const auto& [type, count] : counts)
        if (type == "const" || type.starts_with("constexpr_"))
            constants += count;
    info.facts.push_back({ "function " + chosen.name,
        "opset " + block.opset + ", " + operationsAndConstants(block.operationCount, constants) + " ("
            + std::to_string(block.operationCount) + " MIL operations), " + std::to_string(block.inputs.size())
            + " inputs, " + std::to_string(block.outputs.size()) + " outputs" });
    std::vector<std::pair<std::string, std::size_t>> byCount(counts.begin(), counts.end());
    std::stable_sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string types;
    for (std::size_t i = 0; i < byCount.size() && i < 24; ++i)
        types += (types.empty() ? "" : ", ") + byCount[i].first + " " + std::to_string(byCount[i].second);
    info.facts.push_back({ "operation types", types });
    info.facts.push_back({ "operations joined to debug symbols",
        std::to_string(reader.joined()) + " of " + std::to_string(reader.operationCount())
            + " (MIL operations, constants included)" });
    info.summary += ", ML Program '" + chosen.name + "': " + operationsAndConstants(reader.operationCount(), constants);
    if (const std::size_t unsaid = reader.unsaid())
        context.warn(info, model.modelPath + ": " + std::to_string(unsaid) + " more problems like those above");
    info.innerGraph = reader.graph();
    return true;
}

} // namespace etscope::core::coreml
