// SPDX-License-Identifier: MIT
#pragma once

// The CI gate of issue 25: is a new build of a model worse than its baseline by more than the
// rules allow? `etscope check NEW.pte --baseline OLD.pte --budget RULE…`. Every number comes from
// an analysis that already exists: file size and its parts (sizebreakdown), the delegated share
// and the kernels and backends (kernelcheck), the declared memory arenas (the method's
// non_const_buffer_sizes, the "declared" column of `etscope memory`), and operators that left a
// delegate (programdiff's matching).

#include "core/analysis/kernelcheck.h"
#include "core/document/document.h"
#include "core/table/table.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// One rule of the gate, as parsed from its text.
struct GateRule {
    enum class Kind {
        Size, ///< file size may grow by at most `limit` (% or bytes)
        DelegatedShare, ///< the delegated share of nodes may drop by at most `limit` percentage points
        Arena, ///< each method's planned arenas (their sum) may grow by at most `limit` (% or bytes)
        NoNewFallback, ///< no operator that ran inside a delegate runs on the CPU kernels now
        NoNewMissing, ///< no operator or backend newly without a kernel / registration
        NoLostDelegate, ///< every backend the baseline delegated to is still used
        Loads, ///< the new build loads with the kernel lists (the check without baseline)
        SameDeviceFacts, ///< every delegate's "built for" facts (SDK, SoC, NPU, OS) are the baseline's
        Macs, ///< the program's MACs (core/cost) may grow by at most `limit` %
        Cycles, ///< the program's estimated Ethos-U NPU cycles (core/cost) may grow by at most `limit` %
    };
    enum class Unit { None, Percent, Bytes, Points };
    Kind kind = Kind::NoNewMissing;
    std::string text; ///< as given (normalised to lower case)
    Unit unit = Unit::None;
    double limit = 0; ///< Percent or Points
    std::uint64_t bytes = 0; ///< Bytes
};

/// Parses one rule: `size+5%`, `size+100KiB` (B, KB = 1000, KiB = 1024, MB, MiB, GB, GiB),
/// `delegated-share-2pt`, `arena+10%`, `arena+64KiB`, `no-new-fallback`, `no-new-missing`,
/// `no-lost-delegate`, `loads`, `same-device-facts`, `macs+5%`, `cycles+5%` (percentages only).
/// Fails with Error::Code::Usage naming the rule and what is wrong.
Result<GateRule> parseGateRule(std::string_view text);

/// Parses every `--budget`; none gives the defaults (no-new-missing, no-lost-delegate). A rule
/// given twice counts once.
Result<std::vector<GateRule>> parseGateRules(const std::vector<std::string>& texts);

/// The rules in effect when none is given.
std::vector<GateRule> defaultGateRules();

/// One rule evaluated: the old and new values as people read them, the allowed limit and why.
struct GateRow {
    std::string rule; ///< the rule's text
    std::string measure; ///< "file size", "delegated share of nodes", "planned arenas (forward)", …
    std::string oldText, newText, changeText, limitText; ///< "1.2 MiB", "87.5%", "+3.1%", "≤ 1.3 MiB"
    /// The numbers behind them (bytes, percent, counts); absent when not measurable ("n/a").
    /// Growth and share rules compare `newValue` with `limitValue`; the others count
    /// `violations` (operators moved out, kernels newly missing, backends lost, 1 when the new
    /// build does not load) against `limitValue` 0.
    std::optional<double> oldValue, newValue, limitValue;
    std::optional<double> violations;
    std::string unit; ///< "bytes", "percent", "count", "bool" (loads: 1 yes, 0 no)
    bool pass = true;
    /// Why the rule could not be checked (a side has no count: nodes with no cost rule, no
    /// Ethos-U cycle estimate); empty when checked. An unverified rule does not fail the gate
    /// (`pass` stays true) and its verdict says "unverified", never "pass".
    std::string unverified;
    std::vector<std::string> details; ///< which operators fell back, which delegate vanished, …

    /// "pass", "FAIL" or "unverified".
    std::string verdict() const;
};

/// The gate's answer.
struct BuildGate {
    std::string program; ///< the new build's path
    std::string baseline; ///< the baseline's path
    std::vector<GateRow> rows; ///< one per rule, in the order given
    /// True when methods or their inputs differ: the baseline looks like another model. Rules
    /// are still evaluated on what both have.
    bool differentModel = false;
    std::vector<std::string> notes; ///< why it looks different, methods only on one side, …
    std::vector<std::string> kernelLists; ///< the lists both builds were checked against

    bool passed() const;
    int failures() const;
    int unverified() const; ///< rules that could not be checked
};

/// Evaluates `rules` on the new build `current` against `baseline`. `currentCheck` and
/// `baselineCheck` are checkKernels() of each against the same lists. Never fails: a rule that
/// cannot be measured on these files (no nodes, no common method) passes with a detail saying so.
BuildGate evaluateBuildGate(const Document& current, const Document& baseline, const KernelCheck& currentCheck,
    const KernelCheck& baselineCheck, const std::vector<GateRule>& rules);

/// One row per rule: rule, measure, old, new, change, limit, verdict.
Table buildGateTable(const BuildGate& gate);

/// The verdict line, the table, then the details of each rule and the notes.
std::string buildGateText(const BuildGate& gate);

/// {verdict, passed, failures, program, baseline, different_model, notes, kernel_lists,
/// rules: [{rule, measure, unit, old, new, limit, violations, old_text, new_text, change,
/// limit_text, verdict ("pass", "fail", "unverified"), unverified (the reason, or null), details}]}.
nlohmann::ordered_json buildGateJson(const BuildGate& gate);

} // namespace etscope::core
