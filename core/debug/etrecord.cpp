// SPDX-License-Identifier: MIT
#include "core/debug/etrecord.h"
#include "core/util/guard.h"
#include "core/util/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace etscope::core {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr std::string_view kMarker = "ETRECORD_V0";
constexpr std::string_view kEdgeProgram = "edge_dialect_exported_program";
constexpr std::string_view kExportedProgram = "exported_program";
constexpr std::string_view kDefaultMethod = "forward";

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool isCompanion(std::string_view name)
{
    return endsWith(name, "_state_dict") || endsWith(name, "_constants") || endsWith(name, "_example_inputs");
}

std::string roleOf(const std::string& name)
{
    if (name == kMarker)
        return "marker";
    for (const char* map : { "debug_handle_map", "delegate_map", "instruction_id_to_num_outs_map", "export_graph_id",
             "reference_outputs", "representative_inputs" })
        if (name == map)
            return map;
    if (isCompanion(name))
        return "companion";
    if (name == kEdgeProgram || name.starts_with(std::string(kEdgeProgram) + "/"))
        return "edge_program";
    if (name == kExportedProgram)
        return "exported_program";
    if (name.find('/') != std::string::npos && !name.ends_with("/"))
        return "graph";
    return "unknown";
}

std::optional<int> parseInstruction(const std::string& key)
{
    if (key.empty() || key.size() > 9 || key.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoi(key);
}

template <typename J> std::vector<DebugHandle> handleList(const J& value)
{
    std::vector<DebugHandle> handles;
    if (value.is_number_integer())
        handles.push_back(DebugHandle(value.template get<std::int64_t>()));
    else if (value.is_array())
        for (const J& h : value)
            if (h.is_number_integer())
                handles.push_back(DebugHandle(h.template get<std::int64_t>()));
    return handles;
}

class RecordReader {
public:
    RecordReader(const ZipArchive& archive, const ETRecordLimits& limits, ETRecord& record)
        : m_archive(archive)
        , m_limits(limits)
        , m_record(record)
    {
    }

    std::optional<Error> run();

private:
    Result<std::string> text(const ZipEntry& entry);
    template <typename J> Result<J> parse(const ZipEntry& entry);
    void warn(const std::string& message) { m_record.warnings.push_back({ message, std::nullopt }); }
    void readGraph(const ZipEntry& entry, const std::string& role);
    std::optional<Error> readDebugHandleMap(const ZipEntry& entry);
    std::optional<Error> readDelegateMap(const ZipEntry& entry);
    std::optional<Error> readNumOuts(const ZipEntry& entry);
    Error mapError(const ZipEntry& entry, const std::string& reason) const
    {
        return makeError(Error::Code::Corrupt, m_record.path, "entry '" + entry.name + "': " + reason);
    }

    const ZipArchive& m_archive;
    const ETRecordLimits& m_limits;
    ETRecord& m_record;
};

Result<std::string> RecordReader::text(const ZipEntry& entry)
{
    if (entry.size > m_limits.maxJsonBytes)
        return makeError(Error::Code::Limit, m_record.path,
            "entry '" + entry.name + "': " + std::to_string(entry.size) + " bytes of JSON (limit "
                + std::to_string(m_limits.maxJsonBytes) + ")");
    return m_archive.read(entry);
}

template <typename J> Result<J> RecordReader::parse(const ZipEntry& entry)
{
    auto bytes = text(entry);
    if (!bytes)
        return bytes.error();
    JsonProblem problem;
    auto value = parseJson<J>(bytes.value(), problem);
    if (!value)
        return mapError(entry, problem.reason);
    return std::move(*value);
}

void RecordReader::readGraph(const ZipEntry& entry, const std::string& role)
{
    auto value = parse<json>(entry);
    if (!value) {
        warn(value.error().message());
        return;
    }
    auto program
        = parseEdgeProgram(value.value(), m_record.path + ": entry '" + entry.name + "'", m_limits.maxLoweredDepth);
    if (!program) {
        warn(program.error().message());
        return;
    }
    for (const Warning& w : program->warnings)
        warn(w.message);
    ETRecordGraph graph;
    graph.entry = entry.name;
    const std::size_t slash = entry.name.rfind('/');
    graph.name = slash == std::string::npos ? entry.name : entry.name.substr(0, slash);
    graph.method = slash == std::string::npos ? std::string(kDefaultMethod) : entry.name.substr(slash + 1);
    graph.program = std::make_shared<EdgeProgram>(std::move(program).value());
    (role == "edge_program" ? m_record.edgePrograms : m_record.otherGraphs).push_back(std::move(graph));
}

std::optional<Error> RecordReader::readDebugHandleMap(const ZipEntry& entry)
{
    auto value = parse<json>(entry);
    if (!value)
        return value.error();
    if (!value->is_object())
        return mapError(entry, "expected a JSON object of methods");
    for (auto method = value->begin(); method != value->end(); ++method) {
        if (!method.value().is_object())
            return mapError(entry, "method '" + method.key() + "' is not an object");
        auto& target = m_record.debugHandleMap[method.key()];
        for (auto it = method.value().begin(); it != method.value().end(); ++it) {
            const auto instruction = parseInstruction(it.key());
            if (!instruction) {
                warn(m_record.path + ": entry '" + entry.name + "': key '" + it.key() + "' is not an instruction id");
                continue;
            }
            target[*instruction] = { handleList(it.value()), it.value().is_array() };
        }
    }
    return std::nullopt;
}

std::optional<Error> RecordReader::readDelegateMap(const ZipEntry& entry)
{
    auto value = parse<ordered_json>(entry);
    if (!value)
        return value.error();
    if (!value->is_object())
        return mapError(entry, "expected a JSON object of methods");
    for (auto method = value->begin(); method != value->end(); ++method) {
        if (!method.value().is_object())
            return mapError(entry, "method '" + method.key() + "' is not an object");
        auto& target = m_record.delegateMap[method.key()];
        for (auto it = method.value().begin(); it != method.value().end(); ++it) {
            const auto instruction = parseInstruction(it.key());
            if (!instruction || !it.value().is_object()) {
                warn(m_record.path + ": entry '" + entry.name + "': instruction '" + it.key() + "' is malformed");
                continue;
            }
            DelegateMapEntry mapped;
            if (const auto name = it.value().find("name"); name != it.value().end() && name->is_string())
                mapped.backend = name->get<std::string>();
            if (const auto ids = it.value().find("delegate_map"); ids != it.value().end() && ids->is_object())
                for (auto id = ids->begin(); id != ids->end(); ++id)
                    mapped.identifiers.emplace_back(id.key(), handleList(id.value()));
            target[*instruction] = std::move(mapped);
        }
    }
    return std::nullopt;
}

std::optional<Error> RecordReader::readNumOuts(const ZipEntry& entry)
{
    auto value = parse<json>(entry);
    if (!value)
        return value.error();
    if (!value->is_object())
        return mapError(entry, "expected a JSON object of methods");
    for (auto method = value->begin(); method != value->end(); ++method) {
        if (!method.value().is_object())
            return mapError(entry, "method '" + method.key() + "' is not an object");
        for (auto it = method.value().begin(); it != method.value().end(); ++it) {
            const auto instruction = parseInstruction(it.key());
            if (!instruction || !it.value().is_number_integer() || it.value().get<std::int64_t>() < 0
                || it.value().get<std::int64_t>() > 1'000'000) {
                warn(m_record.path + ": entry '" + entry.name + "': instruction '" + it.key() + "' is malformed");
                continue;
            }
            m_record.numOutsMap[method.key()][*instruction] = it.value().get<int>();
        }
    }
    return std::nullopt;
}

std::optional<Error> RecordReader::run()
{
    if (!m_archive.find(kMarker))
        return makeError(
            Error::Code::BadIdentifier, m_record.path, "a ZIP archive without the ETRECORD_V0 entry: not an ETRecord");
    for (const ZipEntry& entry : m_archive.entries()) {
        ETRecordEntry described { entry.name, entry.size, entry.compressedSize, roleOf(entry.name) };
        m_record.entries.push_back(described);
        const std::string& role = described.role;
        std::optional<Error> error;
        if (role == "edge_program" || role == "exported_program" || role == "graph")
            readGraph(entry, role);
        else if (role == "debug_handle_map")
            error = readDebugHandleMap(entry);
        else if (role == "delegate_map")
            error = readDelegateMap(entry);
        else if (role == "instruction_id_to_num_outs_map")
            error = readNumOuts(entry);
        else if (role == "export_graph_id") {
            auto value = parse<json>(entry);
            if (value && value->is_number_integer())
                m_record.exportGraphId = value->get<std::int64_t>();
            else
                warn(m_record.path + ": entry 'export_graph_id' is not a JSON integer");
        }
        if (error)
            return error;
    }
    if (m_record.edgePrograms.empty())
        warn(m_record.path + ": the record has no edge-dialect program");
    return std::nullopt;
}

/// Counts the nodes of `program`: top-level ones when `backend` is null, else as delegated to it.
void countProgram(const EdgeProgram& program, std::map<std::string, OperatorRow>& rows, const std::string* backend)
{
    for (const EdgeNode& node : program.nodes) {
        const std::string type = node.opType();
        if (!backend && node.isDelegateCall())
            continue;
        OperatorRow& row = rows[type];
        row.opType = type;
        if (backend)
            OperatorTable::addDelegated(row, *backend);
        else
            ++row.nonDelegated;
    }
}

OperatorTable tableFromRows(std::map<std::string, OperatorRow> rows, OperatorTable table, std::string source)
{
    table.source = std::move(source);
    table.rows.reserve(table.rows.size() + rows.size());
    for (auto& entry : rows) // the rows are moved out (a structured binding hid that from clang-tidy)
        table.rows.push_back(std::move(entry.second));
    finishOperatorTable(table);
    return table;
}

} // namespace

