// SPDX-License-Identifier: MIT
#include "core/document/sidegraphs.h"

#include "core/delegates/tosa.h"
#include "core/util/mappedfile.h"
#include "core/util/text.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

namespace etscope::core {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxDirectoryEntries = 10'000;
constexpr std::string_view kTag = "output_tag";

struct Candidate {
    std::string prefix; ///< the file name before "output_tag"
    std::size_t delegate = 0;
    std::string path;
};

/// "mv2_lrn_int8_output_tag1_TOSA-1.0+INT.tosa" → prefix "mv2_lrn_int8_", delegate 1.
std::optional<Candidate> parseName(const std::string& name)
{
    if (!name.ends_with(".tosa"))
        return std::nullopt;
    const auto at = name.rfind(kTag);
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t end = at + kTag.size();
    std::size_t number = 0;
    std::size_t digits = 0;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && digits < 6) {
        number = number * 10 + static_cast<std::size_t>(name[end] - '0');
        ++end;
        ++digits;
    }
    if (digits == 0 || name.compare(end, 5, "_TOSA") != 0)
        return std::nullopt;
    return Candidate { name.substr(0, at), number, {} };
}

std::size_t commonPrefix(const std::string& a, const std::string& b)
{
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    return n;
}

/// The method side files belong to: forward, else the first with delegates.
Method* sideGraphMethod(Document& document, std::size_t& index)
{
    if (!document.program)
        return nullptr;
    auto& methods = document.program->methods;
    for (std::size_t m = 0; m < methods.size(); ++m)
        if (methods[m].name == "forward" && !methods[m].delegates.empty()) {
            index = m;
            return &methods[m];
        }
    for (std::size_t m = 0; m < methods.size(); ++m)
        if (!methods[m].delegates.empty()) {
            index = m;
            return &methods[m];
        }
    return nullptr;
}

/// Shapes of the inputs and outputs of the DelegateCall of delegate `delegate`, read off the
/// method graph (its in-edges, and the values it writes); empty when it is not in the graph.
std::optional<std::pair<std::vector<std::vector<std::int64_t>>, std::vector<std::vector<std::int64_t>>>> delegateShapes(
    const Graph& graph, std::size_t delegate)
{
    for (const Node& node : graph.nodes) {
        if (node.kind != NodeKind::Delegate || !node.delegate.valid() || node.delegate.index() != delegate)
            continue;
        std::vector<std::vector<std::int64_t>> inputs;
        const int inputCount = node.inputCount >= 0 ? node.inputCount : 0;
        for (int a = 0; a < inputCount && a < static_cast<int>(node.args.size()); ++a) {
            std::vector<std::int64_t> shape;
            for (const Edge* edge : graph.inEdges(node.id))
                if (edge->value.value == node.args[static_cast<std::size_t>(a)] && edge->meta.known()) {
                    shape = edge->meta.shape;
                    break;
                }
            inputs.push_back(std::move(shape));
        }
        std::vector<std::vector<std::int64_t>> outputs;
        for (const auto& [value, meta] : node.writes)
            outputs.push_back(meta.shape);
        return std::make_pair(std::move(inputs), std::move(outputs));
    }
    return std::nullopt;
}

std::string shapesText(const std::vector<std::vector<std::int64_t>>& shapes)
{
    std::string out;
    for (const auto& shape : shapes)
        out += (out.empty() ? "" : ", ") + formatShape(shape);
    return "(" + out + ")";
}

} // namespace

std::vector<SideFile> findTosaSideFiles(const std::string& programPath)
{
    std::error_code error;
    const fs::path program(programPath);
    fs::path directory = program.parent_path();
    if (directory.empty())
        directory = ".";
    std::vector<Candidate> candidates;
    fs::directory_iterator it(directory, fs::directory_options::skip_permission_denied, error);
    std::size_t seen = 0;
    for (; !error && it != fs::directory_iterator() && seen < kMaxDirectoryEntries; it.increment(error), ++seen) {
        std::error_code typeError;
        if (!it->is_regular_file(typeError))
            continue;
        if (auto candidate = parseName(it->path().filename().string())) {
            candidate->path = it->path().string();
            candidates.push_back(std::move(*candidate));
        }
    }
    if (candidates.empty())
        return {};
    const std::string name = program.filename().string();
    std::size_t best = 0;
    for (const Candidate& c : candidates)
        best = std::max(best, commonPrefix(c.prefix, name));
    std::map<std::size_t, std::string> byDelegate;
    for (const Candidate& c : candidates) {
        if (commonPrefix(c.prefix, name) != best)
            continue;
        // Two files for one delegate under the winning prefixes: the first name in order.
        auto [slot, inserted] = byDelegate.emplace(c.delegate, c.path);
        if (!inserted && c.path < slot->second)
            slot->second = c.path;
    }
    std::vector<SideFile> files;
    files.reserve(byDelegate.size());
    for (auto& [delegate, path] : byDelegate)
        files.push_back({ delegate, std::move(path) });
    return files;
}

