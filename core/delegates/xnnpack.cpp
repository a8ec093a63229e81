// SPDX-License-Identifier: MIT
// XNNPACK delegate payloads (facts sheet §3.1): XH00 header + XN01 FlatBuffer, or the old bare
// FlatBuffer (XN00/XN01). Decoded into an inner graph whose inputs/outputs carry their
// position in the outer DelegateCall arguments (external_id).
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/payloadheader.h"
#include "core/delegates/targetfacts.h"
#include "core/delegates/xnnpacknodes.h"
#include "core/pte/verify.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace etscope::core {
namespace fbx = etscope::fb::xnnpack;
using detail::floatText;
using xnnpack::datatypeName;
using xnnpack::kInvalidId;

namespace {

constexpr std::uint32_t kNoDebugHandle = 65535;
constexpr std::uint32_t kFlagExternalInput = 1;
constexpr std::uint32_t kFlagExternalOutput = 2;
constexpr std::uint32_t kFlagPersistent = 4;

struct XValueFacts {
    std::uint32_t id = 0;
    int datatype = 0;
    std::vector<std::int64_t> dims;
    std::uint32_t constantIndex = 0;
    std::uint32_t externalId = kInvalidId;
    std::uint32_t flags = 0;
    std::string quantSummary; ///< "per channel, 16 scales"; empty when not quantized
    std::vector<Attribute> quant;

    TensorMeta meta() const { return { datatypeName(datatype), dims }; }
    /// "fp32 [1, 8]", with the quantization appended.
    std::string text() const
    {
        std::string out = datatypeName(datatype) + " " + formatShape(dims);
        return quantSummary.empty() ? out : out + ", " + quantSummary;
    }
};

std::string flagsText(std::uint32_t flags)
{
    std::string out;
    const auto add = [&](const char* word) { out += (out.empty() ? "" : " | ") + std::string(word); };
    if (flags & kFlagExternalInput)
        add("external input");
    if (flags & kFlagExternalOutput)
        add("external output");
    if (flags & kFlagPersistent)
        add("persistent");
    if (flags & ~(kFlagExternalInput | kFlagExternalOutput | kFlagPersistent))
        add(("0x" + toHex({ reinterpret_cast<const std::uint8_t*>(&flags), 4 })).c_str());
    return out.empty() ? "none" : out;
}

/// Reads the XNNPACK graph of one payload into an inner Graph.
class XnnpackReader {
public:
    /// `constantData`: the constant area; nullopt when the header's range for it is damaged.
    XnnpackReader(const DelegateContext& context, const fbx::XNNGraph& root,
        std::optional<std::span<const std::uint8_t>> constantData)
        : m_context(context)
        , m_root(root)
        , m_constantData(constantData)
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "xnnpack";
    }

    void readValues();
    /// What addFacts needs of the values (counts by type, quantized), without reading them
    /// into facts: the deferred path (DelegateContext::deferInnerGraph).
    void countValues();
    int addInputs();
    void addNodes();
    int addOutputs(int inputCount);
    void checkFlags();
    void addFacts(DelegateInfo& info) const;
    std::shared_ptr<Graph> graph() { return m_graph; }
    std::size_t nodeCount() const { return m_root.xnodes() ? m_root.xnodes()->size() : 0; }

private:
    void warn(std::string message) { m_graph->warnings.push_back({ std::move(message), std::nullopt }); }
    std::string constantText(std::uint32_t index) const;
    void readQuant(const fbx::QuantizedTensorValue& q, XValueFacts& facts) const;
    /// The tensor an XValue holds, plain or quantized (`quantized` set and counted then);
    /// null for an unknown type or a missing tensor. Shared by readValues and countValues.
    const fbx::TensorValue* tensorOf(const fbx::XValue* value, const fbx::QuantizedTensorValue*& quantized);
    NodeId constantNode(std::uint32_t id, const XValueFacts& v);
    void valueAttributes(Node& node, const XValueFacts& v) const;

    const DelegateContext& m_context;
    const fbx::XNNGraph& m_root;
    std::optional<std::span<const std::uint8_t>> m_constantData;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    std::map<std::uint32_t, XValueFacts> m_values; ///< by id_out (normally the position; never assumed)
    std::map<std::uint32_t, NodeId> m_producer;
    std::map<std::string, int> m_valuesByType;
    std::size_t m_valueCount = 0; ///< distinct value ids (m_values.size() once read)
    int m_quantized = 0;
};

