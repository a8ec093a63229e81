// SPDX-License-Identifier: MIT
// The exact bytes an Ethos-U operation reads or writes, as sorted runs per region, and the
// latest writer of every byte: what the data-flow edges of an Ethos-U inner graph are made of
// (ethosu.cpp). A feature map with strides that leave gaps (a transpose written column by
// column, an NHCWB16 brick only partly filled) touches many short runs; a range from its lowest
// to its highest byte would claim the gaps too, and a later writer of the range would hide every
// earlier writer of its gaps (issue 36).
#pragma once

#include "core/delegates/ethosucommands.h"
#include "core/pte/program.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace etscope::core::ethosu {

/// Bytes [begin, end) of one region.
struct ByteRun {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    friend bool operator==(const ByteRun&, const ByteRun&) = default;
};

/// The bytes of `access`: its blocks expanded into runs, sorted, touching runs merged. An
/// access without blocks is its whole [begin, end). At most `maxRuns` runs (at least 1): a finer
/// set is coarsened, axis by axis from the finest, by counting the gaps between the runs of an
/// axis as touched (a superset, never a subset), and `coarsened` is then set.
std::vector<ByteRun> accessRuns(const RegionAccess& access, std::size_t maxRuns, bool& coarsened);

/// The latest writer of every byte of the eight regions, kept per region as a sorted array of
/// disjoint segments. A write replaces the window of segments between its first and last byte in
/// one pass (the old segments minus the runs, merged with the runs) and moves the segments after
/// the window once; a read walks the array from a binary search. Each access costs its own runs
/// plus the segments inside its span, never a search per run in a tree: the per-node map this
/// replaces spent 60 ms (Debug) on the 56,115 runs of mobilenet_v2_ethosu's stream.
class LastWriters {
public:
    static constexpr int kRegions = 8;

    /// `writer` becomes the latest writer of every byte of `runs` (sorted, disjoint).
    void write(int region, std::span<const ByteRun> runs, std::uint32_t writer);

    /// Calls `found(writer)` once per segment of a writer that overlaps a run of `runs` (sorted,
    /// disjoint), in address order; returns how many bytes of `runs` no writer has written.
    template <class Found> std::uint64_t read(int region, std::span<const ByteRun> runs, Found&& found) const
    {
        if (region < 0 || region >= kRegions || runs.empty())
            return 0;
        const std::vector<Segment>& segments = m_regions[static_cast<std::size_t>(region)];
        const std::size_t n = segments.size();
        std::uint64_t uncovered = 0;
        std::size_t at = firstEndingAfter(segments, 0, runs.front().begin);
        for (const ByteRun& run : runs) {
            if (at < n && segments[at].end <= run.begin)
                at = gallop(segments, at + 1, run.begin);
            std::uint64_t covered = run.begin; // bytes of the run before this are accounted for
            std::size_t next = at;
            for (; next < n && segments[next].begin < run.end; ++next) {
                const Segment& segment = segments[next];
                found(segment.writer);
                if (segment.begin > covered)
                    uncovered += segment.begin - covered;
                covered = std::max(covered, std::min(segment.end, run.end));
            }
            if (run.end > covered)
                uncovered += run.end - covered;
            // The last segment met may reach into the next run; the ones before it end in this one.
            if (next > at)
                at = next - 1;
        }
        return uncovered;
    }

    std::size_t segments() const;

private:
    /// Trivial (no member initialisers, always built with braces): vectors of it grow and move
    /// by memmove, not element by element, in a Debug build too.
    struct Segment {
        std::uint64_t begin;
        std::uint64_t end;
        std::uint32_t writer;
    };
    /// The first segment at or after `from` whose end is past `address` (segments are sorted and
    /// disjoint, so their ends ascend too).
    /// Only [from, to) is searched (`to` clamped to the size); `to` when none there ends after.
    static std::size_t firstEndingAfter(const std::vector<Segment>& segments, std::size_t from, std::uint64_t address,
        std::size_t to = static_cast<std::size_t>(-1))
    {
        std::size_t low = from;
        std::size_t high = std::min(to, segments.size());
        while (low < high) {
            const std::size_t mid = low + (high - low) / 2;
            if (segments[mid].end <= address)
                low = mid + 1;
            else
                high = mid;
        }
        return low;
    }
    /// As firstEndingAfter, searching outwards from `from` first: the next run of a read
    /// usually starts in one of the next few segments.
    static std::size_t gallop(const std::vector<Segment>& segments, std::size_t from, std::uint64_t address)
    {
        std::size_t step = 1;
        std::size_t low = from;
        while (low < segments.size() && segments[low].end <= address) {
            const std::size_t probe = low + step;
            if (probe >= segments.size() || segments[probe].end > address) {
                return firstEndingAfter(segments, low + 1, address, probe);
            }
            low = probe;
            step *= 2;
        }
        return low;
    }
    std::array<std::vector<Segment>, kRegions> m_regions;
    std::vector<Segment> m_kept; ///< scratch: the window's old segments minus the runs
    std::vector<Segment> m_window; ///< scratch: the window's new segments
};

/// What an Ethos-U payload's data flow leaves unexplained (the self-check of innercheck.h).
struct FlowCheck {
    bool decoded = false; ///< a command stream was replayed into an inner graph
    std::size_t reads = 0; ///< accesses read by operations (feature maps, weights, scales, DMA sources)
    std::uint64_t readBytes = 0;
    std::size_t uncoveredReads = 0; ///< accesses with bytes no earlier operation, input or weight block wrote
    std::uint64_t uncoveredBytes = 0;
    std::vector<std::string> uncovered; ///< the first 50 of them, described
    std::vector<std::string> unwrittenOutputs; ///< outputs no operation writes
};

/// Decodes an Ethos-U payload as decodeEthosU does and reports its reads of bytes that nothing
/// wrote before them. Never fails: a payload that is no command stream gives `decoded` false.
FlowCheck checkDataFlow(const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload);

} // namespace etscope::core::ethosu
