// SPDX-License-Identifier: MIT
#include "core/cost/costreport.h"

#include "core/table/table.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace etscope::core::cost {

namespace {

constexpr const char* kEstimateNote
    = "cycles are ETScope's ESTIMATE: max(⌈(MACs + ops) / MACs per cycle⌉, max over AXI ports of ⌈bytes / bytes per "
      "cycle⌉) per NPU kick, from the compile flags' Vela system configuration (docs/cost.md); not Vela's "
      "performance model, not a measurement";

TableCell count(std::uint64_t value)
{
    return static_cast<long long>(value);
}

TableCell optionalCount(const std::optional<std::uint64_t>& value)
{
    return value ? count(*value) : TableCell(kNoValue);
}

std::vector<std::string> totalsColumns(const char* first)
{
    return { first, "nodes", "counted", "no rule", "no shape", "MACs", "ops", "bytes read", "bytes written",
        "parameter bytes", "est. cycles" };
}

std::vector<TableCell> totalsRow(const CostTotals& t, const std::string& name)
{
    return { name, count(t.nodes), count(t.counted), count(t.noRule), count(t.noShape), count(t.macs), count(t.ops),
        count(t.bytesRead), count(t.bytesWritten), count(t.parameterBytes), optionalCount(t.estimatedCycles) };
}

} // namespace

Table costTotalsTable(const std::string& title, const char* first, const std::vector<CostTotals>& list)
{
    Table table;
    table.title = title;
    table.columns = totalsColumns(first);
    for (const CostTotals& t : list)
        table.rows.push_back(totalsRow(t, t.name));
    return table;
}

namespace {

std::string setupText(const NpuSetup& setup)
{
    std::string text = std::string(ethosu::archName(setup.arch)) + " (" + setup.archSource + ")";
    if (setup.macsPerCycle)
        text += ", " + std::to_string(setup.macsPerCycle) + " MACs/cycle (" + setup.macsSource + ")";
    if (setup.system) {
        char clock[32];
        std::snprintf(clock, sizeof clock, "%.0f MHz", setup.system->coreClockHz / 1e6);
        text += "; system config " + setup.system->name + ": " + clock;
        for (int port = 0; port < 2; ++port) {
            const NpuMemory& memory = port == 0 ? setup.system->axi0 : setup.system->axi1;
            char rate[48];
            std::snprintf(rate, sizeof rate, "%g bytes/cycle", portBytesPerCycle(setup, port));
            text += std::string(", Axi") + char('0' + port) + " " + memory.name + " " + rate;
        }
    }
    if (setup.memoryMode)
        text += "; memory mode " + setup.memoryMode->name + " (constants on Axi"
            + std::to_string(setup.memoryMode->constPort) + ", arena on Axi"
            + std::to_string(setup.memoryMode->arenaPort) + ")";
    for (const std::string& note : setup.notes)
        text += "; " + note;
    return text;
}

nlohmann::json totalsJson(const CostTotals& t)
{
    nlohmann::json j = { { "name", t.name }, { "nodes", t.nodes }, { "counted", t.counted }, { "no_rule", t.noRule },
        { "no_shape", t.noShape }, { "macs", t.macs }, { "ops", t.ops }, { "bytes_read", t.bytesRead },
        { "bytes_written", t.bytesWritten }, { "parameter_bytes", t.parameterBytes } };
    j["estimated_cycles"] = t.estimatedCycles ? nlohmann::json(*t.estimatedCycles) : nlohmann::json(nullptr);
    return j;
}

nlohmann::json listJson(const std::vector<CostTotals>& list)
{
    nlohmann::json out = nlohmann::json::array();
    for (const CostTotals& t : list)
        out.push_back(totalsJson(t));
    return out;
}

nlohmann::json attributesJson(const std::vector<Attribute>& list)
{
    nlohmann::json out = nlohmann::json::object();
    for (const Attribute& a : list)
        out[a.name] = a.value;
    return out;
}

} // namespace

