// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/eventmapper.h"
#include "core/table/table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// Statistics of a set of durations (ticks). Percentiles interpolate linearly between the
/// sorted samples, as the Inspector (numpy's default) does.
struct TimingStats {
    std::size_t count = 0;
    double min = 0;
    double p10 = 0;
    double p50 = 0;
    double p90 = 0;
    double max = 0;
    double avg = 0;
    double total = 0;
};

TimingStats computeTimingStats(std::vector<double> samples);

/// Linear-interpolation percentile (0–100) of sorted samples; 0 for none.
double percentile(const std::vector<double>& sorted, double p);

/// One profiling event across the runs: the k-th occurrence of the same event (name,
/// chain, instruction, delegate identifier) in every block where it occurs.
struct ProfileRow {
    enum class Scope {
        Framework, ///< Program::load_method, Method::init, Method::execute (chain -1)
        Instruction, ///< OPERATOR_CALL, DELEGATE_CALL, MOVE_CALL, JF_CALL, FREE_CALL spans
        Kernel, ///< native_call_<op> and boxed kernels: the operator's own time
        DelegateInternal, ///< an operator inside a delegate (no name, a delegate identifier)
    };
    std::string name; ///< the event name, or the delegate identifier for delegate-internal events
    Scope scope = Scope::Kernel;
    std::string blockName; ///< "Execute", or the block of framework events
    ChainIndex chain { 0 }; ///< none for framework events
    InstructionId instruction;
    std::string delegateIdentifier;
    int occurrence = 0; ///< 0 for the first time the event appears in a block
    EventPlacement placement;
    std::vector<std::string> edgeNodes; ///< ETRecord node names behind the event's handles
    std::vector<std::uint64_t> durations; ///< ticks, one per block where the event occurred
    TimingStats stats; ///< over `durations`, in ticks
    std::uint64_t firstStart = 0; ///< start tick in the first block

    /// The Inspector hides OPERATOR_CALL spans: they wrap the kernel call and add overhead.
    bool hiddenByDefault() const { return name == "OPERATOR_CALL"; }
};

/// Timing of one graph node: the kernel time the Inspector shows (native_call_* for kernels,
/// DELEGATE_CALL for delegates, the delegate's own event for inner nodes) and, for top-level
/// instructions, the enclosing OPERATOR_CALL/DELEGATE_CALL span.
struct NodeTiming {
    NodeOrigin origin;
    std::string label;
    std::size_t row = 0; ///< index into RuntimeProfile::rows of the kernel-time row
    TimingStats kernel;
    std::optional<TimingStats> span; ///< OPERATOR_CALL (kernels) when logged
};

struct RuntimeProfile {
    std::vector<ProfileRow> rows; ///< Execute-block events in first-seen order
    std::vector<ProfileRow> framework; ///< framework events of every block
    std::vector<NodeTiming> nodes; ///< in execution order
    std::size_t executeBlocks = 0;
    double ticksPerMs = 1e6;
    std::vector<Warning> warnings;

    const NodeTiming* timingOf(const NodeOrigin& origin) const;
    double toMs(double ticks) const { return ticks / ticksPerMs; }
};

struct ProfileOptions {
    /// Ticks per millisecond: 1e6 for the POSIX platform layer's nanoseconds (facts sheet §4.5).
    double ticksPerMs = 1e6;
};

/// Groups the profile events of `dump` per event across Execute blocks, places them on the
/// graph through `mapper` and computes statistics. Never fails: events that match no node
/// stay in `rows` with placement.matched = false, and one warning says how many.
RuntimeProfile buildRuntimeProfile(const ETDump& dump, const EventMapper& mapper, const ProfileOptions& options = {});

/// The profile of an ETDump read without its program: events grouped and timed as above, none
/// placed on a graph (and no warning about that).
RuntimeProfile buildDumpProfile(const ETDump& dump, const ProfileOptions& options = {});

/// The kind of one profile event: Framework outside Execute blocks or outside any chain, then
/// DelegateInternal (a delegate identifier), Instruction (the spans around an instruction) or Kernel.
ProfileRow::Scope profileEventScope(const ProfileEvent& event, bool executeBlock);

/// What kind of event a row is, as a table shows it: "framework", "instruction", "kernel" or
/// "delegate".
std::string_view profileScopeName(ProfileRow::Scope scope);

/// Per event, for an ETDump on its own: event_block_name, event_name (delegate-internal events by
/// their delegate identifier), kind, chain, instruction, delegate_debug_identifier, count, then
/// min/p50/p90/avg/max in ms. Framework events first; OPERATOR_CALL rows only when asked.
Table eventProfileTable(const RuntimeProfile& profile, bool includeOperatorCall = false);

/// The Inspector-style table: event_block_name, event_name, node, instruction,
/// delegate_debug_identifier, count, then min/p10/p50/p90/avg/max in ms, op_types. OPERATOR_CALL
/// rows only when `includeOperatorCall`; framework events first.
Table runtimeProfileTable(const RuntimeProfile& profile, const EventMapper& mapper, bool includeOperatorCall = false);

/// The per-node table of `etscope profile`: one row per timed node in execution order with
/// node, event_name (the event timed: native_call_* for kernels, DELEGATE_CALL for delegate
/// calls, the delegate identifier for inner nodes), instruction, count (runs), min, p50, p90,
/// avg and max in ms, op_types (ETRecord node names). Notes: the Execute block count and tick
/// unit, Method::execute's own statistics, and how many events matched no node.
Table nodeTimingTable(const RuntimeProfile& profile);

} // namespace etscope::core
