// SPDX-License-Identifier: MIT
// "native_graph" payloads: ExecuTorch's NativeBackend stores the lowered fx graph itself, as a
// FlatBuffer with identifier "NPTG" and no header (core/schema/native.fbs; facts from
// pytorch/executorch backends/native/serialization/native_graph.fbs and preprocess.py at commit
// cff6f4dd32e630945b7188512c1f2b4f102b05ad). Decoded into an inner graph of the first method:
// call_function nodes become operators named by their target, placeholders become the inputs
// (Graph.inputs, in call order), constants or buffers (Method.constants), values flow by SSA
// name (TensorArg, TensorListArg, OptionalTensorListArg) and Graph.outputs become the outputs.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/pte/verify.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"
#include "native_generated.h"

#include <cstring>
#include <map>
#include <set>

namespace etscope::core {
namespace fbn = etscope::fb::native;

namespace {

constexpr std::size_t kMaxNodes = 200000; ///< fx nodes read per graph; more is reported
constexpr std::size_t kListPreview = 16;

std::string str(const flatbuffers::String* s)
{
    return s ? s->str() : std::string();
}

TensorMeta metaOf(const fbn::TensorMeta* meta)
{
    TensorMeta out;
    if (!meta)
        return out;
    out.dtype = scalarTypeName(static_cast<int>(meta->dtype()));
    if (const auto* sizes = meta->sizes()) {
        std::vector<std::int64_t> shape;
        for (const fbn::Dim* dim : *sizes)
            shape.push_back(dim->min() == dim->max() ? dim->min() : -1); // -1: dynamic
        out.shape = std::move(shape);
    }
    return out;
}

class NativeReader {
public:
    NativeReader(const DelegateContext& context, const fbn::Method& method)
        : m_context(context)
        , m_method(method)
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "native_graph";
        if (const auto* values = method.graph()->tensor_values())
            for (const fbn::TensorValue* value : *values)
                m_meta.emplace(value->name()->str(), metaOf(value->meta()));
        if (const auto* constants = method.constants())
            for (const fbn::NamedTensorRef* constant : *constants) {
                m_constants.emplace(constant->name()->str(), constant);
                m_meta.emplace(constant->name()->str(), metaOf(constant->meta()));
            }
        if (const auto* inputs = method.graph()->inputs())
            for (flatbuffers::uoffset_t i = 0; i < inputs->size(); ++i)
                m_inputPosition.emplace(inputs->Get(i)->str(), static_cast<int>(i));
    }

    std::size_t addNodes();
    int addOutputs();
    int inputCount() const { return static_cast<int>(m_inputPosition.size()); }
    std::shared_ptr<Graph> graph() { return m_graph; }

private:
    void warn(std::string message) { m_graph->warnings.push_back({ std::move(message), std::nullopt }); }
    TensorMeta meta(const std::string& name) const
    {
        const auto it = m_meta.find(name);
        return it != m_meta.end() ? it->second : TensorMeta {};
    }
    ValueIndex valueOf(const std::string& name)
    {
        const auto [it, added] = m_values.emplace(name, static_cast<std::int32_t>(m_values.size()));
        return ValueIndex(it->second);
    }
    void addPlaceholder(const fbn::Node& node);
    void argumentText(const fbn::NamedArgument& argument, Node& node, std::vector<std::string>& reads);

