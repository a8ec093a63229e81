// SPDX-License-Identifier: MIT
// Settling a size breakdown's parts so that they partition the bytes, and the references that
// tie a part to what uses it (sizeparts.h).
#include "core/analysis/sizeparts.h"

#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>

namespace etscope::core::sizing {

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

SizeNode settleLeaf(Part& part, std::vector<ByteRange> ranges)
{
    SizeNode node = std::move(part.node);
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    node.bytes = total(ranges);
    node.span = spanOf(ranges);
    node.ranges = std::move(ranges);
    return node;
}

std::string tensorText(const TensorInfo& tensor)
{
    std::string text = scalarTypeName(tensor.scalarType) + " " + formatShape(tensor.sizes);
    if (!tensor.fullyQualifiedName.empty())
        text = tensor.fullyQualifiedName + " " + text;
    return text;
}

} // namespace

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

Part leaf(std::string name, SizeKind kind, std::vector<ByteRange> declared, std::string detail)
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

std::string plural(std::size_t count, const std::string& word)
{
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

/// "FLOAT [64, 256] — forward value 0 (+1 more)"; without the tensor's type when the part's
/// name or detail already says it.
std::string refsText(const std::vector<StoredTensor>& users, bool withTensor)
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

KeyFinder::KeyFinder(const Program& program, const std::vector<const NamedDataEntry*>& entries)
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

const std::vector<DelegateUse>& KeyFinder::find(const std::string& key) const
{
    static const std::vector<DelegateUse> none;
    const auto it = m_uses.find(key);
    return it == m_uses.end() ? none : it->second;
}

std::uint64_t KeyFinder::prefixOf(const char* bytes)
{
    std::uint64_t prefix = 0;
    std::memcpy(&prefix, bytes, kPrefix);
    return prefix;
}

void KeyFinder::addUse(std::string key, const DelegateUse& use)
{
    std::vector<DelegateUse>& uses = m_uses[std::move(key)];
    if (std::none_of(uses.begin(), uses.end(),
            [&](const DelegateUse& u) { return u.method == use.method && u.index == use.index; }))
        uses.push_back(use);
}

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

} // namespace etscope::core::sizing
