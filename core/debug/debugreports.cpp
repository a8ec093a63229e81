// SPDX-License-Identifier: MIT
#include "core/debug/debugreports.h"

#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace etscope::core {

using json = nlohmann::ordered_json;

namespace {

struct BlockCounts {
    std::size_t profile = 0;
    std::size_t delegateProfile = 0;
    std::size_t allocation = 0;
    std::size_t debug = 0;
    std::size_t delegateDebug = 0;
    std::size_t output = 0;
    std::size_t tensors = 0;
};

BlockCounts countBlock(const RunBlock& block)
{
    BlockCounts c;
    c.profile = block.profileEvents.size();
    c.allocation = block.allocationEvents.size();
    c.debug = block.debugEvents.size();
    for (const ProfileEvent& e : block.profileEvents)
        c.delegateProfile += e.isDelegateInternal() ? 1 : 0;
    for (const DebugEvent& e : block.debugEvents) {
        c.delegateDebug += e.isDelegateInternal() ? 1 : 0;
        c.output += e.value.output ? 1 : 0;
        c.tensors += e.value.tensors.size();
    }
    return c;
}

std::map<std::string, std::size_t> tensorDtypes(const ETDump& dump)
{
    std::map<std::string, std::size_t> dtypes;
    for (const RunBlock& run : dump.runs)
        for (const DebugEvent& event : run.debugEvents)
            for (const DebugTensor& tensor : event.value.tensors)
                ++dtypes[scalarTypeName(tensor.scalarType)];
    return dtypes;
}

/// Event names with counts, most frequent first (ties by name).
std::vector<std::pair<std::string, std::size_t>> eventNames(const ETDump& dump)
{
    std::map<std::string, std::size_t> counts;
    for (const RunBlock& run : dump.runs)
        for (const ProfileEvent& event : run.profileEvents)
            if (!event.name.empty())
                ++counts[event.name];
    std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return sorted;
}

std::vector<std::string> delegateIds(const ETDump& dump)
{
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const RunBlock& run : dump.runs) {
        for (const ProfileEvent& event : run.profileEvents)
            if (event.isDelegateInternal() && seen.insert(event.delegateIdentifier()).second)
                ids.push_back(event.delegateIdentifier());
        for (const DebugEvent& event : run.debugEvents)
            if (event.isDelegateInternal() && seen.insert(event.delegateIdentifier()).second)
                ids.push_back(event.delegateIdentifier());
    }
    return ids;
}

std::string dtypeSummary(const std::map<std::string, std::size_t>& dtypes)
{
    std::string text;
    for (const auto& [name, count] : dtypes)
        text += (text.empty() ? "" : ",") + name + ":" + std::to_string(count);
    return text.empty() ? "-" : text;
}

} // namespace

json etdumpInfoJson(const ETDump& dump)
{
    json out;
    out["file_identifier"] = "ED00";
    out["size_prefixed"] = dump.sizePrefixed;
    out["aligned_after_prefix"] = dump.alignedAfterPrefix;
    out["version"] = dump.version;
    json runs = json::array();
    BlockCounts total;
    for (const RunBlock& block : dump.runs) {
        const BlockCounts c = countBlock(block);
        total.profile += c.profile;
        total.delegateProfile += c.delegateProfile;
        total.allocation += c.allocation;
        total.debug += c.debug;
        total.delegateDebug += c.delegateDebug;
        total.output += c.output;
        total.tensors += c.tensors;
        runs.push_back({ { "name", block.name }, { "bundled_input_index", block.bundledInputIndex },
            { "allocators", block.allocators }, { "profile_events", c.profile },
            { "delegate_profile_events", c.delegateProfile }, { "allocation_events", c.allocation },
            { "debug_events", c.debug }, { "delegate_debug_events", c.delegateDebug },
            { "output_debug_events", c.output }, { "tensors", c.tensors } });
    }
    out["run_data"] = std::move(runs);
    json dtypes = json::object();
    for (const auto& [name, count] : tensorDtypes(dump))
        dtypes[name] = count;
    out["totals"] = { { "run_data", dump.runs.size() }, { "execute_blocks", dump.executeBlocks().size() },
        { "profile_events", total.profile }, { "delegate_profile_events", total.delegateProfile },
        { "allocation_events", total.allocation }, { "debug_events", total.debug },
        { "delegate_debug_events", total.delegateDebug }, { "output_debug_events", total.output },
        { "tensors", total.tensors }, { "tensor_dtypes", std::move(dtypes) } };
    json names = json::object();
    for (const auto& [name, count] : eventNames(dump))
        names[name] = count;
    out["event_names"] = std::move(names);
    out["delegate_debug_ids"] = delegateIds(dump);
    json tensors = json::array();
    for (std::size_t r = 0; r < dump.runs.size(); ++r)
        for (const DebugEvent& event : dump.runs[r].debugEvents)
            for (const DebugTensor& tensor : event.value.tensors)
                tensors.push_back({ { "run", r }, { "instruction", event.instructionId.value },
                    { "output", event.value.output }, { "delegate_debug_id", event.delegateIdentifier() },
                    { "dtype", scalarTypeName(tensor.scalarType) }, { "sizes", tensor.sizes },
                    { "strides", tensor.strides }, { "offset", tensor.offset }, { "bytes", tensor.byteSize() },
                    { "in_buffer", dump.buffer ? json(tensor.inBuffer) : json(nullptr) } });
    out["debug_tensors"] = std::move(tensors);
    out["debug_buffer"]
        = dump.buffer ? json { { "path", dump.buffer->path() }, { "size", dump.buffer->file->size() } } : json(nullptr);
    return out;
}

