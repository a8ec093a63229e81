// SPDX-License-Identifier: MIT
#include "core/util/jsontext.h"

#include <new>
#include <utility>
#include <vector>

namespace etscope::core {

std::optional<std::size_t> jsonTooDeepAt(std::string_view text, std::size_t maxDepth)
{
    std::size_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > maxDepth)
                return i;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

std::string jsonErrorText(const std::exception& error)
{
    std::string reason = error.what();
    if (const std::size_t start = reason.find("] "); start != std::string::npos)
        reason.erase(0, start + 2);
    return reason;
}

template <typename J> std::optional<J> parseJson(std::string_view text, JsonProblem& problem, std::size_t maxDepth)
{
    if (const auto deep = jsonTooDeepAt(text, maxDepth)) {
        problem = { "JSON nested deeper than " + std::to_string(maxDepth) + " levels", *deep };
        return std::nullopt;
    }
    try {
        return J::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        problem = { "not valid JSON: " + jsonErrorText(error), error.byte > 0 ? error.byte - 1 : 0 };
    } catch (const nlohmann::json::exception& error) {
        problem = { "not valid JSON: " + jsonErrorText(error), 0 };
    } catch (const std::bad_alloc&) {
        problem = { "out of memory parsing " + std::to_string(text.size()) + " bytes of JSON", 0 };
    }
    return std::nullopt;
}

template std::optional<nlohmann::json> parseJson(std::string_view, JsonProblem&, std::size_t);
template std::optional<nlohmann::ordered_json> parseJson(std::string_view, JsonProblem&, std::size_t);

std::size_t jsonDepth(const nlohmann::json& value)
{
    std::size_t deepest = 0;
    std::vector<std::pair<const nlohmann::json*, std::size_t>> pending { { &value, 0 } };
    while (!pending.empty()) {
        const auto [node, depth] = pending.back();
        pending.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth + 1);
        for (const nlohmann::json& child : *node)
            pending.emplace_back(&child, depth + 1);
    }
    return deepest;
}

std::string jsonText(const nlohmann::json& value, int indent, std::size_t maxDepth)
{
    if (jsonDepth(value) > maxDepth)
        return nlohmann::json("<nested deeper than " + std::to_string(maxDepth) + " levels>").dump();
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string jsonDisplayText(const nlohmann::json& value, std::size_t maxDepth)
{
    if (value.is_string())
        return value.get<std::string>();
    if (jsonDepth(value) > maxDepth)
        return "<nested deeper than " + std::to_string(maxDepth) + " levels>";
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace etscope::core
