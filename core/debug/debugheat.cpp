// SPDX-License-Identifier: MIT
#include "core/debug/debugheat.h"

#include <algorithm>
#include <cmath>

namespace etscope::core {

namespace {

constexpr GapMetric kGapMetrics[] { GapMetric::Mse, GapMetric::L1, GapMetric::Snr, GapMetric::Cosine,
    GapMetric::MaxAbs };

} // namespace

HeatTable gapHeatTable(const GapReport& report)
{
    HeatTable table;
    table.title = "Numeric gap (" + report.mode + ")";
    for (const GapMetric metric : kGapMetrics)
        table.columns.push_back({ std::string(gapMetricName(metric)), gapHigherIsWorse(metric),
            metric == GapMetric::Snr ? "dB" : "", gapIdenticalValue(metric) });
    const bool imported = report.importedMetric.has_value();
    if (imported)
        table.columns.push_back({ "inspector " + std::string(gapMetricName(*report.importedMetric)),
            gapHigherIsWorse(*report.importedMetric), *report.importedMetric == GapMetric::Snr ? "dB" : "",
            gapIdenticalValue(*report.importedMetric) });
    for (const GapRow& row : report.rows)
        table.rows.push_back(gapHeatRow(row, imported));
    return table;
}

HeatTable::Row gapHeatRow(const GapRow& row, bool imported)
{
    HeatTable::Row heat;
    heat.origin = row.matched ? row.origin : NodeOrigin { NodeId::none(), NodeId::none() };
    heat.label = row.outputIndex > 0 ? row.label + " [" + std::to_string(row.outputIndex) + "]" : row.label;
    // NaN stays: a run that produced NaN shows it in a colour of its own (heatscale.h).
    for (const GapMetric metric : kGapMetrics)
        heat.values.push_back(row.metrics ? std::optional<double>(row.metrics->value(metric)) : std::nullopt);
    if (imported)
        heat.values.push_back(row.imported.empty() ? std::nullopt : std::optional<double>(row.imported.back()));
    return heat;
}

HeatTable timingHeatTable(const RuntimeProfile& profile)
{
    HeatTable table;
    table.title = "Runtime (" + std::to_string(profile.executeBlocks) + " run(s))";
    for (const char* name : { "p50", "p90", "avg", "min", "max", "span p50" })
        table.columns.push_back({ std::string(name) + " (ms)", true, "ms" });
    // The sample count is no cost. HeatTable cannot mark a column as "not a metric", so it comes
    // last (the panel colours by the first column by default) and counts fewer samples as worse:
    // statistics over fewer runs say less.
    table.columns.push_back({ "count", false, "runs" });
    for (const NodeTiming& timing : profile.nodes) {
        HeatTable::Row row;
        row.origin = timing.origin;
        row.label = timing.label;
        const TimingStats& k = timing.kernel;
        for (const double v : { k.p50, k.p90, k.avg, k.min, k.max })
            row.values.emplace_back(profile.toMs(v));
        row.values.push_back(timing.span ? std::optional<double>(profile.toMs(timing.span->p50)) : std::nullopt);
        row.values.emplace_back(static_cast<double>(k.count));
        table.rows.push_back(std::move(row));
    }
    return table;
}

HeatTable timingComparisonHeatTable(const std::vector<std::pair<std::string, const RuntimeProfile*>>& runs)
{
    HeatTable table;
    table.title = "Runtime per run (avg, ms)";
    for (const auto& [label, profile] : runs)
        table.columns.push_back({ label + " (ms)", true, "ms" });
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const RuntimeProfile& profile = *runs[r].second;
        for (const NodeTiming& timing : profile.nodes) {
            auto it = std::find_if(table.rows.begin(), table.rows.end(),
                [&](const HeatTable::Row& row) { return row.origin == timing.origin; });
            if (it == table.rows.end()) {
                HeatTable::Row row;
                row.origin = timing.origin;
                row.label = timing.label;
                row.values.assign(runs.size(), std::nullopt);
                table.rows.push_back(std::move(row));
                it = table.rows.end() - 1;
            }
            it->values[r] = profile.toMs(timing.kernel.avg);
        }
    }
    return table;
}

} // namespace etscope::core