std::string XnnpackReader::constantText(std::uint32_t index) const
{
    const auto* table = m_root.constant_data();
    if (table && index < table->size()) {
        const auto* entry = table->Get(index);
        if (!entry)
            return "constant " + std::to_string(index) + " (empty entry)";
        const std::string key = entry->named_key() ? entry->named_key()->str() : std::string();
        if (!key.empty()) {
            const auto size = m_context.namedDataSize(key);
            return "named data '" + key + "', "
                + (size ? std::to_string(*size) + " bytes" : "not found in the program or an attached .ptd");
        }
        const std::string text
            = std::to_string(entry->size()) + " bytes at constant-data offset " + std::to_string(entry->offset());
        if (!m_constantData)
            return text + " (the header's constant range is damaged)";
        const bool inside = detail::rangeInside(m_constantData->size(), entry->offset(), entry->size());
        return text + (inside ? "" : " (outside the constant data!)");
    }
    const auto* legacy = m_root.constant_buffer();
    if (legacy && index < legacy->size()) {
        const auto* buffer = legacy->Get(index);
        return std::to_string(buffer && buffer->storage() ? buffer->storage()->size() : 0) + " bytes (inline buffer)";
    }
    return "constant " + std::to_string(index) + " does not exist";
}

void XnnpackReader::readQuant(const fbx::QuantizedTensorValue& q, XValueFacts& facts) const
{
    using Q = fbx::QuantParams;
    auto& out = facts.quant;
    // The verifier accepts a union tag without its table.
    if (!q.quant_params()) {
        facts.quantSummary = "quantization without parameters";
        out.push_back({ "quantization",
            "tag " + std::to_string(static_cast<int>(q.quant_params_type())) + " without its parameter table" });
        return;
    }
    const auto scaleCount = [](const auto* p) {
        return p->scale() && p->scale()->size() > 0 ? static_cast<std::uint64_t>(p->scale()->size())
                                                    : static_cast<std::uint64_t>(p->num_scales());
    };
    switch (q.quant_params_type()) {
    case Q::PerTensorQuant: {
        const auto* p = q.quant_params_as_PerTensorQuant();
        facts.quantSummary
            = "per tensor, scale " + floatText(p->scale()) + ", zero point " + std::to_string(p->zero_point());
        out.push_back({ "quantization", "per tensor" });
        out.push_back({ "scale", floatText(p->scale()) });
        out.push_back({ "zero point", std::to_string(p->zero_point()) });
        break;
    }
    case Q::PerChannelQuant: {
        const auto* p = q.quant_params_as_PerChannelQuant();
        const std::uint64_t scales = scaleCount(p);
        facts.quantSummary = "per channel, " + std::to_string(scales) + " scales";
        out.push_back({ "quantization", "per channel" });
        out.push_back({ "channel dim", std::to_string(p->channel_dim()) });
        out.push_back({ "scales", std::to_string(scales) + (p->scale() && p->scale()->size() ? " (inline)" : "") });
        if (p->scale_buffer_idx() != 0)
            out.push_back({ "scale buffer", constantText(p->scale_buffer_idx()) });
        break;
    }
    case Q::PerTokenDynamicQuant: {
        const int dims = q.quant_params_as_PerTokenDynamicQuant()->num_nonbatch_dims();
        facts.quantSummary = "per token (dynamic)";
        out.push_back({ "quantization", "per token (dynamic)" });
        out.push_back({ "non-batch dims", std::to_string(dims) });
        break;
    }
    case Q::PerChannelGroupQuant: {
        const auto* p = q.quant_params_as_PerChannelGroupQuant();
        const std::uint64_t scales = scaleCount(p);
        facts.quantSummary
            = "per channel group of " + std::to_string(p->group_size()) + ", " + std::to_string(scales) + " scales";
        out.push_back({ "quantization", "per channel group" });
        out.push_back({ "channel dim", std::to_string(p->channel_dim()) });
        out.push_back({ "group size", std::to_string(p->group_size()) });
        out.push_back({ "scales", std::to_string(scales) + (p->scale() && p->scale()->size() ? " (inline)" : "") });
        if (p->scale_bf16() && p->scale_bf16()->size())
            out.push_back({ "bf16 scales (deprecated field)", std::to_string(p->scale_bf16()->size()) });
        if (p->scale_buffer_idx() != 0)
            out.push_back({ "scale buffer", constantText(p->scale_buffer_idx()) });
        break;
    }
    default: {
        const int tag = static_cast<int>(q.quant_params_type());
        facts.quantSummary = "quantization " + std::to_string(tag);
        out.push_back({ "quantization", "unknown (" + std::to_string(tag) + ")" });
        break;
    }
    }
}

