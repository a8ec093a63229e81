// SPDX-License-Identifier: MIT
#include "fuzz/etrecordparts.h"

#include "core/writer/debug/etrecordwriter.h"
#include "fuzz/fuzzsupport.h"

#include <algorithm>
#include <set>
#include <string>

namespace etscope::fuzz {

std::optional<std::vector<std::uint8_t>> etrecordArchiveFromParts(std::span<const std::uint8_t> input)
{
    std::vector<core::ZipWriteEntry> entries { { "ETRECORD_V0", "", false } };
    std::set<std::string> names;
    auto part = input.begin();
    while (part != input.end()) {
        const auto end = std::find(part, input.end(), kPartSeparator);
        if (end != part) {
            std::string name(kETRecordJsonEntries[*part % kETRecordJsonEntries.size()]);
            if (names.insert(name).second)
                entries.push_back({ std::move(name), std::string(part + 1, end), false });
        }
        part = end == input.end() ? end : end + 1;
    }
    auto archive = core::writeZip(entries);
    if (!archive)
        return std::nullopt;
    return std::move(archive).value();
}

} // namespace etscope::fuzz
