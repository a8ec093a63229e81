// SPDX-License-Identifier: MIT
// What the app knows about each node beyond the file itself (issues 34 and 35): what it costs
// (core/cost, with the vendor logs' figures joined in: core/cost/costvendor.h) and, for an
// operator left on the CPU, why (core/why). Computed once per document and set of logs, on a
// worker, after the first paint (DocumentController::requestNodeFacts); plain data, shared by
// the operator table, Properties, Search and the graph's badges.
#pragma once

#include "core/cost/cost.h"
#include "core/why/why.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace etscope::core {
struct Document;
struct ETRecord;
} // namespace etscope::core

namespace etscope::ui {

/// The logs attached to a program that the facts read: Vela console output or its per-layer
/// CSV, runner (FVP or board) logs with the PMU report, partition reports.
struct FactLogs {
    std::vector<std::string> vela;
    std::vector<std::string> runs;
    std::vector<std::string> partitions;
    bool operator==(const FactLogs&) const = default;
};

/// One op type of a method, summed over its nodes (top level and inside delegates).
struct OpTypeFacts {
    std::size_t nodes = 0; ///< operator nodes with a cost entry
    std::size_t counted = 0;
    std::size_t noRule = 0;
    std::size_t noShape = 0;
    std::uint64_t macs = 0; ///< of the counted nodes
    std::uint64_t bytes = 0; ///< read + written, of the counted nodes whose bytes are known
    std::size_t withBytes = 0;
    std::vector<const core::NodeWhy*> why; ///< the answers for its nodes left on the CPU
};

struct NodeFacts {
    std::optional<core::cost::CostReport> cost;
    QString costError; ///< why there is no cost report
    std::optional<core::WhyReport> why;
    QString whyError; ///< why there are no answers
    QStringList joins; ///< one line per (log, delegate or method) join: joined, unverified, refused
    /// Problems to show: unreadable logs, logs refused for this program (naming the file and the
    /// reason), the logs' own warnings.
    std::vector<core::Warning> warnings;
    FactLogs logs; ///< what they were computed with

    /// The cost of node `node` of `method`'s graph (delegate -1) or of delegate `delegate`'s
    /// inner graph; nullptr when it is no operator or has no entry.
    const core::cost::NodeCost* costOf(const std::string& method, int delegate, std::uint32_t node) const;
    const core::cost::DelegateCost* delegateOf(const std::string& method, int delegate) const;
    /// The answers for a top-level node (its chain and instruction); empty when it has none.
    std::vector<const core::NodeWhy*> whyOf(const std::string& method, int chain, int instruction) const;
    /// The boundary group an answer belongs to, nullptr for none.
    const core::WhyGroup* groupOf(const core::NodeWhy& answer) const;
    /// Every op type of `method` (only of its delegate `delegate` when given: a delegate's
    /// tab), by op type key.
    std::map<std::string, OpTypeFacts> opTypes(
        const std::string& method, std::optional<int> delegate = std::nullopt) const;

    /// Built by computeNodeFacts: index of cost.nodes by (method, delegate, node).
    std::map<std::tuple<std::string, int, std::uint32_t>, std::size_t> costIndex;
};

/// "constraint fails — kernel 5×1×1 …", "boundary conversion, by design", …: one answer in a line.
QString whyLine(const NodeFacts& facts, const core::NodeWhy& answer);
/// The op type's answers in one cell: "3 nodes: constraint fails — …", "4 nodes: boundary
/// conversion, by design", "2 nodes: 1 constraint fails, 1 no rule — …"; empty when none.
QString whySummary(const NodeFacts& facts, const OpTypeFacts& type);
/// "1 node", "3 nodes".
QString nodeCount(std::size_t count);
/// True for an answer worth a badge: a failing constraint, or a reason a partitioner logged.
bool whyBadgeWorthy(const core::NodeWhy& answer);

/// Computes the cost (with the vendor logs joined) and the why answers of `document` (with the
/// partition logs, and `etrecord` to place their reasons by FX name when given). Never fails:
/// what cannot be computed says why (costError, whyError, warnings). Stops early, returning
/// nullptr, when `cancel` is set. Runs on any thread: reads only its arguments.
std::shared_ptr<const NodeFacts> computeNodeFacts(const core::Document& document, const FactLogs& logs,
    const core::ETRecord* etrecord, const std::atomic<bool>* cancel = nullptr);

} // namespace etscope::ui
