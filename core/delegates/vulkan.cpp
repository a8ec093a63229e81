// SPDX-License-Identifier: MIT
// Vulkan delegate payloads (facts sheet §3.2): a VH00 header, then the VkGraph FlatBuffer
// (identifier VK00), then the raw constant bytes. Decoded into an inner graph of the operator
// calls; the call's node_id is the delegate debug id the runtime logs (§2.3).
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/payloadheader.h"
#include "core/delegates/targetfacts.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "vulkan_generated.h"

#include <cstring>
#include <map>
#include <set>

namespace etscope::core {
namespace fbv = etscope::fb::vulkan;

namespace {

constexpr std::size_t kListPreview = 16; ///< literal list items shown before "…"

std::string dataTypeName(int type)
{
    static constexpr const char* kNames[]
        = { "BOOL", "UINT8", "INT8", "INT32", "FLOAT16", "FLOAT32", "FLOAT64", "INT64" };
    if (type >= 0 && type < static_cast<int>(std::size(kNames)))
        return kNames[type];
    return type == 127 ? "UNSET" : "vk_datatype(" + std::to_string(type) + ")";
}

std::string storageTypeName(int type)
{
    static constexpr const char* kNames[] = { "BUFFER", "TEXTURE_3D", "TEXTURE_2D" };
    if (type >= 0 && type < static_cast<int>(std::size(kNames)))
        return kNames[type];
    return type == 255 ? "DEFAULT_STORAGE" : "vk_storage(" + std::to_string(type) + ")";
}

std::string memoryLayoutName(int layout)
{
    static constexpr const char* kNames[] = { "TENSOR_WIDTH_PACKED", "TENSOR_HEIGHT_PACKED", "TENSOR_CHANNELS_PACKED",
        "PACKED_INT8_4W4C", "PACKED_INT8_4H4W", "PACKED_INT8_4W", "PACKED_INT8_4C", nullptr, "PACKED_INT8_4C1W",
        "PACKED_INT8_CONV2D" };
    if (layout >= 0 && layout < static_cast<int>(std::size(kNames)) && kNames[layout])
        return kNames[layout];
    return layout == 255 ? "DEFAULT_LAYOUT" : "vk_layout(" + std::to_string(layout) + ")";
}

std::string kindName(fbv::GraphTypes type)
{
    static constexpr const char* kNames[] = { "none", "null", "int", "double", "bool", "tensor", "int list",
        "double list", "bool list", "value list", "string", "symint" };
    const auto tag = static_cast<std::size_t>(type);
    return tag < std::size(kNames) ? kNames[tag] : "kind " + std::to_string(tag);
}

template <typename Vector, typename Format> std::string listPreview(const Vector* items, Format format)
{
    std::string out = "[";
    if (items) {
        for (flatbuffers::uoffset_t i = 0; i < items->size(); ++i) {
            if (i == kListPreview) {
                out += ", … (" + std::to_string(items->size()) + " items)";
                break;
            }
            out += (i ? ", " : "") + format(vectorElement(*items, i));
        }
    }
    return out + "]";
}

/// One VkValue, read once: what it is, how to show it, and which value ids it carries.
struct VkValueFacts {
    fbv::GraphTypes type = fbv::GraphTypes::NONE;
    std::string text; ///< "FLOAT32 [1, 3]", "int 2", "value list [4, 5]"
    const fbv::VkTensor* tensor = nullptr;
    std::vector<std::int32_t> items; ///< ValueList members
    bool isData() const { return type == fbv::GraphTypes::VkTensor || type == fbv::GraphTypes::SymIntValue; }
};

VkValueFacts readValue(const fbv::VkValue* value)
{
    VkValueFacts facts;
    if (!value)
        return facts;
    facts.type = value->value_type();
    using T = fbv::GraphTypes;
    // The verifier accepts a union tag without its table: such a value is shown, never read.
    if (!value->value() && facts.type != T::NONE) {
        facts.text = kindName(facts.type) + " without its table";
        facts.type = T::NONE;
        return facts;
    }
    switch (facts.type) {
    case T::NullValue:
        facts.text = "null";
        break;
    case T::IntValue:
        facts.text = "int " + std::to_string(value->value_as_IntValue()->int_val());
        break;
    case T::DoubleValue:
        facts.text = "double " + detail::floatText(value->value_as_DoubleValue()->double_val());
        break;
    case T::BoolValue:
        facts.text = std::string("bool ") + (value->value_as_BoolValue()->bool_val() ? "true" : "false");
        break;
    case T::StringValue: {
        const auto* s = value->value_as_StringValue()->string_val();
        facts.text = "string \"" + (s ? s->str().substr(0, 64) : std::string()) + "\"";
        break;
    }
    case T::SymIntValue:
        facts.text = "symint " + std::to_string(value->value_as_SymIntValue()->value());
        break;
    case T::IntListValue:
        facts.text = "int list "
            + listPreview(value->value_as_IntListValue()->items(), [](std::int64_t v) { return std::to_string(v); });
        break;
    case T::DoubleListValue:
        facts.text = "double list "
            + listPreview(value->value_as_DoubleListValue()->items(), [](double v) { return detail::floatText(v); });
        break;
    case T::BoolListValue:
        facts.text = "bool list " + listPreview(value->value_as_BoolListValue()->items(), [](std::uint8_t v) {
            return std::string(v ? "true" : "false");
        });
        break;
    case T::ValueListValue: {
        const auto* items = value->value_as_ValueListValue()->items();
        if (items)
            facts.items.assign(items->begin(), items->end());
        facts.text = "value list " + listPreview(items, [](std::int32_t v) { return std::to_string(v); });
        break;
    }
    case T::VkTensor: {
        facts.tensor = value->value_as_VkTensor();
        std::vector<std::int64_t> dims;
        if (facts.tensor->dims())
            dims.assign(facts.tensor->dims()->begin(), facts.tensor->dims()->end());
        facts.text = dataTypeName(facts.tensor->datatype()) + " " + formatShape(dims);
        break;
    }
    default:
        facts.text = "unknown value kind " + std::to_string(static_cast<int>(facts.type));
        break;
    }
    return facts;
}

TensorMeta metaOf(const VkValueFacts& v)
{
    if (!v.tensor)
        return { v.type == fbv::GraphTypes::SymIntValue ? "symint" : "", {} };
    std::vector<std::int64_t> dims;
    if (v.tensor->dims())
        dims.assign(v.tensor->dims()->begin(), v.tensor->dims()->end());
    return { dataTypeName(v.tensor->datatype()), std::move(dims) };
}

/// Reads the VkGraph of one payload into an inner Graph.
class VulkanReader {
public:
    /// `bytes`: the constant area; nullopt when it cannot be located, `unknownBytes` says why.
    VulkanReader(const DelegateContext& context, const fbv::VkGraph& root,
        std::optional<std::span<const std::uint8_t>> bytes, std::string unknownBytes)
        : m_context(context)
        , m_root(root)
        , m_bytes(bytes)
        , m_unknownBytes(std::move(unknownBytes))
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "vulkan";
        if (const auto* values = root.values())
            for (const fbv::VkValue* value : *values)
                m_values.push_back(readValue(value));
    }

