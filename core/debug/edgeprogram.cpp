// SPDX-License-Identifier: MIT
#include "core/debug/edgeprogram.h"
#include "core/util/jsontext.h"

#include "core/util/text.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cctype>

namespace etscope::core {

using nlohmann::json;

namespace {

constexpr std::size_t kTextLimit = 80;

/// The member of a serialized union: the compact encoding has one key; the older encoding
/// lists every member and sets all but one to null. An all-null union is `None`.
std::pair<std::string, const json*> unionMember(const json& value)
{
    if (!value.is_object())
        return { "", &value };
    for (auto it = value.begin(); it != value.end(); ++it)
        if (!it.value().is_null())
            return { it.key(), &it.value() };
    return { "as_none", nullptr };
}

std::string shortText(const json& value)
{
    std::string text = jsonDisplayText(value);
    if (text.size() > kTextLimit)
        text = text.substr(0, kTextLimit) + "…";
    return text;
}

std::string stringField(const json& object, const char* key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::uint8_t> decodeBase64(const std::string& text)
{
    static const auto table = [] {
        std::array<int, 256> t {};
        t.fill(-1);
        const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = i;
        return t;
    }();
    std::vector<std::uint8_t> out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : text) {
        const int v = table[static_cast<unsigned char>(c)];
        if (v < 0)
            continue; // padding and line breaks
        buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
        }
    }
    return out;
}

std::uint64_t base64Length(const std::string& text)
{
    std::uint64_t symbols = 0;
    for (const char c : text)
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/')
            ++symbols;
    return symbols * 6 / 8;
}

void collectTensorNames(const std::string& kind, const json* value, std::vector<std::string>& names)
{
    if (!value)
        return;
    if (kind == "as_tensor") {
        if (const std::string name = stringField(*value, "name"); !name.empty())
            names.push_back(name);
    } else if (kind == "as_tensors" && value->is_array()) {
        for (const json& t : *value)
            if (const std::string name = stringField(t, "name"); !name.empty())
                names.push_back(name);
    } else if (kind == "as_optional_tensors" && value->is_array()) {
        for (const json& t : *value) {
            const auto [member, inner] = unionMember(t);
            collectTensorNames(member, inner, names);
        }
    }
}

EdgeArgument parseArgument(const std::string& name, const json& arg)
{
    EdgeArgument result;
    result.name = name;
    const auto [kind, value] = unionMember(arg);
    result.kind = kind;
    collectTensorNames(kind, value, result.tensors);
    if (!value || kind == "as_none")
        result.text = "None";
    else if (kind == "as_scalar_type" && value->is_number_integer())
        result.text = serializerScalarTypeName(value->get<int>());
    else if (kind == "as_sym_int" || kind == "as_sym_bool") {
        const auto [inner, innerValue] = unionMember(*value);
        result.text = innerValue ? shortText(*innerValue) : "None";
    } else if (kind == "as_graph")
        result.text = stringField(*value, "name");
    else if (result.tensors.empty())
        result.text = shortText(*value);
    return result;
}

std::string metadataText(const json& value)
{
    return jsonDisplayText(value);
}

std::optional<DebugHandle> parseHandle(const json& value)
{
    std::int64_t handle = 0;
    if (value.is_number_integer())
        handle = value.get<std::int64_t>();
    else if (value.is_string()) {
        const std::string text = value.get<std::string>();
        if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        handle = std::stoll(text);
    } else
        return std::nullopt;
    return handle > 0 ? std::optional<DebugHandle>(DebugHandle(handle)) : std::nullopt;
}

std::shared_ptr<const LoweredModule> parseLowered(
    const EdgeArgument& first, const json& arg, const std::string& where, int depth, std::vector<Warning>& warnings)
{
    const auto [kind, value] = unionMember(arg);
    if (kind != "as_string" || !value || !value->is_string())
        return nullptr;
    auto lowered = std::make_shared<LoweredModule>();
    lowered->name = first.name;
    JsonProblem problem;
    const std::optional<json> parsed = parseJson<json>(value->get<std::string>(), problem);
    if (!parsed || !parsed->is_object()) {
        warnings.push_back({ where + ": " + first.name + ": "
                + (parsed ? std::string("the lowered module is not a JSON object") : problem.reason),
            std::nullopt });
        return lowered;
    }
    const json& module = *parsed;
    lowered->backendId = stringField(module, "backend_id");
    lowered->processedBytes = base64Length(stringField(module, "processed_bytes"));
    if (const auto specs = module.find("compile_specs"); specs != module.end() && specs->is_array()) {
        for (const json& spec : *specs) {
            const std::vector<std::uint8_t> bytes = decodeBase64(stringField(spec, "value"));
            lowered->compileSpecs.push_back({ stringField(spec, "key"), bytesForDisplay(bytes) });
        }
    }
    if (const auto original = module.find("original_module"); original != module.end() && original->is_object()) {
        if (depth <= 0) {
            warnings.push_back(
                { where + ": " + first.name + ": nested too deeply, inner graph skipped", std::nullopt });
        } else {
            auto inner = parseEdgeProgram(*original, where + " › " + first.name, depth - 1);
            if (inner) {
                for (const Warning& w : inner->warnings)
                    warnings.push_back(w);
                lowered->originalModule = std::make_shared<EdgeProgram>(std::move(inner).value());
            } else {
                warnings.push_back({ inner.error().message(), std::nullopt });
            }
        }
    }
    return lowered;
}

TensorMeta parseTensorMeta(const json& entry)
{
    const json& meta
        = entry.is_object() && entry.contains("meta") && entry.at("meta").is_object() ? entry.at("meta") : entry;
    TensorMeta result;
    if (const auto dtype = meta.find("dtype"); dtype != meta.end() && dtype->is_number_integer())
        result.dtype = serializerScalarTypeName(dtype->get<int>());
    if (const auto sizes = meta.find("sizes"); sizes != meta.end() && sizes->is_array()) {
        std::vector<std::int64_t> shape;
        for (const json& size : *sizes) {
            const auto [kind, value] = unionMember(size);
            shape.push_back(kind == "as_int" && value && value->is_number_integer() ? value->get<std::int64_t>() : -1);
        }
        result.shape = std::move(shape);
    }
    return result;
}

/// The first "name" string inside an argument (TensorArgument, or an Argument union around
/// one), looking a few levels deep.
std::string argumentName(const json& arg, int depth = 3)
{
    if (std::string name = stringField(arg, "name"); !name.empty() || depth == 0)
        return name;
    const auto [kind, value] = unionMember(arg);
    return value && value->is_object() ? argumentName(*value, depth - 1) : std::string();
}

void parseInputSpecs(const json& graphModule, EdgeProgram& program)
{
    const auto signature = graphModule.find("signature");
    if (signature == graphModule.end() || !signature->is_object())
        return;
    const auto specs = signature->find("input_specs");
    if (specs == signature->end() || !specs->is_array())
        return;
    for (const json& spec : *specs) {
        const auto [kind, value] = unionMember(spec);
        if (!value || !value->is_object())
            continue;
        const std::string placeholder = value->contains("arg") ? argumentName(value->at("arg")) : std::string();
        if (placeholder.empty())
            continue;
        std::string target;
        for (const char* key : { "parameter_name", "buffer_name", "tensor_constant_name", "custom_obj_name" })
            if (target.empty())
                target = stringField(*value, key);
        program.inputSpecs[placeholder] = { kind, target };
    }
}

} // namespace

