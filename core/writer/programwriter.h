// SPDX-License-Identifier: MIT
#pragma once

#include "core/writer/programspec.h"

#include "core/util/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace etscope::core {

struct ProgramWriteOptions {
    enum class ConstantStorage {
        Segment, ///< the constant segment with SubsegmentOffsets (every file since 2024-09)
        Inline, ///< the deprecated Program.constant_buffer (older files)
    };
    ConstantStorage constants = ConstantStorage::Segment;
    /// Create the constant segment (segments[0]) even when no tensor has constant bytes, as the
    /// emitter does. false: no constant segment without constants, which makes a program with
    /// no segments at all (and then no extended header) possible.
    bool alwaysConstantSegment = true;
    std::uint64_t constantAlignment = 16; ///< padding after each constant tensor but the last
    std::uint64_t segmentAlignment = 128;
    bool extractDelegateSegments = true; ///< DelegateSpec::Placement::Auto → segment when non-empty
    bool dedupeDelegateSegments = true; ///< byte-identical delegate blobs share one segment
    std::uint32_t headerLength = 32; ///< 32 since ExecuTorch 1.0, 24 before; ≥ 24
    std::uint64_t headerAlignment = 16; ///< the spliced header is padded to a multiple of this
    std::string identifier = "ET12"; ///< 4 characters; anything else is for reader tests
};

/// The layout the writer chose, for tests that check the bytes themselves.
struct ProgramLayout {
    std::uint64_t programSize = 0; ///< FlatBuffer incl. spliced header (the whole file without segments)
    std::uint64_t headerPadded = 0; ///< bytes inserted at 8 (0: no extended header)
    std::uint64_t segmentBaseOffset = 0;
    std::uint64_t segmentDataSize = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> segments; ///< (offset rel. to base, size)
    std::optional<std::uint32_t> constantSegment;
    std::optional<std::uint32_t> mutableSegment;
};

/// Serialises `spec` as a .pte (facts sheet §1.1–1.4): FlatBuffer with the identifier, then,
/// when there is at least one segment, the `eh00` extended header spliced in at byte 8 and the
/// segments (constant, mutable data, delegates, named data) at `segmentAlignment`. Indices in
/// the description are written as given, never checked, so tests can build broken programs.
/// Fails (Error::Usage) only for impossible options: alignment 0, header length below 24, an
/// identifier that is not 4 characters.
Result<std::vector<std::uint8_t>> writeProgram(
    const ProgramSpec& spec, const ProgramWriteOptions& options = {}, ProgramLayout* layout = nullptr);

/// Writes bytes to `path` atomically (core/util/atomicfile.h); Error::Io on failure.
std::optional<Error> writeBytesToFile(const std::string& path, std::span<const std::uint8_t> bytes);

} // namespace etscope::core
