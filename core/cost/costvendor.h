// SPDX-License-Identifier: MIT
// The vendors' own figures beside ETScope's (issue 34, item 3): a Vela log joined to each Ethos-U
// delegate of a program (per-layer rows on the NPU kicks, the network summary on the delegate),
// a runner log joined to each method (measured NPU cycles and PMU counters on the delegate call,
// CPU cycles where the log has them). The readers and joins are core/vendorlogs; this puts their
// figures into a CostReport (NodeCost::vendor, DelegateCost::vendor), each labelled with where it
// comes from, and says for every log what was joined, and when not, why.
#pragma once

#include "core/cost/cost.h"
#include "core/document/document.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace etscope::core::cost {

struct VendorLogs {
    std::vector<std::string> vela; ///< Vela console output (--verbose-performance / --verbose-all) or its per-layer CSV
    std::vector<std::string> runs; ///< Arm executor runner output with its PMU report (FVP or board)
};

/// Reads every log and joins it to `document`'s program, adding the figures to `report`. Returns
/// one line per (log, delegate or method) pair: the verdict ("joined", "unverified", "refused")
/// and its reason, and the listing comparison when there was one. A log whose figures do not
/// belong to the program is refused, never attached. Fails only when a log cannot be read.
Result<std::string> joinVendorLogs(CostReport& report, const Document& document, const VendorLogs& logs);

} // namespace etscope::core::cost