    const DelegateContext& m_context;
    const fbn::Method& m_method;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    std::map<std::string, TensorMeta> m_meta;
    std::map<std::string, const fbn::NamedTensorRef*> m_constants;
    std::map<std::string, int> m_inputPosition;
    std::map<std::string, NodeId> m_producer;
    std::map<std::string, std::int32_t> m_values; ///< SSA name → value index in the inner graph
};

void NativeReader::addPlaceholder(const fbn::Node& fx)
{
    const std::string name = fx.name()->str();
    Node node;
    node.value = valueOf(name);
    node.attributes.push_back({ "fx name", name });
    if (const auto input = m_inputPosition.find(name); input != m_inputPosition.end()) {
        node.kind = NodeKind::Input;
        node.label = "input " + std::to_string(input->second);
        node.argPosition = input->second; // Graph.inputs[i] ↔ DelegateCall args[i]
    } else if (const auto constant = m_constants.find(name); constant != m_constants.end()) {
        const fbn::NamedTensorRef& ref = *constant->second;
        node.kind = ref.kind() == fbn::InputKind::BUFFER ? NodeKind::State : NodeKind::Constant;
        node.label = ref.data_key()->str();
        node.attributes.push_back({ "named data key", ref.data_key()->str() });
        const auto size = m_context.namedDataSize(ref.data_key()->str());
        node.attributes.push_back(
            { "bytes", size ? std::to_string(*size) : std::string("not found in the program or an attached .ptd") });
        node.attributes.push_back({ "kind", fbn::EnumNameInputKind(ref.kind()) });
        if (const auto* quant = ref.meta()->quant(); quant && quant->scheme_type() != fbn::QuantScheme::NONE)
            node.attributes.push_back({ "quantization", fbn::EnumNameQuantScheme(quant->scheme_type()) });
    } else {
        node.kind = NodeKind::View;
        node.label = name;
        node.inferred = true;
        node.attributes.push_back({ "note", "a placeholder that is neither a graph input nor a named constant" });
    }
    const TensorMeta m = meta(name);
    if (m.known()) {
        node.attributes.push_back({ "dtype", m.dtype });
        node.attributes.push_back({ "shape", formatShape(m.shape) });
    }
    m_producer[name] = m_graph->addNode(std::move(node));
}

void NativeReader::argumentText(const fbn::NamedArgument& argument, Node& node, std::vector<std::string>& reads)
{
    const std::string label = argument.name() && argument.name()->size()
        ? argument.name()->str()
        : "arg " + std::to_string(node.attributes.size());
    const fbn::Argument& arg = *argument.arg();
    std::string text;
    const auto names = [&](const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* list,
                           const flatbuffers::Vector<std::uint8_t>* present) {
        std::string out = "[";
        for (flatbuffers::uoffset_t i = 0; list && i < list->size(); ++i) {
            const bool has = !present || (i < present->size() && vectorElement(*present, i) != 0);
            if (has)
                reads.push_back(list->Get(i)->str());
            if (i < kListPreview)
                out += (i ? ", " : "") + (has ? list->Get(i)->str() : std::string("None"));
        }
        if (list && list->size() > kListPreview)
            out += ", … (" + std::to_string(list->size()) + ")";
        return out + "]";
    };
    // The verifier accepts a union whose type is set and whose table is absent.
    const bool empty = arg.value() == nullptr && arg.value_type() != fbn::ArgumentValue::NONE;
    switch (empty ? fbn::ArgumentValue::NONE : arg.value_type()) {
    case fbn::ArgumentValue::TensorArg:
        text = arg.value_as_TensorArg()->name()->str();
        reads.push_back(text);
        break;
    case fbn::ArgumentValue::NoneArg:
        text = "None";
        break;
    case fbn::ArgumentValue::IntArg: {
        const auto* v = arg.value_as_IntArg();
        text = v->ref() && v->ref()->size() ? v->ref()->str() : std::to_string(v->value());
        break;
    }
    case fbn::ArgumentValue::FloatArg: {
        const auto* v = arg.value_as_FloatArg();
        text = v->ref() && v->ref()->size() ? v->ref()->str() : detail::floatText(v->value());
        break;
    }
    case fbn::ArgumentValue::BoolArg: {
        const auto* v = arg.value_as_BoolArg();
        text = v->ref() && v->ref()->size() ? v->ref()->str() : (v->value() ? "True" : "False");
        break;
    }
    case fbn::ArgumentValue::StringArg:
        text = "\"" + arg.value_as_StringArg()->value()->str() + "\"";
        break;
    case fbn::ArgumentValue::ScalarTypeArg:
        text = scalarTypeName(static_cast<int>(arg.value_as_ScalarTypeArg()->value()));
        break;
    case fbn::ArgumentValue::IntListArg: {
        const auto* values = arg.value_as_IntListArg()->values();
        text = "[";
        for (flatbuffers::uoffset_t i = 0; i < values->size() && i < kListPreview; ++i)
            text += (i ? ", " : "") + std::to_string(vectorElement(*values, i));
        text += values->size() > kListPreview ? ", …]" : "]";
        break;
    }
    case fbn::ArgumentValue::FloatListArg:
        text = std::to_string(arg.value_as_FloatListArg()->values()->size()) + " floats";
        break;
    case fbn::ArgumentValue::BoolListArg:
        text = std::to_string(arg.value_as_BoolListArg()->values()->size()) + " bools";
        break;
    case fbn::ArgumentValue::TensorListArg:
        text = names(arg.value_as_TensorListArg()->names(), nullptr);
        break;
    case fbn::ArgumentValue::OptionalTensorListArg: {
        const auto* v = arg.value_as_OptionalTensorListArg();
        text = names(v->names(), v->has_value());
        break;
    }
    case fbn::ArgumentValue::GraphArg: {
        const auto* v = arg.value_as_GraphArg();
        text = "subgraph '" + v->name()->str() + "' of " + detail::plural(v->graph()->nodes()->size(), "node", "nodes")
            + " (not expanded)";
        break;
    }
    case fbn::ArgumentValue::NONE:
        text = empty ? "(argument kind " + std::to_string(static_cast<int>(arg.value_type())) + " without its value)"
                     : "(empty)";
        break;
    default:
        text = "argument kind " + std::to_string(static_cast<int>(arg.value_type())) + " (unknown to this build)";
        warn("native graph node '" + node.label + "' has an argument of kind "
            + std::to_string(static_cast<int>(arg.value_type())) + ", which this build does not know");
        break;
    }
    node.attributes.push_back({ label, text });
}

std::size_t NativeReader::addNodes()
{
    const auto* nodes = m_method.graph()->nodes();
    const std::size_t count = std::min<std::size_t>(nodes->size(), kMaxNodes);
    if (nodes->size() > kMaxNodes)
        warn("native graph has " + std::to_string(nodes->size()) + " nodes; the first " + std::to_string(kMaxNodes)
            + " are shown");
    std::size_t operators = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const fbn::Node& fx = *nodes->Get(static_cast<flatbuffers::uoffset_t>(i));
        if (fx.op_kind() == fbn::OpKind::PLACEHOLDER) {
            addPlaceholder(fx);
            continue;
        }
        if (fx.op_kind() == fbn::OpKind::OUTPUT)
            continue; // Graph.outputs names what it returns
        Node node;
        const bool known = fx.op_kind() == fbn::OpKind::CALL_FUNCTION;
        node.kind = known ? NodeKind::Operator : NodeKind::Unknown;
        const std::string target = str(fx.target());
        node.label = known ? (target.empty() ? "(no target)" : target)
                           : "unknown fx op kind " + std::to_string(static_cast<int>(fx.op_kind()));
        node.opType = node.label;
        if (!known)
            warn("native graph node " + std::to_string(i) + " has op kind "
                + std::to_string(static_cast<int>(fx.op_kind())) + ", which this build does not know");
        node.attributes.push_back({ "node index", std::to_string(i) });
        node.attributes.push_back({ "fx name", fx.name()->str() });
        std::vector<std::string> reads;
        if (const auto* inputs = fx.inputs())
            for (const fbn::NamedArgument* argument : *inputs)
                argumentText(*argument, node, reads);
        if (const auto* metadata = fx.metadata())
            for (const fbn::KeyValue* entry : *metadata)
                node.attributes.push_back({ "meta " + entry->key()->str(), entry->value()->str() });
        std::vector<std::pair<NodeId, std::string>> sources;
        std::set<std::string> seen;
        for (const std::string& name : reads) {
            if (!seen.insert(name).second)
                continue;
            const auto from = m_producer.find(name);
            if (from == m_producer.end()) {
                warn(
                    "native graph node '" + fx.name()->str() + "' reads '" + name + "', which no earlier node defines");
                continue;
            }
            sources.emplace_back(from->second, name);
        }
        const NodeId id = m_graph->addNode(std::move(node));
        if (known)
            ++operators;
        for (const auto& [from, name] : sources)
            m_graph->addEdge({ from, id, valueOf(name), meta(name), false });
        m_producer[fx.name()->str()] = id;
        if (const auto* outputs = fx.outputs())
            for (const fbn::Output* output : *outputs) {
                if (output->name()->size())
                    m_producer[output->name()->str()] = id;
                if (const auto* names = output->names())
                    for (const flatbuffers::String* name : *names)
                        m_producer[name->str()] = id;
            }
    }
    return operators;
}

