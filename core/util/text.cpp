// SPDX-License-Identifier: MIT
#include "core/util/text.h"

#include <cstdio>

namespace etscope::core {

std::string toHex(std::span<const std::uint8_t> bytes, std::size_t limit)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    const std::size_t n = std::min(bytes.size(), limit);
    out.reserve(n * 2 + 3);
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(kDigits[bytes[i] >> 4]);
        out.push_back(kDigits[bytes[i] & 0xF]);
    }
    if (n < bytes.size())
        out += "…";
    return out;
}

std::string magicText(std::span<const std::uint8_t> bytes)
{
    std::string text;
    for (const std::uint8_t b : bytes)
        text.push_back(b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '.');
    return "0x" + toHex(bytes) + " \"" + text + "\"";
}

bool isPrintableText(std::span<const std::uint8_t> bytes)
{
    for (const std::uint8_t b : bytes) {
        if (b == '\t' || b == '\n' || b == '\r')
            continue;
        if (b < 0x20 || b == 0x7F)
            return false;
    }
    return true;
}

std::string bytesForDisplay(std::span<const std::uint8_t> bytes, std::size_t limit)
{
    if (!bytes.empty() && isPrintableText(bytes)) {
        std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return text;
    }
    return "0x" + toHex(bytes, limit);
}

std::string withoutNamespace(const std::string& qualified)
{
    const auto colons = qualified.rfind("::");
    return colons == std::string::npos ? qualified : qualified.substr(colons + 2);
}

std::string formatShape(const std::vector<std::int64_t>& sizes)
{
    std::string out = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (i)
            out += ", ";
        out += std::to_string(sizes[i]);
    }
    return out + "]";
}

std::string formatBytes(std::uint64_t bytes)
{
    static constexpr const char* kUnits[] = { "KiB", "MiB", "GiB", "TiB" };
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, kUnits[unit]);
    return buffer;
}

std::uint16_t readLe16(const std::uint8_t* p)
{
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

std::uint32_t readLe32(const std::uint8_t* p)
{
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8)
        | (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

std::uint64_t readLe64(const std::uint8_t* p)
{
    return static_cast<std::uint64_t>(readLe32(p)) | (static_cast<std::uint64_t>(readLe32(p + 4)) << 32);
}

std::string htmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace etscope::core
