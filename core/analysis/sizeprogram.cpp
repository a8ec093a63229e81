// SPDX-License-Identifier: MIT
// The parts of a program's region for its size breakdown: header, the FlatBuffer (inline
// delegate data and legacy constants split out) and the segments by what refers to them.
#include "core/analysis/sizeparts.h"

#include <algorithm>

namespace etscope::core::sizing {

namespace {

/// A segment cut into the buffers that SubsegmentOffsets places in it (constants or initial
/// values). A buffer's length is its tensor's byte size; for a buffer no tensor names, the
/// distance to the next offset.
Part subsegmentGroup(std::string name, SizeKind kind, const char* what, std::uint32_t segmentIndex,
    const ByteRange& segment, const std::vector<std::uint64_t>& offsets,
    const std::map<std::uint32_t, std::vector<StoredTensor>>& users, std::vector<Warning>& warnings)
{
    Part part = group(std::move(name), kind, { segment }, { "padding", SizeKind::Padding, false });
    part.node.segment = static_cast<std::int32_t>(segmentIndex);
    std::vector<std::uint64_t> sorted(offsets.begin(), offsets.end());
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 1; k < offsets.size(); ++k) {
        const std::uint64_t offset = offsets[k];
        if (offset > segment.size) {
            warnings.push_back({ std::string(what) + " " + std::to_string(k) + " starts at offset "
                    + std::to_string(offset) + ", beyond its segment (" + std::to_string(segment.size) + " bytes)",
                segment.offset });
            continue;
        }
        const auto found = users.find(static_cast<std::uint32_t>(k));
        std::uint64_t length = 0;
        if (found != users.end()) {
            for (const StoredTensor& user : found->second)
                length = std::max(length, user.tensor->data ? user.tensor->data->size : 0);
        } else {
            const auto next = std::upper_bound(sorted.begin(), sorted.end(), offset);
            length = (next == sorted.end() ? segment.size : *next) - offset;
        }
        length = std::min(length, segment.size - offset);
        if (length == 0)
            continue;
        const ByteRange range { segment.offset + offset, length };
        if (found != users.end()) {
            Part entry = leaf(std::string(what) + " #" + std::to_string(k), kind, { range }, refsText(found->second));
            addValueRefs(entry.node, found->second);
            entry.node.segment = static_cast<std::int32_t>(segmentIndex);
            part.parts.push_back(std::move(entry));
        } else {
            Part entry = leaf("unreferenced " + std::string(what) + " #" + std::to_string(k),
                SizeKind::UnreferencedSegment, { range }, "no tensor names this buffer");
            entry.node.segment = static_cast<std::int32_t>(segmentIndex);
            part.parts.push_back(std::move(entry));
        }
    }
    return part;
}

/// The file header, and its padding up to the FlatBuffer when it is all zeros; returns where
/// the FlatBuffer's tables begin.
std::uint64_t headerParts(const Program& program, std::uint64_t flatbufferEnd, std::vector<Part>& parts)
{
    const std::uint64_t base = program.region.offset;
    std::uint64_t headerEnd = base + 8;
    if (program.header) {
        const std::uint64_t length = program.header->length;
        headerEnd = base + 8 + length;
        parts.push_back(leaf("file header", SizeKind::Header, { { base, 8 + length } },
            "root offset, " + program.identifier + ", eh00 extended header (" + std::to_string(length) + " bytes)"));
        // The header is padded to the schema's alignment (16) before the FlatBuffer goes on.
        const std::uint64_t padded = base + 8 + ((length + 15) / 16) * 16;
        const auto bytes
            = program.bytes({ headerEnd, padded > headerEnd && padded <= flatbufferEnd ? padded - headerEnd : 0 });
        if (!bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; })) {
            parts.push_back(leaf("header padding", SizeKind::Padding, { { headerEnd, bytes.size() } }));
            headerEnd = padded;
        }
    } else {
        parts.push_back(leaf("file header", SizeKind::Header, { { base, 8 } }, "root offset, " + program.identifier));
    }
    return headerEnd;
}

