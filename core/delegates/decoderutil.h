// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace etscope::core::detail {

/// Shortest text that round-trips a float well enough for a properties panel.
inline std::string floatText(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

/// True when [offset, offset + length) lies inside a buffer of `size` bytes (no overflow).
inline bool rangeInside(std::uint64_t size, std::uint64_t offset, std::uint64_t length)
{
    return offset <= size && length <= size - offset;
}

/// "3 inputs" / "1 input".
inline std::string plural(std::uint64_t count, const char* singular, const char* pluralForm)
{
    return std::to_string(count) + " " + (count == 1 ? singular : pluralForm);
}

} // namespace etscope::core::detail