std::string costText(const CostReport& report)
{
    const CostTotals& t = report.total;
    std::string text = report.path + ": " + std::to_string(t.nodes) + " operator nodes, " + std::to_string(t.counted)
        + " counted, " + std::to_string(t.noRule) + " with no rule, " + std::to_string(t.noShape) + " with no shape\n";
    text += "total: " + std::to_string(t.macs) + " MACs, " + std::to_string(t.ops) + " other ops, "
        + formatBytes(t.bytesRead) + " read, " + formatBytes(t.bytesWritten) + " written, "
        + formatBytes(t.parameterBytes) + " of parameters read\n";
    text += "CPU (not delegated): " + std::to_string(report.cpu.macs) + " MACs, " + std::to_string(report.cpu.ops)
        + " other ops in " + std::to_string(report.cpu.nodes) + " nodes\n";
    text += "(MACs: multiply-accumulates of convolutions, matrix products and attention; ops: every other arithmetic "
            "operation, per element; nodes with no rule or no shape count nothing. docs/cost.md)\n\n";
    text += renderTable(costTotalsTable("Per backend", "backend", report.perBackend), TableFormat::Text) + "\n";
    if (!report.delegates.empty()) {
        Table table;
        table.title = "Per delegate";
        table.columns = totalsColumns("delegate");
        table.columns.insert(table.columns.begin(), "method");
        table.columns.emplace_back("note");
        // Long programs call thousands of delegates: the text shows the busiest (JSON has all).
        constexpr std::size_t kShown = 30;
        std::vector<const DelegateCost*> shown;
        for (const DelegateCost& d : report.delegates)
            shown.push_back(&d);
        if (shown.size() > kShown) {
            std::stable_sort(shown.begin(), shown.end(), [](const DelegateCost* a, const DelegateCost* b) {
                return a->totals.macs + a->totals.ops > b->totals.macs + b->totals.ops;
            });
            table.notes.push_back("the " + std::to_string(kShown) + " of " + std::to_string(shown.size())
                + " delegates with the most arithmetic; --format json lists all");
            shown.resize(kShown);
        }
        for (const DelegateCost* delegate : shown) {
            const DelegateCost& d = *delegate;
            std::vector<TableCell> row = totalsRow(d.totals, d.totals.name);
            row.insert(row.begin(), d.method);
            row.emplace_back(d.note);
            table.rows.push_back(std::move(row));
        }
        text += renderTable(table, TableFormat::Text) + "\n";
    }
    text += renderTable(costTotalsTable("Per operator kind", "kind", report.perKind), TableFormat::Text) + "\n";
    if (report.perMethod.size() > 1)
        text += renderTable(costTotalsTable("Per method", "method", report.perMethod), TableFormat::Text) + "\n";
    bool npu = false;
    for (const DelegateCost& d : report.delegates)
        if (d.npu) {
            if (!npu)
                text += "Ethos-U cycle estimates (" + std::string(kEstimateNote) + "):\n";
            npu = true;
            text += "  " + d.method + " " + d.totals.name + ": " + setupText(*d.npu) + "\n";
            for (const Attribute& a : d.vendor)
                text += "    " + a.name + ": " + a.value + "\n";
        }
    if (!report.npuOperators.empty()) {
        Table table;
        table.title = "\nNPU operators (kicks grouped as Vela split them; inferred, docs/cost.md)";
        table.columns = { "method", "delegate", "operator", "label", "kicks", "MACs", "ops", "bytes read",
            "bytes written", "est. cycles" };
        for (const NpuOperatorCost& op : report.npuOperators)
            table.rows.push_back({ op.method, static_cast<long long>(op.delegate), static_cast<long long>(op.index),
                op.label, count(op.nodes.size()), count(op.totals.macs), count(op.totals.ops),
                count(op.totals.bytesRead), count(op.totals.bytesWritten), optionalCount(op.totals.estimatedCycles) });
        text += renderTable(table, TableFormat::Text) + "\n";
    }
    // What has no rule, by op type: what the next rule should be.
    std::map<std::string, std::size_t> missing;
    for (const NodeCost& node : report.nodes)
        if (node.status == CostStatus::NoRule)
            ++missing[node.opType];
    if (!missing.empty()) {
        text += "no rule (" + std::to_string(missing.size()) + " op types):";
        std::size_t shown = 0;
        for (const auto& [op, n] : missing) {
            if (shown++ == 20) {
                text += " …";
                break;
            }
            text += " " + op + " ×" + std::to_string(n);
        }
        text += "\n";
    }
    std::map<std::string, std::size_t> noShape;
    for (const NodeCost& node : report.nodes)
        if (node.status == CostStatus::NoShape)
            ++noShape[node.opType + ": " + node.reason];
    if (!noShape.empty()) {
        text += "no shape:\n";
        std::size_t shown = 0;
        for (const auto& [what, n] : noShape) {
            if (shown++ == 20)
                break;
            text += "  " + what + " ×" + std::to_string(n) + "\n";
        }
    }
    for (const std::string& source : report.vendorSources)
        text += "vendor figures from " + source + "\n";
    for (const Warning& w : report.warnings)
        text += "warning: " + w.message + "\n";
    return text;
}

