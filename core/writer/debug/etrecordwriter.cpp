// SPDX-License-Identifier: MIT
#include "core/writer/debug/etrecordwriter.h"

#include <zip.h>

#include <cstdio>
#include <memory>

namespace etscope::core {

using nlohmann::json;

namespace {

std::string base64(std::string_view bytes)
{
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t n = (static_cast<std::uint8_t>(bytes[i]) << 16)
            | (static_cast<std::uint8_t>(bytes[i + 1]) << 8) | static_cast<std::uint8_t>(bytes[i + 2]);
        for (const int shift : { 18, 12, 6, 0 })
            out += alphabet[(n >> shift) & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest) {
        std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
        if (rest == 2)
            n |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += rest == 2 ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

json argumentJson(const EdgeArgument& argument)
{
    if (argument.kind == "as_tensor" && !argument.tensors.empty())
        return { { "as_tensor", { { "name", argument.tensors.front() } } } };
    if (argument.kind == "as_tensors") {
        json list = json::array();
        for (const std::string& name : argument.tensors)
            list.push_back({ { "name", name } });
        return { { "as_tensors", list } };
    }
    if (argument.kind == "as_int")
        return { { "as_int", std::stoll(argument.text) } };
    if (argument.kind == "as_float")
        return { { "as_float", std::stod(argument.text) } };
    if (argument.kind == "as_bool")
        return { { "as_bool", argument.text == "true" || argument.text == "True" } };
    if (argument.kind == "as_none" || argument.kind.empty())
        return { { "as_none", json::array() } };
    return { { argument.kind, argument.text } };
}

json outputsJson(const std::vector<std::string>& names)
{
    if (names.size() == 1)
        return json::array({ { { "as_tensor", { { "name", names.front() } } } } });
    json list = json::array();
    for (const std::string& name : names)
        list.push_back({ { "name", name } });
    return json::array({ { { "as_tensors", list } } });
}

int serializerScalarType(const std::string& name)
{
    for (int type = 0; type <= 16; ++type)
        if (serializerScalarTypeName(type) == name)
            return type;
    return 0;
}

json loweredJson(const LoweredModule& lowered)
{
    json specs = json::array();
    for (const Attribute& spec : lowered.compileSpecs)
        specs.push_back({ { "key", spec.name }, { "value", base64(spec.value) } });
    json module = { { "backend_id", lowered.backendId },
        { "processed_bytes", base64(std::string(static_cast<std::size_t>(lowered.processedBytes), '\0')) },
        { "compile_specs", specs } };
    if (lowered.originalModule)
        module["original_module"] = edgeProgramJson(*lowered.originalModule);
    return module;
}

std::string zipError(zip_t* archive)
{
    return archive ? zip_strerror(archive) : "cannot create the archive";
}

} // namespace

json edgeProgramJson(const EdgeProgram& program)
{
    json graph;
    graph["inputs"] = json::array();
    for (const std::string& name : program.inputs)
        graph["inputs"].push_back({ { "as_tensor", { { "name", name } } } });
    graph["outputs"] = json::array();
    for (const std::string& name : program.outputs)
        graph["outputs"].push_back({ { "as_tensor", { { "name", name } } } });
    graph["nodes"] = json::array();
    for (const EdgeNode& node : program.nodes) {
        json inputs = json::array();
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            if (i == 0 && node.lowered)
                inputs.push_back({ { "name", node.lowered->name },
                    { "arg", { { "as_string", loweredJson(*node.lowered).dump() } } } });
            else
                inputs.push_back({ { "name", node.inputs[i].name }, { "arg", argumentJson(node.inputs[i]) } });
        }
        json metadata = json::object();
        for (const Attribute& entry : node.metadata)
            metadata[entry.name] = entry.value;
        if (node.debugHandle && !metadata.contains("debug_handle"))
            metadata["debug_handle"] = std::to_string(node.debugHandle->value);
        if (!node.stackTrace.empty() && !metadata.contains("stack_trace"))
            metadata["stack_trace"] = node.stackTrace;
        if (!node.nnModuleStack.empty() && !metadata.contains("nn_module_stack"))
            metadata["nn_module_stack"] = node.nnModuleStack;
        graph["nodes"].push_back({ { "name", node.name }, { "target", node.target }, { "inputs", inputs },
            { "outputs", outputsJson(node.outputs) }, { "metadata", metadata } });
    }
    json tensors = json::object();
    for (const auto& [name, meta] : program.tensors) {
        json sizes = json::array();
        for (const std::int64_t size : meta.shape)
            sizes.push_back(size >= 0 ? json { { "as_int", size } } : json { { "as_expr", { { "expr_str", "s0" } } } });
        tensors[name] = { { "dtype", serializerScalarType(meta.dtype) }, { "sizes", sizes }, { "requires_grad", false },
            { "device", { { "type", "cpu" } } }, { "layout", 7 } };
    }
    graph["tensor_values"] = tensors;
    graph["sym_int_values"] = json::object();
    graph["sym_bool_values"] = json::object();
    graph["is_single_tensor_return"] = program.outputs.size() == 1;
    return { { "graph_module",
                 { { "graph", graph },
                     { "signature", { { "input_specs", json::array() }, { "output_specs", json::array() } } },
                     { "module_call_graph", json::array() } } },
        { "opset_version", { { "aten", 10 } } }, { "range_constraints", json::object() },
        { "schema_version", { { "major", 5 }, { "minor", 4 } } }, { "dialect", "EDGE" },
        { "verifiers", json::array() } };
}

Result<std::vector<std::uint8_t>> writeZip(const std::vector<ZipWriteEntry>& entries)
{
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(nullptr, 0, 0, &error);
    if (!source) {
        zip_error_fini(&error);
        return makeError(Error::Code::Io, "(zip in memory)", "cannot create the archive buffer");
    }
    zip_t* archive = zip_open_from_source(source, ZIP_TRUNCATE, &error);
    zip_error_fini(&error);
    if (!archive) {
        zip_source_free(source);
        return makeError(Error::Code::Io, "(zip in memory)", "cannot open the archive for writing");
    }
    zip_source_keep(source);
    const auto abandon = [&](const std::string& reason) {
        zip_discard(archive);
        zip_source_free(source);
        return makeError(Error::Code::Io, "(zip in memory)", reason);
    };
    for (const ZipWriteEntry& entry : entries) {
        zip_source_t* data = zip_source_buffer(archive, entry.data.data(), entry.data.size(), 0);
        if (!data)
            return abandon("entry '" + entry.name + "': " + zipError(archive));
        const zip_int64_t index = zip_file_add(archive, entry.name.c_str(), data, ZIP_FL_ENC_UTF_8);
        if (index < 0) {
            zip_source_free(data);
            return abandon("entry '" + entry.name + "': " + zipError(archive));
        }
        if (zip_set_file_compression(
                archive, static_cast<zip_uint64_t>(index), entry.compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0)
            != 0)
            return abandon("entry '" + entry.name + "': " + zipError(archive));
    }
    if (zip_close(archive) != 0)
        return abandon(std::string("closing: ") + zipError(archive));
    std::vector<std::uint8_t> bytes;
    if (zip_source_open(source) == 0) {
        zip_source_seek(source, 0, SEEK_END);
        const zip_int64_t size = zip_source_tell(source);
        zip_source_seek(source, 0, SEEK_SET);
        if (size > 0) {
            bytes.resize(static_cast<std::size_t>(size));
            if (zip_source_read(source, bytes.data(), bytes.size()) != size)
                bytes.clear();
        }
        zip_source_close(source);
    }
    zip_source_free(source);
    if (bytes.empty())
        return makeError(Error::Code::Io, "(zip in memory)", "the archive came out empty");
    return bytes;
}

Result<std::vector<std::uint8_t>> writeETRecord(const ETRecordWriteSpec& spec)
{
    std::vector<ZipWriteEntry> entries;
    if (spec.marker)
        entries.push_back({ "ETRECORD_V0", "", false });
    for (const auto& [method, program] : spec.edgePrograms) {
        const std::string name
            = spec.legacyEdgeEntry ? "edge_dialect_exported_program" : "edge_dialect_exported_program/" + method;
        entries.push_back({ name, edgeProgramJson(program).dump(), false });
    }
    for (const auto& [name, program] : spec.extraGraphs)
        entries.push_back({ name, edgeProgramJson(program).dump(), false });
    json handles = json::object();
    for (const auto& [method, map] : spec.debugHandleMap) {
        json m = json::object();
        for (const auto& [instruction, entry] : map)
            m[std::to_string(instruction)]
                = entry.isList || entry.handles.size() != 1 ? json(entry.handles) : json(entry.handles.front());
        handles[method] = m;
    }
    entries.push_back({ "debug_handle_map", handles.dump(), false });
    nlohmann::ordered_json delegates = nlohmann::ordered_json::object();
    for (const auto& [method, map] : spec.delegateMap) {
        nlohmann::ordered_json m = nlohmann::ordered_json::object();
        for (const auto& [instruction, entry] : map) {
            nlohmann::ordered_json ids = nlohmann::ordered_json::object();
            for (const auto& [id, list] : entry.identifiers)
                ids[id] = list;
            m[std::to_string(instruction)] = { { "name", entry.backend }, { "delegate_map", ids } };
        }
        delegates[method] = m;
    }
    entries.push_back({ "delegate_map", delegates.dump(), false });
    if (!spec.numOutsMap.empty()) {
        json outs = json::object();
        for (const auto& [method, map] : spec.numOutsMap)
            for (const auto& [instruction, count] : map)
                outs[method][std::to_string(instruction)] = count;
        entries.push_back({ "instruction_id_to_num_outs_map", outs.dump(), false });
    }
    for (const ZipWriteEntry& extra : spec.extraEntries)
        entries.push_back(extra);
    return writeZip(entries);
}

} // namespace etscope::core