int NativeReader::addOutputs()
{
    const auto* outputs = m_method.graph()->outputs();
    if (!outputs)
        return 0;
    const auto* specs = m_method.output_specs();
    const bool specsMatch = specs && specs->size() == outputs->size();
    int position = 0;
    for (flatbuffers::uoffset_t j = 0; j < outputs->size(); ++j) {
        const std::string name = outputs->Get(j)->str();
        Node node;
        node.kind = NodeKind::Output;
        node.value = valueOf(name);
        node.attributes.push_back({ "fx name", name });
        const fbn::OutputKind kind = specsMatch ? specs->Get(j)->kind() : fbn::OutputKind::USER_OUTPUT;
        if (kind == fbn::OutputKind::USER_OUTPUT) {
            node.label = "output " + std::to_string(position);
            node.argPosition = inputCount() + position; // returned outputs follow the inputs
            ++position;
        } else {
            node.label = std::string(fbn::EnumNameOutputKind(kind)) + " " + str(specs->Get(j)->target());
            node.attributes.push_back({ "kind", fbn::EnumNameOutputKind(kind) });
        }
        const NodeId id = m_graph->addNode(std::move(node));
        if (const auto from = m_producer.find(name); from != m_producer.end())
            m_graph->addEdge({ from->second, id, valueOf(name), meta(name), false });
        else
            warn("native graph output '" + name + "' is not defined by any node");
    }
    return position;
}

} // namespace

