// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One MPSTensor (facts sheet §3.3).
struct MpsTensorSpec {
    int datatype = 2; ///< MPSDataType in the sheet's numbering (2 = f32)
    std::vector<std::int32_t> dims;
    std::uint64_t constantSize = 0; ///< constant_buffer_size; 0 for non-constants
    std::uint64_t segmentOffset = 0; ///< into the constant segment
};

/// An MPSGraph. Nodes are given by their union tag only: the sheet does not list the member
/// parameter tables, so each node is written with an empty one.
struct MpsGraphSpec {
    std::string version = "0";
    std::vector<std::uint8_t> nodeTags;
    std::vector<MpsTensorSpec> values;
    std::vector<std::int32_t> inputIds;
    std::vector<std::int32_t> outputIds;
    std::vector<std::int32_t> constantIds;
    int graphType = 0; ///< 0 mps_graph, 1 metal_kernel
    std::vector<std::uint8_t> constantSegment; ///< written after the graph, 16-aligned
};

/// Writes an MPS delegate payload (facts sheet §3.3): bytes 0–3 zero, "MP00", uint64 offset
/// and size of the constant segment at 8 and 16, the MPSGraph FlatBuffer (identifier MP00)
/// from byte 24, then the constant segment.
std::vector<std::uint8_t> writeMpsPayload(const MpsGraphSpec& graph);

} // namespace etscope::core
