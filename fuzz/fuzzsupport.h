// SPDX-License-Identifier: MIT
// What the fuzz targets share: the programs they build around bare payloads, the selector
// tables that the seed tool must agree with, and the "do what the app does" walks over what a
// reader returned, so that every target reaches the code behind its reader too.
#pragma once

#include "core/debug/etrecord.h"
#include "core/delegates/delegate.h"
#include "core/graph/graph.h"
#include "core/pte/program.h"
#include "core/table/table.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace etscope::fuzz {

/// The describers of the `delegates` target: every backend family but XNNPACK and Vulkan, which
/// have targets of their own. The input's first byte, modulo the count, picks the backend id.
inline constexpr std::array<std::string_view, 6> kOtherBackends
    = { "CoreMLBackend", "OpenvinoBackend", "EthosUBackend", "VgfBackend", "QnnBackend", "MPSBackend" };

/// The named-data key under which payloadProgram() offers the payload itself: decoders that
/// follow named data (Core ML references, XNNPACK, Vulkan and Ethos-U constants) then find bytes.
inline constexpr std::string_view kNamedDataKey = "fuzz";

/// The archive entries the `etrecordjson` target stores its JSON under. Each part of its input
/// starts with a byte that, modulo the count, picks the entry; the reader chooses its parser by
/// these names (core/debug/etrecord.cpp, roleOf).
inline constexpr std::array<std::string_view, 8> kETRecordJsonEntries = {
    "edge_dialect_exported_program",
    "edge_dialect_exported_program/forward",
    "exported_program",
    "edge_after_transform/forward",
    "debug_handle_map",
    "delegate_map",
    "instruction_id_to_num_outs_map",
    "export_graph_id",
};

/// Separates the parts of an `etrecordjson` input: JSON text never holds a NUL byte.
inline constexpr std::uint8_t kPartSeparator = 0;

/// A program around `payload` (copied, so 16-aligned like a mapped file): one method `forward`
/// whose only instruction is a DelegateCall of `backendId` reading value 0 and writing value 1,
/// the payload as segment 0, and the payload again as named data kNamedDataKey.
core::Program payloadProgram(std::span<const std::uint8_t> payload, std::string_view backendId);

/// Describes the delegate of a payloadProgram() with describePayload and builds the method graph
/// around it, as the app does for a real delegate.
void analysePayload(std::span<const std::uint8_t> payload, std::string_view backendId);

/// What the app does with an opened program: every delegate described, then per method the
/// graph built, its operator table counted and the graph flattened with every delegate expanded.
/// Checks the program's ranges first (requireRangesInside).
void analyseProgram(const core::Program& program);
/// The program as an opened document (graphs built), through the analyses of check, memory,
/// size and diff (against itself), every table and JSON rendered.
void analyseProgramDocument(core::Program program);

/// The operator table and the fully expanded flattening of a graph.
void analyseGraph(const core::Graph& graph);

/// What the app and the CLI do with an opened ETRecord: graphs of every stored program, the
/// operator table of every method, delegate-map lookups and the info printouts.
void analyseETRecord(const core::ETRecord& record);

/// The readers promise that every range they return lies inside the file. Aborts (a finding,
/// with the input saved by libFuzzer) naming `what` when `range` does not fit `fileSize` bytes.
void requireInside(std::uint64_t fileSize, const core::ByteRange& range, std::string_view what);

/// requireInside for every range a program holds: segments, inline and legacy data, named data,
/// delegate payloads and tensor data.
void requireRangesInside(const core::Program& program);

/// Renders `table` in every format the CLI offers.
void renderEverywhere(const core::Table& table);

} // namespace etscope::fuzz
