// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace etscope::core {

/// Readers refuse JSON documents nested deeper than this: nlohmann's copy, comparison and dump
/// recurse once per level, and a hostile file could overflow the stack (1,000 levels need well
/// under 1 MiB of it). Real ETRecords and Inspector tables nest a few dozen levels.
constexpr std::size_t kMaxJsonDepth = 1000;

/// Why JSON text was refused, with the byte offset where the problem was found.
struct JsonProblem {
    std::string reason; ///< "syntax error while parsing object key …", "nested deeper than 1000 levels"
    std::size_t offset = 0;
};

/// An nlohmann exception's message without its "[json.exception.parse_error.101] " tag:
/// "parse error at line 1, column 2: …".
std::string jsonErrorText(const std::exception& error);

/// The bracket nesting of JSON text reaches more than `maxDepth` levels: where it does, or
/// nullopt. One pass without recursion, strings and escapes respected; run before parsing, so
/// no recursive operation (parse, copy, compare, dump, destruction) ever sees deeper values.
std::optional<std::size_t> jsonTooDeepAt(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);

/// Parses JSON text into `J` (nlohmann::json or nlohmann::ordered_json) without throwing:
/// nesting deeper than `maxDepth` is refused before parsing, and a syntax error, a number out of
/// range or an allocation failure become a JsonProblem naming the byte offset.
template <typename J>
std::optional<J> parseJson(std::string_view text, JsonProblem& problem, std::size_t maxDepth = kMaxJsonDepth);
extern template std::optional<nlohmann::json> parseJson(std::string_view, JsonProblem&, std::size_t);
extern template std::optional<nlohmann::ordered_json> parseJson(std::string_view, JsonProblem&, std::size_t);

// Typed accessors: nlohmann's value(), at() and get<T>() throw on a wrong type or a missing key,
// and nothing may throw out of a reader. These return nullptr / nullopt instead.

/// The member `key` of `object`; nullptr when `object` is not an object or has no such key.
template <typename J> const J* jsonMember(const J& object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

/// The member as a string; nullopt when absent or not a string.
template <typename J> std::optional<std::string> jsonString(const J& object, std::string_view key)
{
    const J* member = jsonMember(object, key);
    return member && member->is_string() ? std::optional<std::string>(member->template get<std::string>())
                                         : std::nullopt;
}

/// The member as a signed 64-bit integer; nullopt when absent, not an integer or out of range.
template <typename J> std::optional<std::int64_t> jsonInteger(const J& object, std::string_view key)
{
    const J* member = jsonMember(object, key);
    if (!member)
        return std::nullopt;
    if (member->is_number_unsigned())
        return member->template get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX)
            ? std::optional<std::int64_t>(static_cast<std::int64_t>(member->template get<std::uint64_t>()))
            : std::nullopt;
    return member->is_number_integer() ? std::optional<std::int64_t>(member->template get<std::int64_t>())
                                       : std::nullopt;
}

/// How deeply `value` nests (0 for a scalar, 1 for a flat array or object). Iterative, so it
/// is safe on hostile documents nested hundreds of thousands of levels deep.
std::size_t jsonDepth(const nlohmann::json& value);

/// `value` as JSON text, without ever throwing or recursing without bound: strings that are
/// not valid UTF-8 (bytes from a corrupt file) get U+FFFD in place of the bad bytes, and a
/// value nested deeper than `maxDepth` is written as the string "<nested deeper than N levels>".
/// `indent` < 0 writes one line, as nlohmann::json::dump does.
std::string jsonText(const nlohmann::json& value, int indent = -1, std::size_t maxDepth = 128);

/// A string value as it is, anything else as jsonText (cell and metadata display).
std::string jsonDisplayText(const nlohmann::json& value, std::size_t maxDepth = 128);

} // namespace etscope::core
