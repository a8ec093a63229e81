// SPDX-License-Identifier: MIT
#include "core/document/document.h"
#include "core/document/sidegraphs.h"
#include "core/util/guard.h"

#include "core/methodgraph/graphbuilder.h"
#include "core/util/text.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>

namespace etscope::core {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCompanionCandidates = 64;

bool cancelled(const OpenOptions& options)
{
    return options.cancel && options.cancel->load();
}

void report(const OpenOptions& options, int percent, const std::string& phase)
{
    if (options.progress)
        options.progress(percent, phase);
}

/// Names of external tensors the program needs (EXTERNAL location), in first-seen order.
std::vector<std::string> externalKeys(const Program& program)
{
    std::vector<std::string> keys;
    std::set<std::string> seen;
    for (const Method& method : program.methods)
        for (const Value& value : method.values)
            if (value.isTensor()
                && (value.tensor.storage == TensorStorage::External
                    || value.tensor.storage == TensorStorage::ExternalMutable)
                && seen.insert(value.tensor.fullyQualifiedName).second)
                keys.push_back(value.tensor.fullyQualifiedName);
    return keys;
}

/// Companion candidates in the order a user would expect: same stem, the exporter's default
/// name, then any other .ptd in the folder.
std::vector<fs::path> companionCandidates(const fs::path& programPath)
{
    std::vector<fs::path> candidates;
    const fs::path folder = programPath.parent_path().empty() ? fs::path(".") : programPath.parent_path();
    const auto add = [&](const fs::path& p) {
        if (std::find(candidates.begin(), candidates.end(), p) == candidates.end())
            candidates.push_back(p);
    };
    add(folder / (programPath.stem().string() + ".ptd"));
    add(folder / "_default_external_constant.ptd");
    std::error_code ec;
    std::vector<fs::path> others;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".ptd")
            others.push_back(it->path());
        if (others.size() >= kMaxCompanionCandidates)
            break;
    }
    std::sort(others.begin(), others.end());
    for (const fs::path& p : others)
        add(p);
    return candidates;
}

/// Attaches the .ptd files the user named (an unreadable one is an error: it was asked for),
/// then, while external tensors still lack data, .ptd files found beside the program.
std::optional<Error> attachCompanions(Document& document, const OpenOptions& options)
{
    const std::vector<std::string> needed = externalKeys(*document.program);
    for (const std::string& dataPath : options.dataFiles) {
        auto data = readExternalDataFile(dataPath);
        if (!data) {
            Error error = data.error();
            error.reason = "cannot attach it as external data: " + error.reason;
            return error;
        }
        if (std::none_of(
                needed.begin(), needed.end(), [&](const std::string& key) { return data->find(key) != nullptr; }))
            document.warnings.push_back(
                { dataPath + " holds none of the program's external tensors (attached anyway)", std::nullopt });
        document.externalData.push_back(std::move(data).value());
    }
    const auto missing = [&]() {
        std::vector<std::string> result;
        for (const std::string& key : needed)
            if (!document.findNamedData(key))
                result.push_back(key);
        return result;
    };
    if (options.findCompanions && !missing().empty()) {
        for (const fs::path& candidate : companionCandidates(fs::path(document.path))) {
            std::error_code ec;
            if (!fs::is_regular_file(candidate, ec))
                continue;
            auto data = readExternalDataFile(candidate.string());
            if (!data)
                continue;
            const bool useful = std::any_of(
                needed.begin(), needed.end(), [&](const std::string& key) { return data->find(key) != nullptr; });
            if (!useful)
                continue;
            document.warnings.push_back({ "external data attached from " + candidate.string(), std::nullopt });
            document.externalData.push_back(std::move(data).value());
            if (missing().empty())
                break;
        }
    }
    const std::vector<std::string> stillMissing = missing();
    if (!stillMissing.empty()) {
        std::string list;
        for (std::size_t i = 0; i < stillMissing.size() && i < 8; ++i)
            list += (i ? ", " : "") + stillMissing[i];
        if (stillMissing.size() > 8)
            list += ", …";
        const std::string where = options.dataFiles.empty()
            ? "no .ptd found beside the program; give one with --data"
            : "not in the .ptd files given, nor in one beside the program";
        document.warnings.push_back(
            { std::to_string(stillMissing.size()) + " external tensor(s) have no data (" + where + "): " + list,
                std::nullopt });
    }
    return std::nullopt;
}

} // namespace

