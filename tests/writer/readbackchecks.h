// SPDX-License-Identifier: MIT
#pragma once

// Checks on a program read back through openDocument, for tests of the synthetic generators.

#include "core/document/document.h"
#include "core/graph/graph.h"
#include "core/stats/operatortable.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace etscope::test {

/// Walks the instructions in order keeping, per arena, which planned tensor owns which bytes:
/// every planned tensor an instruction reads must still own its bytes. Empty when none is lost.
inline QString overwrittenReads(const core::Method& method, const core::Graph& graph)
{
    struct Owner {
        std::int32_t value;
        std::uint64_t begin, end;
    };
    std::map<std::uint32_t, std::vector<Owner>> arenas;
    const auto planned = [&](std::int32_t value) {
        const core::Value& v = method.values.at(std::size_t(value));
        return v.isTensor() && v.tensor.hasAllocation ? &v.tensor : nullptr;
    };
    const auto write = [&](std::int32_t value) {
        if (const core::TensorInfo* t = planned(value)) {
            auto& owners = arenas[t->memoryId];
            const std::uint64_t begin = t->memoryOffset, end = begin + t->byteSize();
            std::erase_if(owners, [&](const Owner& o) { return o.begin < end && begin < o.end; });
            owners.push_back({ value, begin, end });
        }
    };
    for (const std::int32_t input : method.inputs)
        write(input);
    for (const core::Node& node : graph.nodes) {
        if (!node.instruction.valid())
            continue;
        for (const std::int32_t arg : node.args) {
            const bool written
                = std::any_of(node.writes.begin(), node.writes.end(), [&](const auto& w) { return w.first == arg; });
            const core::TensorInfo* t = planned(arg);
            if (written || !t)
                continue;
            const auto& owners = arenas[t->memoryId];
            if (std::none_of(owners.begin(), owners.end(), [&](const Owner& o) { return o.value == arg; }))
                return QStringLiteral("instruction %1 reads v%2 after its bytes were overwritten")
                    .arg(node.instruction.value)
                    .arg(arg);
        }
        for (const auto& [value, meta] : node.writes)
            write(value);
    }
    return {};
}

/// Every warning of the document, its graphs and its delegates, one per line.
inline QString allWarnings(const core::Document& document)
{
    QStringList out;
    for (const core::Warning& w : document.warnings)
        out << QString::fromStdString(w.message);
    for (const core::MethodAnalysis& analysis : document.methods) {
        for (const core::Warning& w : analysis.graph->warnings)
            out << QString::fromStdString(w.message);
        for (const core::DelegateInfo& delegate : analysis.delegates)
            for (const core::Warning& w : delegate.warnings)
                out << QString::fromStdString(w.message);
    }
    return out.join(QLatin1Char('\n'));
}

/// The operator table as (non-delegated, delegated) counts by op type.
inline std::pair<std::map<std::string, int>, std::map<std::string, int>> tableCounts(const core::Graph& graph)
{
    std::map<std::string, int> nonDelegated, delegated;
    for (const core::OperatorRow& row : core::computeOperatorTable(graph).rows) {
        if (row.nonDelegated)
            nonDelegated[row.opType] = row.nonDelegated;
        if (row.delegated)
            delegated[row.opType] = row.delegated;
    }
    return { nonDelegated, delegated };
}

} // namespace etscope::test