const fbx::TensorValue* XnnpackReader::tensorOf(const fbx::XValue* value, const fbx::QuantizedTensorValue*& quantized)
{
    quantized = nullptr;
    if (value && value->xvalue_union_type() == fbx::XValueUnion::TensorValue)
        return value->xvalue_union_as_TensorValue();
    if (value && value->xvalue_union_type() == fbx::XValueUnion::QuantizedTensorValue) {
        quantized = value->xvalue_union_as_QuantizedTensorValue();
        if (quantized) {
            ++m_quantized;
            return quantized->tensor_value();
        }
    }
    return nullptr;
}

void XnnpackReader::readValues()
{
    const auto* xvalues = m_root.xvalues();
    if (!xvalues)
        return;
    for (flatbuffers::uoffset_t i = 0; i < xvalues->size(); ++i) {
        XValueFacts facts;
        const fbx::QuantizedTensorValue* quantized = nullptr;
        const fbx::TensorValue* tensor = tensorOf(xvalues->Get(i), quantized);
        if (quantized)
            readQuant(*quantized, facts);
        if (!tensor) {
            warn("XNNPACK value " + std::to_string(i) + " has an unknown type or no tensor");
            continue;
        }
        facts.id = tensor->id_out();
        facts.datatype = tensor->datatype();
        if (tensor->dims())
            facts.dims.assign(tensor->dims()->begin(), tensor->dims()->end());
        if (tensor->num_dims() != facts.dims.size())
            warn("XNNPACK value " + std::to_string(facts.id) + " says " + std::to_string(tensor->num_dims())
                + " dims but lists " + std::to_string(facts.dims.size()));
        facts.constantIndex = tensor->constant_buffer_idx();
        facts.externalId = tensor->external_id();
        facts.flags = tensor->flags();
        if (tensor->dq_datatype() != 0)
            facts.quant.push_back({ "dq datatype", datatypeName(tensor->dq_datatype()) });
        ++m_valuesByType[datatypeName(facts.datatype)];
        if (!m_values.emplace(facts.id, facts).second)
            warn("XNNPACK value id " + std::to_string(facts.id) + " is defined twice; the first is kept");
    }
    m_valueCount = m_values.size();
}

void XnnpackReader::countValues()
{
    const auto* xvalues = m_root.xvalues();
    if (!xvalues)
        return;
    // The same walk as readValues, counting only.
    std::vector<std::uint32_t> ids;
    ids.reserve(xvalues->size());
    for (flatbuffers::uoffset_t i = 0; i < xvalues->size(); ++i) {
        const fbx::QuantizedTensorValue* quantized = nullptr;
        const fbx::TensorValue* tensor = tensorOf(xvalues->Get(i), quantized);
        if (!tensor)
            continue;
        ids.push_back(tensor->id_out());
        ++m_valuesByType[datatypeName(tensor->datatype())];
    }
    std::sort(ids.begin(), ids.end());
    m_valueCount = static_cast<std::size_t>(std::unique(ids.begin(), ids.end()) - ids.begin());
}

void XnnpackReader::valueAttributes(Node& node, const XValueFacts& v) const
{
    node.attributes.push_back({ "value id", std::to_string(v.id) });
    node.attributes.push_back({ "dtype", datatypeName(v.datatype) });
    node.attributes.push_back({ "shape", formatShape(v.dims) });
    node.attributes.push_back({ "flags", flagsText(v.flags) });
    if (v.externalId != kInvalidId)
        node.attributes.push_back({ "external id", std::to_string(v.externalId) });
    for (const Attribute& q : v.quant)
        node.attributes.push_back(q);
}

