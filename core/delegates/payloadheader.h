// SPDX-License-Identifier: MIT
#pragma once

// The 30-byte header in front of XNNPACK (XH00) and Vulkan (VH00) payloads (facts sheet §3.1,
// §3.2): the magic at byte 4, then little-endian u16 header length (8), u32 graph offset (10),
// u32 graph size (14), u32 constants offset (18), u64 constants size (22), all relative to the
// payload's start.

#include "core/delegates/delegate.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace etscope::core {

constexpr std::size_t kPayloadHeaderLength = 30;

struct PayloadHeader {
    std::span<const std::uint8_t> graph; ///< the FlatBuffer, inside the payload, after the header
    /// The constant bytes; nullopt when the header places them outside the payload (the graph
    /// is still read, only constant locations are unknown).
    std::optional<std::span<const std::uint8_t>> constants;
};

/// True when the payload carries a header with this magic ("XH00", "VH00") at byte 4.
bool hasPayloadHeader(std::span<const std::uint8_t> payload, std::string_view magic);

/// Reads the header of a payload for which hasPayloadHeader() holds, adding its facts to `info`
/// ("header", "graph bytes", and `constantsFact` for the constant range). Empty, with a warning
/// naming the field, when the header is truncated, its length is below 30, or the graph lies
/// outside the payload or overlaps the header. A constant range outside the payload is only a
/// warning. Never reads outside the payload.
std::optional<PayloadHeader> readPayloadHeader(
    const DelegateContext& context, DelegateInfo& info, std::string_view magic, std::string_view constantsFact);

} // namespace etscope::core
