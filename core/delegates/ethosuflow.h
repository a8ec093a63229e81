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

#include <cstdint>
#include <map>
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

/// The latest writer of every byte of the eight regions, kept as disjoint segments.
class LastWriters {
public:
    static constexpr int kRegions = 8;

    /// `writer` becomes the latest writer of every byte of `runs` (sorted, disjoint).
    void write(int region, std::span<const ByteRun> runs, std::uint32_t writer);

    /// Calls `found(writer)` once per segment of a writer that overlaps `runs` (sorted, disjoint),
    /// in address order; returns how many bytes of `runs` no writer has written.
    template <class Found> std::uint64_t read(int region, std::span<const ByteRun> runs, Found&& found) const
    {
        if (region < 0 || region >= kRegions)
            return 0;
        const Map& map = m_regions[static_cast<std::size_t>(region)];
        std::uint64_t uncovered = 0;
        for (const ByteRun& run : runs) {
            std::uint64_t covered = run.begin; // bytes of the run before this are accounted for
            auto it = map.upper_bound(run.begin);
            if (it != map.begin() && std::prev(it)->second.end > run.begin)
                --it;
            for (; it != map.end() && it->first < run.end; ++it) {
                found(it->second.writer);
                if (it->first > covered)
                    uncovered += it->first - covered;
                covered = std::max(covered, std::min(it->second.end, run.end));
            }
            if (run.end > covered)
                uncovered += run.end - covered;
        }
        return uncovered;
    }

    std::size_t segments() const;

private:
    struct Segment {
        std::uint64_t end = 0;
        std::uint32_t writer = 0;
    };
    using Map = std::map<std::uint64_t, Segment>;
    void writeRun(Map& map, ByteRun run, std::uint32_t writer);
    std::array<Map, kRegions> m_regions;
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
