// SPDX-License-Identifier: MIT
// The layouts follow the readers' sources (core/vendorlogs/velalog.h, runlog.h): Vela's
// print_regor_perlayer_performance column widths and stats_writer.py's summary lines, the
// executor runner's arm_perf_monitor.cpp report lines.
#include "core/writer/vendorlogwriter.h"

#include <array>
#include <cstdio>

namespace etscope::core {

namespace {

std::string format(const char* pattern, auto... values)
{
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, pattern, values...);
    return buffer;
}

std::string finish(std::string text, bool crlf, std::optional<std::size_t> cut)
{
    if (crlf) {
        std::string out;
        out.reserve(text.size() * 2);
        for (const char c : text) {
            if (c == '\n')
                out += '\r';
            out += c;
        }
        text = std::move(out);
    }
    if (cut && *cut < text.size())
        text.resize(*cut);
    return text;
}

struct Column {
    const char* name;
    bool left;
    int width;
};
constexpr std::array<Column, 16> kColumns { { { "Original Operator", true, 20 }, { "NNG Operator", true, 20 },
    { "Target", true, 6 }, { "Staging Usage", false, 13 }, { "Peak% (Staging)", false, 16 }, { "Op Cycles", false, 10 },
    { "Network% (cycles)", false, 17 }, { "NPU", false, 10 }, { "SRAM AC", false, 10 }, { "DRAM AC", false, 10 },
    { "OnFlash AC", false, 10 }, { "OffFlash AC", false, 11 }, { "MAC Count", false, 10 },
    { "Network% (MAC)", false, 14 }, { "Util% (MAC)", false, 12 }, { "Name", true, 20 } } };

std::array<std::string, 16> cells(const VelaRowSpec& r)
{
    return { r.originalOperator, r.nngOperator, r.target, std::to_string(r.stagingUsage), format("%.2f", r.peakPercent),
        std::to_string(r.opCycles), format("%.2f", r.networkCyclesPercent), std::to_string(r.npuCycles),
        std::to_string(r.sramAc), std::to_string(r.dramAc), std::to_string(r.onFlashAc), std::to_string(r.offFlashAc),
        std::to_string(r.macs), format("%.2f", r.networkMacPercent), format("%.2f", r.utilPercent), r.name };
}

std::string pad(const std::string& text, bool left, int width)
{
    const auto w = static_cast<std::size_t>(width);
    if (text.size() >= w)
        return text;
    return left ? text + std::string(w - text.size(), ' ') : std::string(w - text.size(), ' ') + text;
}

} // namespace

