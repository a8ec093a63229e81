// SPDX-License-Identifier: MIT
#include "core/debug/runtimeprofile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace etscope::core {

namespace {

using RowKey = std::tuple<std::string, std::string, ChainIndex, InstructionId, DelegateDebugId, std::string, int>;

bool isInstructionSpan(const std::string& name)
{
    return name == "OPERATOR_CALL" || name == "DELEGATE_CALL" || name == "MOVE_CALL" || name == "JF_CALL"
        || name == "FREE_CALL";
}

} // namespace

ProfileRow::Scope profileEventScope(const ProfileEvent& event, bool executeBlock)
{
    if (!executeBlock || event.isFramework())
        return ProfileRow::Scope::Framework;
    if (event.isDelegateInternal())
        return ProfileRow::Scope::DelegateInternal;
    return isInstructionSpan(event.name) ? ProfileRow::Scope::Instruction : ProfileRow::Scope::Kernel;
}

namespace {

std::string joined(const std::vector<std::string>& parts)
{
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

/// Position of a node in execution order: instruction, then inner node order.
std::pair<int, int> executionKey(const Graph& graph, const NodeOrigin& origin)
{
    const Node& top = graph.node(origin.top);
    return { top.instruction.valid() ? top.instruction.value : INT32_MAX,
        origin.inner.valid() ? origin.inner.value : -1 };
}

constexpr std::string_view kNotPlaced = "(not placed)";

/// Framework events (chain -1) run in no instruction: they have no chain and no instruction
/// (the ETDump stores 0 there, which read like instruction 0).
bool inInstruction(const ProfileRow& row)
{
    return row.scope != ProfileRow::Scope::Framework && row.chain.valid();
}

TableCell instructionCell(const ProfileRow& row)
{
    return inInstruction(row) ? TableCell(static_cast<long long>(row.instruction.value)) : TableCell(kNoValue);
}

/// Rows placed on no node, and how many of them because their name disagrees.
std::pair<std::size_t, std::size_t> unplacedRows(const RuntimeProfile& profile)
{
    std::size_t unmatched = 0;
    std::size_t disagreeing = 0;
    for (const ProfileRow& row : profile.rows) {
        unmatched += row.placement.matched ? 0 : 1;
        disagreeing += row.placement.nameDisagrees ? 1 : 0;
    }
    return { unmatched, disagreeing };
}

} // namespace

double percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
    const auto low = static_cast<std::size_t>(std::floor(rank));
    const auto high = static_cast<std::size_t>(std::ceil(rank));
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - static_cast<double>(low));
}

TimingStats computeTimingStats(std::vector<double> samples)
{
    TimingStats stats;
    stats.count = samples.size();
    if (samples.empty())
        return stats;
    std::sort(samples.begin(), samples.end());
    stats.min = samples.front();
    stats.max = samples.back();
    stats.p10 = percentile(samples, 10);
    stats.p50 = percentile(samples, 50);
    stats.p90 = percentile(samples, 90);
    for (const double s : samples)
        stats.total += s;
    stats.avg = stats.total / static_cast<double>(samples.size());
    return stats;
}

const NodeTiming* RuntimeProfile::timingOf(const NodeOrigin& origin) const
{
    for (const NodeTiming& timing : nodes)
        if (timing.origin == origin)
            return &timing;
    return nullptr;
}