nlohmann::json costJson(const CostReport& report)
{
    nlohmann::json j;
    j["path"] = report.path;
    j["units"] = "macs: multiply-accumulates; ops: other arithmetic per element; bytes by dtype";
    j["estimate"] = kEstimateNote;
    j["total"] = totalsJson(report.total);
    j["cpu"] = totalsJson(report.cpu);
    j["per_method"] = listJson(report.perMethod);
    j["per_backend"] = listJson(report.perBackend);
    j["per_kind"] = listJson(report.perKind);
    nlohmann::json delegates = nlohmann::json::array();
    for (const DelegateCost& d : report.delegates) {
        nlohmann::json row = totalsJson(d.totals);
        row["method"] = d.method;
        row["delegate"] = d.delegate;
        row["backend"] = d.backend;
        row["format"] = d.format;
        if (!d.note.empty())
            row["note"] = d.note;
        if (d.npu) {
            nlohmann::json npu = { { "npu", std::string(ethosu::archName(d.npu->arch)) },
                { "npu_source", d.npu->archSource }, { "macs_per_cycle", d.npu->macsPerCycle },
                { "macs_per_cycle_source", d.npu->macsSource }, { "axi_bytes_per_cycle", d.npu->axiBytesPerCycle },
                { "notes", d.npu->notes }, { "text", setupText(*d.npu) } };
            if (d.npu->system) {
                npu["system_config"] = d.npu->system->name;
                npu["core_clock_hz"] = d.npu->system->coreClockHz;
                npu["axi0_bytes_per_cycle"] = portBytesPerCycle(*d.npu, 0);
                npu["axi1_bytes_per_cycle"] = portBytesPerCycle(*d.npu, 1);
            }
            if (d.npu->memoryMode)
                npu["memory_mode"] = d.npu->memoryMode->name;
            row["estimate_basis"] = npu;
        }
        if (!d.vendor.empty())
            row["vendor"] = attributesJson(d.vendor);
        delegates.push_back(std::move(row));
    }
    j["delegates"] = delegates;
    nlohmann::json npuOperators = nlohmann::json::array();
    for (const NpuOperatorCost& op : report.npuOperators) {
        nlohmann::json row = totalsJson(op.totals);
        row["method"] = op.method;
        row["delegate"] = op.delegate;
        row["index"] = op.index;
        row["label"] = op.label;
        row["nodes"] = op.nodes;
        npuOperators.push_back(std::move(row));
    }
    j["npu_operators"] = npuOperators;
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeCost& n : report.nodes) {
        nlohmann::json row = { { "method", n.method }, { "node", n.node }, { "label", n.label },
            { "op_type", n.opType }, { "status", std::string(costStatusName(n.status)) } };
        row["delegate"] = n.delegate >= 0 ? nlohmann::json(n.delegate) : nlohmann::json(nullptr);
        row["backend"] = n.delegate >= 0 ? nlohmann::json(n.backend) : nlohmann::json("CPU");
        row["kind"] = n.kind.empty() ? nlohmann::json(nullptr) : nlohmann::json(std::string(n.kind));
        // Never 0 for what was not counted: null.
        const bool counted = n.status == CostStatus::Counted;
        row["macs"] = counted ? nlohmann::json(n.macs) : nlohmann::json(nullptr);
        row["ops"] = counted ? nlohmann::json(n.ops) : nlohmann::json(nullptr);
        row["bytes_read"] = n.bytesRead ? nlohmann::json(*n.bytesRead) : nlohmann::json(nullptr);
        row["bytes_written"] = n.bytesWritten ? nlohmann::json(*n.bytesWritten) : nlohmann::json(nullptr);
        row["parameter_bytes"] = n.parameterBytes;
        const auto intensity = n.intensity();
        row["intensity"] = intensity ? nlohmann::json(*intensity) : nlohmann::json(nullptr);
        if (!n.formula.empty())
            row["formula"] = n.formula;
        if (!n.reason.empty())
            row["reason"] = n.reason;
        if (n.streamOffset)
            row["stream_offset"] = *n.streamOffset;
        if (n.npuOperator >= 0)
            row["npu_operator"] = n.npuOperator;
        if (n.estimate) {
            nlohmann::json e = { { "cycles", n.estimate->cycles }, { "bound", n.estimate->bound } };
            e["compute_cycles"]
                = n.estimate->computeCycles ? nlohmann::json(*n.estimate->computeCycles) : nlohmann::json(nullptr);
            e["memory_cycles"]
                = n.estimate->memoryCycles ? nlohmann::json(*n.estimate->memoryCycles) : nlohmann::json(nullptr);
            row["estimate"] = e;
        }
        if (!n.vendor.empty())
            row["vendor"] = attributesJson(n.vendor);
        nodes.push_back(std::move(row));
    }
    j["nodes"] = nodes;
    j["vendor_sources"] = report.vendorSources;
    nlohmann::json warnings = nlohmann::json::array();
    for (const Warning& w : report.warnings)
        warnings.push_back(w.message);
    j["warnings"] = warnings;
    return j;
}