const ETRecordGraph* ETRecord::edgeProgram(std::string_view method) const
{
    const std::string_view wanted = method.empty() ? kDefaultMethod : method;
    for (const ETRecordGraph& graph : edgePrograms)
        if (graph.method == wanted)
            return &graph;
    if (method.empty() && !edgePrograms.empty())
        return &edgePrograms.front();
    return nullptr;
}

std::map<int, int> ETRecord::delegateOutputCounts(std::string_view method) const
{
    const auto it = numOutsMap.find(std::string(method));
    return it == numOutsMap.end() ? std::map<int, int>() : it->second;
}

std::map<std::string, std::map<int, int>> ETRecord::allDelegateOutputCounts() const
{
    return numOutsMap;
}

std::vector<std::string> ETRecord::methods() const
{
    std::set<std::string> names;
    for (const ETRecordGraph& graph : edgePrograms)
        names.insert(graph.method);
    for (const auto& [method, map] : debugHandleMap)
        names.insert(method);
    for (const auto& [method, map] : delegateMap)
        names.insert(method);
    for (const auto& [method, map] : numOutsMap)
        names.insert(method);
    return { names.begin(), names.end() };
}

std::vector<DebugHandle> ETRecord::handlesOf(std::string_view method, int instruction) const
{
    const auto m = debugHandleMap.find(std::string(method));
    if (m == debugHandleMap.end())
        return {};
    const auto it = m->second.find(instruction);
    return it == m->second.end() ? std::vector<DebugHandle>() : it->second.handles;
}

