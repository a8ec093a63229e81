// SPDX-License-Identifier: MIT
#include "core/vendorlogs/vendortext.h"

#include <cstdio>

namespace etscope::core::vendor {

namespace {

template <class T> std::string opt(const std::optional<T>& v)
{
    if (!v)
        return "-";
    if constexpr (std::is_floating_point_v<T>) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.2f", *v);
        return buffer;
    } else {
        return std::to_string(*v);
    }
}

} // namespace

std::string velaLogText(const VelaLog& log)
{
    std::string out = "Vela log " + log.path + " (" + std::to_string(log.lines) + " lines)\n";
    for (const VelaSummary& s : log.summaries) {
        out += "Network summary for " + s.network + " (line " + std::to_string(s.line) + ")\n";
        for (const SummaryField& f : s.fields)
            out += "  " + f.label + ": " + f.value + (f.unit.empty() ? "" : " " + f.unit)
                + (f.rest.empty() ? "" : " " + f.rest) + "\n";
    }
    for (const VelaLayerTable& t : log.tables) {
        std::int64_t cycles = 0;
        std::int64_t macs = 0;
        for (const VelaLayerRow& r : t.rows) {
            cycles += r.opCycles.value_or(0);
            macs += r.macCount.value_or(0);
        }
        out += std::string(t.csv ? "Per-layer CSV" : "Per-layer table " + t.graph) + " (line " + std::to_string(t.line)
            + "): " + std::to_string(t.rows.size()) + " rows; summed over the rows (fused ones too, so above the "
            + "network's own totals): " + std::to_string(cycles) + " op cycles, " + std::to_string(macs) + " MACs\n";
    }
    for (const RegisterListing& l : log.listings)
        out += "Register listing (line " + std::to_string(l.line) + "): " + std::to_string(l.commands.size())
            + " commands, " + std::to_string(l.listedWords()) + " of " + opt(l.announcedWords) + " words, "
            + std::to_string(l.operations.size()) + " operations" + (l.complete() ? "" : " (incomplete)") + "\n";
    for (const Warning& w : log.warnings)
        out += "warning: " + w.message + "\n";
    return out;
}

std::string velaJoinText(const VelaJoin& join, const VelaLog& log, const EthosUStream& stream)
{
    std::string out = "Vela log " + std::string(verdictName(join.verdict)) + ": " + join.reason + "\n";
    if (join.comparison) {
        const StreamComparison& c = *join.comparison;
        out += "Register listing vs ETScope's decode: " + std::to_string(c.listedCommands) + " commands listed, "
            + std::to_string(c.decodedCommands) + " decoded; " + std::to_string(c.equalCommands) + " equal, "
            + std::to_string(c.differentCommands) + " different, " + std::to_string(c.onlyListed) + " only listed, "
            + std::to_string(c.onlyDecoded) + " only decoded; " + std::to_string(c.operationsCompared)
            + " operations; fields " + std::to_string(c.fieldsEqual) + " of " + std::to_string(c.fieldsCompared)
            + " equal\n";
        std::size_t shown = 0;
        for (const StreamDifference& d : c.differences) {
            if (++shown > 20)
                break;
            out += "  differs at byte " + std::to_string(d.offset) + " (line " + std::to_string(d.line) + ") " + d.what
                + ": listed '" + d.listed + "', decoded '" + d.decoded + "'\n";
        }
    }
    if (join.summary >= 0) {
        const VelaSummary& s = log.summaries[static_cast<std::size_t>(join.summary)];
        out += "Vela estimate for the delegate: " + opt(s.npuCycles) + " NPU cycles, " + opt(s.totalCycles)
            + " total cycles, " + opt(s.macs) + " MACs, " + opt(s.inferenceTimeMs) + " ms at " + opt(s.clockMHz)
            + " MHz (" + s.accelerator + ", " + s.systemConfiguration + ")\n";
    }
    if (join.verdict != JoinVerdict::Joined || join.table < 0)
        return out;
    const VelaLayerTable& table = log.tables[static_cast<std::size_t>(join.table)];
    out += "Per-layer rows joined " + join.method + ": " + std::to_string(join.rowsJoined) + " rows, "
        + std::to_string(join.rowsLeft) + " left\n";
    for (const VelaOperation& op : join.operations) {
        const ethosu::Operation& decoded = stream.decoded.operations[op.operation];
        out += "  @" + std::to_string(op.offset) + " " + decoded.label;
        if (op.row < 0) {
            out += ": no per-layer row\n";
            continue;
        }
        const VelaLayerRow& r = table.rows[static_cast<std::size_t>(op.row)];
        out += ": " + r.nngOperator + " " + r.name + " (line " + std::to_string(r.line) + ")";
        if (op.parts > 1)
            out += " part " + std::to_string(op.part) + " of " + std::to_string(op.parts);
        out += ": Vela estimate " + opt(r.opCycles) + " op cycles, NPU " + opt(r.npuCycles) + ", SRAM AC "
            + opt(r.sramAccessCycles) + ", DRAM AC " + opt(r.dramAccessCycles) + ", OnFlash AC "
            + opt(r.onChipFlashAccessCycles) + ", OffFlash AC " + opt(r.offChipFlashAccessCycles) + ", "
            + opt(r.macCount) + " MACs, util " + opt(r.utilMacPercent) + " %";
        for (const int f : op.fusedRows) {
            const VelaLayerRow& fr = table.rows[static_cast<std::size_t>(f)];
            out += "; fused " + fr.nngOperator + " " + opt(fr.opCycles) + " op cycles";
        }
        out += "\n";
    }
    return out;
}

