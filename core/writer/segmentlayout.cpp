// SPDX-License-Identifier: MIT
#include "core/writer/segmentlayout.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

namespace etscope::core {

namespace {

std::size_t hashOf(std::span<const std::uint8_t> bytes)
{
    return std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

} // namespace

void appendLe16(std::vector<std::uint8_t>& out, std::uint16_t value)
{
    for (int i = 0; i < 2; ++i)
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void appendLe32(std::vector<std::uint8_t>& out, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void appendLe64(std::vector<std::uint8_t>& out, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void storeLe32(std::uint8_t* at, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment)
{
    return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

std::optional<Error> checkAlignment(std::string_view writer, std::string_view what, std::uint64_t alignment)
{
    if (alignment == 0)
        return makeError(Error::Code::Usage, std::string(writer), std::string(what) + " must be at least 1");
    return std::nullopt;
}

SegmentTable::SegmentTable(std::uint64_t segmentAlignment)
    : m_alignment(std::max<std::uint64_t>(1, segmentAlignment))
{
}

std::uint32_t SegmentTable::add(std::span<const std::uint8_t> bytes, std::uint64_t blobAlignment, int dedupeGroup)
{
    const bool dedupe = dedupeGroup != 0;
    const std::pair<int, std::size_t> key { dedupeGroup, dedupe ? hashOf(bytes) : 0 };
    if (dedupe) {
        const auto [first, last] = m_byHash.equal_range(key);
        for (auto it = first; it != last; ++it) {
            const auto candidate = m_bytes[it->second];
            if (candidate.size() == bytes.size() && std::equal(candidate.begin(), candidate.end(), bytes.begin()))
                return it->second;
        }
    }
    const std::uint64_t alignment = std::lcm(m_alignment, std::max<std::uint64_t>(1, blobAlignment));
    const std::uint64_t offset = m_placed.empty() ? 0 : alignUp(m_end, alignment);
    const auto index = static_cast<std::uint32_t>(m_placed.size());
    m_placed.push_back({ offset, bytes.size() });
    m_bytes.push_back(bytes);
    m_end = offset + bytes.size();
    if (dedupe)
        m_byHash.emplace(key, index);
    return index;
}

std::uint32_t SegmentTable::addOwned(std::vector<std::uint8_t> bytes, std::uint64_t blobAlignment)
{
    m_owned.push_back(std::move(bytes));
    return add(m_owned.back(), blobAlignment, 0);
}

void SegmentTable::appendTo(std::vector<std::uint8_t>& out, std::uint64_t segmentBase) const
{
    out.reserve(segmentBase + m_end);
    out.resize(segmentBase, 0);
    for (std::size_t i = 0; i < m_placed.size(); ++i) {
        out.resize(segmentBase + m_placed[i].offset, 0);
        out.insert(out.end(), m_bytes[i].begin(), m_bytes[i].end());
    }
}

std::size_t spliceHeader(
    std::vector<std::uint8_t>& flatbuffer, std::span<const std::uint8_t> header, std::uint64_t alignment)
{
    const std::size_t padded = alignUp(header.size(), alignment);
    std::vector<std::uint8_t> inserted(header.begin(), header.end());
    inserted.resize(padded, 0);
    flatbuffer.insert(flatbuffer.begin() + 8, inserted.begin(), inserted.end());
    std::uint32_t root = 0;
    for (int i = 0; i < 4; ++i)
        root |= static_cast<std::uint32_t>(flatbuffer[static_cast<std::size_t>(i)]) << (8 * i);
    storeLe32(flatbuffer.data(), root + static_cast<std::uint32_t>(padded));
    return padded;
}

} // namespace etscope::core
