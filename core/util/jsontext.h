// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace etscope::core {

/// Readers refuse JSON documents nested deeper than this: nlohmann's copy, comparison and dump
/// recurse once per level, and a hostile file could overflow the stack (1,000 levels need well
/// under 1 MiB of it). Real ETRecords and Inspector tables nest a few dozen levels.
constexpr std::size_t kMaxJsonDepth = 1000;

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