std::string runLogText(const RunLog& log)
{
    std::string out = "Runner log " + log.path + " (" + std::to_string(log.lines) + " lines)\n";
    if (log.programSize)
        out += "  program loaded: " + std::to_string(*log.programSize) + " bytes\n";
    out += "  NPU inferences: " + opt(log.npuInferences) + ", NPU delegations: " + opt(log.npuDelegations) + "\n";
    for (const OperatorCycles& op : log.operatorCycles)
        out += "  " + op.tag + ": " + std::to_string(op.cycles) + " CPU cycles (line " + std::to_string(op.line)
            + ")\n";
    out += "  Operator(s) total: " + opt(log.operatorsTotal) + " CPU cycles; inference runtime: "
        + opt(log.inferenceRuntime) + " CPU cycles; CPU ratio " + opt(log.cpuRatioPercent) + " %, NPU ratio "
        + opt(log.npuRatioPercent) + " %; cpu_wait_for_npu_cntr: " + opt(log.cpuWaitForNpu) + "\n";
    out += "  ethosu_pmu_cycle_cntr: " + opt(log.npuCycles) + " NPU cycles\n";
    for (const PmuCounter& c : log.counters)
        out += "  ethosu_pmu_cntr" + std::to_string(c.index) + " (" + (c.event.empty() ? "event not named" : c.event)
            + "): " + std::to_string(c.count) + "\n";
    for (const Warning& w : log.warnings)
        out += "warning: " + w.message + "\n";
    return out;
}

std::string runJoinText(const RunJoin& join)
{
    std::string out = "Runner log " + std::string(verdictName(join.verdict)) + ": " + join.reason + "\n";
    if (join.verdict == JoinVerdict::Refused)
        return out;
    for (const MeasuredNode& m : join.delegates) {
        out += "  " + m.label + ": measured " + opt(m.npuCycles) + " NPU cycles, " + opt(m.cpuCycles)
            + " CPU cycles per inference";
        for (const PmuCounter& c : m.counters)
            out += ", " + (c.event.empty() ? "cntr" + std::to_string(c.index) : c.event) + " "
                + std::to_string(c.count);
        out += " (" + m.note + ")\n";
    }
    for (const MeasuredNode& m : join.cpuNodes)
        out += "  " + m.label + ": " + (m.cpuCycles ? std::to_string(*m.cpuCycles) + " CPU cycles" : "-") + " ("
            + m.note + ")\n";
    if (!join.cpuNote.empty())
        out += "  " + join.cpuNote + "\n";
    return out;
}

} // namespace etscope::core::vendor