std::optional<std::vector<DebugHandle>> ETRecord::delegateHandles(
    std::string_view method, int instruction, const std::string& identifier) const
{
    const auto m = delegateMap.find(std::string(method));
    if (m == delegateMap.end())
        return std::nullopt;
    const auto it = m->second.find(instruction);
    if (it == m->second.end())
        return std::nullopt;
    std::vector<DebugHandle> result;
    for (const auto& [key, handles] : it->second.identifiers)
        if (key == identifier)
            result = handles;
    // The Inspector's quirk, kept for parity: any key contained in the identifier overrides.
    for (const auto& [key, handles] : it->second.identifiers)
        if (!key.empty() && identifier.find(key) != std::string::npos)
            result = handles;
    return result;
}

static Result<ETRecord> readETRecordUnguarded(
    const std::shared_ptr<const MappedFile>& file, const ETRecordLimits& limits)
{
    auto archive = ZipArchive::open(file, limits.zip);
    if (!archive)
        return archive.error();
    ETRecord record;
    record.path = file->path();
    record.warnings = archive->warnings();
    RecordReader reader(archive.value(), limits, record);
    if (auto error = reader.run())
        return *error;
    return record;
}

Result<ETRecord> readETRecord(std::shared_ptr<const MappedFile> file, const ETRecordLimits& limits)
{
    return guardedRead<ETRecord>(file->path(), "the ETRecord", [&] { return readETRecordUnguarded(file, limits); });
}

