// SPDX-License-Identifier: MIT
#include "core/layout/rankdepth.h"

#include <algorithm>

namespace etscope::core {

std::vector<int> longestPathRanks(const LayoutRequest& request)
{
    const std::size_t count = request.nodes.size();
    std::vector<std::vector<int>> out(count);
    std::vector<int> pending(count, 0);
    for (const LayoutRequest::Edge& edge : request.edges) {
        if (edge.from < 0 || edge.to < 0 || static_cast<std::size_t>(edge.from) >= count
            || static_cast<std::size_t>(edge.to) >= count || edge.from == edge.to)
            continue;
        out[static_cast<std::size_t>(edge.from)].push_back(edge.to);
        ++pending[static_cast<std::size_t>(edge.to)];
    }
    std::vector<int> rank(count, 0);
    std::vector<int> ready;
    for (std::size_t i = 0; i < count; ++i)
        if (pending[i] == 0)
            ready.push_back(static_cast<int>(i));
    std::size_t done = 0;
    int deepest = -1;
    while (!ready.empty()) {
        const int node = ready.back();
        ready.pop_back();
        ++done;
        deepest = std::max(deepest, rank[static_cast<std::size_t>(node)]);
        for (const int next : out[static_cast<std::size_t>(node)]) {
            auto& r = rank[static_cast<std::size_t>(next)];
            r = std::max(r, rank[static_cast<std::size_t>(node)] + 1);
            if (--pending[static_cast<std::size_t>(next)] == 0)
                ready.push_back(next);
        }
    }
    if (done < count)
        for (std::size_t i = 0; i < count; ++i)
            if (pending[i] > 0)
                rank[i] = ++deepest;
    return rank;
}

std::size_t rankDepth(const LayoutRequest& request)
{
    const std::vector<int> ranks = longestPathRanks(request);
    return ranks.empty() ? 0 : static_cast<std::size_t>(*std::max_element(ranks.begin(), ranks.end())) + 1;
}

} // namespace etscope::core