int XnnpackReader::addInputs()
{
    int inputCount = 0;
    const auto* inputIds = m_root.input_ids();
    if (!inputIds)
        return 0;
    for (const std::uint32_t id : *inputIds) {
        Node node;
        node.kind = NodeKind::Input;
        node.value = ValueIndex(static_cast<std::int32_t>(id));
        node.label = "input " + std::to_string(inputCount);
        node.argPosition = inputCount;
        if (const auto it = m_values.find(id); it != m_values.end()) {
            // external_id is the position in the DelegateCall args; old files may lack it.
            if (it->second.externalId != kInvalidId)
                node.argPosition = static_cast<int>(it->second.externalId);
            valueAttributes(node, it->second);
        } else {
            warn("XNNPACK input id " + std::to_string(id) + " names no value");
        }
        m_producer[id] = m_graph->addNode(std::move(node));
        ++inputCount;
    }
    return inputCount;
}

NodeId XnnpackReader::constantNode(std::uint32_t id, const XValueFacts& v)
{
    Node node;
    node.kind = NodeKind::Constant;
    node.value = ValueIndex(static_cast<std::int32_t>(id));
    node.label = "const " + std::to_string(id);
    valueAttributes(node, v);
    node.attributes.push_back({ "constant index", std::to_string(v.constantIndex) });
    const std::string bytes = constantText(v.constantIndex);
    node.attributes.push_back({ "bytes", bytes });
    if (bytes.ends_with("does not exist"))
        warn("XNNPACK value " + std::to_string(id) + " names constant " + std::to_string(v.constantIndex)
            + ", which does not exist");
    return m_graph->addNode(std::move(node));
}

void XnnpackReader::addNodes()
{
    const auto* xnodes = m_root.xnodes();
    for (std::size_t n = 0; n < nodeCount(); ++n) {
        const auto* xnode = xnodes->Get(static_cast<flatbuffers::uoffset_t>(n));
        Node node;
        node.kind = NodeKind::Operator;
        xnnpack::NodePorts ports;
        const int tag = xnode ? static_cast<int>(xnode->xnode_union_type()) : 0;
        if (!xnode || !xnnpack::nodePorts(*xnode, ports)) {
            node.label = "XNNUnknown(" + std::to_string(tag) + ")";
            warn("XNNPACK node " + std::to_string(n) + " has node type " + std::to_string(tag)
                + ", which this build does not know; shown without its connections");
        } else {
            node.label = fbx::EnumNameXNodeUnion(xnode->xnode_union_type());
        }
        node.opType = node.label;
        node.attributes.push_back({ "node index", std::to_string(n) });
        node.attributes.push_back({ "node type tag", std::to_string(tag) });
        if (xnode && xnode->debug_handle() != kNoDebugHandle) {
            node.debugHandle = DebugHandle(xnode->debug_handle());
            node.attributes.push_back({ "debug handle", std::to_string(xnode->debug_handle()) });
        }
        const auto portText = [&](std::uint32_t id) {
            const auto it = m_values.find(id);
            return "value " + std::to_string(id) + (it == m_values.end() ? " (missing)" : ": " + it->second.text());
        };
        for (const auto& [port, id] : ports.inputs)
            node.attributes.push_back({ port, id == kInvalidId ? std::string("none") : portText(id) });
        for (const auto& [port, id] : ports.outputs)
            node.attributes.push_back({ port, portText(id) });
        for (const Attribute& param : ports.params)
            node.attributes.push_back(param);
        if (xnode && xnode->output_min_max()) {
            node.attributes.push_back({ "output min", floatText(xnode->output_min_max()->output_min()) });
            node.attributes.push_back({ "output max", floatText(xnode->output_min_max()->output_max()) });
        }
        // Sources first (constants are created on first use), so they precede their consumer.
        std::vector<std::pair<NodeId, std::uint32_t>> sources;
        std::set<std::uint32_t> connected;
        for (const auto& [port, id] : ports.inputs) {
            if (id == kInvalidId || !connected.insert(id).second)
                continue;
            const auto value = m_values.find(id);
            if (value == m_values.end()) {
                warn("XNNPACK node " + std::to_string(n) + " reads value " + std::to_string(id)
                    + ", which does not exist");
                continue;
            }
            auto from = m_producer.find(id);
            if (from == m_producer.end() && value->second.constantIndex != 0)
                from = m_producer.emplace(id, constantNode(id, value->second)).first;
            if (from == m_producer.end()) {
                warn("XNNPACK node " + std::to_string(n) + " reads value " + std::to_string(id)
                    + " before any node writes it");
                continue;
            }
            sources.emplace_back(from->second, id);
        }
        const NodeId nodeId = m_graph->addNode(std::move(node));
        for (const auto& [from, id] : sources)
            m_graph->addEdge(
                { from, nodeId, ValueIndex(static_cast<std::int32_t>(id)), m_values.at(id).meta(), false });
        for (const auto& [port, id] : ports.outputs)
            m_producer[id] = nodeId;
    }
}

