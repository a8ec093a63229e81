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

void emit(const Shape& shape, std::vector<ByteRun>& out)
{
    const auto at = [&](std::int64_t offset) {
        const std::int64_t begin = std::max<std::int64_t>(0, offset);
        const std::int64_t end = offset + shape.run;
        if (end > begin)
            out.push_back({ static_cast<std::uint64_t>(begin), static_cast<std::uint64_t>(end) });
    };
    const AccessAxis one { 1, 0 };
    const AccessAxis& a0 = shape.count > 0 ? shape.axes[0] : one;
    const AccessAxis& a1 = shape.count > 1 ? shape.axes[1] : one;
    const AccessAxis& a2 = shape.count > 2 ? shape.axes[2] : one;
    // Coarsest axis outermost: ascending addresses when the steps do not interleave.
    for (std::int64_t k = 0; k < a2.count; ++k)
        for (std::int64_t j = 0; j < a1.count; ++j)
            for (std::int64_t i = 0; i < a0.count; ++i)
                at(shape.base + k * a2.stride + j * a1.stride + i * a0.stride);
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
    out.reserve(static_cast<std::size_t>(total()));
    for (const Shape& shape : shapes)
        emit(shape, out);
    if (!std::is_sorted(out.begin(), out.end(), [](const ByteRun& a, const ByteRun& b) { return a.begin < b.begin; }))
        std::sort(out.begin(), out.end(), [](const ByteRun& a, const ByteRun& b) { return a.begin < b.begin; });
    // Merge touching and overlapping runs in place.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (kept > 0 && out[i].begin <= out[kept - 1].end)
            out[kept - 1].end = std::max(out[kept - 1].end, out[i].end);
        else
            out[kept++] = out[i];
    }
    out.resize(kept);
    return out;
}

void LastWriters::writeRun(Map& map, ByteRun run, std::uint32_t writer)
{
    // A segment that starts before the run and reaches into it keeps its part before the run,
    // and its part after the run when it reaches past it.
    auto it = map.lower_bound(run.begin);
    if (it != map.begin()) {
        auto before = std::prev(it);
        if (before->second.end > run.begin) {
            const Segment tail = before->second;
            before->second.end = run.begin;
            if (tail.end > run.end)
                it = map.emplace_hint(it, run.end, tail);
        }
    }
    // Segments that start inside the run: dropped, but for the part of the last one past its end.
    it = map.lower_bound(run.begin);
    while (it != map.end() && it->first < run.end) {
        if (it->second.end > run.end) {
            const Segment rest = it->second;
            it = map.erase(it);
            it = map.emplace_hint(it, run.end, rest);
            break;
        }
        it = map.erase(it);
    }
    map.emplace_hint(it, run.begin, Segment { run.end, writer });
}

void LastWriters::write(int region, std::span<const ByteRun> runs, std::uint32_t writer)
{
    if (region < 0 || region >= kRegions)
        return;
    Map& map = m_regions[static_cast<std::size_t>(region)];
    for (const ByteRun& run : runs)
        if (run.begin < run.end)
            writeRun(map, run, writer);
}

std::size_t LastWriters::segments() const
{
    std::size_t n = 0;
    for (const Map& map : m_regions)
        n += map.size();
    return n;
}

} // namespace etscope::core::ethosu
