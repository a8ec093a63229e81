// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/eventmapper.h"
#include "core/debug/runtimeprofile.h"
#include "core/table/table.h"
#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// One profile event of a run, placed in its lane. Times are the ETDump's ticks read as
/// nanoseconds (the POSIX platform layer, facts sheet §4.5); XNNPACK's inner events have
/// synthetic starts (laid back to back from the delegate call's start).
struct TimelineEvent {
    std::string name; ///< the event name; delegate-internal events by their delegate identifier
    ProfileRow::Scope kind = ProfileRow::Scope::Kernel;
    std::uint64_t startNs = 0;
    std::uint64_t durationNs = 0; ///< end − start, one 32-bit wrap-around allowed (ProfileEvent::duration)
    int depth = 0; ///< nesting level inside the lane, 0 for the outermost
    int parent = -1; ///< index in the lane's events of the enclosing event, -1 at depth 0
    ChainIndex chain { 0 }; ///< none for framework events
    InstructionId instruction;
    std::string delegateIdentifier; ///< the delegate debug id as text, empty when none
    EventPlacement placement; ///< the graph node when a program was given and the event matched
    std::string nodeName; ///< the node's label ("label › inner label" for inner nodes), or empty
    std::vector<std::string> edgeNodes; ///< ETRecord edge-graph node names behind the event
    std::size_t sequence = 0; ///< position among the block's profile events

    std::uint64_t endNs() const { return startNs + durationNs; }
};

/// A horizontal track: the method (framework, instruction and kernel events) or one delegate
/// call site (the backend's own events inside one DelegateCall instruction).
struct TimelineLane {
    enum class Kind { Method, Delegate };
    Kind kind = Kind::Method;
    std::string title; ///< "forward", "XnnpackBackend #0 (instruction 3)"
    ChainIndex chain { 0 }; ///< Delegate lanes: the call's chain
    InstructionId instruction; ///< Delegate lanes: the DelegateCall instruction
    DelegateIndex delegate; ///< Delegate lanes with a program: the method's delegate index
    std::string backendId; ///< Delegate lanes with a program: "XnnpackBackend"
    NodeId node; ///< Delegate lanes with a program: the delegate node of the method graph
    std::vector<TimelineEvent> events; ///< by start time; an enclosing event before what it holds
    int maxDepth = 0;
};

/// One Execute block (one Method::execute).
struct TimelineRun {
    std::size_t index = 0; ///< among the Execute blocks, from 0 (what --run counts)
    std::size_t block = 0; ///< position in ETDump::runs
    std::uint64_t startNs = 0; ///< earliest start of its events (0 without events)
    std::uint64_t endNs = 0; ///< latest end of its events
    std::vector<TimelineLane> lanes; ///< the method lane first, then delegate lanes by instruction
    std::size_t eventCount() const;
};

struct Timeline {
    std::string etdumpPath;
    std::string method; ///< the program's method, empty without a program
    std::size_t executeBlocks = 0; ///< in the ETDump, shown or not
    std::vector<TimelineRun> runs; ///< the runs shown, in order
    std::vector<Warning> warnings; ///< the ETDump's own, the program fit, overlapping events
};

struct TimelineOptions {
    std::optional<std::size_t> run; ///< one Execute block (counted from 0); nullopt = every run
    /// With a mapper: check the ETDump against the program (off where the caller already did,
    /// as the app does for the heatmap).
    bool checkFit = true;
};

/// The timeline of the Execute blocks of `dump`: per run, a method lane and one lane per
/// delegate call site, each event with its nesting depth inside the lane. With `mapper` (the
/// program's method), events are placed on graph nodes as `etscope profile` places them and
/// the ETDump is checked against the program (checkDumpFitsProgram, unless options.checkFit is
/// off): disagreements become warnings. Events of a lane that overlap without nesting are drawn one level deeper and
/// counted in a warning. Fails (Error::Usage) only when `options.run` names no Execute block.
/// An ETDump without Execute blocks gives no runs and a warning.
Result<Timeline> buildTimeline(const ETDump& dump, const EventMapper* mapper, const TimelineOptions& options = {});

/// Chrome Trace Event Format JSON (chrome://tracing, Perfetto): {"traceEvents": […],
/// "displayTimeUnit": "ns", "otherData": {…}}. One process per run (pid = run index + 1), one
/// thread per lane (tid = lane index + 1) named by "M" metadata events; every event an "X"
/// complete event with ts and dur in microseconds on the ETDump's own clock, cat its kind and
/// args with chain, instruction, delegate id, depth and node.
std::string timelineChromeTrace(const Timeline& timeline);

/// One row per event: run, lane, depth, name, kind, start_us (from the start of its run),
/// duration_us (both exact to the nanosecond), chain, instruction, delegate_debug_identifier,
/// node, op_types.
Table timelineTable(const Timeline& timeline);

/// Nanoseconds as microseconds with three decimals, exactly ("56036" → "56.036").
std::string nanosecondsAsMicros(std::uint64_t ns);

} // namespace etscope::core