std::string EdgeNode::opType() const
{
    const std::size_t underscore = name.rfind('_');
    if (underscore == std::string::npos || underscore + 1 == name.size())
        return name;
    for (std::size_t i = underscore + 1; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
            return name;
    return name.substr(0, underscore);
}

bool EdgeNode::isDelegateCall() const
{
    return opType() == "executorch_call_delegate" || target.ends_with("executorch_call_delegate");
}

std::size_t EdgeProgram::nodeCountRecursive() const
{
    std::size_t count = nodes.size();
    for (const EdgeNode& node : nodes)
        if (node.lowered && node.lowered->originalModule)
            count += node.lowered->originalModule->nodeCountRecursive();
    return count;
}

std::size_t EdgeProgram::loweredModuleCount() const
{
    std::size_t count = 0;
    for (const EdgeNode& node : nodes)
        count += node.lowered ? 1 : 0;
    return count;
}

std::vector<const EdgeNode*> EdgeProgram::nodesWithHandle(DebugHandle handle) const
{
    std::vector<const EdgeNode*> found;
    for (const EdgeNode& node : nodes) {
        if (node.debugHandle == handle)
            found.push_back(&node);
        if (node.lowered && node.lowered->originalModule)
            for (const EdgeNode* inner : node.lowered->originalModule->nodesWithHandle(handle))
                found.push_back(inner);
    }
    return found;
}

std::string serializerScalarTypeName(int type)
{
    static const char* const names[] = { "UNKNOWN", "BYTE", "CHAR", "SHORT", "INT", "LONG", "HALF", "FLOAT", "DOUBLE",
        "COMPLEXHALF", "COMPLEXFLOAT", "COMPLEXDOUBLE", "BOOL", "BFLOAT16", "UINT16", "FLOAT8E5M2", "FLOAT8E4M3FN" };
    if (type >= 0 && type < static_cast<int>(std::size(names)))
        return names[type];
    return "UNKNOWN(" + std::to_string(type) + ")";
}

Result<EdgeProgram> parseEdgeProgram(const json& root, const std::string& where, int maxDepth)
{
    const json* graphModule = root.is_object() && root.contains("graph_module") ? &root.at("graph_module") : nullptr;
    const json* graph = graphModule && graphModule->is_object() && graphModule->contains("graph")
        ? &graphModule->at("graph")
        : nullptr;
    if (!graph || !graph->is_object() || !graph->contains("nodes") || !graph->at("nodes").is_array())
        return makeError(
            Error::Code::Corrupt, where, "not a serialized exported program (no graph_module.graph.nodes)");
    EdgeProgram program;
    if (const auto version = root.find("schema_version"); version != root.end()) {
        if (version->is_object())
            program.schemaVersion = std::to_string(jsonInteger(*version, "major").value_or(0)) + "."
                + std::to_string(jsonInteger(*version, "minor").value_or(0));
        else if (version->is_number_integer())
            program.schemaVersion = std::to_string(version->get<int>());
    }
    const auto names = [](const json& list, std::vector<std::string>& out) {
        if (!list.is_array())
            return;
        for (const json& arg : list) {
            const auto [kind, value] = unionMember(arg);
            collectTensorNames(kind, value, out);
            if (kind == "as_sym_int" && value)
                if (const std::string name = stringField(*value, "as_name"); !name.empty())
                    out.push_back(name);
        }
    };
    if (graph->contains("inputs"))
        names(graph->at("inputs"), program.inputs);
    parseInputSpecs(*graphModule, program);
    if (graph->contains("outputs"))
        names(graph->at("outputs"), program.outputs);
    if (const auto tensors = graph->find("tensor_values"); tensors != graph->end() && tensors->is_object())
        for (auto it = tensors->begin(); it != tensors->end(); ++it)
            program.tensors.emplace(it.key(), parseTensorMeta(it.value()));

    const json& nodes = graph->at("nodes");
    program.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const json& n = nodes[i];
        if (!n.is_object()) {
            program.warnings.push_back({ where + ": node " + std::to_string(i) + " is not an object", std::nullopt });
            continue;
        }
        EdgeNode node;
        node.target = stringField(n, "target");
        if (const auto inputs = n.find("inputs"); inputs != n.end() && inputs->is_array())
            for (const json& input : *inputs)
                node.inputs.push_back(parseArgument(
                    stringField(input, "name"), input.is_object() && input.contains("arg") ? input.at("arg") : json()));
        if (const auto outputs = n.find("outputs"); outputs != n.end())
            names(*outputs, node.outputs);
        // Older serializers did not store the node name: FX named the node after its output.
        node.name = stringField(n, "name");
        if (node.name.empty())
            node.name = node.outputs.empty() ? "node_" + std::to_string(i) : node.outputs.front();
        if (const auto metadata = n.find("metadata"); metadata != n.end() && metadata->is_object()) {
            for (auto it = metadata->begin(); it != metadata->end(); ++it) {
                if (it.value().is_null())
                    continue;
                const std::string text = metadataText(it.value());
                node.metadata.push_back({ it.key(), text });
                if (it.key() == "debug_handle")
                    node.debugHandle = parseHandle(it.value());
                else if (it.key() == "stack_trace")
                    node.stackTrace = text;
                else if (it.key() == "nn_module_stack")
                    node.nnModuleStack = text;
            }
        }
        if (node.isDelegateCall() && !node.inputs.empty() && n.contains("inputs") && n.at("inputs").at(0).is_object()
            && n.at("inputs").at(0).contains("arg"))
            node.lowered
                = parseLowered(node.inputs.front(), n.at("inputs").at(0).at("arg"), where, maxDepth, program.warnings);
        program.nodes.push_back(std::move(node));
    }
    return program;
}

} // namespace etscope::core