int XnnpackReader::addOutputs(int inputCount)
{
    int outputCount = 0;
    const auto* outputIds = m_root.output_ids();
    if (!outputIds)
        return 0;
    for (const std::uint32_t id : *outputIds) {
        Node node;
        node.kind = NodeKind::Output;
        node.value = ValueIndex(static_cast<std::int32_t>(id));
        node.label = "output " + std::to_string(outputCount);
        const auto value = m_values.find(id);
        node.argPosition = value != m_values.end() && value->second.externalId != kInvalidId
            ? static_cast<int>(value->second.externalId)
            : inputCount + outputCount;
        if (value != m_values.end())
            valueAttributes(node, value->second);
        else
            node.attributes.push_back({ "value id", std::to_string(id) });
        const NodeId nodeId = m_graph->addNode(std::move(node));
        const auto from = m_producer.find(id);
        if (from != m_producer.end() && value != m_values.end())
            m_graph->addEdge(
                { from->second, nodeId, ValueIndex(static_cast<std::int32_t>(id)), value->second.meta(), false });
        else
            warn("XNNPACK output value " + std::to_string(id) + " is not written by any node");
        ++outputCount;
    }
    return outputCount;
}

void XnnpackReader::checkFlags()
{
    std::set<std::uint32_t> outputs;
    if (const auto* ids = m_root.output_ids())
        outputs.insert(ids->begin(), ids->end());
    std::set<std::uint32_t> inputs;
    if (const auto* ids = m_root.input_ids())
        inputs.insert(ids->begin(), ids->end());
    for (const auto& [id, v] : m_values) {
        if ((v.flags & kFlagExternalInput) && !inputs.count(id))
            warn("XNNPACK value " + std::to_string(id) + " is flagged as an external input but is not listed");
        if ((v.flags & kFlagExternalOutput) && !outputs.count(id))
            warn("XNNPACK value " + std::to_string(id) + " is flagged as an external output but is not listed");
    }
}

void XnnpackReader::addFacts(DelegateInfo& info) const
{
    if (m_root.version())
        info.facts.push_back({ "graph version", m_root.version()->str() });
    info.facts.push_back({ "num_externs", std::to_string(m_root.num_externs()) });
    std::string byType;
    for (const auto& [type, count] : m_valuesByType)
        byType += (byType.empty() ? "" : ", ") + type + " " + std::to_string(count);
    info.facts.push_back({ "values", std::to_string(m_valueCount) + (byType.empty() ? "" : " (" + byType + ")") });
    if (m_quantized)
        info.facts.push_back({ "quantized values", std::to_string(m_quantized) });
    info.facts.push_back({ "nodes", std::to_string(nodeCount()) });
    if (const auto* table = m_root.constant_data()) {
        std::uint64_t namedBytes = 0;
        std::uint64_t inlineBytes = 0;
        std::size_t namedCount = 0;
        for (const auto* entry : *table) {
            if (entry && entry->named_key() && entry->named_key()->size() > 0) {
                ++namedCount;
                if (const auto size = m_context.namedDataSize(entry->named_key()->str()))
                    namedBytes += *size;
            } else if (entry) {
                inlineBytes += entry->size();
            }
        }
        info.facts.push_back({ "constant entries", std::to_string(table->size()) });
        if (namedCount)
            info.facts.push_back(
                { "named-data constants", std::to_string(namedCount) + " (" + formatBytes(namedBytes) + ")" });
        if (inlineBytes)
            info.facts.push_back({ "payload constants", formatBytes(inlineBytes) });
    }
    if (const auto* legacy = m_root.constant_buffer(); legacy && legacy->size())
        info.facts.push_back({ "legacy constant buffers", std::to_string(legacy->size()) });
    if (const auto* sizes = m_root.mem_buffer_sizes(); sizes && sizes->size())
        info.facts.push_back({ "legacy mem_buffer_sizes", std::to_string(sizes->size()) });
}

} // namespace

