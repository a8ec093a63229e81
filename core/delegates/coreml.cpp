// SPDX-License-Identifier: MIT
// Core ML payloads (facts sheet §3.4). Either a flattened in-memory file system — file contents
// at aligned offsets from the payload start, then a JSON table of nodes written with its
// characters reversed at the very end (the root directory is the last node) — or, for
// multifunction models, "CMJR" + a JSON reference to a named-data blob holding that file system.
// The file listing, the I/O names of metadata.json and the debug maps of debug_info.json are
// read here; the model itself (model.mlpackage/Data/com.apple.CoreML/model.mlmodel, protobuf
// with an ML Program) is drawn as the inner graph by coremlprogram.cpp.
#include "core/delegates/coremlprogram.h"
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <set>
#include <string_view>

namespace etscope::core {

namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxJson = 64u << 20; ///< a larger file table is not read
constexpr std::size_t kMaxDepth = 64; ///< directory nesting followed
constexpr int kMaxNesting = 256; ///< JSON nesting accepted (printing a value recurses)
constexpr std::size_t kMaxFileFacts = 200;
constexpr int kKindFile = 0;
constexpr int kKindDirectory = 1;

struct FileEntry {
    std::string path;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

/// The forward text of the reversed JSON object that ends the payload; empty when there is none.
/// Reading backwards, the object starts at '{' and ends at its matching '}' outside strings.
std::string reversedJsonTail(std::span<const std::uint8_t> payload, std::size_t& start)
{
    std::size_t end = payload.size();
    while (end > 0 && payload[end - 1] == 0)
        --end;
    std::string text;
    int depth = 0;
    bool inString = false;
    std::size_t backslashes = 0;
    for (std::size_t i = end; i-- > 0 && text.size() < kMaxJson;) {
        const char c = static_cast<char>(payload[i]);
        if (text.empty() && c != '{')
            return {};
        text.push_back(c);
        if (inString) {
            if (c == '"' && backslashes % 2 == 0)
                inString = false;
            backslashes = c == '\\' ? backslashes + 1 : 0;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            --depth;
        if (depth == 0) {
            start = i;
            return text;
        }
    }
    return {};
}

/// Parses JSON text whose bracket nesting stays within kMaxNesting; null otherwise.
json parseBounded(std::string_view text)
{
    JsonProblem problem;
    return parseJson<json>(text, problem, kMaxNesting).value_or(json());
}

std::uint64_t unsignedOf(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

/// Walks the directory tree from the root (the last node) into file paths.
/// Each node is expanded once: a real table is a tree, and a shared or cyclic child would
/// otherwise multiply the walk.
void collectFiles(const json& nodes, std::size_t index, const std::string& prefix, std::size_t depth,
    std::set<std::size_t>& seen, std::vector<FileEntry>& files, std::vector<std::string>& problems)
{
    if (index >= nodes.size() || !nodes[index].is_object() || depth > kMaxDepth || !seen.insert(index).second) {
        problems.push_back(
            "node " + std::to_string(index) + " under '" + prefix + "' is missing, nested too deep, shared or cyclic");
        return;
    }
    const json& node = nodes[index];
    const std::int64_t kind = jsonInteger(node, "kind").value_or(-1);
    if (kind == kKindFile) {
        static const json none = json::object();
        const json* region = jsonMember(node, "dataRegion");
        files.push_back(
            { prefix, unsignedOf(region ? *region : none, "offset"), unsignedOf(region ? *region : none, "size") });
    } else if (kind == kKindDirectory) {
        const json* children = jsonMember(node, "children");
        if (children && children->is_object())
            for (const auto& [name, child] : children->items())
                if (child.is_number_unsigned())
                    collectFiles(nodes, child.get<std::size_t>(), prefix.empty() ? name : prefix + "/" + name,
                        depth + 1, seen, files, problems);
    } else {
        problems.push_back("node " + std::to_string(index) + " has kind " + std::to_string(kind));
    }
}

std::string joinNames(const json& names)
{
    std::string out;
    if (names.is_array())
        for (const json& name : names)
            out += (out.empty() ? "" : ", ") + jsonDisplayText(name);
    return out;
}

std::vector<std::string> namesOf(const json& names)
{
    std::vector<std::string> out;
    if (names.is_array())
        for (const json& name : names)
            out.push_back(name.is_string() ? name.get<std::string>() : jsonDisplayText(name));
    return out;
}

/// metadata.json: {identifier, inputNames, outputNames}, or for a multifunction model
/// {identifier, methods: {method: {inputNames, outputNames}}} (executorch
/// backends/apple/coreml/compiler/coreml_preprocess.py, MultifunctionModelMetadata); the names
/// of `model.functionName` are then the delegate's.
void describeMetadata(DelegateInfo& info, const json& metadata, coreml::ModelInputs& model)
{
    if (metadata.contains("identifier"))
        info.facts.push_back({ "model identifier", jsonDisplayText(metadata["identifier"]) });
    const json* names = &metadata;
    if (const json* methods = jsonMember(metadata, "methods"); methods && methods->is_object()) {
        info.facts.push_back({ "methods", std::to_string(methods->size()) });
        const json* method = model.functionName.empty() ? nullptr : jsonMember(*methods, model.functionName);
        if (method && method->is_object())
            names = method;
    }
    for (const char* key : { "inputNames", "outputNames" }) {
        const auto it = names->find(key);
        if (it == names->end() || !it->is_array())
            continue;
        info.facts.push_back({ key, std::to_string(it->size()) + ": " + joinNames(*it) });
        const bool inputs = std::strcmp(key, "inputNames") == 0;
        (inputs ? info.inputCount : info.outputCount) = static_cast<int>(it->size());
        (inputs ? model.inputNames : model.outputNames) = namesOf(*it);
    }
}

/// debug_info.json's maps for the program reader: symbol → handles, and (function, output,
/// operator) of the last Operation step of each symbol's path → symbol.
void readDebugMaps(const json& debug, coreml::ModelInputs& model)
{
    if (const auto it = debug.find("debugSymbolToHandles"); it != debug.end() && it->is_object())
        for (const auto& [symbol, handles] : it->items()) {
            std::vector<std::int64_t>& out = model.symbolHandles[symbol];
            if (handles.is_array())
                for (const json& handle : handles)
                    if (handle.is_number_integer())
                        out.push_back(handle.get<std::int64_t>());
        }
    const auto paths = debug.find("debugSymbolToOperationPath");
    if (paths == debug.end() || !paths->is_object())
        return;
    for (const auto& [symbol, path] : paths->items()) {
        if (!path.is_array())
            continue;
        std::string function;
        std::string output;
        std::string op;
        for (const json& step : path) {
            const std::string type = jsonString(step, "Type").value_or("");
            if (type == "Function")
                function = jsonString(step, "Name").value_or("");
            else if (type == "Operation") {
                output = jsonString(step, "Output").value_or("");
                op = jsonString(step, "Operator").value_or("");
            }
        }
        if (!output.empty())
            model.symbolByOperation.emplace(coreml::operationKey(function, output, op), symbol);
    }
}

void describeDebugInfo(DelegateInfo& info, const json& debug)
{
    if (const auto it = debug.find("versionInfo"); it != debug.end() && it->is_object())
        for (const auto& [key, value] : it->items())
            info.facts.push_back({ "version " + key, jsonDisplayText(value) });
    if (const auto it = debug.find("debugSymbolToOperationPath"); it != debug.end() && it->is_object())
        info.facts.push_back({ "debug symbols → operation paths", std::to_string(it->size()) });
    if (const auto it = debug.find("debugSymbolToHandles"); it != debug.end() && it->is_object()) {
        info.facts.push_back({ "debug symbols → handles", std::to_string(it->size()) });
        std::size_t shown = 0;
        for (const auto& [symbol, handles] : it->items()) {
            if (shown++ == 20)
                break;
            info.facts.push_back({ "debug symbol " + symbol, jsonDisplayText(handles) });
        }
    }
}

/// Decodes the file-system form; false (with a warning) when the payload does not end in one.
/// `function`: the method a CMJR reference names; `inPayload`: the file system is the payload
/// itself (so file offsets are payload offsets), not a named-data blob.
bool decodeFileSystem(const DelegateContext& context, DelegateInfo& info, std::span<const std::uint8_t> payload,
    const std::string& function = {}, bool inPayload = true)
{
    std::size_t tableStart = 0;
    const std::string table = reversedJsonTail(payload, tableStart);
    const json parsed = table.empty() ? json() : parseBounded(table);
    if (!parsed.is_object() || !parsed.contains("nodes") || !parsed["nodes"].is_array() || parsed["nodes"].empty()) {
        context.warn(info, "no Core ML file table (reversed JSON) at the end of the payload");
        return false;
    }
    const json& nodes = parsed["nodes"];
    std::vector<FileEntry> files;
    std::vector<std::string> problems;
    std::set<std::size_t> seen;
    collectFiles(nodes, nodes.size() - 1, "", 0, seen, files, problems);
    for (const std::string& problem : problems)
        context.warn(info, "Core ML file table: " + problem);

    info.format = "coreml";
    info.facts.push_back({ "file table",
        std::to_string(table.size()) + " bytes of reversed JSON at payload offset " + std::to_string(tableStart) + ", "
            + std::to_string(nodes.size()) + " nodes" });
    std::uint64_t total = 0;
    std::string model;
    coreml::ModelInputs inputs;
    inputs.functionName = function;
    std::string rootModel = "com.apple.CoreML/model.mlmodel"; // Manifest.json may name another
    for (std::size_t f = 0; f < files.size(); ++f) {
        const FileEntry& file = files[f];
        const bool inside = detail::rangeInside(tableStart, file.offset, file.size);
        total += file.size;
        if (!inside)
            context.warn(info, "Core ML file '" + file.path + "' lies outside the file area", file.offset);
        if (f < kMaxFileFacts)
            info.facts.push_back({ "file " + file.path,
                std::to_string(file.size) + " bytes at offset " + std::to_string(file.offset)
                    + (inside ? "" : " (outside!)") });
        const std::string top = file.path.substr(0, file.path.find('/'));
        if (model.empty() && (top.ends_with(".mlpackage") || top.ends_with(".mlmodelc")))
            model = top;
        if (!inside || file.size > kMaxJson)
            continue;
        const auto bytes = payload.subspan(file.offset, file.size);
        const std::string name = file.path.substr(file.path.rfind('/') + 1);
        const bool manifest = file.path == model + "/Manifest.json";
        if (name != "metadata.json" && name != "debug_info.json" && !manifest)
            continue;
        const json content = parseBounded({ reinterpret_cast<const char*>(bytes.data()), bytes.size() });
        if (!content.is_object()) {
            context.warn(info, "Core ML " + name + " is not a JSON object", file.offset);
        } else if (manifest) {
            // {"rootModelIdentifier": id, "itemInfoEntries": {id: {"path": …}}}, path under Data/.
            const std::string root = jsonString(content, "rootModelIdentifier").value_or("");
            const json* items = jsonMember(content, "itemInfoEntries");
            const json* item = items && items->is_object() && !root.empty() ? jsonMember(*items, root) : nullptr;
            if (item && item->is_object())
                if (const auto path = jsonString(*item, "path"); path && !path->empty())
                    rootModel = *path;
        } else if (name == "metadata.json") {
            describeMetadata(info, content, inputs);
        } else {
            describeDebugInfo(info, content);
            readDebugMaps(content, inputs);
        }
    }
    info.facts.push_back({ "files", std::to_string(files.size()) + " (" + formatBytes(total) + ")" });
    // The package's own files apart from the container's (metadata.json, debug_info.json):
    // "model.mlpackage: 6 files" counted both (issue 36).
    std::size_t packageFiles = 0;
    std::uint64_t packageBytes = 0;
    for (const FileEntry& file : files)
        if (!model.empty() && file.path.starts_with(model + "/")) {
            ++packageFiles;
            packageBytes += file.size;
        }
    if (!model.empty())
        info.facts.push_back({ "model",
            model + ": " + detail::plural(packageFiles, "file", "files") + " (" + formatBytes(packageBytes)
                + ") of the container's " + std::to_string(files.size()) });
    info.summary = "Core ML "
        + (model.empty()
                ? "payload: " + detail::plural(files.size(), "file", "files") + ", " + formatBytes(total)
                : model + ": " + detail::plural(packageFiles, "file", "files") + ", " + formatBytes(packageBytes)
                    + " (container: " + detail::plural(files.size(), "file", "files") + ", " + formatBytes(total) + ")")
        + (info.inputCount ? ", " + detail::plural(static_cast<std::uint64_t>(*info.inputCount), "input", "inputs")
                           : std::string())
        + (info.outputCount ? ", " + detail::plural(static_cast<std::uint64_t>(*info.outputCount), "output", "outputs")
                            : std::string());

    // The model: an .mlpackage's protobuf is drawn; a compiled .mlmodelc (MIL text) is listed.
    const auto fileAt = [&](const std::string& path) -> std::optional<coreml::ContainerFile> {
        for (const FileEntry& file : files)
            if (file.path == path && detail::rangeInside(tableStart, file.offset, file.size))
                return coreml::ContainerFile { payload.subspan(file.offset, file.size),
                    inPayload ? std::optional<std::uint64_t>(file.offset) : std::nullopt };
        return std::nullopt;
    };
    if (model.ends_with(".mlpackage")) {
        const std::string data = model + "/Data/";
        inputs.modelPath = data + rootModel;
        const auto modelFile = fileAt(inputs.modelPath);
        if (!modelFile) {
            context.warn(info, "the package has no model file '" + inputs.modelPath + "'");
            return true;
        }
        inputs.model = *modelFile;
        const std::string folder = inputs.modelPath.substr(0, inputs.modelPath.rfind('/') + 1);
        inputs.packageFile = [&fileAt, folder](const std::string& relative) { return fileAt(folder + relative); };
        coreml::decodeModel(context, info, inputs);
    } else if (model.ends_with(".mlmodelc")) {
        info.facts.push_back({ "compiled model", "model.mil (MIL text) is not drawn" });
    }
    return true;
}

} // namespace

bool decodeCoreMl(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    if (payload.size() >= 4 && std::memcmp(payload.data(), "CMJR", 4) == 0) {
        auto body = payload.subspan(4);
        while (!body.empty() && body.back() == 0)
            body = body.first(body.size() - 1);
        const json reference = parseBounded({ reinterpret_cast<const char*>(body.data()), body.size() });
        if (!reference.is_object()) {
            context.warn(info, "the CMJR reference is not a JSON object", 4);
            return false;
        }
        info.format = "coreml";
        info.facts.push_back({ "form", "CMJR reference to a multifunction model in named data" });
        for (const char* key : { "version", "key", "functionName" })
            if (reference.contains(key))
                info.facts.push_back({ std::string("reference ") + key, jsonDisplayText(reference[key]) });
        const std::string key = jsonString(reference, "key").value_or("");
        const std::string function = jsonString(reference, "functionName").value_or("");
        const auto blob = key.empty() ? std::nullopt : context.namedData(key);
        if (!blob) {
            context.warn(
                info, "the Core ML model '" + key + "' is not in the program's named data or an attached .ptd");
            info.summary = "Core ML reference to '" + key + "' (function " + function + "), model not found";
            return true;
        }
        info.facts.push_back({ "referenced model", std::to_string(blob->size()) + " bytes of named data" });
        DelegateInfo inner = info;
        if (decodeFileSystem(context, inner, *blob, function, false)) {
            info = std::move(inner);
            info.summary = "Core ML function '" + function + "' of " + info.summary;
        } else {
            info.warnings = std::move(inner.warnings);
            info.summary = "Core ML reference to '" + key + "' (function " + function + ")";
        }
        return true;
    }
    if (!decodeFileSystem(context, info, payload))
        return false;
    info.facts.push_back({ "form", "flattened file system" });
    return true;
}

} // namespace etscope::core
