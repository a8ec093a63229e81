// SPDX-License-Identifier: MIT
#include "core/analysis/stagegap.h"

#include "core/analysis/gappairing.h"

#include "core/util/mappedfile.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
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

/// Builds a table stage's run row by row: each row goes through InspectorGapMapper for its
/// node; the AOT tensors of rows on a top-level node are kept.
class TableStageBuilder {
public:
    TableStageBuilder(const EventMapper& mapper, const std::string& path)
        : m_mapper(mapper)
        , m_path(path)
        , m_gap(mapper, GapMetric::Mse, path, [this](GapRow&& row) { place(row); })
    {
    }

    void add(const InspectorRow& row)
    {
        m_current = &row;
        m_gap.add(row);
        m_current = nullptr;
        ++m_rows;
    }

    TableStageRun finish(std::vector<Warning> readWarnings)
    {
        TableStageRun out;
        out.rows = m_rows;
        out.placed = m_items.size();
        // The program's execution order (instruction ids), as an ETDump logs it; rows on one
        // instruction keep the table's order.
        std::stable_sort(m_items.begin(), m_items.end(),
            [](const Item& a, const Item& b) { return a.instruction.value < b.instruction.value; });
        RunBlock block;
        block.name = "Execute";
        std::vector<std::uint8_t> bytes;
        for (Item& item : m_items) {
            for (const PrintedTensor& tensor : item.tensors) {
                DebugEvent event;
                event.chainIndex = 0;
                event.instructionId = item.instruction;
                event.name = "aot_intermediate_output";
                event.value.kind = DebugValue::Kind::Tensor;
                DebugTensor t;
                t.scalarType = scalar_type::Float;
                std::uint64_t count = 1;
                bool shapeFits = true;
                for (const std::int64_t d : tensor.shape) {
                    shapeFits = shapeFits && d >= 0;
                    count *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
                }
                t.sizes = shapeFits && count == tensor.values.size()
                    ? tensor.shape
                    : std::vector<std::int64_t> { static_cast<std::int64_t>(tensor.values.size()) };
                t.strides.assign(t.sizes.size(), 1);
                for (std::size_t d = t.sizes.size(); d-- > 1;)
                    t.strides[d - 1] = t.strides[d] * std::max<std::int64_t>(t.sizes[d], 1);
                t.offset = static_cast<std::int64_t>(bytes.size());
                t.inBuffer = true;
                // float32, as the eager model computes and the program declares its float
                // values (a DOUBLE log would fail the check that a run fits its program); the
                // printed decimals are rounded to it. Little-endian, as a run logs them.
                for (const double v : tensor.values) {
                    const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
                    for (int b = 0; b < 4; ++b)
                        bytes.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
                }
                event.value.tensors = { std::move(t) };
                event.sequence = block.debugEvents.size();
                block.debugEvents.push_back(std::move(event));
            }
        }
        out.dump.file = MappedFile::fromBytes(m_path, {});
        out.dump.runs.push_back(std::move(block));
        out.dump.buffer = DebugBuffer { MappedFile::fromBytes(m_path, bytes) };

        GapReport report = m_gap.finish(std::move(readWarnings));
        out.warnings = std::move(report.warnings);
        for (Warning& w : out.warnings)
            if (w.message.rfind(m_path, 0) != 0)
                w.message = m_path + ": " + w.message;
        const auto count = [&](std::size_t n, const std::string& why) {
            if (n)
                out.warnings.push_back({ m_path + ": " + std::to_string(n) + " of " + std::to_string(m_rows)
                        + " Inspector row(s) " + why + " and are left out of the stage",
                    std::nullopt });
        };
        count(m_inside, "fall on a node inside a delegate (a table stage fills top-level nodes only)");
        count(m_noAot, "have no aot_intermediate_output (or an empty one)");
        count(m_summarised, "printed their AOT tensor summarised (…)");
        count(m_duplicate, "fall on a node an earlier row already filled");
        count(m_unplaceable, "fall on a node that is no instruction of method '" + m_mapper.method() + "'");
        if (m_rows == 0)
            out.warnings.push_back({ m_path + ": the Inspector table has no rows", std::nullopt });
        else if (m_items.empty())
            out.warnings.push_back({ m_path + ": none of the " + std::to_string(m_rows)
                    + " Inspector row(s) maps onto a node of method '" + m_mapper.method()
                    + "' with AOT values: the stage has nothing to compare (is it the table of this "
                      "program? give PROGRAM:TABLE:ETRECORD for debug handles)",
                std::nullopt });
        out.description = "Inspector table " + fileName(m_path) + " (aot_intermediate_output, "
            + std::to_string(m_items.size()) + " of " + std::to_string(m_rows) + " row(s) placed)";
        return out;
    }

private:
    struct Item {
        InstructionId instruction;
        std::vector<PrintedTensor> tensors;
    };

    void place(const GapRow& row)
    {
        if (!row.matched || !m_current)
            return; // counted by InspectorGapMapper's own warning
        if (row.origin.inner.valid()) {
            ++m_inside;
            return;
        }
        // A tensor without numbers ("tensor([])") has nothing to compare either.
        if (m_current->aotOutput.empty()
            || std::any_of(m_current->aotOutput.begin(), m_current->aotOutput.end(),
                [](const PrintedTensor& t) { return t.values.empty(); })) {
            ++m_noAot;
            return;
        }
        for (const PrintedTensor& t : m_current->aotOutput)
            if (!t.complete) {
                ++m_summarised;
                return;
            }
        // The run's events are placed by instruction id: keep the row only when its node is
        // where the instruction's events land.
        const EventPlacement placement = m_mapper.placeInstruction(ChainIndex(0), row.instruction);
        if (!row.instruction.valid() || !placement.matched || placement.origin.top != row.origin.top) {
            ++m_unplaceable;
            return;
        }
        if (!m_filled.insert(row.instruction.value).second) {
            ++m_duplicate;
            return;
        }
        m_items.push_back({ row.instruction, m_current->aotOutput });
    }

    const EventMapper& m_mapper;
    std::string m_path;
    InspectorGapMapper m_gap;
    const InspectorRow* m_current = nullptr;
    std::vector<Item> m_items;
    std::set<std::int32_t> m_filled;
    std::size_t m_rows = 0, m_inside = 0, m_noAot = 0, m_summarised = 0, m_duplicate = 0, m_unplaceable = 0;
};

} // namespace

TableStageRun tableStageRun(const InspectorTable& table, const EventMapper& mapper, const std::string& path)
{
    TableStageBuilder builder(mapper, path);
    for (const InspectorRow& row : table.rows)
        builder.add(row);
    return builder.finish(table.warnings);
}

Result<TableStageRun> readTableStageRun(const std::string& path, const EventMapper& mapper, std::uint64_t maxBytes)
{
    TableStageBuilder builder(mapper, path);
    auto warnings = readInspectorTableFile(
        path, [&](InspectorRow&& row) { builder.add(row); }, maxBytes);
    if (!warnings)
        return warnings.error();
    return builder.finish(std::move(warnings).value());
}

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
        report.sources.push_back(stage.document->path + ", "
            + (stage.run.empty() ? "run " + describeExecuteBlock(*stage.dump, stage.block) : stage.run)
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
            row.instruction.valid() ? TableCell(static_cast<long long>(row.instruction.value)) : TableCell(kNoValue),
            static_cast<long long>(row.outputIndex),
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