namespace {

using Shapes = std::vector<std::vector<std::int64_t>>;

/// The shapes of the main block's inputs and outputs (argPosition order).
std::pair<Shapes, Shapes> graphShapes(const Graph& graph)
{
    Shapes inputs;
    Shapes outputs;
    for (const Node& node : graph.nodes) {
        if (node.argPosition < 0)
            continue;
        if (node.kind == NodeKind::Input) {
            const auto out = graph.outEdges(node.id);
            inputs.push_back(out.empty() ? std::vector<std::int64_t>() : out.front()->meta.shape.vector());
        } else if (node.kind == NodeKind::Output) {
            const auto in = graph.inEdges(node.id);
            outputs.push_back(in.empty() ? std::vector<std::int64_t>() : in.front()->meta.shape.vector());
        }
    }
    return { std::move(inputs), std::move(outputs) };
}

std::optional<std::size_t> tagOf(const std::string& path)
{
    const auto candidate = parseName(fs::path(path).filename().string());
    return candidate ? std::optional<std::size_t>(candidate->delegate) : std::nullopt;
}

} // namespace

Result<SideGraphAttachment> attachTosaSideGraph(
    Document& document, const std::string& path, std::optional<std::size_t> delegate)
{
    std::size_t methodIndex = 0;
    const Method* method = sideGraphMethod(document, methodIndex);
    if (!method || methodIndex >= document.methods.size())
        return makeError(
            Error::Code::Usage, document.path, "has no delegates to attach the TOSA graph '" + path + "' to");
    MethodAnalysis& analysis = document.methods[methodIndex];
    const std::size_t count = std::min(method->delegates.size(), analysis.delegates.size());
    if (delegate && *delegate >= count)
        return makeError(Error::Code::Usage, document.path,
            "method '" + method->name + "' has no delegate " + std::to_string(*delegate) + " (it has "
                + std::to_string(count) + ") for the TOSA graph '" + path + "'");
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    auto graph = readTosaGraph((*file)->bytes(), path);
    if (!graph)
        return graph.error();

    const auto tosaShapes = graphShapes(*graph);
    std::vector<std::size_t> matching;
    std::map<std::size_t, std::pair<Shapes, Shapes>> delegateIo;
    if (analysis.graph)
        for (std::size_t d = 0; d < count; ++d)
            if (auto shapes = delegateShapes(*analysis.graph, d)) {
                if (*shapes == tosaShapes)
                    matching.push_back(d);
                delegateIo.emplace(d, std::move(*shapes));
            }
    std::string how = "given";
    if (!delegate) {
        const auto tag = tagOf(path);
        if (matching.size() == 1) {
            delegate = matching.front();
            how = "matched by its inputs and outputs";
            if (tag && *tag != *delegate)
                how += ", though its name says output_tag" + std::to_string(*tag);
        } else if (tag && *tag < count) {
            delegate = *tag;
            how = "by its name, output_tag" + std::to_string(*tag);
        } else if (!matching.empty()) {
            delegate = matching.front();
            how = "the first of " + std::to_string(matching.size()) + " delegates with its inputs and outputs";
        } else {
            return makeError(Error::Code::Usage, path,
                "no delegate of method '" + method->name
                    + "' has this TOSA graph's inputs and outputs, and the file name has no output_tag<N>");
        }
    }

    DelegateInfo& info = analysis.delegates[*delegate];
    SideGraphAttachment attachment { *delegate, graph->warnings };
    if (const auto io = delegateIo.find(*delegate); io != delegateIo.end() && io->second != tosaShapes)
        attachment.warnings.push_back(
            { path + ": the TOSA graph's inputs " + shapesText(tosaShapes.first) + " and outputs "
                    + shapesText(tosaShapes.second) + " do not match delegate " + std::to_string(*delegate)
                    + " of method '" + method->name + "': inputs " + shapesText(io->second.first) + ", outputs "
                    + shapesText(io->second.second) + " (is it the side file of another program?)",
                std::nullopt });
    info.facts.push_back(
        { "side graph", path + " (TOSA, " + std::to_string(graph->operatorCount()) + " operators; " + how + ")" });
    graph->name = info.backendId + " #" + std::to_string(*delegate) + " (TOSA)";
    graph->backendId = info.backendId;
    info.sideGraph = std::make_shared<Graph>(std::move(graph).value());
    info.sideGraphPath = path;
    info.warnings.insert(info.warnings.end(), attachment.warnings.begin(), attachment.warnings.end());
    return attachment;
}

std::vector<Warning> attachTosaSideGraphs(Document& document)
{
    std::vector<Warning> warnings;
    if (!document.program)
        return warnings;
    for (const SideFile& file : findTosaSideFiles(document.path)) {
        auto attached = attachTosaSideGraph(document, file.path);
        if (!attached) {
            warnings.push_back({ attached.error().message(), std::nullopt });
            continue;
        }
        warnings.insert(warnings.end(), attached->warnings.begin(), attached->warnings.end());
    }
    return warnings;
}

} // namespace etscope::core