std::string_view fileKindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Program:
        return "pte";
    case FileKind::BundledProgram:
        return "bpte";
    case FileKind::ExternalData:
        return "ptd";
    case FileKind::ETDump:
        return "etdp";
    case FileKind::ETRecord:
        return "etrecord";
    case FileKind::Unknown:
        return "unknown";
    }
    return "unknown";
}

FileKind detectFileKind(std::span<const std::uint8_t> bytes)
{
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0)
        return FileKind::ETRecord;
    if (bytes.size() >= 12 && std::memcmp(bytes.data() + 8, "ED00", 4) == 0)
        return FileKind::ETDump;
    if (bytes.size() < 8)
        return FileKind::Unknown;
    const char* id = reinterpret_cast<const char*>(bytes.data() + 4);
    if (std::memcmp(id, "ED00", 4) == 0)
        return FileKind::ETDump;
    if (std::memcmp(id, "FT01", 4) == 0)
        return FileKind::ExternalData;
    if (id[0] == 'B' && id[1] == 'P')
        return FileKind::BundledProgram;
    if (id[0] == 'E' && id[1] == 'T')
        return FileKind::Program;
    return FileKind::Unknown;
}

const MethodAnalysis* Document::analysis(const Method& method) const
{
    if (!program)
        return nullptr;
    const auto index = static_cast<std::size_t>(&method - program->methods.data());
    return index < methods.size() ? &methods[index] : nullptr;
}

std::optional<std::pair<std::string, ByteRange>> Document::findNamedData(const std::string& key) const
{
    if (program)
        if (const NamedDataEntry* entry = program->findNamedData(key))
            return std::make_pair(program->path(), entry->data);
    for (const ExternalData& data : externalData)
        if (const NamedDataEntry* entry = data.find(key))
            return std::make_pair(data.path(), entry->data);
    return std::nullopt;
}

std::optional<Error> analyseDocument(Document& document, const OpenOptions& options)
{
    if (!document.program)
        return std::nullopt;
    const Program& program = *document.program;
    std::vector<const ExternalData*> external;
    for (const ExternalData& data : document.externalData)
        external.push_back(&data);
    document.methods.clear();
    document.methods.resize(program.methods.size());
    DecodeCache cache; // delegates sharing a payload segment decode it once
    // Deferred decodes run after the open, when `program` may have moved: they read copies.
    const bool delegates = std::any_of(
        program.methods.begin(), program.methods.end(), [](const Method& m) { return !m.delegates.empty(); });
    const auto sources = options.deferDelegateGraphs && delegates
        ? std::make_shared<DeferredDecodeSources>(program, external)
        : nullptr;
    for (std::size_t m = 0; m < program.methods.size(); ++m) {
        if (cancelled(options))
            return makeError(Error::Code::Cancelled, document.path, "stopped by the user");
        const Method& method = program.methods[m];
        report(options, 40 + static_cast<int>(55 * m / std::max<std::size_t>(1, program.methods.size())),
            "analysing method " + method.name);
        MethodAnalysis& analysis = document.methods[m];
        for (std::size_t d = 0; d < method.delegates.size(); ++d) {
            const std::string where = "method '" + method.name + "', delegate " + std::to_string(d);
            analysis.delegates.push_back(sources
                    ? describeDelegateDeferred(program, method.delegates[d], external, where, sources)
                    : describeDelegate(program, method.delegates[d], external, where, &cache));
            for (const Warning& warning : analysis.delegates.back().warnings)
                document.warnings.push_back(warning);
        }
        GraphBuildOptions buildOptions;
        if (const auto counts = options.delegateOutputCounts.find(method.name);
            counts != options.delegateOutputCounts.end())
            buildOptions.delegateOutputCounts = &counts->second;
        auto graph = std::make_shared<Graph>(buildMethodGraph(method, analysis.delegates, buildOptions));
        for (const Warning& warning : graph->warnings)
            document.warnings.push_back({ "method '" + method.name + "': " + warning.message, warning.offset });
        analysis.graph = std::move(graph);
    }
    return std::nullopt;
}

