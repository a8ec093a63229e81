// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace etscope::fuzz {

/// The ETRecord archive an `etrecordjson` input stands for: the ETRECORD_V0 marker, then one
/// entry per part (parts separated by kPartSeparator; a part's first byte picks its name from
/// kETRecordJsonEntries, the rest is its text). A name picked twice keeps its first part: entry
/// names are unique in a valid archive. nullopt when libzip refuses to write it.
std::optional<std::vector<std::uint8_t>> etrecordArchiveFromParts(std::span<const std::uint8_t> input);

} // namespace etscope::fuzz
