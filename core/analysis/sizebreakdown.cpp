// SPDX-License-Identifier: MIT
#include "core/analysis/sizebreakdown.h"

#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <unordered_map>

namespace etscope::core {

namespace {

/// Byte ranges handed out once each: a later claim gets only what no earlier claim took, so the
/// parts of a damaged file (overlapping segments, constants sharing bytes) still partition it.
class Claims {
public:
    std::vector<ByteRange> claim(ByteRange range)
    {
        std::vector<ByteRange> free;
        const std::uint64_t end = range.end();
        std::uint64_t cursor = range.offset;
        auto it = m_taken.upper_bound(cursor);
        if (it != m_taken.begin())
            cursor = std::max(cursor, std::min(end, std::prev(it)->second));
        while (cursor < end) {
            if (it == m_taken.end() || it->first >= end) {
                free.push_back({ cursor, end - cursor });
                break;
            }
            if (it->first > cursor)
                free.push_back({ cursor, it->first - cursor });
            cursor = std::max(cursor, it->second);
            ++it;
        }
        for (const ByteRange& piece : free)
            m_taken[piece.offset] = piece.end();
        return free;
    }

private:
    std::map<std::uint64_t, std::uint64_t> m_taken; ///< start → end, disjoint
};

/// What a group's bytes that no child claims are.
struct Filler {
    std::string name;
    SizeKind kind = SizeKind::Padding;
    bool splitTrailing = false; ///< a gap after the last child is "trailing bytes"
};

/// A part before settling: what it declares it covers. Groups have parts and a filler.
struct Part {
    SizeNode node;
    std::vector<ByteRange> declared;
    std::vector<Part> parts;
    Filler filler;
    bool group = false;
};

std::uint64_t total(const std::vector<ByteRange>& ranges)
{
    return std::accumulate(ranges.begin(), ranges.end(), std::uint64_t { 0 },
        [](std::uint64_t sum, const ByteRange& r) { return sum + r.size; });
}

std::vector<ByteRange> intersect(const ByteRange& range, const std::vector<ByteRange>& within)
{
    std::vector<ByteRange> out;
    for (const ByteRange& w : within) {
        const std::uint64_t start = std::max(range.offset, w.offset);
        const std::uint64_t end = std::min(range.end(), w.end());
        if (start < end)
            out.push_back({ start, end - start });
    }
    return out;
}

ByteRange spanOf(const std::vector<ByteRange>& ranges)
{
    if (ranges.empty())
        return {};
    std::uint64_t start = UINT64_MAX;
    std::uint64_t end = 0;
    for (const ByteRange& r : ranges) {
        start = std::min(start, r.offset);
        end = std::max(end, r.end());
    }
    return { start, end - start };
}

SizeNode settle(Part& part, const std::vector<ByteRange>& effective, std::vector<Warning>& warnings);

SizeNode settleLeaf(Part& part, std::vector<ByteRange> ranges)
{
    SizeNode node = std::move(part.node);
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    node.bytes = total(ranges);
    node.span = spanOf(ranges);
    node.ranges = std::move(ranges);
    return node;
}

/// Places a group's parts inside `effective` (earlier parts win bytes claimed twice), then
/// gives the bytes nobody claimed to the group's filler.
SizeNode settle(Part& part, const std::vector<ByteRange>& effective, std::vector<Warning>& warnings)
{
    SizeNode node = std::move(part.node);
    Claims claims;
    std::uint64_t lastClaimedEnd = 0;
    for (Part& child : part.parts) {
        std::vector<ByteRange> got;
        for (const ByteRange& declared : child.declared)
            for (const ByteRange& piece : intersect(declared, effective))
                for (const ByteRange& free : claims.claim(piece))
                    got.push_back(free);
        const std::uint64_t wanted = total(child.declared);
        const std::uint64_t have = total(got);
        if (have != wanted)
            warnings.push_back({ child.node.name + ": " + std::to_string(wanted - have) + " of its "
                    + std::to_string(wanted) + " bytes overlap another part or lie outside " + node.name
                    + "; they are counted once",
                child.declared.empty() ? std::nullopt : std::optional<std::uint64_t>(child.declared.front().offset) });
        if (have == 0 && wanted != 0)
            continue;
        for (const ByteRange& r : got)
            lastClaimedEnd = std::max(lastClaimedEnd, r.end());
        node.children.push_back(child.group ? settle(child, got, warnings) : settleLeaf(child, std::move(got)));
    }

    std::vector<ByteRange> gaps;
    for (const ByteRange& range : effective)
        for (const ByteRange& gap : claims.claim(range))
            gaps.push_back(gap);
    std::vector<ByteRange> trailing;
    if (part.filler.splitTrailing && !gaps.empty() && !node.children.empty()) {
        const ByteRange last = *std::max_element(
            gaps.begin(), gaps.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
        if (last.offset >= lastClaimedEnd) {
            trailing.push_back(last);
            gaps.erase(
                std::find_if(gaps.begin(), gaps.end(), [&](const ByteRange& g) { return g.offset == last.offset; }));
        }
    }
    if (!gaps.empty()) {
        Part filler;
        filler.node.name = part.filler.name;
        filler.node.kind = part.filler.kind;
        node.children.push_back(settleLeaf(filler, std::move(gaps)));
    }
    if (!trailing.empty()) {
        Part filler;
        filler.node.name = "trailing bytes";
        filler.node.kind = SizeKind::Trailing;
        filler.node.detail = "after the last part";
        node.children.push_back(settleLeaf(filler, std::move(trailing)));
    }
    std::stable_sort(node.children.begin(), node.children.end(),
        [](const SizeNode& a, const SizeNode& b) { return a.span.offset < b.span.offset; });
    node.bytes = 0;
    std::uint64_t start = UINT64_MAX;
    std::uint64_t end = 0;
    for (const SizeNode& child : node.children) {
        node.bytes += child.bytes;
        if (child.bytes) {
            start = std::min(start, child.span.offset);
            end = std::max(end, child.span.end());
        }
    }
    node.span = start <= end ? ByteRange { start, end - start } : ByteRange {};
    return node;
}

Part leaf(std::string name, SizeKind kind, std::vector<ByteRange> declared, std::string detail = {})
{
    Part part;
    part.node.name = std::move(name);
    part.node.kind = kind;
    part.node.detail = std::move(detail);
    part.declared = std::move(declared);
    return part;
}

Part group(std::string name, SizeKind kind, std::vector<ByteRange> declared, Filler filler)
{
    Part part = leaf(std::move(name), kind, std::move(declared));
    part.group = true;
    part.filler = std::move(filler);
    return part;
}

std::string tensorText(const TensorInfo& tensor)
{
    std::string text = scalarTypeName(tensor.scalarType) + " " + formatShape(tensor.sizes);
    if (!tensor.fullyQualifiedName.empty())
        text = tensor.fullyQualifiedName + " " + text;
    return text;
}

/// A tensor stored in the program file, by the buffer index it names.
struct StoredTensor {
    std::string method;
    std::int32_t value = -1;
    const TensorInfo* tensor = nullptr;
};

std::string plural(std::size_t count, const std::string& word)
{
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

/// "FLOAT [64, 256] — forward value 0 (+1 more)"; without the tensor's type when the part's
/// name or detail already says it.
std::string refsText(const std::vector<StoredTensor>& users, bool withTensor = true)
{
    std::string text = (withTensor ? tensorText(*users.front().tensor) + " — " : std::string()) + users.front().method
        + " value " + std::to_string(users.front().value);
    if (users.size() > 1)
        text += " (+" + std::to_string(users.size() - 1) + " more)";
    return text;
}

void addValueRefs(SizeNode& node, const std::vector<StoredTensor>& users)
{
    for (const StoredTensor& user : users) {
        SizeRef ref;
        ref.kind = SizeRef::Kind::Value;
        ref.method = user.method;
        ref.value = ValueIndex(user.value);
        node.refs.push_back(std::move(ref));
    }
}

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

struct DelegateUse {
    std::string method;
    std::int32_t index = -1;
    std::string backend;
};

void addDelegateRefs(SizeNode& node, const std::vector<DelegateUse>& uses)
{
    std::string detail;
    for (const DelegateUse& use : uses) {
        SizeRef ref;
        ref.kind = SizeRef::Kind::Delegate;
        ref.method = use.method;
        ref.delegate = DelegateIndex(use.index);
        node.refs.push_back(std::move(ref));
        detail += (detail.empty() ? "" : ", ") + use.method + " delegate #" + std::to_string(use.index);
    }
    node.backend = uses.front().backend;
    node.detail = detail;
}

/// External tensors by fully qualified name: their bytes are named data (in the program or a .ptd).
std::map<std::string, std::vector<StoredTensor>> externalTensors(const Program& program)
{
    std::map<std::string, std::vector<StoredTensor>> byName;
    for (const Method& method : program.methods)
        for (std::size_t v = 0; v < method.values.size(); ++v) {
            const Value& value = method.values[v];
            if (value.isTensor() && !value.tensor.fullyQualifiedName.empty()
                && (value.tensor.storage == TensorStorage::External
                    || value.tensor.storage == TensorStorage::ExternalMutable))
                byName[value.tensor.fullyQualifiedName].push_back(
                    { method.name, static_cast<std::int32_t>(v), &value.tensor });
        }
    return byName;
}

/// Delegates whose payload holds a key as text: backends name their weights in named data by
/// key (XNNPACK's constant_data.named_key), so a key found in a payload is that backend's data.
/// Keys shorter than 8 bytes are not looked for (they would match by chance). Every payload is
/// read once, whatever the number of keys: each 8-byte window is looked up among the keys'
/// first 8 bytes (an LLM has thousands of keys and of delegates).
class KeyFinder {
public:
    KeyFinder(const Program& program, const std::vector<const NamedDataEntry*>& entries)
    {
        std::unordered_map<std::uint64_t, std::vector<std::string_view>> byPrefix;
        for (const NamedDataEntry* entry : entries)
            if (entry->key.size() >= kPrefix)
                byPrefix[prefixOf(entry->key.data())].push_back(entry->key);
        if (byPrefix.empty())
            return;
        for (const Method& method : program.methods)
            for (std::size_t d = 0; d < method.delegates.size(); ++d) {
                const DelegateUse use { method.name, static_cast<std::int32_t>(d), method.delegates[d].backendId };
                const auto payload = program.bytes(method.delegates[d].payload);
                const auto* bytes = reinterpret_cast<const char*>(payload.data());
                for (std::size_t at = 0; at + kPrefix <= payload.size(); ++at) {
                    const auto candidates = byPrefix.find(prefixOf(bytes + at));
                    if (candidates == byPrefix.end())
                        continue;
                    for (const std::string_view key : candidates->second)
                        if (key.size() <= payload.size() - at && std::memcmp(bytes + at, key.data(), key.size()) == 0)
                            addUse(std::string(key), use);
                }
            }
    }

    const std::vector<DelegateUse>& find(const std::string& key) const
    {
        static const std::vector<DelegateUse> none;
        const auto it = m_uses.find(key);
        return it == m_uses.end() ? none : it->second;
    }

private:
    static constexpr std::size_t kPrefix = 8;
    static std::uint64_t prefixOf(const char* bytes)
    {
        std::uint64_t prefix = 0;
        std::memcpy(&prefix, bytes, kPrefix);
        return prefix;
    }
    void addUse(std::string key, const DelegateUse& use)
    {
        std::vector<DelegateUse>& uses = m_uses[std::move(key)];
        if (std::none_of(uses.begin(), uses.end(),
                [&](const DelegateUse& u) { return u.method == use.method && u.index == use.index; }))
            uses.push_back(use);
    }

    std::unordered_map<std::string, std::vector<DelegateUse>> m_uses;
};

/// Links a named-data part to what uses its keys: delegates whose payload names a key (the
/// part then counts for that backend) and external tensors whose fully qualified name it is.
void attributeNamedData(SizeNode& node, const std::vector<const NamedDataEntry*>& entries, const KeyFinder* finder,
    const std::map<std::string, std::vector<StoredTensor>>& externals)
{
    std::vector<DelegateUse> delegates;
    std::vector<StoredTensor> tensors;
    for (const NamedDataEntry* entry : entries) {
        SizeRef ref;
        ref.kind = SizeRef::Kind::NamedData;
        ref.key = entry->key;
        node.refs.push_back(std::move(ref));
        if (finder)
            for (const DelegateUse& use : finder->find(entry->key))
                if (std::none_of(delegates.begin(), delegates.end(),
                        [&](const DelegateUse& d) { return d.method == use.method && d.index == use.index; }))
                    delegates.push_back(use);
        if (const auto found = externals.find(entry->key); found != externals.end())
            tensors.insert(tensors.end(), found->second.begin(), found->second.end());
    }
    const std::string detail = node.detail;
    if (!delegates.empty()) {
        addDelegateRefs(node, delegates);
        node.detail = detail + ", used by " + node.detail;
    }
    if (!tensors.empty()) {
        addValueRefs(node, tensors);
        node.detail += ", used by " + refsText(tensors, false);
    }
}

std::string baseName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

/// Everything inside the program's region: header, the FlatBuffer (with inline blobs and
/// legacy constants split out), the segments by what refers to them.
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

    std::map<std::uint32_t, std::vector<DelegateUse>> inlineUses;
    std::map<std::uint32_t, std::vector<DelegateUse>> segmentUses;
    std::map<std::uint32_t, std::vector<StoredTensor>> constants;
    std::map<std::uint32_t, std::vector<StoredTensor>> mutables;
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
    parts.push_back(std::move(flatbuffer));

    // Segments: classified by what names them; a segment named twice keeps the first kind in
    // this order (constant, mutable data, delegate, named data) and every reference.
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
        parts.push_back(std::move(segments));
    }
    return parts;
}

void collectLeaves(const SizeNode& node, std::vector<const SizeNode*>& out)
{
    if (node.isLeaf()) {
        out.push_back(&node);
        return;
    }
    for (const SizeNode& child : node.children)
        collectLeaves(child, out);
}

/// The partition check: leaf ranges sorted must tile [0, file size) with no gap or overlap.
void checkPartition(SizeTree& tree)
{
    std::vector<ByteRange> ranges;
    for (const SizeNode* node : sizeLeaves(tree))
        ranges.insert(ranges.end(), node->ranges.begin(), node->ranges.end());
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::uint64_t cursor = 0;
    for (const ByteRange& range : ranges) {
        if (range.offset != cursor) {
            tree.warnings.push_back({ "size breakdown: the parts do not tile the file at byte " + std::to_string(cursor)
                    + " (next part starts at " + std::to_string(range.offset) + ")",
                cursor });
            return;
        }
        cursor = range.end();
    }
    if (cursor != tree.fileSize || tree.root.bytes != tree.fileSize)
        tree.warnings.push_back({ "size breakdown: the parts sum to " + std::to_string(tree.root.bytes)
                + " bytes, the file has " + std::to_string(tree.fileSize),
            std::nullopt });
}

SizeTree finish(std::string path, std::string format, std::uint64_t fileSize, Part root)
{
    SizeTree tree;
    tree.path = std::move(path);
    tree.format = std::move(format);
    tree.fileSize = fileSize;
    tree.root = settle(root, { { 0, fileSize } }, tree.warnings);
    tree.root.span = { 0, fileSize };
    checkPartition(tree);
    return tree;
}

} // namespace

std::string_view sizeKindName(SizeKind kind)
{
    switch (kind) {
    case SizeKind::File:
        return "file";
    case SizeKind::Group:
        return "group";
    case SizeKind::Header:
        return "header";
    case SizeKind::ProgramTables:
        return "program_tables";
    case SizeKind::BundledTables:
        return "bundled_tables";
    case SizeKind::BundledTestData:
        return "bundled_test_data";
    case SizeKind::InlineDelegate:
        return "inline_delegate";
    case SizeKind::DelegateSegment:
        return "delegate_segment";
    case SizeKind::Constant:
        return "constant";
    case SizeKind::MutableData:
        return "mutable_data";
    case SizeKind::NamedData:
        return "named_data";
    case SizeKind::UnreferencedSegment:
        return "unreferenced_segment";
    case SizeKind::Padding:
        return "padding";
    case SizeKind::Trailing:
        return "trailing";
    }
    return "unknown";
}

SizeTree programSizeTree(const Program& program, const BundledProgram* bundled)
{
    std::vector<Warning> warnings;
    const std::uint64_t fileSize = program.file->size();
    Part root
        = group(baseName(program.path()), SizeKind::File, { { 0, fileSize } }, { "padding", SizeKind::Padding, true });
    if (!bundled) {
        root.parts = programParts(program, warnings);
        SizeTree tree = finish(program.path(), "pte", fileSize, std::move(root));
        tree.warnings.insert(tree.warnings.begin(), warnings.begin(), warnings.end());
        return tree;
    }

    Part inner
        = group("program (embedded .pte)", SizeKind::Group, { program.region }, { "padding", SizeKind::Padding, true });
    inner.parts = programParts(program, warnings);
    inner.node.detail = "the complete .pte at byte " + std::to_string(program.region.offset);

    std::vector<ByteRange> outside;
    if (program.region.offset > 0)
        outside.push_back({ 0, program.region.offset });
    if (program.region.end() < fileSize)
        outside.push_back({ program.region.end(), fileSize - program.region.end() });
    Part wrapper
        = group("bundled wrapper", SizeKind::Group, outside, { "bundled tables", SizeKind::BundledTables, false });
    wrapper.node.detail = plural(bundled->suites.size(), "test suite");
    for (const BundledTestSuite& suite : bundled->suites) {
        for (const bool outputs : { false, true }) {
            Part data = leaf("'" + suite.methodName + "' " + (outputs ? "expected outputs" : "test inputs"),
                SizeKind::BundledTestData, {});
            for (std::size_t c = 0; c < suite.cases.size(); ++c) {
                const auto& values = outputs ? suite.cases[c].expectedOutputs : suite.cases[c].inputs;
                bool any = false;
                for (const BundledValue& value : values)
                    if (value.kind == BundledValue::Kind::Tensor && value.data.size > 0) {
                        data.declared.push_back(value.data);
                        any = true;
                    }
                if (any) {
                    SizeRef ref;
                    ref.kind = SizeRef::Kind::TestCase;
                    ref.method = suite.methodName;
                    ref.testCase = static_cast<std::int32_t>(c);
                    data.node.refs.push_back(std::move(ref));
                }
            }
            data.node.detail = plural(suite.cases.size(), "test case") + ", tensor bytes";
            if (!data.declared.empty())
                wrapper.parts.push_back(std::move(data));
        }
    }
    root.parts.push_back(std::move(inner));
    root.parts.push_back(std::move(wrapper));
    SizeTree tree = finish(program.path(), "bpte", fileSize, std::move(root));
    tree.warnings.insert(tree.warnings.begin(), warnings.begin(), warnings.end());
    return tree;
}

SizeTree externalDataSizeTree(const ExternalData& data, const Program* program)
{
    std::optional<KeyFinder> finder;
    std::map<std::string, std::vector<StoredTensor>> externals;
    if (program) {
        std::vector<const NamedDataEntry*> entries;
        for (const NamedDataEntry& entry : data.entries)
            entries.push_back(&entry);
        finder.emplace(*program, entries);
        externals = externalTensors(*program);
    }
    const KeyFinder* keys = finder ? &*finder : nullptr;
    const std::uint64_t fileSize = data.file->size();
    const FlatTensorHeader& header = data.header;
    Part root
        = group(baseName(data.path()), SizeKind::File, { { 0, fileSize } }, { "padding", SizeKind::Padding, true });
    const std::uint64_t headerEnd = 8 + static_cast<std::uint64_t>(header.length);
    root.parts.push_back(leaf("file header", SizeKind::Header, { { 0, headerEnd } },
        "root offset, FT01, FH01 header (" + std::to_string(header.length) + " bytes)"));
    if (header.flatbufferOffset > headerEnd)
        root.parts.push_back(
            leaf("header padding", SizeKind::Padding, { { headerEnd, header.flatbufferOffset - headerEnd } }));
    root.parts.push_back(
        leaf("tables (FlatBuffers)", SizeKind::ProgramTables, { { header.flatbufferOffset, header.flatbufferSize } },
            std::string(data.layoutName()) + " layout, " + std::to_string(data.entries.size()) + " entries"));

    std::map<std::uint32_t, std::vector<const NamedDataEntry*>> bySegment;
    for (const NamedDataEntry& entry : data.entries)
        bySegment[entry.segmentIndex].push_back(&entry);
    const auto entryText = [](const NamedDataEntry& entry) {
        if (!entry.layout)
            return std::string("blob");
        return scalarTypeName(entry.layout->scalarType) + " " + formatShape(entry.layout->sizes);
    };
    for (std::size_t i = 0; i < data.segments.size(); ++i) {
        const ByteRange& segment = data.segments[i];
        if (segment.size == 0)
            continue;
        const std::string where = "segment " + std::to_string(i);
        const auto found = bySegment.find(static_cast<std::uint32_t>(i));
        Part part;
        if (found == bySegment.end()) {
            part = leaf(
                "unreferenced segment", SizeKind::UnreferencedSegment, { segment }, where + ": no entry names it");
        } else if (std::all_of(found->second.begin(), found->second.end(), [&](const NamedDataEntry* e) {
                       return e->data.offset == segment.offset && e->data.size == segment.size;
                   })) {
            const NamedDataEntry& first = *found->second.front();
            part = leaf("'" + first.key + "'", SizeKind::NamedData, { segment },
                entryText(first) + ", " + where
                    + (found->second.size() > 1 ? ", shared by " + std::to_string(found->second.size()) + " keys"
                                                : ""));
            attributeNamedData(part.node, found->second, keys, externals);
        } else {
            // The first layout places several tensors in one segment at their own offsets.
            part = group(where, SizeKind::NamedData, { segment }, { "padding", SizeKind::Padding, false });
            part.node.detail = plural(found->second.size(), "tensor");
            for (const NamedDataEntry* entry : found->second) {
                Part tensor = leaf("'" + entry->key + "'", SizeKind::NamedData, { entry->data }, entryText(*entry));
                attributeNamedData(tensor.node, { entry }, keys, externals);
                tensor.node.segment = static_cast<std::int32_t>(i);
                part.parts.push_back(std::move(tensor));
            }
        }
        part.node.segment = static_cast<std::int32_t>(i);
        root.parts.push_back(std::move(part));
    }
    return finish(data.path(), "ptd", fileSize, std::move(root));
}

Result<SizeBreakdown> sizeBreakdown(const Document& document)
{
    SizeBreakdown breakdown;
    if (document.program) {
        breakdown.main = programSizeTree(*document.program, document.bundled ? &*document.bundled : nullptr);
        for (const ExternalData& data : document.externalData)
            breakdown.externalData.push_back(externalDataSizeTree(data, &*document.program));
        return breakdown;
    }
    if (document.kind == FileKind::ExternalData && !document.externalData.empty()) {
        breakdown.main = externalDataSizeTree(document.externalData.front());
        return breakdown;
    }
    return makeError(Error::Code::Usage, document.path,
        "a size breakdown needs a program (.pte, .bpte) or external data (.ptd); this is "
            + std::string(fileKindName(document.kind)));
}

std::vector<const SizeNode*> sizeLeaves(const SizeTree& tree)
{
    std::vector<const SizeNode*> leaves;
    collectLeaves(tree.root, leaves);
    std::stable_sort(leaves.begin(), leaves.end(),
        [](const SizeNode* a, const SizeNode* b) { return a->span.offset < b->span.offset; });
    return leaves;
}

std::vector<SizeGroup> sizeByKind(const SizeTree& tree)
{
    std::map<SizeKind, SizeGroup> groups;
    for (const SizeNode* node : sizeLeaves(tree)) {
        SizeGroup& group = groups[node->kind];
        group.name = std::string(sizeKindName(node->kind));
        group.kind = node->kind;
        group.bytes += node->bytes;
        ++group.parts;
    }
    std::vector<SizeGroup> out;
    for (auto& [kind, group] : groups)
        if (group.bytes > 0)
            out.push_back(group);
    std::stable_sort(out.begin(), out.end(), [](const SizeGroup& a, const SizeGroup& b) { return a.bytes > b.bytes; });
    return out;
}

std::vector<SizeGroup> sizeByBackend(const SizeTree& tree)
{
    std::map<std::string, SizeGroup> groups;
    SizeGroup rest { "(not delegated)", SizeKind::Group, 0, 0 };
    for (const SizeNode* node : sizeLeaves(tree)) {
        if (!node->backend.empty()) {
            SizeGroup& group = groups[node->backend];
            group.name = node->backend;
            group.kind = node->kind;
            group.bytes += node->bytes;
            ++group.parts;
        } else {
            rest.bytes += node->bytes;
            ++rest.parts;
        }
    }
    std::vector<SizeGroup> out;
    out.reserve(groups.size());
    for (auto& [name, group] : groups)
        out.push_back(group);
    std::stable_sort(out.begin(), out.end(), [](const SizeGroup& a, const SizeGroup& b) { return a.bytes > b.bytes; });
    out.push_back(rest);
    return out;
}

} // namespace etscope::core