RuntimeProfile buildRuntimeProfile(const ETDump& dump, const EventMapper& mapper, const ProfileOptions& options)
{
    RuntimeProfile profile;
    profile.ticksPerMs = options.ticksPerMs > 0 ? options.ticksPerMs : 1e6;
    std::map<RowKey, std::size_t> rowIndex;
    std::map<RowKey, std::size_t> frameworkIndex;
    for (const RunBlock& block : dump.runs) {
        const bool execute = block.name == "Execute";
        profile.executeBlocks += execute ? 1 : 0;
        DelegateEventCursor cursor;
        std::map<RowKey, int> occurrences;
        for (const ProfileEvent& event : block.profileEvents) {
            const ProfileRow::Scope scope = profileEventScope(event, execute);
            const bool framework = scope == ProfileRow::Scope::Framework;
            RowKey key { framework ? block.name : std::string(), event.name, event.chainIndex, event.instructionId,
                event.delegateDebugIdInt, event.delegateDebugIdStr, 0 };
            std::get<6>(key) = occurrences[key]++;
            auto& index = framework ? frameworkIndex : rowIndex;
            auto& rows = framework ? profile.framework : profile.rows;
            auto found = index.find(key);
            if (found == index.end()) {
                ProfileRow row;
                row.scope = scope;
                row.name = event.isDelegateInternal() && event.name.empty() ? event.delegateIdentifier() : event.name;
                row.blockName = block.name;
                row.chain = event.chainIndex;
                row.instruction = event.instructionId;
                row.delegateIdentifier = event.delegateIdentifier();
                row.occurrence = std::get<6>(key);
                row.firstStart = event.startTime;
                if (scope == ProfileRow::Scope::DelegateInternal)
                    row.placement = mapper.placeDelegateEvent(event.chainIndex, event.instructionId,
                        event.delegateDebugIdInt, event.delegateDebugIdStr, cursor);
                else if (!framework)
                    row.placement = mapper.placeNamedEvent(event.chainIndex, event.instructionId, event.name);
                row.edgeNodes = mapper.edgeNodeNames(row.placement.debugHandles);
                found = index.emplace(key, rows.size()).first;
                rows.push_back(std::move(row));
            }
            rows[found->second].durations.push_back(event.duration());
        }
    }
    for (auto* rows : { &profile.rows, &profile.framework })
        for (ProfileRow& row : *rows)
            row.stats = computeTimingStats({ row.durations.begin(), row.durations.end() });
    // An OPERATOR_CALL span wraps the kernel event of its instruction: when that event is named
    // for another operator, the span's time is not this node's either.
    std::set<std::pair<int, int>> disagreeingInstructions;
    for (const ProfileRow& row : profile.rows)
        if (row.placement.nameDisagrees)
            disagreeingInstructions.insert({ row.chain.value, row.instruction.value });
    for (ProfileRow& row : profile.rows)
        if (row.placement.matched && row.name == "OPERATOR_CALL"
            && disagreeingInstructions.count({ row.chain.value, row.instruction.value })) {
            row.placement = {};
            row.placement.nameDisagrees = true;
            row.edgeNodes.clear();
        }
    const auto [unmatched, disagreeing] = unplacedRows(profile);
    if (unmatched)
        profile.warnings.push_back(
            { std::to_string(unmatched) + " profiling event(s) match no node of method '" + mapper.method() + "'"
                    + (disagreeing ? " (" + std::to_string(disagreeing)
                                + " of them named for another operator than the one at their instruction, not placed)"
                                   : std::string())
                    + " (is this ETDump from another program?)",
                std::nullopt });

    // Per node: the first kernel-time row and the first OPERATOR_CALL span.
    std::map<std::pair<int, int>, std::size_t> nodeIndex;
    std::vector<std::optional<std::size_t>> spans;
    for (std::size_t r = 0; r < profile.rows.size(); ++r) {
        const ProfileRow& row = profile.rows[r];
        if (!row.placement.matched)
            continue;
        const NodeOrigin origin = row.placement.origin;
        const bool span = row.name == "OPERATOR_CALL";
        const auto key = std::make_pair(origin.top.value, origin.inner.value);
        auto it = nodeIndex.find(key);
        if (it == nodeIndex.end()) {
            NodeTiming timing;
            timing.origin = origin;
            timing.label = mapper.label(origin);
            timing.row = r;
            timing.kernel = row.stats;
            it = nodeIndex.emplace(key, profile.nodes.size()).first;
            profile.nodes.push_back(std::move(timing));
            spans.push_back(span ? std::optional<std::size_t>(r) : std::nullopt);
            continue;
        }
        NodeTiming& timing = profile.nodes[it->second];
        auto& spanRow = spans[it->second];
        if (span && !spanRow)
            spanRow = r;
        // A kernel row replaces an OPERATOR_CALL that came first; otherwise the first row stays.
        if (!span && profile.rows[timing.row].name == "OPERATOR_CALL") {
            timing.row = r;
            timing.kernel = row.stats;
        }
    }
    for (std::size_t n = 0; n < profile.nodes.size(); ++n)
        if (spans[n])
            profile.nodes[n].span = profile.rows[*spans[n]].stats;
    const Graph& graph = mapper.graph();
    std::stable_sort(profile.nodes.begin(), profile.nodes.end(), [&](const NodeTiming& a, const NodeTiming& b) {
        return executionKey(graph, a.origin) < executionKey(graph, b.origin);
    });
    return profile;
}

