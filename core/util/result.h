// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace etscope::core {

/// Why reading or writing failed. `file` and `reason` are always filled; `offset` when the
/// problem sits at a known byte of the file.
struct Error {
    enum class Code {
        Io, ///< the operating system refused (missing file, permission, directory, …)
        Empty, ///< the file has no bytes
        Truncated, ///< the file ends before a structure it announces
        BadIdentifier, ///< the magic / file identifier is not what the format requires
        UnsupportedVersion, ///< a known family but a version this build does not read
        Verifier, ///< the FlatBuffers verifier rejected the bytes
        Corrupt, ///< verified, but semantically inconsistent (index or offset out of range)
        Limit, ///< the input asks for more than the reader allows (zip bomb, huge counts)
        Usage, ///< the caller asked for something impossible (unknown method, bad option)
        Cancelled, ///< the user stopped the work
    };

    Code code = Code::Corrupt;
    std::string file;
    std::string reason;
    std::optional<std::uint64_t> offset;

    /// One line: "FILE: REASON (at byte offset N)".
    std::string message() const
    {
        std::string text = file.empty() ? reason : file + ": " + reason;
        if (offset)
            text += " (at byte offset " + std::to_string(*offset) + ")";
        return text;
    }
};

/// A recoverable problem: the reader went on, but the user should know.
struct Warning {
    std::string message;
    std::optional<std::uint64_t> offset;
};

/// Either a value or the Error that prevented it (std::expected is C++23).
template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    {
    }
    Result(Error error)
        : m_data(std::in_place_index<1>, std::move(error))
    {
    }

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

inline Error makeError(
    Error::Code code, std::string file, std::string reason, std::optional<std::uint64_t> offset = std::nullopt)
{
    return Error { code, std::move(file), std::move(reason), offset };
}

} // namespace etscope::core
