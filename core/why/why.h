// SPDX-License-Identifier: MIT
#pragma once

#include "core/why/partitionlog.h"
#include "core/why/rules.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

struct Document;
struct ETRecord;

/// The kinds of answer to "why did this node stay on the CPU" (issue 35).
enum class WhyKind : std::uint8_t {
    Fails, ///< a rule's constraint fails, with the node's actual value
    NoRule, ///< no rule of the backend covers the operator (the backend does not take it)
    AllHold, ///< every known constraint holds: the partitioner's log will say why
    Boundary, ///< a quantize/dequantize at a delegate's edge: a boundary conversion, by design
};

/// "constraint fails", "no rule", "constraints hold", "boundary".
std::string_view whyKindName(WhyKind kind);

/// A logged reason placed on a node, and how it was matched.
struct PlacedReason {
    LogReason reason;
    std::string matched; ///< "FX node name through the ETRecord (debug handle 12)", "operator type and order (2nd)", …
};

/// The answer for one non-delegated top-level operator node against one backend.
struct NodeWhy {
    std::string method;
    int chain = 0;
    int instruction = -1; ///< the KernelCall's index in its chain (the graph node's instruction)
    std::string opType; ///< "aten::avg_pool3d.out"
    std::string fxName; ///< the FX node name when an ETRecord gave it
    std::string backend; ///< the backend whose rules were checked
    std::string target; ///< its target ("Ethos-U55"), when known
    WhyKind kind = WhyKind::AllHold;
    std::string reason; ///< in words, with the node's actual values
    std::string source; ///< where the rule (or list) comes from: repository, path, commit
    std::string matched; ///< how the answer was reached: "rule table", "boundary: reads a delegate output", …
    int group = -1; ///< Boundary: index into WhyReport::groups
    std::vector<PlacedReason> logged; ///< the partition logs' reasons for this node
};

/// Quantize/dequantize nodes at delegate edges, explained once.
struct WhyGroup {
    std::string method;
    std::string backend;
    std::vector<std::string> opTypes; ///< distinct, in first-seen order
    int nodes = 0;
    std::string reason;
    std::string source;
};

/// Everything `etscope why` reports.
struct WhyReport {
    std::string program;
    std::vector<std::string> backends; ///< the backends checked
    std::vector<NodeWhy> nodes; ///< method order, then instruction order (one per node and backend)
    std::vector<WhyGroup> groups;
    std::vector<std::string> logs; ///< the logs read
    int logReasons = 0; ///< reasons read from the logs
    int placedReasons = 0; ///< of which placed on a node
    std::vector<Warning> warnings; ///< the logs' warnings and the reasons that matched no node

    /// Nodes of one kind (Boundary counts nodes, not groups).
    int count(WhyKind kind) const;
    /// The answers for one node (chain, instruction) of `method`; empty when it has none.
    std::vector<const NodeWhy*> answersFor(std::string_view method, int chain, int instruction) const;
};

struct WhyOptions {
    /// Check against this backend instead of the program's own ("XnnpackBackend"); empty: the
    /// backends of the program's delegates.
    std::string backend;
    /// The target the rules are chosen for when `backend` is given ("Ethos-U55"); empty: any.
    std::string target;
};

/// Answers, for every KernelCall (a top-level operator outside every delegate) of every method
/// of `document.program`, why it stayed on the CPU: by rule (rules.h), plus the reasons of
/// `logs` placed on their nodes — by FX node name through `etrecord` when given, otherwise by
/// operator type and order (QNN and Core ML lines by type). Error::Usage when the document holds
/// no program, or `options.backend` names a backend without rules.
Result<WhyReport> explainProgram(const Document& document, const std::vector<PartitionLog>& logs,
    const ETRecord* etrecord, const WhyOptions& options = {});

/// The report as `etscope why` prints it: one line per node or boundary group (answer kind,
/// reason, source, how matched), then the totals per kind and the warnings.
std::string whyText(const WhyReport& report);
/// The same as JSON (docs/why.md).
nlohmann::json whyJson(const WhyReport& report);
/// One CSV row per node: method, chain, instruction, op, fx name, backend, target, kind, reason,
/// source, matched, logged reasons.
std::string whyCsv(const WhyReport& report);

} // namespace etscope::core