/// What names each inline blob, segment and stored buffer of the program.
struct Uses {
    std::map<std::uint32_t, std::vector<DelegateUse>> inlineUses;
    std::map<std::uint32_t, std::vector<DelegateUse>> segmentUses;
    std::map<std::uint32_t, std::vector<StoredTensor>> constants;
    std::map<std::uint32_t, std::vector<StoredTensor>> mutables;
};

Uses usesOf(const Program& program)
{
    Uses uses;
    auto& inlineUses = uses.inlineUses;
    auto& segmentUses = uses.segmentUses;
    auto& constants = uses.constants;
    auto& mutables = uses.mutables;
    for (const Method& method : program.methods) {
        for (std::size_t d = 0; d < method.delegates.size(); ++d) {
            const DelegateRef& ref = method.delegates[d];
            const DelegateUse use { method.name, static_cast<std::int32_t>(d), ref.backendId };
            if (ref.location == 0)
                inlineUses[ref.index].push_back(use);
            else if (ref.location == 1)
                segmentUses[ref.index].push_back(use);
        }
        for (std::size_t v = 0; v < method.values.size(); ++v) {
            const Value& value = method.values[v];
            if (!value.isTensor() || !value.tensor.data)
                continue;
            const StoredTensor stored { method.name, static_cast<std::int32_t>(v), &value.tensor };
            if (value.tensor.storage == TensorStorage::Constant)
                constants[value.tensor.dataBufferIndex].push_back(stored);
            else if (value.tensor.storage == TensorStorage::Mutable)
                mutables[value.tensor.dataBufferIndex].push_back(stored);
        }
    }
    return uses;
}

/// The FlatBuffer, with inline delegate data and legacy constant buffers as its parts.
Part flatbufferPart(const Program& program, std::uint64_t headerEnd, std::uint64_t flatbufferEnd, const Uses& uses)
{
    const auto& inlineUses = uses.inlineUses;
    const auto& constants = uses.constants;
    Part flatbuffer = group("program (FlatBuffers)", SizeKind::ProgramTables,
        { { headerEnd, flatbufferEnd > headerEnd ? flatbufferEnd - headerEnd : 0 } },
        { "program tables", SizeKind::ProgramTables, false });
    flatbuffer.node.detail = "methods, values, instructions, operators, delegate tables";
    for (std::size_t i = 0; i < program.inlineDelegateData.size(); ++i) {
        const ByteRange& range = program.inlineDelegateData[i];
        if (range.size == 0)
            continue;
        const auto uses = inlineUses.find(static_cast<std::uint32_t>(i));
        if (uses == inlineUses.end()) {
            flatbuffer.parts.push_back(leaf("unreferenced inline delegate data #" + std::to_string(i),
                SizeKind::UnreferencedSegment, { range }, "no delegate names this entry"));
            continue;
        }
        Part blob = leaf(uses->second.front().backend + " delegate (inline #" + std::to_string(i) + ")",
            SizeKind::InlineDelegate, { range });
        addDelegateRefs(blob.node, uses->second);
        flatbuffer.parts.push_back(std::move(blob));
    }
    for (std::size_t k = 1; k < program.legacyConstantBuffers.size(); ++k) {
        const ByteRange& range = program.legacyConstantBuffers[k];
        if (range.size == 0)
            continue;
        const auto users = constants.find(static_cast<std::uint32_t>(k));
        const bool legacyUsers = users != constants.end() && !program.hasConstantSegment;
        Part buffer = legacyUsers ? leaf("constant #" + std::to_string(k) + " (constant_buffer)", SizeKind::Constant,
                          { range }, refsText(users->second))
                                  : leaf("unreferenced constant_buffer #" + std::to_string(k),
                                      SizeKind::UnreferencedSegment, { range }, "no tensor names this buffer");
        if (legacyUsers)
            addValueRefs(buffer.node, users->second);
        flatbuffer.parts.push_back(std::move(buffer));
    }
    return flatbuffer;
}

