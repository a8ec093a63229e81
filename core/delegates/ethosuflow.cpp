// SPDX-License-Identifier: MIT
// Expands an access's strided blocks into byte runs and keeps the latest writer of every byte.
//
// A block is `run` bytes at base + Σ i_k·stride_k. An axis whose stride is at most the run
// length (after the finer axes are folded in) makes the runs touch or overlap, so it folds into
// one longer run: an NHWC map whose x stride is its depth·size is one run per row, and one run
// in all when the y stride is a row. Only the axes that leave gaps are enumerated, so the work is
// the number of runs the set really has, and that number is capped before anything is made.
#include "core/delegates/ethosuflow.h"

#include <algorithm>
#include <array>
#include <limits>

namespace etscope::core::ethosu {

namespace {

/// A block with its axes made positive, sorted by stride, and folded where runs touch.
struct Shape {
    std::int64_t base = 0;
    std::int64_t run = 0;
    std::array<AccessAxis, 3> axes {};
    int count = 0; ///< axes in use, finest first

    std::uint64_t runs() const
    {
        std::uint64_t n = 1;
        for (int i = 0; i < count; ++i)
            n *= static_cast<std::uint64_t>(axes[static_cast<std::size_t>(i)].count); // ≤ 2^48: counts ≤ 2^16
        return n;
    }

    /// Folds the finest axes whose runs touch (stride ≤ run) into the run.
    void fold()
    {
        while (count > 0 && axes[0].stride <= run)
            fillFinest();
    }

