// SPDX-License-Identifier: MIT
// libFuzzer target: an Inspector numeric-gap table (CSV, TSV, JSON, or as pandas or tabulate
// print it; recognised from the text) through parseInspectorTable, then imported onto a graph
// and shown as the gap table, as `etscope gap --inspector` does. Without a program no row
// matches a node; the import still recomputes every metric from the printed tensors.
#include "core/debug/debugheat.h"
#include "core/debug/eventmapper.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)parsePrintedTensors(text);
    auto rows = parseInspectorTable(text, "fuzz.csv");
    if (!rows)
        return 0;
    const Graph graph;
    const EventMapper mapper(graph);
    const GapReport report = mapInspectorTable(rows.value(), mapper, GapMetric::Snr, "fuzz.csv");
    etscope::fuzz::renderEverywhere(gapTable(report, std::nullopt, true));
    (void)gapHeatTable(report);
    // `gap --inspector-table --first-divergence`: the jump rule over the imported gaps, and the
    // metric thresholds over the recomputed ones.
    for (const bool imported : { true, false }) {
        const DivergenceRule rule(defaultDivergenceThresholds(imported), GapMetric::Snr);
        const auto divergence = findFirstDivergence(report, mapper, rule);
        std::size_t compared = 0;
        for (const GapRow& row : report.rows)
            compared += gapRowCompared(row) ? 1 : 0;
        (void)firstDivergenceLines(
            divergence, divergence ? &report.rows[divergence->row] : nullptr, report.rows.size(), compared, rule);
    }
    return 0;
}
