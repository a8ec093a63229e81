// SPDX-License-Identifier: MIT
#include "core/vendorlogs/logtext.h"

#include <algorithm>
#include <charconv>

namespace etscope::core::vendor {

LineCursor::LineCursor(std::string_view text, const LogLimits& limits)
    : m_text(text.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(text.size(), limits.maxBytes))))
    , m_limits(limits)
    , m_cutBytes(text.size() > m_text.size())
{
}

bool LineCursor::next(LogLine& line)
{
    if (m_pos >= m_text.size()) {
        if (m_cutBytes)
            m_stopped = "byte limit";
        return false;
    }
    if (m_number >= m_limits.maxLines) {
        m_stopped = "line limit";
        return false;
    }
    const std::size_t end = m_text.find('\n', m_pos);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    std::string_view text = m_text.substr(m_pos, stop - m_pos);
    if (!text.empty() && text.back() == '\r')
        text.remove_suffix(1);
    line.number = ++m_number;
    line.offset = m_pos;
    line.fullLength = text.size();
    line.text = text.substr(0, std::min(text.size(), m_limits.maxLineBytes));
    m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
    return true;
}

void LogWarnings::add(const LogLine& line, const std::string& reason)
{
    add(line.number, line.offset, reason);
}

void LogWarnings::add(std::size_t lineNumber, std::uint64_t offset, const std::string& reason)
{
    // Line 0: the whole file ("NAME: reason"), never a line that does not exist.
    if (m_list.size() < m_max)
        m_list.push_back(
            { m_file + (lineNumber > 0 ? ":" + std::to_string(lineNumber) : std::string()) + ": " + reason, offset });
    else if (m_list.size() == m_max)
        m_list.push_back({ m_file + ": further warnings left out", offset });
}

namespace {
bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
} // namespace

std::string_view trim(std::string_view text)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> tokens(std::string_view text, std::size_t max)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size() && out.size() < max) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isSpace(text[i]))
            ++i;
        if (i > start)
            out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::string normalizeLabel(std::string_view text)
{
    std::string out;
    for (const std::string_view token : tokens(text)) {
        if (!out.empty())
            out += ' ';
        for (const char c : token)
            out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    int base = 10;
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    if (text.empty())
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end != text.data() + text.size() || value > static_cast<std::uint64_t>(INT64_MAX))
        return std::nullopt;
    const auto signedValue = static_cast<std::int64_t>(value);
    return negative ? -signedValue : signedValue;
}

std::optional<double> parseNumber(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

} // namespace etscope::core::vendor
