// SPDX-License-Identifier: MIT
// Plain text of vendor figures and their joins, for the CLI to print (`etscope cost --vela LOG
// --run-log LOG`) and for tests to read. Every number says where it comes from; what could not
// be joined says why.
#pragma once

#include "core/vendorlogs/vendorjoin.h"

#include <string>

namespace etscope::core::vendor {

/// The network summary (every field), the per-layer tables (row counts and totals) and the
/// register listing (commands, words, operations) of a Vela log, and its warnings.
std::string velaLogText(const VelaLog& log);
/// The join: its verdict and reason, the listing comparison (counts and the first differences)
/// and one line per NPU operation with Vela's figures ("Vela estimate: N cycles").
std::string velaJoinText(const VelaJoin& join, const VelaLog& log, const EthosUStream& stream);
/// The runner's measurements.
std::string runLogText(const RunLog& log);
/// The runner join: measured figures on the delegate and the CPU nodes, or why there are none.
std::string runJoinText(const RunJoin& join);

} // namespace etscope::core::vendor