Table etdumpRunsTable(const ETDump& dump, double ticksPerMs)
{
    Table table;
    table.title = "Run blocks";
    table.columns = { "block", "name", "bundled_input", "profile_events", "delegate_profile_events", "debug_events",
        "output_debug_events", "allocation_events", "tensors", "Method::execute (ms)" };
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const RunBlock& block = dump.runs[r];
        const BlockCounts c = countBlock(block);
        std::vector<TableCell> cells { static_cast<long long>(r), block.name,
            block.bundledInputIndex >= 0 ? TableCell(static_cast<long long>(block.bundledInputIndex))
                                         : TableCell(std::string()),
            static_cast<long long>(c.profile), static_cast<long long>(c.delegateProfile),
            static_cast<long long>(c.debug), static_cast<long long>(c.output), static_cast<long long>(c.allocation),
            static_cast<long long>(c.tensors) };
        const auto execute = std::find_if(block.profileEvents.begin(), block.profileEvents.end(),
            [](const ProfileEvent& e) { return e.name == "Method::execute"; });
        cells.push_back(execute == block.profileEvents.end()
                ? TableCell(std::string())
                : TableCell(static_cast<double>(execute->duration()) / ticksPerMs));
        table.rows.push_back(std::move(cells));
    }
    return table;
}

std::string etdumpInfoText(const ETDump& dump)
{
    std::ostringstream out;
    out << "identifier:  ED00 ("
        << (dump.alignedAfterPrefix ? "size-prefixed, aligned after the prefix as ExecuTorch's Python serializer writes"
                   : dump.sizePrefixed ? "size-prefixed"
                                       : "plain")
        << "), version " << dump.version << "\n";
    out << "run blocks:  " << dump.runs.size() << " (" << dump.executeBlocks().size() << " Execute)\n";
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const RunBlock& block = dump.runs[r];
        const BlockCounts c = countBlock(block);
        out << "  [" << r << "] " << block.name << ": " << c.profile << " profile (" << c.delegateProfile
            << " delegate), " << c.debug << " debug (" << c.output << " outputs), " << c.allocation
            << " allocation events";
        if (block.bundledInputIndex >= 0)
            out << ", bundled input " << block.bundledInputIndex;
        out << "\n";
    }
    const auto names = eventNames(dump);
    if (!names.empty()) {
        out << "events:     ";
        for (const auto& [name, count] : names)
            out << " " << name << " ×" << count;
        out << "\n";
    }
    const auto ids = delegateIds(dump);
    if (!ids.empty()) {
        out << "delegate ids:\n";
        for (const std::string& id : ids)
            out << "  " << id << "\n";
    }
    out << "debug tensors: " << dump.tensorCount() << " (" << dtypeSummary(tensorDtypes(dump)) << ")\n";
    if (dump.buffer)
        out << "debug buffer: " << dump.buffer->path() << " (" << formatBytes(dump.buffer->file->size()) << ")\n";
    else if (dump.tensorCount() > 0)
        out << "debug buffer: not attached (give --debug-buffer FILE)\n";
    return out.str();
}

