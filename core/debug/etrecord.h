// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/edgeprogram.h"
#include "core/stats/operatortable.h"
#include "core/util/mappedfile.h"
#include "core/util/result.h"
#include "core/util/ziparchive.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// One entry of the ETRecord archive and what ETScope made of it.
struct ETRecordEntry {
    std::string name;
    std::uint64_t size = 0;
    std::uint64_t compressedSize = 0;
    /// "marker", "edge_program", "exported_program", "graph", "companion" (torch.save archives:
    /// state dicts, constants, example inputs), "debug_handle_map", "delegate_map",
    /// "instruction_id_to_num_outs_map", "export_graph_id", "reference_outputs",
    /// "representative_inputs" or "unknown".
    std::string role;
};

/// A serialized program stored in the archive: the edge program of a method, the ATen
/// `exported_program`, or an extra graph of the graph map ("edge_after_transform/forward").
struct ETRecordGraph {
    std::string entry; ///< archive entry name
    std::string name; ///< entry name without the method suffix
    std::string method; ///< "forward" for the legacy unsuffixed edge program
    std::shared_ptr<const EdgeProgram> program;
};

/// `delegate_map[method][instruction]` (facts sheet §2.3).
struct DelegateMapEntry {
    std::string backend; ///< the "name" field: backend id
    /// delegate debug identifier → AOT debug handles, in the order the JSON lists them (the
    /// Inspector's substring rule depends on it).
    std::vector<std::pair<std::string, std::vector<DebugHandle>>> identifiers;
};

/// instruction id → handles. KernelCall entries hold one handle, DelegateCall entries a list
/// (`isList` tells them apart, as the JSON does).
struct DebugHandleEntry {
    std::vector<DebugHandle> handles;
    bool isList = false;
};

/// An opened ETRecord (facts sheet §5). Pickled pieces are listed, not decoded.
struct ETRecord {
    std::string path;
    std::vector<ETRecordEntry> entries;
    std::vector<ETRecordGraph> edgePrograms; ///< one per method
    std::vector<ETRecordGraph> otherGraphs; ///< exported_program and graph-map graphs
    std::map<std::string, std::map<int, DebugHandleEntry>> debugHandleMap;
    std::map<std::string, std::map<int, DelegateMapEntry>> delegateMap;
    std::map<std::string, std::map<int, int>> numOutsMap; ///< instruction_id_to_num_outs_map
    std::optional<std::int64_t> exportGraphId;
    std::vector<Warning> warnings;

    /// The edge program of `method`; with an empty name `forward`, else the first; nullptr when none.
    const ETRecordGraph* edgeProgram(std::string_view method = {}) const;
    /// Outputs per DelegateCall instruction of `method` (empty when the map is absent).
    std::map<int, int> delegateOutputCounts(std::string_view method) const;
    /// The same for every method, shaped for OpenOptions::delegateOutputCounts.
    std::map<std::string, std::map<int, int>> allDelegateOutputCounts() const;
    /// Method names found in any of the graphs and maps.
    std::vector<std::string> methods() const;
    /// Handles of an instruction (empty when the map has none).
    std::vector<DebugHandle> handlesOf(std::string_view method, int instruction) const;
    /// The AOT handles a delegate-internal identifier stands for, following the Inspector
    /// (facts sheet §2.4): exact key, then every key that is a substring of the identifier, the
    /// last one winning. nullopt when the instruction has no delegate_map entry.
    std::optional<std::vector<DebugHandle>> delegateHandles(
        std::string_view method, int instruction, const std::string& identifier) const;
};

/// Limits for reading an ETRecord; the zip limits guard the archive, `maxJsonBytes` each
/// JSON entry that is parsed.
struct ETRecordLimits {
    ZipLimits zip;
    std::uint64_t maxJsonBytes = 512ull << 20;
    int maxLoweredDepth = 8;
};

/// Reads an ETRecord archive. Fails when the bytes are not a ZIP archive, the archive breaks a
/// limit, the `ETRECORD_V0` marker is missing (Error::BadIdentifier) or a map entry is not
/// valid JSON (Error::Corrupt, naming the entry). Graph entries that cannot be parsed become
/// warnings: the rest of the record stays usable.
Result<ETRecord> readETRecord(std::shared_ptr<const MappedFile> file, const ETRecordLimits& limits = {});
Result<ETRecord> readETRecordFile(const std::string& path, const ETRecordLimits& limits = {});

/// get_delegation_info over a post-lowering edge graph, exactly (facts sheet §8): every
/// top-level call_function node but `executorch_call_delegate` counts as non-delegated
/// (getitem included); every node of each distinct lowered module's original graph counts as
/// delegated. `source` is "etrecord".
OperatorTable delegationInfo(const EdgeProgram& program);

/// The operator table of `method` from an ETRecord: exact when one of its graphs for the method
/// holds lowered modules; otherwise the §8 approximation over the pre-lowering edge graph (a
/// node is delegated when its handle is in a DelegateCall's handle list; subgraphs = DelegateCall
/// entries), `source` "etrecord (approximate: pre-lowering graph)". Error::Usage when the
/// record has no edge program for the method.
Result<OperatorTable> etrecordOperatorTable(const ETRecord& record, std::string_view method);

} // namespace etscope::core
