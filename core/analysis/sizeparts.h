// SPDX-License-Identifier: MIT
// The parts of a size breakdown before they are settled into a SizeTree (sizebreakdown.h): a
// part declares the byte ranges it covers, settle() hands every byte out once; the references
// that tie a part to values, delegates and named data; the program's parts (sizeprogram.cpp).
// Private to core/analysis.
#pragma once

#include "core/analysis/sizebreakdown.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace etscope::core::sizing {

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

/// Places a group's parts inside `effective` (earlier parts win bytes claimed twice), then
/// gives the bytes nobody claimed to the group's filler.
SizeNode settle(Part& part, const std::vector<ByteRange>& effective, std::vector<Warning>& warnings);

/// The smallest range holding all of `ranges`.
ByteRange spanOf(const std::vector<ByteRange>& ranges);

Part leaf(std::string name, SizeKind kind, std::vector<ByteRange> declared, std::string detail = {});
Part group(std::string name, SizeKind kind, std::vector<ByteRange> declared, Filler filler);

/// A tensor stored in the program file, by the buffer index it names.
struct StoredTensor {
    std::string method;
    std::int32_t value = -1;
    const TensorInfo* tensor = nullptr;
};

std::string plural(std::size_t count, const std::string& word);

/// "FLOAT [64, 256] — forward value 0 (+1 more)"; without the tensor's type when the part's
/// name or detail already says it.
std::string refsText(const std::vector<StoredTensor>& users, bool withTensor = true);
void addValueRefs(SizeNode& node, const std::vector<StoredTensor>& users);

struct DelegateUse {
    std::string method;
    std::int32_t index = -1;
    std::string backend;
};

void addDelegateRefs(SizeNode& node, const std::vector<DelegateUse>& uses);

/// External tensors by fully qualified name: their bytes are named data (in the program or a .ptd).
std::map<std::string, std::vector<StoredTensor>> externalTensors(const Program& program);

/// Delegates whose payload holds a key as text: backends name their weights in named data by
/// key (XNNPACK's constant_data.named_key), so a key found in a payload is that backend's data.
/// Keys shorter than 8 bytes are not looked for (they would match by chance). Every payload is
/// read once, whatever the number of keys: each 8-byte window is looked up among the keys'
/// first 8 bytes (an LLM has thousands of keys and of delegates).
class KeyFinder {
public:
    KeyFinder(const Program& program, const std::vector<const NamedDataEntry*>& entries);

    const std::vector<DelegateUse>& find(const std::string& key) const;

private:
    static constexpr std::size_t kPrefix = 8;
    static std::uint64_t prefixOf(const char* bytes);
    void addUse(std::string key, const DelegateUse& use);

    std::unordered_map<std::string, std::vector<DelegateUse>> m_uses;
};

/// Links a named-data part to what uses its keys: delegates whose payload names a key (the
/// part then counts for that backend) and external tensors whose fully qualified name it is.
void attributeNamedData(SizeNode& node, const std::vector<const NamedDataEntry*>& entries, const KeyFinder* finder,
    const std::map<std::string, std::vector<StoredTensor>>& externals);

/// Everything inside the program's region: header, the FlatBuffer (with inline blobs and
/// legacy constants split out), the segments by what refers to them.
std::vector<Part> programParts(const Program& program, std::vector<Warning>& warnings);

} // namespace etscope::core::sizing