std::string writeVelaLog(const VelaLogSpec& spec)
{
    const VelaLogDamage& damage = spec.damage;
    std::string out = "Lowering to TOSA...\nclass GraphModule(torch.nn.Module):\n    def forward(self, x):\n\n";
    if (!spec.listing.empty()) {
        std::size_t words = 0;
        for (const VelaListedCommandSpec& c : spec.listing)
            words += c.payload ? 2 : 1;
        out += "Register command stream: " + std::to_string(spec.announcedWords.value_or(words)) + " words\n";
        out += "  Offset: Payload Param Code - Command                        Param, Fields\n";
        std::uint32_t offset = 0;
        std::size_t n = 0;
        for (const VelaListedCommandSpec& c : spec.listing) {
            if (!c.operation.empty())
                out += "// " + c.operation + "\n";
            const std::uint32_t param = c.word >> 16;
            out += format("0x%06x: ", offset) + (c.payload ? format("%08x", *c.payload) : std::string(8, ' '))
                + format(" %04x %04x - ", param, c.word & 0xFFFF) + pad(c.name, true, 30) + format(" %5u", param)
                + (c.fields.empty() ? "" : ", " + c.fields) + "\n";
            offset += c.payload ? 8 : 4;
            if (damage.interleave && ++n == 3)
                out += "[warn] something else printed this\n";
        }
        out += "\n";
    }
    if (damage.longLineBytes)
        out += std::string(damage.longLineBytes, 'x') + "\n";
    if (!spec.rows.empty()) {
        out += "\n" + std::string(80, '#') + "\nPerformance for NPU Grap /tmp/output/" + spec.network + "\n";
        std::string header;
        std::string dashes;
        const auto addColumn = [&](const std::string& name, bool left, int width) {
            const std::string cell = pad(name, left, width);
            header += cell + " ";
            dashes += std::string(cell.size(), '-') + " ";
        };
        for (const Column& c : kColumns) {
            if (c.name == damage.dropColumn)
                continue;
            if (!damage.unknownColumn.empty() && std::string_view(c.name) == "Name")
                addColumn(damage.unknownColumn, false, 10);
            addColumn(c.name, c.left, c.width);
        }
        out += header + "\n" + dashes + "\n";
        std::size_t n = 0;
        for (const VelaRowSpec& r : spec.rows) {
            const auto values = cells(r);
            std::string line;
            for (std::size_t i = 0; i < kColumns.size(); ++i) {
                if (kColumns[i].name == damage.dropColumn)
                    continue;
                if (!damage.unknownColumn.empty() && std::string_view(kColumns[i].name) == "Name")
                    line += pad("7", false, 10) + " ";
                line += pad(values[i], kColumns[i].left, kColumns[i].width) + " ";
            }
            out += line + "\n";
            if (damage.interleave && ++n == 1)
                out += "W0102 12:00:00.123 other process: a foreign line\n";
        }
        out += "\n";
    }
    if (spec.summary) {
        const std::string gap = damage.tabs ? "\t\t" : "          ";
        out += "Network summary for " + spec.network + "\n";
        out += "Accelerator configuration" + gap + spec.accelerator + "\n";
        out += "System configuration" + gap + spec.systemConfiguration + "\n";
        out += "Memory mode" + gap + spec.memoryMode + "\n";
        out += "Accelerator clock" + gap + std::to_string(spec.clockMHz) + " MHz\n";
        out += "Design peak SRAM bandwidth" + gap + "3.73 GB/s\n\n";
        out += "Total SRAM used" + gap + format("%.2f", spec.sramUsedKiB) + " KiB\n";
        out += "Total Off-chip Flash used" + gap + format("%.2f", spec.flashUsedKiB) + " KiB\n\n";
        out += format("CPU operators = %d (%.1f%%)\n", spec.cpuOperators,
            spec.cpuOperators + spec.npuOperators ? 100.0 * spec.cpuOperators / (spec.cpuOperators + spec.npuOperators)
                                                  : 0.0);
        out += format("NPU operators = %d (%.1f%%)\n\n", spec.npuOperators,
            spec.cpuOperators + spec.npuOperators ? 100.0 * spec.npuOperators / (spec.cpuOperators + spec.npuOperators)
                                                  : 0.0);
        out += "Total   SRAM bandwidth            per input" + gap + "0.00 MB/inference (batch size 1)\n\n";
        out += "Neural network macs" + gap + std::to_string(spec.macs) + " MACs/batch\n\n";
        out += "Info: The numbers below are internal compiler estimates.\n";
        out += "For performance numbers the compiled network should be run on an FVP Model or FPGA.\n\n";
        out += "NPU cycles" + gap + std::to_string(spec.npuCycles) + " cycles/batch\n";
        out += "SRAM Access cycles" + gap + std::to_string(spec.sramAccessCycles) + " cycles/batch\n";
        out += "DRAM Access cycles" + gap + std::to_string(spec.dramAccessCycles) + " cycles/batch\n";
        out += "On-chip Flash Access cycles" + gap + std::to_string(spec.onChipFlashAccessCycles) + " cycles/batch\n";
        out += "Off-chip Flash Access cycles" + gap + std::to_string(spec.offChipFlashAccessCycles) + " cycles/batch\n";
        out += "Total cycles" + gap + std::to_string(spec.totalCycles) + " cycles/batch\n\n";
        out += "Batch Inference time" + gap
            + format("%.2f ms, %.2f inferences/s (batch size 1)", spec.inferenceMs, spec.inferencesPerSecond) + "\n\n";
    }
    out += "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        return (x,)\n";
    return finish(std::move(out), damage.crlf, damage.cutAtByte);
}

