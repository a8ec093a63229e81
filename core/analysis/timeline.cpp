// SPDX-License-Identifier: MIT
#include "core/analysis/timeline.h"

#include "core/debug/dumpcheck.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace etscope::core {

namespace {

/// Outer kinds first when two events cover the same span: Method::execute holds the
/// instruction span, which holds the kernel.
int kindRank(ProfileRow::Scope kind)
{
    switch (kind) {
    case ProfileRow::Scope::Framework:
        return 0;
    case ProfileRow::Scope::Instruction:
        return 1;
    case ProfileRow::Scope::Kernel:
        return 2;
    case ProfileRow::Scope::DelegateInternal:
        return 3;
    }
    return 3;
}

/// Sorts a lane by start (longest first, outer kinds first, then log order) and gives each
/// event its depth and parent. Returns how many events stick out of the event they start in.
std::size_t nest(TimelineLane& lane)
{
    auto& events = lane.events;
    std::stable_sort(events.begin(), events.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
        if (a.startNs != b.startNs)
            return a.startNs < b.startNs;
        if (a.endNs() != b.endNs())
            return a.endNs() > b.endNs();
        if (kindRank(a.kind) != kindRank(b.kind))
            return kindRank(a.kind) < kindRank(b.kind);
        return a.sequence < b.sequence;
    });
    std::vector<int> open;
    std::size_t overlaps = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        TimelineEvent& event = events[i];
        // An event that ended at or before this start is done (a zero-length one included).
        while (!open.empty() && events[static_cast<std::size_t>(open.back())].endNs() <= event.startNs)
            open.pop_back();
        event.depth = static_cast<int>(open.size());
        event.parent = open.empty() ? -1 : open.back();
        if (!open.empty() && events[static_cast<std::size_t>(open.back())].endNs() < event.endNs())
            ++overlaps;
        lane.maxDepth = std::max(lane.maxDepth, event.depth);
        open.push_back(static_cast<int>(i));
    }
    return overlaps;
}

std::string laneTitle(const TimelineLane& lane)
{
    std::string where = lane.chain.value == 0
        ? "instruction " + std::to_string(lane.instruction.value)
        : "chain " + std::to_string(lane.chain.value) + ", instruction " + std::to_string(lane.instruction.value);
    if (lane.backendId.empty())
        return "delegate (" + where + ")";
    return lane.backendId + " #" + std::to_string(lane.delegate.value) + " (" + where + ")";
}

/// Fills the program side of a delegate lane: the DelegateCall node at its instruction.
void describeDelegateLane(TimelineLane& lane, const EventMapper* mapper)
{
    if (mapper) {
        const NodeId node = mapper->instructionNode(lane.chain, lane.instruction);
        if (node.valid() && mapper->graph().node(node).kind == NodeKind::Delegate) {
            const Node& call = mapper->graph().node(node);
            lane.node = node;
            lane.delegate = call.delegate;
            lane.backendId = std::string(call.attributes.find("backend_id").value_or(call.label));
            if (lane.backendId.empty())
                lane.backendId = call.label;
        }
    }
    lane.title = laneTitle(lane);
}

TimelineEvent makeEvent(
    const ProfileEvent& event, std::size_t index, const EventMapper* mapper, DelegateEventCursor& cursor)
{
    TimelineEvent out;
    out.kind = profileEventScope(event, true);
    out.name = event.isDelegateInternal() && event.name.empty() ? event.delegateIdentifier() : event.name;
    if (out.name.empty())
        out.name = "(unnamed event)";
    out.startNs = event.startTime;
    out.durationNs = event.duration();
    out.chain = event.chainIndex;
    out.instruction = event.instructionId;
    out.delegateIdentifier = event.delegateIdentifier();
    out.sequence = index;
    if (!mapper)
        return out;
    // Placed in log order with one cursor per block, exactly as buildRuntimeProfile does, so the
    // k-th XNNPACK "Fully Connected" event meets the k-th fully connected node.
    if (out.kind == ProfileRow::Scope::DelegateInternal)
        out.placement = mapper->placeDelegateEvent(
            event.chainIndex, event.instructionId, event.delegateDebugIdInt, event.delegateDebugIdStr, cursor);
    else if (out.kind != ProfileRow::Scope::Framework)
        out.placement = mapper->placeNamedEvent(event.chainIndex, event.instructionId, event.name);
    if (out.placement.matched)
        out.nodeName = mapper->label(out.placement.origin);
    out.edgeNodes = mapper->edgeNodeNames(out.placement.debugHandles);
    return out;
}

