// SPDX-License-Identifier: MIT
#include "core/util/jsontext.h"

#include <utility>
#include <vector>

namespace etscope::core {

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