    /// Counts the finest axis's gaps as touched: its runs become one.
    void fillFinest()
    {
        run += (axes[0].count - 1) * axes[0].stride;
        std::copy(axes.begin() + 1, axes.begin() + count, axes.begin());
        --count;
    }
};

Shape shapeOf(const AccessBlock& block)
{
    Shape shape;
    shape.base = block.base;
    shape.run = std::max<std::int64_t>(0, block.runBytes);
    for (const AccessAxis& axis : block.axes) {
        if (axis.count <= 1 || axis.stride == 0)
            continue; // one step, or every step on the same bytes
        AccessAxis a = axis;
        if (a.stride < 0) {
            // The same bytes walked upwards from the lowest step.
            shape.base += (a.count - 1) * a.stride;
            a.stride = -a.stride;
        }
        shape.axes[static_cast<std::size_t>(shape.count++)] = a;
    }
    std::sort(shape.axes.begin(), shape.axes.begin() + shape.count,
        [](const AccessAxis& a, const AccessAxis& b) { return a.stride < b.stride; });
    shape.fold();
    return shape;
}

/// Appends the runs of `shape` to `out`, coarsest axis outermost: ascending addresses unless
/// the steps of two axes interleave (then the caller sorts them).
void emit(const Shape& shape, std::vector<ByteRun>& out)
{
    const AccessAxis one { 1, 0 };
    const AccessAxis& a0 = shape.count > 0 ? shape.axes[0] : one;
    const AccessAxis& a1 = shape.count > 1 ? shape.axes[1] : one;
    const AccessAxis& a2 = shape.count > 2 ? shape.axes[2] : one;
    const std::size_t first = out.size();
    out.resize(first + static_cast<std::size_t>(shape.runs()));
    ByteRun* next = out.data() + first;
    for (std::int64_t k = 0; k < a2.count; ++k)
        for (std::int64_t j = 0; j < a1.count; ++j) {
            std::int64_t offset = shape.base + k * a2.stride + j * a1.stride;
            for (std::int64_t i = 0; i < a0.count; ++i, offset += a0.stride) {
                const std::int64_t end = offset + shape.run;
                if (end <= 0)
                    continue; // wholly below address 0
                next->begin = static_cast<std::uint64_t>(std::max<std::int64_t>(0, offset));
                next->end = static_cast<std::uint64_t>(end);
                ++next;
            }
        }
    out.resize(static_cast<std::size_t>(next - out.data()));
}

bool beginsBefore(const ByteRun& a, const ByteRun& b)
{
    return a.begin < b.begin;
}

} // namespace

std::vector<ByteRun> accessRuns(const RegionAccess& access, std::size_t maxRuns, bool& coarsened)
{
    coarsened = false;
    std::vector<ByteRun> out;
    if (access.end <= access.begin)
        return out;
    if (access.blocks.empty()) {
        out.push_back({ access.begin, access.end });
        return out;
    }
    maxRuns = std::max<std::size_t>(maxRuns, 1);
    std::vector<Shape> shapes;
    shapes.reserve(access.blocks.size());
    for (const AccessBlock& block : access.blocks) {
        Shape shape = shapeOf(block);
        if (shape.run > 0)
            shapes.push_back(shape);
    }
    const auto total = [&] {
        std::uint64_t n = 0;
        for (const Shape& s : shapes)
            n += s.runs();
        return n;
    };
    // Too fine: fill the gaps of the block with the most runs, its finest axis first. Each step
    // removes an axis, so this ends after at most three steps per block.
    while (total() > maxRuns) {
        auto most = std::max_element(
            shapes.begin(), shapes.end(), [](const Shape& a, const Shape& b) { return a.runs() < b.runs(); });
        if (most->count == 0)
            break; // one run per block already
        most->fillFinest();
        most->fold();
        coarsened = true;
    }
    if (total() > maxRuns) {
        // More blocks than runs allowed (tiles and bricks: at most eight): the whole range.
        out.push_back({ access.begin, access.end });
        return out;
    }
    // Each block's runs, ascending (sorted here in the rare case of interleaving axes), then
    // merged across blocks (at most eight: four tiles, full and partial bricks) in one pass.
    std::vector<ByteRun> runs;
    runs.reserve(static_cast<std::size_t>(total()));
    constexpr std::size_t kMergedBlocks = 16;
    std::array<std::size_t, kMergedBlocks + 1> starts {};
    std::size_t blocks = 0;
    for (const Shape& shape : shapes) {
        const auto first = static_cast<std::ptrdiff_t>(runs.size());
        emit(shape, runs);
        bool sorted = true;
        for (const ByteRun* run = runs.data() + first + 1; sorted && run < runs.data() + runs.size(); ++run)
            sorted = run[-1].begin <= run->begin;
        if (!sorted)
            std::sort(runs.begin() + first, runs.end(), beginsBefore);
        if (blocks < kMergedBlocks)
            starts[blocks] = static_cast<std::size_t>(first);
        ++blocks;
    }
    if (blocks > kMergedBlocks) {
        // More blocks than the replay ever makes: one sorted list.
        std::sort(runs.begin(), runs.end(), beginsBefore);
        blocks = 1;
    }
    starts[blocks] = runs.size();
    // Touching and overlapping runs merge as they are appended: in place for one block (the
    // write never overtakes the read), else into a list of their own.
    if (blocks > 1)
        out.resize(runs.size());
    ByteRun* const out0 = blocks > 1 ? out.data() : runs.data();
    ByteRun* last = nullptr;
    const auto append = [&](const ByteRun& run) {
        if (last && run.begin <= last->end)
            last->end = std::max(last->end, run.end);
        else
            *(last = last ? last + 1 : out0) = run;
    };
    const ByteRun* const all = runs.data();
    if (blocks == 1) {
        for (const ByteRun* run = all; run != all + runs.size(); ++run)
            append(*run);
    } else {
        std::array<std::size_t, kMergedBlocks + 1> cursor = starts;
        for (;;) {
            std::size_t pick = blocks;
            for (std::size_t b = 0; b < blocks; ++b)
                if (cursor[b] < starts[b + 1] && (pick == blocks || all[cursor[b]].begin < all[cursor[pick]].begin))
                    pick = b;
            if (pick == blocks)
                break;
            append(all[cursor[pick]++]);
        }
    }
    const std::size_t merged = last ? static_cast<std::size_t>(last - out0) + 1 : 0;
    if (blocks > 1) {
        out.resize(merged);
        return out;
    }
    runs.resize(merged);
    return runs;
}

void LastWriters::write(int region, std::span<const ByteRun> runs, std::uint32_t writer)
{
    if (region < 0 || region >= kRegions || runs.empty())
        return;
    std::vector<Segment>& segments = m_regions[static_cast<std::size_t>(region)];
    const std::size_t n = segments.size();
    // The window: the segments that end after the first run begins and begin before the last
    // run ends. Everything outside it stays as it is.
    const std::size_t low = firstEndingAfter(segments, 0, runs.front().begin);
    std::size_t high = low;
    while (high < n && segments[high].begin < runs.back().end)
        ++high;
    // The window's old segments minus the runs (the parts before, between and after them), then
    // merged with the runs in address order, touching segments of one writer made one. Raw
    // pointers into buffers sized for the worst case: these loops run once per byte run, and a
    // Debug build pays for every checked accessor call (issue 36).
    const ByteRun* const run0 = runs.data();
    const std::size_t runCount = runs.size();
    // Scratch only grows: a resize that value-initialises every element is a loop in Debug.
    if (m_kept.size() < (high - low) + runCount)
        m_kept.resize((high - low) + runCount);
    Segment* kept = m_kept.data();
    std::size_t r = 0;
    for (const Segment* segment = segments.data() + low; segment != segments.data() + high; ++segment) {
        std::uint64_t at = segment->begin;
        while (r < runCount && run0[r].end <= at)
            ++r;
        for (std::size_t t = r; t < runCount && run0[t].begin < segment->end; ++t) {
            if (run0[t].begin > at)
                *kept++ = { at, run0[t].begin, segment->writer };
            at = std::max(at, run0[t].end);
        }
        if (at < segment->end)
            *kept++ = { at, segment->end, segment->writer };
    }
    const Segment* const keptEnd = kept;
    if (m_window.size() < static_cast<std::size_t>(keptEnd - m_kept.data()) + runCount)
        m_window.resize(static_cast<std::size_t>(keptEnd - m_kept.data()) + runCount);
    Segment* const window0 = m_window.data();
    Segment* window = window0;
    const auto add = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t who) {
        if (begin >= end)
            return;
        if (window != window0 && window[-1].writer == who && window[-1].end == begin)
            window[-1].end = end;
        else
            *window++ = { begin, end, who };
    };
    const Segment* next = m_kept.data();
    for (const ByteRun* run = run0; run != run0 + runCount; ++run) {
        for (; next != keptEnd && next->begin < run->begin; ++next)
            add(next->begin, next->end, next->writer);
        add(run->begin, run->end, writer);
    }
    for (; next != keptEnd; ++next)
        add(next->begin, next->end, next->writer);
    // Splice: the segments after the window move once, by the difference in size.
    const std::size_t before = high - low;
    const auto after = static_cast<std::size_t>(window - window0);
    const auto offset = [&](std::size_t i) { return segments.begin() + static_cast<std::ptrdiff_t>(i); };
    if (after > before) {
        segments.resize(n + (after - before));
        std::copy_backward(offset(high), offset(n), segments.end());
    } else if (after < before) {
        std::copy(offset(high), offset(n), offset(low + after));
        segments.resize(n - (before - after));
    }
    std::copy(window0, window, offset(low));
}

std::size_t LastWriters::segments() const
{
    std::size_t n = 0;
    for (const std::vector<Segment>& region : m_regions)
        n += region.size();
    return n;
}

} // namespace etscope::core::ethosu