/// An OPERATOR_CALL span wraps the kernel event of its instruction: when that event is named for
/// another operator (placeNamedEvent), the span is not this node's either.
void unplaceSpansOfDisagreeingKernels(std::vector<TimelineEvent>& events)
{
    std::set<std::pair<int, int>> disagreeing;
    for (const TimelineEvent& event : events)
        if (event.placement.nameDisagrees)
            disagreeing.insert({ event.chain.value, event.instruction.value });
    for (TimelineEvent& event : events)
        if (event.placement.matched && event.name == "OPERATOR_CALL"
            && disagreeing.count({ event.chain.value, event.instruction.value })) {
            event.placement = {};
            event.placement.nameDisagrees = true;
            event.nodeName.clear();
            event.edgeNodes.clear();
        }
}

TimelineRun buildRun(
    const RunBlock& block, std::size_t index, std::size_t blockIndex, const EventMapper* mapper, std::size_t& overlaps)
{
    TimelineRun run;
    run.index = index;
    run.block = blockIndex;
    TimelineLane method;
    method.kind = TimelineLane::Kind::Method;
    method.title = mapper ? mapper->method() : std::string("method");
    std::map<std::pair<int, int>, TimelineLane> delegates;
    DelegateEventCursor cursor;
    bool first = true;
    for (std::size_t e = 0; e < block.profileEvents.size(); ++e) {
        const ProfileEvent& source = block.profileEvents[e];
        TimelineEvent event = makeEvent(source, e, mapper, cursor);
        run.startNs = first ? event.startNs : std::min(run.startNs, event.startNs);
        run.endNs = first ? event.endNs() : std::max(run.endNs, event.endNs());
        first = false;
        if (event.kind != ProfileRow::Scope::DelegateInternal) {
            method.events.push_back(std::move(event));
            continue;
        }
        TimelineLane& lane = delegates[{ event.chain.value, event.instruction.value }];
        if (lane.events.empty()) {
            lane.kind = TimelineLane::Kind::Delegate;
            lane.chain = event.chain;
            lane.instruction = event.instruction;
            describeDelegateLane(lane, mapper);
        }
        lane.events.push_back(std::move(event));
    }
    unplaceSpansOfDisagreeingKernels(method.events);
    run.lanes.push_back(std::move(method));
    for (auto& entry : delegates)
        run.lanes.push_back(std::move(entry.second));
    for (TimelineLane& lane : run.lanes)
        overlaps += nest(lane);
    return run;
}

} // namespace

std::size_t TimelineRun::eventCount() const
{
    std::size_t count = 0;
    for (const TimelineLane& lane : lanes)
        count += lane.events.size();
    return count;
}

std::string nanosecondsAsMicros(std::uint64_t ns)
{
    std::string fraction = std::to_string(ns % 1000);
    fraction.insert(0, 3 - fraction.size(), '0');
    return std::to_string(ns / 1000) + "." + fraction;
}

Result<Timeline> buildTimeline(const ETDump& dump, const EventMapper* mapper, const TimelineOptions& options)
{
    const std::vector<std::size_t> blocks = dump.executeBlocks();
    Timeline timeline;
    timeline.etdumpPath = dump.path();
    timeline.executeBlocks = blocks.size();
    timeline.method = mapper ? mapper->method() : std::string();
    if (options.run && *options.run >= blocks.size())
        return makeError(Error::Code::Usage, dump.path(),
            "run " + std::to_string(*options.run) + ": "
                + (blocks.empty() ? std::string("there is no Execute block")
                                  : "there are " + std::to_string(blocks.size()) + " Execute block(s), numbered 0 to "
                            + std::to_string(blocks.size() - 1)));
    timeline.warnings = dump.warnings;
    if (blocks.empty())
        timeline.warnings.push_back(
            { dump.path() + ": no Execute block: the program never ran while it was logged", std::nullopt });
    std::size_t overlaps = 0;
    for (std::size_t r = 0; r < blocks.size(); ++r)
        if (!options.run || *options.run == r)
            timeline.runs.push_back(buildRun(dump.runs[blocks[r]], r, blocks[r], mapper, overlaps));
    if (overlaps)
        timeline.warnings.push_back({ std::to_string(overlaps)
                + " event(s) start inside another event of their lane but end after it; drawn one level deeper",
            std::nullopt });
    if (mapper && options.checkFit)
        for (Warning& warning :
            dumpFitWarnings(checkDumpFitsProgram(dump, *mapper, options.run), dump.path(), mapper->method()))
            timeline.warnings.push_back(std::move(warning));
    return timeline;
}

