// SPDX-License-Identifier: MIT
#pragma once

#include "fuzz/seedwriter.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace etscope::fuzz {

/// Seeds for inputs no sample has, written by the project's own writers (core/writer): Vulkan,
/// Core ML and MPS payloads, and Inspector tables in every text form the reader accepts.
void writeSyntheticSeeds(SeedWriter& out);

/// ETRecord maps with content (the samples' are empty) as `etrecordjson` parts, joined by
/// kPartSeparator: debug_handle_map, delegate_map, instruction_id_to_num_outs_map, export_graph_id.
std::vector<std::uint8_t> syntheticETRecordMaps();

/// Writes `parts` (an `etrecordjson` input) as a real ETRecord archive into the `etrecord` corpus,
/// so the whole-archive target starts from maps with content too.
void writeETRecordArchiveSeed(SeedWriter& out, const std::string& name, std::span<const std::uint8_t> parts);

} // namespace etscope::fuzz
