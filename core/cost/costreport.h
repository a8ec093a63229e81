// SPDX-License-Identifier: MIT
// What `etscope cost` prints: the text summary (totals per method, backend, delegate and
// operator kind, the NPU operators with their cycle ESTIMATES), JSON (the totals and one row per
// node) and CSV (one row per node).
#pragma once

#include "core/cost/cost.h"

#include <nlohmann/json.hpp>
#include <string>

namespace etscope::core::cost {

std::string costText(const CostReport& report);
nlohmann::json costJson(const CostReport& report);
std::string costCsv(const CostReport& report);

} // namespace etscope::core::cost