std::string timelineChromeTrace(const Timeline& timeline)
{
    using Json = nlohmann::ordered_json;
    // Names come from the file: a corrupt one must not make dump() throw on invalid UTF-8.
    const auto text = [](const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); };
    std::string out = "{\"traceEvents\":[\n";
    bool firstLine = true;
    const auto add = [&](const Json& event) {
        out += (firstLine ? "" : ",\n") + text(event);
        firstLine = false;
    };
    const auto metadata = [&](const char* name, int pid, std::optional<int> tid, Json args) {
        Json event { { "name", name }, { "ph", "M" }, { "pid", pid } };
        if (tid)
            event["tid"] = *tid;
        event["args"] = std::move(args);
        add(event);
    };
    for (const TimelineRun& run : timeline.runs) {
        const int pid = static_cast<int>(run.index) + 1;
        metadata("process_name", pid, std::nullopt,
            { { "name",
                "run " + std::to_string(run.index) + " (Execute block " + std::to_string(run.block)
                    + " of the ETDump)" } });
        metadata("process_sort_index", pid, std::nullopt, { { "sort_index", pid } });
        for (std::size_t l = 0; l < run.lanes.size(); ++l) {
            const int tid = static_cast<int>(l) + 1;
            metadata("thread_name", pid, tid, { { "name", run.lanes[l].title } });
            metadata("thread_sort_index", pid, tid, { { "sort_index", tid } });
        }
        for (std::size_t l = 0; l < run.lanes.size(); ++l)
            for (const TimelineEvent& event : run.lanes[l].events) {
                Json args { { "kind", std::string(profileScopeName(event.kind)) }, { "depth", event.depth } };
                if (event.chain.valid()) {
                    args["chain"] = event.chain.value;
                    args["instruction"] = event.instruction.value;
                }
                if (!event.delegateIdentifier.empty())
                    args["delegate_debug_identifier"] = event.delegateIdentifier;
                if (event.placement.matched) {
                    args["node"] = event.nodeName;
                    args["node_id"] = event.placement.origin.top.value;
                    if (event.placement.origin.inner.valid())
                        args["inner_node_id"] = event.placement.origin.inner.value;
                }
                if (!event.edgeNodes.empty())
                    args["op_types"] = event.edgeNodes;
                add(Json { { "name", event.name }, { "cat", std::string(profileScopeName(event.kind)) }, { "ph", "X" },
                    { "ts", static_cast<double>(event.startNs) / 1000.0 },
                    { "dur", static_cast<double>(event.durationNs) / 1000.0 }, { "pid", pid },
                    { "tid", static_cast<int>(l) + 1 }, { "args", std::move(args) } });
            }
    }
    Json other { { "etdump", timeline.etdumpPath }, { "execute_blocks", timeline.executeBlocks },
        { "time_unit", "ETDump ticks read as nanoseconds; ts and dur in microseconds" } };
    if (!timeline.method.empty())
        other["method"] = timeline.method;
    out += "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":" + text(other) + "}\n";
    return out;
}

Table timelineTable(const Timeline& timeline)
{
    Table table;
    table.title = "Timeline";
    table.columns = { "run", "lane", "depth", "name", "kind", "start_us", "duration_us", "chain", "instruction",
        "delegate_debug_identifier", "node", "op_types" };
    for (const TimelineRun& run : timeline.runs)
        for (const TimelineLane& lane : run.lanes)
            for (const TimelineEvent& event : lane.events) {
                std::string opTypes;
                for (const std::string& name : event.edgeNodes)
                    opTypes += (opTypes.empty() ? "" : ", ") + name;
                std::vector<TableCell> row;
                row.emplace_back(static_cast<long long>(run.index));
                row.emplace_back(lane.title);
                row.emplace_back(static_cast<long long>(event.depth));
                row.emplace_back(event.name);
                row.emplace_back(std::string(profileScopeName(event.kind)));
                row.emplace_back(nanosecondsAsMicros(event.startNs - run.startNs));
                row.emplace_back(nanosecondsAsMicros(event.durationNs));
                row.emplace_back(
                    event.chain.valid() ? TableCell(static_cast<long long>(event.chain.value)) : TableCell(kNoValue));
                row.emplace_back(event.chain.valid() ? TableCell(static_cast<long long>(event.instruction.value))
                                                     : TableCell(kNoValue));
                row.emplace_back(event.delegateIdentifier);
                row.emplace_back(event.nodeName);
                row.emplace_back(opTypes);
                table.rows.push_back(std::move(row));
            }
    table.notes.emplace_back("start_us from the start of each run; ETDump ticks read as nanoseconds");
    return table;
}

} // namespace etscope::core
