// SPDX-License-Identifier: MIT
// XNNPACK delegate payloads (facts sheet §3.1): XH00 header + XN01 FlatBuffer, or the old bare
// FlatBuffer (XN00/XN01). Decoded into an inner graph whose inputs/outputs carry their
// position in the outer DelegateCall arguments (external_id).
#include "delegate.h"

#include "pte/verify.h"
#include "util/text.h"
#include "xnnpack_generated.h"

#include <cstring>
#include <map>
#include <set>

namespace etscope::core {
namespace fbx = etscope::fb::xnnpack;

namespace {

constexpr std::uint32_t kInvalidId = 0xFFFFFFFFu;
constexpr std::uint32_t kNoDebugHandle = 65535;
constexpr std::uint32_t kFlagExternalInput = 1;

std::string datatypeName(int type)
{
    static constexpr const char* kNames[] = { "invalid", "fp32", "fp16", "qint8", "quint8", "qint32", "qcint8",
        "qcint32", "qcint4", "qdint8", "qbint4", "qpint8", "int32", "pfp32", "bf16" };
    if (type >= 0 && type < static_cast<int>(std::size(kNames)))
        return kNames[type];
    return "xnn_datatype(" + std::to_string(type) + ")";
}

std::string listText(const flatbuffers::Vector<std::uint32_t>* items)
{
    std::vector<std::int64_t> values;
    if (items)
        values.assign(items->begin(), items->end());
    return formatShape(values);
}

std::string floatText(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

struct XValueFacts {
    std::uint32_t id = 0;
    int datatype = 0;
    std::vector<std::int64_t> dims;
    std::uint32_t constantIndex = 0;
    std::uint32_t externalId = kInvalidId;
    std::uint32_t flags = 0;
    std::vector<Attribute> quant;
};

struct NodePorts {
    std::vector<std::pair<std::string, std::uint32_t>> inputs;
    std::vector<std::pair<std::string, std::uint32_t>> outputs;
    std::vector<Attribute> params;

    void in(const char* name, std::uint32_t id) { inputs.emplace_back(name, id); }
    void out(const char* name, std::uint32_t id) { outputs.emplace_back(name, id); }
    void param(const char* name, std::uint64_t value) { params.push_back({ name, std::to_string(value) }); }
    void param(const char* name, std::string value) { params.push_back({ name, std::move(value) }); }
};

void portsOf(const fbx::Node1x1* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::Node2x1* t, NodePorts& p)
{
    p.in("input1", t->input1_id());
    p.in("input2", t->input2_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::FullyConnected* t, NodePorts& p)
{
    p.in("input", t->input1_id());
    p.in("filter", t->filter_id());
    p.in("bias", t->bias_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::Conv* t, NodePorts& p)
{
    p.in("input", t->input1_id());
    p.in("filter", t->filter_id());
    p.in("bias", t->bias_id());
    p.out("output", t->output_id());
    p.param("padding (t, r, b, l)",
        "(" + std::to_string(t->padding_top()) + ", " + std::to_string(t->padding_right()) + ", "
            + std::to_string(t->padding_bottom()) + ", " + std::to_string(t->padding_left()) + ")");
    p.param("kernel (h × w)", std::to_string(t->kernel_height()) + " × " + std::to_string(t->kernel_width()));
    p.param("subsampling (h × w)",
        std::to_string(t->subsampling_height()) + " × " + std::to_string(t->subsampling_width()));
    p.param("dilation (h × w)", std::to_string(t->dilation_height()) + " × " + std::to_string(t->dilation_width()));
    p.param("groups", t->groups());
    p.param("group input channels", t->group_input_channels());
    p.param("group output channels", t->group_output_channels());
    if (t->adjustment_height() || t->adjustment_width())
        p.param("adjustment (h × w)",
            std::to_string(t->adjustment_height()) + " × " + std::to_string(t->adjustment_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::Pooling2D* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("padding (t, r, b, l)",
        "(" + std::to_string(t->padding_top()) + ", " + std::to_string(t->padding_right()) + ", "
            + std::to_string(t->padding_bottom()) + ", " + std::to_string(t->padding_left()) + ")");
    p.param("pooling (h × w)", std::to_string(t->pooling_height()) + " × " + std::to_string(t->pooling_width()));
    p.param("stride (h × w)", std::to_string(t->stride_height()) + " × " + std::to_string(t->stride_width()));
    p.param("dilation (h × w)", std::to_string(t->dilation_height()) + " × " + std::to_string(t->dilation_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ArgMaxPooling2d* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output value", t->output_value_id());
    p.out("output index", t->output_index_id());
    p.param("padding (t, r, b, l)",
        "(" + std::to_string(t->padding_top()) + ", " + std::to_string(t->padding_right()) + ", "
            + std::to_string(t->padding_bottom()) + ", " + std::to_string(t->padding_left()) + ")");
    p.param("pooling (h × w)", std::to_string(t->pooling_height()) + " × " + std::to_string(t->pooling_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::Cat* t, NodePorts& p, int inputCount)
{
    const std::uint32_t ids[] = { t->input1_id(), t->input2_id(), t->input3_id(), t->input4_id(), t->input5_id() };
    static constexpr const char* kNames[] = { "input1", "input2", "input3", "input4", "input5" };
    for (int i = 0; i < inputCount && i < 5; ++i)
        p.in(kNames[i], ids[i]);
    p.out("output", t->output_id());
    p.param("axis", t->axis());
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticTranspose* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("perm", listText(t->perm()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticReshape* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("new shape", listText(t->new_shape()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticSlice* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("offsets", listText(t->offsets()));
    p.param("sizes", listText(t->sizes()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ResizeBilinear2D* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("new size (h × w)", std::to_string(t->new_height()) + " × " + std::to_string(t->new_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ConstantPad* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("pre paddings", listText(t->pre_paddings()));
    p.param("post paddings", listText(t->post_paddings()));
    p.param("padding value", floatText(t->padding_value()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ELU* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("alpha", floatText(t->alpha()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::LeakyReLU* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("negative slope", floatText(t->negative_slope()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::SDPA* t, NodePorts& p)
{
    p.in("query", t->query_id());
    p.in("key", t->key_id());
    p.in("value", t->value_id());
    p.in("scale", t->scale_id());
    p.in("mask", t->mask_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

/// Fills `ports` for a node; false for a union tag this build does not know.
bool nodePorts(const fbx::XNode& node, NodePorts& ports)
{
    using U = fbx::XNodeUnion;
    const void* table = node.xnode_union();
    if (!table)
        return false;
    switch (node.xnode_union_type()) {
    case U::XNNAdd:
    case U::XNNDiv:
    case U::XNNMinimum:
    case U::XNNMaximum:
    case U::XNNMultiply:
    case U::XNNSubtract:
    case U::XNNPReLU:
    case U::XNNBatchMatrixMultiply:
        portsOf(static_cast<const fbx::Node2x1*>(table), ports);
        return true;
    case U::XNNSoftmax:
    case U::XNNSigmoid:
    case U::XNNClamp:
    case U::XNNFloor:
    case U::XNNConvert:
    case U::XNNGlobalAvgPooling2d:
    case U::XNNSquareRoot:
    case U::XNNCeiling:
    case U::XNNHardswish:
    case U::XNNNegate:
    case U::XNNSquare:
    case U::XNNAbs:
    case U::XNNReciprocalSquareRoot:
    case U::XNNLog:
    case U::XNNGelu:
    case U::XNNTanh:
    case U::XNNExp:
    case U::XNNSin:
    case U::XNNCopy:
    case U::XNNCos:
        portsOf(static_cast<const fbx::Node1x1*>(table), ports);
        return true;
    case U::XNNFullyConnected:
        portsOf(static_cast<const fbx::FullyConnected*>(table), ports);
        return true;
    case U::XNNConv2d:
    case U::XNNDepthwiseConv2d:
    case U::XNNConvTranspose2d:
        portsOf(static_cast<const fbx::Conv*>(table), ports);
        return true;
    case U::XNNAvgPooling2d:
    case U::XNNMaxPooling2d:
        portsOf(static_cast<const fbx::Pooling2D*>(table), ports);
        return true;
    case U::XNNArgMaxPooling2d:
        portsOf(static_cast<const fbx::ArgMaxPooling2d*>(table), ports);
        return true;
    case U::XNNConcatenate2:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 2);
        return true;
    case U::XNNConcatenate3:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 3);
        return true;
    case U::XNNConcatenate4:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 4);
        return true;
    case U::XNNConcatenate5:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 5);
        return true;
    case U::XNNStaticTranspose:
        portsOf(static_cast<const fbx::StaticTranspose*>(table), ports);
        return true;
    case U::XNNStaticReshape:
        portsOf(static_cast<const fbx::StaticReshape*>(table), ports);
        return true;
    case U::XNNStaticSlice:
        portsOf(static_cast<const fbx::StaticSlice*>(table), ports);
        return true;
    case U::XNNStaticResizeBilinear2D:
        portsOf(static_cast<const fbx::ResizeBilinear2D*>(table), ports);
        return true;
    case U::XNNStaticConstantPad:
        portsOf(static_cast<const fbx::ConstantPad*>(table), ports);
        return true;
    case U::XNNELU:
        portsOf(static_cast<const fbx::ELU*>(table), ports);
        return true;
    case U::XNNLeakyReLU:
        portsOf(static_cast<const fbx::LeakyReLU*>(table), ports);
        return true;
    case U::XNNScaledDotProductAttention:
        portsOf(static_cast<const fbx::SDPA*>(table), ports);
        return true;
    default:
        return false;
    }
}

void quantFacts(const fbx::QuantizedTensorValue& q, std::vector<Attribute>& facts)
{
    using Q = fbx::QuantParams;
    switch (q.quant_params_type()) {
    case Q::PerTensorQuant: {
        const auto* p = q.quant_params_as_PerTensorQuant();
        facts.push_back({ "quantization", "per tensor" });
        facts.push_back({ "scale", floatText(p->scale()) });
        facts.push_back({ "zero point", std::to_string(p->zero_point()) });
        break;
    }
    case Q::PerChannelQuant: {
        const auto* p = q.quant_params_as_PerChannelQuant();
        facts.push_back({ "quantization", "per channel" });
        facts.push_back({ "channel dim", std::to_string(p->channel_dim()) });
        facts.push_back({ "scales", std::to_string(p->scale() ? p->scale()->size() : p->num_scales()) });
        break;
    }
    case Q::PerTokenDynamicQuant:
        facts.push_back({ "quantization", "per token (dynamic)" });
        facts.push_back(
            { "non-batch dims", std::to_string(q.quant_params_as_PerTokenDynamicQuant()->num_nonbatch_dims()) });
        break;
    case Q::PerChannelGroupQuant: {
        const auto* p = q.quant_params_as_PerChannelGroupQuant();
        facts.push_back({ "quantization", "per channel group" });
        facts.push_back({ "channel dim", std::to_string(p->channel_dim()) });
        facts.push_back({ "group size", std::to_string(p->group_size()) });
        facts.push_back({ "scales", std::to_string(p->scale() ? p->scale()->size() : p->num_scales()) });
        break;
    }
    default:
        facts.push_back(
            { "quantization", "unknown (" + std::to_string(static_cast<int>(q.quant_params_type())) + ")" });
        break;
    }
}

bool readValue(const fbx::XValue* value, XValueFacts& facts)
{
    if (!value)
        return false;
    const fbx::TensorValue* tensor = nullptr;
    if (value->xvalue_union_type() == fbx::XValueUnion::TensorValue) {
        tensor = value->xvalue_union_as_TensorValue();
    } else if (value->xvalue_union_type() == fbx::XValueUnion::QuantizedTensorValue) {
        const auto* quantized = value->xvalue_union_as_QuantizedTensorValue();
        tensor = quantized->tensor_value();
        quantFacts(*quantized, facts.quant);
    }
    if (!tensor)
        return false;
    facts.id = tensor->id_out();
    facts.datatype = tensor->datatype();
    if (tensor->dims())
        facts.dims.assign(tensor->dims()->begin(), tensor->dims()->end());
    facts.constantIndex = tensor->constant_buffer_idx();
    facts.externalId = tensor->external_id();
    facts.flags = tensor->flags();
    if (tensor->dq_datatype() != 0)
        facts.quant.push_back({ "dq datatype", datatypeName(tensor->dq_datatype()) });
    return true;
}

} // namespace

bool decodeXnnpack(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const auto fail = [&](std::string reason) {
        info.warnings.push_back({ context.where + " (XnnpackBackend): " + reason, context.ref.payload.offset });
        return false;
    };
    if (payload.size() < 8)
        return fail("payload of " + std::to_string(payload.size()) + " bytes is too small for an XNNPACK graph");

    std::span<const std::uint8_t> flatbuffer = payload;
    std::span<const std::uint8_t> constantData;
    bool hasHeader = false;
    if (std::memcmp(payload.data() + 4, "XH00", 4) == 0) {
        if (payload.size() < 30)
            return fail("the XH00 header is truncated");
        hasHeader = true;
        const std::uint16_t headerLength = readLe16(payload.data() + 8);
        const std::uint32_t fbOffset = readLe32(payload.data() + 10);
        const std::uint32_t fbSize = readLe32(payload.data() + 14);
        const std::uint32_t cdOffset = readLe32(payload.data() + 18);
        const std::uint64_t cdSize = readLe64(payload.data() + 22);
        if (headerLength < 30)
            return fail("XH00 header length " + std::to_string(headerLength) + " is below 30");
        if (fbOffset > payload.size() || fbSize > payload.size() - fbOffset)
            return fail("the XH00 header places the graph outside the payload (offset " + std::to_string(fbOffset)
                + ", size " + std::to_string(fbSize) + ", payload " + std::to_string(payload.size()) + ")");
        if (cdOffset > payload.size() || cdSize > payload.size() - cdOffset)
            return fail("the XH00 header places constant data outside the payload");
        flatbuffer = payload.subspan(fbOffset, fbSize);
        constantData = payload.subspan(cdOffset, static_cast<std::size_t>(cdSize));
        info.facts.push_back({ "header", "XH00, length " + std::to_string(headerLength) });
        info.facts.push_back(
            { "graph bytes", std::to_string(fbSize) + " at payload offset " + std::to_string(fbOffset) });
        info.facts.push_back(
            { "constant data bytes", std::to_string(cdSize) + " at payload offset " + std::to_string(cdOffset) });
    }
    if (flatbuffer.size() < 8)
        return fail("the XNNPACK graph is too small");
    const std::string identifier(reinterpret_cast<const char*>(flatbuffer.data() + 4), 4);
    if (identifier != "XN00" && identifier != "XN01")
        return fail(
            "not an XNNPACK graph: identifier 0x" + toHex(flatbuffer.subspan(4, 4)) + " (expected XN00 or XN01)");
    if (!verifyFlatbuffer<fbx::XNNGraph>(flatbuffer.data(), flatbuffer.size(), nullptr, false))
        return fail("the FlatBuffers verifier rejected the XNNPACK graph");
    const auto* root = fbx::GetXNNGraph(flatbuffer.data());

    info.format = "xnnpack";
    info.facts.push_back({ "graph identifier", identifier + (hasHeader ? "" : " (bare FlatBuffer, no XH00 header)") });
    if (root->version())
        info.facts.push_back({ "graph version", root->version()->str() });
    info.facts.push_back({ "num_externs", std::to_string(root->num_externs()) });

    // Values by id_out (normally equal to the position, but never assume it).
    std::map<std::uint32_t, XValueFacts> values;
    if (const auto* xvalues = root->xvalues()) {
        for (flatbuffers::uoffset_t i = 0; i < xvalues->size(); ++i) {
            XValueFacts facts;
            if (!readValue(xvalues->Get(i), facts)) {
                info.warnings.push_back(
                    { context.where + ": XNNPACK value " + std::to_string(i) + " has an unknown type", std::nullopt });
                continue;
            }
            values[facts.id] = std::move(facts);
        }
    }
    info.facts.push_back({ "values", std::to_string(values.size()) });

    const auto* constantTable = root->constant_data();
    const auto* legacyBuffers = root->constant_buffer();
    std::uint64_t namedBytes = 0;
    std::size_t namedCount = 0;

    auto graph = std::make_shared<Graph>();
    graph->name = context.ref.backendId;
    graph->backendId = context.ref.backendId;
    graph->format = "xnnpack";

    const auto metaOf = [&](const XValueFacts& v) { return TensorMeta { datatypeName(v.datatype), v.dims }; };
    std::map<std::uint32_t, NodeId> producer;

    // External inputs first, in input_ids order: they connect to the outer DelegateCall args.
    int inputCount = 0;
    if (const auto* inputIds = root->input_ids()) {
        for (const std::uint32_t id : *inputIds) {
            Node node;
            node.kind = NodeKind::Input;
            node.value = ValueIndex(static_cast<std::int32_t>(id));
            node.label = "input " + std::to_string(inputCount);
            const auto it = values.find(id);
            if (it != values.end()) {
                node.argPosition
                    = it->second.externalId == kInvalidId ? inputCount : static_cast<int>(it->second.externalId);
                node.attributes.push_back({ "value id", std::to_string(id) });
                node.attributes.push_back({ "dtype", datatypeName(it->second.datatype) });
                node.attributes.push_back({ "shape", formatShape(it->second.dims) });
                for (const Attribute& q : it->second.quant)
                    node.attributes.push_back(q);
            } else {
                node.argPosition = inputCount;
                graph->warnings.push_back(
                    { "XNNPACK input id " + std::to_string(id) + " names no value", std::nullopt });
            }
            producer[id] = graph->addNode(std::move(node));
            ++inputCount;
        }
    }

    const auto constantNode = [&](std::uint32_t id, const XValueFacts& v) {
        Node node;
        node.kind = NodeKind::Constant;
        node.value = ValueIndex(static_cast<std::int32_t>(id));
        node.label = "const " + std::to_string(id);
        node.attributes.push_back({ "value id", std::to_string(id) });
        node.attributes.push_back({ "dtype", datatypeName(v.datatype) });
        node.attributes.push_back({ "shape", formatShape(v.dims) });
        node.attributes.push_back({ "constant index", std::to_string(v.constantIndex) });
        if (constantTable && v.constantIndex < constantTable->size()) {
            const auto* entry = constantTable->Get(v.constantIndex);
            const std::string key = entry && entry->named_key() ? entry->named_key()->str() : std::string();
            if (!key.empty()) {
                node.attributes.push_back({ "named key", key });
                if (const auto size = context.namedDataSize(key))
                    node.attributes.push_back({ "bytes", std::to_string(*size) + " (named data)" });
                else
                    node.attributes.push_back({ "bytes", "not found: no named data or attached .ptd holds this key" });
            } else if (entry) {
                const bool inside
                    = entry->offset() <= constantData.size() && entry->size() <= constantData.size() - entry->offset();
                node.attributes.push_back({ "bytes",
                    std::to_string(entry->size()) + " at constant offset " + std::to_string(entry->offset())
                        + (inside ? "" : " (outside the constant data!)") });
            }
        } else if (legacyBuffers && v.constantIndex < legacyBuffers->size()) {
            const auto* buffer = legacyBuffers->Get(v.constantIndex);
            node.attributes.push_back({ "bytes",
                std::to_string(buffer && buffer->storage() ? buffer->storage()->size() : 0) + " (inline buffer)" });
        } else {
            node.attributes.push_back({ "bytes", "constant index out of range" });
            graph->warnings.push_back({ "XNNPACK value " + std::to_string(id) + " names constant "
                    + std::to_string(v.constantIndex) + ", which does not exist",
                std::nullopt });
        }
        for (const Attribute& q : v.quant)
            node.attributes.push_back(q);
        return graph->addNode(std::move(node));
    };

    const auto* xnodes = root->xnodes();
    const std::size_t nodeCount = xnodes ? xnodes->size() : 0;
    for (std::size_t n = 0; n < nodeCount; ++n) {
        const auto* xnode = xnodes->Get(static_cast<flatbuffers::uoffset_t>(n));
        Node node;
        node.kind = NodeKind::Operator;
        NodePorts ports;
        const int tag = xnode ? static_cast<int>(xnode->xnode_union_type()) : 0;
        const char* name = xnode ? fbx::EnumNameXNodeUnion(xnode->xnode_union_type()) : "";
        if (!xnode || !nodePorts(*xnode, ports)) {
            node.label = "XNNUnknown(" + std::to_string(tag) + ")";
            graph->warnings.push_back({ "XNNPACK node " + std::to_string(n) + " has node type " + std::to_string(tag)
                    + ", which this build does not know; shown without its connections",
                std::nullopt });
        } else {
            node.label = name;
        }
        node.opType = node.label;
        node.attributes.push_back({ "node index", std::to_string(n) });
        if (xnode && xnode->debug_handle() != kNoDebugHandle) {
            node.debugHandle = xnode->debug_handle();
            node.attributes.push_back({ "debug handle", std::to_string(xnode->debug_handle()) });
        }
        for (const auto& [port, id] : ports.inputs)
            if (id != kInvalidId)
                node.attributes.push_back({ port, "value " + std::to_string(id) });
        for (const auto& [port, id] : ports.outputs)
            node.attributes.push_back({ port, "value " + std::to_string(id) });
        for (Attribute& param : ports.params)
            node.attributes.push_back(std::move(param));
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
            const auto value = values.find(id);
            if (value == values.end()) {
                graph->warnings.push_back({ "XNNPACK node " + std::to_string(n) + " reads value " + std::to_string(id)
                        + ", which does not exist",
                    std::nullopt });
                continue;
            }
            auto from = producer.find(id);
            if (from == producer.end() && value->second.constantIndex != 0)
                from = producer.emplace(id, constantNode(id, value->second)).first;
            if (from == producer.end()) {
                graph->warnings.push_back({ "XNNPACK node " + std::to_string(n) + " reads value " + std::to_string(id)
                        + " before any node writes it",
                    std::nullopt });
                continue;
            }
            sources.emplace_back(from->second, id);
        }
        const NodeId nodeId = graph->addNode(std::move(node));
        for (const auto& [from, id] : sources)
            graph->addEdge({ from, nodeId, ValueIndex(static_cast<std::int32_t>(id)), metaOf(values.at(id)), false });
        for (const auto& [port, id] : ports.outputs)
            producer[id] = nodeId;
    }

    int outputCount = 0;
    if (const auto* outputIds = root->output_ids()) {
        for (const std::uint32_t id : *outputIds) {
            Node node;
            node.kind = NodeKind::Output;
            node.value = ValueIndex(static_cast<std::int32_t>(id));
            node.label = "output " + std::to_string(outputCount);
            const auto value = values.find(id);
            node.argPosition = value != values.end() && value->second.externalId != kInvalidId
                ? static_cast<int>(value->second.externalId)
                : inputCount + outputCount;
            node.attributes.push_back({ "value id", std::to_string(id) });
            if (value != values.end()) {
                node.attributes.push_back({ "dtype", datatypeName(value->second.datatype) });
                node.attributes.push_back({ "shape", formatShape(value->second.dims) });
            }
            const NodeId nodeId = graph->addNode(std::move(node));
            const auto from = producer.find(id);
            if (from != producer.end() && value != values.end())
                graph->addEdge(
                    { from->second, nodeId, ValueIndex(static_cast<std::int32_t>(id)), metaOf(value->second), false });
            else
                graph->warnings.push_back(
                    { "XNNPACK output value " + std::to_string(id) + " is not written by any node", std::nullopt });
            ++outputCount;
        }
    }

    if (constantTable) {
        for (const auto* entry : *constantTable) {
            if (entry && entry->named_key() && entry->named_key()->size() > 0) {
                ++namedCount;
                if (const auto size = context.namedDataSize(entry->named_key()->str()))
                    namedBytes += *size;
            }
        }
        info.facts.push_back({ "constant entries", std::to_string(constantTable->size()) });
        if (namedCount)
            info.facts.push_back(
                { "named-data constants", std::to_string(namedCount) + " (" + formatBytes(namedBytes) + ")" });
    }

    // Flags say which values are external; make sure they agree with the input list.
    for (const auto& [id, v] : values) {
        if ((v.flags & kFlagExternalInput) && !producer.count(id))
            graph->warnings.push_back(
                { "XNNPACK value " + std::to_string(id) + " is flagged as an external input but is not listed",
                    std::nullopt });
    }

    info.facts.push_back({ "nodes", std::to_string(nodeCount) });
    info.inputCount = inputCount;
    info.outputCount = outputCount;
    info.summary = "XNNPACK graph " + identifier + ": " + std::to_string(nodeCount) + " nodes, "
        + std::to_string(inputCount) + " inputs, " + std::to_string(outputCount) + " outputs";
    for (const Warning& w : graph->warnings)
        info.warnings.push_back({ context.where + ": " + w.message, w.offset });
    info.innerGraph = std::move(graph);
    return true;
}

} // namespace etscope::core