// Segments: classified by what names them; a segment named twice keeps the first kind in
// this order (constant, mutable data, delegate, named data) and every reference.
Part segmentsPart(const Program& program, const Uses& uses, const KeyFinder& finder,
    const std::map<std::string, std::vector<StoredTensor>>& externals, std::vector<Warning>& warnings)
{
    const auto& segmentUses = uses.segmentUses;
    const auto& constants = uses.constants;
    const auto& mutables = uses.mutables;
    std::map<std::uint32_t, std::vector<const NamedDataEntry*>> namedUses;
    for (const NamedDataEntry& entry : program.namedData)
        namedUses[entry.segmentIndex].push_back(&entry);
    std::uint32_t mutableSegment = UINT32_MAX;
    if (!program.mutableDataSegments.empty() && !program.mutableDataSegments.front().offsets.empty())
        mutableSegment = program.mutableDataSegments.front().segmentIndex;

    Part segments = group("segments", SizeKind::Group, {}, { "padding", SizeKind::Padding, false });
    segments.node.detail = plural(program.segments.size(), "segment");
    for (std::size_t i = 0; i < program.segments.size(); ++i) {
        const ByteRange& range = program.segments[i];
        if (range.size == 0)
            continue;
        const auto index = static_cast<std::uint32_t>(i);
        const std::string where = "segment " + std::to_string(i);
        Part part;
        if (program.hasConstantSegment && program.constantSegment.segmentIndex == index) {
            part = subsegmentGroup("constant segment", SizeKind::Constant, "constant", index, range,
                program.constantSegment.offsets, constants, warnings);
            part.node.detail = where + ", " + plural(program.constantSegment.offsets.size() - 1, "buffer");
        } else if (index == mutableSegment) {
            part = subsegmentGroup("mutable data segment", SizeKind::MutableData, "initial value", index, range,
                program.mutableDataSegments.front().offsets, mutables, warnings);
            part.node.detail = where + ", initial values of memory-planned tensors";
        } else if (const auto uses = segmentUses.find(index); uses != segmentUses.end()) {
            part = leaf(uses->second.front().backend + " delegate", SizeKind::DelegateSegment, { range });
            addDelegateRefs(part.node, uses->second);
            part.node.detail = where + ": " + part.node.detail;
        } else if (const auto named = namedUses.find(index); named != namedUses.end()) {
            const auto& entries = named->second;
            part = leaf("named data '" + entries.front()->key + "'", SizeKind::NamedData, { range },
                entries.size() > 1 ? where + ", shared by " + std::to_string(entries.size()) + " keys" : where);
            attributeNamedData(part.node, entries, &finder, externals);
        } else {
            part = leaf("unreferenced segment", SizeKind::UnreferencedSegment, { range },
                where + ": nothing in the program names it");
        }
        part.node.segment = static_cast<std::int32_t>(i);
        segments.parts.push_back(std::move(part));
    }
    if (!segments.parts.empty()) {
        std::vector<ByteRange> declared;
        for (const Part& segment : segments.parts)
            declared.insert(declared.end(), segment.declared.begin(), segment.declared.end());
        segments.declared = { spanOf(declared) };
    }
    return segments;
}

} // namespace

std::vector<Part> programParts(const Program& program, std::vector<Warning>& warnings)
{
    std::vector<const NamedDataEntry*> named;
    for (const NamedDataEntry& entry : program.namedData)
        named.push_back(&entry);
    const KeyFinder finder(program, named);
    const auto externals = externalTensors(program);
    std::vector<Part> parts;
    const std::uint64_t base = program.region.offset;
    const std::uint64_t regionEnd = program.region.end();
    const std::uint64_t flatbufferEnd = program.header ? base + program.header->programSize : regionEnd;
    const std::uint64_t headerEnd = headerParts(program, flatbufferEnd, parts);
    const Uses uses = usesOf(program);
    parts.push_back(flatbufferPart(program, headerEnd, flatbufferEnd, uses));
    Part segments = segmentsPart(program, uses, finder, externals, warnings);
    if (!segments.parts.empty())
        parts.push_back(std::move(segments));
    return parts;
}

} // namespace etscope::core::sizing
