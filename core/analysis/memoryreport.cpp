// SPDX-License-Identifier: MIT
// The memory plan as the CLI prints it and the app exports it: arena and tensor tables, JSON and
// the Chrome trace in the shape of ExecuTorch's generate_memory_trace.
#include "core/analysis/memoryplan.h"

#include "core/table/table.h"
#include "core/util/jsontext.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <string>

namespace etscope::core {

namespace {

std::string arenaName(const MemoryArena& arena)
{
    return std::to_string(arena.id);
}

std::string stepInstruction(const MemoryPlan& plan, int step)
{
    if (step < 0 || static_cast<std::size_t>(step) >= plan.steps.size())
        return {};
    const MemoryStep& s = plan.steps[static_cast<std::size_t>(step)];
    return (plan.chains > 1 ? "chain " + std::to_string(s.chain) + " " : std::string()) + "#"
        + std::to_string(s.instruction.value) + " " + s.label;
}

} // namespace

Table memoryArenaTable(const MemoryPlan& plan)
{
    Table table;
    table.title = "Arenas of method '" + plan.method + "'";
    table.columns = { "arena", "declared", "highest_end", "peak_live", "peak_step", "peak_instruction", "fragmentation",
        "tensors" };
    for (const MemoryArena& arena : plan.arenas) {
        table.rows.push_back({ arenaName(arena),
            arena.declaredSize ? TableCell(static_cast<long long>(*arena.declaredSize)) : TableCell(std::string("-")),
            static_cast<long long>(arena.highestEnd), static_cast<long long>(arena.peakLiveBytes),
            static_cast<long long>(arena.peakStep), stepInstruction(plan, arena.peakStep),
            std::round(arena.fragmentation * 10000.0) / 10000.0, static_cast<long long>(arena.tensors.size()) });
    }
    return table;
}

Table memoryTensorTable(const MemoryPlan& plan)
{
    Table table;
    table.title = "Planned tensors of method '" + plan.method + "'";
    table.columns = { "value", "arena", "offset", "bytes", "end", "first_step", "last_step", "role", "dtype", "shape",
        "producer", "alias_of" };
    for (const MemoryArena& arena : plan.arenas) {
        for (const std::size_t i : arena.tensors) {
            const PlannedTensor& t = plan.tensors[i];
            const std::string producer = stepInstruction(plan, t.producerStep);
            std::string role(plannedTensorRoleName(t.role));
            if (t.output)
                role += ",output";
            table.rows.push_back({ static_cast<long long>(t.value.value), static_cast<long long>(t.arena),
                static_cast<long long>(t.offset), static_cast<long long>(t.bytes), static_cast<long long>(t.end()),
                static_cast<long long>(t.firstStep), static_cast<long long>(t.lastStep), role, t.dtype,
                formatShape(t.shape), producer,
                t.aliasOf.valid() ? TableCell(static_cast<long long>(t.aliasOf.value)) : TableCell(std::string()) });
        }
    }
    return table;
}

nlohmann::ordered_json memoryPlanJson(const MemoryPlan& plan)
{
    using json = nlohmann::ordered_json;
    json root;
    root["method"] = plan.method;
    root["chains"] = plan.chains;
    json steps = json::array();
    for (std::size_t s = 0; s < plan.steps.size(); ++s) {
        const MemoryStep& step = plan.steps[s];
        steps.push_back({ { "step", s }, { "chain", step.chain }, { "instruction", step.instruction.value },
            { "node", step.node.valid() ? json(step.node.value) : json(nullptr) }, { "label", step.label } });
    }
    root["steps"] = std::move(steps);
    json arenas = json::array();
    for (const MemoryArena& arena : plan.arenas) {
        json tensors = json::array();
        for (const std::size_t i : arena.tensors)
            tensors.push_back(plan.tensors[i].value.value);
        arenas.push_back({ { "arena", arena.id },
            { "declared", arena.declaredSize ? json(*arena.declaredSize) : json(nullptr) },
            { "highest_end", arena.highestEnd }, { "peak_live", arena.peakLiveBytes }, { "peak_step", arena.peakStep },
            { "fragmentation", arena.fragmentation }, { "tensors", tensors }, { "live_bytes", arena.liveBytes } });
    }
    root["arenas"] = std::move(arenas);
    json tensors = json::array();
    for (const PlannedTensor& t : plan.tensors) {
        tensors.push_back(
            { { "value", t.value.value }, { "arena", t.arena }, { "offset", t.offset }, { "bytes", t.bytes },
                { "first_step", t.firstStep }, { "last_step", t.lastStep }, { "role", plannedTensorRoleName(t.role) },
                { "output", t.output }, { "alias_of", t.aliasOf.valid() ? json(t.aliasOf.value) : json(nullptr) },
                { "producer_node", t.producer.valid() ? json(t.producer.value) : json(nullptr) }, { "dtype", t.dtype },
                { "shape", t.shape }, { "storage", tensorStorageName(t.storage) } });
    }
    root["tensors"] = std::move(tensors);
    json loops = json::array();
    for (const MemoryLoop& loop : plan.loops)
        loops.push_back({ { "first_step", loop.first }, { "last_step", loop.last } });
    root["loops"] = std::move(loops);
    json overlaps = json::array();
    for (const MemoryOverlap& o : plan.overlaps)
        overlaps.push_back(
            { { "arena", o.arena }, { "first", o.first.value }, { "second", o.second.value }, { "step", o.step } });
    root["overlap_count"] = plan.overlapCount;
    root["overlaps"] = std::move(overlaps);
    json constants = json::array();
    for (const ConstantGroup& c : plan.constants)
        constants.push_back({ { "place", c.place }, { "segment", c.segment ? json(*c.segment) : json(nullptr) },
            { "tensors", c.tensors }, { "bytes", c.bytes } });
    root["constants"] = std::move(constants);
    json warnings = json::array();
    for (const Warning& w : plan.warnings)
        warnings.push_back(w.message);
    root["warnings"] = std::move(warnings);
    return root;
}

ChromeTraceStats writeMemoryPlanChromeTrace(
    const MemoryPlan& plan, const std::function<void(std::string_view)>& sink, std::size_t maxEvents)
{
    using json = nlohmann::ordered_json;
    ChromeTraceStats stats;
    bool first = true;
    const auto event = [&](const json& e) {
        sink(first ? "\n    " : ",\n    ");
        sink(jsonText(e));
        first = false;
    };
    sink("{\n  \"traceEvents\": [");
    for (const MemoryArena& arena : plan.arenas) {
        std::string name = "arena " + std::to_string(arena.id);
        if (arena.declaredSize)
            name += " (" + std::to_string(*arena.declaredSize) + " bytes)";
        event({ { "name", "process_name" }, { "ph", "M" }, { "pid", arena.id }, { "tid", 0 },
            { "args", { { "name", name } } } });
        // One row per step, named after its instruction, in step order.
        for (std::size_t s = 0; s < plan.steps.size(); ++s) {
            event({ { "name", "thread_name" }, { "ph", "M" }, { "pid", arena.id }, { "tid", s },
                { "args",
                    { { "name",
                        "step " + std::to_string(s) + ": " + stepInstruction(plan, static_cast<int>(s)) } } } });
            event({ { "name", "thread_sort_index" }, { "ph", "M" }, { "pid", arena.id }, { "tid", s },
                { "args", { { "sort_index", s } } } });
        }
        // Tensor by tensor (the viewer orders by time itself): the work is the number of events.
        for (const std::size_t i : arena.tensors) {
            const PlannedTensor& t = plan.tensors[i];
            if (t.firstStep < 0 || t.bytes == 0)
                continue;
            // The event is the same at every step but for its row: written once, the row spliced in.
            json e { { "name", "v" + std::to_string(t.value.value) }, { "cat", "memory_allocation" }, { "ph", "X" },
                { "ts", t.offset }, { "dur", t.bytes }, { "pid", t.arena },
                { "args",
                    { { "op_name", stepInstruction(plan, t.producerStep) }, { "Memory ID", t.arena },
                        { "bytes", t.bytes }, { "offset", t.offset }, { "role", plannedTensorRoleName(t.role) },
                        { "lifetime", std::to_string(t.firstStep) + "-" + std::to_string(t.lastStep) },
                        { "tensor", t.dtype + " " + formatShape(t.shape) } } } };
            const std::string text = jsonText(e);
            const std::string prefix = text.substr(0, text.size() - 1) + ",\"tid\":";
            for (int s = t.firstStep; s <= t.lastStep && !stats.truncated; ++s) {
                if (stats.events == maxEvents) {
                    stats.truncated = true;
                    break;
                }
                ++stats.events;
                sink(first ? "\n    " : ",\n    ");
                first = false;
                sink(prefix);
                sink(std::to_string(s) + "}");
            }
        }
    }
    sink("\n  ],\n  \"displayTimeUnit\": \"ns\",\n  \"otherData\": ");
    sink(jsonText(json { { "method", plan.method }, { "x_axis", "byte offset in the arena (drawn as time)" },
        { "rows", "one per step: instructions in execution order" }, { "events", stats.events },
        { "truncated", stats.truncated } }));
    sink("\n}\n");
    return stats;
}

} // namespace etscope::core