namespace {

/// The rows a profile table shows, in order: framework events, then the rest, OPERATOR_CALL
/// spans only when asked. Returns how many spans were left out.
template <typename Add>
std::size_t addShownRows(const RuntimeProfile& profile, bool includeOperatorCall, const Add& add)
{
    for (const ProfileRow& row : profile.framework)
        add(row);
    std::size_t hidden = 0;
    for (const ProfileRow& row : profile.rows) {
        if (includeOperatorCall || !row.hiddenByDefault())
            add(row);
        else
            ++hidden;
    }
    return hidden;
}

} // namespace

Table runtimeProfileTable(const RuntimeProfile& profile, const EventMapper& mapper, bool includeOperatorCall)
{
    Table table;
    table.title = "Runtime profile";
    table.columns = { "event_block_name", "event_name", "node", "instruction", "delegate_debug_identifier", "count",
        "min (ms)", "p10 (ms)", "p50 (ms)", "p90 (ms)", "avg (ms)", "max (ms)", "op_types" };
    const auto add = [&](const ProfileRow& row) {
        std::vector<TableCell> cells;
        cells.emplace_back(row.blockName);
        cells.emplace_back(row.name);
        cells.emplace_back(row.placement.matched ? mapper.label(row.placement.origin) : std::string());
        cells.push_back(instructionCell(row));
        cells.emplace_back(row.delegateIdentifier);
        cells.emplace_back(static_cast<long long>(row.stats.count));
        for (const double v :
            { row.stats.min, row.stats.p10, row.stats.p50, row.stats.p90, row.stats.avg, row.stats.max })
            cells.emplace_back(profile.toMs(v));
        cells.emplace_back(joined(row.edgeNodes));
        table.rows.push_back(std::move(cells));
    };
    addShownRows(profile, includeOperatorCall, add);
    table.notes.push_back(std::to_string(profile.executeBlocks) + " Execute block(s); times in ms at "
        + std::to_string(static_cast<long long>(profile.ticksPerMs)) + " ticks per ms");
    return table;
}

RuntimeProfile buildDumpProfile(const ETDump& dump, const ProfileOptions& options)
{
    const Graph none;
    const EventMapper mapper(none);
    RuntimeProfile profile = buildRuntimeProfile(dump, mapper, options);
    profile.warnings.clear(); // only "matches no node", which says nothing without a program
    profile.nodes.clear();
    return profile;
}

std::string_view profileScopeName(ProfileRow::Scope scope)
{
    switch (scope) {
    case ProfileRow::Scope::Framework:
        return "framework";
    case ProfileRow::Scope::Instruction:
        return "instruction";
    case ProfileRow::Scope::Kernel:
        return "kernel";
    case ProfileRow::Scope::DelegateInternal:
        return "delegate";
    }
    return "kernel";
}

