// SPDX-License-Identifier: MIT
// Bounded line-by-line reading of vendor logs (Vela console output, FVP/board runner output):
// lines end in LF or CRLF, a line longer than LogLimits::maxLineBytes is kept to that many
// bytes (and warned about), at most maxLines lines and maxBytes bytes are read. The lines are
// views into the text: reading copies nothing. Private helpers of core/vendorlogs, also used by
// its tests.
#pragma once

#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::vendor {

/// How much of a log is read. The defaults fit every real log seen (650 KB, 8k-character lines)
/// with a wide margin.
struct LogLimits {
    std::size_t maxLineBytes = std::size_t(64) * 1024; ///< longer lines are cut to this many bytes
    std::size_t maxLines = 4'000'000;
    std::uint64_t maxBytes = 512ull << 20; ///< a longer file is read up to here
    std::size_t maxWarnings = 200; ///< then one "further warnings left out"
};

/// One line of a log: its text (without the line end, cut at maxLineBytes), 1-based number and
/// the byte offset where it starts.
struct LogLine {
    std::string_view text;
    std::size_t number = 0;
    std::uint64_t offset = 0;
    std::size_t fullLength = 0; ///< before cutting
    bool cut() const { return fullLength > text.size(); }
};

/// Walks the lines of `text`. next() is false at the end or at a limit (stoppedAt says which).
class LineCursor {
public:
    LineCursor(std::string_view text, const LogLimits& limits);
    bool next(LogLine& line);
    /// Empty while reading; "line limit" / "byte limit" when a limit ended the reading.
    std::string_view stoppedAt() const { return m_stopped; }

private:
    std::string_view m_text;
    LogLimits m_limits;
    std::size_t m_pos = 0;
    std::size_t m_number = 0;
    bool m_cutBytes = false;
    std::string_view m_stopped;
};

/// Warnings of one log, each "FILE:LINE: reason", capped at LogLimits::maxWarnings.
class LogWarnings {
public:
    LogWarnings(std::string file, std::size_t max)
        : m_file(std::move(file))
        , m_max(max)
    {
    }
    void add(const LogLine& line, const std::string& reason);
    void add(std::size_t lineNumber, std::uint64_t offset, const std::string& reason);
    std::vector<Warning> take() { return std::move(m_list); }
    const std::string& file() const { return m_file; }

private:
    std::string m_file;
    std::size_t m_max;
    std::vector<Warning> m_list;
};

// Text helpers (whitespace is space, tab, CR, vertical tab, form feed).
std::string_view trim(std::string_view text);
/// Whitespace-separated tokens, at most `max` (the rest is dropped).
std::vector<std::string_view> tokens(std::string_view text, std::size_t max = 256);
/// Collapses whitespace runs to one space, trims and lowercases ASCII.
std::string normalizeLabel(std::string_view text);
/// A whole token as a number: "12", "-3", "0x1f" (hex with prefix), "12.5"; nullopt otherwise.
std::optional<std::int64_t> parseInteger(std::string_view text);
std::optional<double> parseNumber(std::string_view text);
bool startsWith(std::string_view text, std::string_view prefix);

} // namespace etscope::core::vendor
