// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/numericgap.h"
#include "core/debug/runtimeprofile.h"
#include "core/table/heattable.h"

#include <string>
#include <utility>
#include <vector>

namespace etscope::core {

/// The numeric gap as heat: one row per compared value (execution order, NodeOrigin of the node),
/// columns mse, l1, snr (dB), cosine, maxabs and, for imported tables, the Inspector's own gap
/// (its last value). Values that could not be computed are empty cells; a NaN (inf − inf in the
/// run) stays NaN. Each metric column names its identical value (gapIdenticalValue: SNR +inf,
/// cosine 1, mse 0), which paints as the best end, apart from the ramp (heatscale.h).
HeatTable gapHeatTable(const GapReport& report);
/// One row of gapHeatTable (`imported`: the report has an Inspector gap column), for rows that
/// arrive one at a time and are not kept as GapRows.
HeatTable::Row gapHeatRow(const GapRow& row, bool imported);

/// Node timings as heat: one row per timed node (execution order), columns p50, p90, avg, min,
/// max in ms, the OPERATOR_CALL span's p50 where one was logged, and last the count of samples
/// (runs) behind the statistics, which is no cost (higherIsWorse false, unit "runs").
HeatTable timingHeatTable(const RuntimeProfile& profile);

/// Several runs side by side (e.g. before/after a change): the average kernel time in ms of
/// every node per run, one column per labelled profile; rows in the first profile's order, then
/// nodes only later profiles timed.
HeatTable timingComparisonHeatTable(const std::vector<std::pair<std::string, const RuntimeProfile*>>& runs);

} // namespace etscope::core