std::string writeVelaPerLayerCsv(const VelaLogSpec& spec)
{
    const VelaLogDamage& damage = spec.damage;
    std::string out;
    std::string header;
    for (const Column& c : kColumns) {
        if (c.name == damage.dropColumn)
            continue;
        if (!damage.unknownColumn.empty() && std::string_view(c.name) == "Name")
            header += damage.unknownColumn + ",";
        header += std::string(c.name) + ",";
    }
    header.pop_back();
    out += header + "\n";
    for (const VelaRowSpec& r : spec.rows) {
        const auto values = cells(r);
        std::string line;
        for (std::size_t i = 0; i < kColumns.size(); ++i) {
            if (kColumns[i].name == damage.dropColumn)
                continue;
            if (!damage.unknownColumn.empty() && std::string_view(kColumns[i].name) == "Name")
                line += "7,";
            line += values[i] + ",";
        }
        line.pop_back();
        out += line + "\n";
    }
    return finish(std::move(out), damage.crlf, damage.cutAtByte);
}

std::string writeRunLog(const RunLogSpec& spec)
{
    int lineNumber = 100;
    const auto log = [&](const std::string& text) {
        return (spec.etLogPrefix ? format("I [executorch:arm_perf_monitor.cpp:%d StopMeasurements()] ", ++lineNumber)
                                 : std::string())
            + text + "\n";
    };
    const double n = spec.inferences > 0 ? spec.inferences : 1;
    std::string out = "[runner] main begin\n";
    if (spec.programSize)
        out += format("PTE Model data loaded. Size: %llu bytes.\n", static_cast<unsigned long long>(spec.programSize));
    out += format("Starting running %d inferences...\n", spec.inferences);
    out += log(format("NPU Inferences : %d", spec.inferences));
    out += log(format("NPU delegations: %d (%.2f per inference)", spec.delegations, spec.delegations / n));
    out += log("Profiler report, CPU cycles per operator:");
    std::uint64_t total = 0;
    for (const auto& [tag, cycles] : spec.operatorCycles) {
        out += log(format("%s : cycle_cnt : %llu cycles (%.2f per inference)", tag.c_str(),
            static_cast<unsigned long long>(cycles), static_cast<double>(cycles) / n));
        total += cycles;
    }
    out += log(format("Operator(s) total: %llu CPU cycles (%.2f per inference)", static_cast<unsigned long long>(total),
        static_cast<double>(total) / n));
    out += log(format("Inference runtime: %llu CPU cycles total (%.2f per inference)",
        static_cast<unsigned long long>(spec.inferenceRuntime), static_cast<double>(spec.inferenceRuntime) / n));
    out += log("NOTE: CPU cycle values and ratio calculations require FPGA and identical CPU/NPU frequency");
    out += log(format("Inference CPU ratio: %.2f %%", spec.cpuRatio));
    out += log(format("Inference NPU ratio: %.2f %%", spec.npuRatio));
    out += log(format("cpu_wait_for_npu_cntr : %llu CPU cycles (%.2f per inference)",
        static_cast<unsigned long long>(spec.cpuWaitForNpu), static_cast<double>(spec.cpuWaitForNpu) / n));
    out += log("Ethos-U PMU report:");
    out += log(format("ethosu_pmu_cycle_cntr : %llu (%.2f per inference)",
        static_cast<unsigned long long>(spec.npuCycles), static_cast<double>(spec.npuCycles) / n));
    for (std::size_t i = 0; i < spec.counters.size(); ++i)
        out += log(format("ethosu_pmu_cntr%zu : %llu (%.2f per inference)", i,
            static_cast<unsigned long long>(spec.counters[i]), static_cast<double>(spec.counters[i]) / n));
    if (!spec.events.empty()) {
        std::string list;
        for (const std::string& e : spec.events)
            list += (list.empty() ? "" : ", ") + e;
        out += log("Ethos-U PMU Events:[" + list + "]");
    }
    out += format("%d inferences finished\nProgram complete, exiting.\n", spec.inferences);
    return finish(std::move(out), spec.crlf, spec.cutAtByte);
}

} // namespace etscope::core