bool decodeNativeGraph(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const auto fail = [&](const std::string& reason, std::optional<std::uint64_t> at = 0) {
        context.warn(info, reason, at);
        return false;
    };
    if (payload.size() < 8)
        return fail("payload of " + std::to_string(payload.size()) + " bytes is too small for a native graph");
    if (std::memcmp(payload.data() + 4, "NPTG", 4) != 0)
        return fail("not a native graph: identifier " + magicText(payload.subspan(4, 4)) + " (expected NPTG)", 4);
    if (!verifyFlatbuffer<fbn::Program>(payload.data(), payload.size(), "NPTG", false))
        return fail("the FlatBuffers verifier rejected the native graph");
    const fbn::Program* program = fbn::GetProgram(payload.data());
    const auto* methods = program->methods();
    info.format = "native_graph";
    info.facts.push_back({ "identifier", "NPTG (no header)" });
    if (program->version())
        info.facts.push_back({ "graph version", program->version()->str() });
    std::string names;
    for (flatbuffers::uoffset_t m = 0; m < methods->size() && m < kListPreview; ++m)
        names += (m ? ", " : "") + methods->Get(m)->name()->str();
    info.facts.push_back({ "methods", std::to_string(methods->size()) + (names.empty() ? "" : " (" + names + ")") });
    if (methods->size() == 0)
        return fail("the native graph holds no method");
    const fbn::Method& method = *methods->Get(0);
    const fbn::Graph& graph = *method.graph();
    info.facts.push_back({ "fx nodes", std::to_string(graph.nodes()->size()) });
    std::map<std::string, int> kinds;
    if (const auto* constants = method.constants())
        for (const fbn::NamedTensorRef* constant : *constants)
            ++kinds[fbn::EnumNameInputKind(constant->kind())];
    std::string kindText;
    for (const auto& [kind, count] : kinds)
        kindText += (kindText.empty() ? "" : ", ") + std::string(kind) + " " + std::to_string(count);
    info.facts.push_back({ "constants",
        std::to_string(method.constants() ? method.constants()->size() : 0)
            + (kindText.empty() ? "" : " (" + kindText + ")") });
    if (const auto* buffers = method.mutable_buffers(); buffers && buffers->size())
        info.facts.push_back({ "mutable buffers", std::to_string(buffers->size()) });

    NativeReader reader(context, method);
    const std::size_t operators = reader.addNodes();
    const int outputCount = reader.addOutputs();
    context.adoptInnerGraph(info, reader.graph(), "native graph NPTG", operators, "operator", "operators",
        reader.inputCount(), outputCount);
    if (methods->size() > 1)
        info.summary += " (method '" + method.name()->str() + "' of " + std::to_string(methods->size()) + ")";
    return true;
}

} // namespace etscope::core
