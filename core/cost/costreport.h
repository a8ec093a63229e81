// SPDX-License-Identifier: MIT
// What `etscope cost` prints: the text summary (totals per method, backend, delegate and
// operator kind, the NPU operators with their cycle ESTIMATES), JSON (the totals and one row per
// node) and CSV (one row per node).
#pragma once

#include "core/cost/cost.h"
#include "core/table/table.h"

#include <nlohmann/json.hpp>
#include <string>

namespace etscope::core::cost {

std::string costText(const CostReport& report);
/// One row per group of `list` (first column `first`): nodes, counted, no rule, no shape, MACs,
/// ops, bytes read, bytes written, parameter bytes, est. cycles (blank where none).
Table costTotalsTable(const std::string& title, const char* first, const std::vector<CostTotals>& list);
nlohmann::json costJson(const CostReport& report);
std::string costCsv(const CostReport& report);

} // namespace etscope::core::cost