Result<ETRecord> readETRecordFile(const std::string& path, const ETRecordLimits& limits)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    return readETRecord(file.value(), limits);
}

OperatorTable delegationInfo(const EdgeProgram& program)
{
    std::map<std::string, OperatorRow> rows;
    countProgram(program, rows, nullptr);
    std::set<std::string> seen;
    OperatorTable table;
    for (const EdgeNode& node : program.nodes) {
        if (!node.lowered || !seen.insert(node.lowered->name).second)
            continue;
        const std::string& backend = node.lowered->backendId;
        table.addSubgraph(backend, node.lowered->originalModule != nullptr);
        if (node.lowered->originalModule)
            countProgram(*node.lowered->originalModule, rows, &backend);
    }
    // get_delegation_info counts a lowered module without its graph as a subgraph all the same.
    table.opaqueSubgraphs = 0;
    return tableFromRows(std::move(rows), std::move(table), "etrecord");
}

Result<OperatorTable> etrecordOperatorTable(const ETRecord& record, std::string_view method)
{
    const ETRecordGraph* edge = record.edgeProgram(method);
    if (edge && edge->program->loweredModuleCount() > 0)
        return delegationInfo(*edge->program);
    for (const ETRecordGraph& graph : record.otherGraphs)
        if (graph.method == (method.empty() ? kDefaultMethod : method) && graph.program->loweredModuleCount() > 0)
            return delegationInfo(*graph.program);
    if (!edge)
        return makeError(Error::Code::Usage, record.path,
            "the ETRecord has no edge-dialect program for method '" + std::string(method) + "'");
    // Pre-lowering graph: the DelegateCall handle lists say which nodes went to a delegate, and
    // the delegate_map (when stored) to which backend.
    std::map<DebugHandle, std::string> delegatedHandles;
    OperatorTable table;
    const auto backends = record.delegateMap.find(edge->method);
    if (const auto map = record.debugHandleMap.find(edge->method); map != record.debugHandleMap.end())
        for (const auto& [instruction, entry] : map->second) {
            if (!entry.isList)
                continue;
            std::string backend = "(backend not recorded)";
            if (backends != record.delegateMap.end())
                if (const auto found = backends->second.find(instruction); found != backends->second.end())
                    backend = found->second.backend;
            table.addSubgraph(backend, true);
            for (const DebugHandle handle : entry.handles)
                delegatedHandles.emplace(handle, backend);
        }
    if (table.delegatedSubgraphs == 0)
        return delegationInfo(*edge->program);
    std::map<std::string, OperatorRow> rows;
    for (const EdgeNode& node : edge->program->nodes) {
        OperatorRow& row = rows[node.opType()];
        row.opType = node.opType();
        const auto delegated = node.debugHandle ? delegatedHandles.find(*node.debugHandle) : delegatedHandles.end();
        if (delegated != delegatedHandles.end())
            OperatorTable::addDelegated(row, delegated->second);
        else
            ++row.nonDelegated;
    }
    return tableFromRows(std::move(rows), std::move(table), "etrecord (approximate: pre-lowering graph)");
}

} // namespace etscope::core