json etrecordInfoJson(const ETRecord& record)
{
    json out;
    out["file_identifier"] = "ETRECORD_V0";
    json entries = json::array();
    for (const ETRecordEntry& entry : record.entries)
        entries.push_back({ { "name", entry.name }, { "size", entry.size }, { "compressed_size", entry.compressedSize },
            { "role", entry.role } });
    out["entries"] = std::move(entries);
    out["methods"] = record.methods();
    json graphs = json::array();
    for (const auto* list : { &record.edgePrograms, &record.otherGraphs })
        for (const ETRecordGraph& graph : *list) {
            json backends = json::array();
            for (const EdgeNode& node : graph.program->nodes)
                if (node.lowered)
                    backends.push_back(node.lowered->backendId);
            graphs.push_back({ { "entry", graph.entry }, { "name", graph.name }, { "method", graph.method },
                { "edge_program", list == &record.edgePrograms }, { "nodes", graph.program->nodes.size() },
                { "nodes_recursive", graph.program->nodeCountRecursive() },
                { "lowered_modules", graph.program->loweredModuleCount() }, { "backends", std::move(backends) },
                { "inputs", graph.program->inputs.size() }, { "outputs", graph.program->outputs.size() },
                { "schema_version", graph.program->schemaVersion } });
        }
    out["graphs"] = std::move(graphs);
    json handles = json::object();
    for (const auto& [method, map] : record.debugHandleMap) {
        std::size_t delegates = 0;
        for (const auto& [instruction, entry] : map)
            delegates += entry.isList ? 1 : 0;
        handles[method] = { { "instructions", map.size() }, { "delegate_instructions", delegates } };
    }
    out["debug_handle_map"] = std::move(handles);
    json delegates = json::object();
    for (const auto& [method, map] : record.delegateMap) {
        std::size_t identifiers = 0;
        std::set<std::string> backends;
        for (const auto& [instruction, entry] : map) {
            identifiers += entry.identifiers.size();
            backends.insert(entry.backend);
        }
        delegates[method]
            = { { "instructions", map.size() }, { "identifiers", identifiers }, { "backends", backends } };
    }
    out["delegate_map"] = std::move(delegates);
    json outs = json::object();
    for (const auto& [method, map] : record.numOutsMap) {
        json m = json::object();
        for (const auto& [instruction, count] : map)
            m[std::to_string(instruction)] = count;
        outs[method] = std::move(m);
    }
    out["instruction_id_to_num_outs_map"] = std::move(outs);
    out["export_graph_id"] = record.exportGraphId ? json(*record.exportGraphId) : json(nullptr);
    return out;
}

std::string etrecordInfoText(const ETRecord& record)
{
    std::ostringstream out;
    out << "identifier:  ETRECORD_V0\n";
    out << "entries:     " << record.entries.size() << "\n";
    for (const ETRecordEntry& entry : record.entries)
        out << "  " << entry.name << "  " << entry.size << " bytes  (" << entry.role << ")\n";
    std::string methods;
    for (const std::string& m : record.methods())
        methods += (methods.empty() ? "" : ", ") + m;
    out << "methods:     " << (methods.empty() ? "-" : methods) << "\n";
    for (const auto* list : { &record.edgePrograms, &record.otherGraphs })
        for (const ETRecordGraph& graph : *list) {
            out << "graph " << graph.entry << ": " << graph.program->nodes.size() << " nodes";
            if (graph.program->loweredModuleCount())
                out << ", " << graph.program->loweredModuleCount() << " lowered module(s), "
                    << graph.program->nodeCountRecursive() << " nodes with their insides";
            out << "\n";
        }
    for (const auto& [method, map] : record.debugHandleMap)
        out << "debug_handle_map[" << method << "]: " << map.size() << " instruction(s)\n";
    for (const auto& [method, map] : record.delegateMap)
        out << "delegate_map[" << method << "]: " << map.size() << " delegate instruction(s)\n";
    for (const auto& [method, map] : record.numOutsMap) {
        out << "num_outs[" << method << "]:";
        for (const auto& [instruction, count] : map)
            out << " " << instruction << "→" << count;
        out << "\n";
    }
    if (record.debugHandleMap.empty() && record.delegateMap.empty())
        out << "maps:        none stored (or empty)\n";
    return out.str();
}

} // namespace etscope::core
