// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string_view>
#include <vector>

namespace etscope::core {

/// Appends `value` little-endian to `out` (every header integer of the formats is LE).
void appendLe16(std::vector<std::uint8_t>& out, std::uint16_t value);
void appendLe32(std::vector<std::uint8_t>& out, std::uint32_t value);
void appendLe64(std::vector<std::uint8_t>& out, std::uint64_t value);
/// Overwrites 4 bytes at `at` (the caller checks bounds).
void storeLe32(std::uint8_t* at, std::uint32_t value);

/// `value` rounded up to a multiple of `alignment` (> 0; need not be a power of two).
std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment);

/// The blobs appended after a FlatBuffer (.pte and .ptd segments, facts sheet §1.3 and §1.9):
/// each starts at a multiple of lcm(segment alignment, blob alignment) relative to the segment
/// base (itself aligned to the segment alignment), padding is zero, and the last blob has no
/// trailing padding. Borrowed blobs must outlive the table; owned ones are kept inside it.
class SegmentTable {
public:
    explicit SegmentTable(std::uint64_t segmentAlignment);

    /// Places `bytes` and returns its segment index. With a `dedupeGroup` other than 0, a blob
    /// byte-identical to one placed earlier in the same group returns that blob's index instead
    /// (delegate blobs and named data are de-duplicated separately, as the exporter does).
    std::uint32_t add(std::span<const std::uint8_t> bytes, std::uint64_t blobAlignment = 1, int dedupeGroup = 0);
    /// Same, keeping a copy of `bytes` (for blobs the writer assembles itself).
    std::uint32_t addOwned(std::vector<std::uint8_t> bytes, std::uint64_t blobAlignment = 1);

    struct Placed {
        std::uint64_t offset = 0; ///< relative to the segment base
        std::uint64_t size = 0;
    };
    const std::vector<Placed>& placed() const { return m_placed; }
    bool empty() const { return m_placed.empty(); }
    /// Bytes from the segment base to the end of the last blob.
    std::uint64_t dataSize() const { return m_end; }
    std::uint64_t segmentAlignment() const { return m_alignment; }

    /// Appends zero padding up to `segmentBase` (which must be ≥ out.size()), then every blob.
    void appendTo(std::vector<std::uint8_t>& out, std::uint64_t segmentBase) const;

private:
    std::uint64_t m_alignment;
    std::uint64_t m_end = 0;
    std::vector<Placed> m_placed;
    std::vector<std::span<const std::uint8_t>> m_bytes;
    std::deque<std::vector<std::uint8_t>> m_owned;
    std::multimap<std::pair<int, std::size_t>, std::uint32_t> m_byHash;
};

/// Inserts `header` (zero-padded to a multiple of `alignment`) after byte 7 of a finished
/// FlatBuffer and adds the padded length to the root offset at byte 0, exactly as ExecuTorch
/// splices its extended headers (facts sheet §1.1): every other offset is relative to its own
/// position, so the FlatBuffer stays valid. Returns the padded header length.
std::size_t spliceHeader(
    std::vector<std::uint8_t>& flatbuffer, std::span<const std::uint8_t> header, std::uint64_t alignment);

/// Error::Usage naming the writer ("program writer", …) when an alignment is 0.
std::optional<Error> checkAlignment(std::string_view writer, std::string_view what, std::uint64_t alignment);

} // namespace etscope::core
