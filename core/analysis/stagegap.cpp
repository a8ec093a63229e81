// SPDX-License-Identifier: MIT
#include "core/analysis/stagegap.h"

#include "core/analysis/gappairing.h"

#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

namespace etscope::core {

namespace {

/// A logged output of a node: (top node, inner node, output index).
struct RowKey {
    std::int32_t top = -1;
    std::int32_t inner = -1;
    int output = 0;
    bool operator<(const RowKey& other) const
    {
        return std::tie(top, inner, output) < std::tie(other.top, other.inner, other.output);
    }
};

RowKey keyOf(const NodeOrigin& origin, int output)
{
    return { origin.top.value, origin.inner.value, output };
}

std::string fileName(const std::string& path)
{
    const std::string name = std::filesystem::path(path).filename().string();
    return name.empty() ? path : name;
}

Result<ProgramGapReport> compareStage(const Stage& run, const Stage& reference, const ProgramGapOptions& options)
{
    auto pairing
        = pairProgramNodes(*reference.document, *run.document, reference.method->name, reference.record, run.record);
    if (!pairing)
        return pairing.error();
    const ProgramRun runSide { run.document->path, run.method, run.mapper, run.dump, run.block };
    const ProgramRun refSide { reference.document->path, reference.method, reference.mapper, reference.dump,
        reference.block };
    return compareProgramRuns(runSide, refSide, *pairing, options);
}

} // namespace

Result<StageGapReport> compareStages(
    const std::vector<Stage>& stages, const DivergenceRule& rule, const ProgramGapOptions& options)
{
    if (stages.size() < 2)
        return makeError(Error::Code::Usage, stages.empty() ? std::string("stages") : stages.front().name,
            "give at least two --stage (the reference first, then the builds compared with it); got "
                + std::to_string(stages.size()));
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const Stage& s = stages[i];
        if (!s.document || !s.method || !s.mapper || !s.dump)
            return makeError(Error::Code::Usage, s.name.empty() ? "stage " + std::to_string(i) : s.name,
                "stage " + std::to_string(i) + " lacks its program, method, event mapper or run");
    }

    StageGapReport report;
    const Stage& first = stages.front();
    report.method = first.method->name;
    for (const Stage& stage : stages) {
        std::string name = stage.name.empty() ? fileName(stage.document->path) : stage.name;
        std::string unique = name;
        for (int n = 2; std::find(report.names.begin(), report.names.end(), unique) != report.names.end(); ++n)
            unique = name + " (" + std::to_string(n) + ")";
        report.names.push_back(unique);
        report.sources.push_back(stage.document->path + ", run " + describeExecuteBlock(*stage.dump, stage.block)
            + (stage.record ? ", with its ETRecord" : ""));
    }
    report.summaries.resize(stages.size());
    report.thresholds = rule.thresholds();

    // The rows: stage 0 against itself, through the same pairing and comparison the later stages
    // go through, so its rows carry the very origins and output indices their pairs name.
    auto self = compareStage(first, first, options);
    if (!self)
        return self.error();
    std::map<RowKey, std::size_t> rowOf;
    for (const ProgramGapRow& r : self->rows) {
        const RowKey key = keyOf(r.referenceOrigin, r.run.outputIndex);
        if (rowOf.count(key))
            continue;
        StageRow row;
        row.origin = r.referenceOrigin;
        row.label = r.referenceLabel;
        row.instruction = r.referenceInstruction;
        row.outputIndex = r.run.outputIndex;
        row.shape = r.referenceShape;
        row.dtype = r.referenceDtype;
        row.cells.resize(stages.size());
        rowOf.emplace(key, report.rows.size());
        report.rows.push_back(std::move(row));
    }
    for (const Warning& w : self->warnings)
        report.warnings.push_back({ "stage 0 (" + report.names[0] + "): " + w.message, w.offset });

