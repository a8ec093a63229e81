// SPDX-License-Identifier: MIT
// Lining up two node sequences for `etscope diff` (diffalignment.h).
#include "core/analysis/diffalignment.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace etscope::core::diff {

namespace {

/// Pairs of positions (i in a, j in b) of equal tokens: common prefix and suffix, then the
/// longest common subsequence of the middle when its table fits in `maxCells`; otherwise the
/// k-th occurrence of each token in a with its k-th occurrence in b (`aligned` false).
std::vector<std::pair<std::size_t, std::size_t>> alignTokens(
    const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t maxCells, bool& aligned)
{
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) {
        pairs.emplace_back(prefix, prefix);
        ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
        && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;
    aligned = true;
    if (n > 0 && m > 0 && n <= maxCells / m) {
        // lcs[i][j]: the LCS length of a[prefix + i …] and b[prefix + j …] (middle only).
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n && j < m) {
            if (a[prefix + i] == b[prefix + j]) {
                pairs.emplace_back(prefix + i, prefix + j);
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    } else if (n > 0 && m > 0) {
        aligned = false;
        std::unordered_map<std::string, std::vector<std::size_t>> positions;
        for (std::size_t j = prefix; j < prefix + m; ++j)
            positions[b[j]].push_back(j);
        std::unordered_map<std::string, std::size_t> taken;
        for (std::size_t i = prefix; i < prefix + n; ++i) {
            auto it = positions.find(a[i]);
            if (it == positions.end())
                continue;
            std::size_t& k = taken[a[i]];
            if (k < it->second.size())
                pairs.emplace_back(i, it->second[k++]);
        }
    }
    for (std::size_t k = suffix; k-- > 0;)
        pairs.emplace_back(a.size() - 1 - k, b.size() - 1 - k);
    return pairs;
}

} // namespace

/// Sorted, distinct.
std::vector<DebugHandle> normalised(std::vector<DebugHandle> handles)
{
    std::sort(handles.begin(), handles.end());
    handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
    return handles;
}

AnchoredAlignment alignWithAnchors(const std::vector<std::string>& tokensA, const std::vector<std::string>& tokensB,
    const std::vector<std::vector<DebugHandle>>& handlesA, const std::vector<std::vector<DebugHandle>>& handlesB,
    const std::vector<int>& kindsA, const std::vector<int>& kindsB, std::size_t maxCells)
{
    AnchoredAlignment result;
    // Candidates: every (i, j) of the same kind sharing a handle, with the number shared.
    std::unordered_map<std::int64_t, std::vector<std::size_t>> positionsB;
    for (std::size_t j = 0; j < handlesB.size(); ++j)
        for (const DebugHandle h : handlesB[j])
            positionsB[h.value].push_back(j);
    struct Candidate {
        std::size_t overlap, i, j;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < handlesA.size(); ++i) {
        std::map<std::size_t, std::size_t> shared;
        for (const DebugHandle h : handlesA[i])
            if (const auto it = positionsB.find(h.value); it != positionsB.end())
                for (const std::size_t j : it->second)
                    ++shared[j];
        for (const auto& [j, count] : shared)
            if (kindsA[i] == kindsB[j])
                candidates.push_back({ count, i, j });
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
        return x.overlap != y.overlap ? x.overlap > y.overlap : x.i != y.i ? x.i < y.i : x.j < y.j;
    });
    std::vector<bool> takenA(tokensA.size()), takenB(tokensB.size());
    std::vector<std::pair<std::size_t, std::size_t>> anchors;
    for (const Candidate& c : candidates)
        if (!takenA[c.i] && !takenB[c.j]) {
            takenA[c.i] = takenB[c.j] = true;
            anchors.emplace_back(c.i, c.j);
        }
    std::sort(anchors.begin(), anchors.end());
    result.anchors.insert(anchors.begin(), anchors.end());
    // The longest chain of anchors increasing on both sides (patience sorting on j).
    std::vector<std::size_t> tails;
    std::vector<std::ptrdiff_t> previous(anchors.size(), -1);
    for (std::size_t k = 0; k < anchors.size(); ++k) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), anchors[k].second,
            [&](std::size_t t, std::size_t j) { return anchors[t].second < j; });
        previous[k] = pos == tails.begin() ? -1 : static_cast<std::ptrdiff_t>(*(pos - 1));
        if (pos == tails.end())
            tails.push_back(k);
        else
            *pos = k;
    }
    std::vector<bool> onChain(anchors.size());
    for (std::ptrdiff_t k = tails.empty() ? -1 : static_cast<std::ptrdiff_t>(tails.back()); k >= 0; k = previous[k])
        onChain[static_cast<std::size_t>(k)] = true;
    std::vector<std::pair<std::size_t, std::size_t>> chain;
    for (std::size_t k = 0; k < anchors.size(); ++k)
        (onChain[k] ? chain : result.crossing).push_back(anchors[k]);
    // Between consecutive chain anchors: the unanchored tokens aligned.
    std::size_t ia = 0, jb = 0;
    for (std::size_t k = 0; k <= chain.size(); ++k) {
        const std::size_t endA = k < chain.size() ? chain[k].first : tokensA.size();
        const std::size_t endB = k < chain.size() ? chain[k].second : tokensB.size();
        std::vector<std::size_t> positionsA, positionsInB;
        std::vector<std::string> segmentA, segmentB;
        for (std::size_t p = ia; p < endA; ++p)
            if (!takenA[p]) {
                positionsA.push_back(p);
                segmentA.push_back(tokensA[p]);
            }
        for (std::size_t p = jb; p < endB; ++p)
            if (!takenB[p]) {
                positionsInB.push_back(p);
                segmentB.push_back(tokensB[p]);
            }
        bool aligned = true;
        for (const auto& [x, y] : alignTokens(segmentA, segmentB, maxCells, aligned))
            result.pairs.emplace_back(positionsA[x], positionsInB[y]);
        result.aligned = result.aligned && aligned;
        if (k < chain.size()) {
            result.pairs.push_back(chain[k]);
            ia = endA + 1;
            jb = endB + 1;
        }
    }
    return result;
}

} // namespace etscope::core::diff