std::string costCsv(const CostReport& report)
{
    TableRenderer renderer(TableFormat::Csv, "",
        { "method", "delegate", "backend", "node", "label", "op_type", "kind", "status", "macs", "ops", "bytes_read",
            "bytes_written", "parameter_bytes", "intensity", "npu_operator", "stream_offset", "estimated_cycles",
            "bound", "formula", "reason" });
    std::vector<std::vector<TableCell>> rows;
    rows.reserve(report.nodes.size());
    for (const NodeCost& n : report.nodes) {
        const bool counted = n.status == CostStatus::Counted;
        const auto intensity = n.intensity();
        rows.push_back({ n.method,
            n.delegate >= 0 ? TableCell(static_cast<long long>(n.delegate)) : TableCell(kNoValue),
            n.delegate >= 0 ? n.backend : std::string("CPU"), static_cast<long long>(n.node), n.label, n.opType,
            std::string(n.kind), std::string(costStatusName(n.status)), counted ? count(n.macs) : TableCell(kNoValue),
            counted ? count(n.ops) : TableCell(kNoValue), optionalCount(n.bytesRead), optionalCount(n.bytesWritten),
            count(n.parameterBytes), intensity ? TableCell(*intensity) : TableCell(kNoValue),
            n.npuOperator >= 0 ? TableCell(static_cast<long long>(n.npuOperator)) : TableCell(kNoValue),
            optionalCount(n.streamOffset), n.estimate ? count(n.estimate->cycles) : TableCell(kNoValue),
            n.estimate ? TableCell(n.estimate->bound) : TableCell(kNoValue), n.formula, n.reason });
    }
    std::string text = renderer.begin(rows.empty() ? nullptr : &rows.front(), {});
    text += renderer.rows(rows);
    text += renderer.end({});
    return text;
}

} // namespace etscope::core::cost