    int addInputs();
    void addOperators();
    int addOutputs(int inputCount);
    void addFacts(DelegateInfo& info) const;
    std::shared_ptr<Graph> graph() { return m_graph; }

private:
    void warn(std::string message) { m_graph->warnings.push_back({ std::move(message), std::nullopt }); }
    const VkValueFacts* value(std::int64_t id) const
    {
        return id >= 0 && static_cast<std::uint64_t>(id) < m_values.size() ? &m_values[static_cast<std::size_t>(id)]
                                                                           : nullptr;
    }
    std::string constantText(std::int32_t constantId) const;
    void tensorAttributes(Node& node, std::int64_t id) const;
    NodeId sourceOf(std::int32_t id, std::size_t call);

    const DelegateContext& m_context;
    const fbv::VkGraph& m_root;
    std::optional<std::span<const std::uint8_t>> m_bytes;
    std::string m_unknownBytes;
    std::vector<VkValueFacts> m_values;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    std::map<std::int32_t, NodeId> m_producer;
};

std::string VulkanReader::constantText(std::int32_t constantId) const
{
    const auto* constants = m_root.constants();
    if (constantId < 0 || !constants || static_cast<std::uint32_t>(constantId) >= constants->size())
        return "constant " + std::to_string(constantId) + " does not exist";
    const fbv::VkBytes* entry = constants->Get(static_cast<flatbuffers::uoffset_t>(constantId));
    if (!entry)
        return "empty constant entry";
    if (entry->named_key() && entry->named_key()->size() > 0) {
        const std::string key = entry->named_key()->str();
        const auto size = m_context.namedDataSize(key);
        return "named data '" + key + "', "
            + (size ? std::to_string(*size) + " bytes" : "not found in the program or an attached .ptd");
    }
    std::string text = std::to_string(entry->length()) + " bytes at offset " + std::to_string(entry->offset());
    if (!m_bytes)
        return text + " (" + m_unknownBytes + ")";
    return detail::rangeInside(m_bytes->size(), entry->offset(), entry->length()) ? text
                                                                                  : text + " (outside the payload!)";
}

void VulkanReader::tensorAttributes(Node& node, std::int64_t id) const
{
    node.attributes.push_back({ "value id", std::to_string(id) });
    const VkValueFacts* v = value(id);
    if (!v) {
        node.attributes.push_back({ "value", "missing" });
        return;
    }
    node.attributes.push_back({ "kind", kindName(v->type) });
    if (!v->tensor) {
        node.attributes.push_back({ "value", v->text });
        return;
    }
    const fbv::VkTensor& t = *v->tensor;
    node.attributes.push_back({ "dtype", dataTypeName(t.datatype()) });
    node.attributes.push_back({ "shape", formatShape(metaOf(*v).shape) });
    node.attributes.push_back({ "constant id", std::to_string(t.constant_id()) });
    node.attributes.push_back({ "mem obj id", std::to_string(t.mem_obj_id()) });
    node.attributes.push_back({ "storage type", storageTypeName(t.storage_type()) });
    node.attributes.push_back({ "memory layout", memoryLayoutName(t.memory_layout()) });
    if (t.staging_datatype() != 127)
        node.attributes.push_back({ "staging dtype", dataTypeName(t.staging_datatype()) });
    if (t.constant_id() >= 0)
        node.attributes.push_back({ "bytes", constantText(t.constant_id()) });
}

int VulkanReader::addInputs()
{
    const auto* ids = m_root.input_ids();
    if (!ids)
        return 0;
    int position = 0;
    for (const std::uint32_t id : *ids) {
        Node node;
        node.kind = NodeKind::Input;
        node.value = ValueIndex(static_cast<std::int32_t>(id));
        node.label = "input " + std::to_string(position);
        node.argPosition = position; // input_ids[i] ↔ DelegateCall args[i]
        tensorAttributes(node, id);
        if (!value(id))
            warn("Vulkan input id " + std::to_string(id) + " names no value");
        m_producer[static_cast<std::int32_t>(id)] = m_graph->addNode(std::move(node));
        ++position;
    }
    return position;
}

/// The node that provides value `id` to an operator: its producer, else a constant created on
/// first use, else a placeholder for a value no earlier call wrote.
NodeId VulkanReader::sourceOf(std::int32_t id, std::size_t call)
{
    if (const auto it = m_producer.find(id); it != m_producer.end())
        return it->second;
    const VkValueFacts* v = value(id);
    Node node;
    node.value = ValueIndex(id);
    tensorAttributes(node, id);
    if (v && v->tensor && v->tensor->constant_id() >= 0) {
        node.kind = NodeKind::Constant;
        node.label = "const " + std::to_string(id);
        if (constantText(v->tensor->constant_id()).ends_with("does not exist"))
            warn("Vulkan value " + std::to_string(id) + " names constant " + std::to_string(v->tensor->constant_id())
                + ", which does not exist");
    } else {
        // A tensor read before any call writes it: a prepacked or shared buffer.
        node.kind = NodeKind::View;
        node.label = "value " + std::to_string(id);
        node.inferred = true;
        node.attributes.push_back({ "note", "read by call " + std::to_string(call) + " before any call writes it" });
    }
    const NodeId nodeId = m_graph->addNode(std::move(node));
    m_producer[id] = nodeId;
    return nodeId;
}

void VulkanReader::addOperators()
{
    const auto* chain = m_root.chain();
    if (!chain)
        return;
    for (std::size_t c = 0; c < chain->size(); ++c) {
        const fbv::OperatorCall* call = chain->Get(static_cast<flatbuffers::uoffset_t>(c));
        Node node;
        node.kind = NodeKind::Operator;
        const std::string name = call && call->name() ? call->name()->str() : std::string();
        node.label = name.empty() ? "(unnamed operator)" : name;
        node.opType = node.label;
        node.attributes.push_back({ "call index", std::to_string(c) });
        std::vector<std::int32_t> args;
        if (call && call->args())
            args.assign(call->args()->begin(), call->args()->end());
        if (call) {
            node.delegateDebugId = call->node_id();
            node.attributes.push_back({ "node id", std::to_string(call->node_id()) });
        }
        // args = schema arguments, then one output id (a ValueList for multi-output calls).
        std::vector<std::int32_t> outputs;
        if (!args.empty()) {
            const VkValueFacts* last = value(args.back());
            if (last && last->type == fbv::GraphTypes::ValueListValue)
                outputs = last->items;
            else
                outputs.push_back(args.back());
        } else {
            warn("Vulkan call " + std::to_string(c) + " (" + node.label + ") has no arguments");
        }
        std::vector<std::int32_t> inputs;
        for (std::size_t a = 0; a < args.size(); ++a) {
            const VkValueFacts* v = value(args[a]);
            const bool isOutput = a + 1 == args.size();
            const std::string label = isOutput ? "output" : "arg " + std::to_string(a);
            node.attributes.push_back(
                { label, "value " + std::to_string(args[a]) + ": " + (v ? v->text : std::string("missing")) });
            if (!v) {
                warn("Vulkan call " + std::to_string(c) + " (" + node.label + ") names value " + std::to_string(args[a])
                    + ", which does not exist");
                continue;
            }
            if (isOutput)
                continue;
            if (v->isData())
                inputs.push_back(args[a]);
            for (const std::int32_t item : v->items)
                if (const VkValueFacts* member = value(item); member && member->isData())
                    inputs.push_back(item);
        }
        std::vector<std::pair<NodeId, std::int32_t>> sources;
        std::set<std::int32_t> seen;
        for (const std::int32_t id : inputs)
            if (seen.insert(id).second)
                sources.emplace_back(sourceOf(id, c), id);
        const NodeId nodeId = m_graph->addNode(std::move(node));
        for (const auto& [from, id] : sources)
            m_graph->addEdge({ from, nodeId, ValueIndex(id), metaOf(*value(id)), false });
        for (const std::int32_t id : outputs)
            if (value(id))
                m_producer[id] = nodeId;
    }
}

int VulkanReader::addOutputs(int inputCount)
{
    const auto* ids = m_root.output_ids();
    if (!ids)
        return 0;
    int position = 0;
    for (const std::uint32_t id : *ids) {
        Node node;
        node.kind = NodeKind::Output;
        node.value = ValueIndex(static_cast<std::int32_t>(id));
        node.label = "output " + std::to_string(position);
        // output_ids[j] ↔ args[len(args) - n_out + j]: with inputs first, position n_in + j.
        node.argPosition = inputCount + position;
        tensorAttributes(node, id);
        const NodeId nodeId = m_graph->addNode(std::move(node));
        const auto from = m_producer.find(static_cast<std::int32_t>(id));
        if (from != m_producer.end() && value(id))
            m_graph->addEdge(
                { from->second, nodeId, ValueIndex(static_cast<std::int32_t>(id)), metaOf(*value(id)), false });
        else
            warn("Vulkan output value " + std::to_string(id) + " is not written by any call");
        ++position;
    }
    return position;
}

void VulkanReader::addFacts(DelegateInfo& info) const
{
    if (m_root.version())
        info.facts.push_back({ "graph version", m_root.version()->str() });
    std::map<std::string, int> byKind;
    for (const VkValueFacts& v : m_values)
        ++byKind[kindName(v.type)];
    std::string kinds;
    for (const auto& [kind, count] : byKind)
        kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(count);
    info.facts.push_back({ "values", std::to_string(m_values.size()) + (kinds.empty() ? "" : " (" + kinds + ")") });
    info.facts.push_back({ "operator calls", std::to_string(m_root.chain() ? m_root.chain()->size() : 0) });
    if (const auto* constants = m_root.constants()) {
        std::uint64_t payloadBytes = 0;
        std::uint64_t namedBytes = 0;
        std::size_t named = 0;
        for (const fbv::VkBytes* entry : *constants) {
            if (!entry)
                continue;
            if (entry->named_key() && entry->named_key()->size() > 0) {
                ++named;
                namedBytes += m_context.namedDataSize(entry->named_key()->str()).value_or(0);
            } else {
                payloadBytes += entry->length();
            }
        }
        info.facts.push_back({ "constants",
            std::to_string(constants->size()) + " (" + formatBytes(payloadBytes) + " in the payload, "
                + std::to_string(named) + " named, " + formatBytes(namedBytes) + ")" });
    }
    if (const auto* shaders = m_root.shaders(); shaders && shaders->size())
        info.facts.push_back({ "shaders", std::to_string(shaders->size()) });
    info.facts.push_back({ "storage type override", storageTypeName(m_root.storage_type_override()) });
    info.facts.push_back({ "memory layout override", memoryLayoutName(m_root.memory_layout_override()) });
}

} // namespace