bool decodeXnnpack(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const auto fail = [&](const std::string& reason, std::optional<std::uint64_t> at = 0) {
        context.warn(info, reason, at);
        return false;
    };
    if (payload.size() < 8)
        return fail("payload of " + std::to_string(payload.size()) + " bytes is too small for an XNNPACK graph");

    std::span<const std::uint8_t> flatbuffer = payload;
    std::optional<std::span<const std::uint8_t>> constantData = std::span<const std::uint8_t>();
    const bool hasHeader = hasPayloadHeader(payload, "XH00");
    if (hasHeader) {
        const auto header = readPayloadHeader(context, info, "XH00", "constant data bytes");
        if (!header)
            return false;
        flatbuffer = header->graph;
        constantData = header->constants;
    }
    if (flatbuffer.size() < 8)
        return fail("the XNNPACK graph is too small");
    const std::string identifier(reinterpret_cast<const char*>(flatbuffer.data() + 4), 4);
    if (identifier != "XN00" && identifier != "XN01")
        return fail(
            "not an XNNPACK graph: identifier " + magicText(flatbuffer.subspan(4, 4)) + " (expected XN00 or XN01)");
    if (!verifyFlatbuffer<fbx::XNNGraph>(flatbuffer.data(), flatbuffer.size(), nullptr, false))
        return fail("the FlatBuffers verifier rejected the XNNPACK graph");
    const auto* root = fbx::GetXNNGraph(flatbuffer.data());

    info.format = "xnnpack";
    info.facts.push_back({ "graph identifier", identifier + (hasHeader ? "" : " (bare FlatBuffer, no XH00 header)") });
    addTarget(info, "xnnpack.header", "XNNPACK header", hasHeader ? "XH00" : "none (bare FlatBuffer)", std::nullopt,
        "payload bytes 4-7");
    addTarget(info, "xnnpack.schema", "XNNPACK graph schema", identifier, std::nullopt, "FlatBuffer identifier");
    if (root->version())
        addTarget(info, "xnnpack.graph_version", "XNNPACK graph version", root->version()->str(), std::nullopt,
            "XNNGraph.version");

    XnnpackReader reader(context, *root, constantData);
    if (context.deferInnerGraph) {
        // Everything but the graph: facts and counts read off the FlatBuffer. Each node becomes
        // one operator node and the graph's ports are the listed input and output ids (as
        // addInputs/addNodes/addOutputs below); the problems found while building it come
        // with it, on first use.
        reader.countValues();
        reader.addFacts(info);
        const int inputs = root->input_ids() ? static_cast<int>(root->input_ids()->size()) : 0;
        const int outputs = root->output_ids() ? static_cast<int>(root->output_ids()->size()) : 0;
        info.inputCount = inputs;
        info.outputCount = outputs;
        info.summary = "XNNPACK graph " + identifier + ": " + detail::plural(reader.nodeCount(), "node", "nodes") + ", "
            + detail::plural(inputs, "input", "inputs") + ", " + detail::plural(outputs, "output", "outputs");
        info.innerGraph = deferredInnerGraph(reader.nodeCount());
        return true;
    }
    reader.readValues();
    const int inputCount = reader.addInputs();
    reader.addNodes();
    const int outputCount = reader.addOutputs(inputCount);
    reader.checkFlags();
    reader.addFacts(info);

    context.adoptInnerGraph(info, reader.graph(), "XNNPACK graph " + identifier, reader.nodeCount(), "node", "nodes",
        inputCount, outputCount);
    return true;
}

} // namespace etscope::core
