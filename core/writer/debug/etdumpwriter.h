// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"

#include <cstdint>
#include <span>
#include <vector>

namespace etscope::core {

struct ETDumpWriteOptions {
    bool sizePrefixed = true; ///< the runtime always writes the size-prefixed form (facts sheet §4.1)
    /// Leave out scalars equal to their schema default, as flatcc does; false writes them all.
    bool omitDefaults = true;
    std::uint32_t version = 0;
};

/// Writes run blocks as an ETDump FlatBuffer (identifier ED00, layout of facts sheet §4.2).
/// Within a block, events are written in `sequence` order across the three kinds (ties: profile,
/// allocation, debug). `DebugTensor::inBuffer` is not stored (it is a reader's finding).
std::vector<std::uint8_t> writeETDump(const std::vector<RunBlock>& runs, const ETDumpWriteOptions& options = {});

/// Builds a debug buffer as BufferDataSink does (facts sheet §4.3): the first tensor at
/// `firstOffset`, each later one at the next offset congruent to it modulo `alignment` (the sink
/// aligns absolute addresses; a calloc'ed block is only 16-aligned, hence the real files' 48).
/// Padding is zeroed.
class DebugBufferWriter {
public:
    explicit DebugBufferWriter(std::size_t alignment = 64, std::size_t firstOffset = 0);

    /// Appends raw bytes; returns the offset to store in DebugTensor::offset (-1 when empty).
    std::int64_t append(std::span<const std::uint8_t> bytes);
    /// Encodes `values` as `scalarType` (little-endian) and appends them.
    std::int64_t appendValues(int scalarType, const std::vector<double>& values);

    const std::vector<std::uint8_t>& bytes() const { return m_bytes; }

private:
    std::size_t m_alignment;
    std::size_t m_first;
    std::size_t m_next = 0;
    std::vector<std::uint8_t> m_bytes;
};

/// One logged tensor as the runtime writes it (facts sheet §4.3): contiguous strides, its bytes
/// appended to `buffer`, a Tensor value (raw kind 5). A program output (`output`) is logged after
/// execution, outside every chain (chain UINT64_MAX); the caller sets `sequence` and, for a
/// delegate's own intermediate output, `delegateDebugIdInt` or `delegateDebugIdStr`.
DebugEvent tensorDebugEvent(DebugBufferWriter& buffer, InstructionId instruction, int scalarType,
    std::vector<std::int64_t> sizes, const std::vector<double>& values, bool output = false);

/// A profiling event of instruction `instruction` in chain `chain` (-1: a framework event such
/// as Method::execute) from `start` to `end`; `name` empty for a delegate-internal event, whose
/// caller then sets its delegate id. `sequence` is its position among the run's events.
ProfileEvent profileEvent(
    std::string name, int chain, int instruction, std::uint64_t start, std::uint64_t end, std::size_t sequence = 0);

/// Encodes float64 values as little-endian elements of `scalarType` (integers truncate, BOOL is
/// value != 0, HALF/BFLOAT16 round to nearest even). Empty for dtypes without an encoding.
std::vector<std::uint8_t> encodeElements(int scalarType, const std::vector<double>& values);

} // namespace etscope::core
