// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace etscope::core {

/// Damage and variants for the VGF fixture (see core/delegates/vgf.cpp for the layout).
struct VgfWriteOptions {
    bool legacyConstants = false; ///< the old FlatBuffer constant section instead of CONST00
    bool computeModule = false; ///< a COMPUTE module holding GLSL text instead of the SPIR-V graph
    /// Replace a section's offset in the header (0 module, 1 sequence, 2 resources, 3 constants).
    std::array<std::optional<std::uint64_t>, 4> sectionOffset;
    std::optional<std::uint64_t> constantCount; ///< replace CONST00's count
    bool truncatedSpirv = false; ///< the last SPIR-V instruction claims more words than remain
    std::uint32_t tosaInstruction = 14; ///< the first operation (14: ADD); 200 is no TOSA instruction
};

/// The SPIR-V graph module of the fixture: graph input 0 (INT8 [1, 4]) + graph constant 0
/// (INT8 [1, 4]) through TOSA ADD, then CLAMP (min -100, max 100, nan_mode PROPAGATE) to graph
/// output 0. SPIR-V 1.5 with SPV_ARM_tensors, SPV_ARM_graph and the TOSA.001000.1 set.
std::vector<std::uint32_t> smallTosaSpirvGraph(const VgfWriteOptions& options = {});

/// A VGF 0.4.0 file (the VgfBackend payload): one GRAPH module "graph_partition_0" with the
/// SPIR-V above, one GRAPH segment "graph_segment_0" (input resource 0, output resource 1,
/// constant 0), three resources (0 INPUT INT8 [1, 4], 1 OUTPUT INT8 [1, 4], 2 CONSTANT INT8
/// [1, 4]) and one constant (resource 2, bytes 1 2 3 4). Model input named "in0", output "out0".
std::vector<std::uint8_t> writeSmallVgf(const VgfWriteOptions& options = {});

} // namespace etscope::core
