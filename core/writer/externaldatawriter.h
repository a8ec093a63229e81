// SPDX-License-Identifier: MIT
#pragma once

#include "core/pte/program.h"
#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// One named blob of a .ptd file, with the tensor layout the exporter records for tensors.
struct ExternalEntrySpec {
    std::string key;
    std::vector<std::uint8_t> bytes;
    std::optional<TensorLayout> layout;
    std::uint64_t alignment = 16;
};

struct ExternalDataSpec {
    std::uint32_t version = 0;
    std::vector<ExternalEntrySpec> entries;
};

struct ExternalDataWriteOptions {
    std::uint64_t segmentAlignment = 128;
    bool dedupe = true; ///< byte-identical blobs share one segment
};

/// Serialises a .ptd in the current layout (facts sheet §1.9): FlatTensor root with identifier
/// FT01, the 40-byte FH01 header spliced in at byte 8 (padded to 48), then the segments.
/// Fails (Error::Usage) only for an alignment of 0.
Result<std::vector<std::uint8_t>> writeExternalData(
    const ExternalDataSpec& spec, const ExternalDataWriteOptions& options = {});

} // namespace etscope::core
