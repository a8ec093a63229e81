// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/memoryplan.h"
#include "core/document/document.h"
#include "core/report/reports.h"
#include "core/table/table.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"

#include <cstdio>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

namespace {

std::string constantsText(const MemoryPlan& plan)
{
    Table table;
    table.title = "Stored tensor data";
    table.columns = { "place", "segment", "tensors", "bytes" };
    for (const ConstantGroup& group : plan.constants)
        table.rows.push_back({ group.place,
            group.segment ? TableCell(static_cast<long long>(*group.segment)) : TableCell(std::string("-")),
            static_cast<long long>(group.tensors), static_cast<long long>(group.bytes) });
    return table.rows.empty() ? "Stored tensor data: none\n" : renderTable(table, TableFormat::Text);
}

std::string planText(const Document& document, const MemoryPlan& plan)
{
    std::size_t planned = 0;
    for (const PlannedTensor& t : plan.tensors)
        planned += t.role != PlannedTensor::Role::Unused;
    std::string text = document.path + ", method '" + plan.method + "': " + std::to_string(plan.steps.size())
        + " steps in " + std::to_string(plan.chains) + (plan.chains == 1 ? " chain, " : " chains, ")
        + std::to_string(plan.tensors.size()) + " planned tensors (" + std::to_string(planned) + " used) in "
        + std::to_string(plan.arenas.size()) + (plan.arenas.size() == 1 ? " arena" : " arenas");
    if (!plan.loops.empty())
        text += ", " + std::to_string(plan.loops.size()) + (plan.loops.size() == 1 ? " loop" : " loops");
    text += "\n\n";
    text += renderTable(memoryArenaTable(plan), TableFormat::Text);
    for (const MemoryArena& arena : plan.arenas) {
        if (!arena.declaredSize || *arena.declaredSize <= 0)
            continue;
        char idle[32];
        std::snprintf(idle, sizeof idle, "%.1f%%", arena.fragmentation * 100.0);
        text += "arena " + std::to_string(arena.id) + ": peak " + formatBytes(arena.peakLiveBytes) + " of "
            + formatBytes(static_cast<std::uint64_t>(*arena.declaredSize)) + " declared; " + idle
            + " of the used extent (" + formatBytes(arena.highestEnd) + ") idle at the peak\n";
    }
    text += "\n" + constantsText(plan) + "\n";
    text += renderTable(memoryTensorTable(plan), TableFormat::Text);
    if (!plan.warnings.empty()) {
        text += "\nwarnings:\n";
        for (const Warning& w : plan.warnings)
            text += "  " + w.message + "\n";
    }
    return text;
}

} // namespace

int runMemory(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "csv" && format != "json" && format != "chrome-trace") {
        std::cerr << "etscope memory: unknown format '" << format << "' (text, csv, json or chrome-trace)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("memory", args, exitCode);
    if (!document)
        return exitCode;
    if (!document->program) {
        std::cerr << "etscope memory: " << document->path << ": is not a program (" << fileKindName(document->kind)
                  << "); it has no memory plan\n";
        return ExitUsage;
    }
    const Method* method = selectMethod(*document->program, args.value("method"));
    if (!method) {
        std::string known;
        for (const Method& m : document->program->methods)
            known += (known.empty() ? "" : ", ") + m.name;
        std::cerr << "etscope memory: " << document->path << ": no method named '" << args.value("method")
                  << "' (methods: " << known << ")\n";
        return ExitUsage;
    }
    const MemoryPlan plan = computeMemoryPlan(*document, *method);
    // CSV and the trace have no room for warnings: they go to stderr (text and JSON hold them).
    if (format == "csv" || format == "chrome-trace")
        for (const Warning& w : plan.warnings)
            std::cerr << "etscope memory: " << document->path << ": warning: " << w.message << "\n";
    if (format == "text")
        return emitReport("memory", args, planText(*document, plan));
    if (format == "csv")
        return emitReport("memory", args, renderTable(memoryTensorTable(plan), TableFormat::Csv));
    if (format == "json")
        return emitReport("memory", args, jsonText(memoryPlanJson(plan), 2) + "\n");
    Output output(args);
    const ChromeTraceStats stats
        = writeMemoryPlanChromeTrace(plan, [&](std::string_view piece) { output.write(piece); });
    if (stats.truncated)
        std::cerr << "etscope memory: " << document->path << ": warning: the trace stops after " << stats.events
                  << " tensor events\n";
    return output.finish("memory");
}

} // namespace etscope::app