void decodeDeferredGraphs(const Document& document, const std::atomic<bool>* cancel)
{
    for (const MethodAnalysis& analysis : document.methods)
        for (const DelegateInfo& info : analysis.delegates) {
            if (cancel && cancel->load())
                return;
            if (info.innerGraph)
                (void)info.innerGraph.get();
        }
}

static Result<Document> openDocumentUnguarded(const std::string& path, const OpenOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    const auto since = [](std::chrono::steady_clock::time_point from) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
    };
    report(options, 0, "mapping " + path);
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    Document document;
    document.path = path;
    document.kind = detectFileKind(file.value()->bytes());
    report(options, 10, "verifying");
    switch (document.kind) {
    case FileKind::Program: {
        auto program = readProgram(file.value());
        if (!program)
            return program.error();
        document.program = std::move(program).value();
        break;
    }
    case FileKind::BundledProgram: {
        auto bundled = readBundledProgram(file.value());
        if (!bundled)
            return bundled.error();
        document.program = std::move(bundled->program);
        bundled->program = Program {};
        document.bundled = std::move(bundled).value();
        break;
    }
    case FileKind::ExternalData: {
        auto data = readExternalData(file.value());
        if (!data)
            return data.error();
        document.warnings = data->warnings;
        document.externalData.push_back(std::move(data).value());
        return document;
    }
    case FileKind::ETDump: {
        auto dump = readETDump(file.value());
        if (!dump)
            return dump.error();
        if (auto error = attachDebugBufferOrDefault(dump.value(), options.debugBuffer))
            return *error;
        document.warnings = dump->warnings;
        document.etdump = std::move(dump).value();
        return document;
    }
    case FileKind::ETRecord: {
        auto record = readETRecord(file.value());
        if (!record)
            return record.error();
        document.warnings = record->warnings;
        document.etrecord = std::move(record).value();
        return document;
    }
    case FileKind::Unknown: {
        const auto bytes = file.value()->bytes();
        if (bytes.size() < 8)
            return makeError(Error::Code::Truncated, path,
                "too small to be an ExecuTorch file (" + std::to_string(bytes.size()) + " bytes)");
        return makeError(Error::Code::BadIdentifier, path,
            "not an ExecuTorch file: no known identifier (bytes 4-7 are " + magicText(bytes.subspan(4, 4)) + ")", 4);
    }
    }
    document.warnings.insert(
        document.warnings.end(), document.program->warnings.begin(), document.program->warnings.end());
    report(options, 30, "looking for external data");
    if (auto error = attachCompanions(document, options))
        return *error;
    if (cancelled(options))
        return makeError(Error::Code::Cancelled, path, "stopped by the user");
    document.readMilliseconds = since(started);
    const auto analysing = std::chrono::steady_clock::now();
    if (auto error = analyseDocument(document, options))
        return *error;
    if (options.findSideGraphs) {
        const std::vector<Warning> warnings = attachTosaSideGraphs(document);
        document.warnings.insert(document.warnings.end(), warnings.begin(), warnings.end());
    }
    document.analyseMilliseconds = since(analysing);
    report(options, 100, "done");
    return document;
}

Result<Document> openDocument(const std::string& path, const OpenOptions& options)
{
    return guardedRead<Document>(path, "the file", [&] { return openDocumentUnguarded(path, options); });
}

} // namespace etscope::core