Table eventProfileTable(const RuntimeProfile& profile, bool includeOperatorCall)
{
    Table table;
    table.title = "Runtime profile by event";
    table.columns = { "event_block_name", "event_name", "kind", "chain", "instruction", "delegate_debug_identifier",
        "count", "min (ms)", "p50 (ms)", "p90 (ms)", "avg (ms)", "max (ms)" };
    const auto add = [&](const ProfileRow& row) {
        std::vector<TableCell> cells { row.blockName, row.name, std::string(profileScopeName(row.scope)),
            inInstruction(row) ? TableCell(static_cast<long long>(row.chain.value)) : TableCell(kNoValue),
            instructionCell(row), row.delegateIdentifier, static_cast<long long>(row.stats.count) };
        for (const double v : { row.stats.min, row.stats.p50, row.stats.p90, row.stats.avg, row.stats.max })
            cells.emplace_back(profile.toMs(v));
        table.rows.push_back(std::move(cells));
    };
    const std::size_t hidden = addShownRows(profile, includeOperatorCall, add);
    table.notes.push_back(std::to_string(profile.executeBlocks) + " Execute block(s); count = runs with the event;"
        + " times in ms at " + std::to_string(static_cast<long long>(profile.ticksPerMs))
        + " ticks per ms; percentiles interpolate linearly");
    if (hidden)
        table.notes.push_back(std::to_string(hidden) + " OPERATOR_CALL span(s) not shown (they wrap the kernel calls)");
    return table;
}

Table nodeTimingTable(const RuntimeProfile& profile)
{
    Table table;
    table.title = "Runtime per node";
    table.columns = { "node", "event_name", "instruction", "count", "min (ms)", "p50 (ms)", "p90 (ms)", "avg (ms)",
        "max (ms)", "op_types" };
    for (const NodeTiming& timing : profile.nodes) {
        const ProfileRow& row = profile.rows[timing.row];
        const TimingStats& k = timing.kernel;
        std::vector<TableCell> cells { timing.label, row.name, static_cast<long long>(row.instruction.value),
            static_cast<long long>(k.count) };
        for (const double v : { k.min, k.p50, k.p90, k.avg, k.max })
            cells.emplace_back(profile.toMs(v));
        cells.emplace_back(joined(row.edgeNodes));
        table.rows.push_back(std::move(cells));
    }
    table.notes.push_back(std::to_string(profile.executeBlocks) + " Execute block(s); count = runs that timed the node;"
        + " times in ms at " + std::to_string(static_cast<long long>(profile.ticksPerMs))
        + " ticks per ms; percentiles interpolate linearly");
    for (const ProfileRow& row : profile.framework)
        if (row.name == "Method::execute")
            table.notes.push_back("Method::execute: count " + std::to_string(row.stats.count) + ", p50 "
                + cellText(TableCell(profile.toMs(row.stats.p50))) + " ms, max "
                + cellText(TableCell(profile.toMs(row.stats.max))) + " ms");
    // Events named for another operator than the one at their instruction stay as rows, with
    // no node: their times are not this node's (a foreign ETDump's convolution on add.out).
    for (const ProfileRow& row : profile.rows) {
        if (!row.placement.nameDisagrees)
            continue;
        std::vector<TableCell> cells { std::string(kNotPlaced), row.name, static_cast<long long>(row.instruction.value),
            static_cast<long long>(row.stats.count) };
        for (const double v : { row.stats.min, row.stats.p50, row.stats.p90, row.stats.avg, row.stats.max })
            cells.emplace_back(profile.toMs(v));
        cells.emplace_back(joined(row.edgeNodes));
        table.rows.push_back(std::move(cells));
    }
    const auto [unmatched, disagreeing] = unplacedRows(profile);
    if (disagreeing)
        table.notes.push_back(std::to_string(disagreeing) + " event(s) not placed: named for another operator than the "
            + "one at their instruction (rows \"" + std::string(kNotPlaced) + "\")");
    if (unmatched > disagreeing)
        table.notes.push_back(
            std::to_string(unmatched - disagreeing) + " event(s) matched no node and are not in the table");
    return table;
}

} // namespace etscope::core
