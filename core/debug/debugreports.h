// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/table/table.h"

#include <nlohmann/json.hpp>

#include <string>

namespace etscope::core {

/// `etscope info --json` fields of an ETDump: file_identifier, size_prefixed, version, per-block
/// counts (run_data), totals with tensor dtypes, event_names, delegate_debug_ids, every
/// debug tensor (dtype, sizes, offset, bytes, in_buffer) and the attached debug_buffer.
nlohmann::ordered_json etdumpInfoJson(const ETDump& dump);

/// The same facts as readable text (tensors summarised per dtype).
std::string etdumpInfoText(const ETDump& dump);

/// One row per run block: block, name, bundled_input, profile_events, delegate_profile_events,
/// debug_events, output_debug_events, allocation_events, tensors and, where the block timed it,
/// Method::execute in ms (at `ticksPerMs`).
Table etdumpRunsTable(const ETDump& dump, double ticksPerMs = 1e6);

/// `etscope info --json` fields of an ETRecord: file_identifier, entries (name, size, role),
/// methods, graphs (node counts, lowered modules and their backends), the three maps summarised
/// and instruction_id_to_num_outs_map in full.
nlohmann::ordered_json etrecordInfoJson(const ETRecord& record);

std::string etrecordInfoText(const ETRecord& record);

} // namespace etscope::core
