// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etrecord.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One archive entry as written: raw bytes under any name (hostile names included, for tests).
struct ZipWriteEntry {
    std::string name;
    std::string data;
    bool compress = false; ///< deflate instead of storing (Python's zipfile default is to store)
};

/// Writes a ZIP archive with libzip. Error::Io when libzip refuses.
Result<std::vector<std::uint8_t>> writeZip(const std::vector<ZipWriteEntry>& entries);

/// What an ETRecord writer puts in the archive (facts sheet §5.1). Edge programs reuse the
/// reader's value types; their JSON follows §5.2/5.3 in the compact union encoding.
struct ETRecordWriteSpec {
    std::vector<std::pair<std::string, EdgeProgram>> edgePrograms; ///< method → program
    bool legacyEdgeEntry = false; ///< one unsuffixed `edge_dialect_exported_program` (records before 2026-02)
    std::vector<std::pair<std::string, EdgeProgram>> extraGraphs; ///< "edge_after_transform/forward" → program
    std::map<std::string, std::map<int, DebugHandleEntry>> debugHandleMap;
    std::map<std::string, std::map<int, DelegateMapEntry>> delegateMap;
    std::map<std::string, std::map<int, int>> numOutsMap;
    std::vector<ZipWriteEntry> extraEntries; ///< anything else, written as given
    bool marker = true; ///< the ETRECORD_V0 entry
};

/// The serialized-program JSON of an EdgeProgram: graph_module.graph with inputs, outputs,
/// nodes (name, target, inputs as {name, arg}, outputs, metadata with debug_handle,
/// stack_trace, nn_module_stack) and tensor_values; lowered modules as an `as_string` first
/// input holding backend_id, processed_bytes, compile_specs and original_module.
nlohmann::json edgeProgramJson(const EdgeProgram& program);

/// Writes an ETRecord archive from `spec`.
Result<std::vector<std::uint8_t>> writeETRecord(const ETRecordWriteSpec& spec);

} // namespace etscope::core