bool decodeVulkan(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const auto fail = [&](const std::string& reason, std::optional<std::uint64_t> at = 0) {
        context.warn(info, reason, at);
        return false;
    };
    if (payload.size() < 8)
        return fail("payload of " + std::to_string(payload.size()) + " bytes is too small for a Vulkan graph");

    std::span<const std::uint8_t> flatbuffer = payload;
    std::optional<std::span<const std::uint8_t>> bytes;
    std::string unknownBytes = "no VH00 header, so the constant bytes cannot be located";
    if (hasPayloadHeader(payload, "VH00")) {
        const auto header = readPayloadHeader(context, info, "VH00", "constant bytes");
        if (!header)
            return false;
        flatbuffer = header->graph;
        bytes = header->constants;
        if (!bytes)
            unknownBytes = "the header's constant range is damaged";
    } else {
        info.facts.push_back({ "header", "none (bare VK00 FlatBuffer)" });
    }
    if (flatbuffer.size() < 8)
        return fail("the Vulkan graph is too small (" + std::to_string(flatbuffer.size()) + " bytes)");
    if (std::memcmp(flatbuffer.data() + 4, "VK00", 4) != 0)
        return fail("not a Vulkan graph: identifier " + magicText(flatbuffer.subspan(4, 4)) + " (expected VK00)");
    if (!verifyFlatbuffer<fbv::VkGraph>(flatbuffer.data(), flatbuffer.size(), "VK00", false))
        return fail("the FlatBuffers verifier rejected the Vulkan graph");
    const fbv::VkGraph* root = fbv::GetVkGraph(flatbuffer.data());

    info.format = "vulkan";
    addTarget(info, "vulkan.header", "Vulkan header",
        std::memcmp(payload.data() + 4, "VH00", 4) == 0 ? "VH00" : "none (bare FlatBuffer)", std::nullopt,
        "payload bytes 4-7");
    addTarget(info, "vulkan.schema", "Vulkan graph schema", "VK00", std::nullopt, "FlatBuffer identifier");
    if (root->version())
        addTarget(info, "vulkan.graph_version", "Vulkan graph version", root->version()->str(), std::nullopt,
            "VkGraph.version");
    // ExecuTorch's WebGPU backend registers as "VulkanBackend" and runs this same payload (its
    // VH00 header and VK00 graph: pytorch/executorch backends/webgpu/runtime/WebGPUBackend.cpp
    // and WebGPUDelegateHeader.cpp, commit cff6f4dd32e6), so the payload cannot say which
    // runtime it was lowered for; only WebGPU reads this compile spec.
    for (const CompileSpec& spec : context.ref.compileSpecs)
        if (spec.key == "webgpu_record_q4gsw_decode_route")
            info.facts.push_back(
                { "runtime hint", "compile spec " + spec.key + " is read only by the WebGPU backend" });
    VulkanReader reader(context, *root, bytes, unknownBytes);
    const int inputCount = reader.addInputs();
    reader.addOperators();
    const int outputCount = reader.addOutputs(inputCount);
    reader.addFacts(info);

    const std::size_t calls = root->chain() ? root->chain()->size() : 0;
    context.adoptInnerGraph(
        info, reader.graph(), "Vulkan graph VK00", calls, "operator call", "operator calls", inputCount, outputCount);
    return true;
}

} // namespace etscope::core