    for (std::size_t s = 1; s < stages.size(); ++s) {
        const Stage& stage = stages[s];
        StageSummary& summary = report.summaries[s];
        const std::string who = "stage " + std::to_string(s) + " (" + stage.document->path + ")";
        if (stage.method->name != first.method->name)
            report.warnings.push_back(
                { who + ": method '" + stage.method->name + "' compared with stage 0's '" + first.method->name + "'",
                    std::nullopt });
        auto compared = compareStage(stage, first, options);
        if (!compared) {
            // The pairing failed for this stage only (e.g. a document without a program): its
            // column stays empty and the others are still compared.
            report.warnings.push_back({ who + ": not compared: " + compared.error().message(), std::nullopt });
            summary.firstDivergenceText = "not compared";
            continue;
        }
        for (const Warning& w : compared->warnings)
            report.warnings.push_back({ who + ": " + w.message, w.offset });
        summary.matching = compared->matching;
        summary.pairs = compared->pairs;
        std::vector<std::optional<std::size_t>> joined(compared->rows.size());
        for (std::size_t i = 0; i < compared->rows.size(); ++i) {
            const ProgramGapRow& r = compared->rows[i];
            const auto it = rowOf.find(keyOf(r.referenceOrigin, r.run.outputIndex));
            if (it == rowOf.end() || report.rows[it->second].cells[s].paired) {
                ++summary.unjoined;
                continue;
            }
            joined[i] = it->second;
            StageCell& cell = report.rows[it->second].cells[s];
            cell.paired = true;
            cell.node = r.run.label;
            cell.matchedBy = r.matchedBy;
            cell.metrics = r.run.metrics;
            cell.problem = r.run.problem;
            cell.dequantized = r.dequantized;
            if (r.run.metrics)
                ++summary.compared;
        }
        if (summary.unjoined)
            report.warnings.push_back({ who + ": " + std::to_string(summary.unjoined)
                    + " compared output(s) pair with no output stage 0 logged and are left out of the table",
                std::nullopt });
        std::size_t emptyCells = 0;
        for (const StageRow& row : report.rows)
            emptyCells += row.cells[s].paired ? 0 : 1;
        if (emptyCells)
            report.warnings.push_back(
                { who + ": " + std::to_string(emptyCells) + " of " + std::to_string(report.rows.size())
                        + " output(s) of stage 0 have no partner in " + stage.dump->path() + " (empty cells)"
                        + (compared->notLoggedInside ? "; " + std::to_string(compared->notLoggedInside)
                                    + " of the pairs are inside a delegate that logged only its outputs"
                                                     : std::string()),
                    std::nullopt });

        const auto divergence = findFirstDivergence(*compared, *stage.mapper, *first.mapper, rule);
        if (divergence && divergence->row < joined.size()) {
            summary.firstDivergence = joined[divergence->row];
            summary.firstDivergenceText = joinNodePath(divergence->path);
            if (!divergence->referencePath.empty())
                summary.firstDivergenceText += " (stage 0: " + joinNodePath(divergence->referencePath) + ")";
            summary.firstDivergenceText += ": " + divergence->crossing.text;
        } else {
            summary.firstDivergenceText = "none (" + std::to_string(summary.compared) + " output(s) compared, "
                + describeThresholds(rule.thresholds()) + ")";
        }
    }
    return report;
}

Table stageGapTable(const StageGapReport& report, GapMetric metric, bool forJson)
{
    const std::string metricName(gapMetricName(metric));
    Table table;
    table.title = "Numeric gap by stage (" + metricName + " against stage 0, "
        + (report.names.empty() ? std::string() : report.names[0]) + ")";
    table.columns = { "#", "node", "instruction", "output", "shape", "dtype" };
    for (std::size_t s = 1; s < report.names.size(); ++s) {
        table.columns.push_back(report.names[s] + " " + metricName);
        table.columns.push_back(report.names[s] + " matched_by");
        if (forJson)
            table.columns.push_back(report.names[s] + " problem");
    }
    bool nonFinite = false;
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const StageRow& row = report.rows[r];
        std::vector<TableCell> cells { static_cast<long long>(r), row.label,
            static_cast<long long>(row.instruction.value), static_cast<long long>(row.outputIndex),
            row.shape.empty() && row.dtype.empty() ? std::string() : formatShape(row.shape), row.dtype };
        for (std::size_t s = 1; s < report.names.size() && s < row.cells.size(); ++s) {
            const StageCell& cell = row.cells[s];
            if (cell.metrics) {
                const double value = cell.metrics->value(metric);
                nonFinite = nonFinite || !std::isfinite(value);
                cells.emplace_back(value);
            } else {
                cells.emplace_back(std::string());
            }
            cells.emplace_back(cell.matchedBy);
            if (forJson)
                cells.emplace_back(cell.paired ? cell.problem : std::string("no partner logged by this stage"));
        }
        table.rows.push_back(std::move(cells));
    }
    table.notes.push_back("method '" + report.method + "'; stage 0 (the reference, its outputs are the rows): "
        + (report.sources.empty() ? std::string() : report.sources[0]));
    for (std::size_t s = 1; s < report.names.size(); ++s) {
        const StageSummary& summary = report.summaries[s];
        table.notes.push_back("stage " + std::to_string(s) + " " + report.names[s] + ": " + report.sources[s]
            + "; paired by diff's matching (" + summary.matching + "), " + std::to_string(summary.compared)
            + " output(s) compared");
        table.notes.push_back("stage " + std::to_string(s) + " " + report.names[s] + " first divergence: "
            + (summary.firstDivergence ? "row " + std::to_string(*summary.firstDivergence) + ", " : std::string())
            + summary.firstDivergenceText);
    }
    if (metric == GapMetric::Snr)
        table.notes.emplace_back("snr in dB (higher is closer); inf: identical outputs");
    if (forJson && nonFinite)
        table.notes.emplace_back("JSON has no inf or nan: such metrics are null");
    for (const Warning& warning : report.warnings)
        table.notes.push_back("warning: " + warning.message);
    return table;
}

} // namespace etscope::core
