// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// Lower-case hex of `bytes`, at most `limit` bytes ("…" appended when cut).
std::string toHex(std::span<const std::uint8_t> bytes, std::size_t limit = SIZE_MAX);

/// Identifier bytes for an error message, as hex and as text: `0x415f5054 "A_PT"` (bytes that
/// are not printable ASCII show as '.').
std::string magicText(std::span<const std::uint8_t> bytes);

/// True when every byte is printable ASCII / UTF-8 text (tabs and newlines allowed).
bool isPrintableText(std::span<const std::uint8_t> bytes);

/// Text when printable, otherwise "0x" + hex (cut at `limit` bytes).
std::string bytesForDisplay(std::span<const std::uint8_t> bytes, std::size_t limit = 64);

/// An operator name without its namespace: "aten::add.out" → "add.out" (unchanged when it has none).
std::string withoutNamespace(const std::string& qualified);

/// `text` with &, <, >, " and ' escaped for HTML text and attribute values.
std::string htmlEscape(std::string_view text);

/// "[1, 3, 224, 224]".
std::string formatShape(const std::vector<std::int64_t>& sizes);

/// Human-readable byte count: "1.3 MiB", "640 B".
std::string formatBytes(std::uint64_t bytes);

/// Reads little-endian integers from a span; the caller checks bounds.
std::uint16_t readLe16(const std::uint8_t* p);
std::uint32_t readLe32(const std::uint8_t* p);
std::uint64_t readLe64(const std::uint8_t* p);

} // namespace etscope::core
