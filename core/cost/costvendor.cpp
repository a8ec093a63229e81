// SPDX-License-Identifier: MIT
#include "core/cost/costvendor.h"

#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/velalog.h"
#include "core/vendorlogs/vendorjoin.h"

#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace etscope::core::cost {

namespace {

std::string number(std::int64_t value)
{
    return std::to_string(value);
}

std::string decimal(double value, int digits = 2)
{
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(digits);
    out << value;
    return out.str();
}

DelegateCost* findDelegate(CostReport& report, const std::string& method, int delegate)
{
    for (DelegateCost& d : report.delegates)
        if (d.method == method && d.delegate == delegate)
            return &d;
    return nullptr;
}

void add(std::vector<Attribute>& list, std::string name, std::string value)
{
    list.push_back(Attribute { std::move(name), std::move(value) });
}

/// The network summary on the delegate: Vela's own estimate, said to be one.
void addSummary(std::vector<Attribute>& list, const vendor::VelaSummary& summary)
{
    if (!summary.accelerator.empty())
        add(list, "Vela accelerator", summary.accelerator);
    if (!summary.systemConfiguration.empty())
        add(list, "Vela system configuration", summary.systemConfiguration + " / " + summary.memoryMode);
    if (summary.npuCycles)
        add(list, "Vela estimate: NPU cycles", number(*summary.npuCycles));
    if (summary.totalCycles)
        add(list, "Vela estimate: total cycles", number(*summary.totalCycles));
    if (summary.macs)
        add(list, "Vela MACs", number(*summary.macs));
    if (summary.inferenceTimeMs)
        add(list, "Vela estimate: inference time", decimal(*summary.inferenceTimeMs) + " ms");
}

/// A per-layer row on its NPU kick.
void addRow(std::vector<Attribute>& list, const vendor::VelaLayerRow& row, const vendor::VelaOperation& op)
{
    const std::string part = op.parts > 1
        ? " (row shared by " + std::to_string(op.parts) + " kicks; this is part " + std::to_string(op.part) + ")"
        : "";
    if (!row.name.empty())
        add(list, "Vela operator", row.originalOperator + " → " + row.nngOperator + " (" + row.name + ")");
    if (row.opCycles)
        add(list, "Vela estimate: op cycles", number(*row.opCycles) + part);
    if (row.npuCycles)
        add(list, "Vela estimate: NPU cycles", number(*row.npuCycles) + part);
    if (row.sramAccessCycles)
        add(list, "Vela SRAM access cycles", number(*row.sramAccessCycles));
    if (row.dramAccessCycles && *row.dramAccessCycles != 0)
        add(list, "Vela DRAM access cycles", number(*row.dramAccessCycles));
    if (row.offChipFlashAccessCycles && *row.offChipFlashAccessCycles != 0)
        add(list, "Vela off-chip flash access cycles", number(*row.offChipFlashAccessCycles));
    if (row.macCount)
        add(list, "Vela MACs", number(*row.macCount) + part);
    if (row.utilMacPercent)
        add(list, "Vela MAC utilisation", decimal(*row.utilMacPercent) + " %");
    if (!op.fusedRows.empty())
        add(list, "Vela fused rows", std::to_string(op.fusedRows.size()) + " (activation folded into this kick)");
}

std::string joinVela(CostReport& report, const Program& program, const vendor::VelaLog& log)
{
    std::string text;
    bool anyEthosU = false;
    for (const Method& method : program.methods)
        for (std::size_t d = 0; d < method.delegates.size(); ++d) {
            DelegateCost* cost = findDelegate(report, method.name, static_cast<int>(d));
            if (!cost || cost->format != "ethos-u")
                continue;
            anyEthosU = true;
            const std::string where = method.name + " " + cost->backend + " #" + std::to_string(d);
            // The stream computeCost decoded (one decode for the count and every log), else our own.
            std::shared_ptr<const vendor::EthosUStream> stream = cost->stream;
            if (!stream) {
                auto decoded = vendor::ethosUStream(program, method.delegates[d]);
                if (!decoded) {
                    text += "  " + where + ": not joined: " + decoded.error().message() + "\n";
                    continue;
                }
                stream = std::make_shared<const vendor::EthosUStream>(std::move(decoded).value());
            }
            const vendor::VelaJoin join = vendor::joinVelaLog(log, *stream);
            const std::string verdict(vendor::verdictName(join.verdict));
            text += "  " + where + ": " + verdict + ": " + join.reason + "\n";
            if (join.comparison) {
                const vendor::StreamComparison& c = *join.comparison;
                text += "    register listing against ETScope's decode: " + std::to_string(c.equalCommands) + " of "
                    + std::to_string(c.listedCommands) + " commands equal, " + std::to_string(c.fieldsEqual) + " of "
                    + std::to_string(c.fieldsCompared) + " fields equal\n";
            }
            if (join.verdict == vendor::JoinVerdict::Refused) {
                add(cost->vendor, "Vela log", "refused: " + join.reason);
                continue;
            }
            // Unverified (a summary only): shown in the text above, not attached to the delegate.
            if (join.verdict != vendor::JoinVerdict::Joined)
                continue;
            if (join.summary >= 0 && static_cast<std::size_t>(join.summary) < log.summaries.size())
                addSummary(cost->vendor, log.summaries[static_cast<std::size_t>(join.summary)]);
            if (join.table < 0 || static_cast<std::size_t>(join.table) >= log.tables.size())
                continue;
            const vendor::VelaLayerTable& table = log.tables[static_cast<std::size_t>(join.table)];
            std::map<std::uint64_t, const vendor::VelaOperation*> byOffset;
            for (const vendor::VelaOperation& op : join.operations)
                byOffset.emplace(op.offset, &op);
            std::size_t placed = 0;
            for (NodeCost& node : report.nodes) {
                if (node.method != method.name || node.delegate != static_cast<int>(d) || !node.streamOffset)
                    continue;
                const auto it = byOffset.find(*node.streamOffset);
                if (it == byOffset.end() || it->second->row < 0
                    || static_cast<std::size_t>(it->second->row) >= table.rows.size())
                    continue;
                addRow(node.vendor, table.rows[static_cast<std::size_t>(it->second->row)], *it->second);
                ++placed;
            }
            text += "    per-layer rows on " + std::to_string(placed) + " NPU kicks (" + join.method + ")\n";
        }
    if (!anyEthosU)
        text += "  the program has no Ethos-U delegate: nothing to join (the log's summary is not attached)\n";
    return text;
}

std::string joinRun(CostReport& report, const Document& document, const vendor::RunLog& log)
{
    std::string text;
    const Program& program = *document.program;
    for (std::size_t m = 0; m < program.methods.size() && m < document.methods.size(); ++m) {
        const Method& method = program.methods[m];
        const Graph* graph = document.methods[m].graph.get();
        if (!graph)
            continue;
        const vendor::RunJoin join = vendor::joinRunLog(log, program, method, *graph);
        text += "  " + method.name + ": " + std::string(vendor::verdictName(join.verdict)) + ": " + join.reason + "\n";
        if (join.verdict != vendor::JoinVerdict::Joined)
            continue;
        for (const vendor::MeasuredNode& measured : join.delegates) {
            if (!measured.node.valid() || measured.node.index() >= graph->nodes.size())
                continue;
            const Node& node = graph->node(measured.node);
            if (!node.delegate.valid())
                continue;
            DelegateCost* cost = findDelegate(report, method.name, static_cast<int>(node.delegate.index()));
            if (!cost)
                continue;
            if (measured.npuCycles)
                add(cost->vendor, "measured: NPU cycles (ethosu_pmu_cycle_cntr)", std::to_string(*measured.npuCycles));
            if (measured.cpuCycles)
                add(cost->vendor, "measured: CPU cycles of the delegate call", std::to_string(*measured.cpuCycles));
            for (const vendor::PmuCounter& counter : measured.counters)
                add(cost->vendor,
                    "measured: PMU counter " + std::to_string(counter.index)
                        + (counter.event.empty() ? "" : " (" + counter.event + ")"),
                    std::to_string(counter.count));
            if (!measured.note.empty())
                add(cost->vendor, "measured: note", measured.note);
        }
        // The method's top-level rows by node, found once (a scan of every row per measured node
        // was quadratic on the 100k-node LLM).
        std::unordered_map<std::uint32_t, std::vector<NodeCost*>> cpuRows;
        if (!join.cpuNodes.empty())
            for (NodeCost& node : report.nodes)
                if (node.method == method.name && node.delegate < 0)
                    cpuRows[node.node].push_back(&node);
        for (const vendor::MeasuredNode& measured : join.cpuNodes) {
            if (!measured.cpuCycles)
                continue;
            const auto rows = cpuRows.find(static_cast<std::uint32_t>(measured.node.index()));
            if (rows == cpuRows.end())
                continue;
            for (NodeCost* node : rows->second)
                add(node->vendor, "measured: CPU cycles", std::to_string(*measured.cpuCycles));
        }
        if (!join.cpuNote.empty())
            text += "    CPU nodes: " + join.cpuNote + "\n";
        if (join.restOfMethodCyclesPerInference)
            text += "    rest of the method (CPU nodes and runtime together): "
                + decimal(*join.restOfMethodCyclesPerInference, 0) + " CPU cycles per inference\n";
    }
    return text;
}

/// Estimate and measurement side by side on each Ethos-U delegate.
void sideBySide(CostReport& report)
{
    for (DelegateCost& d : report.delegates) {
        std::optional<std::string> vela;
        std::optional<std::string> measured;
        for (const Attribute& a : d.vendor) {
            if (a.name == "Vela estimate: NPU cycles")
                vela = a.value;
            if (a.name == "measured: NPU cycles (ethosu_pmu_cycle_cntr)")
                measured = a.value;
        }
        if (!vela && !measured)
            continue;
        std::string line;
        if (d.totals.estimatedCycles)
            line += "ETScope estimate: " + std::to_string(*d.totals.estimatedCycles) + " cycles";
        if (vela)
            line += (line.empty() ? "" : "; ") + std::string("Vela estimate: ") + *vela + " cycles";
        if (measured)
            line += (line.empty() ? "" : "; ") + std::string("measured: ") + *measured + " cycles";
        add(d.vendor, "NPU cycles", line);
    }
}

} // namespace

Result<std::string> joinVendorLogs(CostReport& report, const Document& document, const VendorLogs& logs)
{
    if (!document.program)
        return makeError(
            Error::Code::Usage, document.path, "is not a program: vendor logs join to a program's delegates");
    std::string text;
    for (const std::string& path : logs.vela) {
        auto log = vendor::readVelaLog(path);
        if (!log)
            return log.error();
        report.vendorSources.push_back("Vela log " + path);
        for (const Warning& w : log->warnings)
            report.warnings.push_back(w);
        text += "Vela log " + path + ": " + std::to_string(log->summaries.size()) + " network summaries, "
            + std::to_string(log->tables.size()) + " per-layer tables, " + std::to_string(log->listings.size())
            + " register listings\n";
        text += joinVela(report, *document.program, *log);
    }
    for (const std::string& path : logs.runs) {
        auto log = vendor::readRunLog(path);
        if (!log)
            return log.error();
        report.vendorSources.push_back("runner log " + path);
        for (const Warning& w : log->warnings)
            report.warnings.push_back(w);
        text += "runner log " + path + ":\n";
        text += joinRun(report, document, *log);
    }
    sideBySide(report);
    return text;
}

} // namespace etscope::core::cost
